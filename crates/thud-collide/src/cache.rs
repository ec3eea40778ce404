//! The narrowphase with its persistent manifold cache.
//!
//! Each step the caller hands [`NarrowPhase::update`] the broadphase pairs and
//! the world shapes and poses indexed by collider slot. For every pair:
//!
//! 1. **Reuse.** If the pair's relative pose `T_a⁻¹·T_b` is within 0.5 mm and
//!    0.5° of the one its manifolds were computed at, the manifolds are kept:
//!    the normal (stored in A's frame) and the anchors `local_a`, `local_b` are
//!    mapped through the new poses, and `point` and `separation = n·(x_b − x_a)`
//!    recomputed. Resting and slowly creeping contacts — most of a settled
//!    stack — cost a few transforms. (Jolt's body-pair cache does the same.)
//!    The reference pose is not updated on reuse, so slow drift still triggers a
//!    recomputation once it adds up to the threshold.
//!
//!    A pair found *apart* keeps its empty list for longer. The box pair reports,
//!    where an axis separates the boxes by more than the margin, its widest gap `g`
//!    along the fifteen axes, a lower bound on their distance; a pair of spheres or
//!    capsules its distance (the cores' less the radii). B's points, seen from A, move
//!    by at most `|Δt| + 2·sin(θ/2)·r_B` (`Δt`, `θ`: how far B's pose in A's frame
//!    moved and turned since, `r_B`: B's reach from its origin, `|h_B|` for a box,
//!    `h + r` for a capsule, `r` for a sphere), so while that stays under `g − margin`
//!    the shapes are still more than the margin apart and the pair is not computed
//!    again. In a settling heap over half
//!    the recomputed pairs were such near misses (boxes whose bounding boxes overlap).
//! 2. **Recompute** otherwise ([`crate::contact_manifolds`]); each new manifold
//!    is matched with last step's manifold of the same `(a, b, sub_a, sub_b)`,
//!    and each new point with an old point by equal [`crate::FeatureId`] (the
//!    same features still touch), else by proximity: the unused old point whose
//!    `local_a` is nearest, within `match_distance`, if the normals agree
//!    (cos > 0.7).
//!
//! A matched point inherits the old point's user data (the solver's
//! accumulated impulses: warm starting); a new point starts at zero. Pairs not
//! listed this step are forgotten.
//!
//! **In place.** Last step's pair states are merged with the new (sorted) pair list
//! (`merge_pairs`: new pairs computed at once, their manifolds kept aside), the
//! listed pairs are updated where their manifolds lie, and then what changed in
//! structure — manifolds of pairs gone, of new pairs, and of pairs whose recomputed
//! manifolds differ in number or sub-shapes — is spliced in within the list
//! (`apply_patches`): runs of the others move only where their place changes (those
//! moving to the front first, front to back, then those moving to the back, back to
//! front, so that nothing is overwritten before it is read), the part before the first
//! change not at all; with an unchanged list and no such pair (a resting scene) nothing
//! moves. An unsorted list, and the first update (nothing to merge
//! with: a merge would compute every pair into the inserts and keep that room), take
//! the full update, which builds the list anew pair by pair. Both compute each pair
//! the same way, so they give the same bits (a unit test runs a sequence of changes
//! through both).
//!
//! **The tap.** A caller that copies each step's points out of the list (the solver's
//! contact store) may pass a [`ManifoldTap`] to [`NarrowPhase::update_tapped`]: an
//! update in place shows it each manifold that keeps its place as soon as it is
//! refreshed or computed again, while its 250-odd bytes are in cache (split over the
//! pool, each chunk shows its part of the tap its own manifolds), and says whether it
//! showed every manifold of the list (the layout unchanged), so that the caller need
//! not read the list back.
//!
//! **Ahead.** [`NarrowPhase::refresh_ahead`] does the update in place's first part for
//! last step's pairs ahead of the update, from the first pair on until told to stop:
//! each pair whose manifolds the update would refresh is refreshed and marked, and the
//! update takes marked pairs as they are. A caller with two threads runs it beside its
//! broadphase's pair search, which the update needs and which runs on one thread.
//!
//! **Determinism and threads.** Pairs are processed in chunks on the rayon pool;
//! each pair's result depends only on its own inputs and last step's entry for
//! the same pair, and the chunks are concatenated in pair order, so the output —
//! order and every bit of every value — is the same for any number of threads.
//! The output is sorted by `(a, b, sub_a, sub_b)`.

use rayon::prelude::*;

use glam::{Mat3A, Vec3, Vec3A};

use crate::narrow::contact_manifolds_apart;
use crate::{Manifold, Pose, Shape};

/// A manifold tagged with the collider slots and sub-shape indices it belongs to.
///
/// Four cache lines, on a line's boundary (`repr(C, align(64))`), the points' user
/// data and their count in the last one (`manifold.rs`): the solver's write-back of
/// its impulses touches that line alone.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(64))]
pub struct PairManifold {
    /// Collider slot of shape A.
    pub a: u32,
    /// Collider slot of shape B.
    pub b: u32,
    /// Compound child / mesh triangle index in A (0 otherwise).
    pub sub_a: u32,
    /// Compound child / mesh triangle index in B (0 otherwise).
    pub sub_b: u32,
    /// The contact.
    pub manifold: Manifold,
}

/// Pairs per parallel task.
const CHUNK: usize = 256;

/// Pairs [`NarrowPhase::refresh_ahead`] refreshes between two looks at its stop.
const AHEAD_BLOCK: usize = 64;

/// What a caller that copies each step's points out of the list (a solver's contact
/// store) is shown by [`NarrowPhase::update_tapped`]: each manifold an update in place
/// leaves where it was, as it stands after the update, while it is still in cache.
///
/// An update split over the pool splits the tap too: each half of its chunks gets the
/// part [`split_front`](Self::split_front) cuts off for it, in list order, and cuts it
/// again for its own halves, down to one part per chunk, which is shown its chunk's
/// manifolds on its thread; each tap takes its parts back through
/// [`absorb`](Self::absorb), the front one first.
pub trait ManifoldTap: Send + Sized {
    /// Manifold `index` of the list (its pair and sub-shapes as before the update; its
    /// points, their number included, may have changed).
    fn manifold(&mut self, index: usize, m: &Manifold);

    /// The part of this tap for the list's manifolds before `end`, which this one no
    /// longer takes (called before any manifold is shown, with `end` ascending).
    fn split_front(&mut self, end: usize) -> Self;

    /// Takes back a part [`split_front`](Self::split_front) cut off, once its chunk is
    /// done (the front-most first).
    fn absorb(&mut self, front: Self);
}

/// A tap that takes nothing ([`NarrowPhase::update`]).
struct NoTap;

impl ManifoldTap for NoTap {
    #[inline(always)]
    fn manifold(&mut self, _: usize, _: &Manifold) {}

    fn split_front(&mut self, _: usize) -> Self {
        NoTap
    }

    fn absorb(&mut self, _: Self) {}
}

/// Per-pair cache entry: the relative pose the pair's manifolds were computed at
/// and where they sit in the manifold list.
#[derive(Clone, Copy, Debug)]
struct PairState {
    a: u32,
    b: u32,
    /// B's pose in A's frame when the manifolds were last computed.
    rel: Pose,
    start: u32,
    count: u32,
    /// A lower bound on the distance between the shapes at `rel`, where they were
    /// found apart (0: unknown, or touching), and B's reach from its origin.
    apart: (f32, f32),
    /// Its manifolds were refreshed ahead of this step's update
    /// ([`NarrowPhase::refresh_ahead`]), as the update would have refreshed them.
    ahead: bool,
}

/// One chunk's output.
struct ChunkOut {
    manifolds: Vec<PairManifold>,
    normals: Vec<Vec3>,
    states: Vec<PairState>,
    recomputed: usize,
}

/// Narrowphase with persistent manifolds (see the module notes).
#[derive(Clone, Debug)]
pub struct NarrowPhase {
    manifolds: Vec<PairManifold>,
    previous: Vec<PairManifold>,
    /// Each manifold's normal in A's local frame (parallel to `manifolds`).
    normals: Vec<Vec3>,
    prev_normals: Vec<Vec3>,
    states: Vec<PairState>,
    prev_states: Vec<PairState>,
    /// The states' pairs `(a, b)`, in order: what the next update's pair list is
    /// compared with.
    keys: Vec<(u32, u32)>,
    match_distance: f32,
    reuse_distance: f32,
    reuse_cos_half_angle: f32,
    parallel: bool,
    recomputed: usize,
    /// Scratch manifolds of the single-threaded in-place update, kept between steps.
    scratch: Vec<(u32, u32, Manifold)>,
    /// Each collider's rotation matrix, made once per in-place update (a collider
    /// sits in several pairs; `rotation` per pair made two matrices each).
    rotations: Vec<Mat3A>,
    /// `rotations` were made for this step's poses by [`NarrowPhase::refresh_ahead`].
    rotations_ahead: bool,
    /// Scratch of the single-threaded full update: a recomputed pair's last manifolds.
    carry: Vec<PairManifold>,
    /// Scratch of the in-place update: pairs whose manifolds changed structure.
    patches: Patches,
    /// Scratch of the in-place update split over the pool: each chunk's first pair
    /// state and the list range of its manifolds, and what each chunk's task leaves
    /// (kept between steps, so a split update allocates nothing once they have grown).
    chunks: Vec<(usize, usize, usize)>,
    chunk_outs: Vec<ChunkWork>,
    /// Scratch of the in-place update: the manifolds of new pairs (`merge_pairs`).
    inserts: Patches,
    /// Whether `merge_pairs` dropped a pair that had manifolds.
    gone: bool,
    /// Scratch of `apply_patches`: runs of kept manifolds `(old start, new start,
    /// length)` and the new manifolds' places `(list, first, new start, count)`.
    runs: Vec<(usize, usize, usize)>,
    fresh_at: Vec<(usize, usize, usize, usize)>,
    /// Whether sorted pair lists are updated in place (`merge_pairs`,
    /// `apply_patches`). Off, every update is the full one (only in the tests that
    /// compare the two).
    splice: bool,
    /// Counts the updates that may have changed the list's layout (see
    /// [`NarrowPhase::layout`]).
    layout: u64,
}

impl Default for NarrowPhase {
    fn default() -> Self {
        Self::new()
    }
}

impl NarrowPhase {
    /// An empty narrowphase: proximity matching within 5 cm; manifolds reused while
    /// the pair's relative pose stays within 0.5 mm and 0.5° of where they were
    /// computed; parallel.
    #[must_use]
    pub fn new() -> Self {
        Self {
            manifolds: Vec::new(),
            previous: Vec::new(),
            normals: Vec::new(),
            prev_normals: Vec::new(),
            states: Vec::new(),
            prev_states: Vec::new(),
            keys: Vec::new(),
            match_distance: 0.05,
            reuse_distance: 5e-4,
            reuse_cos_half_angle: (0.25f32.to_radians()).cos(),
            parallel: true,
            recomputed: 0,
            scratch: Vec::new(),
            rotations: Vec::new(),
            rotations_ahead: false,
            carry: Vec::new(),
            patches: Patches::default(),
            chunks: Vec::new(),
            chunk_outs: Vec::new(),
            inserts: Patches::default(),
            gone: false,
            runs: Vec::new(),
            fresh_at: Vec::new(),
            splice: true,
            layout: 0,
        }
    }

    /// Sets the proximity-matching distance (metres) for points whose feature changed.
    #[must_use]
    pub fn with_match_distance(mut self, d: f32) -> Self {
        self.match_distance = if d.is_finite() { d.max(0.0) } else { 0.0 };
        self
    }

    /// Sets the reuse thresholds: a pair whose relative pose moved less than
    /// `distance` (m) and turned less than `angle` (rad) since its manifolds were
    /// computed keeps them (anchors refreshed). `(0, 0)` recomputes every pair.
    #[must_use]
    pub fn with_reuse_thresholds(mut self, distance: f32, angle: f32) -> Self {
        let ok = |x: f32| if x.is_finite() { x.max(0.0) } else { 0.0 };
        self.reuse_distance = ok(distance);
        let angle = ok(angle);
        self.reuse_cos_half_angle = if angle > 0.0 {
            (0.5 * angle).cos()
        } else {
            2.0
        };
        self
    }

    /// Enables or disables the rayon path (results are identical either way).
    pub fn set_parallel(&mut self, parallel: bool) {
        self.parallel = parallel;
    }

    fn reuse(&self, margin: f32) -> Reuse {
        Reuse {
            d2: self.reuse_distance * self.reuse_distance,
            cos: self.reuse_cos_half_angle,
            margin: if self.reuse_distance > 0.0 {
                margin
            } else {
                f32::INFINITY
            },
        }
    }

    /// A number that changes whenever the manifold list's layout may have changed: its
    /// length, or the `(a, b, sub_a, sub_b)` of any entry. While it stays the same,
    /// entry `k` is the same pair's same manifold as before (its points, their number
    /// included, may have changed); a caller that keeps per-manifold data by index can
    /// keep it. (An update in place whose pairs all kept their manifolds' structure
    /// leaves it; a full update, a splice, [`clear`](Self::clear) change it.)
    #[must_use]
    pub fn layout(&self) -> u64 {
        self.layout
    }

    /// How many pairs were recomputed (not reused) in the last update.
    #[must_use]
    pub fn recomputed_pairs(&self) -> usize {
        self.recomputed
    }

    /// Computes the manifolds of `pairs`, carrying user data over from the last step.
    ///
    /// `shapes[k]` and `poses[k]` are the world shape and pose of collider slot `k`;
    /// pairs naming a slot out of range, or a slot with itself, are skipped. Pairs
    /// need not be sorted (they are sorted here if they are not).
    pub fn update(&mut self, pairs: &[(u32, u32)], shapes: &[Shape], poses: &[Pose], margin: f32) {
        self.update_tapped(pairs, shapes, poses, margin, &mut NoTap);
    }

    /// [`update`](Self::update), showing `tap` every manifold of the list as it stands
    /// after the update, in list order within each chunk, where that is cheap: an
    /// update in place that leaves the list's [`layout`](Self::layout) as it was.
    /// Returns whether it did so; the tap may have been shown some manifolds either
    /// way. (Each manifold is shown as soon as it is refreshed or computed again, so a
    /// caller that copies its points reads them from the cache instead of from the
    /// 250-odd bytes of each manifold again.)
    pub fn update_tapped<T: ManifoldTap>(
        &mut self,
        pairs: &[(u32, u32)],
        shapes: &[Shape],
        poses: &[Pose],
        margin: f32,
        tap: &mut T,
    ) -> bool {
        // Each collider's rotation matrix, once (a collider sits in several pairs).
        if !std::mem::take(&mut self.rotations_ahead) {
            self.rotations.clear();
            self.rotations.extend(poses.iter().map(rotation));
        }
        // Same pair list as last step (the common case), or a sorted one merged with
        // last step's states: update in place, which touches only the points that
        // change, then splice in what changed in structure. (The list is compared with
        // the states' pairs kept apart, 8 bytes a pair, not through the 64-byte states:
        // 53 µs a step on `pyramid_100`'s 15 000 pairs, on one thread.)
        let same = pairs == &self.keys[..];
        self.inserts.clear();
        self.gone = false;
        let fresh = if !self.splice {
            None
        } else if same {
            Some(0)
        } else if self.states.is_empty() {
            // Nothing to merge with (the first update): the full update builds the list
            // directly, where a merge would compute every pair into `inserts` and keep
            // that much room for good (same bits either way).
            None
        } else {
            self.merge_pairs(pairs, shapes, poses, margin)
        };
        if let Some(fresh) = fresh {
            let layout = self.layout;
            self.update_in_place(shapes, poses, margin, tap);
            self.recomputed += fresh;
            if !same {
                self.take_keys();
            }
            return self.layout == layout;
        }
        self.layout = self.layout.wrapping_add(1);
        std::mem::swap(&mut self.manifolds, &mut self.previous);
        std::mem::swap(&mut self.normals, &mut self.prev_normals);
        std::mem::swap(&mut self.states, &mut self.prev_states);
        self.manifolds.clear();
        self.normals.clear();
        self.states.clear();
        let sorted;
        let pairs = if pairs.is_sorted() {
            pairs
        } else {
            let mut p = pairs.to_vec();
            p.sort_unstable();
            p.dedup();
            sorted = p;
            &sorted[..]
        };
        let mut previous = std::mem::take(&mut self.previous);
        let (prev_normals, prev_states) = (&self.prev_normals, &self.prev_states);
        let (match_distance, reuse) = (self.match_distance, self.reuse(margin));
        let rotations = &self.rotations;
        let ctx_of = |prev| Ctx {
            shapes,
            poses,
            rotations,
            margin,
            prev,
            prev_normals,
            prev_states,
            match_tol2: match_distance * match_distance,
            reuse,
        };
        self.recomputed = 0;
        if self.parallel && pairs.len() > CHUNK && rayon::current_num_threads() > 1 {
            let ctx = ctx_of(&previous);
            let mut outs: Vec<ChunkOut> = pairs
                .par_chunks(CHUNK)
                .map(|c| {
                    let mut o = ChunkOut {
                        manifolds: Vec::with_capacity(c.len() + c.len() / 4),
                        normals: Vec::with_capacity(c.len() + c.len() / 4),
                        states: Vec::with_capacity(c.len()),
                        recomputed: 0,
                    };
                    crate::flushed(|| ctx.run(c, &mut o));
                    o
                })
                .collect();
            for o in &mut outs {
                let base = self.manifolds.len() as u32;
                self.recomputed += o.recomputed;
                self.states.extend(o.states.iter().map(|s| PairState {
                    start: s.start + base,
                    ..*s
                }));
                self.manifolds.append(&mut o.manifolds);
                self.normals.append(&mut o.normals);
            }
        } else {
            // One chunk writing straight into our buffers (their capacity is kept), last
            // step's manifolds moved over instead of copied.
            let mut o = ChunkOut {
                manifolds: std::mem::take(&mut self.manifolds),
                normals: std::mem::take(&mut self.normals),
                states: std::mem::take(&mut self.states),
                recomputed: 0,
            };
            let mut tmp = std::mem::take(&mut self.scratch);
            let mut carry = std::mem::take(&mut self.carry);
            ctx_of(&[]).run_moving(pairs, &mut previous, &mut tmp, &mut carry, &mut o);
            (self.scratch, self.carry) = (tmp, carry);
            self.manifolds = o.manifolds;
            self.normals = o.normals;
            self.states = o.states;
            self.recomputed = o.recomputed;
        }
        previous.clear();
        self.previous = previous;
        self.prev_normals.clear();
        self.prev_states.clear();
        self.take_keys();
        false
    }

    /// Refreshes, ahead of this step's update, the manifolds of last step's pairs that
    /// keep them — what the update in place would do first for each of them — from the
    /// first pair on, 64 pairs at a time, until `stop` is set; the update
    /// then takes those pairs as they are (a pair gone from its list is dropped as
    /// before). `shapes`, `poses` and `margin` must be the update's. Each pair's result
    /// is what the update gives it, so the list is the same to the bit however far
    /// this got: a caller may run it on another thread while it finds the pairs.
    /// Returns how many pairs it looked at.
    pub fn refresh_ahead(
        &mut self,
        shapes: &[Shape],
        poses: &[Pose],
        margin: f32,
        stop: &std::sync::atomic::AtomicBool,
    ) -> usize {
        self.rotations.clear();
        self.rotations.extend(poses.iter().map(rotation));
        self.rotations_ahead = true;
        let reuse = self.reuse(margin);
        let (ms, ns, rotations) = (&mut self.manifolds, &self.normals, &self.rotations);
        let mut looked = 0;
        for block in self.states.chunks_mut(AHEAD_BLOCK) {
            if stop.load(std::sync::atomic::Ordering::Acquire) {
                break;
            }
            for st in block.iter_mut() {
                let Some((pa, pb)) = pair_poses(shapes, poses, st.a, st.b) else {
                    continue;
                };
                let rel = pa.inv_mul(pb);
                if !reuse.keeps(&rel, st) {
                    continue;
                }
                let range = st.start as usize..(st.start + st.count) as usize;
                let (Some(ms), Some(ns)) = (ms.get_mut(range.clone()), ns.get(range)) else {
                    continue;
                };
                let (ra, rb) = (rotations[st.a as usize], rotations[st.b as usize]);
                for (m, nl) in ms.iter_mut().zip(ns) {
                    refresh(&mut m.manifold, *nl, (pa, ra), (pb, rb));
                }
                st.ahead = true;
            }
            looked += block.len();
        }
        looked
    }

    /// `keys` from the states, after an update that changed them.
    fn take_keys(&mut self) {
        self.keys.clear();
        self.keys.extend(self.states.iter().map(|s| (s.a, s.b)));
    }

    /// Makes the pair states `pairs`' (sorted) for an update in place: pairs still
    /// listed keep their states (and their manifolds where they lie), pairs gone are
    /// dropped (their manifolds with them, in [`apply_patches`](Self::apply_patches)),
    /// and new pairs are computed now, their manifolds into `inserts`, each with a
    /// state of no manifolds yet. Returns how many pairs were computed, or `None` (and
    /// changes nothing) for an unsorted list.
    fn merge_pairs(
        &mut self,
        pairs: &[(u32, u32)],
        shapes: &[Shape],
        poses: &[Pose],
        margin: f32,
    ) -> Option<usize> {
        if !pairs.is_sorted() {
            return None;
        }
        let mut merged = std::mem::take(&mut self.prev_states);
        merged.clear();
        self.inserts.clear();
        let (mut cursor, mut fresh, mut at) = (0, 0, 0);
        let old = &self.states;
        let keys = &self.keys;
        let mut tmp = std::mem::take(&mut self.scratch);
        let mut gone = false;
        let mut i = 0;
        while let Some(&(a, b)) = pairs.get(i) {
            // A run of pairs listed as before: their states copied at once (a settling
            // heap's list changes by a few pairs a step, out of thousands).
            let run = same_run(&pairs[i..], keys.get(cursor..old.len()).unwrap_or(&[]));
            if run > 0 {
                let states = &old[cursor..cursor + run];
                merged.extend_from_slice(states);
                at = states.last().map_or(at, |st| st.start + st.count);
                (i, cursor) = (i + run, cursor + run);
                continue;
            }
            i += 1;
            while let Some(st) = old.get(cursor).filter(|s| (s.a, s.b) < (a, b)) {
                gone |= st.count > 0;
                cursor += 1;
            }
            if let Some(st) = old.get(cursor).filter(|s| (s.a, s.b) == (a, b)) {
                merged.push(*st);
                at = st.start + st.count;
                cursor += 1;
                continue;
            }
            let Some((pa, pb)) = pair_poses(shapes, poses, a, b) else {
                continue;
            };
            tmp.clear();
            let apart = contact_manifolds_apart(
                &shapes[a as usize],
                pa,
                &shapes[b as usize],
                pb,
                margin,
                &mut tmp,
            );
            fresh += 1;
            let rel = pa.inv_mul(pb);
            if !tmp.is_empty() {
                let before = self.inserts.manifolds.len();
                fresh_manifolds(
                    (a, b),
                    pa,
                    &mut tmp,
                    &[],
                    self.match_distance * self.match_distance,
                    &mut self.inserts,
                );
                let count = (self.inserts.manifolds.len() - before) as u32;
                self.inserts.at.push((merged.len() as u32, count, rel));
            }
            merged.push(PairState {
                a,
                b,
                rel,
                start: at,
                count: 0,
                apart,
                ahead: false,
            });
        }
        gone |= old
            .get(cursor..)
            .is_some_and(|rest| rest.iter().any(|s| s.count > 0));
        self.gone = gone;
        self.scratch = tmp;
        self.prev_states = std::mem::replace(&mut self.states, merged);
        self.prev_states.clear();
        Some(fresh)
    }

    /// The update in place, over the pair states (last step's, or `merge_pairs`'):
    /// every pair's manifolds refreshed or recomputed where they lie, then the
    /// changes spliced in ([`apply_patches`](Self::apply_patches)). `tap` is shown
    /// each manifold that keeps its place.
    fn update_in_place<T: ManifoldTap>(
        &mut self,
        shapes: &[Shape],
        poses: &[Pose],
        margin: f32,
        tap: &mut T,
    ) {
        let ctx = InPlace {
            shapes,
            poses,
            rotations: &self.rotations,
            margin,
            match_tol2: self.match_distance * self.match_distance,
            reuse: self.reuse(margin),
        };
        let total = self.states.len();
        let split = self.parallel && total > CHUNK && rayon::current_num_threads() > 1;
        // (The split's lists are made ready on every update, so that the first step
        // that splits, once the pool's helper has come, allocates no more than the
        // others.)
        let n = total.div_ceil(CHUNK);
        self.chunks.clear();
        self.chunks.reserve(n);
        if self.chunk_outs.len() < n {
            self.chunk_outs.resize_with(n, ChunkWork::default);
        }
        let recomputed = if split {
            // Chunks of `CHUNK` pair states and the manifolds they own. (Manifolds of
            // pairs gone since last step may lie between two chunks.)
            for (k, c) in self.states.chunks(CHUNK).enumerate() {
                let begin = c.first().map_or(0, |x| x.start as usize);
                let end = c.last().map_or(0, |x| (x.start + x.count) as usize);
                self.chunks.push((k * CHUNK, begin, end));
            }
            let lists = (
                &mut self.states[..],
                &mut self.manifolds[..],
                &mut self.normals[..],
                0,
            );
            run_chunks(&ctx, &self.chunks, lists, &mut self.chunk_outs[..n], tap);
            // Each chunk's patches, in chunk order.
            self.patches.clear();
            let mut all = 0;
            for out in &mut self.chunk_outs[..n] {
                all += out.recomputed;
                self.patches.append(&mut out.patches);
            }
            all
        } else {
            self.patches.clear();
            ctx.run(
                (&mut self.states, 0),
                &mut self.manifolds,
                &mut self.normals,
                0,
                (&mut self.scratch, tap),
                &mut self.patches,
            )
        };
        self.recomputed = recomputed;
        if !(self.patches.at.is_empty() && self.inserts.at.is_empty() && !self.gone) {
            self.apply_patches();
        }
    }

    /// Builds the manifold list of the pair states: each pair's manifolds where they
    /// lie, those of pairs gone dropped, the new manifolds of new pairs (`inserts`)
    /// and of pairs whose manifolds changed structure (`patches`) spliced in, in place:
    /// only the runs of others whose place changes are moved. Renumbers the states.
    fn apply_patches(&mut self) {
        self.layout = self.layout.wrapping_add(1);
        // The new layout: runs of old manifolds that stay together (`(old start, new
        // start, length)`) and the patched pairs' new manifolds at their new places.
        let mut runs = std::mem::take(&mut self.runs);
        let mut fresh = std::mem::take(&mut self.fresh_at);
        runs.clear();
        fresh.clear();
        let mut end = 0usize;
        {
            let lists = [&self.patches.at, &self.inserts.at];
            // Each list's next entry and where its manifolds start in the list's own.
            let (mut next, mut from) = ([0usize; 2], [0usize; 2]);
            let states = &mut self.states[..];
            let n = states.len();
            // The state a list's next entry is for (`n`: none; an entry behind the
            // states passed is never taken, nor any after it).
            let head = |l: usize, next: &[usize; 2], i: usize| {
                lists[l]
                    .get(next[l])
                    .map(|e| e.0 as usize)
                    .filter(|&k| k >= i)
                    .unwrap_or(n)
            };
            let mut i = 0;
            while i < n {
                // The states up to the next patched one: their manifolds in runs.
                let stop = head(0, &next, i).min(head(1, &next, i));
                for st in &mut states[i..stop] {
                    if st.count > 0 {
                        let old = st.start as usize;
                        match runs.last_mut() {
                            Some((o, s, len)) if *o + *len == old && *s + *len == end => {
                                *len += st.count as usize;
                            }
                            _ => runs.push((old, end, st.count as usize)),
                        }
                    }
                    st.start = end as u32;
                    end += st.count as usize;
                }
                i = stop;
                let Some(st) = states.get_mut(i) else {
                    break;
                };
                // A patched state (the patches' entry first where both have one).
                let l = usize::from(head(0, &next, i) != i);
                let (_, count, rel) = lists[l][next[l]];
                fresh.push((l, from[l], end, count as usize));
                next[l] += 1;
                from[l] += count as usize;
                (st.count, st.rel) = (count, rel);
                st.start = end as u32;
                end += count as usize;
                i += 1;
            }
        }
        // The runs moved within the list, in an order that reads each before anything
        // overwrites it (new places never overlap): those moving towards the front
        // first, front to back, then those moving towards the back, back to front. Runs
        // that stay where they are (all before the first change) are not touched.
        // (Room for a longer list: any manifold fills it until it is overwritten.)
        let filler = self.manifolds.first().or(self.patches.manifolds.first());
        if let Some(&filler) = filler.or(self.inserts.manifolds.first())
            && end > self.manifolds.len()
        {
            self.manifolds.resize(end, filler);
            self.normals.resize(end, Vec3::ZERO);
        }
        let (ms, ns) = (&mut self.manifolds, &mut self.normals);
        let mut shift = |&(old, new, len): &(usize, usize, usize)| {
            if old != new {
                ms.copy_within(old..old + len, new);
                ns.copy_within(old..old + len, new);
            }
        };
        runs.iter().filter(|r| r.1 <= r.0).for_each(&mut shift);
        runs.iter().rev().filter(|r| r.1 > r.0).for_each(&mut shift);
        let lists = [&self.patches, &self.inserts];
        for &(l, from, at, n) in &fresh {
            ms[at..at + n].copy_from_slice(&lists[l].manifolds[from..from + n]);
            ns[at..at + n].copy_from_slice(&lists[l].normals[from..from + n]);
        }
        ms.truncate(end);
        ns.truncate(end);
        self.patches.clear();
        self.inserts.clear();
        (self.runs, self.fresh_at) = (runs, fresh);
    }

    /// This step's manifolds in ascending `(a, b, sub_a, sub_b)` order.
    #[must_use]
    pub fn manifolds(&self) -> &[PairManifold] {
        &self.manifolds
    }

    /// Mutable access (for the solver to store its impulses in the points' user data).
    pub fn manifolds_mut(&mut self) -> &mut [PairManifold] {
        &mut self.manifolds
    }

    /// Forgets what is cached for collider slot `key` (call it when the slot's
    /// shape is replaced or the slot is reused for another collider): its pairs
    /// are recomputed at the next update and their user data starts at zero.
    pub fn forget_collider(&mut self, key: u32) {
        for st in &mut self.states {
            if st.a == key || st.b == key {
                st.rel.position = Vec3::NAN;
                let range = st.start as usize..(st.start + st.count) as usize;
                for m in &mut self.manifolds[range] {
                    for (p, user) in m.manifold.points.iter_with_users_mut() {
                        *user = [0.0; 3];
                        p.feature = crate::FeatureId(u32::MAX);
                    }
                }
            }
        }
    }

    /// Forgets every manifold.
    pub fn clear(&mut self) {
        self.layout = self.layout.wrapping_add(1);
        self.rotations_ahead = false;
        self.manifolds.clear();
        self.normals.clear();
        self.states.clear();
        self.keys.clear();
    }
}

/// What one chunk's task of a split in-place update leaves: how many of its pairs it
/// computed afresh, its patches, and its scratch manifolds.
#[derive(Clone, Debug, Default)]
struct ChunkWork {
    recomputed: usize,
    patches: Patches,
    scratch: Vec<(u32, u32, Manifold)>,
}

/// The in-place update of the chunks `chunks` (each chunk's first pair state, and the
/// list range of its manifolds) over the lists `states`, `ms` and `ns` (the manifolds'
/// and normals' from list index `base`), chunk `k`'s results in `outs[k]`: the two
/// halves of the chunks on two of the pool's tasks (`rayon::join`, whose jobs live on
/// the stack), down to one chunk a task. `tap` gives each half its part
/// ([`ManifoldTap::split_front`]) and takes them back after, the front one first: a
/// chunk's manifolds are shown to a part that only its chunk sees.
fn run_chunks<T: ManifoldTap>(
    ctx: &InPlace<'_>,
    chunks: &[(usize, usize, usize)],
    (states, ms, ns, base): (&mut [PairState], &mut [PairManifold], &mut [Vec3], usize),
    outs: &mut [ChunkWork],
    tap: &mut T,
) {
    let (Some(&(first, begin, end)), Some(out)) = (chunks.first(), outs.first_mut()) else {
        return;
    };
    if chunks.len() == 1 {
        let (m, n) = (
            &mut ms[begin - base..end - base],
            &mut ns[begin - base..end - base],
        );
        let ChunkWork {
            recomputed,
            patches,
            scratch,
        } = out;
        patches.clear();
        *recomputed =
            crate::flushed(|| ctx.run((states, first), m, n, begin, (scratch, tap), patches));
        return;
    }
    let mid = chunks.len() / 2;
    let (front, back) = chunks.split_at(mid);
    let (Some(&(_, _, front_end)), Some(&(back_first, back_begin, _)), Some(&(_, _, end))) =
        (front.last(), back.first(), back.last())
    else {
        return;
    };
    let (s0, s1) = states.split_at_mut(back_first - first);
    let (m0, m1) = ms.split_at_mut(back_begin - base);
    let (n0, n1) = ns.split_at_mut(back_begin - base);
    let (o0, o1) = outs.split_at_mut(mid);
    let mut parts = [tap.split_front(front_end), tap.split_front(end)];
    let [p0, p1] = &mut parts;
    rayon::join(
        || run_chunks(ctx, front, (s0, m0, n0, base), o0, p0),
        || run_chunks(ctx, back, (s1, m1, n1, back_begin), o1, p1),
    );
    for part in parts {
        tap.absorb(part);
    }
}

/// Inputs of the in-place update.
struct InPlace<'a> {
    shapes: &'a [Shape],
    poses: &'a [Pose],
    /// `rotation` of each pose.
    rotations: &'a [Mat3A],
    margin: f32,
    match_tol2: f32,
    reuse: Reuse,
}

impl InPlace<'_> {
    /// Updates the pairs `states` (the first is pair state `first`) whose manifolds
    /// are `ms` (offset `begin` in the full list). A pair whose recomputed manifolds
    /// differ in number or sub-shapes keeps its old ones here; its new ones go into
    /// `patches` for [`NarrowPhase::apply_patches`], as do the pairs without a shape
    /// or pose now (no manifolds). `tap` is shown every manifold that keeps its place,
    /// once it is refreshed or computed again. Returns how many pairs were recomputed.
    fn run<T: ManifoldTap>(
        &self,
        (states, first): (&mut [PairState], usize),
        ms: &mut [PairManifold],
        ns: &mut [Vec3],
        begin: usize,
        (tmp, tap): (&mut Vec<(u32, u32, Manifold)>, &mut T),
        patches: &mut Patches,
    ) -> usize {
        let mut recomputed = 0;
        for (i, st) in states.iter_mut().enumerate() {
            if std::mem::take(&mut st.ahead) {
                // Refreshed ahead of the update, as below: only shown to the tap.
                let at = st.start as usize;
                for (k, m) in ms[at - begin..at - begin + st.count as usize]
                    .iter()
                    .enumerate()
                {
                    tap.manifold(at + k, &m.manifold);
                }
                continue;
            }
            let Some((pa, pb)) = pair_poses(self.shapes, self.poses, st.a, st.b) else {
                // No shape or pose (the caller's slot is out of range): no manifolds,
                // and computed afresh once it has them again.
                let mut rel = st.rel;
                rel.position = Vec3::NAN;
                st.apart = (0.0, 0.0);
                patches.at.push(((first + i) as u32, 0, rel));
                continue;
            };
            let (ia, ib) = (st.a as usize, st.b as usize);
            let rel = pa.inv_mul(pb);
            let range = st.start as usize - begin..(st.start + st.count) as usize - begin;
            if self.reuse.keeps(&rel, st) {
                if !range.is_empty() {
                    let (ra, rb) = (self.rotations[ia], self.rotations[ib]);
                    let at = range.start + begin;
                    for (k, (m, nl)) in ms[range.clone()].iter_mut().zip(&ns[range]).enumerate() {
                        refresh(&mut m.manifold, *nl, (pa, ra), (pb, rb));
                        tap.manifold(at + k, &m.manifold);
                    }
                }
                continue;
            }
            recomputed += 1;
            tmp.clear();
            st.apart = contact_manifolds_apart(
                &self.shapes[ia],
                pa,
                &self.shapes[ib],
                pb,
                self.margin,
                tmp,
            );
            let same_shape = tmp.len() == range.len()
                && tmp
                    .iter()
                    .zip(&ms[range.clone()])
                    .all(|(t, m)| (t.0, t.1) == (m.sub_a, m.sub_b));
            if !same_shape {
                // The pair's new manifolds, for the caller to splice in.
                let old = &ms[range];
                let before = patches.manifolds.len();
                fresh_manifolds((st.a, st.b), pa, tmp, old, self.match_tol2, patches);
                let count = (patches.manifolds.len() - before) as u32;
                patches.at.push(((first + i) as u32, count, rel));
                continue;
            }
            // Each new manifold over its old one where it lies, its points only (a
            // whole manifold is 250-odd bytes, most of them empty point slots).
            let at = range.start + begin;
            for (k, ((_, _, manifold), (old, nl))) in tmp
                .iter_mut()
                .zip(ms[range.clone()].iter_mut().zip(&mut ns[range.clone()]))
                .enumerate()
            {
                carry_user(manifold, &old.manifold, self.match_tol2);
                *nl = pa.inverse_transform_vector(manifold.normal);
                old.manifold.normal = manifold.normal;
                old.manifold.points = manifold.points;
                tap.manifold(at + k, &old.manifold);
            }
            tmp.clear();
            st.rel = rel;
        }
        recomputed
    }
}

/// Read-only inputs shared by the chunks.
struct Ctx<'a> {
    shapes: &'a [Shape],
    poses: &'a [Pose],
    /// Each collider's rotation matrix (`rotation` of its pose).
    rotations: &'a [Mat3A],
    margin: f32,
    prev: &'a [PairManifold],
    prev_normals: &'a [Vec3],
    prev_states: &'a [PairState],
    match_tol2: f32,
    reuse: Reuse,
}

impl Ctx<'_> {
    /// [`run`](Self::run) over all the pairs on one thread, with the same results, but
    /// moving last step's manifolds out of `prev` (what `run` reads as `self.prev`; it
    /// is left empty) into `out` instead of copying them. `tmp` and `carry` are scratch.
    fn run_moving(
        &self,
        pairs: &[(u32, u32)],
        prev: &mut Vec<PairManifold>,
        tmp: &mut Vec<(u32, u32, Manifold)>,
        carry: &mut Vec<PairManifold>,
        out: &mut ChunkOut,
    ) {
        let states = self.prev_states;
        let mut old = prev.drain(..).zip(self.prev_normals.iter().copied());
        let mut cursor = 0;
        for &(a, b) in pairs {
            let Some((pa, pb)) = pair_poses(self.shapes, self.poses, a, b) else {
                continue;
            };
            let (ia, ib) = (a as usize, b as usize);
            let rel = pa.inv_mul(pb);
            // Pairs gone since last step: their manifolds are dropped.
            while cursor < states.len() && (states[cursor].a, states[cursor].b) < (a, b) {
                old.by_ref()
                    .take(states[cursor].count as usize)
                    .for_each(drop);
                cursor += 1;
            }
            let st = states.get(cursor).filter(|s| (s.a, s.b) == (a, b)).copied();
            cursor += usize::from(st.is_some());
            if let Some(mut st) = st
                && self.reuse.keeps(&rel, &mut st)
            {
                // Reuse, as in `run`.
                let start = out.manifolds.len() as u32;
                if st.count > 0 {
                    let (ra, rb) = (self.rotations[ia], self.rotations[ib]);
                    for (mut m, nl) in old.by_ref().take(st.count as usize) {
                        refresh(&mut m.manifold, nl, (pa, ra), (pb, rb));
                        out.manifolds.push(m);
                        out.normals.push(nl);
                    }
                }
                out.states.push(PairState {
                    start,
                    ahead: false,
                    ..st
                });
                continue;
            }
            carry.clear();
            if let Some(st) = st {
                carry.extend(old.by_ref().take(st.count as usize).map(|(m, _)| m));
            }
            let fresh = Fresh {
                a,
                b,
                poses: (pa, pb),
                rel,
                margin: self.margin,
                match_tol2: self.match_tol2,
            };
            fresh.push((&self.shapes[ia], &self.shapes[ib]), carry, tmp, out);
        }
    }

    fn run(&self, chunk: &[(u32, u32)], out: &mut ChunkOut) {
        let mut tmp = Vec::new();
        // Pairs and states are both sorted: walk them together.
        let mut cursor = chunk
            .first()
            .map_or(0, |&f| self.prev_states.partition_point(|s| (s.a, s.b) < f));
        for &(a, b) in chunk {
            let Some((pa, pb)) = pair_poses(self.shapes, self.poses, a, b) else {
                continue;
            };
            let (ia, ib) = (a as usize, b as usize);
            let rel = pa.inv_mul(pb);
            while cursor < self.prev_states.len()
                && (self.prev_states[cursor].a, self.prev_states[cursor].b) < (a, b)
            {
                cursor += 1;
            }
            let old = self
                .prev_states
                .get(cursor)
                .filter(|s| (s.a, s.b) == (a, b))
                .copied();
            let start = out.manifolds.len() as u32;
            if let Some(mut st) = old
                && self.reuse.keeps(&rel, &mut st)
            {
                // Reuse: same manifolds, anchors re-evaluated at the new poses.
                let range = st.start as usize..(st.start + st.count) as usize;
                if !range.is_empty() {
                    let (ra, rb) = (self.rotations[ia], self.rotations[ib]);
                    for (m, nl) in self.prev[range.clone()]
                        .iter()
                        .zip(&self.prev_normals[range])
                    {
                        let mut m = *m;
                        refresh(&mut m.manifold, *nl, (pa, ra), (pb, rb));
                        out.manifolds.push(m);
                        out.normals.push(*nl);
                    }
                }
                out.states.push(PairState {
                    a,
                    b,
                    rel: st.rel,
                    start,
                    count: st.count,
                    apart: st.apart,
                    ahead: false,
                });
                continue;
            }
            let old_ms = old.map_or(&[][..], |st| {
                &self.prev[st.start as usize..(st.start + st.count) as usize]
            });
            let shapes = (&self.shapes[ia], &self.shapes[ib]);
            let fresh = Fresh {
                a,
                b,
                poses: (pa, pb),
                rel,
                margin: self.margin,
                match_tol2: self.match_tol2,
            };
            fresh.push(shapes, old_ms, &mut tmp, out);
        }
    }
}

/// The reuse thresholds: squared distance (m²) and cosine of half the angle; the
/// contact margin (infinite where reuse is off).
#[derive(Clone, Copy, Debug)]
struct Reuse {
    d2: f32,
    cos: f32,
    margin: f32,
}

impl Reuse {
    /// Whether a pair whose relative pose is now `rel` keeps the manifolds it had at
    /// `st.rel`: within the distance and the angle, or found apart and not moved far
    /// enough since to come within the margin (module notes). A pair kept apart is
    /// looked at from `rel` on, its distance bound lowered by what it may have moved,
    /// so that while it rests it passes the first test again.
    #[inline]
    fn keeps(self, rel: &Pose, st: &mut PairState) -> bool {
        let d2 = (rel.position - st.rel.position).length_squared();
        let cos = rel.rotation.dot(st.rel.rotation).abs();
        if d2 <= self.d2 && cos >= self.cos {
            return true;
        }
        let (gap, reach) = st.apart;
        if gap <= self.margin {
            return false;
        }
        // (B's points move by at most |Δt| + 2·sin(θ/2)·reach in A's frame.)
        let moved = d2.sqrt() + 2.0 * (1.0 - cos * cos).max(0.0).sqrt() * reach;
        let still = moved < gap - self.margin;
        if still {
            (st.rel, st.apart.0) = (*rel, gap - moved);
        }
        still
    }
}

/// How many pairs `pairs` and `keys` have alike from their starts, found a block at a
/// time (a block compare is a memory compare; `merge_pairs`' runs are long).
fn same_run(pairs: &[(u32, u32)], keys: &[(u32, u32)]) -> usize {
    const BLOCK: usize = 32;
    let n = pairs.len().min(keys.len());
    let mut k = 0;
    while k + BLOCK <= n && pairs[k..k + BLOCK] == keys[k..k + BLOCK] {
        k += BLOCK;
    }
    while k < n && pairs[k] == keys[k] {
        k += 1;
    }
    k
}

/// The poses of a pair of distinct collider slots that both have a shape and a pose.
#[inline]
fn pair_poses<'a>(
    shapes: &[Shape],
    poses: &'a [Pose],
    a: u32,
    b: u32,
) -> Option<(&'a Pose, &'a Pose)> {
    let n = shapes.len().min(poses.len());
    (a != b && (a as usize) < n && (b as usize) < n)
        .then(|| (&poses[a as usize], &poses[b as usize]))
}

/// A pose's rotation as a matrix of SIMD columns (`refresh`'s products: the same
/// operations in the same order as with `Mat3`, so the same bits, in fewer instructions).
#[inline]
fn rotation(p: &Pose) -> Mat3A {
    Mat3A::from(p.rotation_matrix())
}

/// A reused manifold at new poses: its normal (`nl`, in A's frame) and its points'
/// positions and separations re-evaluated from their anchors.
#[inline]
fn refresh(m: &mut Manifold, nl: Vec3, (pa, ra): (&Pose, Mat3A), (pb, rb): (&Pose, Mat3A)) {
    let n = ra * Vec3A::from(nl);
    m.normal = n.into();
    let (oa, ob) = (Vec3A::from(pa.position), Vec3A::from(pb.position));
    for p in &mut m.points {
        let xa = ra * Vec3A::from(p.local_a) + oa;
        let xb = rb * Vec3A::from(p.local_b) + ob;
        p.point = ((xa + xb) * 0.5).into();
        p.separation = n.dot(xb - xa);
    }
}

/// A pair whose manifolds are computed afresh.
struct Fresh<'a> {
    a: u32,
    b: u32,
    poses: (&'a Pose, &'a Pose),
    /// B's pose in A's frame.
    rel: Pose,
    margin: f32,
    match_tol2: f32,
}

impl Fresh<'_> {
    /// Computes the pair's manifolds into `out`, carrying user data over from `old`
    /// (its manifolds of last step, ascending by sub-shapes); `tmp` is scratch.
    fn push(
        &self,
        (sa, sb): (&Shape, &Shape),
        old: &[PairManifold],
        tmp: &mut Vec<(u32, u32, Manifold)>,
        out: &mut ChunkOut,
    ) {
        let (a, b) = (self.a, self.b);
        let (pa, pb) = self.poses;
        out.recomputed += 1;
        let start = out.manifolds.len() as u32;
        tmp.clear();
        let apart = contact_manifolds_apart(sa, pa, sb, pb, self.margin, tmp);
        fresh_manifolds((a, b), pa, tmp, old, self.match_tol2, out);
        let count = out.manifolds.len() as u32 - start;
        out.states.push(PairState {
            a,
            b,
            rel: self.rel,
            start,
            count,
            apart,
            ahead: false,
        });
    }
}

/// Where freshly computed manifolds go, with their normals in A's frame.
trait ManifoldSink {
    fn push(&mut self, m: PairManifold, normal_in_a: Vec3);
}

impl ManifoldSink for ChunkOut {
    fn push(&mut self, m: PairManifold, normal_in_a: Vec3) {
        self.normals.push(normal_in_a);
        self.manifolds.push(m);
    }
}

/// New manifolds of pairs updated in place whose manifolds changed in number or
/// sub-shapes: `at` lists (pair state, manifold count, relative pose they were computed
/// at) in pair order; their manifolds and normals follow one another.
#[derive(Clone, Debug, Default)]
struct Patches {
    at: Vec<(u32, u32, Pose)>,
    manifolds: Vec<PairManifold>,
    normals: Vec<Vec3>,
}

impl ManifoldSink for Patches {
    fn push(&mut self, m: PairManifold, normal_in_a: Vec3) {
        self.normals.push(normal_in_a);
        self.manifolds.push(m);
    }
}

impl Patches {
    fn clear(&mut self) {
        self.at.clear();
        self.manifolds.clear();
        self.normals.clear();
    }

    fn append(&mut self, other: &mut Patches) {
        self.at.append(&mut other.at);
        self.manifolds.append(&mut other.manifolds);
        self.normals.append(&mut other.normals);
    }
}

/// The manifolds `tmp` just computed for pair `(a, b)` (A at `pa`) into `out`, each
/// carrying the user data of `old`'s manifold of the same sub-shapes (`old` ascending
/// by sub-shapes).
fn fresh_manifolds(
    (a, b): (u32, u32),
    pa: &Pose,
    tmp: &mut Vec<(u32, u32, Manifold)>,
    old: &[PairManifold],
    match_tol2: f32,
    out: &mut impl ManifoldSink,
) {
    let mut j = 0;
    for (sub_a, sub_b, manifold) in tmp.drain(..) {
        let mut pm = PairManifold {
            a,
            b,
            sub_a,
            sub_b,
            manifold,
        };
        while j < old.len() && (old[j].sub_a, old[j].sub_b) < (sub_a, sub_b) {
            j += 1;
        }
        if j < old.len() && (old[j].sub_a, old[j].sub_b) == (sub_a, sub_b) {
            carry_user(&mut pm.manifold, &old[j].manifold, match_tol2);
        }
        let nl = pa.inverse_transform_vector(pm.manifold.normal);
        out.push(pm, nl);
    }
}

/// Copies the points' user data from the old manifold's points to the new one's: by
/// feature id, then by proximity of the A anchors (within `tol2`, squared metres).
fn carry_user(new: &mut Manifold, old: &Manifold, tol2: f32) {
    let mut used = [false; 8];
    // The old point each new point takes its data from.
    let mut carried = [None; 8];
    for (pi, p) in new.points.iter().enumerate().take(8) {
        for (k, q) in old.points.iter().enumerate().take(8) {
            if !used[k] && q.feature == p.feature {
                used[k] = true;
                carried[pi] = Some(k);
                break;
            }
        }
    }
    if new.normal.dot(old.normal) > 0.7 {
        by_anchor(new, old, tol2, &mut used, &mut carried);
    }
    let from = old.points.users();
    for (user, k) in new.points.users_mut().iter_mut().zip(carried) {
        if let Some(k) = k {
            *user = from[k];
        }
    }
}

/// `carry_user`'s second pass: each point not matched by feature takes the nearest
/// unused old point whose A anchor lies within `tol2` of its own.
fn by_anchor(
    new: &Manifold,
    old: &Manifold,
    tol2: f32,
    used: &mut [bool; 8],
    carried: &mut [Option<usize>; 8],
) {
    for (pi, p) in new.points.iter().enumerate().take(8) {
        if carried[pi].is_some() {
            continue;
        }
        let mut best = None;
        let mut bd = tol2;
        for (k, q) in old.points.iter().enumerate().take(8) {
            let d = (q.local_a - p.local_a).length_squared();
            if !used[k] && d <= bd {
                bd = d;
                best = Some(k);
            }
        }
        if let Some(k) = best {
            used[k] = true;
            carried[pi] = Some(k);
        }
    }
}

#[cfg(test)]
mod tests {
    use glam::{Quat, Vec3};

    use super::*;

    /// Pairs closing in from apart, turning as they come (boxes, a capsule and a sphere,
    /// two capsules): the cache skips the pairs
    /// still too far apart to touch (fewer pairs computed than steps), and never one
    /// that touches — whenever a fresh computation finds a point at or below zero
    /// separation, the cached manifolds are the fresh ones, point for point. (With the
    /// distance-and-angle reuse all but off, so that only the rule for pairs apart
    /// keeps anything.)
    #[test]
    fn pairs_kept_apart_are_computed_again_before_they_touch() {
        let mut uniform = crate::test_rng(99);
        let mut rnd = move || uniform() - 0.5;
        let boxes = [
            Shape::cuboid(Vec3::new(0.5, 0.3, 0.4)).unwrap(),
            Shape::cuboid(Vec3::new(0.2, 0.6, 0.5)).unwrap(),
        ];
        // (A capsule first and a sphere second: the dispatch takes the sphere first
        // and flips the answer.)
        let rounded = [
            Shape::capsule(0.4, 0.3).unwrap(),
            Shape::sphere(0.5).unwrap(),
        ];
        let capsules = [
            Shape::capsule(0.5, 0.2).unwrap(),
            Shape::capsule(0.3, 0.35).unwrap(),
        ];
        for shapes in [&boxes, &rounded, &capsules] {
            let (mut computed, mut steps, mut touching) = (0, 0, 0);
            for _ in 0..40 {
                let mut np = NarrowPhase::new().with_reuse_thresholds(1e-9, 1e-9);
                let mut fresh = NarrowPhase::new().with_reuse_thresholds(0.0, 0.0);
                let axis = Vec3::new(rnd(), rnd(), rnd()).normalize();
                let spin = Vec3::new(rnd(), rnd(), rnd()) * 0.05;
                let start = Pose::new(axis * 2.0, Quat::from_scaled_axis(Vec3::splat(rnd() * 3.0)));
                let a = Pose::new(
                    Vec3::ZERO,
                    Quat::from_scaled_axis(Vec3::new(rnd(), rnd(), rnd())),
                );
                for k in 0..150 {
                    let b = Pose::new(
                        start.position - axis * (k as f32 * 0.012),
                        Quat::from_scaled_axis(spin * k as f32) * start.rotation,
                    );
                    np.update(&[(0, 1)], shapes, &[a, b], 0.02);
                    fresh.update(&[(0, 1)], shapes, &[a, b], 0.02);
                    computed += np.recomputed_pairs();
                    steps += 1;
                    let f = fresh.manifolds();
                    if f.iter()
                        .any(|m| m.manifold.points.iter().any(|p| p.separation <= 0.0))
                    {
                        touching += 1;
                        let same = np.manifolds().iter().zip(f).all(|(x, y)| {
                            x.manifold.points.iter().map(|p| p.point).eq(y
                                .manifold
                                .points
                                .iter()
                                .map(|p| p.point))
                        });
                        assert!(same && np.manifolds().len() == f.len(), "step {k}");
                    }
                }
            }
            assert!(touching > 100, "{touching} touching steps");
            assert!(computed < steps * 3 / 4, "{computed} of {steps} computed");
        }
    }

    /// A cleared narrowphase given the pair list it had before computes the pairs again,
    /// as a new one does (the list is compared with the states' pairs, which `clear`
    /// drops with the states).
    #[test]
    fn a_cleared_narrowphase_computes_the_same_list_again() {
        let shapes = vec![Shape::cuboid(Vec3::splat(0.5)).unwrap(); 3];
        let poses: Vec<Pose> = (0..3)
            .map(|i| Pose::new(Vec3::new(i as f32 * 0.99, 0.0, 0.0), Quat::IDENTITY))
            .collect();
        let pairs = [(0, 1), (1, 2)];
        let mut np = NarrowPhase::new();
        np.update(&pairs, &shapes, &poses, 0.02);
        let first = np.manifolds().to_vec();
        assert_eq!(first.len(), 2, "neighbours touch");
        np.clear();
        np.update(&pairs, &shapes, &poses, 0.02);
        let mut fresh = NarrowPhase::new();
        fresh.update(&pairs, &shapes, &poses, 0.02);
        assert_eq!(np.manifolds(), fresh.manifolds());
        assert_eq!(np.manifolds().len(), 2);
    }

    /// Every manifold a tap was shown, in the order the parts come back.
    #[derive(Default)]
    struct Record(Vec<(usize, Manifold)>);

    impl ManifoldTap for Record {
        fn manifold(&mut self, index: usize, m: &Manifold) {
            self.0.push((index, *m));
        }

        fn split_front(&mut self, _: usize) -> Self {
            Record::default()
        }

        fn absorb(&mut self, mut front: Self) {
            self.0.append(&mut front.0);
        }
    }

    /// A pair list that gains or loses pairs without contact is merged in place, and
    /// pairs whose manifolds appear or vanish are spliced in; the manifolds, their
    /// order, the carried user data, the pair states and the count of recomputed
    /// pairs are those of the full update — on one thread and in parallel chunks.
    /// Where an update says it showed its tap the whole list, the tap saw each
    /// manifold once, in order, as the update left it.
    #[test]
    fn in_place_updates_match_the_full_update() {
        // Rows of unit cubes along x, neighbours touching, a slight tilt each; the
        // rows far apart in z. 40 rows: more pairs than a parallel chunk.
        let (n, rows) = (8u32, 40u32);
        let count = n * rows;
        let shapes: Vec<Shape> = (0..count)
            .map(|_| Shape::cuboid(Vec3::splat(0.5)).unwrap())
            .collect();
        let poses_at = |dx: f32| -> Vec<Pose> {
            (0..count)
                .map(|k| {
                    let (i, r) = (k % n, k / n);
                    let q = Quat::from_rotation_y(0.01 * i as f32);
                    Pose::new(Vec3::new(i as f32 * (0.999 + dx), 0.0, r as f32 * 5.0), q)
                })
                .collect()
        };
        let row_pairs = |keep: &dyn Fn(u32, u32) -> bool| -> Vec<(u32, u32)> {
            (0..rows)
                .flat_map(|r| (0..n).flat_map(move |a| (a + 1..n).map(move |b| (a, b, r))))
                .filter(|&(a, b, _)| keep(a, b))
                .map(|(a, b, r)| (r * n + a, r * n + b))
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect()
        };
        let all = row_pairs(&|_, _| true);
        // Far pairs (no contact) dropped in turn; the touching neighbours always kept.
        let some_gone =
            |k: u32| row_pairs(&move |a, b| b == a + 1 || !(a + b + k).is_multiple_of(3));
        // Touching pairs gone (their manifolds dropped) and back (computed anew).
        let no_first = row_pairs(&|a, b| (a, b) != (0, 1) && (a, b) != (4, 5));
        // Small moves (manifolds reused), pairs without contact gone and back, the
        // rows pulled apart beyond the margin (the neighbours' manifolds vanish: pairs
        // spliced) and pushed together again (they come back), touching pairs gone and
        // back.
        let steps = [
            (all.clone(), 0.0),
            (some_gone(0), 1e-4),
            (some_gone(1), 2e-4),
            (all.clone(), 2e-4),
            (some_gone(2), 0.02),
            (all.clone(), 0.05),
            (some_gone(0), 0.05),
            (some_gone(0), 0.0),
            (all.clone(), 1e-4),
            (no_first.clone(), 1e-4),
            (all.clone(), 1e-4),
            (no_first.clone(), 0.05),
            (some_gone(1), 0.0),
        ];
        // `ahead`: each update after `refresh_ahead` (stopped before it starts, or not).
        let run = |splice: bool, threads: usize, ahead: Option<bool>| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                let mut np = NarrowPhase::new();
                np.set_parallel(threads > 1);
                np.splice = splice;
                let (mut out, mut tapped, mut refreshed) = (Vec::new(), Vec::new(), 0);
                for (i, (list, dx)) in steps.iter().enumerate() {
                    for m in np.manifolds_mut() {
                        let (a, b) = (m.a as f32, m.b as f32);
                        for (j, user) in m.manifold.points.users_mut().iter_mut().enumerate() {
                            *user = [(i * 10 + j) as f32, a, b];
                        }
                    }
                    let poses = poses_at(*dx);
                    if let Some(stop) = ahead {
                        let stop = std::sync::atomic::AtomicBool::new(stop);
                        let looked = np.refresh_ahead(&shapes, &poses, 0.02, &stop);
                        assert_eq!(
                            looked,
                            if stop.into_inner() {
                                0
                            } else {
                                np.states.len()
                            }
                        );
                        refreshed += np.states.iter().filter(|s| s.ahead).count();
                    }
                    let mut tap = Record::default();
                    let whole = np.update_tapped(list, &shapes, &poses, 0.02, &mut tap);
                    if whole {
                        let list: Vec<_> = np
                            .manifolds()
                            .iter()
                            .map(|m| m.manifold)
                            .enumerate()
                            .collect();
                        assert!(tap.0 == list, "the tap saw the list");
                    }
                    tapped.push(whole);
                    let states: Vec<(u32, u32, u32, u32)> = np
                        .states
                        .iter()
                        .map(|s| (s.a, s.b, s.start, s.count))
                        .collect();
                    out.push((np.manifolds().to_vec(), states, np.recomputed_pairs()));
                }
                assert!(np.states.iter().all(|s| !s.ahead));
                (out, tapped, refreshed)
            })
        };
        let (full, none, _) = run(false, 1, None);
        assert!(none.iter().all(|&t| !t), "the full update shows no tap");
        assert!(
            full[0].0.len() >= ((n - 1) * rows) as usize,
            "the neighbours touch"
        );
        assert!(full[5].0.is_empty(), "pulled apart beyond the margin");
        assert!(!full[7].0.is_empty(), "together again");
        assert!(full[9].0.len() < full[8].0.len(), "touching pairs gone");
        assert!(all.len() > 2 * CHUNK);
        let (one, tapped, _) = run(true, 1, None);
        assert_eq!(one, full, "one thread");
        let (two, tapped_two, _) = run(true, 2, None);
        assert_eq!(two, full, "parallel chunks");
        // Manifolds refreshed ahead of each update give the same steps, on one thread
        // and in chunks, and so do the full updates after them.
        for (splice, threads) in [(true, 1), (true, 2), (false, 1)] {
            let (steps, _, refreshed) = run(splice, threads, Some(false));
            assert_eq!(steps, full, "refreshed ahead, {threads} thread(s)");
            assert!(refreshed > 500, "{refreshed} pairs refreshed ahead");
            assert_eq!(run(splice, threads, Some(true)).0, full, "stopped at once");
        }
        // Small moves over the same list keep the layout: the tap saw it all.
        assert_eq!(tapped, tapped_two);
        assert!(tapped[1..4].iter().any(|&t| t) && tapped.iter().any(|&t| !t));
    }
}
