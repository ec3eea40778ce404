//! Parallel sweeps that give the serial sweep's answer bit for bit.
//!
//! The serial packed sweep (`wide.rs`) runs its *units* — one group, or two groups run
//! as one eight-lane kernel (`wide::plan_units`) — `u = 0, 1, …, U−1` in order, then
//! again for the next iteration. A unit's update reads and writes only the `dV` of its
//! own movable bodies (and its own rows), so two updates commute unless they share a
//! movable body. If every unit waits, for each of its movable bodies, for the unit that
//! touched that body just before it in the serial order, then every body's `dV` passes
//! through the same updates, in the same order, with the same values, whatever the
//! number of threads and whatever the timing: the answer is the serial one exactly.
//!
//! ```text
//!   task (s, u)          sweep s, unit u (serial order: s·U + u)
//!   dep(u, X)            previous unit on body X in the same sweep  → done(v) ≥ s + 1
//!                        none: the last unit v on X in the sweep before → done(v) ≥ s
//!   done(v)              sweeps finished by unit v: v's part runs its units in sweep
//!                        order, so done(v) ≥ n once the part's count of tasks run
//!                        reaches (n − 1)·len + i + 1 (v its i-th unit of len); the
//!                        count is stored with Release after each task's scatter and
//!                        read with Acquire by the waiters
//! ```
//!
//! The waits form chains along each body, so task `(s, u)` also runs after `(s − 1, u)`
//! (its first body's chain leads back to it) and a unit's rows are never touched by two
//! threads at once. No level barriers: a unit starts as soon as its bodies are free, so
//! the top of a stack in sweep `s` overlaps the bottom in sweep `s + 1`.
//!
//! A task runs its unit exactly as the serial sweep does: a pair whose groups share
//! their slots (`wide::assign_slots`; with a schedule every unit has slots of its own)
//! in the eight-lane kernel, with the threads' shared `dV` behind the kernel's
//! [`Velocities`] access. The solve's last sweep also does, unit by unit, what rides
//! along the serial last sweep (`wide::LastSweep`: the split pass's first sweep, the
//! impulse sums, the write-back), under the same ownership: the pseudo-velocities of a
//! unit's movable bodies pass from unit to unit in the order `dV` does.
//!
//! **Parts.** A large sweep that stands is cut into two regions and a seam by the
//! colouring (`Coloring::regions`): its units come as region 0, region 1's units on the
//! seam's bodies, the seam, the rest of region 1, and the regions share no body. There
//! part 0 runs region 0 and the seam, part 1 region 1, so the two threads meet only
//! where region 1's first units wait for the seam of the sweep before, and the seam
//! for region 1's first units: once a sweep. Other sweeps (from [`MIN_SWEEPS`] sweeps
//! a solve) are cut into one part per pool thread (at most one per core, [`cores`]) by
//! body index, balanced by wide points; a part keeps its units in sweep order and one
//! count of the tasks it has run, on a cache line of its own, so a thread writes its
//! own line, and a waiter that read a count high enough for a dependency needs no
//! further read for the dependencies below it.
//! A thread claims a part and runs, of the parts it owns, always the task that comes
//! first in the serial order. The first sweep's task of each unit also refreshes its
//! rows (`wide::Refresh`), so the rows stay in the cache of the core that sweeps them.
//! When a wait names a part nobody has claimed after 1 ms (its thread is late or busy),
//! the waiting thread claims it too. That keeps the sweep free of dead-locks on any
//! pool: the earliest unfinished task has all its dependencies done, and its part is
//! either owned — then its owner runs it next — or unclaimed, and then claimed by the
//! first thread that waits on it or runs out of work. A wait across the parts that
//! its last read does not settle costs a cache-line hand-over; when there are more
//! than one such dependency per two units (a pile whose bodies have mixed) the step
//! keeps the serial sweep.
//!
//! **Blocks.** A cut sweep in the block order (`wide.rs`, *The block order*; from
//! `color::BLOCK_MIN` manifolds) has its seam last: part 0 is region 0 then the seam,
//! part 1 all of region 1 ([`crate::color::BLOCK_SLICE_PARTS`]). Its velocity sweeps
//! ([`Schedule::run_blocks`]) run the two regions' units only: the regions share no
//! body, so no task waits on the other part, and each thread runs its part's tasks in
//! the one-thread wavefront's order ([`wavefront`]), with the reach of each tile within
//! its part (`Schedule::plan_blocks`). In a sweep without friction rows two
//! neighbouring units of a tile that share no movable body run side by side
//! (`PairKernel::solve_couple`), as the serial sweep runs them: no other part waits on
//! them here, which in the dependency order made pairing them cost more than it gave.
//! The seam's sweeps follow on whichever thread
//! first finds region 0 done and region 1's units on a seam body swept for the last
//! time, early in part 1: that thread sweeps the seam while the other may still sweep
//! the rest of region 1, which shares no body with it. The rows' build and the split
//! pass keep the dependency order above: with the seam last, every body still meets
//! its units in the order of one sweep.
//!
//! **A crew for the step.** A step that uses the pool keeps a second pool thread at hand
//! ([`Crew`]): the sweeps' jobs reach it in well under a microsecond instead of the
//! 40–70 µs a sleeping pool thread takes to wake (four solves a step). The step hands
//! no other work to the pool (its joins and parallel iterators) until that helper has
//! come ([`Crew::pool_ready`]): a thread that took one of the step's jobs before the
//! helper's would serve inside that job, and the step would wait for the job forever.
//! The helper's job is the second of a `rayon::join` whose first is the step
//! (`World::step_dt`): the pool thread that steals it is the helper.
//! A helper idle for [`ABANDON`] leaves the step (it may be serving inside a job of
//! another world's step that this step waits for). **Stalls.** A
//! wait on a part whose thread has run no task for [`STALL`] (its core went to another
//! process) sends the next solves to one thread ([`COOLING`], doubling while the
//! stalls go on): the serial sweep gives the same bits, so the choice is free.
//!
//! Cutting by place along gravity (left and right halves of a pyramid) was measured
//! and dropped for the index cut: a level of the sequential order is a diagonal front
//! across the whole pyramid, so its units span both halves. The regions follow those
//! fronts instead (`color.rs`).
//!
//! The only `unsafe` of the engine is here: the threads share the `dV` array and the
//! packed rows through raw pointers, with the exclusive access argued above, and the
//! crew's helper runs a job on the poster's stack.
#![allow(unsafe_code)]

use std::ops::Range;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::{Duration, Instant};

use glam::Vec4;
use smallvec::SmallVec;

use crate::jacobian::BuildParams;
use crate::lanes;
use crate::solver_body::SolverBodies;
use crate::solver_body::Velocity;
use crate::wide::{
    self, GaussSeidel, Group, LastSweep, ManifoldPoints, Refresh, Sor, Velocities, WideSide,
    WideSlot, WideT, solve_group, split_group,
};
use crate::wide_avx::PairKernel;
use crate::wide_build;

/// The threads the machine runs at once (`std::thread::available_parallelism`, read
/// once; 1 where it cannot tell).
pub(crate) fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Marks a dependency on the previous sweep.
const WRAP: u32 = 1 << 31;
const NONE: u32 = u32::MAX;

/// How long a thread waits for a part's own thread to start before taking the part.
const WAKE_UP: Duration = Duration::from_millis(1);

/// A part whose thread runs no task for this long while another waits on it has lost
/// its core (another process runs on it): a task takes a microsecond or so.
const STALL: Duration = Duration::from_micros(300);

/// Solves that run on one thread after one whose threads stalled, at first; each stall
/// in a row doubles it, up to [`COOLING_MAX`] (about four seconds of steps at the
/// default four solves a step), and a solve on the threads without a stall sets it back.
/// A lone stall (the hypervisor took the core a moment) costs one step on one thread
/// (sixteen solves at first, as before, cost four, and a shared host's rare stalls
/// then held `pyramid_100`'s two-thread step at one thread for 3–4 % of its steps);
/// on a machine whose other core stays busy, where a sweep that waits on a descheduled
/// thread costs a time slice of the scheduler (milliseconds) at every wait, the threads
/// are tried less and less often.
const COOLING: u32 = 4;
const COOLING_MAX: u32 = 1024;

/// How long a crew's helper waits with nothing to do before it leaves the step
/// ([`Crew::serve`]).
const ABANDON: Duration = Duration::from_millis(20);

/// Below this many groups a sweep is not worth splitting.
pub(crate) const MIN_GROUPS: usize = 64;

/// Below this many velocity sweeps per solve the split is not worth its hand-overs:
/// at the default four solve substeps of 3 sweeps, two threads were slower than one
/// (`pyramid_40` Solve stage 3.1 against 2.2 ms in the criterion bench), the pool's
/// second thread taking up to a millisecond to start each time. Once the rows were
/// built and refreshed on the pool, splitting 3-sweep solves gained 15–20 % on an
/// idle machine, but with another process busy on the second core a step took 10 to
/// 116 ms instead of 3.6 to 8 (a dependency wait spins on a part whose thread the OS
/// has descheduled), so short solves stay on one thread. That holds for sweeps cut by
/// body index; a sweep cut into regions (`Coloring::regions`) splits at any number of
/// sweeps: its threads meet once a sweep, the step's [`Crew`] answers the hand-overs
/// and the stall rule ([`STALL`]) the busy core.
pub(crate) const MIN_SWEEPS: u32 = 8;

/// A job the crew's helper runs: a `Fn` on the poster's stack, its lifetime erased (the
/// poster does not return before the helper is done with it, [`Crew::run`]).
type Job = *const (dyn Fn() + Sync + 'static);

const EMPTY: u32 = 0;
const POSTED: u32 = 1;
const RUNNING: u32 = 2;
const DONE: u32 = 3;

std::thread_local! {
    /// The crew of the step this thread runs (null: none).
    static CREW: std::cell::Cell<*const Crew> = const { std::cell::Cell::new(std::ptr::null()) };
}

/// A second pool thread kept at hand for the length of a step.
///
/// A solve handed its sweeps to the pool's threads with `rayon::scope`, and the other
/// thread, asleep since the last one, took 40–70 µs to start (measured on the project
/// machine), four solves a step: more than a third of `pyramid_40`'s solve. A step that
/// uses the pool now starts one helper on it ([`Crew::serve`]) that waits, spinning and
/// yielding, for the sweeps' jobs and runs the pool's other work (the narrowphase's
/// chunks) meanwhile; a job reaches it in well under a microsecond. The helper never
/// holds the poster up: a job it has not taken when the poster's own share is done is
/// withdrawn (the sweeps' parts are claimed by whichever thread comes, so the poster
/// has done the helper's share too).
#[derive(Debug)]
pub(crate) struct Crew {
    state: AtomicU32,
    job: std::cell::UnsafeCell<Option<Job>>,
    quit: AtomicBool,
    /// The pool index of the thread that runs the step, and whether a helper came.
    stepper: std::sync::atomic::AtomicUsize,
    helper: AtomicBool,
}

// SAFETY: `job` is written by the poster only while `state` is `EMPTY` (the helper does
// not read it then) and read by the helper only after it moved `state` from `POSTED` to
// `RUNNING` (Acquire, pairing with the poster's Release store of `POSTED`).
unsafe impl Sync for Crew {}

impl Default for Crew {
    fn default() -> Self {
        Crew {
            state: AtomicU32::new(EMPTY),
            job: std::cell::UnsafeCell::new(None),
            quit: AtomicBool::new(false),
            stepper: std::sync::atomic::AtomicUsize::new(usize::MAX),
            helper: AtomicBool::new(false),
        }
    }
}

/// Clears the thread's crew and lets the helper go when the step ends (or unwinds).
pub(crate) struct OnCrew<'a>(&'a Crew);

impl Drop for OnCrew<'_> {
    fn drop(&mut self) {
        CREW.with(|c| c.set(std::ptr::null()));
        self.0.quit.store(true, Ordering::Release);
    }
}

impl Crew {
    /// The crew of the step running on this thread.
    fn current() -> Option<&'static Crew> {
        let p = CREW.with(std::cell::Cell::get);
        // SAFETY: set by `enter` for as long as its `OnCrew` lives, which outlives every
        // use on this thread (the step's calls return before it drops).
        (!p.is_null()).then(|| unsafe { &*p })
    }

    /// Makes this crew the current thread's until the guard drops (called on the pool
    /// thread that runs the step, as the step starts: the helper's job may be stolen
    /// before, which [`serve`](Self::serve) does not mind).
    pub(crate) fn enter(&self) -> OnCrew<'_> {
        let me = rayon::current_thread_index().unwrap_or(usize::MAX);
        self.stepper.store(me, Ordering::Release);
        CREW.with(|c| c.set(self as *const Crew));
        OnCrew(self)
    }

    /// The helper's loop, the second job of the step's `rayon::join` (`World::step_dt`;
    /// a join's jobs live on the stack, where a broadcast allocated one a step): the
    /// pool thread that steals it while the stepping thread runs the step runs posted
    /// jobs, and the pool's other work, until the step ends. The stepping thread takes
    /// it back itself where nobody stole it before the step's end, and it returns at
    /// once. It cannot meet it sooner: the step hands the pool nothing (no join of its
    /// own to wait in) until a helper serves ([`Crew::pool_ready`]), and the only way a
    /// helper comes is by stealing this job.
    pub(crate) fn serve(&self, index: usize) {
        if index == self.stepper.load(Ordering::Acquire) || self.helper.swap(true, Ordering::AcqRel)
        {
            return;
        }
        // (The helper computes parts of the step: `thud_collide::denormals`.)
        let _flush = thud_collide::FlushDenormals::new();
        let mut idle = 0u32;
        let mut idle_since: Option<Instant> = None;
        loop {
            if self
                .state
                .compare_exchange(POSTED, RUNNING, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
            {
                struct Done<'a>(&'a AtomicU32);
                impl Drop for Done<'_> {
                    fn drop(&mut self) {
                        self.0.store(DONE, Ordering::Release);
                    }
                }
                let _done = Done(&self.state);
                // SAFETY: see `unsafe impl Sync`; the poster waits for `DONE`.
                if let Some(job) = unsafe { *self.job.get() } {
                    unsafe { (*job)() };
                }
                (idle, idle_since) = (0, None);
                continue;
            }
            if self.quit.load(Ordering::Acquire) {
                return;
            }
            match rayon::yield_now() {
                Some(rayon::Yield::Executed) => (idle, idle_since) = (0, None),
                _ if idle < 256 => {
                    std::hint::spin_loop();
                    idle += 1;
                }
                _ => {
                    // Idle for `ABANDON`: this helper may be serving inside a job that
                    // someone waits for (worlds stepped in each other's pool jobs): let
                    // it go; the step's sweeps run on its own thread from here.
                    if idle_since.get_or_insert_with(Instant::now).elapsed() > ABANDON {
                        return;
                    }
                    std::thread::yield_now();
                }
            }
        }
    }

    /// Whether the thread runs a step with a crew.
    pub(crate) fn active() -> bool {
        Self::current().is_some()
    }

    /// Whether the thread runs a step with a crew whose helper has come.
    pub(crate) fn serving() -> bool {
        Self::current().is_some_and(|c| c.helper.load(Ordering::Acquire))
    }

    /// Whether the thread may hand work to the pool (rayon's joins and parallel
    /// iterators): it runs no step with a crew, or its crew's helper has come.
    ///
    /// Before that, a job of the step's could be taken by the helper's thread ahead of
    /// the helper's job, which the thread would then run inside that job while waiting
    /// in it, and serve there until the step ends while the step waits for the job: the
    /// step hands nothing to the pool until its helper serves, so every job of the
    /// step's runs inside the helper's loop, never around it.
    pub(crate) fn pool_ready() -> bool {
        Self::current().is_none_or(|c| c.helper.load(Ordering::Acquire))
    }

    /// Runs `job` on this thread and on the helper, and returns once neither runs it.
    fn run(&self, job: &(dyn Fn() + Sync)) {
        // SAFETY: only the lifetime is erased; the helper is done with `job` (or never
        // took it) before this returns.
        let erased: Job = unsafe { std::mem::transmute(job as *const (dyn Fn() + Sync)) };
        // SAFETY: `state` is `EMPTY`: the helper does not read `job`.
        unsafe { *self.job.get() = Some(erased) };
        self.state.store(POSTED, Ordering::Release);
        job();
        if self
            .state
            .compare_exchange(POSTED, EMPTY, Ordering::AcqRel, Ordering::Acquire)
            .is_err()
        {
            let mut spins = 0u32;
            while self.state.load(Ordering::Acquire) != DONE {
                if spins < 256 {
                    std::hint::spin_loop();
                    spins += 1;
                } else {
                    std::thread::yield_now();
                }
            }
            self.state.store(EMPTY, Ordering::Release);
        }
    }
}

/// `f(a)` and `f(b)`, on this thread and the step's crew's helper at once in a step
/// with a crew, else one after the other. Each takes whichever of the two is left; the
/// helper may take none (then this thread runs both). The job is posted even before the
/// helper has come ([`Crew::serving`]): at a step's start the helper is still waking
/// (40–70 µs), and one that comes while this thread runs `f(a)` takes `f(b)` (the
/// broadphase's bodies, `World::make_collider_boxes`). For work split into
/// two halves that touch nothing in common (`World::integrate`'s bodies, the manifolds
/// of `RowReuse::moved`, the wide points of `WideContacts::resync`).
pub(crate) fn both<T: Send>(a: T, b: T, f: impl Fn(T) + Sync) {
    let Some(crew) = Crew::current() else {
        f(a);
        f(b);
        return;
    };
    let halves = [
        std::sync::Mutex::new(Some(a)),
        std::sync::Mutex::new(Some(b)),
    ];
    let take = |k: usize| halves[k].lock().ok().and_then(|mut h| h.take());
    crew.run(&|| {
        for k in 0..2 {
            if let Some(x) = take(k) {
                f(x);
            }
        }
    });
}

/// The dependency lists of one step's groups, their split into parts, and the progress
/// counters.
#[derive(Debug, Default)]
pub(crate) struct Schedule {
    /// Dependencies of all groups as slots (positions in `parts`), flattened (`WRAP`
    /// bit: previous sweep).
    deps: Vec<u32>,
    /// Group `g`'s dependencies are `deps[start[g]..start[g + 1]]`.
    start: Vec<u32>,
    /// The groups of each part, in sweep order: part `k` is
    /// `parts[part_start[k]..part_start[k + 1]]`.
    parts: Vec<u32>,
    part_start: Vec<u32>,
    /// Part of each slot (position in `parts`).
    part_of: Vec<u32>,
    claimed: Vec<AtomicBool>,
    /// Scratch of `build`: last and previous group per body (then `last` holds the slot
    /// of each group, `prev` the fill position of each part), work per body (then the
    /// part of each body).
    last: Vec<u32>,
    prev: Vec<u32>,
    work: Vec<u32>,
    /// A wait of the last run outlasted [`STALL`] (a thread of the sweep lost its
    /// core); then the solves left before the threads are tried again.
    stalled: AtomicBool,
    cooling: u32,
    backoff: u32,
    /// The last solve was allowed on the threads.
    tried: bool,
    /// Tasks run per part in this run (written by the part's thread only, each on its
    /// own cache line): what a wait on one of the part's units reads (`run`), and a
    /// wait that sees it stand for [`STALL`] marks a stall. A thread keeps the counts
    /// it last read, so a dependency that an earlier read settled costs no read of the
    /// other core's line.
    progress: Vec<Padded>,
    /// The block order (`wide::seam_last`; empty without it): each part's units before
    /// the seam's (a prefix of the part), and the wavefront's `reach` of each tile of
    /// them — the last tile of the same part with a unit on one of its bodies — part
    /// `k`'s tiles at `block_tiles[k]..block_tiles[k + 1]`.
    block_len: Vec<u32>,
    block_tiles: Vec<u32>,
    block_reach: Vec<u32>,
    /// The block order's units of region 1 on a seam body (`color::SLICE_PARTS`' second
    /// slice): the first `seam_waits` units of part 1, whose sweeps the seam's wait for.
    seam_waits: u32,
}

/// A counter on a cache line of its own.
#[derive(Debug, Default)]
#[repr(align(64))]
struct Padded(AtomicU32);

impl Clone for Schedule {
    fn clone(&self) -> Self {
        Self {
            deps: self.deps.clone(),
            start: self.start.clone(),
            parts: self.parts.clone(),
            part_start: self.part_start.clone(),
            part_of: self.part_of.clone(),
            claimed: self
                .claimed
                .iter()
                .map(|_| AtomicBool::new(false))
                .collect(),
            last: self.last.clone(),
            prev: self.prev.clone(),
            work: self.work.clone(),
            stalled: AtomicBool::new(false),
            cooling: self.cooling,
            backoff: self.backoff,
            tried: self.tried,
            progress: self.progress.iter().map(|_| Padded::default()).collect(),
            block_len: self.block_len.clone(),
            block_tiles: self.block_tiles.clone(),
            block_reach: self.block_reach.clone(),
            seam_waits: self.seam_waits,
        }
    }
}

/// A worker's place in one part: the next task is sweep `s`, the part's group `k`.
#[derive(Debug, Clone, Copy)]
struct Cursor {
    part: u32,
    s: u32,
    k: u32,
}

impl Schedule {
    /// Number of groups scheduled (0: not built this step, or not worth it).
    pub fn len(&self) -> usize {
        self.start.len().saturating_sub(1)
    }

    /// The parts the units are cut into.
    pub fn parts(&self) -> usize {
        self.part_start.len().saturating_sub(1)
    }

    /// Forget the last step's schedule.
    pub fn clear(&mut self) {
        self.start.clear();
        self.deps.clear();
        self.block_len.clear();
    }

    /// Whether solves run on one thread for now (see [`Schedule::threads_now`]).
    pub fn cooling(&self) -> bool {
        self.cooling > 0
    }

    /// Whether the next solve may run on the threads: not for a while after one whose
    /// threads stalled ([`COOLING`]). The serial sweep gives the same bits, so the
    /// choice is free.
    pub fn threads_now(&mut self) -> bool {
        if std::mem::take(self.stalled.get_mut()) {
            self.cooling = self.backoff.max(COOLING);
            self.backoff = (self.cooling * 2).min(COOLING_MAX);
        } else if self.tried {
            self.backoff = COOLING;
        }
        self.tried = self.cooling == 0;
        if self.cooling > 0 {
            self.cooling -= 1;
        }
        self.tried
    }

    /// Dependencies of the sweep's `units` (one group or two run as one, in sweep order,
    /// `wide::plan_units`) over `bodies` solver bodies, and their split into `parts`
    /// parts of about equal work. A task is one unit.
    pub fn build(
        &mut self,
        units: &[[u32; 2]],
        groups: &[Group],
        bodies: usize,
        (parts, regions): (usize, &[u32]),
        seam_from: Option<usize>,
    ) {
        let movable = |u: &[u32; 2]| {
            let [g0, g1] = *u;
            [g0, g1]
                .into_iter()
                .filter_map(|g| groups.get(g as usize))
                .flat_map(Group::movable_bodies)
        };
        self.last.clear();
        self.last.resize(bodies, NONE);
        for (g, unit) in units.iter().enumerate() {
            for b in movable(unit) {
                self.last[b as usize] = g as u32;
            }
        }
        self.prev.clear();
        self.prev.resize(bodies, NONE);
        self.deps.clear();
        self.start.clear();
        self.start.push(0);
        for (g, unit) in units.iter().enumerate() {
            let first = self.deps.len();
            for b in movable(unit) {
                let p = &mut self.prev[b as usize];
                let dep = if *p == NONE {
                    self.last[b as usize] | WRAP
                } else {
                    *p
                };
                if !self.deps[first..].contains(&dep) {
                    self.deps.push(dep);
                }
                *p = g as u32;
            }
            if self.deps.len() == first {
                // No movable body (cannot happen for a real manifold): still keep the
                // group's own sweeps in order.
                self.deps.push(g as u32 | WRAP);
            }
            self.start.push(self.deps.len() as u32);
        }
        let by_region =
            regions.len() == crate::color::SLICE_PARTS.len() && parts == crate::color::REGIONS;
        if by_region {
            let slices = if seam_from.is_some() {
                crate::color::BLOCK_SLICE_PARTS
            } else {
                crate::color::SLICE_PARTS
            };
            self.split_by_region(regions, slices);
        } else {
            self.split(units, groups, bodies, parts.max(1));
        }
        self.block_len.clear();
        if let Some(from) = seam_from.filter(|_| by_region) {
            self.plan_blocks(units, groups, bodies, from);
            self.seam_waits = regions[1] - regions[0];
        }
        // Progress is kept per slot (position in `parts`), so each thread writes its own
        // run of counters and only the rare cross-part waits read another's.
        self.last.clear();
        self.last.resize(units.len(), 0);
        for (slot, &g) in self.parts.iter().enumerate() {
            self.last[g as usize] = slot as u32;
        }
        for d in &mut self.deps {
            *d = self.last[(*d & !WRAP) as usize] | (*d & WRAP);
        }
        // Waits that cross parts are the price of the split: at more than one per two
        // units (a pile whose bodies have mixed) the sweeps stay on one thread.
        let mut cross = 0usize;
        for g in 0..units.len() {
            let mine = self.part_of[self.last[g] as usize];
            for &d in &self.deps[self.start[g] as usize..self.start[g + 1] as usize] {
                cross += usize::from(self.part_of[(d & !WRAP) as usize] != mine);
            }
        }
        if 2 * cross > units.len() {
            self.clear();
            return;
        }
        // Only those are waited on: a part runs in sweep order on the one thread that
        // owns it, so a dependency within the part has always run before.
        let mut kept = 0;
        for g in 0..units.len() {
            let mine = self.part_of[self.last[g] as usize];
            let (from, to) = (self.start[g] as usize, self.start[g + 1] as usize);
            self.start[g] = kept as u32;
            for i in from..to {
                let d = self.deps[i];
                if self.part_of[(d & !WRAP) as usize] != mine {
                    self.deps[kept] = d;
                    kept += 1;
                }
            }
        }
        self.start[units.len()] = kept as u32;
        self.deps.truncate(kept);
        self.claimed.truncate(parts);
        self.claimed.resize_with(parts, || AtomicBool::new(false));
        self.progress.truncate(parts);
        self.progress.resize_with(parts, Padded::default);
    }

    /// Parts by region (`Coloring::regions`): each slice of the cut sweep goes to its
    /// region's part (`color::SLICE_PARTS`).
    fn split_by_region(&mut self, ends: &[u32], slices: [u32; 4]) {
        self.part_of.clear();
        let mut from = 0;
        for (&end, &part) in ends.iter().zip(&slices) {
            self.part_of
                .extend(std::iter::repeat_n(part, (end - from) as usize));
            from = end;
        }
        self.fill_parts(crate::color::REGIONS);
    }

    /// The block order's plan (`block_len`, `block_tiles`, `block_reach`): each part's
    /// units before `from` (the seam's first), and the reach of each of their tiles.
    fn plan_blocks(&mut self, units: &[[u32; 2]], groups: &[Group], bodies: usize, from: usize) {
        let movable = |u: u32| {
            units[u as usize]
                .into_iter()
                .filter_map(|g| groups.get(g as usize))
                .flat_map(Group::movable_bodies)
        };
        // (`work` is free scratch here: each body's last position in its part.)
        self.work.clear();
        self.work.resize(bodies, 0);
        self.block_tiles.clear();
        self.block_tiles.push(0);
        self.block_reach.clear();
        for k in 0..self.parts() {
            let part = &self.parts[self.part_start[k] as usize..self.part_start[k + 1] as usize];
            let n = part.iter().take_while(|&&u| (u as usize) < from).count();
            self.block_len.push(n as u32);
            let bodies_of = |i: usize| movable(part[i]);
            wide::tile_reach(n, bodies_of, &mut self.work, &mut self.block_reach);
            self.block_tiles.push(self.block_reach.len() as u32);
        }
    }

    /// Parts by body index: a unit belongs to the part of its first movable body, and
    /// the bodies are cut into runs of about equal work (wide points). Bodies near in
    /// index are near in the scene for built scenes (a stack's rows, a pile's layers),
    /// so few units wait on another part. The split changes only the speed, never the
    /// answer.
    fn split(&mut self, units: &[[u32; 2]], groups: &[Group], bodies: usize, parts: usize) {
        let first = |u: &[u32; 2]| groups[u[0] as usize].movable_bodies().next();
        self.work.clear();
        self.work.resize(bodies, 0);
        for unit in units {
            if let Some(b) = first(unit) {
                let points = unit.iter().filter_map(|&g| groups.get(g as usize));
                self.work[b as usize] += points.map(|g| g.range().len() as u32).sum::<u32>();
            }
        }
        let total: u64 = self.work.iter().map(|&w| u64::from(w)).sum::<u64>().max(1);
        let mut before = 0u64;
        for w in &mut self.work {
            let part = (before * parts as u64 / total).min(parts as u64 - 1);
            before += u64::from(*w);
            *w = part as u32;
        }
        self.part_of.clear();
        self.part_of.extend(
            units
                .iter()
                .map(|u| first(u).map_or(0, |b| self.work[b as usize])),
        );
        self.fill_parts(parts);
    }

    /// The parts' slots from `part_of` (each unit's part): each part's units in sweep
    /// order; `part_of` then holds each slot's part.
    fn fill_parts(&mut self, parts: usize) {
        self.part_start.clear();
        self.part_start.resize(parts + 1, 0);
        for &p in &self.part_of {
            self.part_start[p as usize + 1] += 1;
        }
        for k in 0..parts {
            self.part_start[k + 1] += self.part_start[k];
        }
        self.parts.clear();
        self.parts.resize(self.part_of.len(), 0);
        // Fill each part in sweep order (`prev` is free scratch now).
        self.prev.clear();
        self.prev.extend_from_slice(&self.part_start[..parts]);
        for (g, &p) in self.part_of.iter().enumerate() {
            let at = &mut self.prev[p as usize];
            self.parts[*at as usize] = g as u32;
            *at += 1;
        }
        // From here on `part_of` is per slot.
        self.part_of.clear();
        for k in 0..parts {
            let n = self.part_start[k + 1] - self.part_start[k];
            self.part_of
                .extend(std::iter::repeat_n(k as u32, n as usize));
        }
    }

    /// Run `task(s, u)` for `sweeps` sweeps `s` over every unit `u` on the threads of
    /// the current rayon pool, each task after its dependencies (see the module docs).
    fn run(&mut self, sweeps: u32, task: impl Fn(u32, usize) + Sync) {
        for p in &mut self.progress {
            *p.0.get_mut() = 0;
        }
        for c in &mut self.claimed {
            *c.get_mut() = false;
        }
        let groups = self.len() as u32;
        let this = &*self;
        let part = |k: u32| {
            &this.parts
                [this.part_start[k as usize] as usize..this.part_start[k as usize + 1] as usize]
        };
        let claim = |k: usize| !this.claimed[k].swap(true, Ordering::AcqRel);
        let claim_any = || (0..this.claimed.len()).find(|&k| claim(k));
        let cursor = |k: usize| Cursor {
            part: k as u32,
            s: if part(k as u32).is_empty() { sweeps } else { 0 },
            k: 0,
        };
        // A crew's helper spins between jobs and claims its part within a microsecond,
        // so a part still unclaimed when a wait names it belongs to a helper that is
        // asleep or busy: take it at once (the same serial order either way). A helper
        // spawned for this run may take 40–70 µs to start: give it `WAKE_UP`.
        let current = Crew::current();
        let crew = current.filter(|_| self.parts() <= 2);
        let wake_up = if crew.is_some() {
            Duration::ZERO
        } else {
            WAKE_UP
        };
        let worker = || {
            let mut owned: SmallVec<[Cursor; 8]> = SmallVec::new();
            // Each part's count of tasks run, as this thread last read it: counts only
            // grow, so a dependency below it needs no look at the other core's line.
            let mut known: SmallVec<[u32; 8]> = SmallVec::from_elem(0, this.claimed.len());
            loop {
                // The owned part whose next task comes first in the serial order.
                let next = if owned.len() == 1 {
                    owned.first_mut().filter(|c| c.s < sweeps)
                } else {
                    owned.iter_mut().filter(|c| c.s < sweeps).min_by_key(|c| {
                        u64::from(c.s) * u64::from(groups) + u64::from(part(c.part)[c.k as usize])
                    })
                };
                let Some(c) = next else {
                    match claim_any() {
                        Some(k) => {
                            owned.push(cursor(k));
                            continue;
                        }
                        None => return,
                    }
                };
                let (s, g) = (c.s, part(c.part)[c.k as usize] as usize);
                let mut new_part = None;
                'deps: for &d in &this.deps[this.start[g] as usize..this.start[g + 1] as usize] {
                    let (p, need) = if d & WRAP != 0 {
                        (d & !WRAP, s)
                    } else {
                        (d, s + 1)
                    };
                    if need == 0 {
                        continue;
                    }
                    // The unit in slot `p` has run `need` sweeps once its part has run
                    // `need − 1` whole sweeps and the part's units up to it once more.
                    let k = this.part_of[p as usize] as usize;
                    let (from, to) = (this.part_start[k], this.part_start[k + 1]);
                    let target = (need - 1) * (to - from) + (p - from) + 1;
                    if known[k] >= target {
                        continue;
                    }
                    let tasks = &this.progress[k].0;
                    let mut spins = 0u32;
                    let mut since = None;
                    let mut watch = StallWatch::default();
                    loop {
                        known[k] = tasks.load(Ordering::Acquire);
                        if known[k] >= target {
                            break;
                        }
                        // A part nobody has taken yet: give its thread a moment to wake
                        // up, then take it and go on with whichever task comes first.
                        if !this.claimed[k].load(Ordering::Relaxed)
                            && since.get_or_insert_with(Instant::now).elapsed() >= wake_up
                            && claim(k)
                        {
                            new_part = Some(k);
                            break 'deps;
                        }
                        if spins < 128 {
                            std::hint::spin_loop();
                            spins += 1;
                        } else {
                            // The part waited on stands still: its thread lost its core.
                            watch.see(known[k], &this.stalled);
                            std::thread::yield_now();
                        }
                    }
                }
                if let Some(k) = new_part {
                    owned.push(cursor(k));
                    continue;
                }
                task(s, g);
                // (Its part's count, after the task's writes: what a wait reads.)
                let tasks = &this.progress[c.part as usize].0;
                tasks.store(tasks.load(Ordering::Relaxed) + 1, Ordering::Release);
                c.k += 1;
                if c.k as usize == part(c.part).len() {
                    c.k = 0;
                    c.s += 1;
                }
            }
        };
        if crew.is_none() && current.is_some() && !Crew::pool_ready() {
            // (Nothing goes to the pool before the crew's helper has come.)
            worker();
            return;
        }
        on_threads(crew, &worker);
    }

    /// The block order's sweeps (`Schedule::plan_blocks`): `task(s, u)` for `sweeps`
    /// sweeps `s` over every unit `u`, the seam's after the parts'. The parts share no
    /// body, so they wait for nothing of each other: each thread claims a part and runs
    /// its units before the seam as the one-thread wavefront does
    /// (`wide::WideContacts::solve`), sweep `s` on a tile as soon as sweep `s − 1` has
    /// passed the last tile on its bodies.
    ///
    /// The seam's units (part 0's tail) touch bodies of region 0 and of region 1's units
    /// on a seam body (the first [`seam_waits`](Self) units of part 1), and none of the
    /// rest of region 1. So their sweeps run as soon as both are done — region 0 at the
    /// end of part 0, those units of region 1 when part 1's wavefront has run its last
    /// sweep over them, early in its part — on whichever thread first finds them so,
    /// while the other may still sweep the rest of region 1. Every body meets its units
    /// in the order of the regions' sweeps followed by the seam's, as on one thread.
    ///
    /// A thread whose work is done claims any part left, then waits for the others (and
    /// marks a stall, [`STALL`], where their thread runs no task).
    fn run_blocks(
        &mut self,
        sweeps: u32,
        task: impl Fn(u32, usize) + Sync,
        couple: impl Fn(u32, usize) -> bool + Sync,
    ) {
        for c in &mut self.claimed {
            *c.get_mut() = false;
        }
        let this = &*self;
        let parts = this.claimed.len();
        let seam = &this.parts
            [(this.part_start[0] + this.block_len[0]) as usize..this.part_start[1] as usize];
        // Region 1's last unit on a seam body: its last sweep frees the seam's.
        let gate = (this.seam_waits > 0)
            .then(|| this.parts[(this.part_start[1] + this.seam_waits - 1) as usize]);
        let finished = std::sync::atomic::AtomicUsize::new(0);
        let region_0 = AtomicBool::new(false);
        let seam_free = AtomicBool::new(gate.is_none());
        let seam_taken = AtomicBool::new(seam.is_empty());
        let seam_done = AtomicBool::new(seam.is_empty());
        let run_seam = || {
            if !(region_0.load(Ordering::Acquire) && seam_free.load(Ordering::Acquire))
                || seam_taken.swap(true, Ordering::AcqRel)
            {
                return;
            }
            // (Part 0's thread is done with its counter: the seam's tasks count there.)
            let tasks = &this.progress[0].0;
            for s in 0..sweeps {
                for &u in seam {
                    task(s, u as usize);
                    tasks.store(
                        tasks.load(Ordering::Relaxed).wrapping_add(1),
                        Ordering::Relaxed,
                    );
                }
            }
            seam_done.store(true, Ordering::Release);
        };
        let worker = || {
            while let Some(k) = (0..parts).find(|&k| !this.claimed[k].swap(true, Ordering::AcqRel))
            {
                let from = this.part_start[k] as usize;
                let units = &this.parts[from..from + this.block_len[k] as usize];
                let tiles = this.block_tiles[k] as usize..this.block_tiles[k + 1] as usize;
                let tasks = &this.progress[k].0;
                wavefront(units, &this.block_reach[tiles], sweeps, |s, tile| {
                    let mut i = 0;
                    while i < tile.len() {
                        // Two units of the tile side by side where `couple` runs them so
                        // (a sweep without friction rows), else one.
                        let u = tile[i];
                        let two = tile.get(i + 1) == Some(&(u + 1)) && couple(s, u as usize);
                        if !two {
                            task(s, u as usize);
                        }
                        let ran = &tile[i..i + 1 + usize::from(two)];
                        for &v in ran {
                            tasks.store(
                                tasks.load(Ordering::Relaxed).wrapping_add(1),
                                Ordering::Relaxed,
                            );
                            if s + 1 == sweeps && Some(v) == gate {
                                seam_free.store(true, Ordering::Release);
                            }
                        }
                        i += ran.len();
                    }
                });
                if k == 0 {
                    region_0.store(true, Ordering::Release);
                }
                finished.fetch_add(1, Ordering::AcqRel);
                run_seam();
            }
            // The other part's thread may have lost its core (another process runs on
            // it): a wait that sees no task run for `STALL` sends the next solves to one
            // thread (`threads_now`), as a wait of the dependency order does.
            let mut watch = StallWatch::default();
            let mut spins = 0u32;
            while finished.load(Ordering::Acquire) < parts || !seam_done.load(Ordering::Acquire) {
                run_seam();
                if spins < 128 {
                    std::hint::spin_loop();
                    spins += 1;
                    continue;
                }
                let seen = (0..parts).fold(0u32, |n, k| {
                    n.wrapping_add(this.progress[k].0.load(Ordering::Relaxed))
                });
                watch.see(seen, &this.stalled);
                std::thread::yield_now();
            }
        };
        on_threads(Crew::current(), &worker);
    }

    /// `sweeps` forward velocity sweeps (the serial `WideContacts::sweep` without joints
    /// or overflow) over the units of `sweep`, whose schedule this is: a unit of two
    /// groups that share their slots runs as one eight-lane kernel where `sweep.kernel`
    /// has one and ω = 1, as on one thread.
    ///
    /// The last sweep also does each unit's part of `last` ([`wide::last_group`]) right
    /// after its velocity update, as the serial sweep does: the split pass writes the
    /// pseudo-velocities of the unit's movable bodies, which the dependency order hands
    /// from unit to unit as it does `dV`; the sums and the write-back touch only the
    /// unit's own wide points and its lanes' manifolds.
    ///
    /// In the block order ([`run_blocks`](Self::run_blocks)) the seam's units take their
    /// sweeps after the regions' units they share bodies with.
    ///
    /// With `measure`, returns the largest change of a row's velocity in the last sweep
    /// (`wide::solve_group`): the largest of the units' own, whichever thread ran them
    /// (0 without).
    #[allow(clippy::too_many_arguments)]
    pub fn velocity_sweeps(
        &mut self,
        sweep: &Units<'_>,
        slots: &mut [WideSlot],
        t: &[WideT],
        rows: LastRows<'_>,
        dv: &mut [Velocity],
        (sweeps, friction_stride, measure): (u32, u32, bool),
        omega: f32,
        (last, fresh): (LastSweep<'_>, Option<&Refresh<'_>>),
    ) -> f32 {
        debug_assert_eq!(sweep.units.len(), self.len());
        let w = Vec4::splat(omega);
        let pts = Shared::new(slots);
        let side = Shared::new(rows.side);
        let vel = Shared::new(dv);
        let (kernel, groups) = (sweep.kernel, sweep.groups);
        let pairs = kernel.pairs() && sweep.shared && omega == 1.0;
        let split_lambda = Shared::new(rows.split_lambda);
        let impulse = Shared::new(rows.impulse);
        let pseudo = last.split.map(Shared::new);
        let write = last.write.map(|wb| (wb.source, Shared::new(wb.manifolds)));
        let tail = pseudo.is_some() || last.sum;
        let block = !self.block_len.is_empty();
        // The last sweep's largest change, as `f32` bits (a non-negative float's bits
        // order as it does; a NaN's above every other). Read first, so that a unit
        // below it writes nothing.
        let change = AtomicU32::new(0);
        let task = |s: u32, u: usize| {
            let [g0, g1] = sweep.units[u];
            let g = &groups[g0 as usize];
            let h = groups.get(g1 as usize);
            let dv = &mut SharedVelocities(vel);
            let friction = crate::pgs::friction_sweep(s, sweeps, friction_stride);
            let pass = (friction, measure && friction && s + 1 == sweeps);
            let note = |c: f32| {
                let c = if c.is_nan() { f32::INFINITY } else { c };
                if c > f32::from_bits(change.load(Ordering::Relaxed)) {
                    change.fetch_max(c.to_bits(), Ordering::Relaxed);
                }
            };
            if let Some(r) = fresh.filter(|_| s == 0) {
                // SAFETY: as below, the unit's slots and wide points are this task's.
                unsafe { refresh_unit(kernel, sweep.shared, (g, h), pts, side, r) };
            }
            match h {
                Some(h) if pairs => {
                    let first = g.slots().start;
                    let n = g.slots().len().max(h.slots().len());
                    // SAFETY: task (s, u) is claimed once and runs after (s − 1, u)
                    // (module docs), so no other thread holds unit u's slots (a unit's
                    // slots are its own: `wide::assign_slots` with a schedule).
                    let p = unsafe { pts.slice(first..first + n) };
                    note(kernel.solve([g, h], p, dv, false, pass));
                }
                _ => kernel.run(
                    #[inline(always)]
                    || {
                        for grp in std::iter::once(g).chain(h) {
                            // SAFETY: as above, the unit's groups' slots are this task's.
                            let p = unsafe { pts.slice(grp.slots()) };
                            let t = &t[grp.t_range()];
                            note(if omega == 1.0 {
                                solve_group(grp, p, t, dv, GaussSeidel, false, pass)
                            } else {
                                solve_group(grp, p, t, dv, Sor(w), false, pass)
                            });
                        }
                    },
                ),
            }
            if !tail || s + 1 != sweeps {
                return;
            }
            kernel.run(
                #[inline(always)]
                || {
                    for g in [g0, g1] {
                        let Some(grp) = groups.get(g as usize) else {
                            continue;
                        };
                        let r = grp.range();
                        // SAFETY: the unit's slots, wide points and pseudo-velocities of
                        // its movable bodies are this task's (as above); its lanes'
                        // manifolds are no other unit's.
                        let (p, l, sums) = unsafe {
                            (
                                pts.slice(grp.slots()),
                                split_lambda.slice(r.clone()),
                                impulse.slice(r.clone()),
                            )
                        };
                        let mut split = pseudo.map(SharedVelocities);
                        let mut out = write.map(|(source, m)| (source, SharedManifolds(m)));
                        wide::last_group(
                            grp,
                            p,
                            &t[grp.t_range()],
                            // SAFETY: as above.
                            unsafe { side.slice(r) },
                            l,
                            sums,
                            &rows.lane_manifolds[g as usize],
                            split.as_mut(),
                            last.sum,
                            out.as_mut().map(|(source, m)| (*source, m)),
                        );
                    }
                },
            );
        };
        // Two units side by side, as the serial sweep runs them (`wide::run_units`), in
        // the block order's sweeps without friction rows: a part's units wait on no other
        // part's there, so pairing two holds up no other thread. (The first sweep, which
        // refreshes each unit's rows, and the last, which takes passes along, always
        // have friction rows.)
        let couples = block && pairs;
        let couple = |s: u32, u: usize| {
            if !couples
                || crate::pgs::friction_sweep(s, sweeps, friction_stride)
                || !sweep.couple(u)
            {
                return false;
            }
            let [a, b] = [sweep.units[u], sweep.units[u + 1]]
                .map(|[g0, g1]| [&groups[g0 as usize], &groups[g1 as usize]]);
            let len = a[0].slots().len();
            let (sa, sb) = (a[0].slots().start, b[0].slots().start);
            // SAFETY: tasks (s, u) and (s, u + 1) are this thread's, both after their
            // sweep s − 1 (one tile of one part's wavefront), and each unit's slots are
            // its own (as in `task`).
            let (pa, pb) = unsafe { (pts.slice(sa..sa + len), pts.slice(sb..sb + len)) };
            kernel.solve_couple([a, b], [pa, pb], &mut SharedVelocities(vel));
            #[cfg(test)]
            COUPLED.fetch_add(1, Ordering::Relaxed);
            true
        };
        if block {
            self.run_blocks(sweeps, task, couple);
        } else {
            self.run(sweeps, task);
        }
        f32::from_bits(change.into_inner())
    }

    /// Every unit's rows, and their warm impulses into `dv`, as the serial build of
    /// `WideContacts::pack` makes them (`build_unit`: two groups that share their slots
    /// and length in one eight-lane kernel, else group by group), on the pool's
    /// threads: one sweep of the dependency order, so every body's warm impulses add
    /// up in the serial order, to the bit, and each unit's rows are written by the
    /// thread that sweeps them.
    ///
    /// With `stale` (by unit), only the stale units, each one's old impulses taken out
    /// of `dv` right before its rows are built again, as `WideContacts::rebuild_units`
    /// does on one thread (a step that keeps the other units' rows, `reuse.rs`); the
    /// other units' tasks do nothing but pass the order on.
    #[allow(clippy::too_many_arguments)]
    pub fn build_rows(
        &mut self,
        units: &[[u32; 2]],
        stale: Option<&[bool]>,
        rows: UnitRows<'_>,
        (kernel, shared): (PairKernel, bool),
        inputs: wide_build::Inputs<'_>,
        bodies: &SolverBodies,
        params: &BuildParams,
        dv: &mut [Velocity],
    ) {
        debug_assert_eq!(units.len(), self.len());
        let groups = Shared::new(rows.groups);
        let (slots, t, side) = (
            Shared::new(rows.slots),
            Shared::new(rows.t),
            Shared::new(rows.side),
        );
        let lanes = rows.lanes;
        let vel = Shared::new(dv);
        self.run(1, |_, u| {
            let [g0, g1] = units[u].map(|g| g as usize);
            if stale.is_some_and(|s| !wide::is_stale(s, u)) {
                return;
            }
            let dv = &mut SharedVelocities(vel);
            kernel.run(
                #[inline(always)]
                || {
                    // SAFETY: a unit's groups, slots, blocks and wide points are its own
                    // (`wide::assign_slots` with a schedule), and its one task runs
                    // once; `dV` as in the sweeps.
                    unsafe {
                        if stale.is_some() {
                            // Its rows' impulses as they are out of `dV` first
                            // (`WideContacts::take_out_unit`), group by group.
                            for g in [g0, g1].into_iter().filter(|&g| g < groups.len) {
                                let grp = &groups.slice(g..g + 1)[0];
                                let (p, tt) = (slots.slice(grp.slots()), t.slice(grp.t_range()));
                                wide::warm_group::<_, true>(grp, p, tt, dv);
                            }
                        }
                        if g1 < groups.len {
                            let a = &mut groups.slice(g0..g0 + 1)[0];
                            let b = &mut groups.slice(g1..g1 + 1)[0];
                            let (ra, rb) = (a.range(), b.range());
                            if shared && wide::one_kernel(a, b, true) {
                                let first =
                                    |r: &Range<usize>| lanes.get(r.start).filter(|_| !r.is_empty());
                                wide_build::prepare_group(a, first(&ra), inputs, params);
                                wide_build::prepare_group(b, first(&rb), inputs, params);
                                let sides = [side.slice(ra.clone()), side.slice(rb.clone())];
                                let p = slots.slice(a.slots());
                                let two = [&lanes[ra], &lanes[rb]];
                                if kernel.build(
                                    [a, b],
                                    p,
                                    sides,
                                    two,
                                    inputs.points,
                                    bodies,
                                    params,
                                    dv,
                                ) {
                                    return;
                                }
                            }
                        }
                        for g in [g0, g1].into_iter().filter(|&g| g < groups.len) {
                            let grp = &mut groups.slice(g..g + 1)[0];
                            let r = grp.range();
                            let rows = wide_build::GroupRows {
                                slots: slots.slice(grp.slots()),
                                t: t.slice(grp.t_range()),
                                side: side.slice(r.clone()),
                                lanes: &lanes[r],
                            };
                            wide_build::build_group(grp, rows, inputs, bodies, params);
                            let (p, tt) = (slots.slice(grp.slots()), t.slice(grp.t_range()));
                            wide::warm_group::<_, false>(grp, p, tt, dv);
                        }
                    }
                },
            );
        });
    }

    /// `sweeps` sweeps of the split-impulse pass over the units of `sweep` (the serial
    /// `WideContacts::split_sweep` without overflow: a unit's groups share no movable
    /// body, so running them unit by unit keeps every body's order).
    #[allow(clippy::too_many_arguments)]
    pub fn split_sweeps(
        &mut self,
        sweep: &Units<'_>,
        slots: &[WideSlot],
        t: &[WideT],
        side: &[WideSide],
        lambda: &mut [Vec4],
        pseudo: &mut [Velocity],
        sweeps: u32,
    ) {
        debug_assert_eq!(sweep.units.len(), self.len());
        let lam = Shared::new(lambda);
        let vel = Shared::new(pseudo);
        let groups = sweep.groups;
        self.run(sweeps, |_, u| {
            sweep.kernel.run(
                #[inline(always)]
                || {
                    for &g in &sweep.units[u] {
                        let Some(grp) = groups.get(g as usize) else {
                            continue;
                        };
                        let r = grp.range();
                        // SAFETY: as in `velocity_sweeps`, unit u's λ are this task's alone.
                        let l = unsafe { lam.slice(r.clone()) };
                        split_group(
                            grp,
                            &slots[grp.slots()],
                            &t[grp.t_range()],
                            &side[r],
                            l,
                            &mut SharedVelocities(vel),
                        );
                    }
                },
            );
        });
    }
}

/// `worker` on the step's crew (this thread and its helper), or else on every thread of
/// the pool. One worker per pool thread, all on the pool: `scope` runs its body on a
/// pool thread (the caller's own, when it is one), so a caller from outside the pool
/// only waits and never makes a third thread compete for two cores.
fn on_threads(crew: Option<&Crew>, worker: &(dyn Fn() + Sync)) {
    if let Some(crew) = crew {
        crew.run(worker);
        return;
    }
    rayon::scope(|scope| {
        for _ in 1..rayon::current_num_threads() {
            scope.spawn(|_| thud_collide::flushed(worker));
        }
        worker();
    });
}

/// A waiting thread's watch over the tasks another thread runs: the count it last saw
/// and since when. A count that stands for [`STALL`] marks the run stalled (that
/// thread lost its core).
#[derive(Debug, Default)]
struct StallWatch(Option<(u32, Instant)>);

impl StallWatch {
    fn see(&mut self, seen: u32, stalled: &AtomicBool) {
        match self.0 {
            Some((last, at)) if last == seen => {
                if at.elapsed() > STALL {
                    stalled.store(true, Ordering::Relaxed);
                }
            }
            _ => self.0 = Some((seen, Instant::now())),
        }
    }
}

/// Most sweeps a part runs as a wavefront (`Schedule::run_blocks`); more run one after
/// the other, in the same order per body.
const WAVE_SWEEPS: usize = 32;

/// `task(s, u)` for `sweeps` sweeps over `units`, in the wavefront order of the
/// one-thread solve (`wide::WideContacts::wavefront_sweeps`): sweep 0 one tile of
/// [`wide::TILE`] units at a time, each later sweep on as many tiles as sweep `s − 1`
/// has passed the `reach` of (`wide::tile_reach`). Every body meets its units' updates
/// in the order of plain sweeps one after the other. (The one-thread solve keeps the
/// same loop of its own, with the joint rows between its sweeps and its kernels inlined
/// into it: run through one loop taking a closure, its Solve stage on `pyramid_100` was
/// 2 % slower.)
fn wavefront(units: &[u32], reach: &[u32], sweeps: u32, mut task: impl FnMut(u32, &[u32])) {
    let (n, tiles) = (sweeps as usize, reach.len());
    if n == 0 || tiles == 0 {
        return;
    }
    let tile = |t: usize| &units[t * wide::TILE..((t + 1) * wide::TILE).min(units.len())];
    if n > WAVE_SWEEPS {
        for s in 0..sweeps {
            for t in 0..tiles {
                task(s, tile(t));
            }
        }
        return;
    }
    let mut done = [0usize; WAVE_SWEEPS];
    while done[n - 1] < tiles {
        for s in 0..n {
            let mut budget = if s == 0 { 1 } else { tiles };
            while budget > 0 && done[s] < tiles {
                let t = done[s];
                let ready = s == 0 || done[s - 1] == tiles || (reach[t] as usize) < done[s - 1];
                if !ready {
                    break;
                }
                task(s as u32, tile(t));
                done[s] += 1;
                budget -= 1;
            }
        }
    }
}

/// `wide::refresh_units` of one unit (its two groups in one eight-lane kernel where
/// they share their slots and length), in the task of its first sweep.
///
/// # Safety
/// The unit's slots and wide points are the caller's alone.
unsafe fn refresh_unit(
    kernel: PairKernel,
    shared: bool,
    (g, h): (&Group, Option<&Group>),
    pts: Shared<WideSlot>,
    side: Shared<WideSide>,
    r: &Refresh<'_>,
) {
    if !r.advance() && std::iter::once(g).chain(h).all(|g| wide::stood(g, r.still)) {
        return;
    }
    let pair = h.filter(|h| shared && wide::one_kernel(g, h, false));
    if let Some(h) = pair {
        // SAFETY: the caller's (the two groups' wide points are apart).
        let (p, sides) = unsafe {
            (
                pts.slice(g.slots()),
                [side.slice(g.range()), side.slice(h.range())],
            )
        };
        let moved = r.moved.map(|m| (m, r.advance()));
        if kernel.refresh([g, h], p, sides, moved, r.h, r.params) {
            return;
        }
    }
    for grp in std::iter::once(g).chain(h) {
        // SAFETY: the caller's.
        let (p, sd) = unsafe { (pts.slice(grp.slots()), side.slice(grp.range())) };
        kernel.run(
            #[inline(always)]
            || wide::refresh_group(grp, p, sd, r),
        );
    }
}

/// The rows of the units a build writes ([`Schedule::build_rows`]).
pub(crate) struct UnitRows<'a> {
    pub groups: &'a mut [Group],
    pub slots: &'a mut [WideSlot],
    pub t: &'a mut [WideT],
    pub side: &'a mut [WideSide],
    pub lanes: &'a [[u32; 4]],
}

/// The arrays beside the rows that the last sweep's tail writes ([`wide::last_group`]).
pub(crate) struct LastRows<'a> {
    pub side: &'a mut [WideSide],
    pub split_lambda: &'a mut [Vec4],
    pub impulse: &'a mut [[Vec4; 3]],
    pub lane_manifolds: &'a [[u32; 4]],
}

/// The narrowphase's manifolds shared by the sweep's threads: each is written by the
/// one lane that holds it.
#[derive(Clone, Copy)]
struct SharedManifolds(Shared<thud_collide::PairManifold>);

impl ManifoldPoints for SharedManifolds {
    #[inline(always)]
    fn users(&mut self, i: u32) -> &mut [[f32; 3]; 4] {
        // SAFETY: one lane of one unit holds manifold `i`; that unit's task is running.
        let m = unsafe { self.0.slice(i as usize..i as usize + 1) };
        m[0].manifold.points.user_slots_mut()
    }
}

/// Units run side by side by the block order's sweeps (tests).
#[cfg(test)]
pub(crate) static COUPLED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// What a multi-threaded sweep runs: the serial order's units over the groups, and how
/// a unit of two runs.
pub(crate) struct Units<'a> {
    pub units: &'a [[u32; 2]],
    pub groups: &'a [Group],
    pub kernel: PairKernel,
    /// Whether a unit's two groups share their slots (`WideContacts::shared`).
    pub shared: bool,
    /// Whether unit `u` shares no movable body with unit `u + 1` (`WideContacts::apart`).
    pub apart: &'a [bool],
}

impl Units<'_> {
    /// Whether units `u` and `u + 1` can run side by side in a sweep without friction
    /// rows ([`couple`]).
    pub fn couple(&self, u: usize) -> bool {
        couple(self.apart, self.units, self.groups, u)
    }
}

/// Whether units `u` and `u + 1` can run side by side in a sweep without friction rows
/// (`PairKernel::solve_couple`): they share no movable body (`apart`), and both are
/// pairs of groups of one length.
pub(crate) fn couple(apart: &[bool], units: &[[u32; 2]], groups: &[Group], u: usize) -> bool {
    if !apart.get(u).copied().unwrap_or(false) {
        return false;
    }
    let len = |unit: Option<&[u32; 2]>| {
        let [g0, g1] = unit?.map(|g| groups.get(g as usize).map(|g| g.slots().len()));
        g0.filter(|_| g0 == g1)
    };
    matches!((len(units.get(u)), len(units.get(u + 1))), (Some(a), Some(b)) if a == b)
}

/// A slice shared by the sweep's threads; every access is to entries the caller owns
/// at that moment (see the module docs).
struct Shared<T> {
    ptr: *mut T,
    len: usize,
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Shared<T> {}

// SAFETY: the pointer is only dereferenced under the dependency order of `Schedule::run`,
// which gives each entry one owner at a time; `T` itself may move between threads.
unsafe impl<T: Send> Send for Shared<T> {}
// SAFETY: as above.
unsafe impl<T: Send> Sync for Shared<T> {}

impl<T> Shared<T> {
    fn new(s: &mut [T]) -> Self {
        Self {
            ptr: s.as_mut_ptr(),
            len: s.len(),
        }
    }

    /// Entries `r`, mutably.
    ///
    /// # Safety
    /// No other thread may access `r` while the returned slice lives.
    #[allow(clippy::mut_from_ref)]
    unsafe fn slice(&self, r: Range<usize>) -> &mut [T] {
        assert!(r.start <= r.end && r.end <= self.len);
        // SAFETY: in bounds (checked); exclusive by the caller's contract.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.add(r.start), r.len()) }
    }
}

/// `dV` (or pseudo-velocities) shared by the sweep's threads: a group reads the entries
/// of its eight bodies and writes those of its movable ones, which no other running
/// group touches (movable ones: by the dependency order; the others are never written).
#[derive(Clone, Copy)]
struct SharedVelocities(Shared<Velocity>);

impl Velocities for SharedVelocities {
    #[inline(always)]
    fn get(&self, i: u32) -> Velocity {
        let i = i as usize;
        debug_assert!(i < self.0.len);
        // SAFETY: in bounds; no running group writes this entry (type docs).
        unsafe { self.0.ptr.add(i).read() }
    }

    #[inline(always)]
    fn set_parts(&mut self, i: u32, head: Vec4, tail: Vec4) {
        let i = i as usize;
        debug_assert!(i < self.0.len);
        // SAFETY: in bounds; this group is the entry's only user now (type docs).
        lanes::store_velocity(unsafe { &mut *self.0.ptr.add(i) }, head, tail);
    }

    #[inline(always)]
    fn base_and_len(&mut self) -> (*mut Velocity, usize) {
        (self.0.ptr, self.0.len)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::sync::atomic::Ordering;

    use glam::{Mat3, Vec3};

    use super::COUPLED;

    use crate::contact::ContactStore;
    use crate::jacobian::{BuildParams, ContactInput};
    use crate::joint::rows::JointRows;
    use crate::settings::SweepOrder;
    use crate::solver_body::{SolverBodies, Velocity};
    use crate::wide::WideContacts;
    use crate::wide_avx::PairKernel;

    /// `columns` stacks of `height` unit boxes on the ground, pushed sideways, with four
    /// corner contacts per manifold (three on every fifth, so lanes differ in length).
    pub(crate) fn stacks(columns: usize, height: usize) -> (SolverBodies, ContactStore) {
        let dt = 1.0 / 60.0;
        let mut bodies = SolverBodies::default();
        bodies.reset();
        let inv_i = Mat3::from_diagonal(Vec3::splat(6.0));
        // Bodies row by row (as a built scene numbers them), so parts split by body index
        // meet only at one row.
        for k in 0..height {
            for c in 0..columns {
                let g = Velocity {
                    lin: Vec3::new(0.3 * dt * (c as f32 - 2.0), -9.81 * dt, 0.1 * dt),
                    ang: Vec3::new(0.0, 0.01 * k as f32, 0.0),
                };
                let com = Vec3::new(2.0 * c as f32, 0.5 + k as f32, 0.0);
                bodies.push(0, Velocity::ZERO, g, 1.0, inv_i, com);
            }
        }
        let s = BuildParams::for_tests(dt);
        let mut store = ContactStore::default();
        for k in 0..height {
            for c in 0..columns {
                let body = (1 + k * columns + c) as u32;
                let below = if k == 0 { 0 } else { body - columns as u32 };
                let n = if (c + k) % 5 == 0 { 3 } else { 4 };
                for (j, (x, z)) in [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]
                    .iter()
                    .take(n)
                    .enumerate()
                {
                    let point = Vec3::new(2.0 * c as f32 + x, k as f32, *z);
                    let warm = [0.05 * (k % 4) as f32, 0.001, -0.002];
                    push_contact(
                        &mut store,
                        (&bodies, &s),
                        (below, body, Vec3::Y),
                        (point, -0.002 * (k % 3) as f32, warm),
                        j > 0,
                    );
                }
            }
        }
        (bodies, store)
    }

    /// Pushes a test contact point between solver bodies `a` and `b` (friction 0.5, no
    /// restitution) at `point`, with its separation and warm impulses; `more`: a point
    /// of the manifold pushed last.
    fn push_contact(
        store: &mut ContactStore,
        (bodies, s): (&SolverBodies, &BuildParams),
        (a, b, normal): (u32, u32, Vec3),
        (point, separation, warm): (Vec3, f32, [f32; 3]),
        more: bool,
    ) {
        let p = ContactInput {
            a,
            b,
            normal,
            point,
            separation,
            friction: 0.5,
            restitution: 0.0,
            spread: 0.0,
            warm,
        };
        store.push_point(p, bodies, s, more);
    }

    /// [`stacks`] of `columns` × `height` whose neighbours in a row touch too (two
    /// points each, normal along x): one structure, which a sweep of at least
    /// `color::REGION_MIN` manifolds cuts into two regions and a seam.
    fn wall(columns: usize, height: usize) -> (SolverBodies, ContactStore) {
        let (bodies, mut store) = stacks(columns, height);
        let s = BuildParams::for_tests(1.0 / 60.0);
        for k in 0..height {
            for c in 0..columns - 1 {
                let a = (1 + k * columns + c) as u32;
                for (j, y) in [0.25, 0.75].into_iter().enumerate() {
                    let point = Vec3::new(2.0 * c as f32 + 1.0, k as f32 + y, 0.0);
                    push_contact(
                        &mut store,
                        (&bodies, &s),
                        (a, a + 1, Vec3::X),
                        (point, -0.001 * (c % 2) as f32, [0.01, 0.0, 0.001]),
                        j > 0,
                    );
                }
            }
        }
        (bodies, store)
    }

    /// A one-box-deep pyramid of `rows` rows of unit boxes: each box on the two below
    /// it (the ground row on the ground), four points a manifold. Its sweep order has
    /// neighbouring units that share no body and are as long as each other, which the
    /// sweeps without friction rows run side by side.
    fn pyramid(rows: usize) -> (SolverBodies, ContactStore) {
        let dt = 1.0 / 60.0;
        let mut bodies = SolverBodies::default();
        bodies.reset();
        let inv_i = Mat3::from_diagonal(Vec3::splat(6.0));
        let mut index = Vec::new();
        for k in 0..rows {
            for i in 0..rows - k {
                let x = i as f32 + 0.5 * k as f32;
                let g = Velocity {
                    lin: Vec3::new(0.01 * dt * (i % 3) as f32, -9.81 * dt, 0.0),
                    ang: Vec3::ZERO,
                };
                bodies.push(
                    0,
                    Velocity::ZERO,
                    g,
                    1.0,
                    inv_i,
                    Vec3::new(x, 0.5 + k as f32, 0.0),
                );
                index.push((k, i));
            }
        }
        let body =
            |k: usize, i: usize| 1 + index.iter().position(|&e| e == (k, i)).expect("a box") as u32;
        let s = BuildParams::for_tests(dt);
        let mut store = ContactStore::default();
        for k in 0..rows {
            for i in 0..rows - k {
                let (b, x) = (body(k, i), i as f32 + 0.5 * k as f32);
                let below: Vec<(u32, [f32; 2])> = if k == 0 {
                    vec![(0, [x - 0.5, x + 0.5])]
                } else {
                    vec![
                        (body(k - 1, i), [x - 0.5, x]),
                        (body(k - 1, i + 1), [x, x + 0.5]),
                    ]
                };
                for (a, [x0, x1]) in below {
                    for (j, (px, z)) in [(x0, -0.5), (x1, -0.5), (x1, 0.5), (x0, 0.5)]
                        .into_iter()
                        .enumerate()
                    {
                        push_contact(
                            &mut store,
                            (&bodies, &s),
                            (a, b, Vec3::Y),
                            (
                                Vec3::new(px, k as f32, z),
                                -0.001 * (i % 2) as f32,
                                [0.02, 0.001, 0.0],
                            ),
                            j > 0,
                        );
                    }
                }
            }
        }
        (bodies, store)
    }

    /// Pack, 20 velocity sweeps and 4 split sweeps on a pool of `threads`; the velocity
    /// changes, pseudo-velocities and every λ, as bits. With `block`, a [`wall`] cut into
    /// regions whose sweeps take the block order (`color::BLOCK_MIN` lowered to 0),
    /// else [`stacks`].
    fn solve_on(threads: usize, kernel: PairKernel, block: bool) -> (Vec<u32>, bool) {
        let scene = if block { wall(24, 24) } else { stacks(8, 40) };
        solve_scene(threads, kernel, block, scene)
    }

    /// Packs the rows in the sequential order for solves of [`super::MIN_SWEEPS`] sweeps,
    /// which split over the pool's threads.
    fn pack_to_split(wide: &mut WideContacts, store: &ContactStore, bodies: &SolverBodies) {
        let params = BuildParams::for_tests(1.0 / 60.0);
        wide.pack(
            store,
            bodies,
            SweepOrder::Sequential,
            super::MIN_SWEEPS,
            &params,
            None,
        );
    }

    /// [`solve_on`] for a given scene, in the block order where `block`.
    fn solve_scene(
        threads: usize,
        kernel: PairKernel,
        block: bool,
        scene: (SolverBodies, ContactStore),
    ) -> (Vec<u32>, bool) {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("pool");
        pool.install(|| {
            let (mut bodies, mut store) = scene;
            let mut wide = WideContacts::with_pair_kernel(kernel);
            if block {
                wide.block_min = Some(0);
            }
            pack_to_split(&mut wide, &store, &bodies);
            assert_eq!(wide.blocks(), block, "the block order where asked");
            let parallel = wide.schedules();
            let mut joints = JointRows::default();
            wide.solve(
                None,
                &mut store,
                &mut joints.rows,
                &mut bodies.dv,
                (20, 2),
                1.0,
                false,
                crate::wide::LastSweep::default(),
            );
            wide.unpack(&mut store);
            wide.split_solve(&mut store, &mut joints, &mut bodies.pseudo, 4, false);
            let mut bits =
                crate::solver_body::velocity_bits(bodies.dv.iter().chain(&bodies.pseudo));
            for c in &store.points {
                bits.extend(c.rows.iter().map(|r| r.lambda.to_bits()));
            }
            // A second solve whose last sweep takes the split pass's first sweep and the
            // impulse sums along (`wide::LastSweep`), then the split pass's other sweeps.
            bodies.pseudo.fill(Velocity::ZERO);
            let last = crate::wide::LastSweep {
                split: Some(&mut bodies.pseudo),
                sum: true,
                write: None,
            };
            wide.solve(
                None,
                &mut store,
                &mut [],
                &mut bodies.dv,
                (9, 2),
                1.0,
                false,
                last,
            );
            wide.split_solve(&mut store, &mut joints, &mut bodies.pseudo, 3, true);
            store.impulse.clear();
            store.impulse.resize(store.points.len(), [0.0; 3]);
            wide.drain_impulse(&mut store);
            bits.extend(crate::solver_body::velocity_bits(
                bodies.dv.iter().chain(&bodies.pseudo),
            ));
            for sum in &store.impulse {
                bits.extend(sum.map(f32::to_bits));
            }
            (bits, parallel)
        })
    }

    #[test]
    fn parallel_sweeps_are_the_serial_sweeps_bit_for_bit() {
        // With the CPU's eight-lane kernel (pairs of groups as one task) and without it
        // (every group alone in four lanes).
        let kernels = PairKernel::available()
            .into_iter()
            .chain([PairKernel::none()]);
        for (kernel, block) in kernels.flat_map(|k| [(k, false), (k, true)]) {
            let (serial, used) = solve_on(1, kernel, block);
            assert!(!used, "one thread sweeps serially");
            for threads in [2, 3, 5] {
                let (parallel, used) = solve_on(threads, kernel, block);
                assert!(
                    used,
                    "{kernel:?}, {threads} threads: the schedule was not used"
                );
                assert_eq!(
                    parallel, serial,
                    "{kernel:?}, block order {block}, {threads} threads differ from one"
                );
            }
            // The stacks carried their weight: something really was solved.
            assert!(serial.iter().any(|&b| f32::from_bits(b) > 0.1));
        }
    }

    /// In the block order the threads run two units side by side in the sweeps
    /// without friction rows, as the serial sweep does: the same bits on any pool.
    /// (Fails if a pair so run drops either unit's update.)
    #[test]
    fn the_block_orders_units_side_by_side_give_one_threads_bits() {
        for kernel in PairKernel::available().into_iter().filter(|k| k.pairs()) {
            let (serial, _) = solve_scene(1, kernel, true, pyramid(40));
            for threads in [2, 3] {
                let before = COUPLED.load(Ordering::Relaxed);
                let (parallel, used) = solve_scene(threads, kernel, true, pyramid(40));
                assert!(
                    used,
                    "{kernel:?}, {threads} threads: the schedule was not used"
                );
                assert!(
                    COUPLED.load(Ordering::Relaxed) > before,
                    "{kernel:?}, {threads} threads: no units ran side by side"
                );
                assert_eq!(
                    parallel, serial,
                    "{kernel:?}, {threads} threads differ from one"
                );
            }
        }
    }

    /// The block order moves only the seam's sweeps after the regions': one sweep gives
    /// the bits of the plain order (every body meets its units in the same order), more
    /// do not (the seam's second sweep comes before the regions' second).
    #[test]
    fn the_block_order_sweeps_the_seam_after_the_regions() {
        let run = |block: bool, sweeps: u32| {
            let (mut bodies, mut store) = wall(24, 24);
            let mut wide = WideContacts::default();
            wide.block_min = (!block).then_some(usize::MAX).or(Some(0));
            let params = BuildParams::for_tests(1.0 / 60.0);
            wide.pack(&store, &bodies, SweepOrder::Sequential, 3, &params, None);
            assert!(wide.cut(), "the wall is cut into regions");
            assert_eq!(wide.blocks(), block);
            wide.solve(
                None,
                &mut store,
                &mut [],
                &mut bodies.dv,
                (sweeps, 2),
                1.0,
                false,
                crate::wide::LastSweep::default(),
            );
            wide.unpack(&mut store);
            let mut bits = crate::solver_body::velocity_bits(bodies.dv.iter());
            for c in &store.points {
                bits.extend(c.rows.iter().map(|r| r.lambda.to_bits()));
            }
            bits
        };
        assert_eq!(
            run(true, 1),
            run(false, 1),
            "one sweep: the same order per body"
        );
        assert_ne!(
            run(true, 3),
            run(false, 3),
            "three sweeps: the seam's come last"
        );
    }

    /// The waits hold the serial order on every body: a task that shares a movable body
    /// with an earlier one of the serial order starts only after that one has ended,
    /// however late the other part's thread runs (here each of part 1's tasks takes a
    /// while, so part 0 catches up with it and waits). Fails with a wait that lets a
    /// unit go one task early, or a count stored before its task's end.
    #[test]
    fn a_unit_waits_for_every_earlier_unit_on_its_bodies() {
        use std::sync::atomic::{AtomicU32, AtomicUsize};
        use std::time::{Duration, Instant};
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .expect("pool");
        pool.install(|| {
            let (bodies, store) = stacks(8, 40);
            let mut wide = WideContacts::default();
            pack_to_split(&mut wide, &store, &bodies);
            let n = bodies.dv.len();
            let (units, groups, schedule) = wide.schedule_parts();
            assert_eq!(schedule.parts(), 2, "the stacks' sweeps are split in two");
            let mut part_of_unit = vec![0; units.len()];
            for (slot, &g) in schedule.parts.iter().enumerate() {
                part_of_unit[g as usize] = schedule.part_of[slot];
            }
            let bodies_of = |u: usize| {
                units[u]
                    .iter()
                    .filter_map(|&g| groups.get(g as usize))
                    .flat_map(|g| g.movable_bodies())
                    .collect::<Vec<_>>()
            };
            let sweeps = 3u32;
            let tasks = sweeps as usize * units.len();
            let mut both = 0;
            for _ in 0..8 {
                let clock = AtomicU32::new(0);
                // Each task's start and end on the clock, and the pool thread that ran it.
                let stamps: Vec<[AtomicU32; 2]> = (0..tasks)
                    .map(|_| [AtomicU32::new(0), AtomicU32::new(0)])
                    .collect();
                let ran_on: Vec<AtomicUsize> = (0..tasks).map(|_| AtomicUsize::new(0)).collect();
                schedule.run(sweeps, |s, u| {
                    let task = s as usize * units.len() + u;
                    stamps[task][0].store(clock.fetch_add(1, Ordering::SeqCst), Ordering::SeqCst);
                    ran_on[task].store(
                        rayon::current_thread_index().unwrap_or(usize::MAX),
                        Ordering::Relaxed,
                    );
                    if part_of_unit[u] == 1 {
                        let t = Instant::now();
                        while t.elapsed() < Duration::from_micros(20) {
                            std::hint::spin_loop();
                        }
                    }
                    stamps[task][1].store(clock.fetch_add(1, Ordering::SeqCst), Ordering::SeqCst);
                });
                let first = ran_on[0].load(Ordering::Relaxed);
                both += usize::from(ran_on.iter().any(|t| t.load(Ordering::Relaxed) != first));
                // Each body's tasks, in the serial order, one after another.
                let mut last: Vec<Option<usize>> = vec![None; n];
                for task in 0..tasks {
                    for b in bodies_of(task % units.len()) {
                        if let Some(before) = last[b as usize] {
                            let ended = stamps[before][1].load(Ordering::SeqCst);
                            let started = stamps[task][0].load(Ordering::SeqCst);
                            assert!(
                                ended < started,
                                "body {b}: task {task} started at {started}, before task \
                                 {before} ended at {ended}"
                            );
                        }
                        last[b as usize] = Some(task);
                    }
                }
            }
            assert!(both > 0, "no run had both threads sweeping");
        });
    }

    #[test]
    fn a_step_hands_nothing_to_the_pool_before_its_helper_serves() {
        use super::Crew;
        use std::time::{Duration, Instant};
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .expect("pool");
        pool.install(|| {
            assert!(Crew::pool_ready(), "no step, no crew: the pool is free");
            let crew = Crew::default();
            let _on = crew.enter();
            assert!(!Crew::pool_ready(), "no helper yet");
            // The helper's job as `World::step_dt` leaves it (the step on this thread).
            let serve = || crew.serve(rayon::current_thread_index().unwrap_or(usize::MAX));
            rayon::join(
                || {
                    let t = Instant::now();
                    while !Crew::pool_ready() {
                        assert!(t.elapsed() < Duration::from_secs(30), "no helper came");
                        std::thread::yield_now();
                    }
                    // A posted job runs on both threads.
                    let runs = std::sync::atomic::AtomicUsize::new(0);
                    let both = || {
                        runs.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let t = Instant::now();
                        while runs.load(std::sync::atomic::Ordering::Relaxed) < 2
                            && t.elapsed() < Duration::from_secs(30)
                        {
                            std::thread::yield_now();
                        }
                    };
                    crew.run(&both);
                    assert_eq!(runs.into_inner(), 2, "the helper ran the job too");
                    // `both`: each half once, the helper taking one where it is quick (here
                    // the first half waits for the second to start, so two threads ran
                    // them).
                    let threads = std::sync::Mutex::new(Vec::new());
                    let started = std::sync::atomic::AtomicUsize::new(0);
                    super::both(0usize, 1usize, |k| {
                        started.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let t = Instant::now();
                        while k == 0
                            && started.load(std::sync::atomic::Ordering::Relaxed) < 2
                            && t.elapsed() < Duration::from_secs(30)
                        {
                            std::thread::yield_now();
                        }
                        let me = std::thread::current().id();
                        threads.lock().expect("halves").push((k, me));
                    });
                    let mut ran = threads.into_inner().expect("halves");
                    ran.sort_by_key(|r| r.0);
                    assert_eq!(ran.iter().map(|r| r.0).collect::<Vec<_>>(), [0, 1]);
                    assert_ne!(ran[0].1, ran[1].1, "the two halves ran on two threads");
                    // Idle for longer than `ABANDON`, the helper leaves; a job then runs
                    // on the poster alone, and nothing waits for the helper.
                    std::thread::sleep(3 * super::ABANDON);
                    let runs = std::sync::atomic::AtomicUsize::new(0);
                    crew.run(&|| {
                        runs.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    });
                    assert_eq!(runs.into_inner(), 1, "the helper had left");
                    // `both` then runs both halves on this thread.
                    let ran = std::sync::Mutex::new(Vec::new());
                    super::both(0usize, 1usize, |k| {
                        ran.lock()
                            .expect("halves")
                            .push((k, std::thread::current().id()));
                    });
                    let ran = ran.into_inner().expect("halves");
                    let me = std::thread::current().id();
                    assert_eq!(ran, [(0, me), (1, me)], "both halves, in order, here");
                },
                serve,
            );
            assert!(Crew::pool_ready());
        });
    }
}
