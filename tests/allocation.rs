//! No allocation in a steady-state step (issue 8, item 2): a counting global allocator
//! watches 30 steps of resting standard scenes after they have settled. Every buffer of
//! the step (broadphase pairs, manifolds, rows, colours, packed lanes, islands) is kept
//! from step to step, so once the contact set stops changing a step allocates nothing.
//!
//! The exact island solve (auto mode on small islands) keeps its buffers too
//! (`exact::Scratch`, `thud_lcp::Workspace`): a column of eight boxes is watched
//! without a touching gap (`Settings::touching_gap` 0, whose resting gaps send its island
//! to the exact mode now and then) over steps that solve its island exactly. An island
//! over 128 rows keeps its solve's buffers only through a run of solves on consecutive
//! steps (`exact::KEEP_ROWS`, so the heap holds no dense matrix between runs):
//! `tower_20` without a touching gap allocates on the first solve of a run and on no
//! other step, and with PGS alone on none.
//!
//! Two threads too: a step that uses the pool allocates nothing once its buffers have
//! grown (until the twenty-eighth session the crew's broadcast and the narrowphase's
//! split took three allocations a step). And the heap: `pile_1000` at rest after 10 s,
//! on one thread and on two.
//!
//! One test in this binary: the counter is global, so no other test may run beside it.

// A global allocator is the one place this project writes `unsafe`: `GlobalAlloc` is an
// unsafe trait. Each method only forwards to the system allocator.
#![allow(unsafe_code)]

#[path = "../crates/thud-dynamics/examples/support/scene_world.rs"]
mod scene_world;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use thud_dynamics::{Settings, SolverMode, SweepOrder};

struct Counting;

static ON: AtomicBool = AtomicBool::new(false);
static COUNT: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if ON.load(Ordering::Relaxed) {
            COUNT.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `alloc`/`realloc` above, i.e. from `System`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if ON.load(Ordering::Relaxed) {
            COUNT.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: as for `dealloc`; the caller upholds `realloc`'s contract.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// What [`allocations`] counted.
struct Tally {
    /// Allocations on the steps that solved no island exactly.
    plain: usize,
    /// Allocations on the steps that did, and how many islands those solved.
    on_exact: usize,
    exact: usize,
    /// Of those steps, the ones whose step before solved an island exactly too (a run
    /// of solves), and their allocations.
    in_runs: usize,
    on_runs: usize,
}

/// Allocations during `steps` steps of `scene` after 2 s of settling.
fn allocations(scene: &thud_scene::Scene, settings: Settings, steps: usize) -> Tally {
    let (mut world, _) = scene_world::world(scene, settings);
    for _ in 0..120 {
        world.step().expect("step");
    }
    let mut t = Tally {
        plain: 0,
        on_exact: 0,
        exact: 0,
        in_runs: 0,
        on_runs: 0,
    };
    let mut solved_before = false;
    for _ in 0..steps {
        COUNT.store(0, Ordering::Relaxed);
        ON.store(true, Ordering::Relaxed);
        world.step().expect("step");
        ON.store(false, Ordering::Relaxed);
        let (n, solved) = (COUNT.load(Ordering::Relaxed), world.stats().exact_islands);
        if solved > 0 {
            t.on_exact += n;
            if solved_before {
                t.in_runs += 1;
                t.on_runs += n;
            }
        } else {
            t.plain += n;
        }
        t.exact += solved;
        solved_before = solved > 0;
    }
    t
}

#[test]
fn resting_steps_allocate_nothing() {
    // Worker threads of the narrowphase would allocate their own job state; one thread
    // measures the step itself.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("pool");
    pool.install(|| {
        let pgs = Settings {
            solver_mode: SolverMode::Pgs,
            ..Settings::without_sleeping()
        };
        let colored = Settings {
            sweep_order: SweepOrder::Colored,
            ..Settings::without_sleeping()
        };
        // (No touching gap: the resting gaps' rounding sends a column to the exact mode.)
        let ungapped = Settings {
            touching_gap: 0.0,
            ..Settings::without_sleeping()
        };
        let standard = |name| thud_scene::standard(name).expect("standard scene");
        // (scene, settings, steps watched, whether they must solve an island exactly)
        for (scene, settings, steps, exactly) in [
            (
                standard("pyramid_20"),
                Settings::without_sleeping(),
                30,
                false,
            ),
            (standard("pyramid_20"), colored, 30, false),
            (
                standard("pyramid3d_10"),
                Settings::without_sleeping(),
                30,
                false,
            ),
            (standard("tower_20"), pgs, 30, false),
            (
                standard("tower_20"),
                Settings::without_sleeping(),
                30,
                false,
            ),
            // Without a touching gap a column's island is solved exactly now and then
            // (when PGS's answer wanders past `exact_tolerance` with the rounding of
            // its resting gaps): 2 s take several. Eight boxes, 96 rows: the solve's
            // buffers are kept between solves.
            (thud_scene::standard::tower(8), ungapped.clone(), 120, true),
        ] {
            let name = &scene.name;
            let Tally {
                plain,
                on_exact,
                exact,
                ..
            } = allocations(&scene, settings.clone(), steps);
            let n = plain + on_exact;
            assert_eq!(
                n, 0,
                "{name} ({:?}, {:?}): {n} allocations in {steps} resting steps ({exact} \
                 islands solved exactly)",
                settings.sweep_order, settings.solver_mode
            );
            assert!(
                exact > 0 || !exactly,
                "{name}: no exact solve among the watched steps"
            );
        }
        // `tower_20`'s island (240 rows) is larger than the exact mode keeps buffers
        // for between runs of solves (`exact::KEEP_ROWS`): the first solve of a run
        // allocates, a solve on the step after a solve and the steps that solve
        // nothing allocate nothing.
        let Tally {
            plain,
            on_exact,
            exact,
            in_runs,
            on_runs,
        } = allocations(&standard("tower_20"), ungapped, 120);
        assert!(
            exact > 0,
            "tower_20: no exact solve among the watched steps"
        );
        assert_eq!(
            plain, 0,
            "tower_20: allocations on steps without an exact solve"
        );
        // (A solve makes its buffers once: 55 a solve when written, where each outer
        // pass and pattern made its own before, about a hundred.)
        assert!(
            on_exact <= 64 * exact,
            "tower_20: {on_exact} allocations for {exact} exact solves"
        );
        assert!(
            in_runs > 0,
            "tower_20: no run of solves among the watched steps"
        );
        assert_eq!(
            on_runs, 0,
            "tower_20: {on_runs} allocations on {in_runs} solves that followed a solve"
        );
    });
    // On two threads: the step's crew (its helper started by a join, whose jobs live on
    // the stack), the sweeps in two parts, the narrowphase's chunks (their patches and
    // scratch kept between steps) and every pass in halves allocate nothing either,
    // on any of the pool's threads.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("pool");
    pool.install(|| {
        for name in ["pyramid_40", "pyramid3d_10"] {
            let scene = thud_scene::standard(name).expect("standard scene");
            let (mut world, _) = scene_world::world(&scene, Settings::without_sleeping());
            for _ in 0..120 {
                world.step().expect("step");
            }
            let mut threaded = 0;
            COUNT.store(0, Ordering::Relaxed);
            ON.store(true, Ordering::Relaxed);
            for _ in 0..30 {
                world.step().expect("step");
                threaded += world.stats().threaded_solves;
            }
            ON.store(false, Ordering::Relaxed);
            let n = COUNT.load(Ordering::Relaxed);
            assert!(threaded > 0, "{name}: no solve on the two threads");
            assert_eq!(n, 0, "{name}: {n} allocations in 30 two-thread steps");
        }
    });
    // The heap at rest, on one thread and on two: `pile_1000` comes to rest by about
    // 9 s (its steps then keep their rows), and a resting step of its thousand boxes
    // allocates nothing either.
    let scene = thud_scene::standard("pile_1000").expect("standard scene");
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("pool");
        pool.install(|| {
            let (mut world, _) = scene_world::world(&scene, Settings::without_sleeping());
            for _ in 0..600 {
                world.step().expect("step");
            }
            COUNT.store(0, Ordering::Relaxed);
            ON.store(true, Ordering::Relaxed);
            for _ in 0..30 {
                world.step().expect("step");
            }
            ON.store(false, Ordering::Relaxed);
            let n = COUNT.load(Ordering::Relaxed);
            assert_eq!(
                n, 0,
                "pile_1000: {n} allocations in 30 resting steps, pool of {threads}"
            );
        });
    }
}
