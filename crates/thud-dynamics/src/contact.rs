//! The contact store: the solver's view of thud-collide's manifolds.
//!
//! Each step the `NarrowPhase` hands over its manifolds in ascending collider-pair order,
//! each point already matched to last step's point with the same feature id (then by
//! proximity), its user data (`[f32; 3]` a point, `ContactPoints::users`) copied across.
//! We keep the solver's impulses of the last solve substep there, `[λₙ, λ_t1, λ_t2]`
//! in N·s in the tangent basis of `jacobian::tangents`: the warm start. So warm starting is a plain read at build
//! time and a plain write after the solve; there is no hash lookup per contact. The
//! step's impulses summed over its solve substeps (what `World::contacts` reports)
//! stay with the solver until the next step (`impulse` below, or the lanes' sums):
//! the narrowphase streams its points several times a step, and they are smaller
//! without them. (Warm-starting from the mean `Σλ/n` instead was measured
//! worse: `pyramid_40` drift 46.6 mm against 6.3 mm.)
//!
//! The store itself is a set of flat arrays, one entry per solved contact point, reused
//! every step. The solver's rows are built in its lanes (`wide_build.rs`) from
//! `inputs`; the store's own scalar rows (`points` and the arrays after it) only on the
//! steps whose exact mode, overflow set or restitution pass reads them
//! ([`ContactStore::build_rows`]), so a large resting scene never allocates them:
//!
//! | array | bytes per point | what |
//! |---|---|---|
//! | `inputs` | 32 | [`PointInput`]: point, separation, warm start, its manifold |
//! | `manifold_inputs` | 28 per manifold | [`ManifoldInput`]: bodies, normal, materials (what its points share) |
//! | `manifold_points` | 8 per manifold | (first point, count): the unit the colouring packs |
//! | `manifold_source` | 4 per manifold | its index in the narrowphase's list, for write-back |
//! | `manifold_island` | 4 per manifold | its island root, for the exact mode |
//! | `points` | 240 | [`ContactRows`]: bodies, inverse masses, μ, the normal row's `J̃ₙ·Vnc`, three rows (`build_rows`) |
//! | `split_b`, `split_lambda` | 8 | split-impulse position rows (`build_rows`) |
//! | `impulse` | 12 | the step's impulses, summed over its solve substeps (`build_rows`) |
//! | `restitution` | 8 per bouncing point | (point, `b̃` of the restitution pass) |
//!
//! Materials combine by [`Settings::friction_combine`](crate::Settings) (default
//! `√(μa·μb)`) and [`Settings::restitution_combine`](crate::Settings) (default max).

use glam::Vec3;
use rayon::prelude::*;
use smallvec::SmallVec;
use thud_collide::{ContactPoint, FlushDenormals, Manifold, ManifoldTap, PairManifold, flushed};

use crate::body::BodyHandle;
#[cfg(test)]
use crate::jacobian::build_point;
use crate::jacobian::{
    BuildParams, ContactInput, ContactRows, ManifoldBasis, ManifoldInput, PointInput,
    build_point_into, refresh_point,
};
use crate::material::{CombineRule, Material};
use crate::pgs::row_velocity_raw;
use crate::solver_body::{SolverBodies, Velocity};

/// From this many points on, per-point passes run on the pool's threads.
const PARALLEL_POINTS: usize = 1024;

/// Whether per-point passes of a step whose solves run `sweeps` velocity sweeps may use
/// the pool: only when the sweeps themselves run on it (`parallel::MIN_SWEEPS`). When
/// they run on one thread, every pass over the rows (build, refresh, impulse sums) stays
/// on that thread, so the rows' cache lines stay in its core's cache: split over two
/// threads, half the rows were written in the other core's cache and every sweep and
/// warm start pulled them across (measured on `pyramid_40`, two threads against one:
/// step 3.1 against 2.3 ms, WarmStart 0.26 against 0.07 ms; with the passes kept on the
/// sweeping thread, 2.5 ms). The narrowphase, which writes no rows, still splits.
pub(crate) fn pool_points(sweeps: u32) -> bool {
    rayon::current_num_threads() > 1 && sweeps >= crate::parallel::MIN_SWEEPS
}

/// Whether a per-point pass over `n` points is split over the pool's threads (`pool`:
/// [`pool_points`] of the step), once the step's crew lets it (`Crew::pool_ready`).
pub(crate) fn parallel_points(n: usize, pool: bool) -> bool {
    pool && n >= PARALLEL_POINTS
        && rayon::current_num_threads() > 1
        && crate::parallel::Crew::pool_ready()
}

/// What a pass that took the step's points saw of them: how many start warm, and how
/// deep the deepest penetrates.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Taken {
    /// Points that came with a non-zero warm-start impulse.
    pub warm_started: usize,
    /// The deepest penetration among them (m, ≥ 0: `−separation` at its largest).
    pub deepest: f32,
}

impl Taken {
    /// Both runs' points.
    fn and(self, o: Taken) -> Taken {
        Taken {
            warm_started: self.warm_started + o.warm_started,
            deepest: self.deepest.max(o.deepest),
        }
    }
}

/// How far apart a manifold's points' separations lie (`ManifoldInput::spread`; 0 for
/// none), where the store takes the spreads (`take`, [`ContactStore::spreads`]; 0
/// otherwise).
#[inline]
fn spread(points: &[ContactPoint], take: bool) -> f32 {
    if !take {
        return 0.0;
    }
    let seps = points.iter().map(|p| p.separation);
    let (low, high) = seps.fold((f32::MAX, f32::MIN), |(l, h), x| (l.min(x), h.max(x)));
    if low <= high { high - low } else { 0.0 }
}

/// [`ContactStore::regather`] of a run of manifolds (`inputs` holds their points, the
/// first at store point `offset`): each one's normal and points again from the
/// narrowphase's list (and its spread, with `spreads`); what it saw of the points, or
/// `None` where a manifold's point count changed (then the store gathers anew).
fn regather_run(
    manifolds: &[PairManifold],
    inputs_of: &mut [ManifoldInput],
    points_of: &[(u32, u32)],
    source: &[u32],
    inputs: &mut [PointInput],
    (offset, spreads): (usize, bool),
) -> Option<Taken> {
    let (mut warm_started, mut deepest) = (0, 0.0f32);
    for ((m, &(first, count)), &src) in inputs_of.iter_mut().zip(points_of).zip(source) {
        let pm = manifolds.get(src as usize)?;
        let points = pm.manifold.points.as_slice();
        let first = (first as usize).checked_sub(offset)?;
        let ours = inputs.get_mut(first..first + count as usize)?;
        if points.len() != ours.len() {
            return None;
        }
        m.normal = pm.manifold.normal;
        m.spread = spread(points, spreads);
        let users = pm.manifold.points.users();
        for ((p, cp), &user) in ours.iter_mut().zip(points).zip(users) {
            p.point = cp.point;
            p.separation = cp.separation;
            p.warm = user;
            warm_started += usize::from(user[0] != 0.0);
            deepest = deepest.max(-cp.separation);
        }
    }
    Some(Taken {
        warm_started,
        deepest,
    })
}

/// The store's side of the narrowphase's update ([`NarrowPhase::update_tapped`]):
/// each manifold the store holds, as the narrowphase leaves it, taken as
/// [`ContactStore::regather`] takes it (its normal, and each point's position,
/// separation and warm start), while the manifold is still in cache. (A `pyramid_40`
/// step read its 2 380 manifolds, 600 KB, back for the regather: 3 % of the step.)
///
/// [`NarrowPhase::update_tapped`]: thud_collide::NarrowPhase::update_tapped
pub(crate) struct Tap<'a> {
    /// The store's manifolds this tap (or part of one, `ManifoldTap::split_front`)
    /// takes: their indices in the narrowphase's list (ascending, as the store holds
    /// them in list order), their points, their inputs, and their points' inputs,
    /// the first of which is the store's point `point_base`.
    source: &'a [u32],
    manifold_points: &'a [(u32, u32)],
    manifold_inputs: &'a mut [ManifoldInput],
    inputs: &'a mut [PointInput],
    point_base: usize,
    /// The next of them: the narrowphase shows its manifolds in list order, so those
    /// of the store come one after the other.
    next: usize,
    taken: Taken,
    /// Every manifold came with as many points as before, and every part absorbed took
    /// all of its own (else the store gathers anew).
    whole: bool,
    /// Whether it takes the manifolds' spreads ([`ContactStore::spreads`]).
    spreads: bool,
}

impl Tap<'_> {
    /// After the narrowphase's update: where it showed the tap every manifold of its
    /// list (`all`, the list's layout unchanged) and the tap took every manifold of the
    /// store with as many points as before, the step's points are in, and this is what
    /// it saw of them (for [`ContactStore::tapped`]); else `None`, and what the tap
    /// wrote is left for `regather` or a gather to write again.
    pub fn finish(self, all: bool) -> Option<Taken> {
        (all && self.whole && self.next == self.source.len()).then_some(self.taken)
    }
}

impl ManifoldTap for Tap<'_> {
    #[inline]
    fn manifold(&mut self, index: usize, m: &Manifold) {
        let s = self.next;
        // (A manifold the store does not hold, or one shown out of order: then the
        // store's next one is never shown, and `finish` says so.)
        if self.source.get(s).is_none_or(|&i| i as usize != index) {
            return;
        }
        self.next += 1;
        let points = m.points.as_slice();
        let ours = self.manifold_points.get(s).and_then(|&(first, count)| {
            let first = (first as usize).checked_sub(self.point_base)?;
            self.inputs.get_mut(first..first + count as usize)
        });
        let (Some(ours), Some(input)) = (ours, self.manifold_inputs.get_mut(s)) else {
            self.whole = false;
            return;
        };
        if ours.len() != points.len() {
            self.whole = false;
            return;
        }
        input.normal = m.normal;
        input.spread = spread(points, self.spreads);
        for ((p, cp), &user) in ours.iter_mut().zip(points).zip(m.points.users()) {
            p.point = cp.point;
            p.separation = cp.separation;
            p.warm = user;
            self.taken.warm_started += usize::from(user[0] != 0.0);
            self.taken.deepest = self.taken.deepest.max(-cp.separation);
        }
    }

    fn split_front(&mut self, end: usize) -> Self {
        // The store's manifolds before `end` in the list, and their points.
        let k = self.source.partition_point(|&i| (i as usize) < end);
        let points = k
            .checked_sub(1)
            .and_then(|last| self.manifold_points.get(last))
            .map_or(0, |&(first, count)| {
                (first as usize + count as usize).saturating_sub(self.point_base)
            })
            .min(self.inputs.len());
        let (source, rest) = self.source.split_at(k);
        self.source = rest;
        let (manifold_points, rest) = self
            .manifold_points
            .split_at(k.min(self.manifold_points.len()));
        self.manifold_points = rest;
        let k = k.min(self.manifold_inputs.len());
        let (manifold_inputs, rest) = std::mem::take(&mut self.manifold_inputs).split_at_mut(k);
        self.manifold_inputs = rest;
        let (inputs, rest) = std::mem::take(&mut self.inputs).split_at_mut(points);
        self.inputs = rest;
        let point_base = self.point_base;
        self.point_base += points;
        Tap {
            source,
            manifold_points,
            manifold_inputs,
            inputs,
            point_base,
            next: 0,
            taken: Taken::default(),
            whole: true,
            spreads: self.spreads,
        }
    }

    fn absorb(&mut self, front: Self) {
        self.whole &= front.whole && front.next == front.source.len();
        self.taken = self.taken.and(front.taken);
    }
}

/// `f` on each pair of `a[i]` and `b[i]`, on the pool's threads when the step allows it
/// (`pool`) and there are enough (the order of the calls does not matter: each touches
/// its own `a[i]` only).
pub(crate) fn each_point<A: Send, B: Sync>(
    pool: bool,
    a: &mut [A],
    b: &[B],
    f: impl Fn((&mut A, &B)) + Send + Sync,
) {
    if parallel_points(a.len(), pool) {
        a.par_iter_mut()
            .zip(b.par_iter())
            .with_min_len(PARALLEL_POINTS / 4)
            .for_each_init(FlushDenormals::new, |_, x| f(x));
    } else {
        a.iter_mut().zip(b).for_each(f);
    }
}

/// The flat per-point arrays of the solver (see the module table).
#[derive(Debug, Clone, Default)]
pub(crate) struct ContactStore {
    /// What each point's rows are built from (store order): its own inputs, and its
    /// manifold's (by manifold, beside `manifold_points`). A manifold's bodies, normal
    /// and materials are written once instead of once a point: the per-point array the
    /// gather writes and the build reads is 32 bytes a point instead of 56 (the gather
    /// streams it; `pyramid_40`'s BuildJacobians stage about 6 % shorter).
    pub inputs: Vec<PointInput>,
    pub manifold_inputs: Vec<ManifoldInput>,
    /// Whether the gather, the regather and the tap take each manifold's spread
    /// (`ManifoldInput::spread`, else 0): only where there is a touching gap, the one
    /// thing that reads it (`World` sets it each step).
    pub spreads: bool,
    pub points: Vec<ContactRows>,
    pub split_b: Vec<f32>,
    pub split_lambda: Vec<f32>,
    /// Each point's impulses summed over the step's solve substeps (N·s).
    pub impulse: Vec<[f32; 3]>,
    pub restitution: Vec<(u32, f32)>,
    /// The restitution pass's `b̃` of each point, if it bounces (scratch of `build`).
    pub bounce: Vec<Option<f32>>,
    /// (first point, point count) of each manifold with points, in store order.
    pub manifold_points: Vec<(u32, u32)>,
    /// Each manifold's index in the narrowphase's list (its points are that
    /// manifold's, in order), for the write-back.
    pub manifold_source: Vec<u32>,
    /// The narrowphase's update showed this step's points to the store, which took
    /// them as [`regather`](Self::regather) would ([`Tap`]) and saw this of them: the
    /// next `regather` has nothing to read.
    pub tapped: Option<Taken>,
    /// Island root (body slot) of each manifold, for the exact mode.
    pub manifold_island: Vec<u32>,
    /// Scratch: rows per island root (the exact mode's size check).
    pub island_rows: Vec<u32>,
    /// What `island_rows` was last counted from (`exact::any_small_island`): the store's
    /// `keys_at`, the row limit and the joint rows' islands, and the answer then.
    pub island_rows_of: (u64, usize, Vec<u32>, bool),
    /// Scratch: the small islands' points and joint rows (the exact mode's look,
    /// `exact::islands_where`), kept from step to step.
    pub island_lists: crate::exact::IslandLists,
    /// The exact mode's other buffers, kept from step to step.
    pub exact_scratch: crate::exact::Scratch,
    /// Points of the islands the exact mode takes this step (`exact::takes_any`): the
    /// points whose scalar rows it reads; their manifolds are swept from those rows.
    pub taken: Vec<bool>,
    /// Some island the exact mode takes this step holds joint rows.
    pub taken_joints: bool,
    /// The island roots (body slots) the exact mode takes this step, ascending.
    pub taken_roots: Vec<u32>,
    /// Scratch: the roots the exact mode took at the call before (`exact::takes_any`).
    pub taken_roots_before: Vec<u32>,
    /// Which manifolds, on which bodies, with which points, and which of them the exact
    /// mode takes: a number drawn afresh ([`next_keys`]) whenever any of that may have
    /// changed (`gather`; `exact::takes_any` where it takes other islands than at its
    /// call before), so that a colouring made from the same number needs no look at the
    /// keys (`Coloring::build_keyed`). 0: not known (a test's store).
    pub keys_at: u64,
    /// Points of the islands swept once over the whole step while the others take
    /// their solve substeps (the exact mode's islands beside others: `World::apart`);
    /// empty when there are none. Their rows are built for the whole step
    /// (`build_rows`'s `whole`) and kept through the substeps (`refresh`).
    pub whole: Vec<bool>,
    pub manifolds: usize,
    /// Points that came with a non-zero warm-start impulse.
    pub warm_started: usize,
    /// The deepest penetration among the step's points as they were taken (m, ≥ 0), which
    /// sets how many sweeps the position pass runs (`Settings::deep_penetration`).
    pub deepest: f32,
    /// Some manifold has a restitution above zero (as the last `gather` took them; a
    /// test's `push_point` sets it): without one, no point can bounce.
    pub restitutive: bool,
    /// Some point of the step bounces ([`find_bounces`](Self::find_bounces)).
    pub bouncy: bool,
    /// Whether this step's per-point passes may use the pool ([`pool_points`]).
    pub pool: bool,
    /// `build_rows` ran this step: `points` (and the per-point scalars) are current.
    rows: bool,
    /// ... for the selected points only (the others' rows are stale but for the λ the
    /// lanes write in: `build_rows`).
    partial: bool,
}

/// A number for [`ContactStore::keys_at`] that no store has had before (the counter is
/// shared by every world, so two stores never hold the same one).
pub(crate) fn next_keys() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// What the store needs to know about the world to build rows.
pub(crate) struct BuildContext<'a> {
    /// Owning body slot of each collider key.
    pub collider_body: &'a [u32],
    /// Material of each collider key.
    pub material: &'a [Material],
    /// Solver index of each body slot (0 = not in the solver).
    pub solver_of: &'a [u32],
    /// Island root of each body slot.
    pub island_root: &'a [u32],
    pub friction_combine: CombineRule,
    pub restitution_combine: CombineRule,
}

impl ContactStore {
    /// Whether the store still holds the keys it drew the number `at` for
    /// ([`keys_at`](Self::keys_at)): the same manifolds, bodies, points and islands the
    /// exact mode takes, its points and normals taken again at most. Never for a store
    /// whose keys are not known (0).
    pub(crate) fn keys_still(&self, at: u64) -> bool {
        self.keys_at != 0 && self.keys_at == at
    }

    /// Take this step's points from the manifolds, in store order: what each point's
    /// rows are built from (`inputs`); each manifold's points, where it came from and
    /// its island. The
    /// rows themselves are built in the solver's lanes (`wide_build.rs`); the store's
    /// own scalar rows only by [`build_rows`](Self::build_rows), for the steps that
    /// read them.
    pub fn gather(
        &mut self,
        manifolds: &[PairManifold],
        ctx: &BuildContext<'_>,
        bodies: &SolverBodies,
    ) {
        self.keys_at = next_keys();
        self.restitution.clear();
        self.manifold_inputs.clear();
        self.manifold_points.clear();
        self.manifold_source.clear();
        self.manifold_island.clear();
        self.points.clear();
        self.tapped = None;
        self.bouncy = false;
        self.rows = false;
        self.partial = false;
        // The per-point array is filled as a local (its length stays in a register
        // instead of going through memory point after point), room made once.
        let total: usize = manifolds.iter().map(|m| m.manifold.points.len()).sum();
        let mut inputs = std::mem::take(&mut self.inputs);
        inputs.clear();
        inputs.reserve(total);
        let mut used = 0;
        for (mi, pm) in manifolds.iter().enumerate() {
            let (ka, kb) = (pm.a as usize, pm.b as usize);
            let (ba, bb) = (ctx.collider_body[ka], ctx.collider_body[kb]);
            if ba == u32::MAX || bb == u32::MAX || ba == bb {
                continue;
            }
            let (sa, sb) = (ctx.solver_of[ba as usize], ctx.solver_of[bb as usize]);
            if bodies.inv_mass[sa as usize] == 0.0 && bodies.inv_mass[sb as usize] == 0.0 {
                continue;
            }
            let (ma, mb) = (ctx.material[ka], ctx.material[kb]);
            let friction = ctx.friction_combine.combine(ma.friction, mb.friction);
            let restitution = ctx
                .restitution_combine
                .combine(ma.restitution, mb.restitution);
            let island = if bodies.inv_mass[sa as usize] > 0.0 {
                ctx.island_root[ba as usize]
            } else {
                ctx.island_root[bb as usize]
            };
            used += 1;
            let points = pm.manifold.points.as_slice();
            if points.is_empty() {
                continue;
            }
            let first = inputs.len() as u32;
            let manifold = self.manifold_inputs.len() as u32;
            self.manifold_inputs.push(ManifoldInput {
                a: sa,
                b: sb,
                normal: pm.manifold.normal,
                friction,
                restitution,
                spread: spread(points, self.spreads),
            });
            let users = pm.manifold.points.users();
            inputs.extend(points.iter().zip(users).map(|(cp, &warm)| PointInput {
                point: cp.point,
                separation: cp.separation,
                warm,
                manifold,
            }));
            self.manifold_points.push((first, points.len() as u32));
            self.manifold_source.push(mi as u32);
            self.manifold_island.push(island);
        }
        // Counted apart: a count carried through the loop above went through the stack
        // point after point.
        let (warm_started, deepest) = inputs.iter().fold((0, 0.0f32), |(w, d), p| {
            (w + usize::from(p.warm[0] != 0.0), d.max(-p.separation))
        });
        self.deepest = deepest;
        self.inputs = inputs;
        // (Looked at once a gather, while the manifolds are in cache: the steps that
        // take the points again keep the manifolds' materials.)
        self.restitutive = self.manifold_inputs.iter().any(|m| m.restitution > 0.0);
        (self.manifolds, self.warm_started) = (used, warm_started);
    }

    /// A tap for the narrowphase's update ([`Tap`]) over the manifolds the last
    /// [`gather`](Self::gather) read, which the caller vouches are still the
    /// narrowphase's list (its layout and the colliders unchanged since); what it took
    /// goes into [`tapped`](Self::tapped) ([`Tap::finish`]).
    pub fn tap(&mut self) -> Tap<'_> {
        self.tapped = None;
        Tap {
            source: &self.manifold_source,
            manifold_points: &self.manifold_points,
            manifold_inputs: &mut self.manifold_inputs,
            inputs: &mut self.inputs,
            point_base: 0,
            next: 0,
            taken: Taken::default(),
            whole: true,
            spreads: self.spreads,
        }
    }

    /// Takes this step's points again from the manifolds the last [`gather`](Self::gather)
    /// read, which the caller vouches are the same (the narrowphase list's
    /// [`layout`](thud_collide::NarrowPhase::layout), the colliders and the solver's bodies
    /// unchanged since): each point's position, separation and warm start and each
    /// manifold's normal, what moves while the rest stays. The bodies, materials, islands
    /// and the layout are the gather's. Returns `false` where a manifold's point count
    /// changed, for a full gather (which overwrites whatever this wrote). Where the
    /// narrowphase's update of this step showed the store every manifold
    /// ([`tapped`](Self::tapped)), they are in already and nothing is read.
    pub fn regather(&mut self, manifolds: &[PairManifold]) -> bool {
        self.rows = false;
        self.partial = false;
        if let Some(taken) = self.tapped.take() {
            (self.warm_started, self.deepest) = (taken.warm_started, taken.deepest);
            return true;
        }
        let n = self.inputs.len();
        // On the pool (as the store's other per-point passes), two halves by manifold:
        // a manifold's points are a run of `inputs`, so the halves' runs are apart.
        let m = self
            .manifold_points
            .len()
            .min(self.manifold_inputs.len())
            .min(self.manifold_source.len());
        let half = if parallel_points(n, self.pool) {
            m / 2
        } else {
            m
        };
        let at = self
            .manifold_points
            .get(half)
            .map_or(n, |&(first, _)| (first as usize).min(n));
        let spreads = self.spreads;
        let (ma, mb) = self.manifold_inputs.split_at_mut(half);
        let (ia, ib) = self.inputs.split_at_mut(at);
        let (pa, pb) = self.manifold_points.split_at(half);
        let (sa, sb) = self.manifold_source.split_at(half);
        let (a, b) = if !pb.is_empty() {
            rayon::join(
                || flushed(|| regather_run(manifolds, ma, pa, sa, ia, (0, spreads))),
                || flushed(|| regather_run(manifolds, mb, pb, sb, ib, (at, spreads))),
            )
        } else {
            (
                regather_run(manifolds, ma, pa, sa, ia, (0, spreads)),
                Some(Taken::default()),
            )
        };
        match (a, b) {
            (Some(a), Some(b)) => {
                let taken = a.and(b);
                (self.warm_started, self.deepest) = (taken.warm_started, taken.deepest);
                true
            }
            _ => false,
        }
    }

    /// Build the points' scalar rows (`jacobian::build_point_into`, the same bits as the
    /// lanes'), for the steps whose exact mode, overflow set or restitution pass reads
    /// them; the restitution pass's points are listed. With `only`, just the points it
    /// selects (the islands the exact mode takes, which are also the sequential order's
    /// whole overflow set): the others' rows are left as they were, no scalar of theirs
    /// is read, and their λ come from the lanes (`WideContacts::unpack`) like every
    /// point's. With `whole`, the points marked in `whole` are built with those
    /// parameters (over the whole step). The rows are independent of each other and are built on the pool's
    /// threads when there are enough of them.
    pub fn build_rows(
        &mut self,
        bodies: &SolverBodies,
        params: &BuildParams,
        only: Option<&[bool]>,
        whole: Option<&BuildParams>,
    ) {
        // Every entry below is overwritten, so the buffers only grow, never reset.
        let n = self.inputs.len();
        self.rows = true;
        self.partial = only.is_some();
        self.points.resize(n, ContactRows::default());
        self.split_b.truncate(n);
        self.split_b.resize(n, 0.0);
        self.bounce.truncate(n);
        self.bounce.resize(n, None);
        if only.is_some() {
            // The others' rows are left as they are: only their λ is ever written or
            // read (from the lanes, `WideContacts::unpack`), and none bounces (the step
            // has no restitution pass).
            self.bounce.fill(None);
        }
        self.split_lambda.clear();
        self.split_lambda.resize(n, 0.0);
        self.impulse.clear();
        self.impulse.resize(n, [0.0; 3]);
        let manifolds = &self.manifold_inputs;
        let whole_points = &self.whole;
        /// One point's input (with its index) and the rows, split `b` and bounce it
        /// writes.
        type Point<'a> = (
            (usize, &'a PointInput),
            ((&'a mut ContactRows, &'a mut f32), &'a mut Option<f32>),
        );
        // Point `i`'s parameters: the whole step's for the points swept apart.
        let params_of = |i: usize| match whole {
            Some(w) if whole_points.get(i).copied().unwrap_or(false) => w,
            _ => params,
        };
        let one = |((i, input), ((rows, split), bounce)): Point<'_>| {
            let p = ContactInput::of(&manifolds[input.manifold as usize], input);
            let basis = ManifoldBasis::of(bodies, &p);
            let extra = build_point_into(bodies, &basis, &p, params_of(i), rows);
            *split = extra.split_b;
            *bounce = extra.restitution_b;
        };
        if let Some(o) = only {
            // Only the selected points, the few of the exact mode's islands (whole
            // islands, so whole manifolds: the bodies' blocks and the friction
            // directions made once a manifold).
            for &(first, count) in &self.manifold_points {
                let points = first as usize..(first + count) as usize;
                if !o.get(points.start).copied().unwrap_or(true) || points.end > n {
                    continue;
                }
                let mut basis = None;
                for i in points {
                    let input = &self.inputs[i];
                    let p = ContactInput::of(&manifolds[input.manifold as usize], input);
                    let basis = basis.get_or_insert_with(|| ManifoldBasis::of(bodies, &p));
                    let out = &mut self.points[i];
                    let extra = build_point_into(bodies, basis, &p, params_of(i), out);
                    self.split_b[i] = extra.split_b;
                    self.bounce[i] = extra.restitution_b;
                }
            }
        } else if parallel_points(n, self.pool) {
            self.inputs
                .par_iter()
                .enumerate()
                .zip(
                    self.points
                        .par_iter_mut()
                        .zip(self.split_b.par_iter_mut())
                        .zip(self.bounce.par_iter_mut()),
                )
                .with_min_len(PARALLEL_POINTS / 4)
                .for_each_init(FlushDenormals::new, |_, x| one(x));
        } else {
            self.inputs
                .iter()
                .enumerate()
                .zip(
                    self.points
                        .iter_mut()
                        .zip(self.split_b.iter_mut())
                        .zip(self.bounce.iter_mut()),
                )
                .for_each(one);
        }
        if self.bouncy {
            self.restitution.extend(
                self.bounce
                    .iter()
                    .enumerate()
                    .filter_map(|(i, b)| b.map(|b| (i as u32, b))),
            );
        }
    }

    /// Whether some point of a manifold with restitution approaches faster than
    /// `threshold` at the start of the step, with the solver bodies' velocities then
    /// (`bouncy`: the step runs the restitution pass, which reads every point's scalar
    /// rows). Only such a step pays for the pass: a bouncy body at rest, or moving
    /// slowly, leaves the step as one without restitution.
    pub fn find_bounces(&mut self, bodies: &SolverBodies, threshold: f32) {
        // (On `pyramid_100` the look at 15 000 manifolds' restitution took 16–21 µs a
        // step.)
        if !self.restitutive {
            self.bouncy = false;
            return;
        }
        let manifolds = self.manifold_inputs.iter().zip(&self.manifold_points);
        self.bouncy = manifolds
            .filter(|(m, _)| m.restitution > 0.0)
            .any(|(m, &(first, n))| {
                let points = &self.inputs[first as usize..(first + n) as usize];
                points.iter().any(|p| {
                    let (a, b) = (m.a as usize, m.b as usize);
                    crate::jacobian::approach_velocity(bodies, a, b, m.normal, p.point) < -threshold
                })
            });
    }

    /// Whether this step built the scalar rows ([`build_rows`](Self::build_rows)).
    pub fn has_rows(&self) -> bool {
        self.rows
    }

    /// Whether this step built them for some points only (the others' rows are in the
    /// lanes).
    pub fn partial_rows(&self) -> bool {
        self.partial
    }

    /// A test fixture: append one point (its own manifold unless `extend`) with its
    /// input and scalar rows, as `gather` and `build_rows` would.
    #[cfg(test)]
    pub fn push_point(
        &mut self,
        input: ContactInput,
        bodies: &SolverBodies,
        params: &BuildParams,
        extend: bool,
    ) {
        let i = self.inputs.len() as u32;
        self.rows = true;
        self.keys_at = 0;
        self.restitutive = true;
        match self.manifold_points.last_mut() {
            Some(last) if extend => last.1 += 1,
            _ => {
                self.manifold_points.push((i, 1));
                self.manifold_source.push(0);
                self.manifold_island.push(0);
                self.manifold_inputs.push(input.split(0).0);
            }
        }
        let manifold = self.manifold_inputs.len() as u32 - 1;
        // (A point extending a manifold takes the manifold's bodies, normal and
        // materials: the gather's points share them.)
        let point = input.split(manifold).1;
        let whole = ContactInput::of(&self.manifold_inputs[manifold as usize], &point);
        let (rows, extra) = build_point(bodies, &whole, params);
        self.inputs.push(point);
        self.points.push(rows);
        self.split_b.push(extra.split_b);
        self.split_lambda.push(0.0);
        self.impulse.push([0.0; 3]);
        self.bounce.push(extra.restitution_b);
    }

    /// After a solve substep of `h` seconds (`Settings::solve_substeps`): advance each
    /// point's separation by `h·J·u`, its normal velocity with which the poses just
    /// moved (`moved`: `u = Vnc + dV` plus the split pass's pseudo-velocity, per solver
    /// body). To first order this is the gap the narrowphase would measure after the move.
    pub fn advance(&mut self, moved: &[Velocity], h: f32) {
        if self.partial {
            // Only the points with rows of their own (the rest are the lanes').
            let own = self.inputs.iter_mut().zip(&self.points).zip(&self.taken);
            for ((input, c), _) in own.filter(|(_, e)| **e) {
                let rn = &c.rows[0];
                let (ua, ub) = (&moved[c.a as usize], &moved[c.b as usize]);
                input.separation += h * row_velocity_raw(rn, ua, ub);
            }
            return;
        }
        each_point(self.pool, &mut self.inputs, &self.points, |(input, c)| {
            let rn = &c.rows[0];
            let (ua, ub) = (&moved[c.a as usize], &moved[c.b as usize]);
            input.separation += h * row_velocity_raw(rn, ua, ub);
        });
    }

    /// Refresh the normal rows' stabilization for the next solve substep from the
    /// advanced separations ([`refresh_point`]; the exact mode and the overflow set read
    /// the store's rows, the sweeps `WideContacts::refresh`'s).
    ///
    /// Points without rows of their own (`build_rows`'s `only`) and those built for the
    /// whole step (`whole`) keep theirs.
    pub fn refresh(&mut self, params: &BuildParams) {
        self.split_lambda.fill(0.0);
        let (partial, exact, whole) = (self.partial, &self.taken, &self.whole);
        let manifolds = &self.manifold_inputs;
        let skip = |i: usize| {
            (partial && !exact.get(i).copied().unwrap_or(true))
                || whole.get(i).copied().unwrap_or(false)
        };
        let one =
            |(i, (input, (c, split))): (usize, (&PointInput, (&mut ContactRows, &mut f32)))| {
                if !skip(i) {
                    let spread = manifolds[input.manifold as usize].spread;
                    *split = refresh_point(c, input.separation, spread, params);
                }
            };
        if parallel_points(self.inputs.len(), self.pool) {
            self.inputs
                .par_iter()
                .zip(self.points.par_iter_mut().zip(self.split_b.par_iter_mut()))
                .enumerate()
                .with_min_len(PARALLEL_POINTS / 4)
                .for_each_init(FlushDenormals::new, |_, x| one(x));
        } else {
            self.inputs
                .iter()
                .zip(self.points.iter_mut().zip(self.split_b.iter_mut()))
                .enumerate()
                .for_each(one);
        }
    }

    /// Add the solve substep's λ to the step's impulses.
    pub fn accumulate(&mut self) {
        each_point(self.pool, &mut self.impulse, &self.points, |(sum, c)| {
            for (s, r) in sum.iter_mut().zip(&c.rows) {
                *s += r.lambda;
            }
        });
    }

    /// The solver bodies (movable or not, not the static dummy 0) of the manifolds of
    /// the islands the exact mode takes (`taken`), each once per manifold.
    pub fn taken_bodies(&self) -> impl Iterator<Item = usize> + '_ {
        let manifolds = self.manifold_inputs.iter().zip(&self.manifold_points);
        manifolds
            .filter(|(_, (first, _))| self.taken.get(*first as usize).copied().unwrap_or(false))
            .flat_map(|(m, _)| [m.a as usize, m.b as usize])
            .filter(|&k| k != 0)
    }

    /// The step's impulses of the points swept apart over the whole step (`whole`):
    /// their λ of its one solve.
    pub fn accumulate_whole(&mut self) {
        let points = self.points.iter().zip(&self.whole);
        for (sum, (c, _)) in self
            .impulse
            .iter_mut()
            .zip(points)
            .filter(|(_, (_, w))| **w)
        {
            for (s, r) in sum.iter_mut().zip(&c.rows) {
                *s += r.lambda;
            }
        }
    }

    /// [`write_back`](Self::write_back) of the manifolds swept apart over the whole step
    /// (`whole`; a manifold's points are all or none of them).
    pub fn write_back_whole(&self, manifolds: &mut [PairManifold]) {
        for (&(first, n), &mi) in self.manifold_points.iter().zip(&self.manifold_source) {
            if !self.whole.get(first as usize).copied().unwrap_or(false) {
                continue;
            }
            let range = first as usize..(first + n) as usize;
            let users = manifolds[mi as usize].manifold.points.users_mut();
            for (c, user) in self.points[range].iter().zip(users) {
                *user = c.rows.each_ref().map(|r| r.lambda);
            }
        }
    }

    /// Write back into the narrowphase's per-point user data `[λₙ, λ_t1, λ_t2]`: the last
    /// solve substep's impulses (the next step's warm start: they are the most
    /// converged).
    pub fn write_back(&self, manifolds: &mut [PairManifold]) {
        for (&(first, n), &mi) in self.manifold_points.iter().zip(&self.manifold_source) {
            let range = first as usize..(first + n) as usize;
            let users = manifolds[mi as usize].manifold.points.users_mut();
            for (c, user) in self.points[range].iter().zip(users) {
                *user = c.rows.each_ref().map(|r| r.lambda);
            }
        }
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        3 * self.inputs.len()
    }
}

/// One contact point as seen after a step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactPointView {
    /// World position (midpoint of the two surfaces), m.
    pub position: Vec3,
    /// Signed distance along the normal at the start of the step (negative = overlap), m.
    pub separation: f32,
    /// Normal impulse of the last step (summed over its solve substeps), N·s (force · dt).
    pub normal_impulse: f32,
    /// Impulses along the two tangents over the last step, N·s.
    pub tangent_impulses: [f32; 2],
    /// The two tangent directions (world, unit).
    pub tangents: [Vec3; 2],
}

impl ContactPointView {
    /// The total impulse on body b at this point (world, N·s).
    #[must_use]
    pub fn impulse(&self, normal: Vec3) -> Vec3 {
        normal * self.normal_impulse
            + self.tangents[0] * self.tangent_impulses[0]
            + self.tangents[1] * self.tangent_impulses[1]
    }
}

/// One contact manifold between two bodies, as seen after a step.
#[derive(Debug, Clone, PartialEq)]
pub struct ContactView {
    /// First body.
    pub a: BodyHandle,
    /// Second body.
    pub b: BodyHandle,
    /// World unit normal from a to b.
    pub normal: Vec3,
    /// The points (at most 4).
    pub points: SmallVec<[ContactPointView; 4]>,
}

impl ContactView {
    /// Sum of the normal impulses of the points (N·s).
    #[must_use]
    pub fn total_normal_impulse(&self) -> f32 {
        self.points.iter().map(|p| p.normal_impulse).sum()
    }
}

#[cfg(test)]
mod tests {
    use glam::{Mat3, Vec3};
    use thud_collide::{ContactPoint, FeatureId, Manifold, PairManifold};

    use super::*;

    /// Two boxes on a ground collider (key 0): collider `k` on body slot `k`.
    fn manifold(a: u32, b: u32, points: &[(f32, f32)]) -> PairManifold {
        let mut m = Manifold::new(Vec3::Y);
        for (i, &(x, sep)) in points.iter().enumerate() {
            m.points.push(ContactPoint {
                local_a: Vec3::ZERO,
                local_b: Vec3::ZERO,
                point: Vec3::new(x, 0.5 * b as f32, 0.0),
                separation: sep,
                feature: FeatureId(i as u32),
            });
            m.points.users_mut()[i] = [sep.abs(), 0.1 * x, 0.0];
        }
        PairManifold {
            a,
            b,
            sub_a: 0,
            sub_b: 0,
            manifold: m,
        }
    }

    /// `manifolds` gathered into `store`, which takes their spreads (as where there is
    /// a touching gap).
    fn gathered(store: &mut ContactStore, manifolds: &[PairManifold]) {
        store.spreads = true;
        let mut bodies = SolverBodies::default();
        bodies.reset();
        for slot in 1..3 {
            bodies.push(
                slot,
                Velocity::ZERO,
                Velocity::ZERO,
                1.0,
                Mat3::IDENTITY,
                Vec3::ZERO,
            );
        }
        let ctx = BuildContext {
            collider_body: &[0, 1, 2],
            material: &[Material::DEFAULT; 3],
            solver_of: &[0, 1, 2],
            island_root: &[0, 1, 1],
            friction_combine: CombineRule::GeometricMean,
            restitution_combine: CombineRule::Max,
        };
        store.gather(manifolds, &ctx, &bodies);
    }

    /// The same manifolds a step later: the points moved and the normals turned a
    /// little, the warm starts grown.
    fn moved_a_little(list: &mut [PairManifold]) {
        for (k, pm) in list.iter_mut().enumerate() {
            pm.manifold.normal = Vec3::new(0.01 * k as f32, 1.0, 0.0).normalize();
            for (p, user) in pm.manifold.points.iter_with_users_mut() {
                p.point += Vec3::new(1e-4, -2e-4, 3e-4);
                p.separation -= 5e-4;
                user[0] += 0.25;
            }
        }
    }

    /// The store's inputs, to the bit.
    fn input_bits(s: &ContactStore) -> impl PartialEq + std::fmt::Debug + use<> {
        let points: Vec<_> = s
            .inputs
            .iter()
            .map(|p| (p.point.to_array(), p.separation, p.warm, p.manifold))
            .collect();
        let normals: Vec<_> = s
            .manifold_inputs
            .iter()
            .map(|m| (m.normal.to_array(), m.spread))
            .collect();
        (points, normals, s.warm_started, s.manifold_points.clone())
    }

    /// The points a tap takes as the narrowphase shows it each manifold, in parts cut
    /// for the pool's chunks, are a full gather's, to the bit, and the regather after
    /// reads nothing; a part that missed a manifold, or a manifold with a point more,
    /// leaves the store to read them back.
    #[test]
    fn a_tap_in_parts_takes_what_a_gather_would() {
        // The second manifold is not the store's (one body on both sides).
        let mut list = vec![
            manifold(0, 1, &[(-0.5, -1e-3), (0.5, -2e-3)]),
            manifold(0, 0, &[(0.0, 0.0)]),
            manifold(1, 2, &[(-0.4, 0.0), (0.0, 1e-3), (0.4, -1e-3)]),
            manifold(0, 2, &[(0.2, -1e-3)]),
            manifold(1, 2, &[(-0.3, 0.0), (0.3, 2e-3)]),
        ];
        let mut store = ContactStore::default();
        gathered(&mut store, &list);
        assert_eq!(store.manifold_inputs.len(), 4);
        moved_a_little(&mut list);
        // Chunks of the list 0..2, 2..4 and 4..; `skip` a manifold not shown.
        let tapped = |store: &mut ContactStore, list: &[PairManifold], skip: Option<usize>| {
            let mut tap = store.tap();
            let mut parts = [tap.split_front(2), tap.split_front(4)];
            for (i, m) in list.iter().enumerate().filter(|&(i, _)| Some(i) != skip) {
                match i {
                    0..2 => parts[0].manifold(i, &m.manifold),
                    2..4 => parts[1].manifold(i, &m.manifold),
                    _ => tap.manifold(i, &m.manifold),
                }
            }
            let [front, middle] = parts;
            tap.absorb(front);
            tap.absorb(middle);
            tap.finish(true)
        };
        store.tapped = tapped(&mut store, &list, None);
        assert!(store.tapped.is_some());
        assert!(store.regather(&[]), "nothing to read back");
        let mut fresh = ContactStore::default();
        gathered(&mut fresh, &list);
        assert_eq!(input_bits(&store), input_bits(&fresh));
        // The manifold that is not the store's need not be shown; the others must.
        assert!(tapped(&mut store, &list, Some(1)).is_some());
        assert!(tapped(&mut store, &list, Some(3)).is_none());
        list[2].manifold.points.pop();
        assert!(tapped(&mut store, &list, None).is_none());
    }

    /// The points and normals a regather takes are a full gather's, to the bit; a
    /// manifold whose point count changed is left to a full gather.
    #[test]
    fn a_regather_takes_what_a_gather_would() {
        let mut list = vec![
            manifold(0, 1, &[(-0.5, -1e-3), (0.5, -2e-3)]),
            manifold(1, 2, &[(-0.4, 0.0), (0.0, 1e-3), (0.4, -1e-3)]),
        ];
        let mut store = ContactStore::default();
        gathered(&mut store, &list);
        moved_a_little(&mut list);
        assert!(store.regather(&list));
        let mut fresh = ContactStore::default();
        gathered(&mut fresh, &list);
        assert_eq!(input_bits(&store), input_bits(&fresh));
        // A point lost: not for a regather.
        list[1].manifold.points.pop();
        assert!(!store.regather(&list));
    }
}
