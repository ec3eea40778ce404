//! The packed row builder: the Jacobian rows of `jacobian.rs`, built four manifolds at a
//! time straight into the packed solver's lanes (`wide.rs`).
//!
//! For each point of a group's manifolds (one manifold per lane) it computes, lane by
//! lane, exactly what `jacobian::build_point_into` computes for that point — the tangents
//! `t₁ = normalize(n × e)`, `t₂ = n × t₁`, the lever arms `r = p − c`, per row
//! `d ∈ {n, t₁, t₂}` the blocks
//!
//! ```text
//!   J_ang,a = −(r_a × d),  J_ang,b = r_b × d,   T_ang,k = I_k⁻¹ J_ang,k
//!   D = 1/m_a + 1/m_b + J_ang,a·T_ang,a + J_ang,b·T_ang,b
//!   1/D,   b̃ = J·Vnc / D   (the blocks are kept as built, not divided by D)
//! ```
//!
//! then the normal row's stabilization (`jacobian::stabilize`: speculative `s/dt`,
//! split or Baumgarte correction) and the warm-start λ — with the same `f32` operations
//! in the same order (`lanes.rs`), so a lane holds the very bits of the scalar rows.
//! The group's bodies (`c`, `I⁻¹`, `Vnc`) are gathered once for all its points. Lanes
//! without a point (a short manifold, an empty lane) are zero rows. Two groups of the
//! same length that share their slots are built together in eight lanes
//! (`wide_avx.rs`, `PairKernel::build`), from [`prepare_group`], [`PointLanes`] and
//! [`GroupBodies`] here and the same operations.
//!
//! Building here rather than copying scalar rows into lanes halves the memory the rows
//! take and is about four times cheaper per point; the contact store builds the scalar
//! rows only for the steps that read them (`ContactStore::build_rows`: the exact mode,
//! the overflow set, restitution).

use glam::{BVec4A, Mat3, Vec3, Vec4};
use rayon::join;

use crate::contact::{ContactStore, parallel_points};
use crate::integrate::is_isotropic;
use crate::jacobian::{BuildParams, ManifoldInput, PointInput, lies_flat};
use crate::lanes::{M3, V3, clamp};
use crate::solver_body::SolverBodies;
use crate::wide::{self, Group, WideRow, WideSide, WideSlot, WideT, WideVel, gather};

/// What the rows of a group need of its bodies, lane by lane (gathered once).
pub(crate) struct GroupBodies {
    pub com_a: V3,
    pub com_b: V3,
    /// The lanes' isotropic inverse inertia `c` (`I⁻¹ = c·1`) of a and b, where `iso_a`
    /// / `iso_b` is set (every lane in a group without [`WideT`] blocks).
    pub c_a: Vec4,
    pub c_b: Vec4,
    /// Only for a group with [`WideT`] blocks: the lanes' world `I⁻¹` and which lanes'
    /// bodies are isotropic.
    full: Option<(M3, M3, BVec4A, BVec4A)>,
    /// Only for a group with a body in its own angular frame (`solver_body.rs`): the
    /// lanes' `Lᵀ`, which takes the angular blocks into it, and which lanes' bodies
    /// have one.
    frames: Option<(M3, M3, BVec4A, BVec4A)>,
    pub vnc_a: WideVel,
    pub vnc_b: WideVel,
    /// `1/m_a + 1/m_b`.
    pub lin_mass: Vec4,
}

impl GroupBodies {
    pub(crate) fn gather(g: &Group, bodies: &SolverBodies) -> Self {
        let mut out = GroupBodies {
            com_a: V3::default(),
            com_b: V3::default(),
            c_a: Vec4::ZERO,
            c_b: Vec4::ZERO,
            full: None,
            frames: None,
            vnc_a: WideVel::default(),
            vnc_b: WideVel::default(),
            lin_mass: g.inv_mass_a + g.inv_mass_b,
        };
        for l in 0..4 {
            let (a, b) = (g.a[l] as usize, g.b[l] as usize);
            out.com_a.set(l, bodies.com[a]);
            out.com_b.set(l, bodies.com[b]);
        }
        // The lanes' `Vnc` as the sweeps gather `dV` (two pieces a body, transposed).
        out.vnc_a = gather(&bodies.vnc[..], g.a);
        out.vnc_b = gather(&bodies.vnc[..], g.b);
        if g.in_frames() {
            let (mut fa, mut fb) = (M3::default(), M3::default());
            let (mut on_a, mut on_b) = ([false; 4], [false; 4]);
            for l in 0..4 {
                let lt = |k: u32| bodies.frame(k as usize).map(|f| f.lt);
                if let Some(m) = lt(g.a[l]) {
                    fa.set(l, &m);
                    on_a[l] = true;
                }
                if let Some(m) = lt(g.b[l]) {
                    fb.set(l, &m);
                    on_b[l] = true;
                }
            }
            out.frames = Some((fa, fb, BVec4A::from(on_a), BVec4A::from(on_b)));
        }
        if g.t_blocks() {
            let (mut ia, mut ib) = (M3::default(), M3::default());
            let (mut iso_a, mut iso_b) = ([false; 4], [false; 4]);
            for l in 0..4 {
                // (A body in its own frame has `I⁻¹ = 1` there.)
                let inv_i = |k: u32| match bodies.frame(k as usize) {
                    Some(_) => Mat3::IDENTITY,
                    None => bodies.inv_inertia[k as usize],
                };
                let (a, b) = (inv_i(g.a[l]), inv_i(g.b[l]));
                ia.set(l, &a);
                ib.set(l, &b);
                iso_a[l] = is_isotropic(&a);
                iso_b[l] = is_isotropic(&b);
                out.c_a[l] = a.x_axis.x;
                out.c_b[l] = b.x_axis.x;
            }
            out.full = Some((ia, ib, BVec4A::from(iso_a), BVec4A::from(iso_b)));
        } else {
            let iso = g.isotropic();
            (out.c_a, out.c_b) = (iso.0, iso.1);
        }
        out
    }

    /// `T_ang = I⁻¹J_ang` of both bodies (`jacobian::Pair::row`'s: `J_ang·c` for an
    /// isotropic body).
    #[inline(always)]
    fn t(&self, ja: V3, jb: V3) -> (V3, V3) {
        let (ta, tb) = (ja * self.c_a, jb * self.c_b);
        match &self.full {
            None => (ta, tb),
            Some((ia, ib, iso_a, iso_b)) => (
                V3::select(*iso_a, ta, *ia * ja),
                V3::select(*iso_b, tb, *ib * jb),
            ),
        }
    }

    /// `d·(Vnc_b − Vnc_a)` of the linear velocities, for each of the group's row
    /// directions `dir`: the same for all its points, so made once.
    #[inline(always)]
    pub(crate) fn linear(&self, dir: &[V3; 3]) -> [Vec4; 3] {
        let rel = self.vnc_b.lin - self.vnc_a.lin;
        dir.map(|d| d.dot(rel))
    }

    /// One row for unit directions `d` at lever arms `r_a`, `r_b` (`jacobian::Pair::row`),
    /// and its `T_ang` blocks; `lin` is `d·(Vnc_b − Vnc_a)` ([`GroupBodies::linear`]).
    #[inline(always)]
    fn row(&self, d: V3, lin: Vec4, r_a: V3, r_b: V3) -> (WideRow, [V3; 2]) {
        let ja = -r_a.cross(d);
        let jb = r_b.cross(d);
        let (ja, jb) = match &self.frames {
            Some((fa, fb, on_a, on_b)) => (
                V3::select(*on_a, *fa * ja, ja),
                V3::select(*on_b, *fb * jb, jb),
            ),
            None => (ja, jb),
        };
        let (ta, tb) = self.t(ja, jb);
        let diag = self.lin_mass + ja.dot(ta) + jb.dot(tb);
        let inv_d = Vec4::select(diag.cmpgt(Vec4::ZERO), Vec4::ONE / diag, Vec4::ZERO);
        let (va, vb) = (&self.vnc_a, &self.vnc_b);
        let jv = lin + ja.dot(va.ang) + jb.dot(vb.ang);
        let row = WideRow {
            ang_a: ja,
            ang_b: jb,
            b: jv * inv_d,
            lambda: Vec4::ZERO,
            inv_d,
        };
        (row, [ta, tb])
    }
}

/// `jacobian::tangents` in each lane: `e` is the x axis where `|n_x| < 0.57`, else y.
#[inline(always)]
fn tangents(n: V3) -> (V3, V3) {
    let near_x = n.x.abs().cmplt(Vec4::splat(0.57));
    let e = V3 {
        x: Vec4::select(near_x, Vec4::ONE, Vec4::ZERO),
        y: Vec4::select(near_x, Vec4::ZERO, Vec4::ONE),
        z: Vec4::ZERO,
    };
    let t1 = n.cross(e).normalize();
    (t1, n.cross(t1))
}

/// A run of groups' rows: their slots (each group in its half), [`WideT`] blocks, side
/// data and lanes.
pub(crate) struct GroupRows<'a> {
    pub slots: &'a mut [WideSlot],
    pub t: &'a mut [WideT],
    pub side: &'a mut [WideSide],
    pub lanes: &'a [[u32; 4]],
}

/// The contact store's inputs the rows are built from: the points' own, and their
/// manifolds'.
#[derive(Clone, Copy)]
pub(crate) struct Inputs<'a> {
    pub points: &'a [PointInput],
    pub manifolds: &'a [ManifoldInput],
}

impl<'a> Inputs<'a> {
    pub(crate) fn of(store: &'a ContactStore) -> Self {
        Inputs {
            points: &store.inputs,
            manifolds: &store.manifold_inputs,
        }
    }
}

/// What a group's rows share, set once before its points' rows: each body's share of
/// the basis hand-back ([`crate::wide::shares`]), the lanes' friction coefficients,
/// which of them lie flat within the slop (`jacobian::flat_gap`) and the rows'
/// directions — every lane's manifold normal (from its first point, `first`: a
/// manifold's points share its normal and material, so its tangents too; an empty lane
/// `Y`) and its tangents.
#[inline(always)]
pub(crate) fn prepare_group(
    g: &mut Group,
    first: Option<&[u32; 4]>,
    inputs: Inputs<'_>,
    s: &BuildParams,
) {
    (g.share_a, g.share_b) = crate::wide::shares(g.inv_mass_a, g.inv_mass_b);
    if let Some(lanes) = first {
        let mut n = V3::default();
        let mut friction = Vec4::ZERO;
        let mut flat = 0u8;
        for (l, &i) in lanes.iter().enumerate() {
            let m = inputs
                .points
                .get(i as usize)
                .map(|p| &inputs.manifolds[p.manifold as usize]);
            n.set(l, m.map_or(Vec3::Y, |m| m.normal));
            friction[l] = m.map_or(0.0, |m| m.friction);
            flat |= u8::from(m.is_some_and(|m| lies_flat(m.spread, s.slop))) << l;
        }
        g.set_friction(friction);
        g.set_flat(flat);
        let (t1, t2) = tangents(n);
        g.dir = [n, t1, t2];
    }
}

/// One wide point's inputs, lane by lane: a lane without a point (a short manifold, an
/// empty lane) has zeros and is not `live`.
pub(crate) struct PointLanes {
    pub p: V3,
    pub sep: Vec4,
    pub warm: [Vec4; 3],
    pub live: BVec4A,
}

impl PointLanes {
    #[inline(always)]
    pub(crate) fn gather(lanes: &[u32; 4], inputs: &[PointInput]) -> PointLanes {
        let mut p = V3::default();
        let (mut sep, mut warm) = (Vec4::ZERO, [Vec4::ZERO; 3]);
        let mut live = [false; 4];
        for (l, &i) in lanes.iter().enumerate() {
            let Some(input) = inputs.get(i as usize) else {
                continue;
            };
            p.set(l, input.point);
            sep[l] = input.separation;
            for (w, v) in warm.iter_mut().zip(input.warm) {
                w[l] = v;
            }
            live[l] = true;
        }
        PointLanes {
            p,
            sep,
            warm,
            live: BVec4A::new(live[0], live[1], live[2], live[3]),
        }
    }
}

/// The rows of one group (its wide points, with its lanes' store points `rows.lanes`).
#[inline(always)]
pub(crate) fn build_group(
    g: &mut Group,
    rows: GroupRows<'_>,
    inputs: Inputs<'_>,
    bodies: &SolverBodies,
    s: &BuildParams,
) {
    let gb = GroupBodies::gather(g, bodies);
    prepare_group(g, rows.lanes.first(), inputs, s);
    let inputs = inputs.points;
    let (inv_dt, erp, slop, gap) = (
        Vec4::splat(s.inv_dt),
        Vec4::splat(s.erp),
        Vec4::splat(s.slop),
        g.gap(s.gap),
    );
    let max_correction = Vec4::splat(s.max_correction);
    let warm_start = Vec4::splat(s.warm_start);
    let GroupRows {
        slots,
        t,
        side,
        lanes,
    } = rows;
    let half = g.half();
    let [lin_n, lin_1, lin_2] = gb.linear(&g.dir);
    for (wi, ((slot, ws), lanes)) in slots.iter_mut().zip(side.iter_mut()).zip(lanes).enumerate() {
        // The lanes' points; a lane without one computes on its manifold's directions
        // (an empty lane's, `Y`) and is zeroed.
        let PointLanes { p, sep, warm, live } = PointLanes::gather(lanes, inputs);
        let dead = !live;
        let [n, t1, t2] = g.dir;
        let r_a = p - gb.com_a;
        let r_b = p - gb.com_b;
        // Each row goes to its slot as soon as it is made (with its warm λ, zero in the
        // lanes without a point): three rows' worth of values alive at once do not fit
        // the registers (measured: 960 -> 800 instructions a wide point, 30 % of them
        // on the stack instead of 43 %).
        let mut put = |k: usize, mut r: WideRow, tk: [V3; 2]| {
            r.lambda = warm_start * warm[k];
            slot.rows[k].set(half, &r.zero_where(dead));
            if let Some(blocks) = t.get_mut(wi) {
                blocks.rows[k] = tk.map(|v| v.zero_where(dead));
            }
        };
        let (r1, b1) = gb.row(t1, lin_1, r_a, r_b);
        put(1, r1, b1);
        let (r2, b2) = gb.row(t2, lin_2, r_a, r_b);
        put(2, r2, b2);
        let (mut rn, bn) = gb.row(n, lin_n, r_a, r_b);
        let b_vel = rn.b;
        // `jacobian::stabilize` on the normal row.
        let inv_dn = rn.inv_d;
        let correction = clamp(erp * (-sep - slop) * inv_dt, Vec4::ZERO, max_correction);
        let open = sep.cmpgt(Vec4::ZERO);
        // (`jacobian::touching` of the warm λ; without a touching gap the open lanes' gap
        // as it is, the same bits.)
        let open_gap = if s.gap > 0.0 {
            let bound = g.friction() * (warm_start * warm[0]);
            let [l1, l2] = [1, 2].map(|k| (warm_start * warm[k]).abs());
            let stick = l1.cmplt(bound) & l2.cmplt(bound);
            (sep - Vec4::select(stick, gap, Vec4::ZERO)).max(Vec4::ZERO)
        } else {
            sep
        };
        let closing = rn.b + open_gap * inv_dt * inv_dn;
        let push = -correction * inv_dn;
        let split_b = if s.split {
            rn.b = Vec4::select(open, closing, rn.b);
            Vec4::select(open, Vec4::ZERO, push)
        } else {
            rn.b = Vec4::select(open, closing, rn.b - correction * inv_dn);
            Vec4::ZERO
        };
        put(0, rn, bn);
        // The normal row's couplings from the rows as stored, with the sweep's `T_ang`
        // (`solve_group`'s choice).
        let point = slot.point(half);
        let couple = if g.t_blocks() {
            wide::couplings(&point, &*t, wi)
        } else {
            wide::couplings(&point, g.isotropic(), wi)
        };
        for (c, v) in slot.couple.iter_mut().zip(couple) {
            c[half & 1] = Vec4::select(live, v, Vec4::ZERO);
        }
        *ws = WideSide {
            split_b: Vec4::select(live, split_b, Vec4::ZERO),
            sep: Vec4::select(live, sep, Vec4::ZERO),
            b_vel: Vec4::select(live, b_vel, Vec4::ZERO),
        };
    }
}

/// `f(group, its rows)` for every group, on the pool's threads when the step allows it
/// (`pool`, `contact::pool_points`) and there are enough points (groups are independent;
/// their points and blocks are contiguous and in group order, so the slices split
/// without allocating).
pub(crate) fn each_group(
    pool: bool,
    groups: &mut [Group],
    rows: GroupRows<'_>,
    f: &(impl Fn(&mut Group, GroupRows<'_>) + Sync),
) {
    // Below this many wide points a part runs serially.
    const PART: usize = 256;
    // The first wide point, and the first slot: a run split over threads has each
    // group's slots numbered as its wide points (no shared slots on a step that uses
    // the pool, `WideContacts::pack`); a run on one thread is all the groups, whose
    // slots start at 0 as their wide points do.
    let first = groups.first().map_or(0, |g| g.range().start);
    let t_first = groups.first().map_or(0, |g| g.t_range().start);
    let GroupRows {
        slots,
        t,
        side,
        lanes,
    } = rows;
    if groups.len() > 1 && side.len() > PART && parallel_points(4 * side.len(), pool) {
        debug_assert!(groups.iter().all(|g| g.slots() == g.range()));
        let mid = groups.len() / 2;
        let cut = groups[mid].range().start - first;
        let t_cut = groups[mid].t_range().start - t_first;
        let (g0, g1) = groups.split_at_mut(mid);
        let (p0, p1) = slots.split_at_mut(cut);
        let (t0, t1) = t.split_at_mut(t_cut);
        let (s0, s1) = side.split_at_mut(cut);
        let (l0, l1) = lanes.split_at(cut);
        join(
            || {
                each_group(
                    pool,
                    g0,
                    GroupRows {
                        slots: p0,
                        t: t0,
                        side: s0,
                        lanes: l0,
                    },
                    f,
                )
            },
            || {
                each_group(
                    pool,
                    g1,
                    GroupRows {
                        slots: p1,
                        t: t1,
                        side: s1,
                        lanes: l1,
                    },
                    f,
                )
            },
        );
        return;
    }
    // (A part may run on another pool thread: `thud_collide::denormals`.)
    let _flush = thud_collide::FlushDenormals::new();
    for g in groups {
        let r = g.range();
        let r = r.start - first..r.end - first;
        let sr = g.slots();
        let sr = sr.start - first..sr.end - first;
        let tr = g.t_range();
        let tr = tr.start - t_first..tr.end - t_first;
        let rows = GroupRows {
            slots: &mut slots[sr],
            t: &mut t[tr],
            side: &mut side[r.clone()],
            lanes: &lanes[r],
        };
        f(g, rows);
    }
}

#[cfg(test)]
mod tests {
    use glam::{Mat3, Quat, Vec3};

    use crate::contact::ContactStore;
    use crate::jacobian::{BuildParams, ContactInput};
    use crate::settings::SweepOrder;
    use crate::solver_body::{SolverBodies, Velocity};
    use crate::wide::WideContacts;

    /// Tilted bodies with full world inertia, moving and spinning; manifolds of one to
    /// four points with tilted normals, penetrating and separated points, warm impulses,
    /// against the ground and between bodies: every field of every lane's rows equals
    /// the scalar builder's bit for bit, with split impulse and with Baumgarte.
    #[test]
    fn lanes_hold_the_scalar_builders_rows_bit_for_bit() {
        // Bodies 2 and 5 isotropic beside full tensors (groups with `WideT` blocks, whose
        // isotropic lanes take `T = J·c`), then every body isotropic (groups without).
        for iso_every in [3, 1] {
            check_lanes_against_scalar_rows(|k| k % iso_every == 1 % iso_every);
        }
    }

    fn check_lanes_against_scalar_rows(isotropic: impl Fn(u32) -> bool) {
        let dt = 1.0 / 60.0;
        let mut bodies = SolverBodies::default();
        bodies.reset();
        for k in 0..6 {
            let t = k as f32;
            let rot = Mat3::from_quat(Quat::from_euler(
                glam::EulerRot::YXZ,
                0.3 * t,
                0.7,
                -0.2 * t,
            ));
            let inv_i = if isotropic(k) {
                Mat3::from_diagonal(Vec3::splat(4.0 + t))
            } else {
                rot * Mat3::from_diagonal(Vec3::new(6.0, 3.0 + t, 1.5)) * rot.transpose()
            };
            let u = Velocity {
                lin: Vec3::new(0.1 * t, -0.2, 0.05),
                ang: Vec3::new(0.3, -0.1 * t, 0.7),
            };
            bodies.push(
                k,
                u,
                u,
                1.0 / (1.0 + t),
                inv_i,
                Vec3::new(t, 0.5 + 0.3 * t, -t),
            );
        }
        // (Touching gaps: none, one below the second point's gap, one above it; the first
        // point comes without load, and only points that stick take it.)
        for (split, gap) in [(true, 0.0), (false, 0.0), (true, 5e-4), (false, 2e-3)] {
            let params = BuildParams {
                split,
                gap,
                ..BuildParams::for_tests(dt)
            };
            let mut store = ContactStore::default();
            let pairs = [
                (0u32, 1u32, 4),
                (1, 2, 3),
                (0, 3, 1),
                (2, 4, 4),
                (3, 5, 2),
                (4, 6, 4),
            ];
            for (m, &(a, b, n)) in pairs.iter().enumerate() {
                let normal = Vec3::new(0.1 * m as f32, 1.0, -0.6 + 0.2 * m as f32).normalize();
                for k in 0..n {
                    let kf = k as f32;
                    let input = ContactInput {
                        a,
                        b,
                        normal: if m == 5 { Vec3::X } else { normal },
                        point: Vec3::new(b as f32 + 0.4 * kf, 0.2 * kf, 0.3 - 0.25 * kf),
                        separation: 0.004 - 0.003 * kf,
                        friction: 0.5,
                        restitution: 0.0,
                        // (Manifolds 1 and 4 tilted: no touching gap for them.)
                        spread: if m % 3 == 1 { 1e-3 } else { 0.0 },
                        warm: [0.02 * kf, -0.001, 0.003 * kf],
                    };
                    store.push_point(input, &bodies, &params, k > 0);
                }
            }
            let mut wide = WideContacts::default();
            wide.pack(&store, &bodies, SweepOrder::Sequential, 16, &params, None);
            let mut lanes = store.clone();
            wide.rows_into(&mut lanes);
            for (i, (c, w)) in store.points.iter().zip(&lanes.points).enumerate() {
                assert_eq!((c.a, c.b, c.friction), (w.a, w.b, w.friction), "point {i}");
                assert_eq!(c.b_vel.to_bits(), w.b_vel.to_bits(), "point {i}: J̃ₙ·Vnc");
                for (k, (r, q)) in c.rows.iter().zip(&w.rows).enumerate() {
                    let bits = |r: &crate::jacobian::Row| {
                        let v = [r.j_lin, r.j_ang_a, r.j_ang_b, r.t_ang_a, r.t_ang_b];
                        let mut out: Vec<u32> = v
                            .iter()
                            .flat_map(|v| v.to_array().map(f32::to_bits))
                            .collect();
                        // The lanes keep `1/D` only.
                        out.extend([r.b, r.lambda, r.inv_d].map(f32::to_bits));
                        out
                    };
                    assert_eq!(bits(r), bits(q), "split {split}, point {i}, row {k}");
                }
                // The normal row's couplings with the friction rows, made from these
                // rows: the lanes' and the ones the scalar rows keep for their sweeps.
                let want =
                    [1, 2].map(|k| crate::pgs::scaled_coupling(&c.rows[0], &c.rows[k]).to_bits());
                let got = wide.couplings_of(i).map(f32::to_bits);
                assert_eq!(got, want, "split {split}, point {i}: couplings");
                let kept = c.ahead.map(f32::to_bits);
                assert_eq!(
                    kept, want,
                    "split {split}, point {i}: the scalar rows' couplings"
                );
            }
        }
    }
}
