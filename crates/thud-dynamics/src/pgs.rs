//! Projected Gauss-Seidel / SOR on the contact rows (reference note §4).
//!
//! With the accumulated velocity change `dV = M⁻¹Jᵀλ` (one [`Velocity`] per solver body)
//! the update of row `i` touches its two bodies only:
//!
//! ```text
//!   λ_i ← clamp(λ_i − ω·(b̃_i + J̃_i·dV), lo_i, hi_i)
//!   dV  += T_i · Δλ_i
//! ```
//!
//! Normal rows have `lo = 0, hi = ∞`; the two friction rows of a point have
//! `lo = −μλₙ, hi = +μλₙ` with the normal row's *current* λₙ (the bound moves as λₙ
//! converges: a box per iteration, a pyramid cone overall). A manifold is solved point
//! after point with one load and one store of the two bodies' `dV`
//! ([`solve_manifold`]), each point's friction rows first, then its normal row, so
//! non-penetration has the last word in every sweep (as in Box2D). A point's two
//! friction rows are updated side by side from the same `dV` (a Jacobi step on the
//! point's 2×2 tangent block; the tangent rows are nearly independent, their coupling
//! `|A₁₂| < √(A₁₁A₂₂)` always): it converges as well as one after the other (measured:
//! `pyramid_40` drifts 5.0 mm instead of 6.2) and shortens the packed sweep's
//! dependency chain by a third. ω is the SOR factor (1 = Gauss-Seidel); PGS converges
//! for `0 < ω < 2` on a symmetric positive definite `A`, and the contact `A` is only
//! semidefinite, so the iteration count bounds the work.
//!
//! Warm starting: `λ` starts from last step's value for the same feature, so `dV` starts
//! at `T·λ_warm`; a resting stack then needs a few sweeps instead of hundreds.
//!
//! The split-impulse pass runs the normal rows again on separate pseudo-velocities with
//! the position bias only (`lo = 0`), from zero each step.
//!
//! Joint rows (`joint/rows.rs`) run through the same update with their own bounds and,
//! for springs, the soft form `λ ← clamp(λ − s_m·(b̃ + J̃·dV) − s_i·λ, lo, hi)`. Each
//! sweep solves the joint rows first, then the contacts (joints hold the structure,
//! contacts have the last word on penetration).

use glam::{Vec3, Vec3A};

use crate::jacobian::{ContactRows, Row};
use crate::joint::rows::JointRow;
use crate::solver_body::Velocity;

/// One row update on the two bodies' velocity changes; returns nothing, updates `λ`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn update(
    r: &mut Row,
    lo: f32,
    hi: f32,
    omega: f32,
    ima: f32,
    imb: f32,
    va: &mut Velocity,
    vb: &mut Velocity,
) {
    let jdv = row_velocity(r, va, vb);
    let new = unclamped(r.lambda, r.b, jdv, omega).clamp(lo, hi);
    let delta = new - r.lambda;
    r.lambda = new;
    apply_impulse(r, delta, ima, imb, va, vb);
}

/// The row update's `λ − ω(b̃ + J̃·dV)` before the clamp. At ω = 1 it is evaluated as
/// `(λ − b̃) − J̃·dV`: `λ − b̃` does not wait for `dV`, so the chain from one row's
/// impulse to the next row's `λ` is one addition shorter (the packed kernel, `wide.rs`,
/// does the same, lane by lane).
#[inline(always)]
pub(crate) fn unclamped(lambda: f32, b: f32, jdv: f32, omega: f32) -> f32 {
    if omega == 1.0 {
        (lambda - b) - jdv
    } else {
        lambda - omega * (b + jdv)
    }
}

/// [`unclamped`] of a normal row whose `J̃·dV` is `jdv + ahead`, `ahead` the point's
/// friction impulses through the scaled couplings (`solve_manifold`): at ω = 1
/// `((λ − b̃) − jdv) − ahead`, so `ahead`, the last to be ready, is one subtraction
/// from the new λ.
#[inline(always)]
pub(crate) fn unclamped_ahead(lambda: f32, b: f32, jdv: f32, ahead: f32, omega: f32) -> f32 {
    if omega == 1.0 {
        ((lambda - b) - jdv) - ahead
    } else {
        lambda - omega * (b + (jdv + ahead))
    }
}

/// `J·dV` of one row, not yet divided by `D` (body a's linear block is `−J_lin`). The
/// angular terms are summed first and the linear term last: in a sweep the linear `dV`
/// is the last to be ready (its update is the longest chain), so the angular half is
/// already summed when it arrives.
#[inline(always)]
pub(crate) fn row_velocity_raw(r: &Row, va: &Velocity, vb: &Velocity) -> f32 {
    vel_row_velocity_raw(r, &Vel::of(*va), &Vel::of(*vb))
}

/// [`row_velocity_raw`] of `dV` as a sweep carries it ([`Vel`]).
#[inline(always)]
fn vel_row_velocity_raw(r: &Row, va: &Vel, vb: &Vel) -> f32 {
    (r.j_ang_a.dot(va.ang) + r.j_ang_b.dot(vb.ang)) + r.j_lin.dot(vb.lin - va.lin)
}

/// [`row_velocity`] of `dV` as a sweep carries it ([`Vel`]).
#[inline(always)]
pub(crate) fn vel_row_velocity(r: &Row, va: &Vel, vb: &Vel) -> f32 {
    vel_row_velocity_raw(r, va, vb) * r.inv_d
}

/// `J̃·dV = (J·dV)/D` of one row: the sum over the unscaled blocks, times `1/D` once
/// (one multiply instead of scaling each of the nine block entries by `1/D`).
#[inline(always)]
pub(crate) fn row_velocity(r: &Row, va: &Velocity, vb: &Velocity) -> f32 {
    row_velocity_raw(r, va, vb) * r.inv_d
}

/// `dV += T·δ` of one row on its two bodies (`T_lin = ∓J_lin/m`).
#[inline(always)]
pub(crate) fn apply_impulse(
    r: &Row,
    delta: f32,
    ima: f32,
    imb: f32,
    va: &mut Velocity,
    vb: &mut Velocity,
) {
    va.lin -= Vec3::from(r.j_lin * (delta * ima));
    va.ang += Vec3::from(r.t_ang_a * delta);
    vb.lin += Vec3::from(r.j_lin * (delta * imb));
    vb.ang += Vec3::from(r.t_ang_b * delta);
}

/// One joint row update (soft form; rigid rows have `mass_scale = 1`,
/// `impulse_scale = 0`).
#[inline(always)]
fn update_joint(j: &mut JointRow, dv: &mut [Velocity]) {
    let (a, b) = (j.a as usize, j.b as usize);
    let (mut va, mut vb) = (dv[a], dv[b]);
    let r = &mut j.row;
    let jdv = row_velocity(r, &va, &vb);
    let new =
        (r.lambda - j.mass_scale * (r.b + jdv) - j.impulse_scale * r.lambda).clamp(j.lo, j.hi);
    let delta = new - r.lambda;
    r.lambda = new;
    apply_impulse(r, delta, j.inv_mass_a, j.inv_mass_b, &mut va, &mut vb);
    dv[a] = va;
    dv[b] = vb;
}

/// `f` on each item, first to last or (`backward`) last to first.
#[inline(always)]
pub(crate) fn each_mut<T>(items: &mut [T], backward: bool, f: impl FnMut(&mut T)) {
    if backward {
        items.iter_mut().rev().for_each(f);
    } else {
        items.iter_mut().for_each(f);
    }
}

/// One sweep over the joint rows alone (the packed solver runs them before its colours).
pub(crate) fn sweep_joints(joints: &mut [JointRow], dv: &mut [Velocity], backward: bool) {
    each_mut(joints, backward, |j| update_joint(j, dv));
}

/// Apply `dV += T·λ` for the joint rows' warm impulses.
pub(crate) fn warm_start_joints(rows: &[JointRow], dv: &mut [Velocity]) {
    add_joint_impulses(rows, dv, 1.0);
}

/// Apply `dV −= T·λ` for the joint rows' impulses: what their sweeps and warm start
/// put into `dV`, taken out before the rows are built again between solve substeps.
pub(crate) fn take_out_joints(rows: &[JointRow], dv: &mut [Velocity]) {
    add_joint_impulses(rows, dv, -1.0);
}

/// `dV += sign·T·λ` over the joint rows.
fn add_joint_impulses(rows: &[JointRow], dv: &mut [Velocity], sign: f32) {
    for j in rows {
        let (a, b) = (j.a as usize, j.b as usize);
        let (mut va, mut vb) = (dv[a], dv[b]);
        apply_impulse(
            &j.row,
            sign * j.row.lambda,
            j.inv_mass_a,
            j.inv_mass_b,
            &mut va,
            &mut vb,
        );
        dv[a] = va;
        dv[b] = vb;
    }
    dv[0] = Velocity::ZERO;
}

/// Apply `dV += T·λ` for the rows' current (warm) impulses.
pub(crate) fn warm_start(points: &[ContactRows], dv: &mut [Velocity]) {
    for c in points {
        let (a, b) = (c.a as usize, c.b as usize);
        let (mut va, mut vb) = (dv[a], dv[b]);
        for r in &c.rows {
            apply_impulse(r, r.lambda, c.inv_mass_a, c.inv_mass_b, &mut va, &mut vb);
        }
        dv[a] = va;
        dv[b] = vb;
        dv[0] = Velocity::ZERO;
    }
}

/// The points of one manifold in order (`backward`: last to first) — each point's
/// friction pair (bounds `±μλₙ` of its current λₙ), then its normal row — with the
/// manifold's linear velocity kept in its own basis.
///
/// Every point of a manifold has the same two bodies and the same three directions
/// `d_k` (normal, tangents: an orthonormal basis), so a row's linear term
/// `d_k·(v_b − v_a)` is component `k` of the relative velocity in that basis, and an
/// impulse `δ` along `d_k` changes only that component, by `δ·(1/m_a + 1/m_b)`. The
/// update therefore carries three numbers `w_k` instead of both bodies' linear `dV`
/// (six), and after the last point hands the change back to the bodies in proportion
/// to their inverse masses (the impulses on a and b are equal and opposite):
///
/// ```text
///   w_k = d_k·(v_b − v_a)                         before the first point
///   J̃·dV = (J_ang,a·ω_a + J_ang,b·ω_b + w_k)/D     row k of any point
///   w_k += δ·(1/m_a + 1/m_b),  ω += T_ang·δ         its impulse
///   Δ = Σ d_k·(w_k − w_k⁰);  v_a −= Δ·(1/m_a)/(1/m_a + 1/m_b),  v_b += Δ·(1/m_b)/(…)
/// ```
///
/// The normal row reads the friction impulses ahead. Its `J_ang·ω` after the point's
/// two friction impulses `δ₁`, `δ₂` is `J_ang·(ω + T₁δ₁ + T₂δ₂) = J_ang·ω + c₁δ₁ +
/// c₂δ₂`, with the *couplings* `c_k = J_ang,a·T_k,a + J_ang,b·T_k,b` of the normal row
/// with friction row `k`. They do not depend on `dV`, so they are made once with the
/// rows — the packed rows' in `wide::couplings`, the scalar rows' beside them
/// (`ContactRows::ahead`: 15 % off `tower_20`'s sweeps, which made them in every
/// sweep before) — and the dot product then runs on the `ω`
/// from before the friction impulses, beside the friction rows, and only the couplings'
/// term waits for them. The couplings are kept divided by the normal row's `D`
/// (`c̃_k = c_k/Dₙ`, [`scaled_coupling`]), so that term is the last thing subtracted:
///
/// ```text
///   J̃ₙ·dV = (J_ang,n·ω + w₀)/Dₙ + (c̃₁·δ₁ + c̃₂·δ₂)      ω: before the point's friction
///   λₙ ← max(0, ((λₙ − b̃ₙ) − (J_ang,n·ω + w₀)/Dₙ) − (c̃₁·δ₁ + c̃₂·δ₂))   (ω = 1)
/// ```
///
/// That takes the impulses' `T·δ` and a dot product off the packed sweep's chain from
/// one point to the next, and with `c̃` the add and the multiply by `1/Dₙ` after the
/// couplings' term as well (measured in `docs/performance-log.md`).
///
/// In exact arithmetic this is the row update of each row with both bodies' full `dV`;
/// in `f32` it rounds differently (the basis is orthonormal to rounding). The packed
/// sweeps (`wide.rs`) do exactly these operations lane by lane, in this order — each
/// row's linear work is two operations instead of twenty-two.
///
/// Without `friction` (a sweep that [`friction_sweep`] leaves to the normal rows) each
/// point runs only its normal row, on the `ω` as it is:
///
/// ```text
///   λₙ ← max(0, (λₙ − b̃ₙ) − (J_ang,n·ω + w₀)/Dₙ)   (ω = 1)
/// ```
pub(crate) fn solve_manifold(
    points: &mut [ContactRows],
    dv: &mut [Velocity],
    omega: f32,
    backward: bool,
    friction: bool,
) {
    let Some(mut m) = points.first().map(|c| Manifold::begin(c, dv)) else {
        return;
    };
    each_mut(points, backward, |c| m.point(c, omega, friction));
    m.end(dv);
}

/// Two manifolds of forward sweeps with friction ([`solve_manifold`] on each), their
/// points taken in turns, so that the two chains of row updates — each waiting on the
/// one before it — overlap in the core. The manifolds must share no body but the
/// static dummy `0` (whose `dV` stays `+0`: its inverse mass and `T` blocks are zero):
/// each then reads and writes only its own bodies, and the answer is the same bits as
/// the two solved one after the other, in either order.
#[inline(always)]
pub(crate) fn solve_two_manifolds(
    [p, q]: [&mut [ContactRows]; 2],
    dv: &mut [Velocity],
    omega: f32,
) {
    let (Some(mut s), Some(mut t)) = (
        p.first().map(|c| Manifold::begin(c, dv)),
        q.first().map(|c| Manifold::begin(c, dv)),
    ) else {
        solve_manifold(p, dv, omega, false, true);
        solve_manifold(q, dv, omega, false, true);
        return;
    };
    let (mut p, mut q) = (p.iter_mut(), q.iter_mut());
    loop {
        match (p.next(), q.next()) {
            (None, None) => break,
            (c, d) => {
                if let Some(c) = c {
                    s.point(c, omega, true);
                }
                if let Some(d) = d {
                    t.point(d, omega, true);
                }
            }
        }
    }
    s.end(dv);
    t.end(dv);
}

/// A body's `dV` as a sweep carries it: both halves in SIMD registers (`Vec3A`), as the
/// rows' blocks are, so a dot product is one multiply and two additions of a register
/// and an impulse one multiply and one addition (the same operations in the same order
/// as on [`Velocity`]'s `Vec3`s, so the same bits).
#[derive(Clone, Copy)]
pub(crate) struct Vel {
    lin: Vec3A,
    ang: Vec3A,
}

impl Vel {
    #[inline(always)]
    pub(crate) fn of(v: Velocity) -> Self {
        Self {
            lin: v.lin.into(),
            ang: v.ang.into(),
        }
    }

    #[inline(always)]
    fn velocity(self) -> Velocity {
        Velocity {
            lin: self.lin.into(),
            ang: self.ang.into(),
        }
    }
}

/// One manifold's sweep in progress ([`solve_manifold`]): its bodies' `dV` as loaded,
/// the angular parts as updated, and the linear velocity in the manifold's basis.
struct Manifold {
    a: usize,
    b: usize,
    ima: f32,
    imb: f32,
    dir: [Vec3A; 3],
    va: Vel,
    vb: Vel,
    w0: [f32; 3],
    w: [f32; 3],
    m: f32,
}

impl Manifold {
    /// Loads the bodies of the manifold whose first point is `first`.
    #[inline(always)]
    fn begin(first: &ContactRows, dv: &[Velocity]) -> Self {
        let (a, b) = (first.a as usize, first.b as usize);
        let (ima, imb) = (first.inv_mass_a, first.inv_mass_b);
        let dir = first.rows.each_ref().map(|r| r.j_lin);
        let (va, vb) = (Vel::of(dv[a]), Vel::of(dv[b]));
        let w0 = basis_velocity(&dir, &va, &vb);
        Self {
            a,
            b,
            ima,
            imb,
            dir,
            va,
            vb,
            w0,
            w: w0,
            m: ima + imb,
        }
    }

    /// One point's rows: its friction pair and then its normal row, or (without
    /// `friction`) the normal row alone.
    #[inline(always)]
    fn point(&mut self, c: &mut ContactRows, omega: f32, friction: bool) {
        let Self { va, vb, w, m, .. } = self;
        let m = *m;
        if !friction {
            let rn = &mut c.rows[0];
            let jn = ((rn.j_ang_a.dot(va.ang) + rn.j_ang_b.dot(vb.ang)) + w[0]) * rn.inv_d;
            let nn = max_ps(unclamped(rn.lambda, rn.b, jn, omega), 0.0);
            let en = nn - rn.lambda;
            rn.lambda = nn;
            apply_angular(rn, en, va, vb);
            w[0] += en * m;
            return;
        }
        let bound = max_ps(c.friction * c.rows[0].lambda, 0.0);
        let [rn, r1, r2] = &mut c.rows;
        let (j1, j2) = (
            basis_row_velocity(r1, w[1], va, vb),
            basis_row_velocity(r2, w[2], va, vb),
        );
        let n1 = min_ps(max_ps(unclamped(r1.lambda, r1.b, j1, omega), -bound), bound);
        let n2 = min_ps(max_ps(unclamped(r2.lambda, r2.b, j2, omega), -bound), bound);
        let (e1, e2) = (n1 - r1.lambda, n2 - r2.lambda);
        r1.lambda = n1;
        r2.lambda = n2;
        let at = (va.ang, vb.ang);
        apply_angular(r1, e1, va, vb);
        w[1] += e1 * m;
        apply_angular(r2, e2, va, vb);
        w[2] += e2 * m;
        let ahead = c.ahead[0] * e1 + c.ahead[1] * e2;
        let jn = ((rn.j_ang_a.dot(at.0) + rn.j_ang_b.dot(at.1)) + w[0]) * rn.inv_d;
        let nn = max_ps(unclamped_ahead(rn.lambda, rn.b, jn, ahead, omega), 0.0);
        let en = nn - rn.lambda;
        rn.lambda = nn;
        apply_angular(rn, en, va, vb);
        w[0] += en * m;
    }

    /// Hands the basis velocity's change back to the bodies and stores their `dV`.
    #[inline(always)]
    fn end(self, dv: &mut [Velocity]) {
        let Self {
            a,
            b,
            ima,
            imb,
            dir,
            mut va,
            mut vb,
            w0,
            w,
            m,
        } = self;
        let rel = (dir[0] * (w[0] - w0[0]) + dir[1] * (w[1] - w0[1])) + dir[2] * (w[2] - w0[2]);
        let inv = if m > 0.0 { 1.0 / m } else { 0.0 };
        va.lin -= rel * (ima * inv);
        vb.lin += rel * (imb * inv);
        dv[a] = va.velocity();
        dv[b] = vb.velocity();
    }
}

/// `max(x, lo)` as the lanes' `maxps` takes it: `x` where `x > lo`, else `lo` (so a
/// `−0` against a `+0` bound gives `+0`, as in the packed sweeps).
#[inline(always)]
fn max_ps(x: f32, lo: f32) -> f32 {
    if x > lo { x } else { lo }
}

/// `min(x, hi)` as the lanes' `minps` takes it: `x` where `x < hi`, else `hi`.
#[inline(always)]
fn min_ps(x: f32, hi: f32) -> f32 {
    if x < hi { x } else { hi }
}

/// Whether sweep `s` (from 0) of a solve of `n` sweeps runs the friction rows
/// ([`Settings::friction_stride`](crate::Settings::friction_stride) `stride`): the
/// first sweep, every `stride`-th after it and the last; the sweeps between run only
/// the normal rows ([`solve_manifold`]). Stride 1: every sweep.
pub(crate) fn friction_sweep(s: u32, n: u32, stride: u32) -> bool {
    stride <= 1 || s.is_multiple_of(stride) || s + 1 == n
}

/// The relative linear velocity `v_b − v_a` of two bodies in a manifold's basis `dir`.
#[inline(always)]
fn basis_velocity(dir: &[Vec3A; 3], va: &Vel, vb: &Vel) -> [f32; 3] {
    let rel = vb.lin - va.lin;
    dir.map(|d| d.dot(rel))
}

/// `J̃·dV` of one row whose linear term `lin` is known (`solve_manifold`): the angular
/// terms summed first, as in [`row_velocity_raw`].
#[inline(always)]
fn basis_row_velocity(r: &Row, lin: f32, va: &Vel, vb: &Vel) -> f32 {
    ((r.j_ang_a.dot(va.ang) + r.j_ang_b.dot(vb.ang)) + lin) * r.inv_d
}

/// The coupling `J_ang,a·T_a + J_ang,b·T_b` of row `r` with row `k`: `r`'s `J_ang·ω`
/// changes by it times `k`'s impulse.
#[inline(always)]
pub(crate) fn coupling(r: &Row, k: &Row) -> f32 {
    r.j_ang_a.dot(k.t_ang_a) + r.j_ang_b.dot(k.t_ang_b)
}

/// The coupling of row `r` with row `k` in `r`'s scaled domain, `c/D_r`: `r`'s `J̃·dV`
/// changes by it times `k`'s impulse.
#[inline(always)]
pub(crate) fn scaled_coupling(r: &Row, k: &Row) -> f32 {
    coupling(r, k) * r.inv_d
}

/// `ω += T_ang·δ` of one row on both bodies.
#[inline(always)]
fn apply_angular(r: &Row, delta: f32, va: &mut Vel, vb: &mut Vel) {
    va.ang += r.t_ang_a * delta;
    vb.ang += r.t_ang_b * delta;
}

/// One Gauss-Seidel sweep over the joint rows, then all points, forward or backward: the
/// scalar reference the packed solver (`wide.rs`) is tested against.
/// Alternating the direction (symmetric Gauss-Seidel) keeps the order's bias from
/// accumulating step after step into a systematic drift or twist of stacks.
#[cfg(test)]
pub(crate) fn sweep(
    joints: &mut [JointRow],
    points: &mut [ContactRows],
    dv: &mut [Velocity],
    omega: f32,
    backward: bool,
) {
    // Each point as a manifold of its own.
    let point = |c: &mut ContactRows, dv: &mut [Velocity]| {
        solve_manifold(std::slice::from_mut(c), dv, omega, false, true);
    };
    if backward {
        each_mut(points, true, |c| point(c, dv));
        sweep_joints(joints, dv, true);
    } else {
        sweep_joints(joints, dv, false);
        each_mut(points, false, |c| point(c, dv));
    }
    // Static partners all point at the dummy; it must stay at rest. Its T blocks are zero,
    // so this only scrubs rounding of `0 · x`.
    dv[0] = Velocity::ZERO;
}

/// `iterations` sweeps, alternating direction when `symmetric`.
#[cfg(test)]
pub(crate) fn solve(
    joints: &mut [JointRow],
    points: &mut [ContactRows],
    dv: &mut [Velocity],
    iterations: u32,
    omega: f32,
    symmetric: bool,
) {
    for k in 0..iterations {
        sweep(joints, points, dv, omega, symmetric && k % 2 == 1);
    }
}

/// Restitution: re-solve the listed normal rows with their restitution `b̃` (only those
/// that pushed: `λₙ > 0`).
pub(crate) fn restitution_pass(
    points: &mut [ContactRows],
    rest: &[(u32, f32)],
    dv: &mut [Velocity],
) {
    for &(i, b_rest) in rest {
        let c = &mut points[i as usize];
        if c.rows[0].lambda <= 0.0 {
            continue;
        }
        let (a, b) = (c.a as usize, c.b as usize);
        let (mut va, mut vb) = (dv[a], dv[b]);
        let mut r = c.rows[0];
        r.b = b_rest;
        update(
            &mut r,
            0.0,
            f32::INFINITY,
            1.0,
            c.inv_mass_a,
            c.inv_mass_b,
            &mut va,
            &mut vb,
        );
        c.rows[0].lambda = r.lambda;
        dv[a] = va;
        dv[b] = vb;
    }
    dv[0] = Velocity::ZERO;
}

/// One sweep of the split-impulse position pass over the normal rows.
pub(crate) fn split_sweep(
    points: &[ContactRows],
    split_b: &[f32],
    lambda: &mut [f32],
    pseudo: &mut [Velocity],
) {
    for ((c, &b), l) in points.iter().zip(split_b).zip(lambda.iter_mut()) {
        if b == 0.0 && *l == 0.0 {
            continue;
        }
        let (a, bb) = (c.a as usize, c.b as usize);
        let (mut va, mut vb) = (pseudo[a], pseudo[bb]);
        let mut r = c.rows[0];
        r.b = b;
        r.lambda = *l;
        update(
            &mut r,
            0.0,
            f32::INFINITY,
            1.0,
            c.inv_mass_a,
            c.inv_mass_b,
            &mut va,
            &mut vb,
        );
        *l = r.lambda;
        pseudo[a] = va;
        pseudo[bb] = vb;
    }
    pseudo[0] = Velocity::ZERO;
}

/// One sweep of the split-impulse position pass over the joint rows that need one.
pub(crate) fn split_sweep_joints(rows: &[JointRow], lambda: &mut [f32], pseudo: &mut [Velocity]) {
    for (j, l) in rows.iter().zip(lambda.iter_mut()) {
        if !j.split_active {
            continue;
        }
        let (a, b) = (j.a as usize, j.b as usize);
        let (mut va, mut vb) = (pseudo[a], pseudo[b]);
        let mut r = j.row;
        r.b = j.split_b;
        r.lambda = *l;
        update(
            &mut r,
            j.split_lo,
            f32::INFINITY,
            1.0,
            j.inv_mass_a,
            j.inv_mass_b,
            &mut va,
            &mut vb,
        );
        *l = r.lambda;
        pseudo[a] = va;
        pseudo[b] = vb;
    }
    pseudo[0] = Velocity::ZERO;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jacobian::{BuildParams, ContactInput, build_point};
    use crate::solver_body::SolverBodies;
    use glam::{Mat3, Vec3};

    /// A unit box (1 kg) resting on the dummy ground with four corner contacts.
    fn box_on_ground(dt: f32) -> (SolverBodies, Vec<ContactRows>) {
        let mut bodies = SolverBodies::default();
        bodies.reset();
        let inv_i = Mat3::from_diagonal(Vec3::splat(6.0));
        let g = Velocity {
            lin: Vec3::new(0.0, -9.81 * dt, 0.0),
            ang: Vec3::ZERO,
        };
        bodies.push(0, Velocity::ZERO, g, 1.0, inv_i, Vec3::new(0.0, 0.5, 0.0));
        let s = BuildParams::for_tests(dt);
        let pts = [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]
            .iter()
            .map(|&(x, z)| {
                let p = ContactInput {
                    a: 0,
                    b: 1,
                    normal: Vec3::Y,
                    point: Vec3::new(x, 0.0, z),
                    separation: 0.0,
                    friction: 0.6,
                    restitution: 0.0,
                    spread: 0.0,
                    warm: [0.0; 3],
                };
                build_point(&bodies, &p, &s).0
            })
            .collect();
        (bodies, pts)
    }

    #[test]
    fn friction_sweeps_are_the_first_every_stride_th_and_the_last() {
        let sweeps = |n: u32, stride: u32| -> Vec<u32> {
            (0..n).filter(|&s| friction_sweep(s, n, stride)).collect()
        };
        assert_eq!(sweeps(3, 1), [0, 1, 2]);
        assert_eq!(sweeps(3, 2), [0, 2]);
        assert_eq!(sweeps(4, 2), [0, 2, 3]);
        assert_eq!(sweeps(12, 2), [0, 2, 4, 6, 8, 10, 11]);
        assert_eq!(sweeps(10, 3), [0, 3, 6, 9]);
        assert_eq!(sweeps(1, 5), [0]);
        // Stride 0 (refused by `Settings::validate`) reads as 1.
        assert_eq!(sweeps(3, 0), [0, 1, 2]);
    }

    #[test]
    fn resting_box_normal_impulses_sum_to_m_g_dt() {
        let dt = 1.0 / 60.0;
        let (mut bodies, mut pts) = box_on_ground(dt);
        solve(&mut [], &mut pts, &mut bodies.dv, 200, 1.0, true);
        let sum: f32 = pts.iter().map(|c| c.rows[0].lambda).sum();
        assert!((sum - 9.81 * dt).abs() < 1e-3 * 9.81 * dt, "{sum}");
        let v = bodies.vnc[1].lin + bodies.dv[1].lin;
        assert!(v.length() < 1e-5, "{v}");
        assert_eq!(bodies.dv[0], Velocity::ZERO);
    }

    #[test]
    fn row_update_matches_dense_projected_gauss_seidel() {
        // Reference: form A = J M⁻¹ Jᵀ explicitly and run textbook PGS on it.
        let dt = 1.0 / 60.0;
        let (mut bodies, mut pts) = box_on_ground(dt);
        let rows: Vec<_> = pts
            .iter()
            .flat_map(|c| c.rows.iter().map(move |r| (*c, *r)))
            .collect();
        let n = rows.len();
        let mut a = vec![vec![0.0f64; n]; n];
        let mut bvec = vec![0.0f64; n];
        for (i, (ci, ri)) in rows.iter().enumerate() {
            bvec[i] = f64::from(ri.b * ri.d);
            for (j, (cj, rj)) in rows.iter().enumerate() {
                // body 1 is b for every point; a is the dummy.
                let (ji_lin, ji_ang) = (ri.j_lin, ri.j_ang_b);
                let tj_lin = rj.j_lin * cj.inv_mass_b;
                a[i][j] = f64::from(ji_lin.dot(tj_lin) + ji_ang.dot(rj.t_ang_b));
                let _ = ci;
            }
        }
        let mut lam = vec![0.0f64; n];
        for sweep_k in 0..5 {
            let order: Vec<usize> = if sweep_k % 2 == 1 {
                (0..4).rev().collect()
            } else {
                (0..4).collect()
            };
            for p in order {
                // block order: t1 and t2 from the same λ (Jacobi on the pair), then n
                let w =
                    |i: usize, lam: &[f64]| (0..n).map(|j| a[i][j] * lam[j]).sum::<f64>() + bvec[i];
                let m = 0.6 * lam[3 * p];
                let (i1, i2, i0) = (3 * p + 1, 3 * p + 2, 3 * p);
                let (w1, w2) = (w(i1, &lam), w(i2, &lam));
                lam[i1] = (lam[i1] - w1 / a[i1][i1]).clamp(-m, m);
                lam[i2] = (lam[i2] - w2 / a[i2][i2]).clamp(-m, m);
                let w0 = w(i0, &lam);
                lam[i0] = (lam[i0] - w0 / a[i0][i0]).max(0.0);
            }
        }
        solve(&mut [], &mut pts, &mut bodies.dv, 5, 1.0, true);
        for (i, (ci, _)) in rows.iter().enumerate() {
            let _ = ci;
            let got = pts[i / 3].rows[i % 3].lambda;
            assert!(
                (f64::from(got) - lam[i]).abs() < 1e-5,
                "row {i}: {got} vs {}",
                lam[i]
            );
        }
    }
}
