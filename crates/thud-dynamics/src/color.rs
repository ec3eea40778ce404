//! Constraint graph colouring (as in Box2D v3), and level scheduling.
//!
//! Two contact manifolds that share no *movable* body can be solved at the same time:
//! their row updates read and write different entries of `dV`. Greedy colouring puts
//! each manifold, in store order, into the first colour where neither of its movable
//! bodies is used yet; static and kinematic partners (the dummy body 0, zero inverse
//! mass and inertia) never block a colour, because their `dV` stays zero. A manifold
//! that finds no free colour among [`MAX_COLORS`] goes to the *overflow* set, solved
//! one at a time after the colours.
//!
//! Greedy colours reorder the sweep: a body's manifolds are met colour by colour, not in
//! store order. Measured on the standard pyramids at 16 iterations this costs a lot of
//! stiffness (`pyramid_20` drift 44 mm instead of 5.5 mm, `pyramid_40` 387 mm instead of
//! 23 mm): in store order (bottom row first) a correction at the ground reaches the top
//! in one sweep, while six colours carry it about six contacts per sweep. So the default,
//! [`SweepOrder::Sequential`], schedules *levels* instead: a manifold goes one level after
//! the last earlier manifold on either of its movable bodies. Levels are colours too (no
//! two manifolds of a level share a movable body), there are more of them (hundreds on
//! `pyramid_40`), and solving them in order is exactly the sequential sweep.
//! A manifold may also sit in any later level up to the one of its next manifold on
//! either body, and list scheduling (`Coloring::list_schedule`) uses that freedom to
//! make every level one unit of the sweep: eight manifolds, two groups of four that run
//! as one eight-lane kernel, the most urgent first, of like point counts — same sweep,
//! fewer and fuller units. That placement costs several times the levels themselves,
//! and a colouring whose contacts change every step or two (a settling heap) is used
//! once: such a step keeps each manifold at its earliest level instead (`LIST_AFTER`).
//! `pile_1000` then runs about 620 groups instead of 580, and its step is shorter.
//! Such a colouring is also the one a heap's rows keep as it comes to rest: once rows
//! have stood for some steps on a colouring of earliest levels, the step builds them
//! once more, list-scheduled ([`Coloring::relist`]; `RELIST_AFTER` in `world.rs`).
//! [`SweepOrder::Colored`] (first fit, at most [`MAX_COLORS`]) is the throughput choice
//! for piles and many small stacks.
//!
//! **Regions.** A list-scheduled sweep of at least [`REGION_MIN`] manifolds is cut in
//! two, so that two threads can sweep it at once (`parallel.rs`). Each body's *front*
//! is the earliest level of its first manifold; the bodies of the earlier fronts, up
//! to half the manifold ends, are region 0, the rest region 1. The sweep then meets a
//! body's manifolds region first (store order within it) and the *seam* (manifolds
//! across the cut) last, in four slices scheduled one after the other on levels of
//! their own:
//!
//! ```text
//!   region 0 | region 1 on a seam body | seam (first-fit colours) | rest of region 1
//!   thread 0 | thread 1                | thread 0                 | thread 1
//! ```
//!
//! Region 1's first slice waits for the seam of the sweep before, the seam for region
//! 1's first slice: the threads meet once a sweep. A cut that follows the fronts keeps
//! every slice next to the one it waits on, so the one-thread wavefront of sweeps
//! (`wide.rs`) stays a few tiles deep: `pyramid_100` sweeps in 3.5 ms on one thread cut,
//! 3.6 uncut. The cut is a function of the manifolds alone (two regions whatever the
//! pool), so one, two or four threads sweep in the same order, to the bit.
//!
//! From [`BLOCK_MIN`] manifolds the cut sweep takes the *block order* instead
//! (`wide.rs`): each region runs all of a solve's sweeps on its own, and the seam's
//! sweeps come last ([`BLOCK_SLICE_PARTS`]).
//!
//! Within a colour the order does not change the result, so a colour's manifolds can
//! be solved four at a time (SIMD lanes, `wide.rs`) or split across threads, and the
//! answer is bitwise the same: the colouring itself is sequential and depends only on
//! the manifold order, which the narrowphase keeps sorted by collider pair.
//!
//! Each colour keeps a bitset of its bodies (`n/8` bytes): `MAX_COLORS · n/8` bytes in
//! all, reused from step to step.

use crate::settings::SweepOrder;

/// Colours tried before a manifold goes to the overflow set. A box in a pyramid touches
/// six neighbours; a heap of boxes rarely more than ten.
pub(crate) const MAX_COLORS: usize = 16;

const NONE: u32 = u32::MAX;

/// Builds in a row that kept the colouring before a new one is list-scheduled
/// ([`Coloring::list_schedule`]); a colouring made sooner after the last keeps each
/// manifold at its earliest level. The first colouring is list-scheduled. (With levels
/// of one unit each, list-scheduling every colouring shortens `pile_1000`'s settling
/// sweeps by 5 % but lengthens its median step by 5 %: the schedule costs more.)
const LIST_AFTER: u32 = 8;

/// How far a level of the list schedule reaches for manifolds to fill its lanes, in a
/// sweep of at least [`BLOCK_MIN`] manifolds: up to this many levels of urgency
/// (`alap`) past its most urgent one. A manifold ready long before it is needed (a
/// box's contact with the ground, ready at once, whose box meets its next manifold a
/// hundred levels on across a wide row) stays near that next one instead of filling
/// an early level. Each body's manifolds then lie a few units apart in the sweep, so
/// the wavefront of sweeps (`wide.rs`) follows a few tiles behind: unbounded,
/// `pyramid_100`'s first tiles reached 77 tiles ahead, and the next sweep waited until
/// the one before had streamed most of region 0 through the cache.
///
/// Smaller sweeps keep the unbounded fill: their rows stay in a core's cache, where
/// the reach costs little, and there the contacts ready at once (a heap's or a wall's
/// on the ground, which rarely move) fill units of their own, whose rows a step keeps
/// (`reuse.rs`). With the window on every sweep `pile_1000` kept its rows on 55 steps
/// of 600 instead of 65 and its resting steps took 1–3 % longer, `pyramid_40` kept them
/// on 550 instead of 568 (`docs/performance-log.md`, *Fills kept near their bodies,
/// and the seam beside region 1*).
const FILL_AHEAD: usize = 16;

/// From this many manifolds in the sequential order, the sweep runs in two regions
/// (see [`Coloring::regions`]).
pub(crate) const REGION_MIN: usize = 1024;

/// The regions a large sequential sweep is cut into: one per thread of a two-core
/// machine. A constant, not the pool's size, so that every thread count sweeps in the
/// same order.
pub(crate) const REGIONS: usize = 2;

/// The slices of a cut sweep ([`Coloring::cut`]) and the region (the thread's part)
/// that sweeps each: region 0; region 1's manifolds on a seam body; the seam, swept by
/// region 0's thread; the rest of region 1.
pub(crate) const SLICE_PARTS: [u32; 4] = [0, 1, 0, 1];

/// From this many manifolds a cut sweep takes the *block order* (`wide.rs`): each
/// region's units run all of a solve's sweeps, the two regions at once on two threads,
/// and the seam's sweeps come after them. The regions share no body, so each region's
/// sweeps run as the one-thread wavefront does, with no wait on the other thread; the
/// price is that a correction crosses the seam once a solve instead of once a sweep.
/// Measured (`docs/performance-log.md`, *The block order for the largest sweeps*): for
/// `pyramid_40` (2 380 manifolds), whose drift after 10 s went from 6.3 to 31.8 mm in
/// the block order, the price is too high; `pyramid_100` (14 950) fell either way when
/// this was chosen (it stands since its position pass's lift is paid from the motion),
/// and its two-thread step is 5–6 % shorter.
pub(crate) const BLOCK_MIN: usize = 8192;

/// The slices of a cut sweep in the block order (its units in the order region 0,
/// region 1's manifolds on a seam body, the rest of region 1, the seam) and the part
/// that sweeps each; the seam's sweeps run after both parts'.
pub(crate) const BLOCK_SLICE_PARTS: [u32; 4] = [0, 1, 1, 0];

const R0: u8 = 0;
const R1: u8 = 1;
const SEAM: u8 = 2;

/// A manifold's movable bodies (`NONE`: fixed) and, on each, the manifolds before and
/// after it in store order.
#[derive(Debug, Clone, Copy)]
struct Links {
    body: [u32; 2],
    prev: [u32; 2],
    next: [u32; 2],
}

/// The colours of the last step: manifold indices per colour, and the overflow set.
#[derive(Debug, Clone, Default)]
pub(crate) struct Coloring {
    bits: Vec<Vec<u64>>,
    /// Scratch: the manifolds to colour, `(manifold, a, b)`.
    input: Vec<(u32, u32, u32)>,
    /// What the colouring was built from (each manifold's bodies and whether it goes to
    /// the overflow set, the fixed bodies, the order), and the scratch for this call's.
    last_key: Vec<(u32, u32, bool)>,
    key: Vec<(u32, u32, bool)>,
    last_fixed: Vec<bool>,
    order: Option<SweepOrder>,
    /// The last `build` kept the colouring before it (same inputs).
    pub reused: bool,
    /// The contact store's `keys_at` at the last build (0: not known), and whether the
    /// last build was given the same non-zero one as the build before it: then its
    /// manifolds, their bodies and point counts are those of that build, unlooked at.
    keys_at: u64,
    pub same_keys: bool,
    /// The colouring is list-scheduled (or has nothing to schedule: no manifold in the
    /// levels, or the greedy colours of [`SweepOrder::Colored`]); see
    /// [`relist`](Self::relist).
    listed: bool,
    /// Builds in a row that kept it (`u32::MAX` before the first colouring).
    steady: u32,
    /// Scratch of the level scheduling: last manifold per body, level and links per
    /// manifold.
    last: Vec<u32>,
    level: Vec<u32>,
    links: Vec<Links>,
    alap: Vec<u32>,
    pending: Vec<u8>,
    ready: Vec<Vec<u32>>,
    /// A bit per bucket of `ready`: set where the bucket holds a manifold.
    filled: Vec<u64>,
    placed: Vec<u32>,
    /// Each manifold's point count (store order), and the manifolds a level takes in
    /// list scheduling.
    points: Vec<u32>,
    lanes: usize,
    /// Manifold indices of each colour, in store order.
    pub colors: Vec<Vec<u32>>,
    /// Manifolds solved one by one after the colours.
    pub overflow: Vec<u32>,
    /// Where the colours of each region end (see [`Coloring::regions`]); empty when
    /// the sweep is not cut.
    region_ends: Vec<usize>,
    /// Scratch of the cut: each body's front, then its region (1, 2; 3: region 1 with
    /// a seam manifold).
    region_of: Vec<u32>,
    /// Scratch: the manifolds to colour ordered by region.
    by_region: Vec<(u32, u32, u32)>,
    /// Scratch: manifold ends per front; the seam's manifolds by first-fit colour,
    /// `colour << 32 | manifold`.
    seam_keys: Vec<u64>,
    /// How many levels past its most urgent manifold a level of this build's list
    /// schedule fills its lanes from ([`FILL_AHEAD`] from [`BLOCK_MIN`] manifolds).
    fill_ahead: usize,
    /// The tests' [`BLOCK_MIN`] for the fill window (`None`: the constant).
    #[cfg(test)]
    fill_from: Option<usize>,
}

impl Coloring {
    /// Colour `pairs` (solver indices of the two bodies of each manifold, whether it
    /// goes to the overflow set anyway, and its point count); `fixed[i]` marks solver
    /// bodies that impulses do not move. `lanes`: the manifolds a list-scheduled level
    /// takes (the packed solver's eight, one unit of its sweep). In the sequential
    /// order the caller marks the manifolds of an island the exact mode takes: they
    /// are swept one by one from the scalar rows the exact solve reads, in store order
    /// — for an island's bodies the same sequence of updates as its levels would give
    /// (no other manifold touches them), without four-lane groups that a column of
    /// boxes fills one lane of.
    #[cfg(test)]
    pub fn build(
        &mut self,
        pairs: impl ExactSizeIterator<Item = (u32, u32, bool, u32)> + Clone,
        fixed: &[bool],
        order: SweepOrder,
        lanes: usize,
    ) {
        self.build_keyed(pairs, fixed, order, lanes, 0);
    }

    /// [`build`](Self::build), told the contact store's `keys_at` (`ContactStore`): the
    /// same non-zero number as at the last build means the same `pairs`, which are then
    /// not compared. On `pyramid_100` the comparison read 15 000 manifolds' bodies, some
    /// 30 µs of each two-thread build on one thread (`docs/performance-log.md`).
    pub fn build_keyed(
        &mut self,
        pairs: impl ExactSizeIterator<Item = (u32, u32, bool, u32)> + Clone,
        fixed: &[bool],
        order: SweepOrder,
        lanes: usize,
        keys_at: u64,
    ) {
        // A resting scene keeps its contacts from step to step: the same manifolds on
        // the same bodies give the same colouring, so the last one stands (their point
        // counts only shape the levels, and a changed count leaves them valid).
        // (Compared in place first: a colouring that stands writes nothing.)
        self.same_keys = keys_at != 0 && keys_at == self.keys_at;
        self.keys_at = keys_at;
        let mut last = self.last_key.iter();
        self.reused = self.order == Some(order)
            && self.lanes == lanes
            && fixed == self.last_fixed
            && (self.same_keys
                || pairs.len() == self.last_key.len()
                    && pairs
                        .clone()
                        .all(|(a, b, scalar, _)| last.next() == Some(&(a, b, scalar))));
        if self.reused {
            self.steady = self.steady.saturating_add(1);
            return;
        }
        let mut key = std::mem::take(&mut self.key);
        key.clear();
        self.points.clear();
        for (a, b, scalar, points) in pairs {
            key.push((a, b, scalar));
            self.points.push(points);
        }
        if self.order.is_none() {
            self.steady = u32::MAX;
        }
        std::mem::swap(&mut self.last_key, &mut key);
        self.key = key;
        self.last_fixed.clear();
        self.last_fixed.extend_from_slice(fixed);
        self.order = Some(order);
        self.lanes = lanes;
        for list in &mut self.colors {
            list.clear();
        }
        self.overflow.clear();
        let mut input = std::mem::take(&mut self.input);
        input.clear();
        for (m, &(a, b, scalar)) in self.last_key.iter().enumerate() {
            if scalar {
                self.overflow.push(m as u32);
            } else {
                input.push((m as u32, a, b));
            }
        }
        let n = input.len() + self.overflow.len();
        #[cfg(test)]
        let fill_from = self.fill_from.unwrap_or(BLOCK_MIN);
        #[cfg(not(test))]
        let fill_from = BLOCK_MIN;
        self.fill_ahead = if input.len() >= fill_from {
            FILL_AHEAD
        } else {
            usize::MAX / 2
        };
        self.region_ends.clear();
        match order {
            // Only a colouring that is list-scheduled (one that stands, or the first)
            // is cut: a settling heap colours anew nearly every step, and the cut costs
            // it more than its threads give back.
            SweepOrder::Sequential if input.len() >= REGION_MIN && self.steady >= LIST_AFTER => {
                let mut by_region = std::mem::take(&mut self.by_region);
                let bounds = self.cut(&input, fixed, &mut by_region);
                self.levels(&by_region, &bounds, n, fixed);
                self.by_region = by_region;
            }
            SweepOrder::Sequential => self.levels(&input, &[0, input.len()], n, fixed),
            SweepOrder::Colored => self.first_fit(&input, fixed),
        }
        self.listed = self.steady >= LIST_AFTER || input.is_empty() || order == SweepOrder::Colored;
        self.steady = 0;
        // Store order (the exact mode's manifolds and the colouring's misfits share no
        // body, so this only keeps the listing tidy).
        self.overflow.sort_unstable();
        self.input = input;
    }

    /// The cut into two regions, and the sweep order that lets two threads sweep one
    /// each (see [`Coloring::regions`]).
    ///
    /// Each movable body's *front* is the earliest level of its first manifold (the
    /// longest chain before it in store order): a sequential sweep reaches the bodies
    /// front by front (across a pyramid, diagonals from one bottom corner). The bodies
    /// of the earlier fronts, up to half the manifold ends, are region 0, the rest
    /// region 1, so the cut follows a front and the *seam* (manifolds across it) is
    /// where each region's sweep starts or ends. Writes the manifolds into `out` in
    /// four slices — region 0; region 1's on a seam body (`r1s`); the seam; the rest of
    /// region 1 (`r1r`) — and returns their bounds. Every body meets its manifolds
    /// region first, seam last; the slices' order keeps each of them next to the one
    /// it waits on, so a wavefront of sweeps over them stays a few tiles deep.
    fn cut(
        &mut self,
        pairs: &[(u32, u32, u32)],
        fixed: &[bool],
        out: &mut Vec<(u32, u32, u32)>,
    ) -> [usize; 5] {
        let movable = |x: u32| !fixed[x as usize];
        let n = fixed.len();
        // Fronts: `last` is each body's last manifold's level + 1 so far (0: none),
        // `region_of` its front + 1 (0: no manifold yet).
        self.last.clear();
        self.last.resize(n, 0);
        self.region_of.clear();
        self.region_of.resize(n, 0);
        let mut fronts = 0;
        for &(_, a, b) in pairs {
            let l = [a, b]
                .into_iter()
                .filter(|&x| movable(x))
                .map(|x| self.last[x as usize])
                .max()
                .unwrap_or(0);
            for x in [a, b].into_iter().filter(|&x| movable(x)) {
                self.last[x as usize] = l + 1;
                let f = &mut self.region_of[x as usize];
                if *f == 0 {
                    *f = l + 1;
                }
            }
            fronts = fronts.max(l as usize + 1);
        }
        // Manifold ends per front (`seam_keys` as scratch), then the first front of
        // region 1: where the ends before it reach half.
        self.seam_keys.clear();
        self.seam_keys.resize(fronts + 1, 0);
        for &(_, a, b) in pairs {
            for x in [a, b].into_iter().filter(|&x| movable(x)) {
                self.seam_keys[self.region_of[x as usize] as usize] += 1;
            }
        }
        let total: u64 = self.seam_keys.iter().sum();
        let mut before = 0;
        let mut split = fronts + 1;
        for (f, &ends) in self.seam_keys.iter().enumerate().skip(1) {
            if 2 * before >= total {
                split = f;
                break;
            }
            before += ends;
        }
        // Region of each body: 1 (region 0), 2 (region 1); 0 (none) stays 0. Then a
        // body of region 1 with a seam manifold is marked 3.
        for f in &mut self.region_of {
            if *f != 0 {
                *f = if (*f as usize) < split { 1 } else { 2 };
            }
        }
        let region = |r: &[u32], &(_, a, b): &(u32, u32, u32)| {
            let side = |x: u32| if movable(x) { r[x as usize] & 3 } else { 0 };
            match (side(a).min(2), side(b).min(2)) {
                (1, 2) | (2, 1) => SEAM,
                (2, _) | (_, 2) => R1,
                _ => R0,
            }
        };
        for p in pairs {
            if region(&self.region_of, p) == SEAM {
                for x in [p.1, p.2].into_iter().filter(|&x| movable(x)) {
                    if self.region_of[x as usize] == 2 {
                        self.region_of[x as usize] = 3;
                    }
                }
            }
        }
        let slice = |r: &[u32], p: &(u32, u32, u32)| match region(r, p) {
            R1 if [p.1, p.2]
                .into_iter()
                .any(|x| movable(x) && r[x as usize] == 3) =>
            {
                1
            }
            R1 => 3,
            SEAM => 2,
            _ => 0,
        };
        out.clear();
        let mut bounds = [0; 5];
        for k in 0..4 {
            out.extend(pairs.iter().filter(|p| slice(&self.region_of, p) == k));
            bounds[k + 1] = out.len();
        }
        // The seam's manifolds chain from end to end along the cut (a row's boxes each
        // stand on two below), so in store order they would take a level each. Their
        // order among themselves is free: first-fit colours, colour by colour (store
        // order within one), take a few levels.
        let seam = &mut out[bounds[2]..bounds[3]];
        self.last.clear();
        self.last.resize(n, 0);
        self.seam_keys.clear();
        for &(m, a, b) in seam.iter() {
            let mut used = 0u32;
            for x in [a, b].into_iter().filter(|&x| movable(x)) {
                used |= self.last[x as usize];
            }
            let c = (!used).trailing_zeros().min(31);
            for x in [a, b].into_iter().filter(|&x| movable(x)) {
                self.last[x as usize] |= 1 << c;
            }
            self.seam_keys.push(u64::from(c) << 32 | u64::from(m));
        }
        self.seam_keys.sort_unstable();
        for (p, &k) in seam.iter_mut().zip(&self.seam_keys) {
            let m = k as u32;
            let (a, b) = (self.last_key[m as usize].0, self.last_key[m as usize].1);
            *p = (m, a, b);
        }
        bounds
    }

    /// Level scheduling: manifold `m` goes one level after the last earlier manifold on
    /// either of its movable bodies, so every body meets its manifolds in store order and
    /// level-by-level solving is the sequential sweep, exactly. That gives the number of
    /// levels (the longest chain). Where the colouring before this one stood for
    /// `LIST_AFTER` builds, the manifolds are then placed one unit of the sweep a level
    /// ([`Coloring::list_schedule`]), else each at its earliest level, in store order.
    ///
    /// `bounds` cuts `pairs` into slices that are scheduled one after the other, each
    /// on levels of its own after the last slice's: a body meets its manifolds slice by
    /// slice, in store order within each (the regions of a large sweep, [`Self::cut`]).
    fn levels(&mut self, pairs: &[(u32, u32, u32)], bounds: &[usize], n: usize, fixed: &[bool]) {
        // (Only list scheduling reads the levels and links: a colouring kept at its
        // earliest levels needs each body's next free level alone.)
        self.level.clear();
        self.links.clear();
        if self.steady >= LIST_AFTER {
            self.level.resize(n, 0);
            self.links.resize(
                n,
                Links {
                    body: [NONE; 2],
                    prev: [NONE; 2],
                    next: [NONE; 2],
                },
            );
        }
        let mut base = 0;
        for w in bounds.windows(2) {
            let slice = &pairs[w[0]..w[1]];
            base += self.slice_levels(slice, base, fixed);
            if bounds.len() > 2 {
                self.region_ends.push(base);
            }
        }
    }

    /// [`Self::levels`] of one slice, on colours from `base` on; returns the colours it
    /// took.
    fn slice_levels(&mut self, pairs: &[(u32, u32, u32)], base: usize, fixed: &[bool]) -> usize {
        if self.steady < LIST_AFTER {
            return self.earliest_levels(pairs, base, fixed);
        }
        let levels = self.linked_levels(pairs, fixed);
        if self.colors.len() < base + levels {
            self.colors.resize_with(base + levels, Vec::new);
        }
        self.list_schedule(pairs, levels, base)
    }

    /// Each manifold's earliest level in `self.level`, with the links list scheduling
    /// reads; returns the levels.
    fn linked_levels(&mut self, pairs: &[(u32, u32, u32)], fixed: &[bool]) -> usize {
        self.last.clear();
        self.last.resize(fixed.len(), NONE);
        let mut levels = 0;
        for &(m, a, b) in pairs {
            let mut link = Links {
                body: [a, b],
                prev: [NONE; 2],
                next: [NONE; 2],
            };
            let mut l = 0;
            for k in 0..2 {
                let x = link.body[k];
                if fixed[x as usize] {
                    link.body[k] = NONE;
                    continue;
                }
                let p = self.last[x as usize];
                if p != NONE {
                    let before = &mut self.links[p as usize];
                    let kk = usize::from(before.body[0] != x);
                    before.next[kk] = m;
                    link.prev[k] = p;
                    l = l.max(self.level[p as usize] + 1);
                }
                self.last[x as usize] = m;
            }
            self.level[m as usize] = l;
            self.links[m as usize] = link;
            levels = levels.max(l as usize + 1);
        }
        levels
    }

    /// Each manifold into the colour of its earliest level, from `base` on, in store
    /// order; `last` holds each body's next free level (one past its last manifold's).
    /// Returns the levels.
    fn earliest_levels(&mut self, pairs: &[(u32, u32, u32)], base: usize, fixed: &[bool]) -> usize {
        self.last.clear();
        self.last.resize(fixed.len(), 0);
        let mut levels = 0;
        for &(m, a, b) in pairs {
            let free = |x: u32| {
                if fixed[x as usize] {
                    0
                } else {
                    self.last[x as usize]
                }
            };
            let l = free(a).max(free(b));
            for x in [a, b] {
                if !fixed[x as usize] {
                    self.last[x as usize] = l + 1;
                }
            }
            let l = l as usize;
            if l >= levels {
                levels = l + 1;
                if self.colors.len() < base + levels {
                    self.colors.resize_with(base + levels, Vec::new);
                }
            }
            self.colors[base + l].push(m);
        }
        levels
    }

    /// List scheduling, one unit of the sweep a level. Each manifold's latest level in
    /// a schedule of `levels` levels (the longest chain) is one before its earliest
    /// successor's latest (`alap`): its urgency. A manifold is ready once its previous
    /// manifold on each body is placed; each level takes the most urgent ready one, then
    /// up to `lanes − 1` more, most urgent first (in a sweep of at least [`BLOCK_MIN`]
    /// manifolds, no more than [`FILL_AHEAD`] levels of urgency past it), among those
    /// with no more points than it (a unit runs as many wide points as its longest
    /// manifold has), then any. A manifold still goes after its previous and before its
    /// next manifold on each body, so the sweep is the sequential sweep to the bit; only
    /// fewer lanes run empty, and no level leaves a group alone that could have run
    /// beside another within reach. (Which manifolds
    /// share a group does decide which rows a step keeps, `reuse.rs`, so the levels'
    /// fill is part of a scene's path.) A one-box-deep pyramid's side contacts chain
    /// each row from end to end, so few manifolds are ready at its first and last
    /// levels (`pyramid_40`: 361 units of one or two groups with levels of the longest
    /// chain, whole groups of four each, 337 units so).
    fn list_schedule(&mut self, pairs: &[(u32, u32, u32)], levels: usize, base: usize) -> usize {
        if levels == 0 {
            return 0;
        }
        let n = self.level.len();
        self.alap.clear();
        self.alap.resize(n, 0);
        let last = levels as u32 - 1;
        for &(m, _, _) in pairs.iter().rev() {
            let k = self.links[m as usize];
            let mut a = last;
            for nx in k.next {
                if nx != NONE {
                    a = a.min(self.alap[nx as usize] - 1);
                }
            }
            self.alap[m as usize] = a;
        }
        self.pending.clear();
        self.pending.resize(n, 0);
        if self.ready.len() < levels {
            self.ready.resize_with(levels, Vec::new);
        }
        for r in &mut self.ready {
            r.clear();
        }
        // Which buckets hold a ready manifold (so that the scans below skip the empty
        // ones a word at a time: ready manifolds lie far apart in a tall stack's
        // buckets), and how many wait.
        self.filled.clear();
        self.filled.resize(levels.div_ceil(64), 0);
        let mut waiting = 0;
        for &(m, _, _) in pairs {
            let k = &self.links[m as usize];
            let p = k.prev.iter().filter(|&&p| p != NONE).count() as u8;
            self.pending[m as usize] = p;
            if p == 0 {
                let a = self.alap[m as usize] as usize;
                self.ready[a].push(m);
                self.filled[a / 64] |= 1 << (a % 64);
                waiting += 1;
            }
        }
        let lanes = self.lanes.max(1);
        let mut placed = std::mem::take(&mut self.placed);
        let mut level = base;
        while waiting > 0 {
            placed.clear();
            let Some(lo) = next_filled(&self.filled, 0) else {
                break;
            };
            let Some(first) = self.ready[lo].pop() else {
                break;
            };
            placed.push(first);
            let most = self.points[first as usize];
            let reach = lo + self.fill_ahead;
            for any in [false, true] {
                let mut at = next_filled(&self.filled, lo);
                while let Some(j) = at.filter(|&j| placed.len() < lanes && j <= reach) {
                    let bucket = &mut self.ready[j];
                    let mut i = 0;
                    while i < bucket.len() && placed.len() < lanes {
                        let m = bucket[i];
                        if any || self.points[m as usize] <= most {
                            bucket.swap_remove(i);
                            placed.push(m);
                        } else {
                            i += 1;
                        }
                    }
                    at = next_filled(&self.filled, j + 1);
                }
            }
            // (The buckets a level emptied.)
            for &m in &placed {
                let a = self.alap[m as usize] as usize;
                if self.ready[a].is_empty() {
                    self.filled[a / 64] &= !(1 << (a % 64));
                }
            }
            waiting -= placed.len();
            if self.colors.len() <= level {
                self.colors.resize_with(level + 1, Vec::new);
            }
            self.colors[level].extend_from_slice(&placed);
            level += 1;
            for &m in &placed {
                let k = self.links[m as usize];
                for nx in k.next {
                    if nx != NONE {
                        let p = &mut self.pending[nx as usize];
                        *p -= 1;
                        if *p == 0 {
                            let a = self.alap[nx as usize] as usize;
                            self.ready[a].push(nx);
                            self.filled[a / 64] |= 1 << (a % 64);
                            waiting += 1;
                        }
                    }
                }
            }
        }
        self.placed = placed;
        level - base
    }

    /// Greedy colouring: the first colour where neither movable body is used yet.
    fn first_fit(&mut self, pairs: &[(u32, u32, u32)], fixed: &[bool]) {
        let words = fixed.len().div_ceil(64);
        if self.colors.len() < MAX_COLORS {
            self.colors.resize_with(MAX_COLORS, Vec::new);
        }
        self.bits.resize_with(MAX_COLORS, Vec::new);
        for bits in &mut self.bits {
            bits.clear();
            bits.resize(words, 0);
        }
        let free = |bits: &[u64], i: usize| bits[i / 64] & (1 << (i % 64)) == 0;
        for &(m, a, b) in pairs {
            let (a, b) = (a as usize, b as usize);
            let (fa, fb) = (fixed[a], fixed[b]);
            let color = self
                .bits
                .iter()
                .position(|bits| (fa || free(bits, a)) && (fb || free(bits, b)));
            match color {
                Some(c) => {
                    let bits = &mut self.bits[c];
                    if !fa {
                        bits[a / 64] |= 1 << (a % 64);
                    }
                    if !fb {
                        bits[b / 64] |= 1 << (b % 64);
                    }
                    self.colors[c].push(m);
                }
                None => self.overflow.push(m),
            }
        }
    }

    /// Whether the colouring is list-scheduled, or has nothing list scheduling would
    /// change (see [`relist`](Self::relist)).
    pub fn listed(&self) -> bool {
        self.listed
    }

    /// Colour anew at the next build, list-scheduled (and cut, as the first colouring
    /// is), whatever the builds before it. For a step whose rows have stood a while
    /// since a colouring made at its manifolds' earliest levels (a settling heap's last,
    /// kept as it came to rest): its sweeps then run fuller units from then on
    /// (`World::build_jacobians`).
    pub fn relist(&mut self) {
        self.order = None;
    }

    /// Whether every overflow manifold belongs to an island of its own, sharing no
    /// movable body with the coloured ones: in the sequential order the overflow set
    /// holds only the islands the caller marked (whole islands the exact mode takes);
    /// in the colouring order it also holds the misfits of a full palette.
    pub fn overflow_apart(&self) -> bool {
        self.order == Some(SweepOrder::Sequential)
    }

    /// A colouring whose first build keeps each manifold at its earliest level, as one
    /// made right after another does (tests).
    #[cfg(test)]
    pub(crate) fn at_earliest_levels() -> Self {
        Coloring {
            order: Some(SweepOrder::Sequential),
            steady: 0,
            ..Coloring::default()
        }
    }

    /// Where each region's colours end, the seam's last: a large sequential sweep
    /// (from [`REGION_MIN`] manifolds) is cut into [`REGIONS`] regions of its movable
    /// bodies by solver index, and the manifolds across two regions, the seam. Each
    /// region's manifolds are scheduled on levels of their own, one region after the
    /// other, the seam last: the regions share no body, so two threads sweep one each
    /// at the same time and meet only at the seam. Empty when the sweep is not cut.
    pub fn regions(&self) -> &[usize] {
        &self.region_ends
    }

    /// Colours in use (the last non-empty one and all before it).
    pub fn used(&self) -> usize {
        self.colors
            .iter()
            .rposition(|c| !c.is_empty())
            .map_or(0, |i| i + 1)
    }
}

/// The first bucket at or after `from` whose bit is set in `filled`.
fn next_filled(filled: &[u64], from: usize) -> Option<usize> {
    let mut w = from / 64;
    let mut bits = filled.get(w)? & (u64::MAX << (from % 64));
    loop {
        if bits != 0 {
            return Some(w * 64 + bits.trailing_zeros() as usize);
        }
        w += 1;
        bits = *filled.get(w)?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_colour_holds_two_manifolds_on_one_movable_body() {
        // A chain 1-2-3-...-40 plus every body on the ground (0).
        let n = 41;
        let mut fixed = vec![false; n];
        fixed[0] = true;
        let mut pairs: Vec<(u32, u32)> = (1..40).map(|i| (i, i + 1)).collect();
        pairs.extend((1..=40).map(|i| (0, i)));
        let mut c = Coloring::default();
        c.build(
            pairs.iter().map(|&(a, b)| (a, b, false, 1)),
            &fixed,
            SweepOrder::Colored,
            8,
        );
        assert!(c.overflow.is_empty());
        assert!(c.used() <= 3, "{}", c.used());
        let mut seen = 0;
        for list in &c.colors {
            let mut used = vec![false; n];
            for &m in list {
                let (a, b) = pairs[m as usize];
                for x in [a, b] {
                    if !fixed[x as usize] {
                        assert!(!used[x as usize], "body {x} twice in a colour");
                        used[x as usize] = true;
                    }
                }
                seen += 1;
            }
        }
        assert_eq!(seen, pairs.len());
    }

    #[test]
    fn levels_keep_every_bodys_manifolds_in_store_order() {
        // A 6 × 6 grid of bodies with neighbour contacts in a scrambled store order,
        // every body also on the ground (0).
        let n = 37;
        let mut fixed = vec![false; n];
        fixed[0] = true;
        let id = |x: u32, y: u32| 1 + x + 6 * y;
        let mut pairs = Vec::new();
        for k in 0..36u32 {
            let (x, y) = ((k * 7) % 6, (k * 11 / 6) % 6);
            pairs.push((0, id(x, y)));
            if x < 5 {
                pairs.push((id(x, y), id(x + 1, y)));
            }
            if y < 5 {
                pairs.push((id(x, y), id(x, y + 1)));
            }
        }
        // List-scheduled (a first colouring), one to four points a manifold, levels of
        // four and of eight; then at the earliest levels.
        for lanes in [4, 8, 0] {
            let mut c = Coloring::default();
            let points = |m: usize| 1 + (m * 5 % 4) as u32;
            let of = |p: &[(u32, u32)]| {
                let m = p.iter().enumerate();
                m.map(|(m, &(a, b))| (a, b, false, points(m)))
                    .collect::<Vec<_>>()
            };
            if lanes == 0 {
                c.build(of(&pairs).into_iter(), &fixed, SweepOrder::Sequential, 4);
                let mut other = pairs.clone();
                other.push((0, 1));
                c.build(of(&other).into_iter(), &fixed, SweepOrder::Sequential, 4);
                for list in &mut c.colors {
                    list.retain(|&m| (m as usize) < pairs.len());
                }
            } else {
                c.build(
                    of(&pairs).into_iter(),
                    &fixed,
                    SweepOrder::Sequential,
                    lanes,
                );
                assert!(c.colors.iter().all(|l| l.len() <= lanes));
            }
            check_levels(&c, &pairs, &fixed);
        }
    }

    /// Each manifold's level; asserts that every manifold of `pairs` has one and that
    /// no level holds two on one movable body.
    fn levels_of(c: &Coloring, pairs: &[(u32, u32)], fixed: &[bool]) -> Vec<usize> {
        let mut level = vec![usize::MAX; pairs.len()];
        for (l, list) in c.colors.iter().enumerate() {
            let mut used = vec![false; fixed.len()];
            for &m in list {
                level[m as usize] = l;
                let (a, b) = pairs[m as usize];
                for x in [a, b].into_iter().filter(|&x| !fixed[x as usize]) {
                    assert!(!used[x as usize], "body {x} twice in level {l}");
                    used[x as usize] = true;
                }
            }
        }
        assert!(
            level.iter().all(|&l| l != usize::MAX),
            "a manifold has no level"
        );
        level
    }

    /// Every manifold of `pairs` has a level, no level holds two on one movable body,
    /// and every body meets its manifolds in store order.
    fn check_levels(c: &Coloring, pairs: &[(u32, u32)], fixed: &[bool]) {
        let n = fixed.len();
        assert!(c.overflow.is_empty());
        let level = levels_of(c, pairs, fixed);
        for body in 1..n as u32 {
            let mine: Vec<usize> = (0..pairs.len())
                .filter(|&m| pairs[m].0 == body || pairs[m].1 == body)
                .map(|m| level[m])
                .collect();
            assert!(
                mine.windows(2).all(|w| w[0] < w[1]),
                "body {body}: levels {mine:?} not in store order"
            );
        }
    }

    /// A list-scheduled sweep of at least `REGION_MIN` manifolds (a 40 × 40 grid of
    /// bodies on the ground, neighbours touching) is cut into two regions about half
    /// each that share no movable body, and a seam across them: every body meets its region's
    /// manifolds first, in store order, and its seam manifolds last; region 1's slice
    /// on the seam's bodies holds every one of its manifolds on them; the seam's levels
    /// are about full, not one per manifold.
    #[test]
    fn a_large_sweep_is_cut_into_two_regions_and_a_seam() {
        let side = 40u32;
        let id = |x: u32, y: u32| 1 + x + side * y;
        let n = (side * side + 1) as usize;
        let mut fixed = vec![false; n];
        fixed[0] = true;
        let mut pairs = Vec::new();
        for y in 0..side {
            for x in 0..side {
                if y == 0 {
                    pairs.push((0, id(x, y)));
                }
                if x + 1 < side {
                    pairs.push((id(x, y), id(x + 1, y)));
                }
                if y + 1 < side {
                    pairs.push((id(x, y), id(x, y + 1)));
                }
            }
        }
        assert!(pairs.len() >= REGION_MIN);
        // A colouring at its earliest levels (a settling heap's) is not cut.
        let mut c = Coloring::at_earliest_levels();
        c.build(of(&pairs), &fixed, SweepOrder::Sequential, 8);
        assert!(c.regions().is_empty());
        for lanes in [8, 4] {
            let mut c = Coloring::default();
            c.build(of(&pairs), &fixed, SweepOrder::Sequential, lanes);
            let ends = c.regions().to_vec();
            assert_eq!(ends.len(), SLICE_PARTS.len());
            assert_eq!(*ends.last().unwrap(), c.used());
            let slice_of = |l: usize| ends.iter().position(|&e| l < e).unwrap();
            let level = levels_of(&c, &pairs, &fixed);
            // Region of each body from its manifolds outside the seam.
            let mut region = vec![u32::MAX; n];
            let mut count = [0usize; 2];
            for (m, &(a, b)) in pairs.iter().enumerate() {
                let k = slice_of(level[m]);
                if k == 2 {
                    continue;
                }
                let r = SLICE_PARTS[k];
                count[r as usize] += 1;
                for x in [a, b].into_iter().filter(|&x| !fixed[x as usize]) {
                    assert!(
                        region[x as usize] == u32::MAX || region[x as usize] == r,
                        "body {x} in both regions"
                    );
                    region[x as usize] = r;
                }
            }
            for r in count {
                assert!(4 * r > pairs.len() && 3 * pairs.len() > 4 * r, "{count:?}");
            }
            let on_seam: Vec<bool> = (0..n as u32)
                .map(|x| {
                    let seam = |(m, &(a, b)): (usize, &(u32, u32))| {
                        slice_of(level[m]) == 2 && (a == x || b == x)
                    };
                    pairs.iter().enumerate().any(seam)
                })
                .collect();
            let seam = pairs
                .iter()
                .enumerate()
                .filter(|&(m, _)| slice_of(level[m]) == 2)
                .count();
            assert!(seam > 0 && seam < pairs.len() / 8, "{seam} seam manifolds");
            // A level takes `lanes` manifolds: full levels but for a few colours' ends.
            let levels = ends[2] - ends[1];
            assert!(
                levels <= seam.div_ceil(lanes) + 4,
                "{seam} in {levels} levels"
            );
            for (m, &(a, b)) in pairs.iter().enumerate() {
                let k = slice_of(level[m]);
                let seam_body = [a, b]
                    .into_iter()
                    .any(|x| !fixed[x as usize] && on_seam[x as usize]);
                match k {
                    1 => assert!(seam_body),
                    3 => assert!(!seam_body, "{m} on a seam body after the seam"),
                    _ => {}
                }
            }
            // Every body: its region's manifolds in store order, then the seam's.
            for body in 1..n as u32 {
                let mine: Vec<(bool, usize)> = (0..pairs.len())
                    .filter(|&m| pairs[m].0 == body || pairs[m].1 == body)
                    .map(|m| (slice_of(level[m]) == 2, level[m]))
                    .collect();
                let (seam, region): (Vec<&(bool, usize)>, Vec<_>) = mine.iter().partition(|p| p.0);
                assert!(region.windows(2).all(|w| w[0].1 < w[1].1), "body {body}");
                let last = region.last().map_or(0, |p| p.1);
                assert!(seam.iter().all(|p| p.1 > last), "body {body}: {mine:?}");
            }
        }
    }

    /// Five independent manifolds, then three that follow the first three.
    const FIVE_THEN_THREE: [(u32, u32); 8] = [
        (1, 2),
        (3, 4),
        (5, 6),
        (7, 8),
        (9, 10),
        (1, 11),
        (3, 12),
        (5, 13),
    ];

    /// `pairs` with one point each, as `Coloring::build` takes them.
    fn of(
        pairs: &[(u32, u32)],
    ) -> impl ExactSizeIterator<Item = (u32, u32, bool, u32)> + Clone + '_ {
        pairs.iter().map(|&(a, b)| (a, b, false, 1))
    }

    /// The sizes of the levels in use.
    fn sizes(c: &Coloring) -> Vec<usize> {
        c.colors[..c.used()].iter().map(Vec::len).collect()
    }

    #[test]
    fn each_level_is_one_unit_of_the_sweep_where_the_order_allows() {
        // `FIVE_THEN_THREE` in four-lane units: levels of 5 and 3 (three groups of four
        // lanes) become 4 and 4, the first three (which the last three follow) first.
        let fixed = vec![false; 14];
        let mut c = Coloring::default();
        c.build(of(&FIVE_THEN_THREE), &fixed, SweepOrder::Sequential, 4);
        assert_eq!(sizes(&c), [4, 4]);
        assert!([0, 1, 2].iter().all(|m| c.colors[0].contains(m)));
        // In eight-lane units both groups of the first level are one unit: 5 and 3.
        c = Coloring::default();
        c.build(of(&FIVE_THEN_THREE), &fixed, SweepOrder::Sequential, 8);
        assert_eq!(sizes(&c), [5, 3]);
        // Ten manifolds ready at once, and four on the bodies of the first, two by two
        // (the longest chain is three): a level takes eight at most, the first of the
        // ten among them, as the others wait for it.
        let mut pairs: Vec<(u32, u32)> = (0..10).map(|i| (2 * i + 1, 2 * i + 2)).collect();
        pairs.extend([(1, 30), (2, 31), (1, 32), (2, 33)]);
        let fixed = vec![false; 34];
        c = Coloring::default();
        c.build(of(&pairs), &fixed, SweepOrder::Sequential, 8);
        assert_eq!(sizes(&c), [8, 4, 2]);
        assert!(c.colors[0].contains(&0));
        // A manifold that must stay put keeps its level: (1, 2) is followed by (1, 11).
        // (A first colouring again: one made right after another keeps the earliest
        // levels, `contacts_that_keep_changing_stay_at_their_earliest_levels`.)
        let pairs = [(1, 2), (3, 4), (1, 5), (3, 6), (1, 7)];
        let fixed = vec![false; 14];
        c = Coloring::default();
        c.build(of(&pairs), &fixed, SweepOrder::Sequential, 4);
        assert_eq!(sizes(&c), [2, 2, 1]);
        assert!([0, 1].iter().all(|m| c.colors[0].contains(m)));
        assert!([2, 3].iter().all(|m| c.colors[1].contains(m)));
    }

    /// A row of 200 boxes on the ground, each touching the next: the contacts with the
    /// ground are all ready at once, but each box's side contact waits for the chain
    /// along the row. With the fill window (from `BLOCK_MIN` manifolds, here from any)
    /// a level fills its lanes only from manifolds needed within `FILL_AHEAD` levels,
    /// so each box meets its ground and side contacts a few levels apart, not up to
    /// 200 (and the sweep is still the sequential one).
    #[test]
    fn a_level_fills_its_lanes_only_from_manifolds_needed_soon() {
        let boxes = 200u32;
        let n = boxes as usize + 1;
        let mut fixed = vec![false; n];
        fixed[0] = true;
        let mut pairs: Vec<(u32, u32)> = (1..=boxes).map(|x| (0, x)).collect();
        pairs.extend((1..boxes).map(|x| (x, x + 1)));
        let mut c = Coloring {
            fill_from: Some(0),
            ..Coloring::default()
        };
        c.build(of(&pairs), &fixed, SweepOrder::Sequential, 8);
        check_levels(&c, &pairs, &fixed);
        let level = levels_of(&c, &pairs, &fixed);
        let apart = (1..boxes as usize)
            .map(|x| level[boxes as usize + x - 1] - level[x - 1])
            .max()
            .unwrap();
        // (171 levels apart when a level took any ready manifold.)
        assert!(
            apart <= FILL_AHEAD + 2,
            "ground and side contacts {apart} levels apart"
        );
        // The chain along the row takes a level each: no more levels for that.
        assert_eq!(c.used(), boxes as usize);
    }

    #[test]
    fn the_next_filled_bucket_is_found_across_words() {
        let mut filled = vec![0u64; 3];
        for b in [3, 64, 130] {
            filled[b / 64] |= 1 << (b % 64);
        }
        let found: Vec<_> = [0, 3, 4, 64, 65, 130, 131, 500]
            .map(|from| next_filled(&filled, from))
            .into();
        let want = [
            Some(3),
            Some(3),
            Some(64),
            Some(64),
            Some(130),
            Some(130),
            None,
            None,
        ];
        assert_eq!(found, want);
    }

    #[test]
    fn a_level_takes_manifolds_of_like_point_counts() {
        // Eight manifolds that may go in any order, of 4 and 1 points in turn, in
        // four-lane units: the units run 4 and 1 wide points, not 4 and 4.
        let fixed = vec![false; 17];
        let pairs: Vec<_> = (0..8)
            .map(|i| (2 * i + 1, 2 * i + 2, false, if i % 2 == 0 { 4 } else { 1 }))
            .collect();
        let mut c = Coloring::default();
        c.build(pairs.iter().copied(), &fixed, SweepOrder::Sequential, 4);
        assert_eq!(sizes(&c), [4, 4]);
        for level in &c.colors[..2] {
            let points: Vec<u32> = level.iter().map(|&m| pairs[m as usize].3).collect();
            assert!(points.windows(2).all(|w| w[0] == w[1]), "{points:?}");
        }
    }

    #[test]
    fn contacts_that_keep_changing_stay_at_their_earliest_levels() {
        // `FIVE_THEN_THREE`: list scheduling fills two levels of four (the test above);
        // at their earliest levels they are five and three.
        let fixed = vec![false; 16];
        let pairs = FIVE_THEN_THREE;
        let mut c = Coloring::default();
        // The first colouring is list-scheduled.
        c.build(of(&pairs), &fixed, SweepOrder::Sequential, 4);
        assert_eq!(sizes(&c), [4, 4]);
        // A new contact right after: earliest levels, in store order.
        let mut more = pairs.to_vec();
        more.push((14, 15));
        c.build(of(&more), &fixed, SweepOrder::Sequential, 4);
        assert_eq!(sizes(&c), [6, 3]);
        assert_eq!(c.colors[0], [0, 1, 2, 3, 4, 8]);
        // The same contacts for `LIST_AFTER` steps, then a change: list-scheduled again.
        for _ in 0..LIST_AFTER {
            c.build(of(&more), &fixed, SweepOrder::Sequential, 4);
            assert!(c.reused);
        }
        c.build(of(&pairs), &fixed, SweepOrder::Sequential, 4);
        assert_eq!(sizes(&c), [4, 4]);
        // Right after, at their earliest levels again: (1, 11), (3, 12) and (5, 13)
        // one level after (1, 2), (3, 4) and (5, 6), as the sequential sweep meets them.
        c.build(of(&more), &fixed, SweepOrder::Sequential, 4);
        assert_eq!(c.colors[1], [5, 6, 7]);
    }

    #[test]
    fn manifolds_marked_scalar_go_to_the_overflow_set_in_store_order() {
        // Two islands: a column 1-2-3 (marked: the exact mode takes it) and a pair 4-5.
        let fixed = vec![true, false, false, false, false, false];
        let pairs = [
            (0, 1, true),
            (0, 4, false),
            (1, 2, true),
            (4, 5, false),
            (2, 3, true),
        ];
        let mut c = Coloring::default();
        for order in [SweepOrder::Sequential, SweepOrder::Colored] {
            c.build(
                pairs.iter().map(|&(a, b, s)| (a, b, s, 1)),
                &fixed,
                order,
                8,
            );
            assert_eq!(c.overflow, [0, 2, 4], "{order:?}");
            let coloured: Vec<u32> = c.colors.iter().flatten().copied().collect();
            assert_eq!(coloured, [1, 3], "{order:?}");
        }
    }

    #[test]
    fn the_same_contacts_keep_their_colouring_and_any_change_colours_anew() {
        let mut fixed = vec![false; 8];
        fixed[0] = true;
        let pairs = vec![(0, 1, false), (1, 2, false), (2, 3, false), (0, 4, false)];
        let mut c = Coloring::default();
        c.build(
            pairs.iter().map(|&(a, b, s)| (a, b, s, 1)),
            &fixed,
            SweepOrder::Sequential,
            8,
        );
        assert!(!c.reused);
        let levels = c.colors.clone();
        c.build(
            pairs.iter().map(|&(a, b, s)| (a, b, s, 1)),
            &fixed,
            SweepOrder::Sequential,
            8,
        );
        assert!(c.reused);
        assert_eq!(c.colors, levels);
        // A new contact, a body that stopped moving, a manifold the exact mode takes, the
        // other order: each colours anew.
        let mut more = pairs.clone();
        more.push((4, 5, false));
        c.build(
            more.iter().map(|&(a, b, s)| (a, b, s, 1)),
            &fixed,
            SweepOrder::Sequential,
            8,
        );
        assert!(!c.reused);
        assert_eq!(c.colors.iter().flatten().count(), 5);
        let mut still = fixed.clone();
        still[4] = true;
        c.build(
            more.iter().map(|&(a, b, s)| (a, b, s, 1)),
            &still,
            SweepOrder::Sequential,
            8,
        );
        assert!(!c.reused);
        let mut taken = more.clone();
        taken[0].2 = true;
        c.build(
            taken.iter().map(|&(a, b, s)| (a, b, s, 1)),
            &still,
            SweepOrder::Sequential,
            8,
        );
        assert!(!c.reused);
        assert_eq!(c.overflow, [0]);
        c.build(
            taken.iter().map(|&(a, b, s)| (a, b, s, 1)),
            &still,
            SweepOrder::Colored,
            8,
        );
        assert!(!c.reused);
        c.build(
            taken.iter().map(|&(a, b, s)| (a, b, s, 1)),
            &still,
            SweepOrder::Colored,
            8,
        );
        assert!(c.reused);
        assert_eq!(c.overflow, [0]);
    }

    #[test]
    fn a_star_overflows_past_the_colour_limit() {
        let n = MAX_COLORS + 6;
        let fixed = vec![false; n];
        let pairs: Vec<(u32, u32)> = (1..n as u32).map(|i| (0, i)).collect();
        let mut c = Coloring::default();
        c.build(of(&pairs), &fixed, SweepOrder::Colored, 8);
        assert_eq!(c.used(), MAX_COLORS);
        assert_eq!(c.overflow.len(), n - 1 - MAX_COLORS);
    }
}
