//! Low quantiles of the step and stage times of standard scenes, for comparing two
//! builds on a shared host: other tenants only ever add time, so the fastest tenth of
//! many steps moves far less with the host's load than a median or a mean does.
//!
//! `cargo run --release -p thud-dynamics --example step_quantiles -- pyramid_40`
//! (one thread unless `THUD_THREADS` says otherwise; `THUD_STEPS` steps after
//! `THUD_SKIP` settling ones, default 600 after 60). Prints, per scene, the 10th
//! percentile and the median of the step and of every stage, in ms.
//!
//! `THUD_WINDOW=n` also prints each world's run in windows of `n` steps, from the scene's
//! start: the window's end in seconds, its median step, the means of the narrowphase,
//! BuildJacobians and Solve stages, how many of its steps kept their rows, the mean
//! BuildJacobians of those steps and of the others (what keeping the rows saves), the
//! manifolds at its end and the collider pairs listed and computed afresh a step
//! (`StepStats::pairs`, `pairs_computed`) — where a scene spends its time as it falls,
//! settles and rests (`THUD_SKIP=0` to see its first second too).
//!
//! `THUD_FRICTION_STRIDE` sets `Settings::friction_stride`, `THUD_REUSE`
//! `Settings::reuse_rows_within`, `THUD_GAP` `Settings::touching_gap`, `THUD_SWEEPS`
//! (`first/later`, e.g. `3/3,2/2`) `Settings::iterations` and `substep_iterations`,
//! `THUD_DEEP_ITER` `Settings::deep_split_iterations` (and `THUD_DEEP`
//! `Settings::deep_penetration`, for every world), `THUD_SWEEP_TOL`
//! `Settings::sweep_tolerance`; a
//! list (`1,2`) compares settings in one process: one world per value (per combination
//! of values where several are lists), stepped in turns of 20
//! steps each (`THUD_BLOCK`), so that the host's slow and fast spells
//! (`docs/performance.md`) fall on all of them alike; then each world's quantiles, how
//! many of its steps kept their rows, and the ratios of the others' p10s to the first's.
//! `THUD_THREADS` sizes the pool (default 1) and `THUD_MIN_PAIRS` sets
//! `Settings::parallel_min_pairs` (0: the step uses the pool whenever it has threads);
//! `THUD_ORDER=colored` sets `SweepOrder::Colored`.
//! `THUD_COLUMN=n` stands a column of `n` unit boxes on the ground at x = 60 m beside the
//! scene (a small stack the exact mode takes, beside a structure it does not).
//! `THUD_PENDULUM=1`, `THUD_KINEMATIC=1`, `THUD_CHAIN=n`, `THUD_ROLLER=1`, `THUD_BALL=1`
//! set a pendulum, a moving kinematic box, a chain of `n` joined cubes at rest, a rolling
//! capsule, a resting bouncy ball elsewhere in the world (`scene_world::Beside`).
//! `THUD_DEPTH=d` gives the scene's unit boxes a depth of `d` m instead of 1
//! (`scene_world::deepen`: boxes of other inertia than a cube's).

#[path = "support/scene_world.rs"]
mod scene_world;

use std::time::Instant;

use thud_dynamics::{Settings, Stage};

fn quantile(v: &mut [f64], q: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    v[((v.len() - 1) as f64 * q).round() as usize]
}

fn env<T: std::str::FromStr>(key: &str) -> Option<T> {
    std::env::var(key).ok().and_then(|v| v.parse().ok())
}

/// Per-step times of the whole step and of every stage, ms.
struct Times {
    total: Vec<f64>,
    stages: Vec<Vec<f64>>,
    /// Steps that kept their rows, the units they built again, and how many of those
    /// steps kept them through a changed point count (`StepStats::rows_relaid`).
    kept: usize,
    rebuilt: usize,
    relaid: usize,
    /// Solves whose sweeps ran on the pool's threads.
    threaded: u32,
    /// Velocity sweeps over the steps (`StepStats::iterations`).
    sweeps: u64,
    /// Each step's counts (`THUD_WINDOW`).
    steps: Vec<Counts>,
}

/// What one step did besides its times.
struct Counts {
    kept: bool,
    manifolds: usize,
    /// Collider pairs listed, and those computed afresh.
    pairs: usize,
    computed: usize,
}

/// A comma-separated list of values from the environment (one `None` if unset).
fn list<T: std::str::FromStr>(key: &str) -> Vec<Option<T>> {
    match std::env::var(key) {
        Ok(list) => list.split(',').map(|v| v.trim().parse().ok()).collect(),
        Err(_) => vec![None],
    }
}

/// One world's settings: `friction_stride`, `reuse_rows_within`,
/// `deep_split_iterations`, `touching_gap`, the sweeps of a solve substep, the first
/// and the later ones, and `sweep_tolerance` (`None`: the default).
type Variant = (
    Option<u32>,
    Option<f32>,
    Option<u32>,
    Option<f32>,
    Option<(u32, u32)>,
    Option<f32>,
);

/// `THUD_SWEEPS`: a comma-separated list of `first/later` sweep counts (`3/2`: three
/// sweeps in a step's first solve substep, two in each later one), one `None` if unset.
fn sweep_list() -> Vec<Option<(u32, u32)>> {
    match std::env::var("THUD_SWEEPS") {
        Ok(list) => list
            .split(',')
            .map(|v| {
                let (a, b) = v.trim().split_once('/')?;
                Some((a.parse().ok()?, b.parse().ok()?))
            })
            .collect(),
        Err(_) => vec![None],
    }
}

fn main() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(env("THUD_THREADS").unwrap_or(1))
        .build()
        .expect("pool");
    let steps: usize = env("THUD_STEPS").unwrap_or(600).max(1);
    let skip: usize = env("THUD_SKIP").unwrap_or(60);
    let window: Option<usize> = env::<usize>("THUD_WINDOW").filter(|&n| n > 0);
    let block: usize = env("THUD_BLOCK").unwrap_or(20).max(1);
    let strides: Vec<Option<u32>> = list("THUD_FRICTION_STRIDE");
    let reuses: Vec<Option<f32>> = list("THUD_REUSE");
    let deeps: Vec<Option<u32>> = list("THUD_DEEP_ITER");
    let gaps: Vec<Option<f32>> = list("THUD_GAP");
    let sweeps = sweep_list();
    let tolerances: Vec<Option<f32>> = list("THUD_SWEEP_TOL");
    let variants: Vec<Variant> = strides
        .iter()
        .flat_map(|&k| reuses.iter().map(move |&r| (k, r)))
        .flat_map(|(k, r)| deeps.iter().map(move |&d| (k, r, d)))
        .flat_map(|(k, r, d)| gaps.iter().map(move |&g| (k, r, d, g)))
        .flat_map(|(k, r, d, g)| sweeps.iter().map(move |&w| (k, r, d, g, w)))
        .flat_map(|(k, r, d, g, w)| tolerances.iter().map(move |&t| (k, r, d, g, w, t)))
        .collect();
    for name in std::env::args().skip(1) {
        let mut scene = thud_scene::standard(&name).expect("standard scene name");
        if let Some(depth) = env::<f32>("THUD_DEPTH") {
            scene_world::deepen(&mut scene, depth);
        }
        let mut worlds: Vec<_> = variants
            .iter()
            .map(|&(stride, reuse, deep, gap, sweeps, tolerance)| {
                let mut settings = Settings::without_sleeping();
                if let Some((first, later)) = sweeps {
                    settings.iterations = first;
                    settings.substep_iterations = Some(later);
                }
                if let Some(g) = gap {
                    settings.touching_gap = g;
                }
                if let Some(d) = deep {
                    settings.deep_split_iterations = d;
                }
                if let Some(t) = tolerance {
                    settings.sweep_tolerance = t;
                }
                if let Some(d) = env("THUD_DEEP") {
                    settings.deep_penetration = d;
                }
                if let Some(k) = stride {
                    settings.friction_stride = k;
                }
                if let Some(r) = reuse {
                    settings.reuse_rows_within = r;
                }
                if let Some(m) = env("THUD_MIN_PAIRS") {
                    settings.parallel_min_pairs = m;
                }
                if env::<String>("THUD_ORDER").as_deref() == Some("colored") {
                    settings.sweep_order = thud_dynamics::SweepOrder::Colored;
                }
                let mut world = scene_world::world(&scene, settings).0;
                scene_world::stand_column(&mut world, 60.0, env("THUD_COLUMN").unwrap_or(0));
                use scene_world::Beside;
                let on = |key: &str| env::<u32>(key).unwrap_or(0) > 0;
                let beside = [
                    on("THUD_PENDULUM").then_some(Beside::Pendulum),
                    on("THUD_KINEMATIC").then_some(Beside::Kinematic),
                    env::<usize>("THUD_CHAIN").map(Beside::Chain),
                    on("THUD_ROLLER").then_some(Beside::Roller),
                    on("THUD_BALL").then_some(Beside::BouncyBall),
                ];
                for what in beside.into_iter().flatten() {
                    scene_world::set_beside(&mut world, what);
                }
                world
            })
            .collect();
        let mut times: Vec<Times> = worlds
            .iter()
            .map(|_| Times {
                total: Vec::new(),
                stages: vec![Vec::new(); Stage::ALL.len()],
                kept: 0,
                rebuilt: 0,
                relaid: 0,
                threaded: 0,
                sweeps: 0,
                steps: Vec::new(),
            })
            .collect();
        pool.install(|| {
            for world in &mut worlds {
                for _ in 0..skip {
                    world.step().expect("step");
                }
            }
            let mut done = 0;
            while done < steps {
                let n = block.min(steps - done);
                for (world, t) in worlds.iter_mut().zip(&mut times) {
                    for _ in 0..n {
                        let start = Instant::now();
                        world.step().expect("step");
                        t.total.push(start.elapsed().as_secs_f64() * 1e3);
                        for (s, &g) in t.stages.iter_mut().zip(&Stage::ALL) {
                            s.push(world.stats().stage(g).as_secs_f64() * 1e3);
                        }
                        let st = world.stats();
                        t.kept += usize::from(st.rows_kept);
                        t.rebuilt += st.rows_rebuilt;
                        t.relaid += usize::from(st.rows_relaid > 0);
                        t.threaded += st.threaded_solves;
                        t.sweeps += u64::from(st.iterations);
                        t.steps.push(Counts {
                            kept: st.rows_kept,
                            manifolds: st.manifolds,
                            pairs: st.pairs,
                            computed: st.pairs_computed,
                        });
                    }
                }
                done += n;
            }
        });
        if let Some(n) = window {
            let dt = f64::from(Settings::without_sleeping().dt);
            for (t, k) in times.iter().zip(0..) {
                print_windows(&name, k, t, n, (skip, dt));
            }
        }
        let q = |v: &mut Vec<f64>| format!("{:.4} / {:.4}", quantile(v, 0.1), quantile(v, 0.5));
        let mut first: Option<(f64, f64)> = None;
        for (t, (stride, reuse, deep, gap, sweep, tolerance)) in times.iter_mut().zip(&variants) {
            let mut label = name.clone();
            if let Some(d) = deep.filter(|_| deeps.len() > 1) {
                label += &format!(" (deep_split_iterations {d})");
            }
            if let Some(k) = stride.filter(|_| strides.len() > 1) {
                label += &format!(" (friction_stride {k})");
            }
            if let Some(r) = reuse.filter(|_| reuses.len() > 1) {
                label += &format!(" (reuse_rows_within {r})");
            }
            if let Some(g) = gap.filter(|_| gaps.len() > 1) {
                label += &format!(" (touching_gap {g})");
            }
            if let Some((a, b)) = sweep.filter(|_| sweeps.len() > 1) {
                label += &format!(" (sweeps {a}/{b})");
            }
            if let Some(v) = tolerance.filter(|_| tolerances.len() > 1) {
                label += &format!(" (sweep_tolerance {v})");
            }
            println!(
                "{label}: step p10 / median {} ms, rows kept in {} of {} steps ({:.1} units built again a step; {} through a changed point count), {:.2} solves a step on threads, {:.1} sweeps a step",
                q(&mut t.total),
                t.kept,
                t.total.len(),
                t.rebuilt as f64 / t.kept.max(1) as f64,
                t.relaid,
                f64::from(t.threaded) / t.total.len().max(1) as f64,
                t.sweeps as f64 / t.total.len().max(1) as f64
            );
            for (s, g) in t.stages.iter_mut().zip(Stage::ALL) {
                println!("  {:14} {} ms", g.name(), q(s));
            }
            let solve = Stage::ALL
                .iter()
                .position(|&g| g == Stage::Solve)
                .expect("Solve");
            let p10 = (
                quantile(&mut t.total, 0.1),
                quantile(&mut t.stages[solve], 0.1),
            );
            match first {
                None => first = Some(p10),
                Some((step, solve)) => println!(
                    "  p10 against the first: step {:.3}, Solve {:.3}",
                    p10.0 / step,
                    p10.1 / solve
                ),
            }
        }
    }
}

/// World `k`'s run in windows of `n` steps (`THUD_WINDOW`; its first measured step is
/// step `skip` of the scene, each `dt` seconds long). Reads the times in step order, so
/// it runs before the quantiles sort them.
fn print_windows(name: &str, k: usize, t: &Times, n: usize, (skip, dt): (usize, f64)) {
    println!(
        "{name}, world {k}, windows of {n} steps: end s | step median ms | NarrowPhase, \
         BuildJacobians, Solve mean ms | rows kept | BuildJacobians mean ms on steps that kept / \
         built their rows | manifolds | pairs listed / computed afresh a step"
    );
    for start in (0..t.total.len()).step_by(n) {
        let end = (start + n).min(t.total.len());
        let mut step = t.total[start..end].to_vec();
        // (`stages` is in `Stage::ALL`'s order, a stage's index its discriminant.)
        let mean =
            |g: Stage| t.stages[g as usize][start..end].iter().sum::<f64>() / (end - start) as f64;
        let steps = &t.steps[start..end];
        let per = |f: fn(&Counts) -> usize| steps.iter().map(f).sum::<usize>() / steps.len();
        let build = &t.stages[Stage::BuildJacobians as usize][start..end];
        let build_if = |kept: bool| {
            let v: Vec<f64> = build
                .iter()
                .zip(steps)
                .filter(|(_, s)| s.kept == kept)
                .map(|(&b, _)| b)
                .collect();
            // (0 where none: a sum of no floats is −0.)
            if v.is_empty() {
                0.0
            } else {
                v.iter().sum::<f64>() / v.len() as f64
            }
        };
        println!(
            "  {:6.2} | {:.3} | {:.3} {:.3} {:.3} | {:3} | {:.3} / {:.3} | {:5} | {:5} / {:5}",
            (skip + end) as f64 * dt,
            quantile(&mut step, 0.5),
            mean(Stage::NarrowPhase),
            mean(Stage::BuildJacobians),
            mean(Stage::Solve),
            steps.iter().filter(|s| s.kept).count(),
            build_if(true),
            build_if(false),
            steps.last().map_or(0, |s| s.manifolds),
            per(|s| s.pairs),
            per(|s| s.computed),
        );
    }
}
