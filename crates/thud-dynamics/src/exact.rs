//! Exact step mode: each island's boxed LCP assembled explicitly and solved by thud-lcp.
//!
//! For the rows `i, j` of an island (3 per contact point, in the store's order) the
//! assembly forms, from the very blocks the PGS uses (`jacobian.rs`),
//!
//! ```text
//!   A_ij = Σ_{bodies k of both rows} J_i,k · T_j,k      (= J M⁻¹ Jᵀ, symmetric PSD)
//!   b_i  = D_i · b̃_i                                    (J·Vnc + stabilization)
//!   normal rows: lo = 0, hi = ∞;   friction rows: lo = −μλₙ, hi = +μλₙ
//! ```
//!
//! and solves `BLCP(A, b, lo, hi)` with thud-lcp's boxed block principal pivoting
//! (`thud_lcp::solvers::boxed_pivot`). The friction bounds are fixed from the current
//! λₙ (PGS's answer, itself warm-started from the previous step) and refreshed by
//! `Settings::exact_outer_passes` outer passes, each a fixed-bounds solve warm-started
//! from the previous pass. The PGS sweeps run first over every row, so islands too
//! large for a dense solve (`> exact_max_rows`) simply keep the PGS answer, and the
//! exact solve starts from a good active set. A failed solve also keeps the PGS answer.
//!
//! `World::export_lcp` writes the same assembly for the whole last step (with the
//! friction coupling pairs, i.e. the true coupled problem) in thud-lcp's JSON format.

use thud_lcp::{BoxedLcp, Matrix, Options};

use crate::contact::ContactStore;
use crate::jacobian::ContactRows;
use crate::pgs;
use crate::settings::Settings;
use crate::solver_body::{SolverBodies, Velocity};

/// The full per-body blocks of row `k` of point `c`: `(body, J_lin, J_ang, T_lin, T_ang)`
/// for body a then body b.
fn blocks(c: &ContactRows, k: usize) -> [(u32, [f64; 6], [f64; 6]); 2] {
    let r = &c.rows[k];
    let jl = r.j_lin * r.d;
    let ja = r.j_ang_a * r.d;
    let jb = r.j_ang_b * r.d;
    let tla = -jl * c.inv_mass_a;
    let tlb = jl * c.inv_mass_b;
    let f = |l: glam::Vec3, a: glam::Vec3| [l.x, l.y, l.z, a.x, a.y, a.z].map(f64::from);
    [
        (c.a, f(-jl, ja), f(tla, r.t_ang_a)),
        (c.b, f(jl, jb), f(tlb, r.t_ang_b)),
    ]
}

/// Assemble `(A, b, λ, friction pairs)` of the given points.
pub(crate) fn assemble(
    points: &[ContactRows],
    idx: &[u32],
) -> (Matrix, Vec<f64>, Vec<f64>, Vec<(usize, usize, f64)>) {
    let n = 3 * idx.len();
    let mut a = Matrix::zeros(n, n);
    let mut b = vec![0.0; n];
    let mut lambda = vec![0.0; n];
    let mut pairs = Vec::with_capacity(2 * idx.len());
    let all: Vec<_> = idx
        .iter()
        .flat_map(|&p| (0..3).map(move |k| (p, k)))
        .map(|(p, k)| blocks(&points[p as usize], k))
        .collect();
    for (i, bi) in all.iter().enumerate() {
        let (p, k) = (idx[i / 3] as usize, i % 3);
        let r = &points[p].rows[k];
        b[i] = f64::from(r.b) * f64::from(r.d);
        lambda[i] = f64::from(r.lambda);
        if k > 0 {
            pairs.push((i, i - k, f64::from(points[p].friction)));
        }
        for (j, bj) in all.iter().enumerate() {
            let mut s = 0.0;
            for (body_i, ji, _) in bi {
                if *body_i == 0 {
                    continue;
                }
                for (body_j, _, tj) in bj {
                    if body_i == body_j {
                        s += (0..6).map(|q| ji[q] * tj[q]).sum::<f64>();
                    }
                }
            }
            a.set(i, j, s);
        }
    }
    (a, b, lambda, pairs)
}

/// The coupled problem of some points (for export and tests).
pub(crate) fn boxed_problem(
    points: &[ContactRows],
    idx: &[u32],
) -> Result<(BoxedLcp, Vec<f64>), String> {
    let (a, b, lambda, pairs) = assemble(points, idx);
    let n = b.len();
    let lo: Vec<f64> = (0..n)
        .map(|i| if i % 3 == 0 { 0.0 } else { f64::NEG_INFINITY })
        .collect();
    let hi = vec![f64::INFINITY; n];
    let p = BoxedLcp::new(a, b, lo, hi)
        .and_then(|p| p.with_friction(pairs))
        .map_err(|e| e.to_string())?;
    Ok((p, lambda))
}

/// Solve the points `idx` exactly with fixed-bound outer passes; returns the new λ.
pub(crate) fn solve_points(
    points: &[ContactRows],
    idx: &[u32],
    passes: u32,
) -> Result<Vec<f64>, String> {
    let (a, b, mut lambda, pairs) = assemble(points, idx);
    let n = b.len();
    for _ in 0..passes.max(1) {
        let mut lo = vec![0.0; n];
        let mut hi = vec![f64::INFINITY; n];
        for &(t, nrow, mu) in &pairs {
            let m = mu * lambda[nrow].max(0.0);
            lo[t] = -m;
            hi[t] = m;
        }
        let p = BoxedLcp::new(a.clone(), b.clone(), lo, hi).map_err(|e| e.to_string())?;
        let opts = Options {
            warm_start: Some(lambda.clone()),
            tolerance: 1e-9,
            ..Options::default()
        };
        let r =
            thud_lcp::solvers::boxed_pivot::solve_boxed(&p, &opts).map_err(|e| e.to_string())?;
        if !r.z.iter().all(|z| z.is_finite()) {
            return Err("non-finite exact solution".into());
        }
        lambda = r.z;
    }
    Ok(lambda)
}

/// Apply new impulses to the points and their bodies' `dV`.
fn apply(points: &mut [ContactRows], idx: &[u32], lambda: &[f64], dv: &mut [Velocity]) {
    for (q, &p) in idx.iter().enumerate() {
        let c = &mut points[p as usize];
        let (a, b) = (c.a as usize, c.b as usize);
        for k in 0..3 {
            let r = &mut c.rows[k];
            let new = lambda[3 * q + k] as f32;
            let delta = new - r.lambda;
            r.lambda = new;
            let s = r.d * delta;
            dv[a].lin -= r.j_lin * (s * c.inv_mass_a);
            dv[a].ang += r.t_ang_a * delta;
            dv[b].lin += r.j_lin * (s * c.inv_mass_b);
            dv[b].ang += r.t_ang_b * delta;
        }
    }
    dv[0] = Velocity::ZERO;
}

/// PGS over everything, then an exact solve of each small island.
/// Returns (islands solved exactly, PGS sweeps done).
pub(crate) fn solve_islands(
    c: &mut ContactStore,
    bodies: &mut SolverBodies,
    s: &Settings,
) -> (usize, u32) {
    pgs::solve(&mut c.points, &mut bodies.dv, s.iterations, s.omega);
    let mut order: Vec<u32> = (0..c.points.len() as u32).collect();
    order.sort_by_key(|&i| c.island[i as usize]);
    let mut solved = 0;
    let mut start = 0;
    while start < order.len() {
        let root = c.island[order[start] as usize];
        let mut end = start;
        while end < order.len() && c.island[order[end] as usize] == root {
            end += 1;
        }
        let idx = &order[start..end];
        if 3 * idx.len() <= s.exact_max_rows
            && let Ok(lambda) = solve_points(&c.points, idx, s.exact_outer_passes)
        {
            apply(&mut c.points, idx, &lambda, &mut bodies.dv);
            solved += 1;
        }
        start = end;
    }
    (solved, s.iterations)
}
