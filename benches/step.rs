//! Step time of every standard scene (`shared/scenes.md`, built by `thud_scene::standard`)
//! at default settings, sleeping off, on a one-thread rayon pool; the big scenes again on
//! two threads (`_2t`) and with `SweepOrder::Colored`; `pyramid_100` at 8 sweeps a solve
//! on one and two threads (`_8sweeps`, where the sweeps split over the pool);
//! `pyramid_40` and `pyramid3d_10` with friction rows in every sweep
//! (`_friction_every_sweep`, `Settings::friction_stride = 1`); `pyramid_20` and
//! `pyramid3d_10` building every row every step (`_rows_built`,
//! `Settings::reuse_rows_within = 0`); `pyramid_40` with a column of four boxes beside
//! it that the exact mode takes and sweeps apart (`_beside_column`), with one thing a
//! game's world holds set elsewhere (`scene_world::Beside`: `_beside_pendulum`,
//! `_beside_kinematic`, `_beside_chain`, `_beside_bouncy_ball`, `_beside_roller`), and
//! with boxes 0.8 m deep (`_planks`: bodies of other inertia than a cube's);
//! `pyramid_100` beside a resting chain of 30 links (`_beside_chain_30`: joint rows on
//! bodies the groups move, swept inside the wavefront); the steps of
//! `pile_1000` from 1 s to 4 s, while its lattice falls into the bin and tumbles, on one
//! and two threads (`pile_1000_tumbling`, `_2t`: where the narrowphase computes most
//! pairs afresh and splits over the pool, `Settings::parallel_min_recomputed`); a row of
//! 64 resting towers of eight boxes at the defaults and with PGS alone (`towers_64x8`,
//! `_pgs`: what the exact mode's islands cost, `docs/dynamics.md`, *Many small
//! stacks*); and the cost of one PGS row update.
//!
//! `cargo bench --bench step -- --warm-up-time 1 --measurement-time 3`
//!
//! Each scene is first run for 1 s of simulated time so the benchmark measures resting
//! (warm-started) steps, then every iteration is one `World::step` (the tumbling pile's
//! world is built again, untimed, whenever it reaches 4 s). The row cost is the
//! `Solve` stage time divided by the row updates the sweeps did (`StepStats::row_updates`:
//! rows × sweeps with friction, normal rows × sweeps without), printed once per scene;
//! that stage also holds the split pass, the impulse sums and the write-back. The
//! `row_update` group times the row update alone: a solve substep's sweeps run again
//! over a settled scene's rows (`World::sweep_again`), criterion's throughput in row
//! updates (`cargo bench --bench step -- row_update`).

#[path = "../crates/thud-dynamics/examples/support/scene_world.rs"]
mod scene_world;

use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use thud_dynamics::{Settings, Stage, SweepOrder, World};

/// How a run's settings differ from `Settings::without_sleeping()`.
#[derive(Clone, Copy)]
enum Variant {
    Defaults,
    Colored,
    Sweeps(u32),
    FrictionEverySweep,
    RowsBuilt,
    /// At the defaults, with a column of this many unit boxes 60 m from the origin.
    Column(usize),
    /// At the defaults, with this set elsewhere.
    Beside(scene_world::Beside),
    /// At the defaults, the unit boxes 0.8 m deep.
    Planks,
}

fn settled(name: &str, variant: Variant) -> World {
    settled_for(name, variant, 60)
}

/// The scene's world after `steps` steps.
fn settled_for(name: &str, variant: Variant, steps: usize) -> World {
    let mut scene = thud_scene::standard(name).expect("standard scene");
    if let Variant::Planks = variant {
        scene_world::deepen(&mut scene, 0.8);
    }
    let defaults = Settings::without_sleeping();
    let settings = match variant {
        Variant::Defaults => defaults,
        Variant::Colored => Settings {
            sweep_order: SweepOrder::Colored,
            ..defaults
        },
        Variant::Sweeps(n) => Settings {
            iterations: n,
            ..defaults
        },
        Variant::FrictionEverySweep => Settings {
            friction_stride: 1,
            ..defaults
        },
        Variant::RowsBuilt => Settings {
            reuse_rows_within: 0.0,
            ..defaults
        },
        Variant::Column(_) | Variant::Beside(_) | Variant::Planks => defaults,
    };
    let (mut world, _) = scene_world::world(&scene, settings);
    match variant {
        Variant::Column(n) => {
            scene_world::stand_column(&mut world, 60.0, n);
        }
        Variant::Beside(what) => scene_world::set_beside(&mut world, what),
        _ => {}
    }
    for _ in 0..steps {
        world.step().expect("step");
    }
    world
}

/// Times `world`'s steps as `label`, every step on `pool` (its thread count decides the
/// parallel paths).
fn time_steps(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    label: &str,
    pool: &rayon::ThreadPool,
    world: &mut World,
) {
    group.bench_function(label, |b| {
        b.iter_custom(|iters| {
            pool.install(|| {
                let t = Instant::now();
                for _ in 0..iters {
                    world.step().expect("step");
                }
                t.elapsed()
            })
        })
    });
}

fn step_time(c: &mut Criterion) {
    let mut group = c.benchmark_group("step");
    group.sample_size(20);
    let pools: Vec<rayon::ThreadPool> = [1, 2]
        .iter()
        .map(|&n| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .expect("pool")
        })
        .collect();
    let big = ["pyramid_40", "pyramid_100", "pyramid3d_10", "pile_1000"];
    let runs = thud_scene::STANDARD_NAMES
        .iter()
        .map(|&n| (n, Variant::Defaults, 0, n.to_string()))
        .chain(big.map(|n| (n, Variant::Defaults, 1, format!("{n}_2t"))))
        .chain(
            ["pyramid_40", "pile_1000"].map(|n| (n, Variant::Colored, 0, format!("{n}_colored"))),
        )
        .chain([0, 1].map(|pool| {
            let label = ["pyramid_100_8sweeps", "pyramid_100_8sweeps_2t"][pool];
            ("pyramid_100", Variant::Sweeps(8), pool, label.to_string())
        }))
        .chain(["pyramid_40", "pyramid3d_10"].map(|n| {
            let label = format!("{n}_friction_every_sweep");
            (n, Variant::FrictionEverySweep, 0, label)
        }))
        .chain(["pyramid_20", "pyramid3d_10"].map(|n| {
            let label = format!("{n}_rows_built");
            (n, Variant::RowsBuilt, 0, label)
        }))
        .chain(std::iter::once((
            "pyramid_40",
            Variant::Column(4),
            0,
            "pyramid_40_beside_column".to_string(),
        )))
        .chain({
            use scene_world::Beside;
            [
                (Beside::Pendulum, "pendulum"),
                (Beside::Kinematic, "kinematic"),
                (Beside::Chain(5), "chain"),
                (Beside::BouncyBall, "bouncy_ball"),
                (Beside::Roller, "roller"),
            ]
            .map(|(what, label)| {
                let label = format!("pyramid_40_beside_{label}");
                ("pyramid_40", Variant::Beside(what), 0, label)
            })
        })
        .chain(std::iter::once((
            "pyramid_40",
            Variant::Planks,
            0,
            "pyramid_40_planks".to_string(),
        )))
        .chain(std::iter::once((
            "pyramid_100",
            Variant::Beside(scene_world::Beside::Chain(30)),
            0,
            "pyramid_100_beside_chain_30".to_string(),
        )));
    for (name, variant, pool, label) in runs {
        let pool = &pools[pool];
        let mut world = pool.install(|| settled(name, variant));
        time_steps(&mut group, &label, pool, &mut world);
        // Row cost from the solver's own stage timer over a few steps.
        let (solve, updates) = pool.install(|| {
            let (mut solve, mut updates) = (0.0f64, 0.0f64);
            for _ in 0..20 {
                world.step().expect("step");
                let s = world.stats();
                solve += s.stage(Stage::Solve).as_secs_f64();
                updates += s.row_updates as f64;
            }
            (solve, updates)
        });
        if updates > 0.0 {
            println!(
                "{label}: {} rows, {} iterations, {} row updates, Solve stage {:.3} ms/step, {:.2} ns per row update",
                world.stats().rows,
                world.stats().iterations,
                world.stats().row_updates,
                solve / 20.0 * 1e3,
                solve / updates * 1e9
            );
        }
    }
    // Rows of small resting stacks: 64 towers of eight boxes at the defaults, where the
    // exact mode takes the islands its row budget holds, and with PGS alone.
    for (mode, label) in [
        (thud_dynamics::SolverMode::Auto, "towers_64x8"),
        (thud_dynamics::SolverMode::Pgs, "towers_64x8_pgs"),
    ] {
        let settings = Settings {
            solver_mode: mode,
            ..Settings::without_sleeping()
        };
        let pool = &pools[0];
        let scene = scene_world::tower_row(64, 8);
        let mut world = pool.install(|| {
            let (mut world, _) = scene_world::world(&scene, settings);
            for _ in 0..60 {
                world.step().expect("step");
            }
            world
        });
        time_steps(&mut group, label, pool, &mut world);
    }
    for (pool, label) in pools
        .iter()
        .zip(["pile_1000_tumbling", "pile_1000_tumbling_2t"])
    {
        // Steps 60 to 240 of the drop, each timed alone.
        let fresh = || pool.install(|| settled("pile_1000", Variant::Defaults));
        let (mut world, mut done) = (fresh(), 60);
        group.bench_function(label, |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    if done >= 240 {
                        (world, done) = (fresh(), 60);
                    }
                    total += pool.install(|| {
                        let t = Instant::now();
                        world.step().expect("step");
                        t.elapsed()
                    });
                    done += 1;
                }
                total
            })
        });
    }
    group.finish();
}

/// One row update alone: the velocity sweeps of a solve substep (three at the defaults,
/// friction rows in every other) over the rows a settled scene's last step solved (1 s,
/// the pile 10 s)
/// (`World::sweep_again`), on one thread — no build, refresh, split pass, impulse sums
/// or write-back. Criterion's throughput is in row updates.
fn row_update(c: &mut Criterion) {
    let mut group = c.benchmark_group("row_update");
    group.sample_size(20);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("pool");
    for name in [
        "pyramid_20",
        "pyramid_40",
        "pyramid_100",
        "pyramid3d_10",
        "pile_1000",
    ] {
        // (The pile after 10 s, in the bin: after 1 s its lattice is still falling.)
        let steps = if name == "pile_1000" { 600 } else { 60 };
        let mut world = pool.install(|| settled_for(name, Variant::Defaults, steps));
        let sweeps = {
            let s = world.settings();
            s.substep_iterations.unwrap_or(s.iterations)
        };
        let updates = pool.install(|| world.sweep_again(sweeps));
        group.throughput(Throughput::Elements(updates));
        let mut timed = (Duration::ZERO, 0u64);
        group.bench_function(name, |b| {
            b.iter_custom(|iters| {
                pool.install(|| {
                    let t = Instant::now();
                    for _ in 0..iters {
                        world.sweep_again(sweeps);
                    }
                    let e = t.elapsed();
                    timed = (timed.0 + e, timed.1 + iters * updates);
                    e
                })
            })
        });
        println!(
            "row_update/{name}: {updates} row updates a solve of {sweeps} sweeps, {:.2} ns per row update",
            timed.0.as_secs_f64() * 1e9 / timed.1.max(1) as f64
        );
    }
    group.finish();
}

criterion_group!(benches, step_time, row_update);
criterion_main!(benches);
