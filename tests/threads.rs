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

use glam::Vec3;
use thud_dynamics::{Settings, SweepOrder};

/// `f` run on a rayon pool of `threads` threads.
fn on_pool<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("pool")
        .install(f)
}

fn final_hash(threads: usize, settings: Settings) -> u64 {
    on_pool(threads, || {
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

/// `pyramid_40`: a large sweep that stands, cut into two regions and a seam
/// (`color.rs`), whose sweeps run on the pool's threads at any number of sweeps (a
/// region each, meeting at the seam) with the rows refreshed in each unit's first sweep
/// on the thread that sweeps it; with every step building its rows
/// (`reuse_rows_within` 0), the rows and their warm impulses are built on both threads
/// too; after such a solve its 820 bodies are integrated half on each thread. One, two
/// and four threads end in the same bits, with solves on two threads.
#[test]
fn pyramid_40_in_two_regions_is_bitwise_identical_on_1_2_and_4_threads() {
    let built = Settings {
        reuse_rows_within: 0.0,
        ..Settings::without_sleeping()
    };
    for settings in [Settings::without_sleeping(), built] {
        let run = |threads: usize| cut_run("pyramid_40", &settings, 90, threads, None);
        let Cut {
            hash: one,
            regions,
            blocks,
            threaded,
            rebuilt_on_threads,
        } = run(1);
        assert!(regions > 80, "{regions} steps swept in regions");
        assert_eq!(blocks, 0, "2 380 manifolds keep the per-sweep order");
        assert_eq!((threaded, rebuilt_on_threads), (0, 0));
        let Cut {
            hash: two,
            threaded,
            rebuilt_on_threads,
            ..
        } = run(2);
        // (Fewer where the test harness's other threads take a core: a solve whose
        // other thread stalls sends the next ones to one thread, `parallel::COOLING`.)
        assert!(threaded >= 40, "{threaded} of 360 solves on two threads");
        assert_eq!(rebuilt_on_threads, 0, "the pyramid stands still");
        assert_eq!(two, one, "2 threads differ from 1");
        assert_eq!(run(4).hash, one, "4 threads differ from 1");
    }
}

/// `pyramid_40` keeping its rows while a box near its middle is pushed out of the
/// wall's plane: the steps after keep most units' rows and build the moved ones again,
/// on two threads in the sweeps' dependency order (`Schedule::build_rows`), each
/// unit's old impulses taken out of `dV` right before its rows are built, as one thread
/// does. One, two and four threads end in the same bits.
#[test]
fn units_built_again_on_two_threads_end_as_on_one() {
    let settings = Settings::without_sleeping();
    let kick = Some((30, 400, Vec3::new(0.0, 0.0, 0.3)));
    let run = |threads: usize| cut_run("pyramid_40", &settings, 60, threads, kick);
    let one = run(1);
    assert_eq!(one.rebuilt_on_threads, 0);
    let two = run(2);
    assert!(
        two.rebuilt_on_threads >= 2,
        "{} steps built units again on two threads",
        two.rebuilt_on_threads
    );
    assert_eq!(two.hash, one.hash, "2 threads differ from 1");
    assert_eq!(run(4).hash, one.hash, "4 threads differ from 1");
}

/// What [`cut_run`] saw: the final state's hash, the steps whose sweep was cut into
/// regions and those in the block order, the solves whose sweeps ran on threads, the
/// steps that kept their rows and built some units again on threads.
struct Cut {
    hash: u64,
    regions: usize,
    blocks: usize,
    threaded: u32,
    rebuilt_on_threads: usize,
}

/// The standard scene `name` stepped `steps` times on a pool of `threads`; with
/// `kick`, `(step, body, v)`, the scene's body `body` takes the velocity `v` before that
/// step (from 0).
fn cut_run(
    name: &str,
    settings: &Settings,
    steps: usize,
    threads: usize,
    kick: Option<(usize, usize, Vec3)>,
) -> Cut {
    on_pool(threads, || {
        let scene = thud_scene::standard(name).expect("standard scene");
        let (mut world, handles) = scene_world::world(&scene, settings.clone());
        let (mut regions, mut blocks, mut threaded, mut rebuilt_on_threads) = (0, 0, 0, 0);
        for step in 0..steps {
            if let Some((_, body, v)) = kick.filter(|k| k.0 == step) {
                world.set_linear_velocity(handles[body], v).expect("a body");
            }
            world.step().expect("step");
            let stats = world.stats();
            regions += usize::from(stats.regions);
            blocks += usize::from(stats.blocks);
            threaded += stats.threaded_solves;
            rebuilt_on_threads += usize::from(stats.rows_rebuilt_on_threads);
        }
        let hash = scene_world::state_hash(&world, &handles);
        Cut {
            hash,
            regions,
            blocks,
            threaded,
            rebuilt_on_threads,
        }
    })
}

/// `pyramid_100` (14 950 manifolds, more than `color::BLOCK_MIN`): its cut sweep takes
/// the block order — each region's sweeps on a thread of its own as a wavefront, with
/// no wait on the other, and the seam's sweeps after both — and one and two threads end
/// in the same bits, with solves on two threads.
#[test]
fn pyramid_100_in_the_block_order_is_bitwise_identical_on_1_and_2_threads() {
    let run = |threads: usize| {
        cut_run(
            "pyramid_100",
            &Settings::without_sleeping(),
            20,
            threads,
            None,
        )
    };
    let Cut {
        hash: one,
        blocks,
        threaded,
        ..
    } = run(1);
    assert!(blocks >= 10, "{blocks} of 20 steps in the block order");
    assert_eq!(threaded, 0);
    let Cut {
        hash: two,
        threaded,
        ..
    } = run(2);
    assert!(threaded >= 20, "{threaded} of 80 solves on two threads");
    assert_eq!(two, one, "2 threads differ from 1");
}

/// `pyramid_40` building its rows every step, whose solver bodies two threads make
/// half each (`World::solver_bodies`, sized by the last step's counts), while bodies come
/// and go: a plank (a body in its own angular frame) dropped on the pyramid, the top box
/// taken away, a box of the base made static and then dynamic again. Each change moves
/// the counts of the halves, so the build makes them again at the counts found. And the
/// same with rows kept between the changes, whose steps check the bodies and take their
/// velocities without contact on both threads while none came, went or changed kind
/// since the build (`World::keep_bodies_in_halves`), and in the body order on one after
/// a change. One and two threads end in the same bits, with solves on two threads.
#[test]
fn bodies_that_come_and_go_on_two_threads_end_as_on_one() {
    let built = Settings {
        reuse_rows_within: 0.0,
        ..Settings::without_sleeping()
    };
    for settings in [built, Settings::without_sleeping()] {
        bodies_come_and_go(&settings);
    }
}

/// [`bodies_that_come_and_go_on_two_threads_end_as_on_one`] at `settings`.
fn bodies_come_and_go(settings: &Settings) {
    use thud_dynamics::{BodyBuilder, BodyKind, Collider};
    let run = |threads: usize| {
        on_pool(threads, || {
            let scene = thud_scene::standard("pyramid_40").expect("standard scene");
            let (mut world, mut handles) = scene_world::world(&scene, settings.clone());
            let mut threaded = 0;
            for step in 0..90 {
                match step {
                    10 => {
                        let plank = BodyBuilder::dynamic()
                            .position(Vec3::new(0.3, 42.0, 0.0))
                            .collider(Collider::cuboid(Vec3::new(1.5, 0.1, 0.4)));
                        handles.push(world.add_body(plank).expect("plank"));
                    }
                    20 => {
                        let top = handles.remove(handles.len() - 2);
                        world.remove_body(top).expect("remove the top box");
                    }
                    30 => world
                        .set_body_kind(handles[0], BodyKind::Static)
                        .expect("static"),
                    40 => world
                        .set_body_kind(handles[0], BodyKind::Dynamic)
                        .expect("dynamic"),
                    _ => {}
                }
                world.step().expect("step");
                threaded += world.stats().threaded_solves;
            }
            (scene_world::state_hash(&world, &handles), threaded)
        })
    };
    let (one, threaded) = run(1);
    assert_eq!(threaded, 0);
    let (two, threaded) = run(2);
    assert!(threaded >= 40, "{threaded} of 360 solves on two threads");
    assert_eq!(two, one, "2 threads differ from 1");
}

/// Worlds stepped side by side on one two-thread pool (a game stepping several scenes
/// in a `par_iter`): each step of a cut `pyramid_40` starts its crew while the
/// others' steps run on the same two threads, nested in each other's helpers. Every
/// world ends in the bits it reaches stepped alone on one thread, and none waits
/// forever.
#[test]
fn worlds_stepped_side_by_side_on_one_pool_end_as_stepped_alone() {
    use rayon::prelude::*;
    let scene = thud_scene::standard("pyramid_40").expect("standard scene");
    let steps = 30;
    let alone = on_pool(1, || {
        let (mut world, handles) = scene_world::world(&scene, Settings::without_sleeping());
        for _ in 0..steps {
            world.step().expect("step");
        }
        scene_world::state_hash(&world, &handles)
    });
    let hashes: Vec<u64> = on_pool(2, || {
        (0..4)
            .into_par_iter()
            .map(|_| {
                let (mut world, handles) = scene_world::world(&scene, Settings::without_sleeping());
                for _ in 0..steps {
                    world.step().expect("step");
                }
                scene_world::state_hash(&world, &handles)
            })
            .collect()
    });
    assert_eq!(hashes, vec![alone; 4]);
}

/// A world stepped on a pool that runs other work at the same time (a game's own
/// parallel jobs): the step's helper may start inside one of those jobs, and the other
/// work's jobs run inside the step's waits. Same bits as stepped alone, and both finish.
#[test]
fn a_world_stepped_beside_other_pool_work_ends_as_stepped_alone() {
    use rayon::prelude::*;
    let scene = thud_scene::standard("pyramid_40").expect("standard scene");
    let settings = Settings {
        parallel_min_pairs: 0,
        ..Settings::without_sleeping()
    };
    let steps = 30;
    let run = |world: &mut thud_dynamics::World| {
        for _ in 0..steps {
            world.step().expect("step");
        }
    };
    let alone = on_pool(1, || {
        let (mut world, handles) = scene_world::world(&scene, settings.clone());
        run(&mut world);
        scene_world::state_hash(&world, &handles)
    });
    let (hash, sum) = on_pool(2, || {
        rayon::join(
            || {
                let (mut world, handles) = scene_world::world(&scene, settings.clone());
                run(&mut world);
                scene_world::state_hash(&world, &handles)
            },
            || {
                (0..200u64)
                    .map(|k| {
                        (0..20_000u64)
                            .into_par_iter()
                            .map(|i| (i * k) % 7)
                            .sum::<u64>()
                    })
                    .sum::<u64>()
            },
        )
    });
    assert_eq!(hash, alone);
    let expected: u64 = (0..200u64)
        .map(|k| (0..20_000u64).map(|i| (i * k) % 7).sum::<u64>())
        .sum();
    assert_eq!(sum, expected);
}

/// A world at `base` with the pool forced on (`parallel_min_pairs: 0`) and a fixed
/// ground slab 1 m thick, its top face 2·`half` m by 40 m, centred at `centre`.
fn on_ground(base: Settings, centre: Vec3, half: f32) -> thud_dynamics::World {
    use thud_dynamics::{BodyBuilder, Collider, World};
    let mut world = World::new(Settings {
        parallel_min_pairs: 0,
        ..base
    });
    let ground = BodyBuilder::fixed()
        .position(centre)
        .collider(Collider::cuboid(Vec3::new(half, 0.5, 20.0)));
    world.add_body(ground).expect("ground");
    world
}

/// A field of 9 000 balls dropped on the ground, stepped with the pool forced on: large
/// enough for every parallel pass of the broadphase (the colliders' boxes, the
/// pair-list filters, the moved proxies' queries) to split, which `pile_1000` is not,
/// and balls replaced halfway, then some made kinematic or fixed and some of those
/// dynamic again. One, two and four threads end in the same bits.
#[test]
fn a_field_of_9000_balls_is_bitwise_identical_on_1_2_and_4_threads() {
    use thud_dynamics::{BodyBuilder, Collider};
    let hash = |threads: usize| {
        on_pool(threads, || {
            let mut world = on_ground(
                Settings::without_sleeping(),
                Vec3::new(15.0, -0.5, 15.0),
                20.0,
            );
            let mut handles = Vec::new();
            for k in 0..9000 {
                let (i, j, l) = (k / 300, (k / 30) % 10, k % 30);
                // (Neighbours' fat boxes overlap, their tight boxes do not.)
                let p = Vec3::new(i as f32, 0.5 + j as f32, l as f32)
                    + Vec3::new(0.01, 0.0, -0.01) * (k % 7) as f32;
                handles.push(
                    world
                        .add_body(
                            BodyBuilder::dynamic()
                                .position(p)
                                .collider(Collider::sphere(0.45)),
                        )
                        .expect("ball"),
                );
            }
            for _ in 0..15 {
                world.step().expect("step");
            }
            // Balls taken out of the first half of the body order and others added: the
            // new ones take the freed collider keys at the end of the order (their
            // boxes handed to the broadphase apart from their half's range).
            for k in (0..60).map(|i| i * 71) {
                world.remove_body(handles[k]).expect("remove");
                let p = Vec3::new(k as f32 * 0.004, 12.0, 15.0);
                handles[k] = world
                    .add_body(
                        BodyBuilder::dynamic()
                            .position(p)
                            .collider(Collider::sphere(0.45)),
                    )
                    .expect("ball");
            }
            // Bodies that change kind (and change back) on the halves' threads.
            use thud_dynamics::BodyKind;
            for (i, kind) in [BodyKind::Kinematic, BodyKind::Static]
                .into_iter()
                .enumerate()
            {
                for k in (0..30).map(|j| j * 293 + 7 + i) {
                    world.set_body_kind(handles[k], kind).expect("kind");
                }
            }
            for _ in 0..8 {
                world.step().expect("step");
            }
            for k in (0..30).map(|j| j * 293 + 7) {
                world
                    .set_body_kind(handles[k], BodyKind::Dynamic)
                    .expect("kind");
            }
            for _ in 0..7 {
                world.step().expect("step");
            }
            scene_world::state_hash(&world, &handles)
        })
    };
    let one = hash(1);
    for threads in [2, 4] {
        assert_eq!(hash(threads), one, "{threads} threads differ from 1");
    }
}

/// A field of 1 200 balls resting on the ground with sleeping on and the pool forced
/// on, so that the bodies are looked at in two halves (`World::make_collider_boxes`):
/// the balls fall asleep, a few are pushed awake, and the ones they hit wake with them.
/// Bodies that start or stop moving are handed back to the stepping thread, and one,
/// two and four threads end in the same bits.
#[test]
fn balls_that_fall_asleep_and_wake_on_two_threads_end_as_on_one() {
    use thud_dynamics::{BodyBuilder, Collider, World};
    let run = |threads: usize| {
        on_pool(threads, || {
            let mut world = on_ground(Settings::default(), Vec3::new(20.0, -0.5, 15.0), 25.0);
            let mut handles = Vec::new();
            for k in 0..1200 {
                let p = Vec3::new((k / 30) as f32, 0.45, (k % 30) as f32);
                let ball = BodyBuilder::dynamic()
                    .position(p)
                    .collider(Collider::sphere(0.45));
                handles.push(world.add_body(ball).expect("ball"));
            }
            let asleep = |world: &World, handles: &[thud_dynamics::BodyHandle]| {
                handles
                    .iter()
                    .filter(|&&h| world.body(h).expect("ball").is_sleeping())
                    .count()
            };
            for _ in 0..90 {
                world.step().expect("step");
            }
            let slept = asleep(&world, &handles);
            for k in (0..12).map(|j| j * 97 + 5) {
                world
                    .apply_impulse(handles[k], Vec3::new(2.0, 0.0, 0.5))
                    .expect("push");
            }
            for _ in 0..20 {
                world.step().expect("step");
            }
            let awake = handles.len() - asleep(&world, &handles);
            (scene_world::state_hash(&world, &handles), slept, awake)
        })
    };
    let (one, slept, awake) = run(1);
    assert_eq!(slept, 1200, "every ball asleep before the push");
    assert!(awake >= 12, "{awake} balls awake after the push");
    for threads in [2, 4] {
        assert_eq!(
            run(threads),
            (one, slept, awake),
            "{threads} threads differ from 1"
        );
    }
}

/// `pyramid_20` with a 6-box column beside it that the exact mode takes and sweeps
/// apart (its rows over the whole step, its sweeps after the groups' in the last
/// substep), stepped with the pool forced on: one, two and four threads end in the
/// same bits, pyramid and column.
#[test]
fn a_pyramid_beside_a_column_swept_apart_is_bitwise_identical_on_1_2_and_4_threads() {
    let hash = |threads: usize| {
        on_pool(threads, || {
            let scene = thud_scene::standard("pyramid_20").expect("standard scene");
            let settings = Settings {
                parallel_min_pairs: 0,
                iterations: 8,
                ..Settings::without_sleeping()
            };
            let (mut world, mut handles) = scene_world::world(&scene, settings);
            handles.extend(scene_world::stand_column(&mut world, 30.0, 6));
            let mut apart = 0;
            for _ in 0..120 {
                world.step().expect("step");
                apart += usize::from(world.stats().overflow > 0);
            }
            (scene_world::state_hash(&world, &handles), apart)
        })
    };
    let (one, apart) = hash(1);
    assert_eq!(apart, 120);
    for threads in [2, 4] {
        assert_eq!(
            hash(threads),
            (one, apart),
            "{threads} threads differ from 1"
        );
    }
}
