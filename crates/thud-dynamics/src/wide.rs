//! The packed contact solver: PGS four manifolds at a time.
//!
//! The row update of `pgs.rs` is a chain of dependent operations (the next row reads the
//! `dV` the last one wrote), so one row at a time it is bound by latency, not by
//! arithmetic. Graph colouring (`color.rs`) finds manifolds that share no movable body;
//! here four of them of one colour form a *group* and are solved together, one manifold
//! per SIMD lane (`glam::Vec4`, SSE2 on x86-64, NEON on aarch64, plain `f32` elsewhere).
//!
//! Layout, structure of arrays per group:
//!
//! | array | what | bytes |
//! |---|---|---|
//! | `groups` | [`Group`]: the 4 lanes' body indices, `1/m_a`, `1/m_b` and each one's share of their sum, μ, isotropic `I⁻¹` of a and b, the rows' three directions (normal, tangents), range of wide points, of slots (and its half) and of `T` blocks | 320 |
//! | `slots` | [`WideSlot`]: the rows of two groups' wide points side by side, field by field. A wide point ([`WidePoint`], one half of a slot) is the point `k` of each lane's manifold, three [`WideRow`]s (n, t₁, t₂) of `J_ang,a, J_ang,b, b̃, λ, 1/D` × 4 lanes — and the normal row's couplings with the friction rows, `c(n, 1)`, `c(n, 2)` × 4 lanes — all a velocity sweep reads; the linear block is the group's direction, `J̃·dV` is `(J·dV)·(1/D)` and, for isotropic bodies, `T_ang = J_ang·c` is made in the sweep | 464 per 4 points (a slot is 928) |
//! | `loc` | the slot and half of each wide point (`2·slot + half`) | 4 per 4 points |
//! | `t` | [`WideT`]: the `T_ang` blocks of the wide points of groups with a body that is not isotropic (none in the standard scenes) | 288 per 4 points |
//! | `side` | [`WideSide`]: beside each wide point, the split row's `b̃`, the lanes' separations (advanced between solve substeps) and the normal rows' `J̃ₙ·Vnc₀` | 48 per 4 points |
//! | `lanes` | the contact store's point index behind each lane (`u32::MAX`: empty lane) | 16 per 4 points |
//! | `at` | the lane of each store point, `4·wide point + lane` (for `unpack`) | 4 per point |
//! | `split_lambda` | split-impulse λ per wide point | 16 per 4 points |
//! | `impulse` | the lanes' λ summed over the solve substeps (drained into the store) | 48 per 4 points |
//!
//! One group update gathers the lanes' `dV` of bodies a and b into registers (transposed
//! to `x, y, z` lanes), runs the points of the manifolds in order — friction rows with
//! bounds `±μλₙ` from the lane's current λₙ, then the normal row, exactly the update of
//! `pgs.rs` lane by lane — and scatters `dV` back. A manifold with fewer points than the
//! longest in its group sees zero rows (`J_ang = T = b̃ = λ = 1/D = 0`), which leave `λ` and `dV`
//! at zero; an empty lane points both bodies at the dummy, whose `dV` stays zero because
//! its `T` blocks are zero. Manifolds in a colour are sorted by point count first so
//! groups are full. Where the CPU has AVX, two groups run side by side in one eight-lane
//! kernel (`wide_avx.rs`, in the units `plan_units` lays out), with the same bits.
//!
//! **Slots.** The per-point arrays beside the rows (`side`, `lanes`, `split_lambda`,
//! `impulse`) are indexed by wide point, each group's contiguous. The rows themselves sit
//! in [`WideSlot`]s: each field of two groups' wide point `k` as one `[Vec4; 2]`, the
//! group in half 0 first. Where the CPU has the eight-lane kernel (`assign_slots`), the
//! two groups of a pair unit share slots (as many as the longer has wide points), in
//! sweep order, so the kernel reads every field of both with one 32-byte load instead
//! of joining two 16-byte halves from two places (27 joins a pair of wide points, and
//! the registers they held); when the sweeps run on one thread, a group that runs alone
//! shares its slots with the next lone group of as many points. The multi-threaded
//! sweeps (`parallel.rs`) hand out whole units, so a pair's slots have one owner at a
//! time, and lone groups keep slots of their own; the other passes over the rows then
//! stay on the sweeping thread. Without the kernel, per-group passes may split over the
//! pool, and every group keeps half 0 of slots numbered as its wide points, so no slot
//! has two owners.
//!
//! A sweep's time follows the instructions it issues and, once two groups run as one,
//! the bytes it streams: building `J̃_ang` and `T_ang` in the sweep from the 96 bytes of
//! `J_ang` instead of reading 192 bytes of blocks made `pyramid_40`'s Solve 12 % slower
//! with one group at a time, and 13 % faster with two.
//!
//! The rows are built in their lanes (`wide_build.rs`) from the contact store's point
//! inputs; the lanes hold the step's λ (warm start, sweeps, the summed impulses, the
//! write-back into the narrowphase cache). The sweep is colours in order, then the
//! overflow manifolds one by one with the scalar update on the store's rows; the joint rows run first, as in `pgs.rs`. On the
//! steps that build the store's scalar rows (exact mode, overflow, restitution),
//! `unpack` copies λ into them where those read them, and `refresh` takes back what
//! they changed; `refresh` also rebuilds the lanes' `b̃` between solve substeps. On a
//! pool of several threads the sweeps run in `parallel.rs`, in the per-body
//! dependencies of this serial order, with the same answer to the bit. On one thread a
//! solve's sweeps run as a wavefront over tiles of units (`wavefront_sweeps`): the next
//! sweep follows a few tiles behind the last one, in the same per-body order, so a
//! tile's rows serve every sweep while they are in cache.
//!
//! **The block order.** A cut sweep (`Coloring::regions`) of at least
//! [`BLOCK_MIN`](crate::color::BLOCK_MIN) manifolds changes the order of a solve's
//! sweeps: the regions' units (which share no body) run all of the solve's sweeps, and
//! the seam's units run theirs after them (`seam_last`, `seam_sweeps`):
//!
//! ```text
//!   per-sweep order:  (R0 R1s S R1) (R0 R1s S R1) (R0 R1s S R1)
//!   block order:      (R0 R1s R1)³  then  (S)³
//! ```
//!
//! On one thread the regions' sweeps are one wavefront and the seam's follow
//! (`seam_sweeps`); on two, each region's is a wavefront of its own thread with no wait
//! on the other, and the seam's run on the first thread free once the units it meets
//! are swept (`parallel.rs`, *Blocks*), so the two threads keep the one-thread
//! wavefront's use of the cache. A correction
//! crosses the seam once a solve instead of once a sweep; that costs stiffness, which is
//! why only the largest sweeps take this order (`docs/performance-log.md`, *The
//! block order for the largest sweeps*).
//!
//! **Settled solves** (`Settings::sweep_tolerance`, `τ`). The last sweep of a solve
//! measures how far it still moved the bodies: each row's impulse change `δ = λ' − λ`
//! (a friction row's before its clamp, so that a sliding point held at its bound still
//! counts) moves its two bodies apart along the row by `|δ|·(1/m_a + 1/m_b)` in their
//! linear velocity (the angular part aside), and the kernels keep the largest over
//! their lanes (`solve_group`, `PairKernel::solve`, one `max` of `|δ|` a row, times the
//! lane's `1/m_a + 1/m_b` once a unit). With the groups' bodies' velocities after the
//! solve, `u = Vnc + dV` (`groups_at_rest`):
//!
//! ```text
//!   c = max over the groups' rows of |δ|·(1/m_a + 1/m_b)
//!   c ≤ τ  and  every component of every u ≤ 10·τ
//!       →  the next solve over the same rows: one sweep (the last, measured again)
//! ```
//!
//! A structure at rest is at the solve's fixed point, where the sweeps after the first
//! only round; the bodies' own speed catches a slow rocking whose rows change by less
//! than `τ` from sweep to sweep. Only the groups' rows are measured, so a solve settles only where every
//! other row (joints', the overflow set's) lies apart from them; those take all their
//! sweeps after the groups' one (`apart_sweeps`). On threads the units' changes meet
//! in one `fetch_max` of their `f32` bits (`parallel.rs`), the same maximum in any
//! order.

use std::time::{Duration, Instant};

use glam::{BVec4A, Mat3, Vec4};

use crate::color::Coloring;
use crate::contact::{ContactStore, each_point};
use crate::jacobian::{BuildParams, ContactRows, Row};
use crate::lanes::{self, V3, fresh, transpose};
use crate::parallel::{self, LastRows, Schedule, Units};
use crate::pgs;
use crate::settings::SweepOrder;
use crate::solver_body::{SolverBodies, Velocity};
use crate::wide_avx::PairKernel;
use crate::wide_build;

/// Four lanes' `(Δv, Δω)`.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct WideVel {
    pub lin: V3,
    pub ang: V3,
}

/// One row in four lanes (144 bytes): the angular blocks `J_ang` of both bodies as built
/// (not divided by `D`), `b̃`, λ and `1/D`. The linear block is the group's direction for
/// the row (`Group::dir`), and `T_ang = I⁻¹J_ang` is either `J_ang·c` for isotropic
/// bodies (`I⁻¹ = c·1`, every box of the standard scenes: `c` is the group's per lane)
/// or read from the [`WideT`] blocks kept beside the rows for groups with other bodies.
/// The update reads `J̃·dV` as `(J·dV)·(1/D)` (`row_velocity`, as `pgs::row_velocity`):
/// one multiply instead of scaling nine block entries by `1/D`. Once two groups run as
/// one, a sweep's time follows the bytes it streams: the row was 256 bytes with the
/// blocks divided by `D` and `T`, 160 with `D`.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct WideRow {
    /// `J_ang,a = −(r_a × d)`.
    pub ang_a: V3,
    /// `J_ang,b = r_b × d`.
    pub ang_b: V3,
    pub b: Vec4,
    pub lambda: Vec4,
    /// `1/D` (0 in empty lanes).
    pub inv_d: Vec4,
}

impl WideRow {
    /// Every field zero in the lanes where `mask` is set (zero rows: no impulse, no
    /// velocity change).
    #[inline(always)]
    pub fn zero_where(self, mask: BVec4A) -> WideRow {
        let z = |v: Vec4| Vec4::select(mask, Vec4::ZERO, v);
        WideRow {
            ang_a: self.ang_a.zero_where(mask),
            ang_b: self.ang_b.zero_where(mask),
            b: z(self.b),
            lambda: z(self.lambda),
            inv_d: z(self.inv_d),
        }
    }

    /// Lane `l` as a scalar row, for direction `dir` and `T` blocks `t` (`D` as
    /// `1/(1/D)`: the lanes keep only `1/D`).
    fn lane(&self, l: usize, dir: &V3, t: (V3, V3)) -> Row {
        let inv_d = self.inv_d[l];
        Row {
            j_lin: dir.lane(l).into(),
            j_ang_a: self.ang_a.lane(l).into(),
            j_ang_b: self.ang_b.lane(l).into(),
            t_ang_a: t.0.lane(l).into(),
            t_ang_b: t.1.lane(l).into(),
            b: self.b[l],
            lambda: self.lambda[l],
            d: if inv_d > 0.0 { 1.0 / inv_d } else { 0.0 },
            inv_d,
        }
    }
}

/// The `T_ang = I⁻¹J_ang` blocks (a, b) of a wide point's three rows, for the groups
/// whose bodies are not all isotropic (288 bytes; read-only after the build).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct WideT {
    pub rows: [[V3; 2]; 3],
}

/// Where a group's kernel finds the `T_ang` blocks of row `k` of its wide point `i`.
pub(crate) trait AngularT: Copy {
    /// `(T_ang,a, T_ang,b)`.
    fn t(&self, i: usize, k: usize, r: &WideRow) -> (V3, V3);
}

/// Every body of the group isotropic: `T_ang = J_ang·c` with the lanes' `c` of a and b
/// (0 for a fixed body).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Isotropic(pub Vec4, pub Vec4);

impl AngularT for Isotropic {
    #[inline(always)]
    fn t(&self, _: usize, _: usize, r: &WideRow) -> (V3, V3) {
        (r.ang_a * self.0, r.ang_b * self.1)
    }
}

impl AngularT for &[WideT] {
    #[inline(always)]
    fn t(&self, i: usize, k: usize, _: &WideRow) -> (V3, V3) {
        let [a, b] = self[i].rows[k];
        (a, b)
    }
}

/// Point `k` of four manifolds: normal, first and second tangent rows — all a velocity
/// sweep of a group of isotropic bodies reads (432 bytes).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct WidePoint {
    pub rows: [WideRow; 3],
}

/// What the passes between the sweeps read of a wide point, kept beside the rows
/// (`WideContacts::side`) so the sweeps stream fewer bytes: every sweep's time grew
/// with the row bytes (96 more bytes a point made `pyramid_40`'s Solve 8 % slower).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct WideSide {
    /// The split row's `b̃`.
    pub split_b: Vec4,
    /// Each lane's separation, advanced between solve substeps.
    pub sep: Vec4,
    /// The normal row's `J̃ₙ·Vnc` of the step's first solve substep
    /// (`ContactRows::b_vel` lane by lane).
    pub b_vel: Vec4,
}

/// One row of two groups' wide points side by side, field by field: each `[Vec4; 2]`
/// holds the field of the group in half 0, then of the group in half 1 (288 bytes).
/// Two groups that the serial sweep runs as one (`wide_avx.rs`) share their slots, so
/// their eight lanes of a field are one 32-byte load; a group that runs alone keeps half
/// 0 of its own slots.
#[repr(C, align(32))]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct SlotRow {
    /// `J_ang,a`: `x`, `y`, `z`, each both halves.
    pub ang_a: [[Vec4; 2]; 3],
    /// `J_ang,b`.
    pub ang_b: [[Vec4; 2]; 3],
    pub b: [Vec4; 2],
    pub lambda: [Vec4; 2],
    pub inv_d: [Vec4; 2],
}

impl SlotRow {
    /// The row of the group in half `h`.
    #[inline(always)]
    pub fn get(&self, h: usize) -> WideRow {
        let h = h & 1;
        let v = |a: &[[Vec4; 2]; 3]| V3 {
            x: a[0][h],
            y: a[1][h],
            z: a[2][h],
        };
        WideRow {
            ang_a: v(&self.ang_a),
            ang_b: v(&self.ang_b),
            b: self.b[h],
            lambda: self.lambda[h],
            inv_d: self.inv_d[h],
        }
    }

    /// Overwrite the row of half `h`.
    #[inline(always)]
    pub fn set(&mut self, h: usize, r: &WideRow) {
        let h = h & 1;
        let v = |a: &mut [[Vec4; 2]; 3], r: &V3| {
            a[0][h] = r.x;
            a[1][h] = r.y;
            a[2][h] = r.z;
        };
        v(&mut self.ang_a, &r.ang_a);
        v(&mut self.ang_b, &r.ang_b);
        self.b[h] = r.b;
        self.lambda[h] = r.lambda;
        self.inv_d[h] = r.inv_d;
    }
}

/// Point `k` of two groups (eight manifolds), as [`SlotRow`]s, and the normal row's
/// couplings with the two friction rows (928 bytes): the packed rows' storage.
/// [`WidePoint`] is one half of the rows as a value.
#[repr(C, align(32))]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct WideSlot {
    pub rows: [SlotRow; 3],
    /// `c(n, 1)/Dₙ` and `c(n, 2)/Dₙ` of each half ([`couplings`]): the normal row reads the
    /// friction impulses through them instead of from `dV` (`pgs::solve_manifold`).
    pub couple: [[Vec4; 2]; 2],
}

impl WideSlot {
    /// The wide point of half `h`.
    #[inline(always)]
    pub fn point(&self, h: usize) -> WidePoint {
        WidePoint {
            rows: [
                self.rows[0].get(h),
                self.rows[1].get(h),
                self.rows[2].get(h),
            ],
        }
    }

    /// The λ of half `h`'s three rows.
    #[inline(always)]
    pub fn lambdas(&self, h: usize) -> [Vec4; 3] {
        self.rows.each_ref().map(|r| r.lambda[h & 1])
    }

    /// Overwrite the λ of half `h`'s three rows.
    #[inline(always)]
    pub fn set_lambdas(&mut self, h: usize, l: [Vec4; 3]) {
        for (r, l) in self.rows.iter_mut().zip(l) {
            r.lambda[h & 1] = l;
        }
    }

    /// Copy each lane of half `h`'s λ from the store (after the exact mode or the
    /// restitution pass changed them there).
    fn take_lambda(&mut self, h: usize, lanes: &[u32; 4], store: &ContactStore) {
        for (l, &i) in lanes.iter().enumerate() {
            if i != u32::MAX {
                for (wr, r) in self.rows.iter_mut().zip(&store.points[i as usize].rows) {
                    wr.lambda[h & 1][l] = r.lambda;
                }
            }
        }
    }
}

/// Whether every body of group `g` is marked in `still` (by solver body; never
/// without it).
#[inline(always)]
pub(crate) fn stood(g: &Group, still: Option<&[bool]>) -> bool {
    still.is_some_and(|still| {
        let at = |i: u32| still.get(i as usize).copied().unwrap_or(false);
        g.a.iter().chain(&g.b).all(|&i| at(i))
    })
}

/// The solve-substep refresh of one group (`jacobian::refresh_point` four lanes at a
/// time): each point's separation advances by `h·Jₙ·u` for the velocities `r.moved`
/// the poses moved with (`None`: they did not move, as at the start of a step that
/// keeps its rows; with bodies marked `r.still` the separation is made so but not
/// kept), then
/// the normal row's `b̃` is its `J̃ₙ·Vnc` of the step's first substep plus the
/// stabilization for that separation. The friction rows keep
/// their `b̃`: the bodies' `dV` carries how far `Vnc` has moved since
/// (`docs/dynamics.md`). Empty lanes (`D = 0`) stay zero.
#[inline(always)]
pub(crate) fn refresh_group(
    g: &Group,
    slots: &mut [WideSlot],
    side: &mut [WideSide],
    r: &Refresh<'_>,
) {
    let (h, s, advance) = (r.h, r.params, r.advance());
    let motion = r.moved.map(|m| (gather(m, g.a), gather(m, g.b)));
    let inv_dt = Vec4::splat(s.inv_dt);
    let half = g.half();
    for (slot, side) in slots.iter_mut().zip(side) {
        let rn = slot.rows[0].get(half);
        let mut sep = side.sep;
        if let Some((ma, mb)) = &motion {
            sep += Vec4::splat(h) * row_velocity_raw(&rn, &g.dir[0], ma, mb);
            if advance {
                side.sep = sep;
            }
        }
        // The build's own `1/D` (0 in empty lanes).
        let inv_dn = rn.inv_d;
        let correction = (Vec4::splat(s.erp) * (-sep - Vec4::splat(s.slop)) * inv_dt)
            .clamp(Vec4::ZERO, Vec4::splat(s.max_correction));
        let open = sep.cmpgt(Vec4::ZERO);
        // (`jacobian::touching` and `open_gap` of the rows' λ as they stand; without a
        // touching gap the open lanes' gap as it is, the same bits, and the friction rows
        // not read.)
        let open_gap = if s.gap > 0.0 {
            let bound = g.friction() * rn.lambda;
            let [l1, l2] = [1, 2].map(|k| slot.rows[k].get(half).lambda);
            let stick = l1.abs().cmplt(bound) & l2.abs().cmplt(bound);
            let gap = Vec4::select(stick, g.gap(s.gap), Vec4::ZERO);
            (sep - gap).max(Vec4::ZERO)
        } else {
            sep
        };
        let speculative = Vec4::select(open, open_gap * inv_dt * inv_dn, Vec4::ZERO);
        let push = Vec4::select(open, Vec4::ZERO, correction * inv_dn);
        let b = &mut slot.rows[0].b[half & 1];
        if s.split {
            *b = side.b_vel + speculative;
            side.split_b = -push;
        } else {
            *b = side.b_vel + (speculative - push);
        }
    }
}

/// What the last velocity sweep of a solve also does, group by group, while each
/// group's rows are still in the core's cache (`WideContacts::fuses`). Neither reads
/// anything the velocity updates of later groups, the exact mode or the restitution
/// pass change, and both visit the groups in the order of their own passes, so the
/// bits are those of the separate passes.
#[derive(Debug, Default)]
pub(crate) struct LastSweep<'a> {
    /// The split pass's first sweep over the groups, on these pseudo-velocities
    /// (`split_solve(.., fused: true)` then runs the rest; not with joint rows, whose
    /// split rows run first).
    pub split: Option<&'a mut [Velocity]>,
    /// Add the lanes' λ to the step's impulses (`accumulate`, for a solve substep
    /// whose λ stay in the lanes).
    pub sum: bool,
    /// With `sum`, on the step's last solve substep: write each lane's λ into the
    /// narrowphase's points (`write_back`), through the store's `source` of each
    /// point.
    pub write: Option<WriteBack<'a>>,
}

impl LastSweep<'_> {
    /// The same work on the same buffers, borrowed for a part of the solve (the block
    /// order's regions, then its seam: `WideContacts::solve`).
    pub(crate) fn reborrow(&mut self) -> LastSweep<'_> {
        LastSweep {
            split: self.split.as_deref_mut(),
            sum: self.sum,
            write: self.write.as_mut().map(|w| WriteBack {
                source: w.source,
                manifolds: &mut *w.manifolds,
            }),
        }
    }
}

/// Where [`LastSweep`] writes the step's impulses back: each store point's (manifold,
/// point) in the narrowphase's list, and that list.
#[derive(Debug)]
pub(crate) struct WriteBack<'a> {
    /// Each store manifold's index in the narrowphase's list
    /// (`ContactStore::manifold_source`).
    pub source: &'a [u32],
    pub manifolds: &'a mut [thud_collide::PairManifold],
}

/// A refresh of the rows between solve substeps, or at the start of a step that keeps
/// its rows ([`WideContacts::refresh`]): `moved` holds each body's summed
/// velocities since the separations last advanced (`None`: no motion), `still` the
/// bodies that stood (`None`: every separation advances). [`WideContacts::solve`]
/// runs it unit by unit right before each unit's first sweep, where it can.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Refresh<'a> {
    pub moved: Option<&'a [Velocity]>,
    pub h: f32,
    pub params: &'a BuildParams,
    pub still: Option<&'a [bool]>,
}

impl Refresh<'_> {
    /// Whether every separation advances (and is kept): no bodies marked still.
    pub(crate) fn advance(&self) -> bool {
        self.still.is_none()
    }
}

/// The narrowphase's manifolds as the write-back reaches them, one at a time: a slice
/// on one thread, a shared pointer under the parallel sweep's ownership (`parallel.rs`:
/// each manifold sits in one lane of one group).
pub(crate) trait ManifoldPoints {
    /// The user data of manifold `i`'s contact points (their impulses), every slot
    /// (`ContactPoints::user_slots_mut`: the count is not read).
    fn users(&mut self, i: u32) -> &mut [[f32; 3]; 4];
}

impl ManifoldPoints for [thud_collide::PairManifold] {
    #[inline(always)]
    fn users(&mut self, i: u32) -> &mut [[f32; 3]; 4] {
        self[i as usize].manifold.points.user_slots_mut()
    }
}

/// A group's part of a solve's last velocity sweep ([`LastSweep`]) right after its
/// velocity update: the split pass's first sweep over it (into `split`'s
/// pseudo-velocities), its λ added to `sums` and (`write`: the store manifolds'
/// narrowphase indices and the manifolds) written back. `side`, `split_lambda` and
/// `sums` are the group's own, by wide point.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn last_group<V: Velocities + ?Sized, M: ManifoldPoints + ?Sized>(
    g: &Group,
    slots: &[WideSlot],
    t: &[WideT],
    side: &[WideSide],
    split_lambda: &mut [Vec4],
    sums: &mut [[Vec4; 3]],
    lane_manifolds: &[u32; 4],
    split: Option<&mut V>,
    sum: bool,
    write: Option<(&[u32], &mut M)>,
) {
    if let Some(pseudo) = split {
        split_group(g, slots, t, side, split_lambda, pseudo);
    }
    if sum {
        for (sum, slot) in sums.iter_mut().zip(slots) {
            for (s, l) in sum.iter_mut().zip(slot.lambdas(g.half())) {
                *s += l;
            }
        }
        if let Some((source, out)) = write {
            write_lanes(slots, g.half(), lane_manifolds, source, out);
        }
    }
}

/// `write_back` for one group's wide points (their slots `slots`, half `h`, the store
/// manifold of each lane `manifolds`), while they are in cache. Lane by lane: a lane's
/// store points are its manifold's points in order (point `k` in wide point `k`), so
/// each lane finds its narrowphase manifold once.
#[inline(always)]
fn write_lanes<M: ManifoldPoints + ?Sized>(
    slots: &[WideSlot],
    h: usize,
    manifolds: &[u32; 4],
    source: &[u32],
    out: &mut M,
) {
    for (l, &m) in manifolds.iter().enumerate() {
        if m == u32::MAX {
            continue;
        }
        let users = out.users(source[m as usize]);
        for (slot, user) in slots.iter().zip(users.iter_mut()) {
            *user = slot.lambdas(h).map(|v| v[l]);
        }
    }
}

/// Two disjoint ranges `a`, `b` of one buffer, both writable (two groups' side data).
fn two_mut<T>(v: &mut [T], a: std::ops::Range<usize>, b: std::ops::Range<usize>) -> [&mut [T]; 2] {
    if a.start < b.start {
        let (head, tail) = v.split_at_mut(b.start);
        [&mut head[a], &mut tail[..b.len()]]
    } else {
        let (head, tail) = v.split_at_mut(a.start);
        let len = a.len();
        [&mut tail[..len], &mut head[b]]
    }
}

/// Four manifolds of one colour.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Group {
    pub a: [u32; 4],
    pub b: [u32; 4],
    pub inv_mass_a: Vec4,
    pub inv_mass_b: Vec4,
    /// Each body's share of a change in the lanes' relative linear velocity
    /// ([`shares`] of the inverse masses), set with the rows (`wide_build::build_group`)
    /// so the sweeps do not divide.
    pub share_a: Vec4,
    pub share_b: Vec4,
    friction: Vec4,
    /// The lanes' row directions: the manifold's normal and its two tangents
    /// (`wide_build::tangents`, the rows' own), `Y` and its tangents in an empty lane.
    pub dir: [V3; 3],
    /// The lanes' isotropic inverse inertia `c` (`I⁻¹ = c·1`) of bodies a and b, for a
    /// group whose bodies are all isotropic (`t_blocks == false`; 0 for a fixed body).
    inv_i_a: Vec4,
    inv_i_b: Vec4,
    /// First wide point and number of wide points (the longest lane's point count).
    first: u32,
    count: u32,
    /// The group's first [`WideT`] (`WideContacts::t`); it has `count` of them when
    /// `t_blocks`, none otherwise.
    t_first: u32,
    t_blocks: bool,
    /// Some lane has a body in its own angular frame (`solver_body.rs`): its rows are
    /// built with the frames (`wide_build::GroupBodies`), one group at a time, and
    /// solved as an isotropic group's.
    in_frames: bool,
    /// Lanes whose body a (bits 0–3) or body b (bits 4–7) can move: only those `dV`s
    /// are written back, so a static, kinematic or dummy body's entry is only ever read.
    movable: u8,
    /// Lanes whose manifold lies flat (bits 0–3: `jacobian::flat_gap`), where a
    /// sticking point's touching gap is the settings'.
    flat: u8,
    /// Its half of its [`WideSlot`]s (1 only for the second group of a pair that shares
    /// slots) and its first slot; it has `count` of them.
    half: u8,
    slot: u32,
}

impl Group {
    /// The group's movable bodies' solver indices, lane order, a before b.
    pub(crate) fn movable_bodies(&self) -> impl Iterator<Item = u32> + '_ {
        let mut bits = self.movable;
        std::iter::from_fn(move || {
            let k = bits.trailing_zeros() as usize;
            bits &= bits.wrapping_sub(1);
            match k {
                0..4 => Some(self.a[k]),
                4..8 => Some(self.b[k - 4]),
                _ => None,
            }
        })
    }

    /// Whether this group and `other` have a movable body in common: each of `other`'s
    /// against all eight of this one's lanes at once (the lanes not movable masked off).
    pub(crate) fn shares_movable(&self, other: &Group) -> bool {
        let ours: [u32; 8] = std::array::from_fn(|k| if k < 4 { self.a[k] } else { self.b[k - 4] });
        other.movable_bodies().any(|x| {
            let hits = ours
                .iter()
                .enumerate()
                .fold(0u8, |m, (k, &y)| m | (u8::from(y == x) << k));
            hits & self.movable != 0
        })
    }

    /// The lanes' friction coefficients.
    pub(crate) fn friction(&self) -> Vec4 {
        self.friction
    }

    /// Set the lanes' friction coefficients (`wide_build::prepare_group`).
    pub(crate) fn set_friction(&mut self, friction: Vec4) {
        self.friction = friction;
    }

    /// The lanes' touching gaps: `gap` in the lanes whose manifold lies flat, 0 in the
    /// others (`jacobian::flat_gap`).
    pub(crate) fn gap(&self, gap: f32) -> Vec4 {
        let f = self.flat;
        let flat = BVec4A::new(f & 1 != 0, f & 2 != 0, f & 4 != 0, f & 8 != 0);
        Vec4::select(flat, Vec4::splat(gap), Vec4::ZERO)
    }

    /// Set the lanes whose manifold lies flat (bits 0–3, `wide_build::prepare_group`).
    pub(crate) fn set_flat(&mut self, flat: u8) {
        self.flat = flat;
    }

    /// Lanes whose body a (bits 0–3) or b (bits 4–7) can move.
    pub(crate) fn movable(&self) -> u8 {
        self.movable
    }

    /// Its wide points (the index of the per-point arrays beside the rows).
    pub(crate) fn range(&self) -> std::ops::Range<usize> {
        self.first as usize..(self.first + self.count) as usize
    }

    /// Its [`WideSlot`]s, where its rows are (in their half [`Group::half`]).
    pub(crate) fn slots(&self) -> std::ops::Range<usize> {
        self.slot as usize..(self.slot + self.count) as usize
    }

    /// Its half of its slots.
    pub(crate) fn half(&self) -> usize {
        usize::from(self.half)
    }

    /// Its [`WideT`] blocks (empty for a group of isotropic bodies).
    pub(crate) fn t_range(&self) -> std::ops::Range<usize> {
        let n = if self.t_blocks { self.count } else { 0 };
        self.t_first as usize..(self.t_first + n) as usize
    }

    /// Whether its bodies' `T_ang` blocks are kept in [`WideT`]s (some lane has a body
    /// that can turn and is neither isotropic nor in its own angular frame).
    pub(crate) fn t_blocks(&self) -> bool {
        self.t_blocks
    }

    /// Whether some lane has a body in its own angular frame.
    pub(crate) fn in_frames(&self) -> bool {
        self.in_frames
    }

    /// The lanes' isotropic inverse inertia of bodies a and b.
    pub(crate) fn isotropic(&self) -> Isotropic {
        Isotropic(self.inv_i_a, self.inv_i_b)
    }
}

/// Where a group's kernel reads and writes velocity changes: `dV`, or the split pass's
/// pseudo-velocities. A plain slice in the serial sweep, shared entries in `parallel.rs`.
pub(crate) trait Velocities {
    /// Entry `i`.
    fn get(&self, i: u32) -> Velocity;
    /// Overwrite entry `i`: `lin = head.xyz`, `ang = (head.w, tail.x, tail.y)`, in
    /// the two pieces [`gather`] loads ([`lanes::store_velocity`]).
    fn set_parts(&mut self, i: u32, head: Vec4, tail: Vec4);
    /// The entries' first address and count: the eight-lane kernels check a unit's
    /// body indices against the count once, then read and write its entries there
    /// (`wide_avx::Entries`).
    fn base_and_len(&mut self) -> (*mut Velocity, usize);
}

impl Velocities for [Velocity] {
    #[inline(always)]
    fn get(&self, i: u32) -> Velocity {
        self[i as usize]
    }

    #[inline(always)]
    fn set_parts(&mut self, i: u32, head: Vec4, tail: Vec4) {
        lanes::store_velocity(&mut self[i as usize], head, tail);
    }

    #[inline(always)]
    fn base_and_len(&mut self) -> (*mut Velocity, usize) {
        (self.as_mut_ptr(), self.len())
    }
}

/// The packed rows of a step (see the module table).
#[derive(Debug, Clone, Default)]
pub(crate) struct WideContacts {
    coloring: Coloring,
    fixed: Vec<bool>,
    groups: Vec<Group>,
    /// Group range of each colour.
    color_groups: Vec<(u32, u32)>,
    /// Where each slice's units end (`Coloring::regions`); empty when the sweep is not
    /// cut.
    region_units: Vec<u32>,
    /// Solves whose sweeps ran on the pool's threads, since the last
    /// [`take_threaded`](Self::take_threaded).
    threaded: u32,
    /// The serial sweep's order: one group, or two run as one (`plan_units`).
    units: Vec<[u32; 2]>,
    /// Scratch of `plan_units`.
    taken: Vec<bool>,
    /// The rows, in slots of two groups' wide points (the groups' `slot`, `half`).
    slots: Vec<WideSlot>,
    /// The slot of each wide point, `2·slot + half`.
    loc: Vec<u32>,
    /// Whether the groups run as one pair share slots (only when every sweep and pass
    /// over the rows runs on one thread, so no two threads ever hold one slot).
    shared: bool,
    /// Whether every unit has slots of its own (lone groups do not share theirs), for
    /// the multi-threaded sweeps.
    own_slots: bool,
    /// The `T_ang` blocks of the groups that keep them ([`Group::t_range`]).
    t: Vec<WideT>,
    /// Beside each wide point: what the passes between the sweeps read.
    side: Vec<WideSide>,
    lanes: Vec<[u32; 4]>,
    /// Each group's store manifold in each lane (`u32::MAX`: an empty lane), for the
    /// write-back.
    lane_manifolds: Vec<[u32; 4]>,
    /// The lane of each store point, `4·wide point + lane` (`u32::MAX`: overflow).
    at: Vec<u32>,
    split_lambda: Vec<Vec4>,
    /// A split pass wrote `split_lambda` since it was last zeroed (the default single
    /// pass a step runs after the last solve substep, so the substep refreshes before
    /// it find them still zero and skip the clearing).
    split_written: bool,
    /// Each wide point's λ summed over the solve substeps whose λ stayed in the lanes
    /// (n, t₁, t₂ rows); `drain_impulse` moves them into the contact store, or
    /// `write_back` reads them on a step that built no scalar rows.
    impulse: Vec<[Vec4; 3]>,
    sorted: Vec<u32>,
    /// Scratch of the packing: a colour's manifolds as sort keys, `(!points, m)` in one
    /// integer.
    sort_keys: Vec<u64>,
    /// The dependency order of a multi-threaded sweep (`parallel.rs`); empty when the
    /// step runs its sweeps on one thread.
    schedule: Schedule,
    /// Each manifold's (first point, point count) when the groups were formed.
    last_points: Vec<(u32, u32)>,
    /// The store's `keys_at` when `last_points` was taken from it (0: not known): while
    /// the store keeps that number, it has those points ([`laid_out_for`](Self::laid_out_for)).
    points_at: u64,
    /// What the groups read of each solver body when they last read it (`pack`): the
    /// bits of its inverse mass and isotropic `c`, and its frame.
    last_bodies: Vec<(u32, u32, u32)>,
    /// Whether per-point passes over the lanes may use the pool (the store's
    /// `ContactStore::pool` of the step, taken in `pack`).
    pool: bool,
    /// How serial sweeps run two groups at a time (`wide_avx.rs`): the CPU's kernel (or
    /// `pair_kernel`'s), none where it has none.
    pairs: PairKernel,
    /// A kernel to use instead of the CPU's best (for the tests that compare them).
    pair_kernel: Option<PairKernel>,
    /// The wavefront order of a serial solve ([`WideContacts::solve`]): for each tile
    /// of [`TILE`] units, the last tile whose units share a movable body with it.
    reach: Vec<u32>,
    /// Scratch of the wavefront: the last unit touching each body; tiles done per sweep
    /// (inline for the sweeps of any default solve, so that a solve that leaves the
    /// threads for the serial order, `parallel::Schedule::threads_now`, allocates
    /// nothing).
    last_unit: Vec<u32>,
    done: smallvec::SmallVec<[u32; 16]>,
    /// Whether unit `u` shares no movable body with unit `u + 1`: a sweep without
    /// friction rows may then run the two side by side (`PairKernel::solve_couple`).
    apart: Vec<bool>,
    /// Whether unit `u` has a group with `T` blocks, which a step that keeps the rows
    /// always builds again ([`stale_units`](Self::stale_units)): read there instead of
    /// the groups themselves, 320 bytes each.
    unit_t_blocks: Vec<bool>,
    /// Sweep in plain order, one sweep after the other (tests compare the two).
    no_wavefront: bool,
    /// Lay out the groups afresh wherever point counts changed (the tests compare it
    /// with [`relane`](Self::relane)), and how many layouts relaned instead.
    #[cfg(test)]
    pub(crate) relane: (bool, usize),
    /// Refresh unit by unit inside the sweeps from this many bytes of rows on instead
    /// of `FUSED_REFRESH_BYTES` (tests compare the two ways), and how many solves did.
    #[cfg(test)]
    pub(crate) fused_refresh: (Option<usize>, usize),
    /// Time the solves spent refreshing rows since
    /// [`take_refresh_time`](Self::take_refresh_time) (a step's stages count it with
    /// the build's).
    refresh_time: Duration,
    /// Each solver body that a group's lanes can move (the bodies the sweeps over the
    /// groups write): joint rows on none of them run beside the wavefront
    /// ([`joints_apart`](Self::joints_apart)).
    in_groups: Vec<bool>,
    /// Whether each solver body is a movable body of an overflow manifold (joint rows
    /// clear of them run inside the wavefront beside an overflow set apart).
    in_overflow: Vec<bool>,
    /// The overflow set's sweeps in the next [`solve`](Self::solve), after all of the
    /// groups' (`None`: one in each sweep). For the exact mode's islands swept once
    /// over the whole step while the groups take solve substeps (`World::apart`).
    pub overflow_sweeps: Option<u32>,
    /// The overflow set's manifolds island by island, for each position the last
    /// position whose manifold shares a
    /// movable body with it ([`overflow_sweeps_paired`](Self::overflow_sweeps_paired)),
    /// and the `(body, position)` pairs that is made from: kept from step to step.
    overflow_reach: OverflowOrder,
    /// How many times the overflow sweeps ran two manifolds side by side (tests).
    #[cfg(test)]
    pub(crate) overflow_paired: usize,
    /// Never run two units side by side (the test that compares the two).
    no_couples: bool,
    /// The block order of a cut sweep of at least [`BLOCK_MIN`](crate::color::BLOCK_MIN)
    /// manifolds: the seam's units, from here to the end of `units`, run a solve's
    /// sweeps after all of the regions' units have run theirs (`None`: each sweep runs
    /// every unit).
    seam_from: Option<usize>,
    /// The block order from this many manifolds instead of `BLOCK_MIN` (tests).
    #[cfg(test)]
    pub(crate) block_min: Option<usize>,
    /// At most this many parts for the multi-threaded sweeps instead of the machine's
    /// cores (tests that run more parts than the machine has cores).
    max_parts: Option<usize>,
    /// Whether the next [`solve`](Self::solve)'s last sweep measures how far it still
    /// moves the bodies ([`change`](Self::change), `Settings::sweep_tolerance`).
    pub(crate) measure: bool,
    /// The largest change of a row's velocity in the last measured sweep,
    /// `|Δλ|·(1/m_a + 1/m_b)` (`solve_group`); `∞` where the solve did not measure, or
    /// rows outside the groups (the overflow set's, joints') share a body with them.
    change: f32,
    /// Whether the solve under way measures (`measure`, where it may).
    measuring: bool,
    /// Whether the last measured sweep left the groups' rows settled
    /// (`Settings::sweep_tolerance`): set by the caller, the next
    /// [`solve`](Self::solve) then sweeps them once where every other row is apart
    /// from them.
    pub(crate) settled: bool,
    /// The groups' sweeps in the last solve.
    group_sweeps: u32,
}

/// The larger of two changes, a NaN taken as infinite (a row gone wrong is no sign of
/// rest).
#[inline]
pub(crate) fn most(a: f32, b: f32) -> f32 {
    if b.is_nan() || a.is_nan() {
        f32::INFINITY
    } else {
        a.max(b)
    }
}

/// The overflow set in the order its paired sweeps take it
/// ([`WideContacts::overflow_sweeps_paired`]), with what it is made from.
#[derive(Debug, Clone, Default)]
struct OverflowOrder {
    /// The manifolds, island by island (store order within one).
    order: Vec<u32>,
    /// For each position, the last position whose manifold shares a movable body.
    reach: Vec<u32>,
    /// `(body, position)` for each movable body of each position.
    pairs: Vec<(u32, u32)>,
}

/// Sweeps of the overflow set in flight at once
/// ([`WideContacts::overflow_sweeps_paired`]; three were no faster on `tower_20`).
const IN_FLIGHT: usize = 2;

/// The loop of [`WideContacts::overflow_sweeps_paired`]: `sweeps` forward sweeps of the
/// overflow manifolds `of` (points `ranges[m]` of `points`; `reach[k]` the last position
/// sharing a movable body with position `k`), two at a time where they may run side
/// by side. Returns how many steps ran two manifolds at once.
#[inline(always)]
fn sweep_paired(
    of: &[u32],
    (ranges, reach): (&[(u32, u32)], &[u32]),
    points: &mut [ContactRows],
    dv: &mut [Velocity],
    omega: f32,
    sweeps: u32,
) -> usize {
    let n = of.len();
    let range = |k: usize| {
        let (s, c) = ranges[of[k] as usize];
        s as usize..(s + c) as usize
    };
    let mut paired = 0;
    // The next positions of the sweeps in flight, from the one ahead. Each takes its
    // next manifold beside the one ahead of it once that one has passed the
    // manifold's reach.
    let mut flight = [0usize; IN_FLIGHT];
    let (mut live, mut started) = (0, 0);
    while live > 0 || started < sweeps {
        if live < IN_FLIGHT && started < sweeps {
            flight[live] = 0;
            (live, started) = (live + 1, started + 1);
        }
        let mut k = 1;
        while k < live && flight[k - 1] > reach[flight[k]] as usize {
            k += 1;
        }
        // (Manifolds that share no body solved one after the other give the same
        // bits: the way out should the store's ranges ever overlap.)
        let two = (k == 2).then(|| points.get_disjoint_mut([range(flight[0]), range(flight[1])]));
        match two {
            Some(Ok(two)) => {
                pgs::solve_two_manifolds(two, dv, omega);
                paired += 1;
            }
            _ => {
                for &i in &flight[..k] {
                    pgs::solve_manifold(&mut points[range(i)], dv, omega, false, true);
                }
            }
        }
        for i in &mut flight[..k] {
            *i += 1;
        }
        if flight[0] == n {
            dv[0] = Velocity::ZERO;
            flight.copy_within(1.., 0);
            live -= 1;
        }
    }
    paired
}

/// Units per tile of the wavefront order: a few dozen manifolds, whose rows stay in the
/// core's cache from one sweep to the next.
pub(crate) const TILE: usize = 8;

/// Lay out the groups' rows in slots and return how many there are. With `share`, in
/// sweep order (`units`), the two groups of a unit in the two halves of the same slots,
/// so the pair kernel reads each field of both as one (and, with `lone_share`, a group
/// that runs alone in half 1 of the last lone group's slots of its length); without,
/// every group alone in half 0 of slots numbered as its wide points (so the per-group
/// slices of `wide_build::each_group` and `parallel.rs` split the slots where they split
/// the groups). `loc` takes each wide point's `2·slot + half`.
fn assign_slots(
    groups: &mut [Group],
    units: &[[u32; 2]],
    share: bool,
    lone_share: bool,
    loc: &mut Vec<u32>,
) -> usize {
    let mut next = 0;
    if share {
        // A group that runs alone takes half 1 of the last lone group's slots when it
        // has as many points (its rows do not stream another half's bytes with them).
        let mut open: Option<(u32, u32)> = None;
        for &[g0, g1] in units {
            let g = &mut groups[g0 as usize];
            let count = g.count;
            if g1 == u32::MAX {
                match open.take().filter(|_| lone_share) {
                    Some((slot, n)) if n == count => (g.slot, g.half) = (slot, 1),
                    _ => {
                        (g.slot, g.half) = (next, 0);
                        open = Some((next, count));
                        next += count;
                    }
                }
                continue;
            }
            // A ragged pair (`wide_avx.rs`) takes as many slots as its longer group.
            (g.slot, g.half) = (next, 0);
            let h = &mut groups[g1 as usize];
            (h.slot, h.half) = (next, 1);
            next += count.max(h.count);
        }
    } else {
        for g in groups.iter_mut() {
            (g.slot, g.half) = (g.first, 0);
        }
        next = groups.last().map_or(0, |g| g.first + g.count);
    }
    loc.clear();
    loc.resize(groups.last().map_or(0, |g| g.range().end), 0);
    for g in groups.iter() {
        for (w, s) in g.range().zip(g.slot..) {
            loc[w] = 2 * s + u32::from(g.half);
        }
    }
    next as usize
}

/// From this many bytes of rows on, a solve refreshes each unit's rows right before
/// its first sweep instead of in a pass before the sweeps ([`WideContacts::solve`]):
/// rows beyond a core's cache then come in once for both instead of twice. Below it
/// the pass of their own is faster (`pyramid_40`, about 1 MB of rows: step +0.7 %
/// fused; `pyramid_100`, about 6.5 MB: −3 %).
const FUSED_REFRESH_BYTES: usize = 3 << 20;

/// Manifolds a list-scheduled level takes (`Coloring::list_schedule`): two groups,
/// one unit of the sweep where they run as one eight-lane kernel (two on a CPU without
/// AVX, where the layout is the same).
const LEVEL_LANES: usize = 8;

/// Whether unit `u` is marked stale (a unit past the marks is).
#[inline(always)]
pub(crate) fn is_stale(stale: &[bool], u: usize) -> bool {
    stale.get(u).copied().unwrap_or(true)
}

/// Whether two groups that share their slots (`WideContacts::shared`) run as one
/// eight-lane kernel outside the sweeps: as many wide points each, bodies of isotropic
/// inertia, and for a `build` none in its own angular frame (`same_length_pair`).
#[inline(always)]
pub(crate) fn one_kernel(a: &Group, b: &Group, build: bool) -> bool {
    let framed = build && (a.in_frames || b.in_frames);
    !(a.t_blocks || b.t_blocks || framed) && a.count == b.count && a.slots() == b.slots()
}

/// Each body's last unit in `last` (`u32::MAX`: none; as many entries as it has) among
/// the units `0..n` of a sweep (`bodies_of(u)`: the movable bodies of unit `u`), and,
/// appended to `reach`, each tile's reach in the wavefront order
/// ([`WideContacts::wavefront_sweeps`], `parallel::wavefront`): the last tile of
/// [`TILE`] units with a unit on one of its bodies.
pub(crate) fn tile_reach<I: Iterator<Item = u32>>(
    n: usize,
    bodies_of: impl Fn(usize) -> I,
    last: &mut [u32],
    reach: &mut Vec<u32>,
) {
    last.fill(u32::MAX);
    for u in 0..n {
        for b in bodies_of(u) {
            last[b as usize] = u as u32;
        }
    }
    for t in 0..n.div_ceil(TILE) {
        let tile = t * TILE..((t + 1) * TILE).min(n);
        let r = tile
            .flat_map(&bodies_of)
            .fold(t as u32, |r, b| r.max(last[b as usize] / TILE as u32));
        reach.push(r);
    }
}

/// The block order's units (`WideContacts::seam_from`): a cut sweep's slices (region 0,
/// region 1's units on a seam body, the seam, the rest of region 1) become region 0,
/// all of region 1, the seam — whose units then take their sweeps after the regions'.
/// Within one sweep every body meets its units in the same order either way (the rest
/// of region 1 shares no body with the seam). Returns where the seam starts (`None`:
/// the sweep is not cut), and moves the slices' ends (`color::BLOCK_SLICE_PARTS`).
fn seam_last(units: &mut [[u32; 2]], ends: &mut [u32]) -> Option<usize> {
    let &[r0, r1s, seam, r1] = &*ends else {
        return None;
    };
    let (r1s, seam, r1) = (r1s as usize, seam as usize, r1 as usize);
    if r1 != units.len() {
        return None;
    }
    units[r1s..r1].rotate_left(seam - r1s);
    let from = r1s + (r1 - seam);
    ends.copy_from_slice(&[r0, r1s as u32, from as u32, r1 as u32]);
    Some(from)
}

/// The sweep order in units of one or two groups (`[g, u32::MAX]` or `[g, h]`): every
/// group of a level, in order, where `pair` allows two to run as one eight-lane kernel
/// (`wide_avx.rs`: no movable body in common, any numbers of wide points). A group
/// left over at the end of a level may pair with a group of the next level that shares
/// no movable body with it: every group before it in the level order has run by then,
/// and the two are independent, so every body still meets its groups in sweep order.
fn plan_units(
    units: &mut Vec<[u32; 2]>,
    groups: &[Group],
    levels: &[(u32, u32)],
    pair: bool,
    taken: &mut Vec<bool>,
    (ends, unit_ends): (&[usize], &mut Vec<u32>),
) {
    units.clear();
    unit_ends.clear();
    if !pair {
        units.extend((0..groups.len() as u32).map(|g| [g, u32::MAX]));
        unit_ends.extend(
            ends.iter()
                .map(|&e| levels.get(e).map_or(groups.len() as u32, |l| l.0)),
        );
        return;
    }
    taken.clear();
    taken.resize(groups.len(), false);
    let fits = |g: &Group, h: &Group| !g.t_blocks && !h.t_blocks && !g.shares_movable(h);
    let mut carry: Option<u32> = None;
    let mut e = 0;
    for (i, &(g0, g1)) in levels.iter().enumerate() {
        // A region's last group never pairs with the next region's first.
        while ends.get(e).is_some_and(|&end| end <= i) {
            if let Some(c) = carry.take() {
                units.push([c, u32::MAX]);
            }
            unit_ends.push(units.len() as u32);
            e += 1;
        }
        if let Some(c) = carry.take() {
            let cg = &groups[c as usize];
            match (g0..g1).find(|&h| fits(cg, &groups[h as usize])) {
                Some(h) => {
                    taken[h as usize] = true;
                    units.push([c, h]);
                }
                None => units.push([c, u32::MAX]),
            }
        }
        let mut open: Option<u32> = None;
        for h in g0..g1 {
            if taken[h as usize] {
                continue;
            }
            match open.take() {
                // Within a level no two groups share a movable body: only their blocks
                // decide.
                Some(g) if !groups[g as usize].t_blocks && !groups[h as usize].t_blocks => {
                    debug_assert!(!groups[g as usize].shares_movable(&groups[h as usize]));
                    units.push([g, h]);
                }
                Some(g) => {
                    units.push([g, u32::MAX]);
                    open = Some(h);
                }
                None => open = Some(h),
            }
        }
        carry = open;
    }
    if let Some(c) = carry {
        units.push([c, u32::MAX]);
    }
    unit_ends.resize(ends.len(), units.len() as u32);
}

/// The relaxation of the row update: `λ − ω(b̃ + J̃·dV)` for SOR, `(λ − b̃) − J̃·dV` for
/// Gauss-Seidel. At ω = 1 (the default) that takes the multiply and one addition off
/// every row's dependency chain (`λ − b̃` is ready before `dV`); the scalar update
/// (`pgs::unclamped`) makes the same choice, so both give the same bits.
pub(crate) trait Relax: Copy + Send + Sync {
    /// `λ − ω(b̃ + J̃·dV)`, before the clamp (`pgs::unclamped` lane by lane).
    fn unclamped(self, lambda: Vec4, b: Vec4, jdv: Vec4) -> Vec4;
    /// `pgs::unclamped_ahead` lane by lane.
    fn unclamped_ahead(self, lambda: Vec4, b: Vec4, jdv: Vec4, ahead: Vec4) -> Vec4;
}

/// ω = 1.
#[derive(Debug, Clone, Copy)]
pub(crate) struct GaussSeidel;

impl Relax for GaussSeidel {
    #[inline(always)]
    fn unclamped(self, lambda: Vec4, b: Vec4, jdv: Vec4) -> Vec4 {
        (lambda - b) - jdv
    }

    #[inline(always)]
    fn unclamped_ahead(self, lambda: Vec4, b: Vec4, jdv: Vec4, ahead: Vec4) -> Vec4 {
        ((lambda - b) - jdv) - ahead
    }
}

/// Any other ω, in every lane.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Sor(pub Vec4);

impl Relax for Sor {
    #[inline(always)]
    fn unclamped(self, lambda: Vec4, b: Vec4, jdv: Vec4) -> Vec4 {
        lambda - self.0 * (b + jdv)
    }

    #[inline(always)]
    fn unclamped_ahead(self, lambda: Vec4, b: Vec4, jdv: Vec4, ahead: Vec4) -> Vec4 {
        lambda - self.0 * (b + (jdv + ahead))
    }
}

/// The new λ of one row in four lanes before its clamp (`pgs::update` lane by lane,
/// before the bounds and the impulse are applied).
#[inline(always)]
fn new_lambda<R: Relax>(r: &WideRow, lin: Vec4, omega: R, va: &WideVel, vb: &WideVel) -> Vec4 {
    let jdv = ((r.ang_a.dot(va.ang) + r.ang_b.dot(vb.ang)) + lin) * r.inv_d;
    omega.unclamped(r.lambda, r.b, jdv)
}

/// The new λ of a normal row in four lanes (`pgs::solve_manifold` lane by lane): its
/// angular terms on the angular `dV` `(wa, wb)` from before the point's friction
/// impulses, those impulses through the scaled couplings as `ahead` (`c̃₁δ₁ + c̃₂δ₂`,
/// subtracted last), λ ∈ [0, ∞).
#[inline(always)]
fn new_normal_lambda<R: Relax>(
    r: &WideRow,
    lin: Vec4,
    omega: R,
    (wa, wb): (&V3, &V3),
    ahead: Vec4,
) -> Vec4 {
    let jdv = ((r.ang_a.dot(*wa) + r.ang_b.dot(*wb)) + lin) * r.inv_d;
    // (`max(x, 0)` alone: a `min(x, ∞)` after it changed no value, and sat on the chain.)
    omega
        .unclamped_ahead(r.lambda, r.b, jdv, ahead)
        .max(Vec4::ZERO)
}

/// The new λ of a normal row in four lanes in a sweep without friction rows
/// (`pgs::solve_manifold` lane by lane): λ ∈ [0, ∞), `max(x, 0)` alone as in
/// [`new_normal_lambda`].
#[inline(always)]
fn new_normal_only_lambda<R: Relax>(
    r: &WideRow,
    lin: Vec4,
    omega: R,
    va: &WideVel,
    vb: &WideVel,
) -> Vec4 {
    let jdv = ((r.ang_a.dot(va.ang) + r.ang_b.dot(vb.ang)) + lin) * r.inv_d;
    omega.unclamped(r.lambda, r.b, jdv).max(Vec4::ZERO)
}

/// The normal row's couplings `c(n, k) = J_ang,a·T_a + J_ang,b·T_b` with the friction
/// rows `k = 1, 2` of wide point `i` as stored, divided by the normal row's `D`
/// (`pgs::scaled_coupling` lane by lane), for
/// [`WideSlot::couple`]. They depend on the blocks only, so the build makes them once
/// for every sweep of the step.
#[inline(always)]
pub(crate) fn couplings<A: AngularT>(p: &WidePoint, t: A, i: usize) -> [Vec4; 2] {
    let [rn, r1, r2] = &p.rows;
    let c = |k: usize, r: &WideRow| {
        let (ta, tb) = t.t(i, k, r);
        (rn.ang_a.dot(ta) + rn.ang_b.dot(tb)) * rn.inv_d
    };
    [c(1, r1), c(2, r2)]
}

/// `dV += T·δ` of one row in four lanes (`pgs::apply_impulse` lane by lane): the
/// linear blocks `∓dir/m`, the angular `T_ang` blocks `(ta, tb)`.
#[inline(always)]
fn apply_impulse(
    dir: &V3,
    (ta, tb): (V3, V3),
    delta: Vec4,
    ima: Vec4,
    imb: Vec4,
    va: &mut WideVel,
    vb: &mut WideVel,
) {
    va.lin -= *dir * (delta * ima);
    va.ang += ta * delta;
    vb.lin += *dir * (delta * imb);
    vb.ang += tb * delta;
}

/// `J·dV` of one row in four lanes, not yet divided by `D` (`pgs::row_velocity_raw`
/// lane by lane); `dir` is the row's linear block.
#[inline(always)]
fn row_velocity_raw(r: &WideRow, dir: &V3, va: &WideVel, vb: &WideVel) -> Vec4 {
    (r.ang_a.dot(va.ang) + r.ang_b.dot(vb.ang)) + dir.dot(vb.lin - va.lin)
}

/// `J̃·dV = (J·dV)·(1/D)` of one row in four lanes (`pgs::row_velocity` lane by lane).
#[inline(always)]
fn row_velocity(r: &WideRow, dir: &V3, va: &WideVel, vb: &WideVel) -> Vec4 {
    row_velocity_raw(r, dir, va, vb) * r.inv_d
}

/// The `dV` of four bodies in lanes. Each body's six values load as two pieces,
/// `(v.x, v.y, v.z, ω.x)` and `(ω.y, ω.z)` (16 and 8 bytes, the pieces [`scatter`]
/// stores, so a load right after a scatter of the same body is forwarded from one
/// store), and two transposes turn them into lanes: 8 loads and 12 shuffles instead of
/// 24 single-lane inserts.
#[inline(always)]
pub(crate) fn gather<V: Velocities + ?Sized>(dv: &V, idx: [u32; 4]) -> WideVel {
    // Four separate reads (not an array of four `Velocity`s): the compiler then loads
    // the lanes straight into registers instead of copying the array through the stack,
    // whose overlapping reloads stalled every group on store forwarding.
    let (v0, v1, v2, v3) = (
        dv.get(idx[0]),
        dv.get(idx[1]),
        dv.get(idx[2]),
        dv.get(idx[3]),
    );
    let head = |v: Velocity| Vec4::new(v.lin.x, v.lin.y, v.lin.z, v.ang.x);
    let tail = |v: Velocity| Vec4::new(v.ang.y, v.ang.z, 0.0, 0.0);
    let [lx, ly, lz, ax] = transpose([head(v0), head(v1), head(v2), head(v3)]);
    // (The unused columns of the second transpose cost nothing: the compiler drops them.)
    let [ay, az, _, _] = transpose([tail(v0), tail(v1), tail(v2), tail(v3)]);
    WideVel {
        lin: V3 {
            x: lx,
            y: ly,
            z: lz,
        },
        ang: V3 {
            x: ax,
            y: ay,
            z: az,
        },
    }
}

/// Write back the lanes whose bit is set in `movable` (bits 0–3 of the argument), each
/// body in the two pieces [`gather`] loads.
#[inline(always)]
pub(crate) fn scatter<V: Velocities + ?Sized>(dv: &mut V, idx: [u32; 4], movable: u8, w: &WideVel) {
    let head = transpose([w.lin.x, w.lin.y, w.lin.z, w.ang.x]);
    let tail = transpose([w.ang.y, w.ang.z, Vec4::ZERO, Vec4::ZERO]);
    for (l, &i) in idx.iter().enumerate() {
        if movable & (1 << l) != 0 {
            dv.set_parts(i, head[l], tail[l]);
        }
    }
}

/// One group: gather, the points in order (forward or backward), scatter. `pts` are
/// the group's own wide points, `t` its [`WideT`] blocks (empty for a group of
/// isotropic bodies). Without `friction`, only the normal rows (`pgs::friction_sweep`).
/// With `measure` (and `friction`) it returns the largest change of a row's velocity
/// the update made, `|Δλ|·(1/m_a + 1/m_b)` over its rows and lanes (how far the sweep
/// still moves the bodies, `Settings::sweep_tolerance`), and 0 otherwise.
#[inline(always)]
pub(crate) fn solve_group<V: Velocities + ?Sized, R: Relax>(
    g: &Group,
    slots: &mut [WideSlot],
    t: &[WideT],
    dv: &mut V,
    omega: R,
    back: bool,
    pass: (bool, bool),
) -> f32 {
    if g.t_blocks {
        solve_group_with(g, slots, t, dv, omega, back, pass)
    } else {
        solve_group_with(g, slots, g.isotropic(), dv, omega, back, pass)
    }
}

#[inline(always)]
fn solve_group_with<V: Velocities + ?Sized, R: Relax, A: AngularT>(
    g: &Group,
    slots: &mut [WideSlot],
    t: A,
    dv: &mut V,
    omega: R,
    back: bool,
    (friction, measure): (bool, bool),
) -> f32 {
    let mut va = gather(dv, g.a);
    let mut vb = gather(dv, g.b);
    let (ima, imb) = (g.inv_mass_a, g.inv_mass_b);
    let [dn, d1, d2] = &g.dir;
    let w0 = basis_velocity(&g.dir, &va, &vb);
    let mut w = w0;
    let m = ima + imb;
    let h = g.half();
    let n = slots.len();
    // The lanes' largest `|Δλ|` (`measure`).
    let mut change = Vec4::ZERO;
    for k in 0..n {
        let i = if back { n - 1 - k } else { k };
        let slot = &mut slots[i];
        if !friction {
            // The normal row alone, on `dV` as it is.
            let rn = slot.rows[0].get(h);
            let nn = new_normal_only_lambda(&rn, w[0], omega, &va, &vb);
            let en = nn - rn.lambda;
            apply_angular(t.t(i, 0, &rn), en, &mut va, &mut vb);
            w[0] += en * m;
            slot.rows[0].lambda[h & 1] = nn;
            continue;
        }
        // The two friction rows from the same `dV` (`pgs::solve_manifold` lane by lane),
        // bounded by ±μλₙ.
        let bound = (g.friction * slot.rows[0].lambda[h & 1]).max(Vec4::ZERO);
        let (r1, r2) = (slot.rows[1].get(h), slot.rows[2].get(h));
        // (Unclamped first: a sliding point's friction row, held at its bound, still
        // wants to change, and a settled solve's measure counts what it wants.)
        let u1 = new_lambda(&r1, w[1], omega, &va, &vb);
        let u2 = new_lambda(&r2, w[2], omega, &va, &vb);
        let (n1, n2) = (u1.max(-bound).min(bound), u2.max(-bound).min(bound));
        let (e1, e2) = (n1 - r1.lambda, n2 - r2.lambda);
        // The impulses with the blocks read again from the slot (`lanes::fresh`).
        let rows = fresh(&slot.rows);
        let (r1, r2) = (rows[1].get(h), rows[2].get(h));
        let (at_a, at_b) = (va.ang, vb.ang);
        apply_angular(t.t(i, 1, &r1), e1, &mut va, &mut vb);
        w[1] += e1 * m;
        apply_angular(t.t(i, 2, &r2), e2, &mut va, &mut vb);
        w[2] += e2 * m;
        // Then the normal row, from `dV` before the friction impulses plus those
        // impulses through its couplings.
        let rn = rows[0].get(h);
        let [c1, c2] = slot.couple.map(|c| c[h & 1]);
        let ahead = c1 * e1 + c2 * e2;
        let nn = new_normal_lambda(&rn, w[0], omega, (&at_a, &at_b), ahead);
        let en = nn - rn.lambda;
        let rn = fresh(&slot.rows)[0].get(h);
        apply_angular(t.t(i, 0, &rn), en, &mut va, &mut vb);
        w[0] += en * m;
        slot.set_lambdas(h, [nn, n1, n2]);
        if measure {
            let (f1, f2) = ((u1 - r1.lambda).abs(), (u2 - r2.lambda).abs());
            change = change.max(f1).max(f2).max(en.abs());
        }
    }
    let dw = [w[0] - w0[0], w[1] - w0[1], w[2] - w0[2]];
    let rel = (*dn * dw[0] + *d1 * dw[1]) + *d2 * dw[2];
    va.lin -= rel * g.share_a;
    vb.lin += rel * g.share_b;
    scatter(dv, g.a, g.movable, &va);
    scatter(dv, g.b, g.movable >> 4, &vb);
    (change * m).max_element()
}

/// The lanes' relative linear velocity `v_b − v_a` in the manifold's basis (normal,
/// tangents): a row's linear term `J_lin·dV` is its component.
#[inline(always)]
pub(crate) fn basis_velocity(dir: &[V3; 3], va: &WideVel, vb: &WideVel) -> [Vec4; 3] {
    let rel = vb.lin - va.lin;
    [dir[0].dot(rel), dir[1].dot(rel), dir[2].dot(rel)]
}

/// Each body's share `1/m_a / (1/m_a + 1/m_b)`, `1/m_b / (…)` of a change in the
/// relative velocity (0 where neither moves).
#[inline(always)]
pub(crate) fn shares(ima: Vec4, imb: Vec4) -> (Vec4, Vec4) {
    let m = ima + imb;
    let some = m.cmpgt(Vec4::ZERO);
    let inv = Vec4::select(some, Vec4::ONE / m, Vec4::ZERO);
    (ima * inv, imb * inv)
}

/// `ω += T_ang·δ` of one row on both bodies.
#[inline(always)]
fn apply_angular((ta, tb): (V3, V3), delta: Vec4, va: &mut WideVel, vb: &mut WideVel) {
    va.ang += ta * delta;
    vb.ang += tb * delta;
}

/// `dV += T·λ` for one group's (warm) impulses (`dV −= T·λ` with `UNDO`: the
/// impulses of rows about to be built again taken back out, `reuse.rs`).
#[inline(always)]
pub(crate) fn warm_group<V: Velocities + ?Sized, const UNDO: bool>(
    g: &Group,
    slots: &[WideSlot],
    t: &[WideT],
    dv: &mut V,
) {
    if g.t_blocks {
        warm_group_with::<_, _, UNDO>(g, slots, t, dv);
    } else {
        warm_group_with::<_, _, UNDO>(g, slots, g.isotropic(), dv);
    }
}

#[inline(always)]
fn warm_group_with<V: Velocities + ?Sized, A: AngularT, const UNDO: bool>(
    g: &Group,
    slots: &[WideSlot],
    t: A,
    dv: &mut V,
) {
    let mut va = gather(dv, g.a);
    let mut vb = gather(dv, g.b);
    for (i, slot) in slots.iter().enumerate() {
        let p = &slot.point(g.half());
        for (k, (r, dir)) in p.rows.iter().zip(&g.dir).enumerate() {
            let (ima, imb) = (g.inv_mass_a, g.inv_mass_b);
            let tk = t.t(i, k, r);
            let lambda = if UNDO { -r.lambda } else { r.lambda };
            apply_impulse(dir, tk, lambda, ima, imb, &mut va, &mut vb);
        }
    }
    scatter(dv, g.a, g.movable, &va);
    scatter(dv, g.b, g.movable >> 4, &vb);
}

/// One group of the split-impulse position pass (normal rows, `b̃` = split `b̃`); `pts`,
/// `t` and `lambda` are the group's own.
#[inline(always)]
pub(crate) fn split_group<V: Velocities + ?Sized>(
    g: &Group,
    slots: &[WideSlot],
    t: &[WideT],
    side: &[WideSide],
    lambda: &mut [Vec4],
    pseudo: &mut V,
) {
    if g.t_blocks {
        split_group_with(g, slots, t, side, lambda, pseudo);
    } else {
        split_group_with(g, slots, g.isotropic(), side, lambda, pseudo);
    }
}

#[inline(always)]
fn split_group_with<V: Velocities + ?Sized, A: AngularT>(
    g: &Group,
    slots: &[WideSlot],
    t: A,
    side: &[WideSide],
    lambda: &mut [Vec4],
    pseudo: &mut V,
) {
    // A group with nothing to correct in any point (most of a resting stack) gathers
    // and scatters nothing: its points would all sit the pass out below.
    let busy =
        |(s, l): (&WideSide, &Vec4)| !(s.split_b.cmpeq(Vec4::ZERO) & l.cmpeq(Vec4::ZERO)).all();
    if !side.iter().zip(lambda.iter()).any(busy) {
        return;
    }
    let mut va = gather(pseudo, g.a);
    let mut vb = gather(pseudo, g.b);
    let (ima, imb) = (g.inv_mass_a, g.inv_mass_b);
    for (i, ((slot, side), l)) in slots.iter().zip(side).zip(lambda).enumerate() {
        // Rows with nothing to correct and no impulse yet sit the pass out (as in
        // `pgs::split_sweep`): their lanes keep λ = 0 and apply no impulse.
        let idle = side.split_b.cmpeq(Vec4::ZERO) & l.cmpeq(Vec4::ZERO);
        if idle.all() {
            // Nothing to correct in any lane (most points of a resting stack within
            // the slop: 99.7 % of `pyramid3d_10`'s wide points, 17 % of `pyramid_40`'s).
            continue;
        }
        let r = &slot.rows[0].get(g.half());
        let dir = &g.dir[0];
        let jdv = row_velocity(r, dir, &va, &vb);
        let new = GaussSeidel.unclamped(*l, side.split_b, jdv).max(Vec4::ZERO);
        let new = Vec4::select(idle, Vec4::ZERO, new);
        let delta = new - *l;
        *l = new;
        apply_impulse(dir, t.t(i, 0, r), delta, ima, imb, &mut va, &mut vb);
    }
    scatter(pseudo, g.a, g.movable, &va);
    scatter(pseudo, g.b, g.movable >> 4, &vb);
}

impl WideContacts {
    /// A solver that runs pairs with `kernel` instead of the CPU's best, and its
    /// multi-threaded sweeps in one part per pool thread whatever the machine's cores
    /// (tests).
    #[cfg(test)]
    pub(crate) fn with_pair_kernel(kernel: PairKernel) -> Self {
        WideContacts {
            pair_kernel: Some(kernel),
            max_parts: Some(usize::MAX),
            ..WideContacts::default()
        }
    }

    /// Which solver bodies the groups move (`in_groups`) and which the overflow set
    /// does (`in_overflow`).
    fn mark_bodies(&mut self, store: &ContactStore, bodies: usize) {
        self.in_groups.clear();
        self.in_groups.resize(bodies, false);
        for g in &self.groups {
            for l in 0..4 {
                if g.movable >> l & 1 == 1 {
                    self.in_groups[g.a[l] as usize] = true;
                }
                if g.movable >> (l + 4) & 1 == 1 {
                    self.in_groups[g.b[l] as usize] = true;
                }
            }
        }
        self.in_overflow.clear();
        self.in_overflow.resize(bodies, false);
        for &m in &self.coloring.overflow {
            let mi = &store.manifold_inputs[m as usize];
            for k in [mi.a, mi.b]
                .into_iter()
                .filter(|&k| !self.fixed[k as usize])
            {
                self.in_overflow[k as usize] = true;
            }
        }
    }

    /// Lay the store's points into the lanes of the groups as they stand, where the
    /// colouring stands but some manifolds' point counts changed since the lanes were
    /// laid, and each still fits its group's wide points (`Group::count`): its points
    /// take its lane's first wide points, the rest of the lane stays empty, as in a group
    /// beside a manifold of more points. Returns whether it did (it writes nothing
    /// otherwise). The groups, units, slots and schedule then stand: on `pyramid_100`
    /// a point that came or went in one of its 15 000 manifolds, on 25 of 600 steps, cost
    /// the whole layout (about 0.6 ms on one thread and 1.6 ms on two, with the
    /// schedule). Each lane's rows are their own, and every body still meets its groups
    /// in the same order, so the sweeps' bits are those of a layout made afresh.
    fn relane(&mut self, store: &ContactStore) -> bool {
        let mp = &store.manifold_points;
        let fits = mp.len() == self.last_points.len()
            && self.groups.iter().zip(&self.lane_manifolds).all(|(g, ms)| {
                ms.iter().all(|&m| {
                    m == u32::MAX || mp.get(m as usize).is_some_and(|&(_, n)| n <= g.count)
                })
            });
        #[cfg(test)]
        let fits = fits && !self.relane.0;
        if !fits {
            return false;
        }
        #[cfg(test)]
        {
            self.relane.1 += 1;
        }
        self.at.clear();
        self.at.resize(store.inputs.len(), u32::MAX);
        for (g, ms) in self.groups.iter().zip(&self.lane_manifolds) {
            for (l, &m) in ms.iter().enumerate().filter(|&(_, &m)| m != u32::MAX) {
                let (s, n) = mp[m as usize];
                for k in 0..g.count {
                    let w = g.first + k;
                    self.lanes[w as usize][l] = if k < n {
                        self.at[(s + k) as usize] = 4 * w + l as u32;
                        s + k
                    } else {
                        u32::MAX
                    };
                }
            }
        }
        self.last_points.clear();
        self.last_points.extend_from_slice(mp);
        self.points_at = store.keys_at;
        true
    }

    /// Colour the store's manifolds, pack them into groups and build their rows in the
    /// lanes (`wide_build.rs`), from the store's point inputs (after
    /// `ContactStore::gather`) and the solver bodies; `params` are the solve substep's.
    /// `sweeps`: velocity sweeps per solve of this step (the multi-threaded schedule is
    /// built only for at least `parallel::MIN_SWEEPS`).
    pub fn pack(
        &mut self,
        store: &ContactStore,
        bodies: &SolverBodies,
        order: SweepOrder,
        sweeps: u32,
        params: &BuildParams,
        warm: Option<&mut [Velocity]>,
    ) -> bool {
        self.pairs = self.pair_kernel.unwrap_or_else(PairKernel::detect);
        // Where pairs run as one kernel, their rows share slots and every pass over the
        // rows but the sweeps stays on this thread (the sweeps split by unit, which
        // keeps a pair's slots with one thread).
        self.pool = store.pool && !self.pairs.pairs();
        self.fixed.clear();
        self.fixed.extend(
            (0..bodies.len()).map(|i| {
                i == 0 || (bodies.inv_mass[i] == 0.0 && bodies.inv_inertia[i] == Mat3::ZERO)
            }),
        );
        let mins = &store.manifold_inputs;
        // The exact mode's tall islands are swept from the scalar rows in store order:
        // in the sequential order that is the order their levels give; colours meet a
        // body's manifolds in another order, so there they keep their lanes.
        let scalar = order == SweepOrder::Sequential;
        let taken = |s: u32| scalar && store.taken.get(s as usize).copied().unwrap_or(false);
        self.coloring.build_keyed(
            store
                .manifold_points
                .iter()
                .zip(mins)
                .map(|(&(s, n), m)| (m.a, m.b, taken(s), n)),
            &self.fixed,
            order,
            LEVEL_LANES,
            store.keys_at,
        );
        // (The same keys: the same points, as the layout last read them.)
        let mut reuse = self.coloring.reused
            && (self.coloring.same_keys
                || store.manifold_points == self.last_points
                || self.relane(store));
        if reuse {
            // (The lanes hold the store's points as it has them now.)
            self.points_at = store.keys_at;
        }
        // A body's isotropic inverse inertia `c` (`I⁻¹ = c·1`; 0 for a fixed body), or
        // `None`: its `T_ang` blocks need the whole matrix.
        let fixed = &self.fixed;
        let iso = |i: u32| bodies.iso[i as usize];
        let framed = |i: u32| bodies.frame_of[i as usize] != u32::MAX;
        // What the groups read of the bodies, as bits: where no body changed it since
        // they last read it, the groups hold it already. (Groups made anew read every
        // body: then it is only recorded.)
        let read = |i: usize| {
            let iso = bodies.iso[i].map_or(u32::MAX, f32::to_bits);
            (bodies.inv_mass[i].to_bits(), iso, bodies.frame_of[i])
        };
        let same_bodies = reuse
            && self.last_bodies.len() == bodies.len()
            && self
                .last_bodies
                .iter()
                .enumerate()
                .all(|(i, &k)| k == read(i));
        if !same_bodies {
            self.last_bodies.clear();
            self.last_bodies.extend((0..bodies.len()).map(read));
        }
        if reuse && !same_bodies {
            // The same colouring over the same manifolds and points: the same groups and
            // lanes, with the same bodies. Only what the bodies may have changed is read
            // again (a body whose inertia stopped or started being isotropic regroups);
            // the materials with the rows (`wide_build::prepare_group`).
            'groups: for g in &mut self.groups {
                let mut in_frames = false;
                for (l, &i) in self.lanes[g.first as usize].iter().enumerate() {
                    if i != u32::MAX {
                        let (a, b) = (g.a[l], g.b[l]);
                        in_frames |= framed(a) || framed(b);
                        g.inv_mass_a[l] = bodies.inv_mass[a as usize];
                        g.inv_mass_b[l] = bodies.inv_mass[b as usize];
                        if !g.t_blocks {
                            match (iso(a), iso(b)) {
                                (Some(ca), Some(cb)) => {
                                    g.inv_i_a[l] = ca;
                                    g.inv_i_b[l] = cb;
                                }
                                _ => {
                                    reuse = false;
                                    break 'groups;
                                }
                            }
                        }
                    }
                }
                if in_frames != g.in_frames {
                    reuse = false;
                    break 'groups;
                }
            }
        }
        if !reuse {
            self.last_points.clear();
            self.last_points.extend_from_slice(&store.manifold_points);
            self.points_at = store.keys_at;
            self.groups.clear();
            self.color_groups.clear();
            self.lanes.clear();
            self.lane_manifolds.clear();
            self.at.clear();
            self.at.resize(store.inputs.len(), u32::MAX);
            let mut t_next = 0;
            for c in 0..self.coloring.used() {
                let start = self.groups.len() as u32;
                let mp = &store.manifold_points;
                // Most points first, then store order: `(Reverse(points), m)` as one
                // integer each (no lookup per comparison).
                self.sort_keys.clear();
                self.sort_keys.extend(
                    self.coloring.colors[c]
                        .iter()
                        .map(|&m| (u64::from(!mp[m as usize].1) << 32) | u64::from(m)),
                );
                self.sort_keys.sort_unstable();
                self.sorted.clear();
                self.sorted.extend(self.sort_keys.iter().map(|&k| k as u32));
                for chunk in self.sorted.chunks(4) {
                    let mut manifolds = [u32::MAX; 4];
                    let mut g = Group {
                        first: self.lanes.len() as u32,
                        count: chunk.iter().map(|&m| mp[m as usize].1).max().unwrap_or(0),
                        t_first: t_next,
                        ..Group::default()
                    };
                    self.lanes
                        .resize(self.lanes.len() + g.count as usize, [u32::MAX; 4]);
                    for (l, &m) in chunk.iter().enumerate() {
                        let (s, n) = mp[m as usize];
                        let first = &mins[m as usize];
                        manifolds[l] = m;
                        g.a[l] = first.a;
                        g.b[l] = first.b;
                        g.inv_mass_a[l] = bodies.inv_mass[first.a as usize];
                        g.inv_mass_b[l] = bodies.inv_mass[first.b as usize];
                        let movable = |i: u32| !fixed[i as usize];
                        g.movable |=
                            u8::from(movable(first.a)) << l | u8::from(movable(first.b)) << (l + 4);
                        match (iso(first.a), iso(first.b)) {
                            (Some(ca), Some(cb)) => {
                                g.inv_i_a[l] = ca;
                                g.inv_i_b[l] = cb;
                            }
                            _ => g.t_blocks = true,
                        }
                        g.in_frames |= framed(first.a) || framed(first.b);
                        for k in 0..n {
                            let (i, w) = (s + k, g.first + k);
                            self.lanes[w as usize][l] = i;
                            self.at[i as usize] = 4 * w + l as u32;
                        }
                    }
                    if g.t_blocks {
                        t_next += g.count;
                    }
                    self.groups.push(g);
                    self.lane_manifolds.push(manifolds);
                }
                self.color_groups.push((start, self.groups.len() as u32));
            }
        }
        if !reuse {
            plan_units(
                &mut self.units,
                &self.groups,
                &self.color_groups,
                self.pairs.pairs(),
                &mut self.taken,
                (self.coloring.regions(), &mut self.region_units),
            );
            #[cfg(test)]
            let block_min = self.block_min.unwrap_or(crate::color::BLOCK_MIN);
            #[cfg(not(test))]
            let block_min = crate::color::BLOCK_MIN;
            self.seam_from = if mins.len() >= block_min {
                seam_last(&mut self.units, &mut self.region_units)
            } else {
                None
            };
            self.plan_wavefront();
        }
        // (The same groups over as many bodies mark the same bodies.)
        let marked = reuse && self.in_groups.len() == bodies.len();
        if !marked {
            self.mark_bodies(store, bodies.len());
        }
        // Pairs share slots when no per-group pass splits the groups over threads (the
        // pool's passes are off where there are pairs, above); lone groups share slots
        // with each other only when the sweeps run on one thread too (the
        // multi-threaded sweeps, a schedule below, give every unit slots of its own).
        // One part per pool thread, but no more than the machine runs at once: a part
        // whose thread waits for a core stalls every part that waits on it.
        let cores = self.max_parts.unwrap_or_else(parallel::cores);
        // A sweep cut into regions splits at any number of sweeps, a region a thread
        // (two, whatever the machine's cores): its threads meet once a sweep, at the
        // seam.
        let cut = self.cut();
        let mut parts = rayon::current_num_threads().min(cores);
        if cut {
            parts = parts.min(crate::color::REGIONS);
        }
        let threads = parts > 1 && (cut || sweeps >= parallel::MIN_SWEEPS);
        let share = self.pairs.pairs() && !self.pool;
        if !reuse || share != self.shared || threads != self.own_slots {
            (self.shared, self.own_slots) = (share, threads);
            let n = assign_slots(
                &mut self.groups,
                &self.units,
                share,
                !threads,
                &mut self.loc,
            );
            // Every lane of a used half is written (empty ones with zero rows), so the
            // buffer is only grown, never reset.
            self.slots.truncate(n);
            self.slots.resize(n, WideSlot::default());
        }
        let n = self.lanes.len();
        self.side.truncate(n);
        self.side.resize(n, WideSide::default());
        let nt = self.groups.last().map_or(0, |g| g.t_range().end);
        self.t.truncate(nt);
        self.t.resize(nt, WideT::default());
        // An overflow set apart from the groups (the exact mode's islands, in the
        // sequential order) runs after the threads' sweeps, on this thread.
        let schedule = threads
            && self.groups.len() >= parallel::MIN_GROUPS
            && (self.coloring.overflow.is_empty() || self.coloring.overflow_apart());
        // The same units over the same bodies (a reused colouring) keep their schedule.
        let kept = reuse && self.schedules() && self.schedule.parts() == parts;
        if !schedule || !kept {
            self.schedule.clear();
        }
        if schedule && !kept {
            self.schedule.build(
                &self.units,
                &self.groups,
                bodies.len(),
                (parts, &self.region_units),
                self.seam_from,
            );
        }
        // With `warm` (the solve's `dV`, at zero) and the rows built on this thread, each
        // group's warm impulses go in right after its rows are built, while they are in
        // cache: `warm_start`'s sums, group by group in the same order.
        let kernel = self.pairs;
        let warmed = match warm {
            // A schedule, and a crew to share it with: the rows are built in its
            // dependency order on both threads, each unit by the thread that sweeps it.
            Some(dv) if self.build_on_crew() => {
                self.build_rows_on_crew(None, store, bodies, params, dv);
                true
            }
            Some(dv) if !self.pool => {
                // Compiled for the CPU's vector instructions (`PairKernel::run`).
                self.pairs.run(
                    #[inline(always)]
                    || {
                        // In the sweep order (`units`), which meets every body's groups
                        // in group order, so the warm sums keep their bits; two groups
                        // that share their slots and length at a time in eight lanes,
                        // each point's warm impulses right after its rows.
                        for u in 0..self.units.len() {
                            let inputs = wide_build::Inputs::of(store);
                            self.build_unit(u, inputs, bodies, params, dv);
                        }
                    },
                );
                true
            }
            _ => {
                let pool = self.pool;
                let (groups, rows) = self.groups_and_rows();
                wide_build::each_group(pool, groups, rows, &|g, rows| {
                    kernel.run(
                        #[inline(always)]
                        || {
                            let inputs = wide_build::Inputs::of(store);
                            wide_build::build_group(g, rows, inputs, bodies, params)
                        },
                    );
                });
                false
            }
        };
        // (About 1 MB on `pyramid_100`, 46–60 µs: zeroed by both of the crew's threads.)
        zeroed(&mut self.split_lambda, n, Vec4::ZERO);
        self.split_written = false;
        zeroed(&mut self.impulse, n, [Vec4::ZERO; 3]);
        warmed
    }

    /// Whether the rows are built on the crew's threads in the schedule's dependency
    /// order ([`parallel::Schedule::build_rows`]): a schedule, not cooling after a
    /// stall, and a crew to share it with.
    fn build_on_crew(&self) -> bool {
        !self.pool && self.schedules() && !self.schedule.cooling() && parallel::Crew::active()
    }

    /// The units' rows and their warm impulses into `dv` on the crew's threads, in the
    /// schedule's dependency order (`stale`: only the units marked, each one's old
    /// impulses out of `dv` first).
    fn build_rows_on_crew(
        &mut self,
        stale: Option<&[bool]>,
        store: &ContactStore,
        bodies: &SolverBodies,
        params: &BuildParams,
        dv: &mut [Velocity],
    ) {
        let rows = parallel::UnitRows {
            groups: &mut self.groups,
            slots: &mut self.slots,
            t: &mut self.t,
            side: &mut self.side,
            lanes: &self.lanes,
        };
        let inputs = wide_build::Inputs::of(store);
        let kernel = (self.pairs, self.shared);
        self.schedule
            .build_rows(&self.units, stale, rows, kernel, inputs, bodies, params, dv);
    }

    /// The rows of unit `u` and their warm impulses into `dv`: its two groups as one
    /// eight-lane kernel where they can be ([`build_pair`](Self::build_pair)), else
    /// group by group, each point's warm impulses right after its rows.
    #[inline(always)]
    fn build_unit(
        &mut self,
        u: usize,
        inputs: wide_build::Inputs<'_>,
        bodies: &SolverBodies,
        params: &BuildParams,
        dv: &mut [Velocity],
    ) {
        let [g0, g1] = self.units[u].map(|g| g as usize);
        if self.build_pair([g0, g1], inputs, bodies, params, dv) {
            return;
        }
        for gi in [g0, g1] {
            let Some(g) = self.groups.get_mut(gi) else {
                continue;
            };
            let r = g.range();
            let rows = wide_build::GroupRows {
                slots: &mut self.slots[g.slots()],
                t: &mut self.t[g.t_range()],
                side: &mut self.side[r.clone()],
                lanes: &self.lanes[r],
            };
            wide_build::build_group(g, rows, inputs, bodies, params);
            warm_group::<_, false>(g, &self.slots[g.slots()], &self.t[g.t_range()], dv);
        }
    }

    /// The rows of the groups `g`, and their warm impulses into `dv`, where they can be
    /// built as one eight-lane kernel ([`PairKernel::build`]): a pair of groups of
    /// isotropic bodies sharing their slots, with as many wide points each. Returns
    /// whether it built them.
    fn build_pair(
        &mut self,
        [g0, g1]: [usize; 2],
        inputs: wide_build::Inputs<'_>,
        bodies: &SolverBodies,
        params: &BuildParams,
        dv: &mut [Velocity],
    ) -> bool {
        let Some((ra, rb)) = self.same_length_pair([g0, g1], true) else {
            return false;
        };
        for (g, r) in [(g0, &ra), (g1, &rb)] {
            let first = self.lanes.get(r.start).filter(|_| !r.is_empty());
            wide_build::prepare_group(&mut self.groups[g], first, inputs, params);
        }
        let side = two_mut(&mut self.side, ra.clone(), rb.clone());
        let (a, b) = (&self.groups[g0], &self.groups[g1]);
        let lanes = [&self.lanes[ra.clone()], &self.lanes[rb.clone()]];
        let slots = &mut self.slots[a.slots()];
        self.pairs.build(
            [a, b],
            slots,
            side,
            lanes,
            inputs.points,
            bodies,
            params,
            dv,
        )
    }

    /// The refresh of the groups `g` where they can run as one eight-lane kernel
    /// ([`PairKernel::refresh`]): a pair sharing its slots, with as many wide points
    /// each. Returns whether it refreshed them.
    fn refresh_pair(&mut self, [g0, g1]: [usize; 2], r: &Refresh<'_>) -> bool {
        let Some((ra, rb)) = self.same_length_pair([g0, g1], false) else {
            return false;
        };
        let (a, b) = (&self.groups[g0], &self.groups[g1]);
        let side = two_mut(&mut self.side, ra, rb);
        let slots = &mut self.slots[a.slots()];
        let moved = r.moved.map(|m| (m, r.advance()));
        self.pairs
            .refresh([a, b], slots, side, moved, r.h, r.params)
    }

    /// The wide points of the unit `[g0, g1]` where its two groups run as one
    /// eight-lane kernel outside the sweeps (row `build`, refresh): they share their
    /// slots (one thread), have as many wide points each and bodies of isotropic
    /// inertia (the kernels make `T_ang = J_ang·c`; `plan_units` pairs no others) —
    /// for a build, none in its own angular frame (the eight-lane build has no frames:
    /// with them it measured no faster than four lanes on the Zen 1 host).
    fn same_length_pair(
        &self,
        [g0, g1]: [usize; 2],
        build: bool,
    ) -> Option<(std::ops::Range<usize>, std::ops::Range<usize>)> {
        let (a, b) = (self.groups.get(g0)?, self.groups.get(g1)?);
        (self.shared && one_kernel(a, b, build)).then(|| (a.range(), b.range()))
    }

    /// The groups, and all their rows (for `wide_build::each_group`).
    fn groups_and_rows(&mut self) -> (&mut [Group], wide_build::GroupRows<'_>) {
        let rows = wide_build::GroupRows {
            slots: &mut self.slots,
            t: &mut self.t,
            side: &mut self.side,
            lanes: &self.lanes,
        };
        (&mut self.groups, rows)
    }

    /// Solves whose sweeps ran on the pool's threads since the last call.
    pub fn take_threaded(&mut self) -> u32 {
        std::mem::take(&mut self.threaded)
    }

    /// Whether the last colouring cut the sweep into regions (`Coloring::regions`).
    pub fn cut(&self) -> bool {
        !self.coloring.regions().is_empty()
    }

    /// Whether the sweeps take the block order (`seam_from`).
    pub fn blocks(&self) -> bool {
        self.seam_from.is_some()
    }

    /// Whether this step's sweeps have a multi-threaded schedule.
    pub fn schedules(&self) -> bool {
        self.schedule.len() == self.units.len() && !self.units.is_empty()
    }

    /// Whether these sweeps can run on the pool's threads: a schedule was built, and
    /// there are no joint rows (they run serially at the start of each sweep).
    fn parallel(&self, joints: usize) -> bool {
        self.schedules() && joints == 0
    }

    /// Whether the colouring is list-scheduled ([`Coloring::listed`]).
    pub fn listed(&self) -> bool {
        self.coloring.listed()
    }

    /// List-schedule the colouring at the next [`pack`](Self::pack)
    /// ([`Coloring::relist`]).
    pub fn relist(&mut self) {
        self.coloring.relist();
    }

    /// The sweep's units (a group, or two run as one).
    #[cfg(test)]
    pub(crate) fn unit_count(&self) -> usize {
        self.units.len()
    }

    /// The sweep's units, their groups and their schedule (tests of the schedule's waits).
    #[cfg(test)]
    pub(crate) fn schedule_parts(&mut self) -> (&[[u32; 2]], &[Group], &mut Schedule) {
        (&self.units, &self.groups, &mut self.schedule)
    }

    /// Colours in use and overflow manifolds (for the step's counters).
    pub fn colors(&self) -> (usize, usize) {
        (self.color_groups.len(), self.coloring.overflow.len())
    }

    /// One sweep: joints, colours, overflow (backward: the reverse); without `friction`
    /// the contacts' normal rows only (`pgs::friction_sweep`).
    #[allow(clippy::too_many_arguments)]
    pub fn sweep(
        &mut self,
        store: &mut ContactStore,
        joints: &mut [crate::joint::rows::JointRow],
        dv: &mut [Velocity],
        omega: f32,
        back: bool,
        friction: bool,
        last: Option<&mut LastSweep<'_>>,
    ) {
        let pass = (back, friction);
        if omega == 1.0 {
            self.sweep_with(store, joints, dv, omega, GaussSeidel, pass, last);
        } else {
            let w = Sor(Vec4::splat(omega));
            self.sweep_with(store, joints, dv, omega, w, pass, last);
        }
    }

    /// [`sweep`](Self::sweep) with the packed rows' relaxation `w` (ω in `omega`). With
    /// `last` (a forward sweep) each group's velocity update is followed, while its rows
    /// are still in the core's cache, by what the passes after the sweeps would do to
    /// it (see [`LastSweep`]).
    #[allow(clippy::too_many_arguments)]
    fn sweep_with<R: Relax>(
        &mut self,
        store: &mut ContactStore,
        joints: &mut [crate::joint::rows::JointRow],
        dv: &mut [Velocity],
        omega: f32,
        w: R,
        (back, friction): (bool, bool),
        last: Option<&mut LastSweep<'_>>,
    ) {
        if !back {
            pgs::sweep_joints(joints, dv, false);
        } else {
            self.overflow(store, dv, omega, true);
        }
        // The groups in sweep order, two at a time where `units` pairs them and the
        // rows are Gauss-Seidel's (`wide_avx.rs`).
        let kernel = self.pairs;
        let pairs = kernel.pairs() && omega == 1.0;
        // The whole sweep compiled for the CPU's vector instructions (`PairKernel::run`).
        kernel.run(
            #[inline(always)]
            || self.run_units(0..self.units.len(), dv, w, pairs, (back, friction), last),
        );
        if !back {
            self.overflow(store, dv, omega, false);
        } else {
            pgs::sweep_joints(joints, dv, true);
        }
        dv[0] = Velocity::ZERO;
    }

    /// The units `range` of a sweep, forward or (`back`) backward, with or without the
    /// `friction` rows: each group's velocity update (two groups as one where `pairs`),
    /// then with `last` the work that rides along the solve's last sweep.
    #[inline(always)]
    fn run_units<R: Relax>(
        &mut self,
        range: std::ops::Range<usize>,
        dv: &mut [Velocity],
        w: R,
        pairs: bool,
        (back, friction): (bool, bool),
        mut last: Option<&mut LastSweep<'_>>,
    ) {
        let kernel = self.pairs;
        let (first, n) = (range.start, range.len());
        let couples = pairs && self.shared && !friction && !back && last.is_none();
        // The solve's last sweep (which has friction rows) measures its change.
        let measure = self.measuring && friction && last.is_some();
        let pass = (friction, measure);
        let mut change = 0.0f32;
        let mut i = 0;
        while i < n {
            let u = if back { first + n - 1 - i } else { first + i };
            i += 1;
            if couples && i < n && !self.no_couples && self.couple(u) {
                // Two units that share no movable body, side by side: each one's
                // updates are its own kernel's, so the bits are the same.
                let [a, b] = [self.units[u], self.units[u + 1]]
                    .map(|[g0, g1]| [&self.groups[g0 as usize], &self.groups[g1 as usize]]);
                let len = a[0].slots().len();
                let (sa, sb) = (a[0].slots().start, b[0].slots().start);
                let [pa, pb] = two_mut(&mut self.slots, sa..sa + len, sb..sb + len);
                kernel.solve_couple([a, b], [pa, pb], dv);
                i += 1;
                continue;
            }
            let unit = self.units[u];
            let [g0, g1] = unit;
            let g = &self.groups[g0 as usize];
            let h = self.groups.get(g1 as usize);
            match h {
                Some(h) if pairs && self.shared => {
                    let n = g.slots().len().max(h.slots().len());
                    let first = g.slots().start;
                    let slots = &mut self.slots[first..first + n];
                    change = most(change, kernel.solve([g, h], slots, dv, back, pass));
                }
                _ => {
                    let t = &self.t[g.t_range()];
                    let c = solve_group(g, &mut self.slots[g.slots()], t, dv, w, back, pass);
                    change = most(change, c);
                    if let Some(h) = h {
                        let t = &self.t[h.t_range()];
                        let c = solve_group(h, &mut self.slots[h.slots()], t, dv, w, back, pass);
                        change = most(change, c);
                    }
                }
            }
            if let Some(last) = last.as_deref_mut() {
                for (g, gi) in std::iter::once(g).chain(h).zip(unit) {
                    let r = g.range();
                    last_group(
                        g,
                        &self.slots[g.slots()],
                        &self.t[g.t_range()],
                        &self.side[r.clone()],
                        &mut self.split_lambda[r.clone()],
                        &mut self.impulse[r],
                        &self.lane_manifolds[gi as usize],
                        last.split.as_deref_mut(),
                        last.sum,
                        last.write
                            .as_mut()
                            .map(|wb| (wb.source, &mut *wb.manifolds)),
                    );
                }
            }
        }
        if measure {
            self.change = most(self.change, change);
        }
    }

    /// The largest change of a row's velocity in the last solve's last sweep, where it
    /// measured ([`measure`](Self::measure)); `∞` where it did not.
    pub(crate) fn change(&self) -> f32 {
        self.change
    }

    /// Whether every body the groups move has a velocity after the solve, `Vnc + dV`
    /// (`bodies`), no faster than `speed` in any component, linear (m/s) or angular
    /// (rad/s, in the body's own frame where it has one): the bodies of a settled
    /// solve at rest. Bodies apart from the groups (a pendulum, a chain) do not count,
    /// as their rows' changes do not.
    pub(crate) fn groups_at_rest(&self, bodies: &SolverBodies, speed: f32) -> bool {
        let moved = self.in_groups.iter().zip(bodies.vnc.iter().zip(&bodies.dv));
        moved.filter(|(m, _)| **m).all(|(_, (v, d))| {
            let fastest = (v.lin + d.lin).abs().max((v.ang + d.ang).abs());
            fastest.max_element() <= speed
        })
    }

    /// The groups' sweeps in the last solve (one where it was settled).
    pub(crate) fn group_sweeps(&self) -> u32 {
        self.group_sweeps
    }

    /// After the groups' sweeps, the rows apart from them (`joints` apart, the overflow
    /// set apart): `iterations` sweeps of the joint rows then the overflow set's, as
    /// the serial sweep meets them (two overflow manifolds at a time without joints).
    fn apart_sweeps(
        &mut self,
        store: &mut ContactStore,
        joints: &mut [crate::joint::rows::JointRow],
        dv: &mut [Velocity],
        omega: f32,
        iterations: u32,
    ) {
        if joints.is_empty() {
            self.overflow_sweeps_paired(store, dv, omega, iterations);
            return;
        }
        for _ in 0..iterations {
            pgs::sweep_joints(joints, dv, false);
            self.overflow(store, dv, omega, false);
            dv[0] = Velocity::ZERO;
        }
    }

    /// Whether units `u` and `u + 1` can run side by side in a sweep without friction
    /// rows ([`parallel::couple`]).
    fn couple(&self, u: usize) -> bool {
        parallel::couple(&self.apart, &self.units, &self.groups, u)
    }

    /// One forward sweep of the overflow set alone (its islands swept apart from the
    /// groups: `World::apart`). The overflow set's manifolds are swept from the scalar
    /// rows with their friction rows in every sweep (`Settings::friction_stride` is for
    /// the lanes): they are the islands the exact mode checks, whose PGS answer decides
    /// whether the dense solve runs, and what the colouring could not place.
    pub fn overflow_sweep(&self, store: &mut ContactStore, dv: &mut [Velocity], omega: f32) {
        self.overflow(store, dv, omega, false);
        dv[0] = Velocity::ZERO;
    }

    /// `sweeps` forward sweeps of the overflow set alone (its islands apart from the
    /// groups and from any joint rows), to the bit those of
    /// [`overflow_sweep`](Self::overflow_sweep) one after the other, two at a time.
    ///
    /// A sweep's chain of row updates waits on itself from one row to the next (about
    /// 10 ns a row on a tower), so the next sweep runs beside it, two manifolds a step
    /// ([`pgs::solve_two_manifolds`]). In Gauss-Seidel order sweep `s + 1`'s manifold
    /// `j` reads what sweep `s` left on its bodies, so it may run once sweep `s` has
    /// passed `reach(j)` — the last position whose manifold shares a movable body with
    /// `j` — and beside sweep `s`'s manifold `i > reach(j)`, which shares none with it.
    /// Every pair of updates on a common body then keeps its order, and so the bits.
    /// (The static dummy `0` is shared by any number of them; its `dV` stays `+0`.)
    /// The sweeps are compiled for the CPU's vector instructions (`PairKernel::run`:
    /// the same operations, so the same bits), whose three-operand forms keep the two
    /// manifolds' state in registers: 7 % off `tower_20`'s sweeps.
    pub fn overflow_sweeps_paired(
        &mut self,
        store: &mut ContactStore,
        dv: &mut [Velocity],
        omega: f32,
        sweeps: u32,
    ) {
        let of = &self.coloring.overflow;
        if of.is_empty() || sweeps == 0 {
            return;
        }
        let OverflowOrder {
            order,
            reach,
            pairs,
        } = &mut self.overflow_reach;
        // Island by island, each island's manifolds in store order: islands share no
        // movable body, so every body meets its updates in the order of the store's
        // sweep (the same bits), and one island's chain does not hold back the next
        // sweep on all the islands after it. (In store order a row of towers lists
        // every tower's ground contact first, each reaching to its tower's next
        // manifold far down the list, so the sweeps could rarely run side by side:
        // 64 towers of eight ran one manifold at a time as often as two.)
        order.clone_from(of);
        order.sort_unstable_by_key(|&m| (store.manifold_island[m as usize], m));
        let of = &order[..];
        pairs.clear();
        for (k, &m) in of.iter().enumerate() {
            let mi = &store.manifold_inputs[m as usize];
            pairs.extend(
                [mi.a, mi.b]
                    .into_iter()
                    .filter(|&b| b != 0)
                    .map(|b| (b, k as u32)),
            );
        }
        pairs.sort_unstable();
        reach.clear();
        reach.extend(0..of.len() as u32);
        for run in pairs.chunk_by(|x, y| x.0 == y.0) {
            let last = run[run.len() - 1].1;
            for &(_, k) in run {
                reach[k as usize] = reach[k as usize].max(last);
            }
        }
        let (ranges, reach) = (&store.manifold_points, &reach[..]);
        let points = &mut store.points;
        let _paired = self.pairs.run(
            #[inline(always)]
            || sweep_paired(of, (ranges, reach), points, dv, omega, sweeps),
        );
        #[cfg(test)]
        {
            self.overflow_paired += _paired;
        }
        dv[0] = Velocity::ZERO;
    }

    fn overflow(&self, store: &mut ContactStore, dv: &mut [Velocity], omega: f32, back: bool) {
        let of = &self.coloring.overflow;
        for k in 0..of.len() {
            let m = of[if back { of.len() - 1 - k } else { k }];
            let (s, n) = store.manifold_points[m as usize];
            let pts = &mut store.points[s as usize..(s + n) as usize];
            pgs::solve_manifold(pts, dv, omega, back, true);
        }
    }

    /// `iterations` sweeps, alternating direction when `symmetric`, with the friction
    /// rows in the sweeps [`pgs::friction_sweep`] gives for `friction_stride` — after the
    /// refresh of the rows `fresh` ([`refresh`](Self::refresh)), if any. In the serial
    /// wavefront each unit is refreshed right before its first sweep, while its rows
    /// come into the core's cache for it; elsewhere all of them first. A unit's refresh
    /// reads only its own rows and the bodies' motion, which no sweep changes, so the
    /// bits are the same either way.
    #[allow(clippy::too_many_arguments)]
    pub fn solve(
        &mut self,
        fresh: Option<Refresh<'_>>,
        store: &mut ContactStore,
        joints: &mut [crate::joint::rows::JointRow],
        dv: &mut [Velocity],
        (iterations, friction_stride): (u32, u32),
        omega: f32,
        symmetric: bool,
        mut last: LastSweep<'_>,
    ) {
        if let Some(k) = self.overflow_sweeps.take() {
            // The overflow set's islands share no body with the groups
            // (`Coloring::overflow_apart`, which the caller checked): the groups' sweeps
            // without it, then its own.
            let overflow = std::mem::take(&mut self.coloring.overflow);
            let sweeps = (iterations, friction_stride);
            self.solve(fresh, store, joints, dv, sweeps, omega, symmetric, last);
            self.coloring.overflow = overflow;
            self.overflow_sweeps_paired(store, dv, omega, k);
            return;
        }
        self.split_written |= last.split.is_some();
        let sweeps = (iterations, friction_stride);
        let apart = self.joints_apart(joints);
        // Only the groups' rows measure their change, so a solve settles only where
        // every other row (joints', the overflow set's) is apart from them, and those
        // rows take all their sweeps whatever the groups' take.
        let others_apart = (joints.is_empty() || apart)
            && (self.coloring.overflow.is_empty() || self.coloring.overflow_apart());
        let measure = self.measure && others_apart;
        self.measuring = measure;
        self.change = if measure { 0.0 } else { f32::INFINITY };
        let settled = self.settled && measure && iterations > 1;
        self.group_sweeps = if settled { 1 } else { iterations };
        // Joint rows on bodies the groups move (a ragdoll or a chain lying among the
        // boxes) run inside the wavefront, in each sweep before its units as in the
        // plain order, and an overflow set apart from the groups and from them after
        // it (a step that does not sweep the exact mode's islands apart: one where a
        // point bounces); joint rows on an overflow body keep the plain order.
        let inside = !apart && self.clear_of_overflow(joints);
        let parallel = self.parallel(joints.len()) && !symmetric && self.schedule.threads_now();
        self.threaded += u32::from(parallel);
        let wavefront =
            !parallel && iterations > 1 && !symmetric && (apart || inside) && self.wavefront();
        // Rows that stay in a core's cache are refreshed faster in a pass of their own.
        #[cfg(test)]
        let from = self.fused_refresh.0.unwrap_or(FUSED_REFRESH_BYTES);
        #[cfg(not(test))]
        let from = FUSED_REFRESH_BYTES;
        let large = self.slots.len() * std::mem::size_of::<WideSlot>() >= from;
        // The parallel sweeps refresh each unit in its first sweep's task, on the thread
        // that sweeps it, so that its rows stay in that core's cache.
        let fuse = (wavefront && large) || parallel;
        let fuse = fuse && !settled;
        if let Some(r) = fresh.as_ref().filter(|_| !fuse) {
            let t0 = Instant::now();
            self.refresh(r);
            self.refresh_time += t0.elapsed();
        }
        let fresh = fresh.filter(|_| fuse);
        if settled && !parallel {
            // The groups' one sweep (the solve's last, with its friction rows and the
            // work that rides along), then the rows apart from them, all their sweeps.
            let kernel = self.pairs;
            let pairs = kernel.pairs() && omega == 1.0;
            let units = 0..self.units.len();
            let pass = (false, true);
            kernel.run(
                #[inline(always)]
                || {
                    if omega == 1.0 {
                        self.run_units(units, dv, GaussSeidel, pairs, pass, Some(&mut last));
                    } else {
                        let w = Sor(Vec4::splat(omega));
                        self.run_units(units, dv, w, pairs, pass, Some(&mut last));
                    }
                },
            );
            dv[0] = Velocity::ZERO;
            self.apart_sweeps(store, joints, dv, omega, iterations);
            return;
        }
        #[cfg(test)]
        {
            self.fused_refresh.1 += usize::from(fresh.is_some() && !parallel);
        }
        if parallel {
            let sweep = Units {
                units: &self.units,
                groups: &self.groups,
                kernel: self.pairs,
                shared: self.shared,
                apart: &self.apart,
            };
            let rows = LastRows {
                side: &mut self.side,
                split_lambda: &mut self.split_lambda,
                impulse: &mut self.impulse,
                lane_manifolds: &self.lane_manifolds,
            };
            let change = self.schedule.velocity_sweeps(
                &sweep,
                &mut self.slots,
                &self.t,
                rows,
                dv,
                (self.group_sweeps, friction_stride, measure),
                omega,
                (last, fresh.as_ref()),
            );
            if measure {
                self.change = change;
            }
            // (The schedule sweeps the seam too, after the regions' units it meets.)
            dv[0] = Velocity::ZERO;
            // The overflow set's islands share no body with the groups: their sweeps
            // after all of the groups' give every body its serial updates.
            self.overflow_sweeps_paired(store, dv, omega, iterations);
            return;
        }
        if wavefront {
            let within = inside.then_some(&mut *joints);
            let fresh = fresh.as_ref();
            let tail = last.reborrow();
            if omega == 1.0 {
                self.wavefront_sweeps(dv, sweeps, omega, GaussSeidel, within, tail, fresh);
            } else {
                let w = Sor(Vec4::splat(omega));
                self.wavefront_sweeps(dv, sweeps, omega, w, within, tail, fresh);
            }
            self.seam_sweeps(dv, sweeps, omega, last, fresh);
            dv[0] = Velocity::ZERO;
            if inside {
                // The overflow set's islands (apart from the groups, and from the
                // joints' bodies) after all the sweeps, one of theirs per sweep.
                self.overflow_sweeps_paired(store, dv, omega, iterations);
                return;
            }
            // The joint rows and the overflow set's islands share no body with the
            // groups (`joints_apart`, `Coloring::overflow_apart`): their sweeps after
            // all of the groups', each sweep's joint rows then overflow as in a sweep,
            // give every body the updates of the serial order, in its order.
            self.apart_sweeps(store, joints, dv, omega, iterations);
            return;
        }
        if self.units.is_empty() && joints.is_empty() && !symmetric {
            // The overflow set's islands alone (a tower the exact mode checks).
            self.overflow_sweeps_paired(store, dv, omega, iterations);
            return;
        }
        for k in 0..iterations {
            let tail = Some(&mut last).filter(|_| k + 1 == iterations);
            let back = symmetric && k % 2 == 1;
            let friction = pgs::friction_sweep(k, iterations, friction_stride);
            self.sweep(store, joints, dv, omega, back, friction, tail);
        }
    }

    /// The block order's seam (`seam_from`; nothing without one): after the regions'
    /// sweeps, the seam's units take the solve's `iterations` sweeps, refreshed first
    /// where the regions' units were refreshed in their first sweep (`fresh`), the last
    /// sweep with `last`'s work — after the one-thread wavefront (the threads' schedule
    /// sweeps the seam itself, `Schedule::run_blocks`).
    fn seam_sweeps(
        &mut self,
        dv: &mut [Velocity],
        (iterations, friction_stride): (u32, u32),
        omega: f32,
        mut last: LastSweep<'_>,
        fresh: Option<&Refresh<'_>>,
    ) {
        let Some(from) = self.seam_from else {
            return;
        };
        let seam = from..self.units.len();
        if let Some(r) = fresh {
            let t0 = Instant::now();
            self.refresh_units(seam.clone(), r);
            self.refresh_time += t0.elapsed();
        }
        let kernel = self.pairs;
        let pairs = kernel.pairs() && omega == 1.0;
        kernel.run(
            #[inline(always)]
            || {
                for k in 0..iterations {
                    let tail = Some(&mut last).filter(|_| k + 1 == iterations);
                    let friction = pgs::friction_sweep(k, iterations, friction_stride);
                    let pass = (false, friction);
                    if omega == 1.0 {
                        self.run_units(seam.clone(), dv, GaussSeidel, pairs, pass, tail);
                    } else {
                        let w = Sor(Vec4::splat(omega));
                        self.run_units(seam.clone(), dv, w, pairs, pass, tail);
                    }
                }
            },
        );
    }

    /// Whether no joint row moves a body the groups move (a pendulum, a ragdoll apart
    /// from the stacks): its sweeps may then run beside the groups' in any order.
    pub(crate) fn joints_apart(&self, joints: &[crate::joint::rows::JointRow]) -> bool {
        let free = |k: u32| !self.in_groups.get(k as usize).copied().unwrap_or(true);
        joints.iter().all(|j| free(j.a) && free(j.b))
    }

    /// Whether no joint row moves a movable body of the overflow set (always, without
    /// one): the joint rows may then run inside the wavefront and the overflow's sweeps
    /// after it, which share no body with them.
    fn clear_of_overflow(&self, joints: &[crate::joint::rows::JointRow]) -> bool {
        let on = |k: u32| self.in_overflow.get(k as usize).copied().unwrap_or(false);
        self.coloring.overflow.is_empty() || joints.iter().all(|j| !on(j.a) && !on(j.b))
    }

    /// Whether the serial sweeps may run in the wavefront order: tiles
    /// ([`plan_wavefront`]), and no overflow set or one apart from the groups (its
    /// scalar rows, which run after the colours in each sweep, then run after all the
    /// wavefront's sweeps).
    fn wavefront(&self) -> bool {
        !self.no_wavefront
            && (self.coloring.overflow.is_empty() || self.coloring.overflow_apart())
            && !self.reach.is_empty()
    }

    /// `iterations` forward sweeps over the units in the wavefront order: each sweep
    /// runs tile after tile as the plain order does, but sweep `s` starts on a tile as
    /// soon as sweep `s − 1` has run every tile that shares a movable body with it
    /// (`reach`), so a few tiles' rows are used by all the sweeps while they are in
    /// the core's cache instead of streaming every row from memory once a sweep. Every
    /// body meets the same updates in the same order as in the plain order — sweep by
    /// sweep, and within a sweep unit by unit — so the bits are the same.
    ///
    /// With `joints` (rows on bodies the groups move), each sweep's joint rows run
    /// before any of its tiles, as the plain sweep runs them before its units, and only
    /// once the sweep before has run the last tile with a unit on a joint's body
    /// (`joint_reach`): a joint low in the sweep order holds the wavefront back little,
    /// one among the last tiles makes it the plain order.
    ///
    /// With `fresh`, each tile's rows are refreshed right before its first sweep.
    #[allow(clippy::too_many_arguments)]
    fn wavefront_sweeps<R: Relax>(
        &mut self,
        dv: &mut [Velocity],
        (iterations, friction_stride): (u32, u32),
        omega: f32,
        w: R,
        mut joints: Option<&mut [crate::joint::rows::JointRow]>,
        mut last: LastSweep<'_>,
        fresh: Option<&Refresh<'_>>,
    ) {
        let (kernel, n) = (self.pairs, iterations as usize);
        let pairs = kernel.pairs() && omega == 1.0;
        let tiles = self.reach.len();
        let end = self.seam_from.unwrap_or(self.units.len());
        self.done.clear();
        self.done.resize(n, 0);
        let joint_reach = joints.as_deref().map_or(0, |j| self.joint_reach(j));
        // Sweeps whose joint rows have run (all of them without joint rows).
        let mut joints_done = if joints.is_some() { 0 } else { n };
        kernel.run(
            #[inline(always)]
            || {
                while (self.done[n - 1] as usize) < tiles {
                    for s in 0..n {
                        if joints_done == s {
                            let ready = s == 0 || self.done[s - 1] as usize > joint_reach;
                            match joints.as_deref_mut() {
                                Some(rows) if ready => {
                                    pgs::sweep_joints(rows, dv, false);
                                    joints_done += 1;
                                }
                                _ => break,
                            }
                        }
                        // Sweep 0 one tile at a time, so the later sweeps follow closely.
                        let mut budget = if s == 0 { 1 } else { tiles };
                        while budget > 0 && (self.done[s] as usize) < tiles {
                            let t = self.done[s] as usize;
                            let ready = s == 0
                                || self.done[s - 1] as usize == tiles
                                || (self.reach[t] as usize) < self.done[s - 1] as usize;
                            if !ready {
                                break;
                            }
                            let tail = Some(&mut last).filter(|_| s + 1 == n);
                            let units = t * TILE..((t + 1) * TILE).min(end);
                            if let Some(r) = fresh.filter(|_| s == 0) {
                                let t0 = Instant::now();
                                self.refresh_units(units.clone(), r);
                                self.refresh_time += t0.elapsed();
                            }
                            let friction =
                                pgs::friction_sweep(s as u32, iterations, friction_stride);
                            self.run_units(units, dv, w, pairs, (false, friction), tail);
                            self.done[s] += 1;
                            budget -= 1;
                        }
                    }
                }
            },
        );
    }

    /// The last tile with a unit on a body of one of `joints` (`last_unit`: each
    /// body's last unit in the sweep, [`plan_wavefront`](Self::plan_wavefront)).
    fn joint_reach(&self, joints: &[crate::joint::rows::JointRow]) -> usize {
        let last = |b: u32| {
            self.last_unit
                .get(b as usize)
                .filter(|&&u| u != u32::MAX)
                .map_or(0, |&u| u as usize / TILE)
        };
        joints
            .iter()
            .map(|j| last(j.a).max(last(j.b)))
            .max()
            .unwrap_or(0)
    }

    /// The wavefront's tiles: `reach` of each tile of [`TILE`] units in sweep order.
    fn plan_wavefront(&mut self) {
        self.reach.clear();
        self.apart.clear();
        let groups = &self.groups;
        self.unit_t_blocks.clear();
        self.unit_t_blocks.extend(self.units.iter().map(|unit| {
            unit.iter()
                .any(|&g| groups.get(g as usize).is_some_and(|gr| gr.t_blocks))
        }));
        let bodies = self
            .groups
            .iter()
            .flat_map(|g| g.movable_bodies())
            .max()
            .map_or(0, |b| b as usize + 1);
        // In sweep order, each body's last unit so far: a unit is apart from the one
        // before it when none of its bodies was last touched there.
        self.last_unit.clear();
        self.last_unit.resize(bodies, u32::MAX);
        for (u, unit) in self.units.iter().enumerate() {
            let u = u as u32;
            let mut apart = true;
            for &g in unit.iter().filter(|&&g| g != u32::MAX) {
                for b in self.groups[g as usize].movable_bodies() {
                    let last = &mut self.last_unit[b as usize];
                    apart &= u == 0 || *last != u - 1;
                    *last = u;
                }
            }
            if u > 0 {
                self.apart.push(apart);
            }
        }
        // Each body's last unit, and the tiles' reach, among the units the wavefront
        // runs: in the block order the regions', the seam's sweeps coming after it.
        let end = self.seam_from.unwrap_or(self.units.len());
        let (units, groups) = (&self.units, &self.groups);
        let bodies_of = |u: usize| {
            units[u]
                .into_iter()
                .filter_map(|g| groups.get(g as usize))
                .flat_map(Group::movable_bodies)
        };
        tile_reach(end, bodies_of, &mut self.last_unit, &mut self.reach);
    }

    /// Whether [`solve`](Self::solve) can take work of the passes after the sweeps into
    /// its last velocity sweep ([`LastSweep`]): a forward sweep, serial or on the
    /// pool's threads.
    pub fn fuses(&self, symmetric: bool, iterations: u32) -> bool {
        !symmetric && iterations > 0
    }

    /// Between two solve substeps of `h`, or at the start of a step that keeps its rows
    /// (see [`refresh_group`] and [`Refresh`]): `moved` holds each body's velocities of
    /// the substeps solved since the separations last advanced, summed (`None`: no
    /// motion, the separations as they are). With `still` (by solver body), the
    /// separations stay where they are, `moved` goes on summing, and only the units
    /// with a body not marked still take new rows, from the separations as `moved`
    /// leaves them. The lanes' λ and the split pass are
    /// [`refresh_lambdas`](Self::refresh_lambdas)' to set.
    pub fn refresh(&mut self, r: &Refresh<'_>) {
        let (kernel, pool) = (self.pairs, self.pool);
        if self.shared {
            // One thread (pairs share slots only then): two groups that share their
            // slots and length at a time in eight lanes. Each group's refresh writes
            // only its own rows and side data, so the order does not matter.
            kernel.run(
                #[inline(always)]
                || self.refresh_units(0..self.units.len(), r),
            );
        } else {
            let (groups, rows) = self.groups_and_rows();
            wide_build::each_group(pool, groups, rows, &|g, rows| {
                if !stood(g, r.still) {
                    kernel.run(
                        #[inline(always)]
                        || refresh_group(g, rows.slots, rows.side, r),
                    );
                }
            });
        }
    }

    /// The refresh of the units `units`, one after the other on this thread (two groups
    /// that share their slots and length at a time in eight lanes); with `still`, only
    /// those with a body that did not stand.
    #[inline(always)]
    fn refresh_units(&mut self, units: std::ops::Range<usize>, r: &Refresh<'_>) {
        for u in units {
            let [g0, g1] = self.units[u].map(|g| g as usize);
            let groups = || [g0, g1].into_iter().filter_map(|g| self.groups.get(g));
            if !r.advance() && groups().all(|g| stood(g, r.still)) {
                continue;
            }
            if self.refresh_pair([g0, g1], r) {
                continue;
            }
            for g in [g0, g1].into_iter().filter_map(|g| self.groups.get(g)) {
                let side = &mut self.side[g.range()];
                let slots = &mut self.slots[g.slots()];
                refresh_group(g, slots, side, r);
            }
        }
    }

    /// The time [`solve`](Self::solve) spent refreshing rows since the last call.
    pub fn take_refresh_time(&mut self) -> Duration {
        std::mem::take(&mut self.refresh_time)
    }

    /// What a refresh between solve substeps does besides the rows
    /// ([`refresh`](Self::refresh)): with `lambda_from` the lanes take the store's λ;
    /// the split pass starts from zero.
    pub fn refresh_lambdas(&mut self, lambda_from: Option<&ContactStore>) {
        if let Some(store) = lambda_from {
            for g in &self.groups {
                let slots = &mut self.slots[g.slots()];
                for (slot, lanes) in slots.iter_mut().zip(&self.lanes[g.range()]) {
                    slot.take_lambda(g.half(), lanes, store);
                }
            }
        }
        if std::mem::take(&mut self.split_written) {
            self.split_lambda.fill(Vec4::ZERO);
        }
    }

    /// Whether the store's manifolds have the points the rows were laid out for (as
    /// many, manifold by manifold, from the same first point): without a look where the
    /// store has not gathered since it had them (the same `keys_at`).
    pub fn laid_out_for(&self, store: &ContactStore) -> bool {
        store.keys_still(self.points_at) || store.manifold_points == self.last_points
    }

    /// Whether the lanes hold the store's points, laying them in anew where some
    /// manifolds' point counts changed and each still fits its group (`relane`), on a
    /// step that keeps the rows of the same manifolds (`reuse.rs`): the rows of a
    /// manifold whose count changed are then built again (its lever arms are new).
    pub fn lay_points(&mut self, store: &ContactStore) -> bool {
        self.laid_out_for(store) || self.relane(store)
    }

    /// Which units (`stale`, by unit) must be built again on a step that keeps the
    /// others' rows (`reuse.rs`): those with a group of `T` blocks (a body of another
    /// inertia turns them as it turns) or a manifold that `moved` (by store manifold).
    pub fn stale_units(&self, stale: &mut Vec<bool>, moved: &[bool]) {
        debug_assert_eq!(self.unit_t_blocks.len(), self.units.len());
        let moved = |m: u32| moved.get(m as usize).copied().unwrap_or(false);
        stale.clear();
        stale.extend(
            self.units
                .iter()
                .zip(&self.unit_t_blocks)
                .map(|(unit, &t)| {
                    t || unit.iter().any(|&g| {
                        self.lane_manifolds
                            .get(g as usize)
                            .is_some_and(|lanes| lanes.iter().any(|&m| moved(m)))
                    })
                }),
        );
    }

    /// The last layout's colouring stood by the store's keys, unlooked at
    /// (`Coloring::build_keyed`).
    #[cfg(test)]
    pub fn same_keys(&self) -> bool {
        self.coloring.same_keys
    }

    /// The store manifolds in the lanes of unit `u`.
    pub fn unit_manifolds(&self, u: usize) -> impl Iterator<Item = u32> + '_ {
        self.units[u]
            .iter()
            .filter_map(|&g| self.lane_manifolds.get(g as usize))
            .flatten()
            .copied()
            .filter(|&m| m != u32::MAX)
    }

    /// Build the rows of the `stale` units again (by unit, as
    /// [`stale_units`](Self::stale_units) marks them) from the store's inputs and the
    /// bodies, on a step that keeps the others' (`reuse.rs`). `dv` holds `T·λ` of the
    /// rows as they are (and how far the bodies' `Vnc` moved): with `take_out`, each
    /// unit's old impulses are taken out of it right before its build (else the caller
    /// took them out first: [`take_out_units`](Self::take_out_units)), then its points'
    /// warm impulses from the store go in with the new rows, as the build puts them in.
    /// With `take_out`, where the build's rows are made on the crew's threads, so are
    /// these, in the same dependency order and to the same bits; returns whether they
    /// were.
    pub fn rebuild_units(
        &mut self,
        stale: &[bool],
        store: &ContactStore,
        bodies: &SolverBodies,
        params: &BuildParams,
        dv: &mut [Velocity],
        take_out: bool,
    ) -> bool {
        if take_out && self.build_on_crew() {
            // On both of the crew's threads in the dependency order, as the build's
            // rows are made (`pack`): every body meets its units' take-outs and warm
            // impulses in the serial order, so the same bits.
            self.build_rows_on_crew(Some(stale), store, bodies, params, dv);
            return true;
        }
        self.pairs.run(
            #[inline(always)]
            || {
                let inputs = wide_build::Inputs::of(store);
                for u in (0..self.units.len()).filter(|&u| is_stale(stale, u)) {
                    if take_out {
                        self.take_out_unit(u, dv);
                    }
                    self.build_unit(u, inputs, bodies, params, dv);
                }
            },
        );
        false
    }

    /// Every stale unit's rows' impulses out of `dV`, before any is built again
    /// ([`rebuild_units`](Self::rebuild_units) without `take_out`).
    pub fn take_out_units(&self, stale: &[bool], dv: &mut [Velocity]) {
        for u in (0..self.units.len()).filter(|&u| is_stale(stale, u)) {
            self.take_out_unit(u, dv);
        }
    }

    /// Unit `u`'s rows' impulses out of `dV` (`T·λ` of the rows as they are).
    #[inline(always)]
    fn take_out_unit(&self, u: usize, dv: &mut [Velocity]) {
        for g in self.units[u]
            .iter()
            .filter_map(|&g| self.groups.get(g as usize))
        {
            warm_group::<_, true>(g, &self.slots[g.slots()], &self.t[g.t_range()], dv);
        }
    }

    /// A new step on the rows as built (`reuse.rs`): each point's separation from the
    /// store's inputs into its lane, the step's impulse sums and split λ at zero. The
    /// caller then remakes the normal rows' `b̃` with [`refresh`](Self::refresh) over no
    /// motion. The lanes keep their λ: the last solve's, the warm start. With `halves`,
    /// on the step's two threads.
    pub fn resync(&mut self, store: &ContactStore, halves: bool) {
        // Each wide point's entries are its own: with `halves`, two threads take half
        // the wide points each (`parallel::both`).
        type Part<'a> = (
            &'a mut [WideSide],
            &'a [[u32; 4]],
            &'a mut [Vec4],
            &'a mut [[Vec4; 3]],
        );
        let run = |(side, lanes, split, impulse): Part<'_>| {
            for (side, lanes) in side.iter_mut().zip(lanes) {
                for (l, &i) in lanes.iter().enumerate() {
                    if let Some(p) = store.inputs.get(i as usize) {
                        side.sep[l] = p.separation;
                    }
                }
            }
            split.fill(Vec4::ZERO);
            impulse.fill([Vec4::ZERO; 3]);
        };
        let n = self.side.len();
        let (side, lanes) = (&mut self.side[..], &self.lanes[..n]);
        let (split, impulse) = (&mut self.split_lambda[..n], &mut self.impulse[..n]);
        if halves {
            let mid = n / 2;
            let (s0, s1) = side.split_at_mut(mid);
            let (l0, l1) = lanes.split_at(mid);
            let (p0, p1) = split.split_at_mut(mid);
            let (i0, i1) = impulse.split_at_mut(mid);
            parallel::both((s0, l0, p0, i0), (s1, l1, p1, i1), run);
        } else {
            run((side, lanes, split, impulse));
        }
        self.split_written = false;
    }

    /// Copy the lanes' λ back into the contact store (overflow points keep their own).
    pub fn unpack(&self, store: &mut ContactStore) {
        each_point(self.pool, &mut store.points, &self.at, |(c, &at)| {
            if at != u32::MAX {
                let (w, l) = ((at / 4) as usize, (at % 4) as usize);
                let (slot, h) = self.slot_of(w);
                for (r, lambda) in c.rows.iter_mut().zip(slot.lambdas(h)) {
                    r.lambda = lambda[l];
                }
            }
        });
    }

    /// The slot and half of wide point `w`.
    /// The scaled couplings `c(n, 1)/Dₙ`, `c(n, 2)/Dₙ` the lanes hold for store point `i`.
    #[cfg(test)]
    pub(crate) fn couplings_of(&self, i: usize) -> [f32; 2] {
        let at = self.at[i];
        let (w, l) = ((at / 4) as usize, (at % 4) as usize);
        let (slot, h) = self.slot_of(w);
        slot.couple.map(|c| c[h & 1][l])
    }

    fn slot_of(&self, w: usize) -> (&WideSlot, usize) {
        let loc = self.loc[w] as usize;
        (&self.slots[loc / 2], loc % 2)
    }

    /// `dV += T·λ` for the lanes' (warm) impulses, group by group in sweep order, so each
    /// body takes its manifolds' impulses in store order — `pgs::warm_start`'s sums, bit
    /// for bit, in the sequential order. The overflow set is the caller's (its points
    /// are the store's).
    pub fn warm_start(&self, dv: &mut [Velocity]) {
        for g in &self.groups {
            warm_group::<_, false>(g, &self.slots[g.slots()], &self.t[g.t_range()], dv);
        }
    }

    /// The store points of the overflow manifolds (solved one by one from the store's
    /// rows), in sweep order.
    pub fn overflow_points<'a>(
        &'a self,
        store: &'a ContactStore,
    ) -> impl Iterator<Item = std::ops::Range<usize>> + 'a {
        self.coloring.overflow.iter().map(|&m| {
            let (s, n) = store.manifold_points[m as usize];
            s as usize..(s + n) as usize
        })
    }

    /// The store's scalar rows as the lanes hold them now (blocks, `b̃`, λ), for a step
    /// that built none (`World::export_lcp`).
    pub fn rows_into(&self, store: &mut ContactStore) {
        // (The points the lanes do not hold — the overflow set's — keep the store's rows.)
        let n = store.inputs.len();
        store.points.resize(n, ContactRows::default());
        let lanes = store.inputs.iter().zip(&self.at).map(|(input, &at)| {
            (at != u32::MAX).then(|| {
                let input = &store.manifold_inputs[input.manifold as usize];
                let (w, l) = ((at / 4) as usize, (at % 4) as usize);
                let g = self.groups[self.group_of(w)];
                let (slot, h) = self.slot_of(w);
                ContactRows {
                    a: input.a,
                    b: input.b,
                    inv_mass_a: g.inv_mass_a[l],
                    inv_mass_b: g.inv_mass_b[l],
                    friction: input.friction,
                    b_vel: self.side[w].b_vel[l],
                    rows: std::array::from_fn(|k| {
                        let r = &slot.rows[k].get(h);
                        let t = if g.t_blocks {
                            let [ta, tb] =
                                self.t[g.t_first as usize + w - g.first as usize].rows[k];
                            (ta, tb)
                        } else {
                            g.isotropic().t(0, k, r)
                        };
                        r.lane(l, &g.dir[k], t)
                    }),
                    ahead: [0.0; 2],
                }
                .with_couplings()
            })
        });
        let lanes: Vec<Option<ContactRows>> = lanes.collect();
        for (c, lane) in store.points.iter_mut().zip(lanes) {
            if let Some(rows) = lane {
                *c = rows;
            }
        }
    }

    /// The group holding wide point `w`.
    fn group_of(&self, w: usize) -> usize {
        self.groups.partition_point(|g| g.range().end <= w)
    }

    /// Write the lanes' λ into the narrowphase's per-point user data, as
    /// `ContactStore::write_back` does from the store's rows (for the steps that built
    /// none and did not do it in their last sweep, [`WriteBack`]).
    pub fn write_back(&self, store: &ContactStore, manifolds: &mut [thud_collide::PairManifold]) {
        let sources = store.manifold_points.iter().zip(&store.manifold_source);
        for (&(first, n), &mi) in sources {
            let at = &self.at[first as usize..(first + n) as usize];
            let users = manifolds[mi as usize].manifold.points.users_mut();
            for (&at, user) in at.iter().zip(users.iter_mut()) {
                if at == u32::MAX {
                    continue;
                }
                let (w, l) = ((at / 4) as usize, (at % 4) as usize);
                let (slot, h) = self.slot_of(w);
                *user = slot.lambdas(h).map(|v| v[l]);
            }
        }
    }

    /// Store point `p`'s impulses summed over the step's solve substeps, on a step
    /// whose sums stayed in the lanes (`accumulate` or the last sweeps'; zero for a
    /// point outside them).
    pub fn summed_impulse(&self, p: usize) -> [f32; 3] {
        match self.at.get(p) {
            Some(&at) if at != u32::MAX => {
                let (w, l) = ((at / 4) as usize, (at % 4) as usize);
                self.impulse.get(w).map_or([0.0; 3], |s| s.map(|v| v[l]))
            }
            _ => [0.0; 3],
        }
    }

    /// Add the lanes' λ to the step's impulses (a solve substep that left the store's λ
    /// alone, so nothing needs unpacking).
    pub fn accumulate(&mut self) {
        let slots = &self.slots;
        each_point(self.pool, &mut self.impulse, &self.loc, |(sum, &loc)| {
            let lambda = slots[loc as usize / 2].lambdas(loc as usize % 2);
            for (s, l) in sum.iter_mut().zip(lambda) {
                *s += l;
            }
        });
    }

    /// Add the lanes' summed impulses into the store's (`ContactStore::impulse`) and
    /// zero them.
    pub fn drain_impulse(&mut self, store: &mut ContactStore) {
        let sums = &self.impulse;
        each_point(self.pool, &mut store.impulse, &self.at, |(sum, &at)| {
            if at != u32::MAX {
                let (w, l) = ((at / 4) as usize, (at % 4) as usize);
                for (s, wide) in sum.iter_mut().zip(&sums[w]) {
                    *s += wide[l];
                }
            }
        });
        self.impulse.fill([Vec4::ZERO; 3]);
    }

    /// The split-impulse position pass: `iterations` sweeps of the joints' position rows
    /// and the contacts' (`split_sweep`).
    pub fn split_solve(
        &mut self,
        store: &mut ContactStore,
        joints: &mut crate::joint::rows::JointRows,
        pseudo: &mut [Velocity],
        iterations: u32,
        fused: bool,
    ) {
        self.split_written = true;
        let mut iterations = iterations;
        if fused {
            // The groups' part of the first sweep ran inside the last velocity sweep (a
            // world without joint rows, or with joint rows apart from the groups: theirs
            // now, as before the groups', on other bodies).
            pgs::split_sweep_joints(&joints.rows, &mut joints.split_lambda, pseudo);
            self.split_overflow(store, pseudo);
            pseudo[0] = Velocity::ZERO;
            iterations = iterations.saturating_sub(1);
        }
        if iterations == 0 {
            return;
        }
        if self.parallel(joints.rows.len()) && !self.schedule.cooling() {
            let sweep = Units {
                units: &self.units,
                groups: &self.groups,
                kernel: self.pairs,
                shared: self.shared,
                apart: &self.apart,
            };
            self.schedule.split_sweeps(
                &sweep,
                &self.slots,
                &self.t,
                &self.side,
                &mut self.split_lambda,
                pseudo,
                iterations,
            );
            pseudo[0] = Velocity::ZERO;
            // (The overflow set apart, as in `solve`.)
            if !self.coloring.overflow.is_empty() {
                for _ in 0..iterations {
                    self.split_overflow(store, pseudo);
                    pseudo[0] = Velocity::ZERO;
                }
            }
            return;
        }
        for _ in 0..iterations {
            pgs::split_sweep_joints(&joints.rows, &mut joints.split_lambda, pseudo);
            self.split_sweep(store, pseudo);
        }
    }

    /// One sweep of the split-impulse position pass: colours, then overflow.
    pub fn split_sweep(&mut self, store: &mut ContactStore, pseudo: &mut [Velocity]) {
        self.split_written = true;
        for g in &self.groups {
            let r = g.range();
            split_group(
                g,
                &self.slots[g.slots()],
                &self.t[g.t_range()],
                &self.side[r.clone()],
                &mut self.split_lambda[r],
                pseudo,
            );
        }
        self.split_overflow(store, pseudo);
        pseudo[0] = Velocity::ZERO;
    }

    /// The overflow manifolds' part of a split sweep (after the groups').
    /// Whether the overflow set shares no movable body with the groups (the
    /// sequential order's: `Coloring::overflow_apart`).
    pub fn overflow_apart(&self) -> bool {
        self.coloring.overflow_apart()
    }

    /// `k` more split-impulse sweeps over the overflow set alone (its islands swept
    /// once over the whole step: `World::apart`).
    pub fn split_overflow_sweeps(&self, store: &mut ContactStore, pseudo: &mut [Velocity], k: u32) {
        for _ in 0..k {
            self.split_overflow(store, pseudo);
            pseudo[0] = Velocity::ZERO;
        }
    }

    fn split_overflow(&self, store: &mut ContactStore, pseudo: &mut [Velocity]) {
        for &m in &self.coloring.overflow {
            let (s, n) = store.manifold_points[m as usize];
            let r = s as usize..(s + n) as usize;
            pgs::split_sweep(
                &store.points[r.clone()],
                &store.split_b[r.clone()],
                &mut store.split_lambda[r],
                pseudo,
            );
        }
    }
}

const _: () = assert!(std::mem::size_of::<WideRow>() == 144);
const _: () = assert!(std::mem::size_of::<WidePoint>() == 432);
const _: () = assert!(std::mem::size_of::<WideSlot>() == 928);
const _: () = assert!(std::mem::size_of::<WideT>() == 288);
const _: () = assert!(std::mem::size_of::<Group>() == 320);

/// `v` made `n` zeros long, the part it had zeroed by the step's crew in two halves
/// (`parallel::both`: one after the other without a helper).
fn zeroed<T: Copy + Send + Sync>(v: &mut Vec<T>, n: usize, zero: T) {
    v.truncate(n);
    let old = v.len();
    let (a, b) = v.split_at_mut(old / 2);
    parallel::both(a, b, |half| half.fill(zero));
    v.resize(n, zero);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jacobian::{BuildParams, ContactInput};
    use glam::Vec3;

    /// A refresh between solve substeps on its own (`World` leaves the rows' part to
    /// the solve that follows).
    fn refresh_all(
        w: &mut WideContacts,
        moved: Option<&[Velocity]>,
        h: f32,
        params: &BuildParams,
        still: Option<&[bool]>,
    ) {
        let r = Refresh {
            moved,
            h,
            params,
            still,
        };
        w.refresh(&r);
        w.refresh_lambdas(None);
    }

    proptest::proptest! {
        /// A group's movable bodies, and whether two groups share one, as the plain
        /// definitions give them (small body numbers, so that they often do).
        #[test]
        fn movable_bodies_and_sharing_match_their_definitions(
            a in proptest::array::uniform8(0u32..12),
            b in proptest::array::uniform8(0u32..12),
            movable in proptest::array::uniform2(0u8..=255),
        ) {
            let group = |ids: [u32; 8], movable: u8| Group {
                a: [ids[0], ids[1], ids[2], ids[3]],
                b: [ids[4], ids[5], ids[6], ids[7]],
                movable,
                ..Group::default()
            };
            let (g, h) = (group(a, movable[0]), group(b, movable[1]));
            let plain = |ids: [u32; 8], m: u8| -> Vec<u32> {
                (0..8).filter(|&k| m & (1 << k) != 0).map(|k| ids[k]).collect()
            };
            proptest::prop_assert_eq!(g.movable_bodies().collect::<Vec<_>>(), plain(a, movable[0]));
            let shared = plain(b, movable[1]).iter().any(|x| plain(a, movable[0]).contains(x));
            proptest::prop_assert_eq!(g.shares_movable(&h), shared);
        }
    }

    /// Stacks with manifolds of three and four points (nine a level: pairs of groups of
    /// different lengths, and a group left over that pairs across levels), with tilted
    /// normals, uneven points, open and penetrating points, warm impulses and moving,
    /// spinning bodies, so that no row has zero blocks to hide a difference in the order
    /// of operations.
    fn uneven_stacks() -> (SolverBodies, ContactStore) {
        let (mut bodies, mut store) = crate::parallel::tests::stacks(9, 12);
        for (i, m) in store.manifold_inputs.iter_mut().enumerate() {
            let t = i as f32;
            m.normal = Vec3::new(0.05 * (0.7 * t).sin(), 1.0, 0.04 * (1.3 * t).cos()).normalize();
        }
        for (i, p) in store.inputs.iter_mut().enumerate() {
            let t = i as f32;
            p.point += Vec3::new(
                0.01 * (0.9 * t).cos(),
                0.003 * (0.4 * t).sin(),
                0.02 * (0.3 * t).sin(),
            );
            p.separation = 0.004 * (1.1 * t).sin();
            p.warm = [0.5 + 0.1 * (0.2 * t).cos(), 0.03 * t.sin(), -0.02 * t.cos()];
        }
        // Masses other than one, so that no product with `1/m` is exact by accident
        // (isotropic inertias, so that the groups pair).
        for i in 1..bodies.len() {
            let m = 0.6 + 0.37 * (i % 7) as f32;
            bodies.inv_mass[i] = 1.0 / m;
            bodies.inv_inertia[i] = Mat3::from_diagonal(Vec3::splat(6.0 / (1.1 * m)));
        }
        for (i, v) in bodies.vnc.iter_mut().enumerate().skip(1) {
            let t = i as f32;
            v.lin = Vec3::new(0.1 * (0.3 * t).cos(), -0.2, 0.05 * t.sin());
            v.ang = Vec3::new(
                0.3 * (0.5 * t).sin(),
                0.2 * (0.8 * t).cos(),
                -0.1 * (1.7 * t).sin(),
            );
        }
        (bodies, store)
    }

    #[test]
    fn pairs_give_the_single_kernels_bits() {
        // `uneven_stacks`: velocity sweeps forward and backward, the last one carrying
        // the split pass and the sums, then split sweeps, with two groups per eight-lane
        // kernel and with one group at a time; its levels list-scheduled (a first
        // colouring) and at their earliest (one made right after another), where a
        // group left over at the end of a level pairs with one of the next.
        let run = |kernel: PairKernel, earliest: bool| {
            let (mut bodies, mut store) = uneven_stacks();
            let mut wide = WideContacts {
                pair_kernel: Some(kernel),
                coloring: if earliest {
                    Coloring::at_earliest_levels()
                } else {
                    Coloring::default()
                },
                ..WideContacts::default()
            };
            let params = BuildParams::for_tests(1.0 / 60.0);
            wide.pack(&store, &bodies, SweepOrder::Sequential, 3, &params, None);
            let level = |g: u32| wide.color_groups.partition_point(|&(_, end)| end <= g);
            let across = wide
                .units
                .iter()
                .filter(|u| u[1] != u32::MAX && level(u[0]) != level(u[1]));
            let ragged = wide
                .units
                .iter()
                .filter(|u| u[1] != u32::MAX)
                .filter(|u| wide.groups[u[0] as usize].count != wide.groups[u[1] as usize].count)
                .count();
            let units = (wide.units.clone(), across.count(), ragged);
            wide.warm_start(&mut bodies.dv);
            wide.solve(
                None,
                &mut store,
                &mut [],
                &mut bodies.dv,
                (4, 2),
                1.0,
                true,
                LastSweep::default(),
            );
            solve_fused(&mut wide, &mut store, &mut bodies, (3, 2));
            let mut joints = crate::joint::rows::JointRows::default();
            wide.split_solve(&mut store, &mut joints, &mut bodies.pseudo, 2, true);
            let bits = state_bits(&wide, &bodies);
            (bits, units)
        };
        let kernels = PairKernel::available();
        if kernels.is_empty() {
            eprintln!("no AVX on this CPU: the pair kernel is not used");
        }
        for earliest in [false, true] {
            let (single, (units, _, _)) = run(PairKernel::none(), earliest);
            assert!(units.iter().all(|u| u[1] == u32::MAX));
            assert!(single.iter().any(|&b| f32::from_bits(b) > 0.1));
            for &kernel in &kernels {
                let (paired, (units, across, ragged)) = run(kernel, earliest);
                let pairs = units.iter().filter(|u| u[1] != u32::MAX).count();
                assert!(
                    pairs * 4 > units.len(),
                    "{pairs} pairs in {} units",
                    units.len()
                );
                // (A list-scheduled level takes manifolds of like point counts.)
                assert!(across > 0 || !earliest, "no pair across two levels");
                assert!(
                    ragged > 0 || !earliest,
                    "no pair of groups of different lengths"
                );
                assert_eq!(paired, single, "{kernel:?}, earliest levels {earliest}");
            }
        }
    }

    /// `uneven_stacks` with every third body in its own angular frame
    /// (`solver_body.rs`): a plank's inverse inertia, turned, `c = 1` in the frame.
    fn framed_stacks() -> (SolverBodies, ContactStore) {
        let (mut bodies, store) = uneven_stacks();
        for i in (1..bodies.len()).step_by(3) {
            let t = i as f32;
            let rot = Mat3::from_quat(glam::Quat::from_euler(
                glam::EulerRot::XYZ,
                0.3 * t,
                0.7 * (0.5 * t).sin(),
                0.2,
            ));
            let d = Mat3::from_diagonal(Vec3::new(2.0, 5.0 + 0.1 * t, 9.0));
            let inv_i = rot * d * rot.transpose();
            let frame = crate::solver_body::Frame::of(&inv_i).expect("positive definite");
            bodies.inv_inertia[i] = inv_i;
            bodies.iso[i] = Some(1.0);
            bodies.frame_of[i] = bodies.frames.len() as u32;
            bodies.frames.push(frame);
        }
        (bodies, store)
    }

    #[test]
    fn the_eight_lane_build_and_refresh_give_the_four_lane_bits() {
        // `uneven_stacks` (pairs of groups of the same length, built and refreshed
        // eight lanes at a time, and ragged ones, group by group): every row, the side
        // data, the groups' directions and shares and the warm start's `dV` after the
        // build, then every row and side entry after a substep refresh with split
        // impulse and another with Baumgarte, with and without the eight-lane kernels.
        // Then the same with bodies in their own angular frames (`framed_stacks`: their
        // groups built four lanes at a time, refreshed eight).
        let run = |kernel: PairKernel, framed: bool, gap: f32| {
            let (bodies, mut store) = if framed {
                framed_stacks()
            } else {
                uneven_stacks()
            };
            if gap > 0.0 {
                // Every third point slipping (its friction impulse past `μ·λₙ`), and
                // every fifth manifold tilted past the slop: no touching gap for them
                // (`jacobian::touching`, `flat_gap`).
                for p in store.inputs.iter_mut().step_by(3) {
                    p.warm[1] = 2.0 * p.warm[0];
                }
                for m in store.manifold_inputs.iter_mut().step_by(5) {
                    m.spread = 1e-3;
                }
            }
            let mut wide = WideContacts {
                pair_kernel: Some(kernel),
                ..WideContacts::default()
            };
            let params = BuildParams {
                gap,
                ..BuildParams::for_tests(1.0 / 60.0)
            };
            let mut dv = bodies.dv.clone();
            let order = SweepOrder::Sequential;
            let warmed = wide.pack(&store, &bodies, order, 3, &params, Some(&mut dv));
            assert!(warmed);
            let mut bits = crate::solver_body::velocity_bits(dv.iter());
            let put = |bits: &mut Vec<u32>, v: Vec4| bits.extend(v.to_array().map(f32::to_bits));
            let rows = |wide: &WideContacts, bits: &mut Vec<u32>| {
                for w in 0..wide.lanes.len() {
                    let (slot, h) = wide.slot_of(w);
                    for r in slot.point(h).rows {
                        for v in [r.ang_a, r.ang_b] {
                            [v.x, v.y, v.z].into_iter().for_each(|x| put(bits, x));
                        }
                        [r.b, r.lambda, r.inv_d]
                            .into_iter()
                            .for_each(|x| put(bits, x));
                    }
                    // The normal row's couplings, made from registers in eight lanes.
                    slot.couple.iter().for_each(|c| put(bits, c[h & 1]));
                    let side = &wide.side[w];
                    [side.split_b, side.sep, side.b_vel]
                        .into_iter()
                        .for_each(|x| put(bits, x));
                }
            };
            rows(&wide, &mut bits);
            for g in &wide.groups {
                for d in g.dir {
                    [d.x, d.y, d.z].into_iter().for_each(|x| put(&mut bits, x));
                }
                [g.share_a, g.share_b]
                    .into_iter()
                    .for_each(|x| put(&mut bits, x));
            }
            // The velocities the poses moved with, over a quarter step.
            let moved: Vec<Velocity> = dv
                .iter()
                .zip(&bodies.vnc)
                .map(|(d, v)| Velocity {
                    lin: d.lin + v.lin,
                    ang: d.ang + v.ang,
                })
                .collect();
            for split in [true, false] {
                let params = BuildParams { split, ..params };
                refresh_all(&mut wide, Some(&moved), 1.0 / 240.0, &params, None);
                rows(&wide, &mut bits);
            }
            let same_length = wide
                .units
                .iter()
                .filter(|u| u[1] != u32::MAX)
                .filter(|u| wide.groups[u[0] as usize].count == wide.groups[u[1] as usize].count)
                .count();
            let in_frames = wide.groups.iter().filter(|g| g.in_frames).count();
            (bits, same_length, in_frames)
        };
        // (And with a touching gap inside the points' gaps, `Settings::touching_gap`.)
        for (framed, gap) in [(false, 0.0), (true, 0.0), (false, 2e-3), (true, 2e-3)] {
            let (single, _, in_frames) = run(PairKernel::none(), framed, gap);
            assert_eq!(in_frames > 0, framed);
            for kernel in PairKernel::available() {
                let (paired, same_length, _) = run(kernel, framed, gap);
                assert!(same_length >= 4, "{same_length} pairs of the same length");
                assert_eq!(paired, single, "{kernel:?}, framed {framed}, gap {gap}");
            }
        }
    }

    /// Gauss-Seidel `sweeps` (count, friction stride), the last one carrying the split
    /// pass's first sweep and the impulse sums (`LastSweep`).
    fn solve_fused(
        wide: &mut WideContacts,
        store: &mut ContactStore,
        bodies: &mut SolverBodies,
        sweeps: (u32, u32),
    ) {
        let last = LastSweep {
            split: Some(&mut bodies.pseudo[..]),
            sum: true,
            write: None,
        };
        wide.solve(
            None,
            store,
            &mut [],
            &mut bodies.dv,
            sweeps,
            1.0,
            false,
            last,
        );
    }

    /// Every bit a solve leaves: the bodies' `dV` and pseudo-velocities, each wide
    /// point's λ, the summed impulses and the split pass's λ.
    fn state_bits(wide: &WideContacts, bodies: &SolverBodies) -> Vec<u32> {
        let mut bits = crate::solver_body::velocity_bits(bodies.dv.iter().chain(&bodies.pseudo));
        for w in 0..wide.lanes.len() {
            let (slot, h) = wide.slot_of(w);
            bits.extend(
                slot.lambdas(h)
                    .iter()
                    .flat_map(|l| l.to_array().map(f32::to_bits)),
            );
        }
        for v in wide.impulse.iter().flatten().chain(&wide.split_lambda) {
            bits.extend(v.to_array().map(f32::to_bits));
        }
        bits
    }

    /// A joint row between solver bodies `a` and `b` (the `k`-th: its direction's
    /// lever, λ and `b` vary with it).
    fn joint_row(bodies: &SolverBodies, a: u32, b: u32, k: u32) -> crate::joint::rows::JointRow {
        let d = Vec3::new(0.6, 0.8, 0.0);
        let r = Vec3::new(0.1 * k as f32, 0.5, -0.2);
        let mut row = crate::jacobian::row(bodies, a as usize, b as usize, d, r, -r);
        row.lambda = 0.3;
        row.b = 0.05 * k as f32;
        crate::joint::rows::JointRow {
            a,
            b,
            inv_mass_a: bodies.inv_mass[a as usize],
            inv_mass_b: bodies.inv_mass[b as usize],
            lo: f32::NEG_INFINITY,
            hi: f32::INFINITY,
            mass_scale: 1.0,
            impulse_scale: 0.0,
            row,
            split_b: 0.0,
            split_lo: f32::NEG_INFINITY,
            split_active: false,
            joint: k,
            slot: 0,
            angular: false,
            dir: d,
        }
    }

    #[test]
    fn the_wavefront_order_gives_the_plain_orders_bits() {
        // Stacks forty high: several tiles, each waiting for the next one's first sweep.
        // Gauss-Seidel sweeps with the last one carrying the split pass and the sums,
        // then over-relaxed ones, in the wavefront order and one sweep after the other.
        // Then with joint rows on bodies the groups move, low in the stacks (the
        // wavefront holds back little) or high (it becomes the plain order), run in
        // each sweep before its units as the plain order runs them.
        for (joints, low) in [
            (vec![], true),
            (vec![(1, 10), (2, 3)], true),
            (vec![(1, 10), (343, 352)], false),
        ] {
            wavefront_against_plain(&joints, low);
        }
    }

    fn wavefront_against_plain(pairs: &[(u32, u32)], low: bool) {
        let run = |plain: bool| {
            let (mut bodies, mut store) = crate::parallel::tests::stacks(9, 40);
            let mut wide = WideContacts {
                no_wavefront: plain,
                ..WideContacts::default()
            };
            let params = BuildParams::for_tests(1.0 / 60.0);
            wide.pack(&store, &bodies, SweepOrder::Sequential, 3, &params, None);
            let tiles = wide.reach.len();
            let early = wide
                .reach
                .iter()
                .filter(|&&r| (r as usize) + 1 < tiles)
                .count();
            wide.warm_start(&mut bodies.dv);
            let mut joints: Vec<_> = (pairs.iter().enumerate())
                .map(|(k, &(a, b))| joint_row(&bodies, a, b, k as u32))
                .collect();
            let reach = wide.joint_reach(&joints);
            let last = LastSweep {
                split: Some(&mut bodies.pseudo[..]),
                sum: true,
                write: None,
            };
            wide.solve(
                None,
                &mut store,
                &mut joints,
                &mut bodies.dv,
                (3, 2),
                1.0,
                false,
                last,
            );
            let default = LastSweep::default();
            wide.solve(
                None,
                &mut store,
                &mut joints,
                &mut bodies.dv,
                (4, 2),
                1.3,
                false,
                default,
            );
            let mut bits = state_bits(&wide, &bodies);
            bits.extend(joints.iter().map(|j| j.row.lambda.to_bits()));
            (bits, tiles, early, reach)
        };
        let (plain, _, _, _) = run(true);
        let (wave, tiles, early, reach) = run(false);
        assert!(tiles > 3, "{tiles} tiles");
        assert!(early > 0, "no tile lets the next sweep start early");
        assert!(plain.iter().any(|&b| f32::from_bits(b) > 0.1));
        assert_eq!(
            low,
            2 * reach < tiles,
            "joints' last tile {reach} of {tiles}"
        );
        assert_eq!(wave, plain, "joints {pairs:?}");
    }

    /// An overflow set of whole islands (one of nine stacks taken as the exact mode takes
    /// a tower) no longer turns the wavefront order off: the groups' sweeps run in it
    /// and the overflow's after them, with the bits of the plain order, which sweeps the
    /// overflow after the groups in every sweep.
    #[test]
    fn the_wavefront_with_an_island_apart_gives_the_plain_orders_bits() {
        // Then with joint rows between the overflow column's bodies (1, 10, 19, …),
        // apart from the groups: swept beside the wavefront, interleaved with the
        // overflow as in the plain order's sweeps; and with joint rows on bodies the
        // groups move, clear of the overflow's: swept inside the wavefront, the
        // overflow's sweeps after it.
        let run = |plain: bool, with_joints: Option<bool>| {
            let (mut bodies, mut store) = crate::parallel::tests::stacks(9, 40);
            let params = BuildParams::for_tests(1.0 / 60.0);
            // The first column's manifolds (bodies 1, 10, 19, …) in the overflow set.
            store.taken = vec![false; store.inputs.len()];
            for (m, &(first, n)) in store.manifold_points.iter().enumerate() {
                if (store.manifold_inputs[m].b - 1) % 9 == 0 {
                    store.taken[first as usize..(first + n) as usize].fill(true);
                }
            }
            store.build_rows(&bodies, &params, None, None);
            let mut wide = WideContacts {
                no_wavefront: plain,
                ..WideContacts::default()
            };
            wide.pack(&store, &bodies, SweepOrder::Sequential, 3, &params, None);
            let (overflow, wavefront) = (wide.coloring.overflow.len(), wide.wavefront());
            wide.warm_start(&mut bodies.dv);
            for r in wide.overflow_points(&store).collect::<Vec<_>>() {
                pgs::warm_start(&store.points[r], &mut bodies.dv);
            }
            solve_fused(&mut wide, &mut store, &mut bodies, (3, 2));
            // Joints in the overflow column (apart from the groups), or between the
            // second column's bodies (2, 11, 20: bodies the groups move, clear of the
            // overflow's).
            let first = if with_joints == Some(false) { 2 } else { 1 };
            let mut joints: Vec<_> = (0..3)
                .filter(|_| with_joints.is_some())
                .map(|k| joint_row(&bodies, first + 9 * k, first + 9 + 9 * k, k))
                .collect();
            let apart = wide.joints_apart(&joints) || wide.clear_of_overflow(&joints);
            wide.solve(
                None,
                &mut store,
                &mut joints,
                &mut bodies.dv,
                (4, 2),
                1.0,
                false,
                LastSweep::default(),
            );
            let mut bits = state_bits(&wide, &bodies);
            bits.extend(
                store
                    .points
                    .iter()
                    .flat_map(|p| p.rows.iter().map(|r| r.lambda.to_bits())),
            );
            bits.extend(joints.iter().map(|j| j.row.lambda.to_bits()));
            (bits, overflow, wavefront && apart)
        };
        for with_joints in [None, Some(true), Some(false)] {
            let (plain, _, _) = run(true, with_joints);
            let (wave, overflow, wavefront) = run(false, with_joints);
            assert_eq!(overflow, 40, "the first column's forty manifolds");
            assert!(wavefront, "the wavefront order with the overflow apart");
            assert_eq!(wave, plain, "joints {with_joints:?}");
        }
    }

    #[test]
    fn overflow_sweeps_two_at_a_time_give_one_at_a_times_bits() {
        // Three columns of twelve in the overflow set, level by level (a manifold's
        // reach is the next level's on its column): the sweeps two at a time against one
        // sweep after the other, for 1–7 sweeps; 3- and 4-point manifolds mixed, the
        // static dummy shared by the three ground manifolds.
        let run = |sweeps: u32, paired: bool| {
            let (mut bodies, mut store) = crate::parallel::tests::stacks(3, 12);
            let params = BuildParams::for_tests(1.0 / 60.0);
            store.taken = vec![true; store.inputs.len()];
            store.build_rows(&bodies, &params, None, None);
            let mut wide = WideContacts::default();
            wide.pack(&store, &bodies, SweepOrder::Sequential, 3, &params, None);
            assert_eq!(wide.coloring.overflow.len(), 36);
            for r in wide.overflow_points(&store).collect::<Vec<_>>() {
                pgs::warm_start(&store.points[r], &mut bodies.dv);
            }
            if paired {
                wide.overflow_sweeps_paired(&mut store, &mut bodies.dv, 1.0, sweeps);
                // Sweep 1 starts beside sweep 0's fifth manifold (the reach is the next
                // level's, three on), so 32 of its 36 run paired; sweep 2 starts when
                // sweep 0 ends, beside sweep 1's last four, then sweep 3 beside its
                // fifth: every two sweeps after the first, 36 pairs.
                let s = sweeps as usize - 1;
                assert_eq!(wide.overflow_paired, 36 * (s / 2) + 32 * (s % 2));
            } else {
                for _ in 0..sweeps {
                    wide.overflow_sweep(&mut store, &mut bodies.dv, 1.0);
                }
            }
            let mut bits: Vec<u32> = bodies
                .dv
                .iter()
                .flat_map(|v| v.lin.to_array().into_iter().chain(v.ang.to_array()))
                .map(f32::to_bits)
                .collect();
            bits.extend(
                store
                    .points
                    .iter()
                    .flat_map(|p| p.rows.iter().map(|r| r.lambda.to_bits())),
            );
            bits
        };
        for sweeps in 1..8 {
            assert_eq!(run(sweeps, true), run(sweeps, false), "{sweeps} sweeps");
        }
        assert_ne!(run(2, false), run(3, false), "the sweeps change the answer");
    }

    #[test]
    fn units_side_by_side_give_the_single_units_bits() {
        // Sixteen stacks: four groups a level, two pair units, which share no body.
        // Sweeps without friction rows (the middle of three) run such units side by
        // side (`PairKernel::solve_couple`); the same solves one unit at a time.
        let run = |no_couples: bool| {
            let (mut bodies, mut store) = crate::parallel::tests::stacks(16, 12);
            let mut wide = WideContacts {
                no_couples,
                ..WideContacts::default()
            };
            let params = BuildParams::for_tests(1.0 / 60.0);
            wide.pack(&store, &bodies, SweepOrder::Sequential, 3, &params, None);
            let couples = (0..wide.units.len().saturating_sub(1))
                .filter(|&u| wide.couple(u))
                .count();
            wide.warm_start(&mut bodies.dv);
            for _ in 0..3 {
                solve_fused(&mut wide, &mut store, &mut bodies, (3, 2));
            }
            (state_bits(&wide, &bodies), couples)
        };
        let (side_by_side, couples) = run(false);
        let (single, _) = run(true);
        if PairKernel::detect().pairs() {
            assert!(couples > 0, "no two units to run side by side");
        }
        assert!(single.iter().any(|&b| f32::from_bits(b) > 0.1));
        assert_eq!(side_by_side, single);
    }

    /// Two boxes side by side on the ground, each with four corner contacts, and a
    /// third box bridging them: three bodies, four manifolds (two colours).
    fn scene(dt: f32) -> (SolverBodies, ContactStore) {
        let mut bodies = SolverBodies::default();
        bodies.reset();
        let inv_i = Mat3::from_diagonal(Vec3::splat(6.0));
        let g = Velocity {
            lin: Vec3::new(0.0, -9.81 * dt, 0.0),
            ang: Vec3::ZERO,
        };
        for c in [
            Vec3::new(-0.6, 0.5, 0.0),
            Vec3::new(0.6, 0.5, 0.0),
            Vec3::new(0.0, 1.5, 0.0),
        ] {
            bodies.push(0, Velocity::ZERO, g, 1.0, inv_i, c);
        }
        let s = BuildParams::for_tests(dt);
        let mut store = ContactStore::default();
        let mut manifold = |a: u32, b: u32, y: f32, xs: [f32; 2], n: u32| {
            for k in 0..n {
                let (x, z) = [(xs[0], -0.5), (xs[1], -0.5), (xs[1], 0.5), (xs[0], 0.5)][k as usize];
                let p = ContactInput {
                    a,
                    b,
                    normal: Vec3::Y,
                    point: Vec3::new(x, y, z),
                    separation: -0.001,
                    friction: 0.6,
                    restitution: 0.0,
                    spread: 0.0,
                    warm: [0.0; 3],
                };
                store.push_point(p, &bodies, &s, k > 0);
            }
        };
        manifold(0, 1, 0.0, [-1.1, -0.1], 4);
        manifold(0, 2, 0.0, [0.1, 1.1], 4);
        manifold(1, 3, 1.0, [-0.5, -0.1], 3);
        manifold(2, 3, 1.0, [0.1, 0.5], 4);
        (bodies, store)
    }

    #[test]
    fn passes_riding_along_the_build_and_the_last_sweep_give_the_separate_passes_bits() {
        // The warm start inside the build, the split pass's first sweep and the impulse
        // sums inside the last velocity sweep (`LastSweep`) against the same passes run
        // on their own, from warm impulses and with penetrations to correct.
        let dt = 1.0 / 60.0;
        let s = BuildParams::for_tests(dt);
        let (bodies, mut store) = scene(dt);
        for (k, p) in store.inputs.iter_mut().enumerate() {
            let k = k as f32;
            p.warm = [0.05 + 0.01 * k, 0.002 * k - 0.01, 0.003 - 0.001 * k];
        }
        let bits = |v: &[Velocity]| crate::solver_body::velocity_bits(v);
        let run = |fused: bool| {
            let mut store = store.clone();
            let mut b = bodies.clone();
            let mut wide = WideContacts::default();
            let warm = fused.then_some(&mut b.dv[..]);
            let warmed = wide.pack(&store, &bodies, SweepOrder::Sequential, 3, &s, warm);
            assert_eq!(warmed, fused);
            if !fused {
                wide.warm_start(&mut b.dv);
            }
            // The narrowphase's manifolds the impulses go back to, mapped as
            // `ContactStore::gather` maps them (a store manifold's points are one
            // narrowphase manifold's, in order), here in reverse manifold order.
            let mp = &store.manifold_points;
            let nm = mp.len() as u32;
            let source: Vec<u32> = (0..nm).map(|m| nm - 1 - m).collect();
            let point = thud_collide::ContactPoint {
                local_a: Vec3::ZERO,
                local_b: Vec3::ZERO,
                point: Vec3::ZERO,
                separation: 0.0,
                feature: thud_collide::FeatureId(0),
            };
            let mut manifolds: Vec<thud_collide::PairManifold> = (0..nm)
                .map(|i| thud_collide::PairManifold {
                    a: i,
                    b: i + 1,
                    sub_a: 0,
                    sub_b: 0,
                    manifold: thud_collide::Manifold {
                        normal: Vec3::Y,
                        points: std::iter::repeat_n(point, mp[(nm - 1 - i) as usize].1 as usize)
                            .collect(),
                    },
                })
                .collect();
            let last = LastSweep {
                split: fused.then_some(&mut b.pseudo[..]),
                sum: fused,
                write: fused.then(|| WriteBack {
                    source: &source,
                    manifolds: &mut manifolds,
                }),
            };
            wide.solve(
                None,
                &mut store,
                &mut [],
                &mut b.dv,
                (3, 2),
                1.0,
                false,
                last,
            );
            if !fused {
                wide.accumulate();
            }
            let mut joints = crate::joint::rows::JointRows::default();
            wide.split_solve(&mut store, &mut joints, &mut b.pseudo, 2, fused);
            let lambda: Vec<u32> = (0..wide.lanes.len())
                .flat_map(|w| {
                    let (slot, h) = wide.slot_of(w);
                    slot.lambdas(h).into_iter().flat_map(|l| l.to_array())
                })
                .chain(wide.impulse.iter().flatten().flat_map(|v| v.to_array()))
                .chain(wide.split_lambda.iter().flat_map(|v| v.to_array()))
                .map(f32::to_bits)
                .collect();
            if !fused {
                store.manifold_source = source;
                wide.write_back(&store, &mut manifolds);
            }
            let written: Vec<u32> = manifolds
                .iter()
                .flat_map(|m| m.manifold.points.users().iter().flatten().copied())
                .map(f32::to_bits)
                .collect();
            (bits(&b.dv), bits(&b.pseudo), lambda, written)
        };
        let (fused, separate) = (run(true), run(false));
        assert!(
            fused.1.iter().any(|&x| x != 0),
            "the split pass moved nothing"
        );
        assert!(fused.3.iter().any(|&x| x != 0), "nothing was written back");
        assert_eq!(fused, separate);
    }

    #[test]
    fn a_refreshed_substep_sees_the_rows_built_at_its_own_vnc() {
        // Between solve substeps the rows keep the first substep's `b̃ = J̃·Vnc₀` and the
        // bodies' `dV` takes `Vnc_k − Vnc₀`: every row's `b̃ + J̃·dV` must be what rows
        // built from scratch at `Vnc_k` (same blocks) hold in `b̃`, in the lanes and in
        // the store.
        let dt = 1.0 / 60.0;
        let s = BuildParams::for_tests(dt);
        let (mut bodies, mut store) = scene(dt);
        let mut wide = WideContacts::default();
        wide.pack(&store, &bodies, SweepOrder::Sequential, 16, &s, None);
        // The next substep's Vnc: tumbling and drifting, body by body.
        let mut rebuilt = bodies.clone();
        for i in 1..bodies.len() {
            let k = i as f32;
            let next = Velocity {
                lin: bodies.vnc[i].lin + Vec3::new(0.3 * k, -0.16, 0.05 * k),
                ang: Vec3::new(0.2, -0.7 * k, 0.4),
            };
            bodies.vnc_now[i] = next;
            rebuilt.vnc[i] = next;
            rebuilt.vnc_now[i] = next;
        }
        bodies.start_dv();
        let moved = vec![Velocity::ZERO; bodies.len()];
        refresh_all(&mut wide, Some(&moved), dt, &s, None);
        store.refresh(&s);
        let mut lanes = store.clone();
        wide.rows_into(&mut lanes);
        let mut fresh = ContactStore::default();
        for input in &store.inputs {
            let m = &store.manifold_inputs[input.manifold as usize];
            fresh.push_point(ContactInput::of(m, input), &rebuilt, &s, false);
        }
        let dv = &bodies.dv;
        for (i, want) in fresh.points.iter().enumerate() {
            for (got, what) in [(&store.points[i], "store"), (&lanes.points[i], "lanes")] {
                let (da, db) = (dv[got.a as usize], dv[got.b as usize]);
                for (k, (r, w)) in got.rows.iter().zip(&want.rows).enumerate() {
                    let seen = r.b + pgs::row_velocity(r, &da, &db);
                    assert!(
                        (seen - w.b).abs() <= 1e-5 * (1.0 + w.b.abs()),
                        "{what}, point {i}, row {k}: {seen} against {}",
                        w.b
                    );
                }
            }
        }
    }

    #[test]
    fn separations_advance_from_the_motion_summed_since_and_stood_units_keep_their_rows() {
        // Three solve substeps' motions: advancing the separations after each, and
        // leaving them where the rows were made while the units take new rows from the
        // motion summed so far, then advancing by the whole sum, end with the same
        // separations and normal rows (to rounding). With every body marked still, no
        // row changes.
        let dt = 1.0 / 60.0;
        let h = dt / 4.0;
        let s = BuildParams::for_tests(h);
        let (bodies, store) = scene(dt);
        let n = bodies.len();
        let motion = |k: f32| -> Vec<Velocity> {
            (0..n)
                .map(|i| {
                    let x = i as f32 + k;
                    Velocity {
                        lin: Vec3::new(0.02 * x.sin(), -0.05 * k, 0.01 * x.cos()),
                        ang: Vec3::new(0.1 * x.cos(), 0.05, -0.08 * x.sin()),
                    }
                })
                .collect()
        };
        let u = [motion(1.0), motion(2.0), motion(3.0)];
        let packed = || {
            let mut wide = WideContacts::default();
            wide.pack(&store, &bodies, SweepOrder::Sequential, 3, &s, None);
            wide
        };
        let normal_b = |w: &WideContacts| -> Vec<f32> {
            w.groups
                .iter()
                .flat_map(|g| {
                    w.slots[g.slots()]
                        .iter()
                        .map(|slot| slot.rows[0].get(g.half()).b)
                })
                .flat_map(|b| b.to_array())
                .collect()
        };
        let seps = |w: &WideContacts| -> Vec<f32> {
            w.side.iter().flat_map(|x| x.sep.to_array()).collect()
        };
        let mut each = packed();
        for m in &u {
            refresh_all(&mut each, Some(m), h, &s, None);
        }
        let mut summed = packed();
        let moving = vec![false; n];
        let mut sum = vec![Velocity::ZERO; n];
        for (k, m) in u.iter().enumerate() {
            for (t, x) in sum.iter_mut().zip(m) {
                t.lin += x.lin;
                t.ang += x.ang;
            }
            let still = (k < 2).then_some(&moving[..]);
            refresh_all(&mut summed, Some(&sum), h, &s, still);
        }
        let close = |a: &[f32], b: &[f32]| {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|(x, y)| (x - y).abs() <= 1e-6 * (1.0 + x.abs()))
        };
        assert!(
            seps(&each)
                .iter()
                .zip(&seps(&packed()))
                .any(|(a, b)| a != b)
        );
        assert!(close(&seps(&each), &seps(&summed)));
        assert!(close(&normal_b(&each), &normal_b(&summed)));
        // Every body still: the rows and separations stay as packed.
        let mut stood = packed();
        refresh_all(&mut stood, Some(&u[0]), h, &s, Some(&vec![true; n]));
        assert_eq!(seps(&stood), seps(&packed()));
        assert_eq!(normal_b(&stood), normal_b(&packed()));
    }

    #[test]
    fn packed_sweeps_match_scalar_sweeps_in_colour_order() {
        let dt = 1.0 / 60.0;
        let (mut bodies, mut store) = scene(dt);
        let (mut ref_bodies, mut ref_store) = (bodies.clone(), store.clone());
        let mut wide = WideContacts::default();
        wide.pack(
            &store,
            &bodies,
            SweepOrder::Sequential,
            16,
            &BuildParams::for_tests(dt),
            None,
        );
        assert_eq!(wide.colors(), (3, 0));
        // Every other sweep without friction rows (`pgs::friction_sweep`, stride 2).
        wide.solve(
            None,
            &mut store,
            &mut [],
            &mut bodies.dv,
            (30, 2),
            1.0,
            true,
            LastSweep::default(),
        );
        wide.unpack(&mut store);
        // Scalar reference, same order: colours {0, 1}, {2}, {3}.
        for k in 0..30 {
            let back = k % 2 == 1;
            let friction = pgs::friction_sweep(k, 30, 2);
            let mut order = ref_store.manifold_points.clone();
            if back {
                order.reverse();
            }
            for (s, n) in order {
                let pts = &mut ref_store.points[s as usize..(s + n) as usize];
                pgs::solve_manifold(pts, &mut ref_bodies.dv, 1.0, back, friction);
            }
        }
        for (p, q) in store.points.iter().zip(&ref_store.points) {
            for (r, s) in p.rows.iter().zip(&q.rows) {
                assert_eq!(
                    r.lambda.to_bits(),
                    s.lambda.to_bits(),
                    "{} vs {}",
                    r.lambda,
                    s.lambda
                );
            }
        }
        // Over-relaxed (SOR, ω = 1.3), with friction rows in sweeps 0, 3, 6, 9: the same
        // bits as the scalar update too (its clamps take a signed zero as `maxps` and
        // `minps` do).
        let (mut sor_bodies, mut sor_store) = scene(dt);
        let (mut ref_bodies2, mut ref_store2) = (sor_bodies.clone(), sor_store.clone());
        wide.pack(
            &sor_store,
            &sor_bodies,
            SweepOrder::Sequential,
            16,
            &BuildParams::for_tests(dt),
            None,
        );
        wide.solve(
            None,
            &mut sor_store,
            &mut [],
            &mut sor_bodies.dv,
            (10, 3),
            1.3,
            false,
            LastSweep::default(),
        );
        wide.unpack(&mut sor_store);
        for k in 0..10 {
            let friction = pgs::friction_sweep(k, 10, 3);
            for &(s, n) in &ref_store2.manifold_points {
                let pts = &mut ref_store2.points[s as usize..(s + n) as usize];
                pgs::solve_manifold(pts, &mut ref_bodies2.dv, 1.3, false, friction);
            }
        }
        let lambdas = |s: &ContactStore| -> Vec<u32> {
            s.points
                .iter()
                .flat_map(|c| c.rows.map(|r| r.lambda.to_bits()))
                .collect()
        };
        assert_eq!(lambdas(&sor_store), lambdas(&ref_store2));
        assert_ne!(lambdas(&sor_store), lambdas(&store));
        // The ground carries all three boxes (the first two manifolds, 8 points).
        let sum: f32 = store.points[..8].iter().map(|c| c.rows[0].lambda).sum();
        assert!(
            (sum - 3.0 * 9.81 * dt).abs() < 1e-3 * 3.0 * 9.81 * dt,
            "{sum}"
        );
        for i in 1..4 {
            let v = bodies.vnc[i].lin + bodies.dv[i].lin;
            assert!(v.length() < 2e-3, "body {i}: {v}");
        }
        assert_eq!(bodies.dv[0], Velocity::ZERO);
        // Split pass: pushes the overlapping boxes apart, never pulls.
        for _ in 0..4 {
            wide.split_sweep(&mut store, &mut bodies.pseudo);
            pgs::split_sweep(
                &ref_store.points,
                &ref_store.split_b,
                &mut ref_store.split_lambda,
                &mut ref_bodies.pseudo,
            );
        }
        assert_eq!(bodies.pseudo, ref_bodies.pseudo);
        assert!(wide.split_lambda.iter().all(|l| l.min_element() >= 0.0));
        assert!(bodies.pseudo[1].lin.y > 0.0 && bodies.pseudo[3].lin.y > 0.0);
    }
}
