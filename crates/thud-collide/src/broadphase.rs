//! The broadphase: which pairs of colliders have overlapping bounding boxes.
//!
//! **Structure.** Two dynamic AABB trees (`tree.rs`): one for the static
//! set, one for the moving set. Each proxy (a caller's collider slot `key`)
//! keeps the tight box the caller gave (contact margin included; packed in an
//! array of its own, which the per-pair test reads) and a *fat* box, the tight
//! box grown by `fat_margin` (10 cm by default) and, given the caller's guess of
//! how far the collider moves before its next update
//! ([`BroadPhase::update_moving`]), stretched that far ahead, which is what the
//! tree stores.
//! A persistent, sorted list holds every pair whose fat boxes overlap, that
//! passes the [`CollisionFilter`] test and is not static–static.
//!
//! **Per call of [`BroadPhase::find_pairs`]:**
//!
//! 0. bring the trees up to the fat boxes of the proxies that escaped theirs since the
//!    last call ([`BroadPhase::update_moving`] only notes them): the moving tree built
//!    anew from every moving proxy when a quarter or more of its leaves escaped
//!    (`Tree::rebuild`, top down), else leaf by leaf;
//! 1. drop listed pairs whose fat boxes no longer overlap (or whose proxies
//!    were removed, changed set or filter) — one box test per listed pair with a
//!    proxy that changed its fat box, set or filter (a bit test for the others), one
//!    per listed pair after a removal, and none at all on a call where no proxy was
//!    removed or changed (nothing can have gone stale);
//! 2. for each proxy whose fat box changed since the last call (inserted,
//!    escaped its fat box in [`BroadPhase::update`], or changed set): query the
//!    moving tree, and the static tree too if the proxy is moving, and collect
//!    the new pairs;
//! 3. sort the new pairs and merge them into the list;
//! 4. output the listed pairs whose *tight* boxes overlap.
//!
//! A pair can only start overlapping if one of its fat boxes changed, so the
//! list stays exact. The cost of a step is one box test per listed pair (two
//! when something moved) plus a tree query per moved proxy: bodies that rest
//! or move slowly inside their fat boxes cost nothing, and a static level of
//! any size costs nothing until something moves near it (its tree is only ever
//! queried, never walked per step).
//!
//! **Why a tree, not sweep-and-prune.** Measured on the standard scenes
//! (`benches/collide.rs`), sorting along one axis is poor for the scenes we
//! care about: a one-box-deep pyramid and a pile are as tall as they are wide,
//! so every box overlaps a whole column of boxes on any single axis (≈ 50–100
//! candidates per box for `pyramid_100`), while a tree query touches a few
//! nodes. Insertion/removal are O(log n), so 10⁵ proxies are fine.
//!
//! **Determinism.** The output is `(a, b)` with `a < b` in ascending order,
//! independent of insertion history and tree shape.
//!
//! **Threads.** With [`BroadPhase::set_parallel`] on and a rayon pool of more than one
//! thread, the three passes that only read the proxies and the trees share the pool
//! where they are large enough to pay for it: the stale-pair pass and the tight
//! overlaps filter the pair list in parallel (from [`PAR_PAIRS`] listed pairs; rayon's
//! ordered `collect` keeps the list's order), the moved proxies' tree queries run
//! in parallel chunks (from [`PAR_MOVED`] moved proxies; the new pairs are sorted
//! before the merge, so the order they were found in does not matter), and so does
//! their sort. The tree updates stay on the caller's thread, but for a rebuild of the
//! moving tree, whose large nodes build their two halves side by side. The output is
//! the same, bit for bit, on any number of threads.

use rayon::prelude::*;

use crate::tree::Tree;
use crate::{Aabb, CollisionFilter};

/// Listed pairs from which the pair-list passes of [`BroadPhase::find_pairs`] split
/// over the pool (when parallel).
pub const PAR_PAIRS: usize = 16384;

/// Moved proxies from which their tree queries split over the pool (when parallel).
pub const PAR_MOVED: usize = 256;

/// Moved proxies a parallel query task takes at once.
const QUERY_CHUNK: usize = 64;

/// A proxy's tight box as the per-pair test of [`BroadPhase::find_pairs`] reads it:
/// both corners in SIMD registers (`Vec3A`, 16-byte aligned), so the six comparisons
/// of two boxes are two vector compares and one mask test.
#[derive(Clone, Copy, Debug)]
struct Tight {
    min: glam::Vec3A,
    max: glam::Vec3A,
}

impl Tight {
    fn of(aabb: Aabb) -> Self {
        Tight {
            min: aabb.min.into(),
            max: aabb.max.into(),
        }
    }

    /// Whether the two boxes overlap (touching counts), as [`Aabb::overlaps`].
    #[inline(always)]
    fn touches(&self, other: &Tight) -> bool {
        (self.min.cmple(other.max) & other.min.cmple(self.max)).all()
    }
}

/// The tight box of a free key: it overlaps nothing.
const EMPTY: Tight = Tight {
    min: glam::Vec3A::splat(f32::INFINITY),
    max: glam::Vec3A::splat(f32::NEG_INFINITY),
};

#[derive(Clone, Copy, Debug)]
struct Proxy {
    fat: Aabb,
    moving: bool,
    filter: CollisionFilter,
    leaf: u32,
    moved: bool,
    /// Its tree still holds an older fat box ([`BroadPhase::update_moving`] leaves the
    /// tree to `find_pairs`).
    refit: bool,
}

impl Proxy {
    /// Its tight box (`tight`) set to `aabb`, and its fat box grown around it where it
    /// escaped (reaching `ahead` further): returns whether it became due for a refit of
    /// its tree box, and whether it became moved.
    fn update(
        &mut self,
        tight: &mut Tight,
        aabb: Aabb,
        ahead: glam::Vec3,
        margin: f32,
    ) -> (bool, bool) {
        let aabb = BroadPhase::sanitize(aabb);
        *tight = Tight::of(aabb);
        if self.fat.contains(&aabb) {
            return (false, false);
        }
        let fat = aabb.expanded(margin);
        let ahead = if ahead.is_finite() {
            ahead
        } else {
            glam::Vec3::ZERO
        };
        self.fat = Aabb {
            min: fat.min + ahead.min(glam::Vec3::ZERO),
            max: fat.max + ahead.max(glam::Vec3::ZERO),
        };
        (
            !std::mem::replace(&mut self.refit, true),
            !std::mem::replace(&mut self.moved, true),
        )
    }
}

/// The proxies of a range of keys, whose boxes one thread updates while another thread
/// updates another range ([`BroadPhase::update_in_parts`]).
#[derive(Debug)]
pub struct UpdatePart<'a> {
    start: u32,
    proxies: &'a mut [Option<Proxy>],
    tight: &'a mut [Tight],
    fat_margin: f32,
    refit: Vec<u32>,
    moved: Vec<u32>,
}

impl UpdatePart<'_> {
    /// Whether `key` lies in this part's range.
    #[must_use]
    pub fn holds(&self, key: u32) -> bool {
        key.checked_sub(self.start)
            .is_some_and(|i| (i as usize) < self.proxies.len())
    }

    /// [`BroadPhase::update_moving`] for a key of this part; returns false if the key is
    /// unknown or outside the part (see [`holds`](Self::holds)).
    pub fn update_moving(&mut self, key: u32, aabb: Aabb, ahead: glam::Vec3) -> bool {
        key.checked_sub(self.start).is_some_and(|i| {
            let lists = (&mut self.refit, &mut self.moved);
            let boxes = (aabb, ahead, self.fat_margin);
            update_slot((self.proxies, self.tight), i as usize, key, boxes, lists)
        })
    }
}

/// [`BroadPhase::update_moving`] of `key`, which is slot `i` of `proxies` and `tight`;
/// a key that became due for a refit or moved goes on the list for it.
fn update_slot(
    (proxies, tight): (&mut [Option<Proxy>], &mut [Tight]),
    i: usize,
    key: u32,
    (aabb, ahead, margin): (Aabb, glam::Vec3, f32),
    (refits, moves): (&mut Vec<u32>, &mut Vec<u32>),
) -> bool {
    let Some(Some(p)) = proxies.get_mut(i) else {
        return false;
    };
    let (refit, moved) = p.update(&mut tight[i], aabb, ahead, margin);
    if refit {
        refits.push(key);
    }
    if moved {
        moves.push(key);
    }
    true
}

/// Finds overlapping pairs of colliders, keyed by the caller's slots.
#[derive(Clone, Debug)]
pub struct BroadPhase {
    proxies: Vec<Option<Proxy>>,
    /// Each key's tight box (its proxy's `aabb`; [`EMPTY`] for a free key), packed so
    /// the per-pair test of `find_pairs` reads 32 bytes a proxy, aligned.
    tight: Vec<Tight>,
    trees: [Tree; 2],
    pairs: Vec<(u32, u32)>,
    moved: Vec<u32>,
    /// `moved` as one bit a key (scratch of `find_pairs`).
    moved_bits: Vec<u64>,
    /// A proxy was removed since the last `find_pairs` (its pairs are stale).
    removed: bool,
    fresh: Vec<(u32, u32)>,
    merged: Vec<(u32, u32)>,
    fat_margin: f32,
    /// Whether `find_pairs` may use the rayon pool.
    parallel: bool,
    /// Keys whose tree box is behind their fat box (`Proxy::refit`).
    refit: Vec<u32>,
    /// Scratch of a rebuild of the moving tree.
    items: Vec<(Aabb, u32)>,
    /// Rebuilds of the moving tree so far (for the tests).
    #[cfg(test)]
    rebuilds: usize,
    /// One list per parallel task (kept for the next call).
    parts: Vec<Vec<(u32, u32)>>,
    /// The refit and moved lists of [`BroadPhase::update_in_parts`]' two parts (kept
    /// for the next call).
    part_lists: [(Vec<u32>, Vec<u32>); 2],
}

impl Default for BroadPhase {
    fn default() -> Self {
        Self::new()
    }
}

impl BroadPhase {
    /// Room for `additional` more proxies, all moving, without reallocating.
    pub fn reserve(&mut self, additional: usize) {
        self.proxies.reserve(additional);
        self.tight.reserve(additional);
        self.trees[1].reserve(additional);
    }

    /// An empty broadphase with a 10 cm fat margin.
    #[must_use]
    pub fn new() -> Self {
        Self::with_fat_margin(0.1)
    }

    /// An empty broadphase whose tree boxes are the given boxes grown by `fat_margin` (m).
    #[must_use]
    pub fn with_fat_margin(fat_margin: f32) -> Self {
        Self {
            proxies: Vec::new(),
            tight: Vec::new(),
            trees: [Tree::default(), Tree::default()],
            pairs: Vec::new(),
            moved: Vec::new(),
            moved_bits: Vec::new(),
            removed: false,
            fresh: Vec::new(),
            merged: Vec::new(),
            fat_margin: if fat_margin.is_finite() {
                fat_margin.max(0.0)
            } else {
                0.0
            },
            parallel: false,
            parts: Vec::new(),
            part_lists: Default::default(),
            refit: Vec::new(),
            items: Vec::new(),
            #[cfg(test)]
            rebuilds: 0,
        }
    }

    /// Lets [`find_pairs`](Self::find_pairs) share its larger passes with the other
    /// threads of the current rayon pool (off by default; the pairs found are the same
    /// either way, in the same order).
    pub fn set_parallel(&mut self, parallel: bool) {
        self.parallel = parallel;
    }

    /// Whether a pass over `n` items, parallel from `min`, splits over the pool.
    fn splits(&self, n: usize, min: usize) -> bool {
        self.parallel && n >= min && rayon::current_num_threads() > 1
    }

    /// Number of proxies.
    #[must_use]
    pub fn len(&self) -> usize {
        self.proxies.iter().filter(|p| p.is_some()).count()
    }

    /// True when there are no proxies.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether `key` is present.
    #[must_use]
    pub fn contains(&self, key: u32) -> bool {
        matches!(self.proxies.get(key as usize), Some(Some(_)))
    }

    fn sanitize(aabb: Aabb) -> Aabb {
        if aabb.min.is_finite() && aabb.max.is_finite() && aabb.min.cmple(aabb.max).all() {
            aabb
        } else {
            // A broken box collides with nothing; keep it out of the way.
            Aabb::new(
                glam::Vec3::splat(crate::aabb::HUGE),
                glam::Vec3::splat(crate::aabb::HUGE),
            )
        }
    }

    /// Adds collider `key` (replacing any proxy with that key) with its box
    /// (margin included), its set and its filter.
    pub fn insert(&mut self, key: u32, aabb: Aabb, moving: bool, filter: CollisionFilter) {
        self.remove(key);
        let k = key as usize;
        if self.proxies.len() <= k {
            self.proxies.resize(k + 1, None);
            self.tight.resize(k + 1, EMPTY);
        }
        let aabb = Self::sanitize(aabb);
        self.tight[k] = Tight::of(aabb);
        let fat = aabb.expanded(self.fat_margin);
        let leaf = self.trees[usize::from(moving)].insert(key, fat);
        self.proxies[k] = Some(Proxy {
            fat,
            moving,
            filter,
            leaf,
            moved: true,
            refit: false,
        });
        self.moved.push(key);
    }

    /// Sets the box of `key`; returns false if the key is unknown.
    pub fn update(&mut self, key: u32, aabb: Aabb) -> bool {
        self.update_moving(key, aabb, glam::Vec3::ZERO)
    }

    /// [`update`](Self::update) for a collider expected to move by `ahead` (m) before
    /// its next update: a new fat box also reaches that far in that direction, so a
    /// body moving steadily escapes it less often (each escape costs a tree update and
    /// a query). Which pairs are reported does not depend on it.
    pub fn update_moving(&mut self, key: u32, aabb: Aabb, ahead: glam::Vec3) -> bool {
        let lists = (&mut self.refit, &mut self.moved);
        let boxes = (aabb, ahead, self.fat_margin);
        update_slot(
            (&mut self.proxies, &mut self.tight),
            key as usize,
            key,
            boxes,
            lists,
        )
    }

    /// Lets two threads update the boxes of two ranges of keys at once: `run` gets the
    /// part of keys below `split` and the part from `split` on
    /// ([`UpdatePart::update_moving`]). The updates are then recorded as if made with
    /// [`update_moving`](Self::update_moving), part 0's first: the pairs found are the
    /// same.
    pub fn update_in_parts<R>(
        &mut self,
        split: u32,
        run: impl FnOnce(&mut [UpdatePart<'_>; 2]) -> R,
    ) -> R {
        let split = (split as usize).min(self.proxies.len());
        let (p0, p1) = self.proxies.split_at_mut(split);
        let (t0, t1) = self.tight.split_at_mut(split);
        let [l0, l1] = &mut self.part_lists;
        let part = |start: usize, proxies, tight, lists: &mut (Vec<u32>, Vec<u32>)| {
            lists.0.clear();
            lists.1.clear();
            UpdatePart {
                start: start as u32,
                proxies,
                tight,
                fat_margin: self.fat_margin,
                refit: std::mem::take(&mut lists.0),
                moved: std::mem::take(&mut lists.1),
            }
        };
        let mut parts = [part(0, p0, t0, l0), part(split, p1, t1, l1)];
        let r = run(&mut parts);
        for (part, lists) in parts.into_iter().zip(&mut self.part_lists) {
            self.refit.extend_from_slice(&part.refit);
            self.moved.extend_from_slice(&part.moved);
            *lists = (part.refit, part.moved);
        }
        r
    }

    /// Moves `key` between the moving and static sets; returns false if unknown.
    pub fn set_moving(&mut self, key: u32, moving: bool) -> bool {
        let Some(Some(p)) = self.proxies.get_mut(key as usize) else {
            return false;
        };
        if p.moving != moving {
            self.trees[usize::from(p.moving)].remove(p.leaf);
            p.leaf = self.trees[usize::from(moving)].insert(key, p.fat);
            p.moving = moving;
            p.refit = false;
            if !p.moved {
                p.moved = true;
                self.moved.push(key);
            }
        }
        true
    }

    /// Changes the filter of `key`; returns false if unknown.
    pub fn set_filter(&mut self, key: u32, filter: CollisionFilter) -> bool {
        let Some(Some(p)) = self.proxies.get_mut(key as usize) else {
            return false;
        };
        if p.filter != filter {
            p.filter = filter;
            if !p.moved {
                p.moved = true;
                self.moved.push(key);
            }
        }
        true
    }

    /// Removes `key`; returns false if unknown.
    pub fn remove(&mut self, key: u32) -> bool {
        let Some(slot) = self.proxies.get_mut(key as usize) else {
            return false;
        };
        let Some(p) = slot.take() else { return false };
        self.tight[key as usize] = EMPTY;
        self.trees[usize::from(p.moving)].remove(p.leaf);
        self.removed = true;
        true
    }

    /// Replaces the contents of `out` by all pairs `(a, b)`, `a < b`, ascending,
    /// whose boxes overlap; static–static pairs and filtered pairs are left out.
    pub fn find_pairs(&mut self, out: &mut Vec<(u32, u32)>) {
        self.refit_trees();
        let split_pairs = self.splits(self.pairs.len(), PAR_PAIRS);
        let split_moved = self.splits(self.moved.len(), PAR_MOVED);
        let px = &self.proxies;
        let get = |k: u32| px.get(k as usize).copied().flatten();
        // 1. Drop stale pairs. A listed pair goes stale only when one of its proxies
        //    is removed or changes its fat box, set or filter (each of which lists it
        //    in `moved`), so a step where none did keeps the list as it is.
        //    Without a removal only a pair with a moved proxy can have gone stale: the
        //    others are kept on a bit each, without reading their proxies.
        if self.removed || !self.moved.is_empty() {
            self.moved_bits.clear();
            self.moved_bits.resize(px.len().div_ceil(64), 0);
            for &m in &self.moved {
                self.moved_bits[m as usize / 64] |= 1 << (m % 64);
            }
            let (bits, all) = (&self.moved_bits, self.removed);
            let moved = |k: u32| bits[k as usize / 64] & (1 << (k % 64)) != 0;
            let live = |&(a, b): &(u32, u32)| {
                (!all && !moved(a) && !moved(b))
                    || match (get(a), get(b)) {
                        (Some(pa), Some(pb)) => {
                            (pa.moving || pb.moving)
                                && pa.filter.test(&pb.filter)
                                && pa.fat.overlaps(&pb.fat)
                        }
                        _ => false,
                    }
            };
            if split_pairs {
                par_filter(&self.pairs, &mut self.merged, &mut self.parts, live);
                std::mem::swap(&mut self.pairs, &mut self.merged);
            } else {
                self.pairs.retain(live);
            }
            self.removed = false;
        }
        // 2. New pairs of moved proxies.
        self.fresh.clear();
        self.moved.sort_unstable();
        self.moved.dedup();
        let trees = &self.trees;
        let query = |m: u32, fresh: &mut Vec<(u32, u32)>| {
            let Some(pm) = get(m) else { return };
            let mut visit = |k: u32| {
                if k == m {
                    return;
                }
                // A pair of two moved proxies is found by both queries (each moved
                // proxy queries the moving tree, and a moving one the static tree too,
                // so at least one of the two sees the other's tree): the lower key
                // reports it.
                if let Some(pk) = get(k)
                    && !(pk.moved && k < m)
                    && pm.filter.test(&pk.filter)
                {
                    fresh.push((m.min(k), m.max(k)));
                }
            };
            trees[1].query(&pm.fat, &mut visit);
            if pm.moving {
                trees[0].query(&pm.fat, &mut visit);
            }
        };
        if split_moved {
            // (Each task's pairs in a list of its own, then one after another.)
            let chunks = self.moved.len().div_ceil(QUERY_CHUNK);
            self.parts
                .resize_with(self.parts.len().max(chunks), Vec::new);
            self.parts[..chunks]
                .par_iter_mut()
                .zip(self.moved.par_chunks(QUERY_CHUNK))
                .for_each(|(part, ms)| {
                    let _flush = crate::FlushDenormals::new();
                    // (Filled on the task's own stack: the lists' headers share cache
                    // lines.)
                    let mut found = std::mem::take(part);
                    found.clear();
                    for &m in ms {
                        query(m, &mut found);
                    }
                    *part = found;
                });
            for found in &self.parts[..chunks] {
                self.fresh.extend_from_slice(found);
            }
        } else {
            for &m in &self.moved {
                query(m, &mut self.fresh);
            }
        }
        for &m in &self.moved {
            if let Some(Some(p)) = self.proxies.get_mut(m as usize) {
                p.moved = false;
            }
        }
        self.moved.clear();
        // 3. Merge.
        if !self.fresh.is_empty() {
            if self.splits(self.fresh.len(), PAR_PAIRS) {
                self.fresh.par_sort_unstable();
            } else {
                self.fresh.sort_unstable();
            }
            self.fresh.dedup();
            if self.fresh.len() * FEW_FRESH <= self.pairs.len() {
                insert_fresh(&mut self.pairs, &mut self.fresh);
            } else {
                merge(&self.pairs, &self.fresh, &mut self.merged);
                std::mem::swap(&mut self.pairs, &mut self.merged);
            }
        }
        // 4. Tight overlaps (all six comparisons without a branch between them:
        //    whether two neighbours' tight boxes touch is hard to predict).
        let tight = &self.tight;
        let touch = |&(a, b): &(u32, u32)| tight[a as usize].touches(&tight[b as usize]);
        if self.splits(self.pairs.len(), PAR_PAIRS) {
            par_filter(&self.pairs, out, &mut self.parts, touch);
        } else {
            keep_pairs(&self.pairs, out, touch);
        }
    }
}

impl BroadPhase {
    /// Brings the trees up to the proxies' fat boxes: the moving tree built anew when
    /// at least one in [`REBUILD_SHARE`] of its leaves (and [`REBUILD_MIN`] or more)
    /// escaped their boxes since the last call, else each escaped leaf removed and
    /// inserted again.
    fn refit_trees(&mut self) {
        if self.refit.is_empty() {
            return;
        }
        let proxies = &self.proxies;
        let stale = |k: &u32| {
            proxies
                .get(*k as usize)
                .copied()
                .flatten()
                .filter(|p| p.refit)
        };
        let escaped = self
            .refit
            .iter()
            .filter_map(stale)
            .filter(|p| p.moving)
            .count();
        let leaves = self.trees[1].leaves();
        if leaves >= REBUILD_MIN && escaped * REBUILD_SHARE >= leaves {
            let mut items = std::mem::take(&mut self.items);
            items.clear();
            items.extend(
                proxies
                    .iter()
                    .enumerate()
                    .filter_map(|(k, p)| p.filter(|p| p.moving).map(|p| (p.fat, k as u32))),
            );
            let parallel = self.parallel && rayon::current_num_threads() > 1;
            let proxies = &mut self.proxies;
            self.trees[1].rebuild(&mut items, parallel, |key, leaf| {
                if let Some(Some(p)) = proxies.get_mut(key as usize) {
                    p.leaf = leaf;
                    p.refit = false;
                }
            });
            self.items = items;
            #[cfg(test)]
            {
                self.rebuilds += 1;
            }
        }
        for &k in &self.refit {
            if let Some(Some(p)) = self.proxies.get_mut(k as usize)
                && p.refit
            {
                self.trees[usize::from(p.moving)].update(p.leaf, p.fat);
                p.refit = false;
            }
        }
        self.refit.clear();
    }
}

/// New pairs go into the list one by one ([`insert_fresh`]) while the list has at least
/// this many pairs per new one; the two lists are merged otherwise ([`merge`]).
const FEW_FRESH: usize = 32;

/// `merged` = the sorted, deduplicated lists `pairs` and `fresh` merged, each pair once.
fn merge(pairs: &[(u32, u32)], fresh: &[(u32, u32)], merged: &mut Vec<(u32, u32)>) {
    merged.clear();
    merged.reserve(pairs.len() + fresh.len());
    let (mut i, mut j) = (0, 0);
    while i < pairs.len() || j < fresh.len() {
        let next = match (pairs.get(i), fresh.get(j)) {
            (Some(&p), Some(&f)) if p == f => {
                i += 1;
                j += 1;
                p
            }
            (Some(&p), Some(&f)) if p < f => {
                i += 1;
                p
            }
            (Some(_), Some(&f)) | (None, Some(&f)) => {
                j += 1;
                f
            }
            (Some(&p), None) => {
                i += 1;
                p
            }
            (None, None) => break,
        };
        merged.push(next);
    }
}

/// [`merge`] in place, for a few fresh pairs: most of them are listed already (a moved
/// proxy finds its neighbours again), so each is looked up, and the rest go in with one
/// pass from the back that moves the runs between them. `fresh` (sorted, deduplicated)
/// is left holding the pairs that were new.
fn insert_fresh(pairs: &mut Vec<(u32, u32)>, fresh: &mut Vec<(u32, u32)>) {
    fresh.retain(|f| pairs.binary_search(f).is_err());
    if fresh.is_empty() {
        return;
    }
    let old = pairs.len();
    pairs.resize(old + fresh.len(), (0, 0));
    // Runs of the old list, each moved up by the new pairs that come after its end.
    let mut end = old;
    for (k, &f) in fresh.iter().enumerate().rev() {
        let at = pairs[..end].partition_point(|p| *p < f);
        pairs.copy_within(at..end, at + k + 1);
        pairs[at + k] = f;
        end = at;
    }
}

/// Leaves the moving tree needs before a step may build it anew.
const REBUILD_MIN: usize = 64;

/// The moving tree is built anew when at least one in this many of its leaves escaped.
const REBUILD_SHARE: usize = 4;

/// `out` = the pairs of `src` that `keep` keeps, in order, written without a branch on
/// the answer: every pair is written at the end of those kept so far, which only
/// advances past a kept one. On a settling heap about two listed pairs in three touch,
/// in no order a branch predictor can follow (7 ns a pair with a branch on
/// `pile_1000`).
fn keep_pairs(src: &[(u32, u32)], out: &mut Vec<(u32, u32)>, keep: impl Fn(&(u32, u32)) -> bool) {
    out.clear();
    out.resize(src.len(), (0, 0));
    let mut n = 0;
    for (&p, i) in src.iter().zip(0..) {
        // (`n <= i`: the slot is there.)
        out[n.min(i)] = p;
        n += usize::from(keep(&p));
    }
    out.truncate(n);
}

/// `out` = the pairs of `src` that `keep` keeps, in order: the pool's threads each
/// filter a run of `src` into a list of `parts`, which are then copied out one after
/// another.
fn par_filter(
    src: &[(u32, u32)],
    out: &mut Vec<(u32, u32)>,
    parts: &mut Vec<Vec<(u32, u32)>>,
    keep: impl Fn(&(u32, u32)) -> bool + Sync,
) {
    // (A few runs a thread, so that one slowed thread holds the others up less.)
    let chunk = src.len().div_ceil(4 * rayon::current_num_threads()).max(1);
    let runs = src.len().div_ceil(chunk);
    parts.resize_with(parts.len().max(runs), Vec::new);
    parts[..runs]
        .par_iter_mut()
        .zip(src.par_chunks(chunk))
        .for_each(|(part, run)| {
            let _flush = crate::FlushDenormals::new();
            // (Filled on the task's own stack: the lists' headers share cache lines.)
            let mut kept = std::mem::take(part);
            keep_pairs(run, &mut kept, &keep);
            *part = kept;
        });
    out.clear();
    for part in &parts[..runs] {
        out.extend_from_slice(part);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    /// A cube at a random place in `[0, span)` with a half side in `[0.3, 0.3 + grow)`.
    fn random_box(rnd: &mut dyn FnMut() -> f32, span: Vec3, grow: f32) -> Aabb {
        let c = Vec3::new(rnd(), rnd(), rnd()) * span;
        Aabb::from_center_half_extents(c, Vec3::splat(0.3 + rnd() * grow))
    }

    /// Brute-force reference.
    fn brute(items: &[Option<(Aabb, bool, CollisionFilter)>]) -> Vec<(u32, u32)> {
        let mut v = Vec::new();
        for i in 0..items.len() {
            for j in i + 1..items.len() {
                if let (Some(a), Some(b)) = (items[i], items[j])
                    && (a.1 || b.1)
                    && a.2.test(&b.2)
                    && a.0.overlaps(&b.0)
                {
                    v.push((i as u32, j as u32));
                }
            }
        }
        v
    }

    #[test]
    fn matches_brute_force_under_random_edits() {
        let mut rnd = crate::test_rng(12345);
        let mut bp = BroadPhase::new();
        let mut items: Vec<Option<(Aabb, bool, CollisionFilter)>> = vec![None; 300];
        let mut out = Vec::new();
        for step in 0..60 {
            for _ in 0..80 {
                let k = (rnd() * 300.0) as usize % 300;
                let c = Vec3::new(rnd() * 20.0, rnd() * 20.0, rnd() * 4.0);
                let b = Aabb::from_center_half_extents(c, Vec3::splat(0.3 + rnd()));
                let r = rnd();
                if r < 0.1 {
                    bp.remove(k as u32);
                    items[k] = None;
                } else if items[k].is_none() || r < 0.2 {
                    let moving = rnd() < 0.7;
                    let filter = if rnd() < 0.1 {
                        CollisionFilter::new(1, 2)
                    } else {
                        CollisionFilter::ALL
                    };
                    bp.insert(k as u32, b, moving, filter);
                    items[k] = Some((b, moving, filter));
                } else if r < 0.3 {
                    let it = items[k].as_mut().unwrap();
                    it.1 = !it.1;
                    bp.set_moving(k as u32, it.1);
                } else {
                    // Small moves (inside the fat box) and big ones.
                    let it = items[k].as_mut().unwrap();
                    let d = if r < 0.6 {
                        Vec3::splat(0.02)
                    } else {
                        c - it.0.center()
                    };
                    it.0 = Aabb::new(it.0.min + d, it.0.max + d);
                    if r < 0.8 {
                        bp.update(k as u32, it.0);
                    } else {
                        // A fat box reaching ahead (any direction, up to 2 m; and a
                        // broken hint, which must be ignored).
                        let ahead = if r < 0.82 {
                            Vec3::NAN
                        } else {
                            (Vec3::new(rnd(), rnd(), rnd()) - 0.5) * 4.0
                        };
                        bp.update_moving(k as u32, it.0, ahead);
                    }
                }
            }
            bp.find_pairs(&mut out);
            assert_eq!(out, brute(&items), "step {step}");
        }
    }

    /// A few fresh pairs put into a long list in place give the merge's list: new ones
    /// at the front, the back, between listed ones and side by side, listed ones
    /// skipped.
    #[test]
    fn fresh_pairs_inserted_in_place_are_the_merge() {
        let mut rnd = crate::test_rng(4242);
        let mut key = || ((rnd() * 60.0) as u32, (rnd() * 60.0) as u32);
        for round in 0..200 {
            let mut pairs: Vec<(u32, u32)> = (0..300).map(|_| key()).collect();
            pairs.sort_unstable();
            pairs.dedup();
            let mut fresh: Vec<(u32, u32)> = (0..round % 12).map(|_| key()).collect();
            fresh.extend(pairs.iter().step_by(37).copied());
            if round % 3 == 0 {
                fresh.extend([(0, 0), (99, 99)]);
            }
            fresh.sort_unstable();
            fresh.dedup();
            let mut merged = Vec::new();
            merge(&pairs, &fresh, &mut merged);
            let mut inserted = pairs.clone();
            insert_fresh(&mut inserted, &mut fresh);
            assert_eq!(inserted, merged, "round {round}");
            assert!(fresh.iter().all(|f| pairs.binary_search(f).is_err()));
        }
    }

    /// Boxes updated by two threads at once, each for its own range of keys
    /// (`update_in_parts`, split anywhere), between inserts and removals: the pairs are
    /// those of the boxes, as with `update_moving` key by key.
    #[test]
    fn updates_in_parts_match_brute_force() {
        let mut rnd = crate::test_rng(777);
        let mut bp = BroadPhase::new();
        let mut items: Vec<Option<(Aabb, bool, CollisionFilter)>> = vec![None; 300];
        let mut out = Vec::new();
        let (mut in_parts, mut escaped) = (0, 0);
        for step in 0..60 {
            for _ in 0..20 {
                let k = (rnd() * 300.0) as usize % 300;
                let c = Vec3::new(rnd() * 20.0, rnd() * 20.0, rnd() * 4.0);
                let b = Aabb::from_center_half_extents(c, Vec3::splat(0.3 + rnd()));
                if rnd() < 0.3 && items[k].is_some() {
                    bp.remove(k as u32);
                    items[k] = None;
                } else if items[k].is_none() {
                    let moving = rnd() < 0.8;
                    bp.insert(k as u32, b, moving, CollisionFilter::ALL);
                    items[k] = Some((b, moving, CollisionFilter::ALL));
                }
            }
            // Every listed box moves, a little or far, some with a reach ahead.
            let mut moves = Vec::new();
            for (k, it) in items.iter_mut().enumerate() {
                let Some(it) = it else { continue };
                let r = rnd();
                let d = if r < 0.6 {
                    Vec3::splat(0.02)
                } else {
                    Vec3::new(rnd(), rnd(), rnd()) * 3.0 - 1.5
                };
                it.0 = Aabb::new(it.0.min + d, it.0.max + d);
                let ahead = (Vec3::new(rnd(), rnd(), rnd()) - 0.5) * (r * 2.0);
                moves.push((k as u32, it.0, ahead));
            }
            let split = (rnd() * 320.0) as u32;
            let before = bp.moved.len();
            bp.update_in_parts(split, |[a, b]| {
                std::thread::scope(|s| {
                    for part in [a, b] {
                        let moves = &moves;
                        s.spawn(move || {
                            for &(k, aabb, ahead) in moves {
                                if part.holds(k) {
                                    assert!(part.update_moving(k, aabb, ahead));
                                }
                            }
                        });
                    }
                });
            });
            in_parts += moves.len();
            escaped += bp.moved.len() - before;
            bp.find_pairs(&mut out);
            assert_eq!(out, brute(&items), "step {step}");
        }
        assert!(
            in_parts > 5000 && escaped > 1000,
            "{in_parts} updates, {escaped} escaped"
        );
    }

    /// The parallel passes (on pools of two and four threads) give the serial passes'
    /// pairs in the same order, through inserts, removals, changes of set and moves
    /// large enough to take every parallel branch.
    #[test]
    fn parallel_passes_find_the_same_pairs_in_the_same_order() {
        for threads in [2, 4] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                let mut rnd = crate::test_rng(777 + threads as u64);
                let n = 6000u32;
                let mut serial = BroadPhase::new();
                let mut par = BroadPhase::new();
                par.set_parallel(true);
                let place =
                    |rnd: &mut dyn FnMut() -> f32| random_box(rnd, Vec3::new(30.0, 30.0, 6.0), 0.6);
                for k in 0..n {
                    let b = place(&mut rnd);
                    let moving = k % 5 != 0;
                    serial.insert(k, b, moving, CollisionFilter::ALL);
                    par.insert(k, b, moving, CollisionFilter::ALL);
                }
                let (mut a, mut b) = (Vec::new(), Vec::new());
                let (mut big_lists, mut big_moves) = (0, 0);
                for step in 0..12 {
                    let mut moved = 0;
                    for _ in 0..800 {
                        let k = (rnd() * n as f32) as u32 % n;
                        let r = rnd();
                        if r < 0.03 {
                            serial.remove(k);
                            par.remove(k);
                        } else if r < 0.06 {
                            let bx = place(&mut rnd);
                            serial.insert(k, bx, true, CollisionFilter::ALL);
                            par.insert(k, bx, true, CollisionFilter::ALL);
                        } else if r < 0.08 {
                            serial.set_moving(k, r < 0.07);
                            par.set_moving(k, r < 0.07);
                        } else {
                            let bx = place(&mut rnd);
                            moved += usize::from(serial.update(k, bx));
                            par.update(k, bx);
                        }
                    }
                    big_moves += usize::from(moved >= PAR_MOVED);
                    serial.find_pairs(&mut a);
                    par.find_pairs(&mut b);
                    big_lists += usize::from(a.len() >= PAR_PAIRS);
                    assert_eq!(a, b, "{threads} threads, step {step}");
                }
                assert!(
                    big_lists > 0 && big_moves > 0,
                    "{big_lists} {big_moves} {}",
                    a.len()
                );
                // Every box moved out of its fat box: the moving tree is built anew, its
                // halves on the pool's threads.
                for _ in 0..3 {
                    for k in 0..n {
                        let bx = place(&mut rnd);
                        serial.update(k, bx);
                        par.update(k, bx);
                    }
                    serial.find_pairs(&mut a);
                    par.find_pairs(&mut b);
                    assert_eq!(a, b, "{threads} threads, all moved");
                }
                assert!(serial.rebuilds >= 3 && par.rebuilds >= 3);
            });
        }
    }

    /// Steps where most moving boxes leave their fat boxes (the moving tree built anew),
    /// with static boxes, removals, re-insertions and changes of set among them: the
    /// pairs are the brute force's.
    #[test]
    fn rebuilt_trees_match_brute_force() {
        let mut rnd = crate::test_rng(4242);
        let mut bp = BroadPhase::new();
        let mut items: Vec<Option<(Aabb, bool, CollisionFilter)>> = vec![None; 400];
        let mut out = Vec::new();
        let place = |rnd: &mut dyn FnMut() -> f32| random_box(rnd, Vec3::new(25.0, 25.0, 3.0), 0.8);
        for (k, it) in items.iter_mut().enumerate() {
            let b = place(&mut rnd);
            let moving = k % 4 != 0;
            bp.insert(k as u32, b, moving, CollisionFilter::ALL);
            *it = Some((b, moving, CollisionFilter::ALL));
        }
        for step in 0..30 {
            for (k, it) in items.iter_mut().enumerate() {
                let r = rnd();
                let key = k as u32;
                match it {
                    None if r < 0.5 => {
                        let b = place(&mut rnd);
                        bp.insert(key, b, true, CollisionFilter::ALL);
                        *it = Some((b, true, CollisionFilter::ALL));
                    }
                    None => {}
                    Some(_) if r < 0.03 => {
                        bp.remove(key);
                        *it = None;
                    }
                    Some(v) if r < 0.05 => {
                        v.1 = !v.1;
                        bp.set_moving(key, v.1);
                    }
                    Some(v) if r < 0.85 && (v.1 || r < 0.1) => {
                        // Moving boxes (and, now and then, static ones) jump.
                        v.0 = place(&mut rnd);
                        bp.update(key, v.0);
                    }
                    Some(_) => {}
                }
            }
            bp.find_pairs(&mut out);
            assert_eq!(out, brute(&items), "step {step}");
        }
        assert!(bp.rebuilds >= 20, "{} rebuilds", bp.rebuilds);
    }

    /// Steps where no fat box changes skip the stale-pair pass; a removal, a filter
    /// change or a change of set alone must still drop the pairs they end.
    #[test]
    fn quiet_steps_and_lone_removals_match_brute_force() {
        let mut bp = BroadPhase::new();
        let mut items: Vec<Option<(Aabb, bool, CollisionFilter)>> = vec![None; 6];
        let mut out = Vec::new();
        let unit =
            |x: f32| Aabb::from_center_half_extents(Vec3::new(x, 0.0, 0.0), Vec3::splat(0.5));
        for (k, x) in [0.0, 0.9, 1.8, 2.7, 3.6, 4.5].into_iter().enumerate() {
            bp.insert(k as u32, unit(x), k != 0, CollisionFilter::ALL);
            items[k] = Some((unit(x), k != 0, CollisionFilter::ALL));
        }
        let mut check = |bp: &mut BroadPhase, items: &[Option<(Aabb, bool, CollisionFilter)>]| {
            bp.find_pairs(&mut out);
            assert_eq!(out, brute(items));
        };
        check(&mut bp, &items);
        // Nothing changes: the same list.
        check(&mut bp, &items);
        // Small moves inside the fat boxes: tight overlaps end, the pairs stay listed.
        for k in [2usize, 3] {
            let d = Vec3::X * if k == 2 { -0.05 } else { 0.05 };
            let b = unit(0.9 * k as f32 + d.x);
            bp.update(k as u32, b);
            items[k].as_mut().unwrap().0 = b;
        }
        check(&mut bp, &items);
        // A removal alone.
        bp.remove(1);
        items[1] = None;
        check(&mut bp, &items);
        assert!(!bp.pairs.iter().any(|&(a, b)| a == 1 || b == 1));
        // A filter change alone.
        bp.set_filter(4, CollisionFilter::new(1, 2));
        items[4].as_mut().unwrap().2 = CollisionFilter::new(1, 2);
        check(&mut bp, &items);
        // A change of set alone: two static neighbours stop pairing.
        bp.set_moving(3, false);
        bp.set_moving(2, false);
        items[3].as_mut().unwrap().1 = false;
        items[2].as_mut().unwrap().1 = false;
        check(&mut bp, &items);
        assert!(!bp.pairs.contains(&(2, 3)));
    }
}
