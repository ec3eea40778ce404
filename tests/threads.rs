//! Bitwise the same for any thread count (issue 8, item 1): `pile_1000` — a thousand
//! boxes falling into a bin, the scene with the most pairs changing every step — run for
//! 2 s on rayon pools of 1, 2 and 4 threads must end in the same state, compared as a
//! hash of every body's pose and velocity bits.
//!
//! Run twice: at the defaults, whose steps stay on the caller's thread (too little to
//! share, `Settings::parallel_min_pairs`), and with the pool forced on
//! (`parallel_min_pairs: 0`, and 8 sweeps per solve so the sweeps split too), which
//! splits the narrowphase, the per-point passes and the sweeps over the threads.
//!
//! What makes it hold: the narrowphase splits its pairs into fixed chunks and merges
//! them in chunk order, the colouring and level scheduling of the solver are sequential
//! functions of the manifold order, and within a level or colour the lanes touch
//! disjoint bodies, so no sum is ever taken in a thread-dependent order.

#[path = "../crates/thud-dynamics/examples/support/scene_world.rs"]
mod scene_world;

use thud_dynamics::{Settings, SweepOrder};

fn final_hash(threads: usize, settings: Settings) -> u64 {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("pool");
    pool.install(|| {
        let scene = thud_scene::standard("pile_1000").expect("standard scene");
        let (mut world, handles) = scene_world::world(&scene, settings);
        for _ in 0..120 {
            world.step().expect("step");
        }
        scene_world::state_hash(&world, &handles)
    })
}

#[test]
fn pile_1000_is_bitwise_identical_on_1_2_and_4_threads() {
    for order in [SweepOrder::Sequential, SweepOrder::Colored] {
        let defaults = Settings {
            sweep_order: order,
            ..Settings::default()
        };
        let pooled = Settings {
            parallel_min_pairs: 0,
            iterations: 8,
            ..defaults.clone()
        };
        for settings in [defaults, pooled] {
            let one = final_hash(1, settings.clone());
            for threads in [2, 4] {
                assert_eq!(
                    final_hash(threads, settings.clone()),
                    one,
                    "{order:?}, {} sweeps: {threads} threads differ from 1",
                    settings.iterations
                );
            }
        }
    }
}
