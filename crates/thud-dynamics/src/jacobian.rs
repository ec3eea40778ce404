//! The Jacobian builder: three rows per contact point, exactly the structure of the
//! reference note (`shared/reference/contact-lcp.md` §3–4).
//!
//! A contact point joins bodies `a` and `b` (solver indices; `0` is the immovable dummy)
//! at world point `p`, with unit normal `n` from A to B and tangents `t₁, t₂`. With lever
//! arms `r_a = p − c_a`, `r_b = p − c_b`, each row `d ∈ {n, t₁, t₂}` has the per-body
//! blocks
//!
//! ```text
//!   J_lin,a = −dᵀ        J_ang,a = −(r_a × d)ᵀ
//!   J_lin,b = +dᵀ        J_ang,b = +(r_b × d)ᵀ
//!   T = M⁻¹Jᵀ:   T_lin,k = J_lin,kᵀ / m_k,   T_ang,k = I_k⁻¹ J_ang,kᵀ
//!   D = Σ_k J_lin,k·T_lin,k + J_ang,k·T_ang,k   = 1/m_a + 1/m_b + J_ang,a I_a⁻¹ J_ang,aᵀ + …
//!   b = J·Vnc + (stabilization)                 b̃ = b / D,   J̃ = J / D
//! ```
//!
//! Storage (96 bytes per row, 320 per point): the linear blocks of a row are `∓d`, so a
//! row keeps `J_lin = d` once (body a uses its negative) and `T_lin,k = J_lin,k·(1/m_k)`
//! is made from the point's two inverse masses; the angular blocks `J_ang,a`, `J_ang,b`,
//! `T_ang,a`, `T_ang,b` are stored in full (each a `Vec3A`, 16 bytes: a sweep reads it
//! as one SIMD register, a dot product in one multiply and two additions and an impulse
//! in one multiply and one addition, the same operations as on `Vec3`'s three floats in
//! the same order, so the same bits), with `D` and `1/D`. The blocks stay as built,
//! not divided by `D`: the update reads `J̃·dV` as `(J·dV)·(1/D)`, one multiply instead
//! of nine, and `b̃` and λ are in impulse units. A static partner is the dummy body with
//! `1/m = 0`, `I⁻¹ = 0`: its `T` blocks vanish and it costs no branch.
//!
//! **Stabilization, in `b` of the normal row** (`s` = separation, negative = overlap):
//! - speculative, `s > 0`: `b = J·Vnc + s/dt` — the bodies may close the gap this step,
//!   no more, so a fast body stops at the surface instead of bouncing off the margin;
//! - Baumgarte, `s < −slop`: `b = J·Vnc − min(erp·(−s − slop)/dt, v_max)`;
//! - split impulse: the velocity row has no penetration term; a separate position row
//!   with `b_pos = −min(erp·(−s − slop)/dt, v_max)` drives pseudo-velocities.
//!
//! **Restitution** `e` applies when the approach speed `−vn₀` (from `u(t)`) exceeds the
//! threshold: after the sweeps, a restitution pass re-solves those normal rows with
//! `b = J·Vnc + e·vn₀` (Box2D v3's scheme: only contacts that actually pushed bounce).
//!
//! **Tangent basis.** `t₁ = normalize(n × e)`, `e` the x axis when `|n_x| < 0.57` and the
//! y axis otherwise; `t₂ = n × t₁`. It depends on `n` alone and is continuous around the
//! axis-aligned normals boxes produce, so warm-started friction impulses keep meaning.

use glam::{Mat3, Vec3, Vec3A};

use crate::solver_body::SolverBodies;

/// One constraint row: the `J` blocks as built, `T` angular blocks, `b̃`, `λ`, `D` and
/// `1/D`. The update reads `J̃·dV` as `(J·dV)·(1/D)` (`pgs::row_velocity`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct Row {
    /// `J_lin` of body b (the row's unit direction `d`); body a's block is its negative.
    pub j_lin: Vec3A,
    /// `J_ang,a = −(r_a × d)`.
    pub j_ang_a: Vec3A,
    /// `J_ang,b = r_b × d`.
    pub j_ang_b: Vec3A,
    /// `T_ang,a = I_a⁻¹ J_ang,aᵀ`.
    pub t_ang_a: Vec3A,
    /// `T_ang,b = I_b⁻¹ J_ang,bᵀ`.
    pub t_ang_b: Vec3A,
    /// `b̃ = b / D` (m/s over `D`: an impulse in N·s).
    pub b: f32,
    /// Accumulated impulse λ (N·s).
    pub lambda: f32,
    /// Diagonal `D = (J M⁻¹ Jᵀ)_ii` (1/kg).
    pub d: f32,
    /// `1/D` (0 where `D` is not positive).
    pub inv_d: f32,
}

/// The three rows of one contact point and the two bodies they touch.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct ContactRows {
    /// Solver index of body a (0 = immovable dummy).
    pub a: u32,
    /// Solver index of body b.
    pub b: u32,
    /// `1/m_a`, `1/m_b`.
    pub inv_mass_a: f32,
    /// See `inv_mass_a`.
    pub inv_mass_b: f32,
    /// Combined friction coefficient μ.
    pub friction: f32,
    /// The normal row's `J̃ₙ·Vnc` of the step's first solve substep: its `b̃` without
    /// the stabilization, which later solve substeps add to it again
    /// ([`refresh_point`]).
    pub b_vel: f32,
    /// Normal, first tangent, second tangent.
    pub rows: [Row; 3],
    /// The normal row's couplings with the two friction rows in its own scale,
    /// `c̃_k = (J_ang,n·T_k)/Dₙ` (`pgs::scaled_coupling`): made with the rows, as the
    /// packed rows make theirs, and read by every scalar sweep with friction
    /// ([`ContactRows::with_couplings`]).
    pub ahead: [f32; 2],
}

impl ContactRows {
    /// `self` with [`ahead`](Self::ahead) made from its rows.
    #[inline(always)]
    pub(crate) fn with_couplings(mut self) -> Self {
        let [rn, r1, r2] = &self.rows;
        self.ahead = [
            crate::pgs::scaled_coupling(rn, r1),
            crate::pgs::scaled_coupling(rn, r2),
        ];
        self
    }
}

/// Everything the builder needs about one contact point: its manifold's
/// ([`ManifoldInput`]) and its own ([`PointInput`]) inputs.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ContactInput {
    pub a: u32,
    pub b: u32,
    pub normal: Vec3,
    pub point: Vec3,
    pub separation: f32,
    pub friction: f32,
    pub restitution: f32,
    /// Its manifold's [`ManifoldInput::spread`].
    pub spread: f32,
    /// Last step's (λn, λt1, λt2).
    pub warm: [f32; 3],
}

impl ContactInput {
    /// The point's part and its manifold's (`manifold`: the manifold's index).
    #[cfg(test)]
    pub(crate) fn split(&self, manifold: u32) -> (ManifoldInput, PointInput) {
        (
            ManifoldInput {
                a: self.a,
                b: self.b,
                normal: self.normal,
                friction: self.friction,
                restitution: self.restitution,
                spread: self.spread,
            },
            PointInput {
                point: self.point,
                separation: self.separation,
                warm: self.warm,
                manifold,
            },
        )
    }

    /// A point's inputs with its manifold's.
    #[inline(always)]
    pub(crate) fn of(m: &ManifoldInput, p: &PointInput) -> Self {
        ContactInput {
            a: m.a,
            b: m.b,
            normal: m.normal,
            point: p.point,
            separation: p.separation,
            friction: m.friction,
            restitution: m.restitution,
            spread: m.spread,
            warm: p.warm,
        }
    }
}

/// What a manifold's points share: the solver bodies, the normal, the combined
/// friction and restitution, and the spread of its points' separations (32 bytes, once
/// a manifold).
#[derive(Debug, Clone, Copy)]
pub(crate) struct ManifoldInput {
    pub a: u32,
    pub b: u32,
    pub normal: Vec3,
    pub friction: f32,
    pub restitution: f32,
    /// How far apart its points' separations lie (the shallowest's less the deepest's,
    /// m, as the narrowphase gave them this step; 0 where the world has no touching
    /// gap, `ContactStore::spreads`): within the slop it lies flat ([`lies_flat`]).
    pub spread: f32,
}

/// A contact point's own inputs (32 bytes): where, how far apart, last step's impulses,
/// and its manifold (index into `ContactStore::manifold_inputs`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct PointInput {
    pub point: Vec3,
    pub separation: f32,
    /// Last step's (λn, λt1, λt2).
    pub warm: [f32; 3],
    pub manifold: u32,
}

/// Step-wide parameters of the builder.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BuildParams {
    pub inv_dt: f32,
    pub erp: f32,
    pub slop: f32,
    /// `Settings::touching_gap`.
    pub gap: f32,
    pub max_correction: f32,
    pub split: bool,
    pub warm_start: f32,
    pub restitution_threshold: f32,
}

#[cfg(test)]
impl BuildParams {
    /// The unit tests' parameters: step `dt`, ERP 0.2, no slop, split impulse.
    pub(crate) fn for_tests(dt: f32) -> Self {
        Self {
            inv_dt: 1.0 / dt,
            erp: 0.2,
            slop: 0.0,
            gap: 0.0,
            max_correction: 1.0,
            split: true,
            warm_start: 1.0,
            restitution_threshold: 1.0,
        }
    }
}

/// What the builder produces besides the rows.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct PointExtra {
    /// `b̃` of the split-impulse position row (0 when no correction is needed).
    pub split_b: f32,
    /// `b̃` of the restitution pass, when restitution applies.
    pub restitution_b: Option<f32>,
}

/// A tangent basis that depends on `n` alone (see the module docs).
#[must_use]
#[inline]
pub(crate) fn tangents(n: Vec3) -> (Vec3, Vec3) {
    let e = if n.x.abs() < 0.57 { Vec3::X } else { Vec3::Y };
    let t1 = n.cross(e).normalize();
    (t1, n.cross(t1))
}

/// Build one row from its blocks: linear direction `d` (body a's block is `−d`, zero for
/// an angular row), the angular blocks `ja`, `jb`, and `lin_mass = (1/m_a + 1/m_b)·|d|²`.
#[inline]
fn blocks_row(
    bodies: &SolverBodies,
    (a, b): (usize, usize),
    d: Vec3,
    lin_mass: f32,
    ja: Vec3,
    jb: Vec3,
) -> Row {
    let pair = Pair::of(bodies, a, b);
    pair.row(d.into(), lin_mass, ja.into(), jb.into())
}

/// A body's `I⁻¹`, and whether it is isotropic (`I⁻¹ = c·1`): then `I⁻¹·j` is `j·c`, as
/// the packed rows make it in the sweep (`wide::Isotropic`).
/// A body in its own angular frame (`solver_body.rs`) has `I⁻¹ = 1` there, its angular
/// blocks taken into the frame (`J̃_ang = Lᵀ·J_ang`) first.
#[derive(Clone, Copy)]
struct InvInertia {
    m: Mat3,
    isotropic: bool,
    /// `Lᵀ` of a body in its own angular frame.
    frame: Option<Mat3>,
}

impl InvInertia {
    #[inline(always)]
    fn of(bodies: &SolverBodies, k: usize) -> Self {
        match bodies.frame(k) {
            Some(f) => Self {
                m: Mat3::IDENTITY,
                isotropic: true,
                frame: Some(f.lt),
            },
            None => {
                let m = bodies.inv_inertia[k];
                Self {
                    m,
                    isotropic: crate::integrate::is_isotropic(&m),
                    frame: None,
                }
            }
        }
    }

    /// An angular block in the body's frame.
    #[inline(always)]
    fn block(&self, j: Vec3A) -> Vec3A {
        match self.frame {
            Some(lt) => (lt * Vec3::from(j)).into(),
            None => j,
        }
    }

    /// `I⁻¹·j`.
    #[inline(always)]
    fn times(&self, j: Vec3A) -> Vec3A {
        if self.isotropic {
            j * self.m.x_axis.x
        } else {
            (self.m * Vec3::from(j)).into()
        }
    }
}

/// What one row needs of its two bodies, loaded once for the three rows of a point: their
/// inverse inertias and velocities without contact (linear, angular), the rows' math
/// in SIMD registers (`Vec3A`: the same operations in the same order as on `Vec3`s, so
/// the same bits, in fewer instructions).
#[derive(Clone, Copy)]
struct Pair {
    inv_i: [InvInertia; 2],
    vnc: [(Vec3A, Vec3A); 2],
}

impl Pair {
    #[inline(always)]
    fn of(bodies: &SolverBodies, a: usize, b: usize) -> Self {
        Self {
            inv_i: [a, b].map(|k| InvInertia::of(bodies, k)),
            vnc: [a, b].map(|k| (bodies.vnc[k].lin.into(), bodies.vnc[k].ang.into())),
        }
    }

    /// The row of unit direction `d` at lever arms `r_a`, `r_b`.
    #[inline(always)]
    fn lever_row(&self, d: Vec3A, lin_mass: f32, (r_a, r_b): (Vec3A, Vec3A)) -> Row {
        self.row(d, lin_mass, -r_a.cross(d), r_b.cross(d))
    }

    #[inline(always)]
    fn row(&self, d: Vec3A, lin_mass: f32, ja: Vec3A, jb: Vec3A) -> Row {
        let (ja, jb) = (self.inv_i[0].block(ja), self.inv_i[1].block(jb));
        let ta = self.inv_i[0].times(ja);
        let tb = self.inv_i[1].times(jb);
        let diag = lin_mass + ja.dot(ta) + jb.dot(tb);
        let inv_d = if diag > 0.0 { 1.0 / diag } else { 0.0 };
        // J·Vnc for this row.
        let [(la, aa), (lb, ab)] = self.vnc;
        let jv = d.dot(lb - la) + ja.dot(aa) + jb.dot(ab);
        Row {
            j_lin: d,
            j_ang_a: ja,
            j_ang_b: jb,
            t_ang_a: ta,
            t_ang_b: tb,
            b: jv * inv_d,
            lambda: 0.0,
            d: diag,
            inv_d,
        }
    }
}

/// Build one row for unit direction `d` at lever arms `r_a`, `r_b`.
#[inline]
pub(crate) fn row(bodies: &SolverBodies, a: usize, b: usize, d: Vec3, r_a: Vec3, r_b: Vec3) -> Row {
    let lin_mass = bodies.inv_mass[a] + bodies.inv_mass[b];
    blocks_row(bodies, (a, b), d, lin_mass, -r_a.cross(d), r_b.cross(d))
}

/// Build an angular row about unit `axis`: `J = [0 −axisᵀ | 0 axisᵀ]` (joints).
#[inline]
pub(crate) fn angular_row(bodies: &SolverBodies, a: usize, b: usize, axis: Vec3) -> Row {
    blocks_row(bodies, (a, b), Vec3::ZERO, 0.0, -axis, axis)
}

/// Normal-row stabilization for separation `sep`: a separated point may close its gap
/// within the step (`b̃ += sep/(dt·D)`, speculative contact); a penetrating one asks
/// for `erp·(−sep − slop)/dt` (at most `max_correction`), in its own `b̃` (Baumgarte,
/// added to `rn.b`) or in the split pass's (returned; 0 otherwise).
#[inline]
pub(crate) fn stabilize(rn: &mut Row, sep: f32, gap: f32, s: &BuildParams) -> f32 {
    let inv_dn = rn.inv_d;
    let correction = (s.erp * (-sep - s.slop) * s.inv_dt).clamp(0.0, s.max_correction);
    if sep > 0.0 {
        rn.b += open_gap(sep, gap) * s.inv_dt * inv_dn;
        0.0
    } else if s.split {
        -correction * inv_dn
    } else {
        rn.b -= correction * inv_dn;
        0.0
    }
}

/// How far a separated point's bodies may approach within a solve substep: its gap
/// `sep` less `gap` (its [`touching`] gap), not below zero (as the lanes' `maxps` takes
/// it, so the packed builders' bits are these).
#[inline(always)]
pub(crate) fn open_gap(sep: f32, gap: f32) -> f32 {
    let g = sep - gap;
    if g > 0.0 { g } else { 0.0 }
}

/// A manifold's touching gap, where it lies flat: `s.gap`
/// ([`Settings::touching_gap`](crate::Settings::touching_gap)) where its points'
/// separations lie within the slop of each other (its [`ManifoldInput::spread`] at
/// most `s.slop`), as a face resting on a face does, and 0 where it is tilted further:
/// a body rocking on an edge, or twisted on its support, closes its gaps. (Where every
/// point could keep its gap, `pile_1000`'s twisted columns stood on their corners and
/// the heap regained more energy than without the gap; `docs/dynamics.md`, *Touching
/// gaps*.)
#[inline(always)]
pub(crate) fn flat_gap(spread: f32, s: &BuildParams) -> f32 {
    if lies_flat(spread, s.slop) {
        s.gap
    } else {
        0.0
    }
}

/// Whether a manifold of this [`ManifoldInput::spread`] lies flat: its points'
/// separations within `slop` of each other (the one rule [`flat_gap`], the lanes'
/// flat bits and the kept rows' look all read).
#[inline(always)]
pub(crate) fn lies_flat(spread: f32, slop: f32) -> bool {
    spread <= slop
}

/// The gap below which a point counts as touching:
/// [`Settings::touching_gap`](crate::Settings::touching_gap) (`gap`) where the point
/// sticks as its `b̃` is made — its friction impulses (`l1`, `l2`) inside their bounds
/// `±μ·λₙ` (`mu`, `ln`: the rows' warm or current impulses), so it carries load and does
/// not slip — and 0 elsewhere: a point closing in on a body lands on it, one sliding
/// over it or lifting off follows its gap, and one resting on it keeps its row's target
/// through gaps of rounding size.
#[inline(always)]
pub(crate) fn touching([ln, l1, l2]: [f32; 3], mu: f32, gap: f32) -> f32 {
    let bound = mu * ln;
    if l1.abs() < bound && l2.abs() < bound {
        gap
    } else {
        0.0
    }
}

/// Refresh a point's rows for the next solve substep (`Settings::solve_substeps`): the
/// blocks and the `b̃ = J̃·Vnc` of the step's first substep stay (the bodies' `dV` carries
/// how far their `Vnc` has moved since, see `docs/dynamics.md`), the normal row takes
/// the stabilization for the advanced separation `sep` anew. Returns the split row's
/// `b̃`.
#[inline]
pub(crate) fn refresh_point(c: &mut ContactRows, sep: f32, spread: f32, s: &BuildParams) -> f32 {
    c.rows[0].b = c.b_vel;
    let gap = touching(
        c.rows.each_ref().map(|r| r.lambda),
        c.friction,
        flat_gap(spread, s),
    );
    stabilize(&mut c.rows[0], sep, gap, s)
}

/// The normal velocity of body `b` against body `a` at `point`, from their velocities
/// at the start of the step (`SolverBodies::v0`): negative where they approach. A point
/// of a manifold with restitution bounces where it is below `−restitution_threshold`
/// ([`build_point_into`], `ContactStore::find_bounces`).
#[inline]
pub(crate) fn approach_velocity(
    bodies: &SolverBodies,
    a: usize,
    b: usize,
    n: Vec3,
    point: Vec3,
) -> f32 {
    let r_a = point - bodies.com[a];
    let r_b = point - bodies.com[b];
    let (ua, ub) = (bodies.v0[a], bodies.v0[b]);
    n.dot(ub.lin + ub.ang.cross(r_b) - ua.lin - ua.ang.cross(r_a))
}

/// Build the three rows of a contact point (the caller guarantees one body is movable),
/// as a value ([`build_point_into`] with the point's own basis; tests).
#[cfg(test)]
#[must_use]
pub(crate) fn build_point(
    bodies: &SolverBodies,
    p: &ContactInput,
    s: &BuildParams,
) -> (ContactRows, PointExtra) {
    let mut rows = ContactRows::default();
    let extra = build_point_into(bodies, &ManifoldBasis::of(bodies, p), p, s, &mut rows);
    (rows, extra)
}

/// What the points of one manifold share in their rows: the two bodies' inverse
/// inertias and velocities, and the friction directions of its normal.
pub(crate) struct ManifoldBasis {
    pair: Pair,
    tangents: (Vec3, Vec3),
}

impl ManifoldBasis {
    /// The basis of the manifold of point `p`.
    #[inline]
    pub(crate) fn of(bodies: &SolverBodies, p: &ContactInput) -> Self {
        Self {
            pair: Pair::of(bodies, p.a as usize, p.b as usize),
            tangents: tangents(p.normal),
        }
    }
}

/// Build the three rows of a contact point (the caller guarantees one body is movable)
/// into `out`, where they live, with its manifold's `basis` made once for all its
/// points (the same rows, to the bit, as a basis made for each). Returning the 260-byte
/// rows as a value made and copied them twice on their way there: on `tower_20`, whose
/// exact island's scalar rows are built every step, the copies were about a sixth of
/// the build.
#[inline]
pub(crate) fn build_point_into(
    bodies: &SolverBodies,
    basis: &ManifoldBasis,
    p: &ContactInput,
    s: &BuildParams,
    out: &mut ContactRows,
) -> PointExtra {
    let (a, b) = (p.a as usize, p.b as usize);
    let n = p.normal;
    let (t1, t2) = basis.tangents;
    let r_a = Vec3A::from(p.point - bodies.com[a]);
    let r_b = Vec3A::from(p.point - bodies.com[b]);
    let lin_mass = bodies.inv_mass[a] + bodies.inv_mass[b];
    let pair = &basis.pair;
    let row = |d: Vec3| pair.lever_row(d.into(), lin_mass, (r_a, r_b));
    let (mut rn, mut r1, mut r2) = (row(n), row(t1), row(t2));
    let b_vel = rn.b;
    let inv_dn = rn.inv_d;
    let sep = p.separation;
    rn.lambda = s.warm_start * p.warm[0];
    r1.lambda = s.warm_start * p.warm[1];
    r2.lambda = s.warm_start * p.warm[2];
    let gap = touching(
        [rn.lambda, r1.lambda, r2.lambda],
        p.friction,
        flat_gap(p.spread, s),
    );
    let mut extra = PointExtra {
        split_b: stabilize(&mut rn, sep, gap, s),
        restitution_b: None,
    };
    let correction = (s.erp * (-sep - s.slop) * s.inv_dt).clamp(0.0, s.max_correction);

    // Restitution from the approach speed at the start of the step.
    if p.restitution > 0.0 {
        let vn0 = approach_velocity(bodies, a, b, n, p.point);
        if vn0 < -s.restitution_threshold {
            let base = rn.b - open_gap(sep, gap) * s.inv_dt * inv_dn;
            let base = if s.split {
                base
            } else {
                base + correction * inv_dn
            };
            extra.restitution_b = Some(base + p.restitution * vn0 * inv_dn);
        }
    }

    out.a = p.a;
    out.b = p.b;
    out.inv_mass_a = bodies.inv_mass[a];
    out.inv_mass_b = bodies.inv_mass[b];
    out.friction = p.friction;
    out.b_vel = b_vel;
    out.ahead = [
        crate::pgs::scaled_coupling(&rn, &r1),
        crate::pgs::scaled_coupling(&rn, &r2),
    ];
    out.rows = [rn, r1, r2];
    extra
}

// The sizes `docs/dynamics.md` quotes.
const _: () = assert!(std::mem::size_of::<Row>() == 96);
const _: () = assert!(std::mem::size_of::<ContactRows>() == 320);
const _: () = assert!(std::mem::size_of::<ManifoldInput>() == 32);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver_body::Velocity;

    #[test]
    fn tangent_basis_is_orthonormal_and_stable() {
        for n in [
            Vec3::X,
            Vec3::Y,
            Vec3::Z,
            -Vec3::X,
            -Vec3::Y,
            Vec3::new(0.3, 0.9, 0.1).normalize(),
        ] {
            let (t1, t2) = tangents(n);
            assert!(t1.dot(n).abs() < 1e-6 && t2.dot(n).abs() < 1e-6 && t1.dot(t2).abs() < 1e-6);
            assert!((t1.length() - 1.0).abs() < 1e-6 && (t2.length() - 1.0).abs() < 1e-6);
            let (u1, _) = tangents((n + Vec3::splat(1e-5)).normalize());
            assert!((u1 - t1).length() < 1e-3, "basis jumps near {n}");
        }
    }

    #[test]
    fn a_touching_gap_holds_a_sticking_point_only_where_its_manifold_lies_flat() {
        let mut bodies = SolverBodies::default();
        bodies.reset();
        bodies.push(
            0,
            Velocity::ZERO,
            Velocity::ZERO,
            0.0,
            Mat3::ZERO,
            Vec3::ZERO,
        );
        let inv_i = Mat3::from_diagonal(Vec3::splat(6.0));
        let v = Velocity {
            lin: Vec3::new(0.1, -0.3, 0.0),
            ang: Vec3::new(0.0, 0.2, 0.1),
        };
        bodies.push(1, v, v, 1.0, inv_i, Vec3::new(0.0, 0.5, 0.0));
        // A point 1 mm apart, inside a 2 mm touching gap; slop 0.1 mm.
        let s = BuildParams {
            gap: 2e-3,
            slop: 1e-4,
            ..BuildParams::for_tests(1.0 / 60.0)
        };
        let sticking = [0.02, 0.004, -0.009];
        let slipping = [0.02, 0.0101, 0.0];
        let point = |spread: f32, warm: [f32; 3]| ContactInput {
            a: 1,
            b: 2,
            normal: Vec3::Y,
            point: Vec3::new(0.3, 0.0, -0.2),
            separation: 1e-3,
            friction: 0.5,
            restitution: 0.0,
            spread,
            warm,
        };
        // What the normal row asks beyond `J̃ₙ·Vnc`: nothing where the gap holds the
        // point, its whole gap closed in the step where it does not (`closing`, made
        // with the build's operations in its order, so the same bits).
        let asked = |c: &ContactRows| c.rows[0].b - c.b_vel;
        let closing = |c: &ContactRows| c.b_vel + 1e-3 * s.inv_dt * c.rows[0].inv_d - c.b_vel;
        for (spread, warm, held) in [
            (0.0, sticking, true),
            (1e-4, sticking, true),
            (1.1e-4, sticking, false),
            (0.0, slipping, false),
        ] {
            let (mut c, _) = build_point(&bodies, &point(spread, warm), &s);
            let want = if held { 0.0 } else { closing(&c) };
            assert_eq!(asked(&c), want, "built: spread {spread}, warm {warm:?}");
            assert!(closing(&c) > 0.0);
            // A substep's refresh, from the rows' impulses as they stand.
            refresh_point(&mut c, 1e-3, spread, &s);
            assert_eq!(asked(&c), want, "refreshed: spread {spread}, warm {warm:?}");
        }
    }

    #[test]
    fn diagonal_matches_j_minv_jt() {
        let mut bodies = SolverBodies::default();
        bodies.reset();
        let inv_i = Mat3::from_diagonal(Vec3::new(6.0, 3.0, 2.0));
        bodies.push(0, Velocity::ZERO, Velocity::ZERO, 0.5, inv_i, Vec3::ZERO);
        bodies.push(
            1,
            Velocity::ZERO,
            Velocity::ZERO,
            0.25,
            inv_i * 0.5,
            Vec3::new(0.0, 1.0, 0.0),
        );
        let p = ContactInput {
            a: 1,
            b: 2,
            normal: Vec3::Y,
            point: Vec3::new(0.3, 0.5, -0.2),
            separation: 0.0,
            friction: 0.5,
            restitution: 0.0,
            spread: 0.0,
            warm: [0.0; 3],
        };
        let s = BuildParams {
            split: false,
            ..BuildParams::for_tests(1.0 / 60.0)
        };
        let (c, _) = build_point(&bodies, &p, &s);
        for r in &c.rows {
            // A_ii = J_a T_a + J_b T_b with the full blocks, and 1/D beside it.
            let d = r.d;
            assert_eq!(r.inv_d, 1.0 / d);
            let (jl, ja, jb) = (r.j_lin, r.j_ang_a, r.j_ang_b);
            let a_ii =
                jl.dot(jl) * (c.inv_mass_a + c.inv_mass_b) + ja.dot(r.t_ang_a) + jb.dot(r.t_ang_b);
            assert!((a_ii - d).abs() < 1e-5 * d);
        }
    }
}
