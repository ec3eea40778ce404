//! `thud-compare`: thud beside Rapier on the standard scenes of `scenes.md`.
//!
//! For each chosen scene both engines are built from the same `thud_scene::Scene`
//! value (thud through `thud_scene::instantiate`, Rapier through the converter in
//! [`rapier_side`]), run for the scene's length, timed step by step and measured by
//! the same code ([`measure`]); the result is one markdown table on stdout
//! ([`table`]), progress on stderr, optionally JSON.
//!
//! ```text
//! cargo run --release --manifest-path compare/Cargo.toml -- --scenes all
//! cargo run --release --manifest-path compare/Cargo.toml -- --scenes pyramid_100 --seconds 2
//! cargo run --release --manifest-path compare/Cargo.toml -- --scenes tower_20,pyramid_20 --matched
//! cargo run --release --manifest-path compare/Cargo.toml -- --scenes pyramid_40 --repeat 5
//! cargo run --release --manifest-path compare/Cargo.toml -- --scenes pile_1000 --per-second
//! cargo run --release --manifest-path compare/Cargo.toml -- --scenes pyramid_100,pile_1000 --scaling 2
//! cargo run --release --manifest-path compare/Cargo.toml -- --scenes pyramid_20 --rock 0.02 --seconds 30
//! cargo run --release --manifest-path compare/Cargo.toml -- --scenes pile_1000 --friction 0.45
//! cargo run --release --manifest-path compare/Cargo.toml -- --scenes all --touching-gap 0
//! cargo run --release --manifest-path compare/Cargo.toml -- --scenes all --sweep-tolerance 0
//! cargo run --release --manifest-path compare/Cargo.toml -- --scenes pile_1000 --draws 24
//! ```
//!
//! Within a run the two engines take turns every 20 steps (`--block`): the project's
//! host has a fast and a slow mode that last seconds to minutes (`docs/performance.md`),
//! and engines run one after the other could each land in a different one; in turns
//! both see the same spells. Each engine's figures are still its own steps' alone (a
//! step is timed by itself; the first step of a turn starts with the other engine's
//! data in the caches). With `--repeat N` each scene runs N times, and each engine's
//! step times are those of its fastest run (the lowest median, with that run's p90).
//! The quality and memory figures are the first run's (a run is deterministic, so every
//! run gives the same ones).
//!
//! `--scaling N` runs thud alone instead: one world on one thread beside one on `N`,
//! in turns, and prints the speed-up and whether both end in the same bits
//! ([`scaling`]).

mod draws;
mod engine;
mod error;
mod heap;
mod measure;
mod rapier_side;
mod scaling;
mod table;
mod thud_side;

use std::io::{IsTerminal as _, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use serde_json::json;
use thud_scene::{BodyKindDef, STANDARD_NAMES, Scene, standard};

use crate::engine::Engine;
use crate::error::CompareError;
use crate::rapier_side::{Budget, RapierEngine};
use crate::table::Row;
use crate::thud_side::ThudEngine;

#[global_allocator]
static ALLOC: heap::Counting = heap::Counting;

/// thud beside Rapier on the standard scenes: step times and quality figures.
#[derive(Debug, Parser)]
#[command(version, about)]
struct Args {
    /// Scenes to run: `all`, or a comma-separated list of standard scene names
    /// (tower_20, pyramid_20, pyramid_40, pyramid_100, pyramid3d_10, pile_1000).
    #[arg(long, default_value = "all")]
    scenes: String,
    /// Simulated seconds per scene (default: the scene's own length, 10 s).
    #[arg(long)]
    seconds: Option<f32>,
    /// Give Rapier thud's solve budget: `num_solver_iterations` = thud's
    /// `solve_substeps` (4, Rapier's default too) and `num_internal_pgs_iterations` =
    /// thud's `iterations` per substep (3) instead of Rapier's default 1 (thud's most:
    /// its settled solves sweep once, `Settings::sweep_tolerance`).
    #[arg(long)]
    matched: bool,
    /// Also write the figures as JSON to this file.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Threads of thud's rayon pool (Rapier is built without its `parallel` feature and
    /// always runs on one).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Runs of each scene in each engine, taking turns; the step times reported are
    /// each engine's fastest run (lowest median).
    #[arg(long, default_value_t = 1)]
    repeat: usize,
    /// Steps each engine runs before the other takes its turn within a run (so that the
    /// host's slow and fast spells fall on both alike); 0: one engine's whole run, then
    /// the other's.
    #[arg(long, default_value_t = 20)]
    block: usize,
    /// Also print each scene's median step time second by second, both engines (the
    /// fastest run's, with `--repeat`).
    #[arg(long)]
    per_second: bool,
    /// Instead of the comparison: thud on one thread beside thud on this many threads,
    /// in turns every `--block` steps (`--repeat`: the fastest of the runs, by each
    /// world's median), with the speed-up and whether both end in the same state.
    #[arg(long, value_name = "THREADS")]
    scaling: Option<usize>,
    /// Start every dynamic body turning as one rigid body at this rate (rad/s) about the
    /// x axis through (0, 0, 0.5): a one-box-deep wall in the x-y plane (`pyramid_20`,
    /// `pyramid_40`, `pyramid_100`) rocking out of its plane on its base's far edge, as
    /// `scene_metrics`' `THUD_ROCK` does. The figures then measure how each engine
    /// takes the rocking (energy rise, bodies still moving, drift of the top).
    #[arg(long, value_name = "RAD_PER_S")]
    rock: Option<f32>,
    /// Give every body of the chosen scenes this friction coefficient (the scenes'
    /// 0.6 otherwise), as `scene_metrics`' `THUD_FRICTION` does. Both engines combine
    /// a pair's coefficients by their geometric mean, so every contact then has this
    /// one. A settling heap is chaotic: runs at several coefficients show how each
    /// engine's quality figures spread, where one run shows a single draw.
    #[arg(long, value_name = "MU")]
    friction: Option<f32>,
    /// Give thud this `Settings::touching_gap` (m; its default is 1e-5, and 0 takes
    /// every gap at its value, as thud did before 2026-12-08): a sticking point's gaps
    /// up to it count as touching where its manifold lies flat (`docs/dynamics.md`,
    /// *Touching gaps*). Rapier has no such setting.
    #[arg(long, value_name = "METRES")]
    touching_gap: Option<f32>,
    /// Give thud this `Settings::sweep_tolerance` (m/s; its default is 1e-6, and 0 runs
    /// every sweep always, as thud did before 2026-12-08): a solve substep after one
    /// whose last sweep moved no contact's bodies by more than it runs one sweep
    /// (`docs/dynamics.md`, *Settled solves*). Rapier has no such setting.
    #[arg(long, value_name = "M_PER_S")]
    sweep_tolerance: Option<f32>,
    /// Instead of the comparison: each scene run this many times in both engines, every
    /// body's friction the k-th of as many coefficients evenly spaced from 0.40 to 0.86,
    /// and the quality figures over the draws side by side (medians, p75, largest, a
    /// rank-sum test of the regained energy) and draw by draw. A settling heap is
    /// chaotic: one run is one draw (`--draws 24` gives the draws of
    /// `docs/dynamics.md`, *Touching gaps*).
    #[arg(long, value_name = "N")]
    draws: Option<usize>,
}

/// Every body of `scene` with friction `mu` and no named material (`--friction`).
fn set_friction(scene: &mut Scene, mu: f32) {
    for b in &mut scene.bodies {
        (b.friction, b.material) = (mu, None);
    }
}

/// Every dynamic body of `scene` turning with the whole at `rate` rad/s about the x axis
/// through (0, 0, 0.5) (`--rock`).
fn set_rocking(scene: &mut Scene, rate: f32) {
    let w = glam::Vec3::new(rate, 0.0, 0.0);
    for b in &mut scene.bodies {
        if b.kind == BodyKindDef::Dynamic {
            b.velocity = w.cross(b.position - glam::Vec3::new(0.0, 0.0, 0.5));
            b.angular_velocity = w;
        }
    }
}

/// `first`'s figures with the step times of the fastest of `runs` (lowest median).
fn fastest(first: measure::Figures, runs: &[measure::Figures]) -> measure::Figures {
    let best = runs
        .iter()
        .min_by(|a, b| a.median_ms.total_cmp(&b.median_ms))
        .map_or(
            (
                first.median_ms,
                first.p90_ms,
                first.mean_ms,
                first.per_second_ms.clone(),
            ),
            |f| (f.median_ms, f.p90_ms, f.mean_ms, f.per_second_ms.clone()),
        );
    measure::Figures {
        median_ms: best.0,
        p90_ms: best.1,
        mean_ms: best.2,
        per_second_ms: best.3,
        ..first
    }
}

/// Builds one engine with `make`, runs it and fills in its heap figures (bytes held
/// once built, and after the run).
fn measured<E: Engine>(
    make: impl FnOnce() -> Result<E, CompareError>,
    scene: &Scene,
    steps: usize,
) -> Result<measure::Figures, CompareError> {
    let start = heap::live();
    let mut e = make()?;
    let built = heap::live().saturating_sub(start);
    let mut f = run_one(&mut e, scene, steps)?;
    f.heap = Some((built, heap::live().saturating_sub(start)));
    Ok(f)
}

/// Builds both engines, runs them in turns of `block` steps (0: one whole run after the
/// other) and fills in each one's heap figures (bytes held once built, and after the
/// run: what dropping it frees).
fn measured_pair(
    scene: &Scene,
    budget: Budget,
    steps: usize,
    block: usize,
) -> Result<(measure::Figures, measure::Figures), CompareError> {
    if block == 0 {
        return Ok((
            measured(|| ThudEngine::new(scene), scene, steps)?,
            measured(|| RapierEngine::new(scene, budget), scene, steps)?,
        ));
    }
    let start = heap::live();
    let mut thud = ThudEngine::new(scene)?;
    let thud_built = heap::live().saturating_sub(start);
    let start = heap::live();
    let mut rapier = RapierEngine::new(scene, budget)?;
    let rapier_built = heap::live().saturating_sub(start);
    let (mut t, mut r) = {
        let mut runs = [
            measure::Run::new(&mut thud, scene, steps),
            measure::Run::new(&mut rapier, scene, steps),
        ];
        let live = std::io::stderr().is_terminal();
        while runs[0].done() < steps {
            let n = block.min(steps - runs[0].done());
            for run in &mut runs {
                run.steps(n)?;
            }
            if live {
                eprint!("\r  {:<16} step {:>5}/{steps}", scene.name, runs[0].done());
                let _ = std::io::stderr().flush();
            }
        }
        if live {
            eprint!("\r");
        }
        let [a, b] = runs;
        (a.finish()?, b.finish()?)
    };
    for f in [&t, &r] {
        eprintln!(
            "  {:<16} {:<6} {steps} steps, median {:.2} ms, p90 {:.2} ms, mean {:.2} ms",
            scene.name, f.engine, f.median_ms, f.p90_ms, f.mean_ms
        );
    }
    let held = heap::live();
    drop(thud);
    let thud_after = held.saturating_sub(heap::live());
    let held = heap::live();
    drop(rapier);
    let rapier_after = held.saturating_sub(heap::live());
    t.heap = Some((thud_built, thud_after));
    r.heap = Some((rapier_built, rapier_after));
    Ok((t, r))
}

/// Rapier's solve budget on `scene`: its defaults, or with `matched` thud's (the
/// scene's solve substeps and sweeps, or thud's defaults where it gives none).
fn budget_of(scene: &Scene, matched: bool) -> Budget {
    if !matched {
        return Budget::Default;
    }
    let defaults = thud_dynamics::Settings::default();
    Budget::Matched {
        substeps: scene
            .settings
            .solve_substeps
            .unwrap_or(defaults.solve_substeps) as usize,
        sweeps: scene.settings.iterations.unwrap_or(defaults.iterations) as usize,
    }
}

/// The scenes named by `--scenes`.
fn scenes(list: &str) -> Result<Vec<Scene>, CompareError> {
    let names: Vec<&str> = if list.trim() == "all" {
        STANDARD_NAMES.to_vec()
    } else {
        list.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect()
    };
    if names.is_empty() {
        return Err(CompareError::Usage("--scenes names no scene".into()));
    }
    names
        .into_iter()
        .map(|n| standard(n).ok_or_else(|| CompareError::UnknownScene(n.to_string())))
        .collect()
}

/// Steps for `seconds` of a scene (at least one).
fn steps_of(scene: &Scene, seconds: Option<f32>) -> Result<usize, CompareError> {
    let s = seconds.unwrap_or(scene.seconds);
    if !(s.is_finite() && s > 0.0) {
        return Err(CompareError::Usage(format!(
            "--seconds must be a positive number, not {s}"
        )));
    }
    Ok(((s / scene.settings.dt).round() as usize).max(1))
}

/// Runs one engine on one scene with a progress line on stderr.
fn run_one(
    engine: &mut dyn Engine,
    scene: &Scene,
    steps: usize,
) -> Result<measure::Figures, CompareError> {
    let name = engine.name();
    // A live step counter on a terminal; only the closing line when stderr is a file.
    let live = std::io::stderr().is_terminal();
    let mut progress = |done: usize| {
        if live {
            eprint!("\r  {:<16} {name:<6} step {done:>5}/{steps}", scene.name);
            let _ = std::io::stderr().flush();
        }
    };
    let f = measure::run(engine, scene, steps, &mut progress)?;
    eprintln!(
        "{}  {:<16} {name:<6} {steps} steps, median {:.2} ms, p90 {:.2} ms, mean {:.2} ms",
        if live { "\r" } else { "" },
        scene.name,
        f.median_ms,
        f.p90_ms,
        f.mean_ms
    );
    Ok(f)
}

fn run(args: &Args) -> Result<(), CompareError> {
    if args.threads == 0 {
        return Err(CompareError::Usage("--threads must be at least 1".into()));
    }
    if args.repeat == 0 {
        return Err(CompareError::Usage("--repeat must be at least 1".into()));
    }
    // Fails only if a pool exists already, which nothing here builds before.
    let _ = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build_global();
    let mut chosen = scenes(&args.scenes)?;
    if let Some(rate) = args.rock {
        if !rate.is_finite() {
            return Err(CompareError::Usage(format!(
                "--rock must be a finite rate, not {rate}"
            )));
        }
        for scene in &mut chosen {
            set_rocking(scene, rate);
        }
    }
    if let Some(mu) = args.friction {
        if !(mu.is_finite() && mu >= 0.0) {
            return Err(CompareError::Usage(format!(
                "--friction must be a finite coefficient of at least 0, not {mu}"
            )));
        }
        for scene in &mut chosen {
            set_friction(scene, mu);
        }
    }
    if let Some(gap) = args.touching_gap {
        if !(gap.is_finite() && gap >= 0.0) {
            return Err(CompareError::Usage(format!(
                "--touching-gap must be a finite gap of at least 0 m, not {gap}"
            )));
        }
        for scene in &mut chosen {
            scene.settings.touching_gap = Some(gap);
        }
    }
    if let Some(t) = args.sweep_tolerance {
        if !(t.is_finite() && t >= 0.0) {
            return Err(CompareError::Usage(format!(
                "--sweep-tolerance must be a finite speed of at least 0 m/s, not {t}"
            )));
        }
        for scene in &mut chosen {
            scene.settings.sweep_tolerance = Some(t);
        }
    }
    if let Some(n) = args.draws {
        if args.scaling.is_some()
            || args.friction.is_some()
            || args.json.is_some()
            || args.per_second
            || args.repeat > 1
        {
            return Err(CompareError::Usage(
                "--draws sets every body's friction, runs each draw once and prints its own \
                 tables: --scaling, --friction, --json, --per-second and --repeat do not apply"
                    .into(),
            ));
        }
        return draws_run(args, &chosen, n);
    }
    if let Some(threads) = args.scaling {
        if args.matched || args.json.is_some() || args.per_second {
            return Err(CompareError::Usage(
                "--scaling runs thud alone: --matched, --json and --per-second do not apply".into(),
            ));
        }
        return scaling_run(args, &chosen, threads);
    }
    let defaults = thud_dynamics::Settings::default();
    let (thud_iterations, thud_substeps) = (defaults.iterations, defaults.solve_substeps);
    let friction_stride = defaults.friction_stride;
    let mut rows = Vec::with_capacity(chosen.len());
    for scene in &chosen {
        let steps = steps_of(scene, args.seconds)?;
        let budget = budget_of(scene, args.matched);
        let (mut thud, mut rapier) = (Vec::new(), Vec::new());
        for _ in 0..args.repeat {
            let (t, r) = measured_pair(scene, budget, steps, args.block)?;
            thud.push(t);
            rapier.push(r);
        }
        rows.push(Row {
            scene: scene.name.clone(),
            dynamic_bodies: scene.count(BodyKindDef::Dynamic),
            thud: fastest(thud[0].clone(), &thud),
            rapier: fastest(rapier[0].clone(), &rapier),
        });
    }
    let rapier = rapier3d::prelude::IntegrationParameters::default();
    let (rapier_iterations, rapier_sweeps) = if args.matched {
        (thud_substeps as usize, thud_iterations as usize)
    } else {
        (
            rapier.num_solver_iterations,
            rapier.num_internal_pgs_iterations,
        )
    };
    let disturbed = match (args.rock, args.friction) {
        (None, None) => String::new(),
        (rock, friction) => format!(
            "; scenes changed:{}{}",
            rock.map_or(String::new(), |r| format!(" set rocking at {r} rad/s")),
            friction.map_or(String::new(), |mu| format!(" every body's friction {mu}")),
        ),
    };
    let gap = args
        .touching_gap
        .map_or(String::new(), |g| format!(", touching_gap {g}"))
        + &args
            .sweep_tolerance
            .map_or(String::new(), |t| format!(", sweep_tolerance {t}"));
    let heading = format!(
        "thud (Settings::without_sleeping(): {thud_substeps} solve substeps × \
         {thud_iterations} PGS sweeps (one where settled), friction_stride {friction_stride}{gap}) vs Rapier (IntegrationParameters::default(){}: \
         {rapier_iterations} solver iterations × {rapier_sweeps} PGS sweeps); sleeping off; \
         thud on {} thread(s), Rapier on one{disturbed}{}",
        if args.matched { ", matched budget" } else { "" },
        args.threads,
        match (args.block, args.repeat) {
            (0, 1) => String::new(),
            (0, n) => format!("; step times: each engine's fastest of {n} runs, taking turns"),
            (b, 1) => format!("; the engines take turns every {b} steps"),
            (b, n) => format!(
                "; the engines take turns every {b} steps; step times: each engine's \
                 fastest of {n} runs"
            ),
        }
    );
    println!("{}", table::markdown(&rows, &heading));
    println!("Memory (live heap bytes, counted by the comparison's global allocator):\n");
    println!("{}", table::memory_markdown(&rows));
    if args.per_second {
        println!("Median step time of each simulated second (ms):\n");
        println!("{}", table::per_second_markdown(&rows));
    }
    if let Some(path) = &args.json {
        let settings = json!({
            "matched": args.matched,
            "thud_iterations": thud_iterations,
            "thud_solve_substeps": thud_substeps,
            "thud_friction_stride": friction_stride,
            "rapier_solver_iterations": rapier_iterations,
            "rapier_pgs_iterations": rapier_sweeps,
            "seconds": args.seconds,
            "thud_threads": args.threads,
            "repeat": args.repeat,
            "block": args.block,
            "rock_rad_per_s": args.rock,
            "friction": args.friction,
            "thud_touching_gap": args.touching_gap,
            "thud_sweep_tolerance": args.sweep_tolerance,
        });
        let text = serde_json::to_string_pretty(&table::json(&rows, settings))
            .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
        std::fs::write(path, text + "\n").map_err(|source| CompareError::Io {
            path: path.display().to_string(),
            source,
        })?;
    }
    Ok(())
}

/// `--scaling`: each scene's one-thread and `threads`-thread runs, `--repeat` times
/// (each world's fastest run by median), as one table.
fn scaling_run(args: &Args, chosen: &[Scene], threads: usize) -> Result<(), CompareError> {
    let mut rows = Vec::with_capacity(chosen.len());
    for scene in chosen {
        let steps = steps_of(scene, args.seconds)?;
        let mut best: Option<scaling::Scaling> = None;
        for _ in 0..args.repeat {
            let r = scaling::measure(scene, steps, threads, args.block)?;
            best = Some(match best {
                None => r,
                Some(b) => scaling::Scaling {
                    one: if r.one[0] < b.one[0] { r.one } else { b.one },
                    many: if r.many[0] < b.many[0] {
                        r.many
                    } else {
                        b.many
                    },
                    same_state: b.same_state && r.same_state,
                    ..b
                },
            });
        }
        rows.extend(best);
    }
    let heading = format!(
        "thud (Settings::without_sleeping(), sleeping off) on a pool of 1 thread and on one \
         of {threads}, the two worlds in turns every {} steps; step times: each world's \
         fastest of {} runs (by median)",
        args.block, args.repeat
    );
    println!("{}", scaling::markdown(&rows, &heading));
    Ok(())
}

/// `--draws`: each scene's draws in both engines (one run each, in turns of `--block`
/// steps), as two tables.
fn draws_run(args: &Args, chosen: &[Scene], n: usize) -> Result<(), CompareError> {
    let mut rows = Vec::with_capacity(chosen.len());
    for scene in chosen {
        let steps = steps_of(scene, args.seconds)?;
        rows.push(draws::measure(scene, n, set_friction, |drawn| {
            measured_pair(drawn, budget_of(drawn, args.matched), steps, args.block)
        })?);
    }
    let gap = args
        .touching_gap
        .map_or(String::new(), |g| format!(", touching_gap {g}"))
        + &args
            .sweep_tolerance
            .map_or(String::new(), |t| format!(", sweep_tolerance {t}"));
    let heading = format!(
        "thud (Settings::without_sleeping(){gap}) vs Rapier (IntegrationParameters::default(){}); \
         sleeping off; {n} draws a scene, every body's friction from {:.2} to {:.2}; one run \
         of each engine a draw",
        if args.matched { ", matched budget" } else { "" },
        draws::FRICTIONS.0,
        draws::FRICTIONS.1,
    );
    println!("{}", draws::markdown(&rows, &heading));
    Ok(())
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("thud-compare: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figures(median_ms: f64, p90_ms: f64, still_moving: usize) -> measure::Figures {
        measure::Figures {
            engine: "test",
            steps: 10,
            median_ms,
            p90_ms,
            mean_ms: p90_ms + 1.0,
            per_second_ms: vec![median_ms, p90_ms],
            drift: Some(0.001),
            sag: None,
            max_penetration: 0.0,
            still_moving,
            energy_rise: 0.0,
            energy_rebound: 0.0,
            contact_points: 4,
            heap: Some((100, 200)),
        }
    }

    /// `--repeat`: the step times of the run with the lowest median (and that run's
    /// p90), everything else of the first run.
    #[test]
    fn repeated_runs_report_the_fastest_runs_step_times() {
        let runs = [
            figures(2.0, 3.0, 1),
            figures(1.5, 4.0, 7),
            figures(1.8, 1.9, 7),
        ];
        let f = fastest(runs[0].clone(), &runs);
        assert_eq!((f.median_ms, f.p90_ms, f.mean_ms), (1.5, 4.0, 5.0));
        assert_eq!(f.per_second_ms, [1.5, 4.0]);
        assert_eq!((f.still_moving, f.heap), (1, Some((100, 200))));
        let one = fastest(runs[2].clone(), &runs[2..]);
        assert_eq!(one, runs[2]);
    }
}
