//! No allocation in a steady-state step (issue 8, item 2): a counting global allocator
//! watches 30 steps of resting standard scenes after they have settled. Every buffer of
//! the step (broadphase pairs, manifolds, rows, colours, packed lanes, islands) is kept
//! from step to step, so once the contact set stops changing a step allocates nothing.
//!
//! The exact island solve (auto mode on small islands such as `tower_20`) keeps its
//! buffers too (`exact::Scratch`, `thud_lcp::Workspace`): `tower_20` is watched at the
//! defaults over steps that solve its island exactly, and with PGS alone.
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

/// Allocations during `steps` steps of `name` after 2 s of settling, and how many
/// islands those steps solved exactly.
fn allocations(name: &str, settings: Settings, steps: usize) -> (usize, usize) {
    let scene = thud_scene::standard(name).expect("standard scene");
    let (mut world, _) = scene_world::world(&scene, settings);
    for _ in 0..120 {
        world.step().expect("step");
    }
    let mut exact = 0;
    COUNT.store(0, Ordering::Relaxed);
    ON.store(true, Ordering::Relaxed);
    for _ in 0..steps {
        world.step().expect("step");
        exact += world.stats().exact_islands;
    }
    ON.store(false, Ordering::Relaxed);
    (COUNT.load(Ordering::Relaxed), exact)
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
        // (name, settings, steps watched, whether they must solve an island exactly)
        for (name, settings, steps, exactly) in [
            ("pyramid_20", Settings::without_sleeping(), 30, false),
            ("pyramid_20", colored, 30, false),
            ("pyramid3d_10", Settings::without_sleeping(), 30, false),
            ("tower_20", pgs, 30, false),
            // At the defaults the tower's island is solved exactly now and then (when
            // PGS's answer wanders past `exact_tolerance`): 2 s take several.
            ("tower_20", Settings::without_sleeping(), 120, true),
        ] {
            let (n, exact) = allocations(name, settings.clone(), steps);
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
    });
}
