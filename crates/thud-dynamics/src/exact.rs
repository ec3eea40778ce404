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

/// `(A, b, λ, friction pairs (t, n, μ))` of an island.
type Assembly = (Matrix, Vec<f64>, Vec<f64>, Vec<(usize, usize, f64)>);

/// Assemble `(A, b, λ, friction pairs)` of the given points.
pub(crate) fn assemble(points: &[ContactRows], idx: &[u32]) -> Assembly {
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
    pgs::solve(
        &mut c.points,
        &mut bodies.dv,
        s.iterations,
        s.omega,
        s.symmetric_sweeps,
    );
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

/// Islands of the last step as `(island root, point indices)` in root order.
pub(crate) fn islands_of(c: &ContactStore) -> Vec<(u32, Vec<u32>)> {
    let mut order: Vec<u32> = (0..c.points.len() as u32).collect();
    order.sort_by_key(|&i| c.island[i as usize]);
    let mut out: Vec<(u32, Vec<u32>)> = Vec::new();
    for i in order {
        let root = c.island[i as usize];
        match out.last_mut() {
            Some((r, v)) if *r == root => v.push(i),
            _ => out.push((root, vec![i])),
        }
    }
    out
}

/// Write the last step's problems, one coupled boxed LCP per island of at most
/// `max_rows` rows, as a JSON array in thud-lcp's format. Returns how many were written.
pub(crate) fn export(
    c: &ContactStore,
    max_rows: usize,
    out: &mut dyn std::io::Write,
) -> Result<usize, String> {
    let mut problems = Vec::new();
    for (k, (_, idx)) in islands_of(c).iter().enumerate() {
        if 3 * idx.len() > max_rows {
            continue;
        }
        let (p, _) = boxed_problem(&c.points, idx)?;
        let name = format!("island {k} ({} points, {} rows)", idx.len(), 3 * idx.len());
        problems.push(thud_lcp::json::problem_json(
            Some(&name),
            &thud_lcp::Problem::Boxed(p),
        ));
    }
    let n = problems.len();
    serde_json::to_writer_pretty(&mut *out, &serde_json::Value::Array(problems))
        .map_err(|e| e.to_string())?;
    writeln!(out).map_err(|e| e.to_string())?;
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jacobian::{BuildParams, PointInput, build_point};
    use crate::solver_body::SolverBodies;
    use glam::{Mat3, Vec3};

    /// Two unit spheres (1 kg) stacked on the dummy ground, sliding and spinning: six
    /// rows of full rank, so the BLCP has one answer for PGS to approach.
    fn two_spheres() -> Vec<ContactRows> {
        let dt = 1.0 / 60.0;
        let mut bodies = SolverBodies::default();
        bodies.reset();
        let inv_i = Mat3::from_diagonal(Vec3::splat(1.0 / 0.1));
        let g = Vec3::new(0.0, -9.81 * dt, 0.0);
        let u1 = Velocity {
            lin: Vec3::new(0.3, 0.0, -0.1) + g,
            ang: Vec3::new(0.0, 0.5, 1.0),
        };
        let u2 = Velocity {
            lin: Vec3::new(-0.2, -0.5, 0.05) + g,
            ang: Vec3::new(2.0, 0.0, -0.3),
        };
        bodies.push(0, u1, u1, 1.0, inv_i, Vec3::new(0.0, 0.5, 0.0));
        bodies.push(1, u2, u2, 1.0, inv_i, Vec3::new(0.0, 1.5, 0.0));
        let s = BuildParams {
            inv_dt: 1.0 / dt,
            erp: 0.2,
            slop: 0.0,
            max_correction: 1.0,
            split: true,
            warm_start: 0.0,
            restitution_threshold: 1.0,
        };
        [
            (0u32, 1u32, Vec3::new(0.0, 0.0, 0.0)),
            (1, 2, Vec3::new(0.0, 1.0, 0.0)),
        ]
        .iter()
        .map(|&(a, b, p)| {
            let input = PointInput {
                a,
                b,
                normal: Vec3::Y,
                point: p,
                separation: 0.0,
                friction: 0.4,
                restitution: 0.0,
                warm: [0.0; 3],
            };
            build_point(&bodies, &input, &s).0
        })
        .collect()
    }

    #[test]
    fn pgs_approaches_the_exact_blcp_answer() {
        let exact = solve_points(&two_spheres(), &[0, 1], 20).unwrap();
        let mut errors = Vec::new();
        for iterations in [1, 4, 16, 64, 256] {
            let mut pts = two_spheres();
            let mut dv = vec![Velocity::ZERO; 3];
            pgs::solve(&mut pts, &mut dv, iterations, 1.0, false);
            let err = pts
                .iter()
                .flat_map(|c| c.rows.iter().map(|r| r.lambda))
                .zip(&exact)
                .map(|(l, e)| (f64::from(l) - e).abs())
                .fold(0.0, f64::max);
            errors.push(err);
        }
        let scale = exact.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        assert!(scale > 0.1, "{exact:?}");
        for w in errors.windows(2) {
            assert!(w[1] <= w[0] + 1e-6, "not approaching: {errors:?}");
        }
        assert!(
            errors.last().unwrap() / scale < 1e-4,
            "{errors:?} vs {exact:?}"
        );
    }

    #[test]
    fn export_writes_thud_lcp_json() {
        let store = ContactStore {
            points: two_spheres(),
            island: vec![1, 1],
            ..ContactStore::default()
        };
        let mut out = Vec::new();
        assert_eq!(export(&store, 100, &mut out).unwrap(), 1);
        let text = String::from_utf8(out).unwrap();
        let (problems, _) = thud_lcp::json::parse_problems(&text).unwrap();
        assert_eq!(problems[0].problem.n(), 6);
    }
}
