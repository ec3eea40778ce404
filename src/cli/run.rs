//! `thud run SCENE|FILE.ron`: a headless run with a progress bar, then the summary;
//! with `--out DIR`, `DIR/summary.json`, `DIR/trajectory.csv` and the renders.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use thud_scene::render::{GifWriter, render_frame};
use thud_scene::trajectory::TrajectoryWriter;
use thud_scene::{RunOptions, Simulation};

use super::{EXIT_ENGINE, EXIT_FAILED, EXIT_IO, EXIT_SCENE, EXIT_USAGE, load_scene, setup_threads};
use crate::{OnOff, RenderKind, RunArgs};

/// Where renders go.
enum Renders {
    None,
    Png(PathBuf),
    Gif(GifWriter<BufWriter<File>>, PathBuf),
}

fn io_error(what: &Path, e: impl std::fmt::Display) -> u8 {
    eprintln!("error: cannot write {}: {e}", what.display());
    EXIT_IO
}

/// A message for an option out of range.
fn bad_option(args: &RunArgs) -> Option<String> {
    if let Some(s) = args.seconds
        && !(s.is_finite() && s >= 0.0)
    {
        return Some(format!("--seconds must be ≥ 0, got {s}"));
    }
    if let Some(dt) = args.dt
        && !(dt.is_finite() && dt > 0.0 && dt <= 1.0)
    {
        return Some(format!("--dt must be in (0, 1] s, got {dt}"));
    }
    if args.iterations == Some(0) {
        return Some("--iterations must be ≥ 1".into());
    }
    if args.substep_iterations == Some(0) {
        return Some("--substep-iterations must be ≥ 1".into());
    }
    if args.friction_stride == Some(0) {
        return Some("--friction-stride must be ≥ 1".into());
    }
    if let Some(d) = args.reuse_rows
        && !(d.is_finite() && d >= 0.0)
    {
        return Some(format!("--reuse-rows must be ≥ 0 m, got {d}"));
    }
    if let Some(g) = args.touching_gap
        && !(g.is_finite() && g >= 0.0)
    {
        return Some(format!("--touching-gap must be ≥ 0 m, got {g}"));
    }
    if let Some(t) = args.sweep_tolerance
        && !(t.is_finite() && t >= 0.0)
    {
        return Some(format!("--sweep-tolerance must be ≥ 0 m/s, got {t}"));
    }
    if args.threads == Some(0) {
        return Some("--threads must be ≥ 1".into());
    }
    None
}

/// Runs the command; the exit code.
pub fn run(args: &RunArgs) -> u8 {
    if let Some(msg) = bad_option(args) {
        eprintln!("error: {msg}");
        return EXIT_USAGE;
    }
    let threads = setup_threads(args.threads);
    let scene = match load_scene(&args.scene) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_SCENE;
        }
    };
    let opts = RunOptions {
        seconds: args.seconds,
        steps: args.steps,
        dt: args.dt,
        iterations: args.iterations,
        substep_iterations: args.substep_iterations,
        friction_stride: args.friction_stride,
        reuse_rows_within: args.reuse_rows,
        touching_gap: args.touching_gap,
        sweep_tolerance: args.sweep_tolerance,
        solve_substeps: args.solve_substeps,
        sleeping: args.sleep.map(|s| s == OnOff::On),
        threads,
    };
    let mut sim = match Simulation::new(scene, &opts) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_ENGINE;
        }
    };
    let name = sim.scene().name.clone();
    let out = match (&args.out, args.render) {
        (Some(d), _) => Some(d.clone()),
        (None, Some(_)) => Some(PathBuf::from("out")),
        (None, None) => None,
    };
    if let Some(dir) = &out
        && let Err(e) = std::fs::create_dir_all(dir)
    {
        return io_error(dir, e);
    }

    let mut trajectory = None;
    if let Some(dir) = &out {
        let path = dir.join("trajectory.csv");
        match File::create(&path).and_then(|f| TrajectoryWriter::new(BufWriter::new(f))) {
            Ok(w) => trajectory = Some(w),
            Err(e) => return io_error(&path, e),
        }
    }
    let mut camera = sim.camera();
    if let Some((w, h)) = args.size {
        camera.width = w;
        camera.height = h;
    }
    let dt = f64::from(sim.dt());
    let render_every = args
        .render_every
        .unwrap_or_else(|| ((1.0 / (15.0 * dt)).round() as u64).max(1));
    let mut renders = Renders::None;
    if let (Some(dir), Some(kind)) = (&out, args.render) {
        renders = match kind {
            RenderKind::Png => {
                let frames = dir.join("frames");
                if let Err(e) = std::fs::create_dir_all(&frames) {
                    return io_error(&frames, e);
                }
                Renders::Png(frames)
            }
            RenderKind::Gif => {
                let path = dir.join(format!("{name}.gif"));
                let delay = ((render_every as f64 * dt * 1000.0).round() as u32).max(20);
                match File::create(&path)
                    .map_err(|e| e.to_string())
                    .and_then(|f| {
                        GifWriter::new(BufWriter::new(f), delay).map_err(|e| e.to_string())
                    }) {
                    Ok(w) => Renders::Gif(w, path),
                    Err(e) => return io_error(&path, e),
                }
            }
        };
    }

    let total = sim.total_steps();
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        let bar = ProgressBar::new(total);
        bar.set_style(
            ProgressStyle::with_template(
                "{msg} [{bar:40}] {pos}/{len} steps {elapsed} (eta {eta})",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
        );
        bar.set_message(name.clone());
        bar
    };
    let started = Instant::now();
    let mut rendered = 0u64;
    loop {
        let frame = sim.steps_done();
        let last = sim.is_done();
        if let Some(t) = trajectory.as_mut()
            && (frame % args.every == 0 || last)
            && let Err(e) = t.write_frame(&sim)
        {
            return io_error(Path::new("trajectory.csv"), e);
        }
        if frame % render_every == 0 || last {
            match &mut renders {
                Renders::None => {}
                Renders::Png(dir) => {
                    let path = dir.join(format!("frame_{frame:06}.png"));
                    if let Err(e) = render_frame(&camera, &sim.draw_list()).save(&path) {
                        return io_error(&path, e);
                    }
                    rendered += 1;
                }
                Renders::Gif(w, path) => {
                    if let Err(e) = w.push(&render_frame(&camera, &sim.draw_list())) {
                        return io_error(path, e);
                    }
                    rendered += 1;
                }
            }
        }
        if last {
            break;
        }
        if let Err(e) = sim.step() {
            bar.abandon();
            eprintln!("error: {e}");
            return EXIT_ENGINE;
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let wall = started.elapsed().as_secs_f64();
    let report = sim.finish();
    if let Some(t) = trajectory
        && let Err(e) = t.finish()
    {
        return io_error(Path::new("trajectory.csv"), e);
    }
    drop(renders);

    if args.quiet {
        let s = &report.summary;
        println!(
            "{}: {} steps, step median {:.3} ms, {} passed, {} failed",
            s.scene, s.steps, s.step_ms_median, s.expectations_passed, s.expectations_failed
        );
        for f in report.failures() {
            println!("  FAIL {f}");
        }
    } else {
        print!("{}", report.text());
        println!("wall time        {wall:.2} s");
    }
    if let Some(dir) = &out {
        let path = dir.join("summary.json");
        if let Err(e) = std::fs::write(&path, report.json() + "\n") {
            return io_error(&path, e);
        }
        if !args.quiet {
            let what = match args.render {
                Some(RenderKind::Gif) => format!(", {name}.gif ({rendered} frames)"),
                Some(RenderKind::Png) => format!(", frames/ ({rendered} PNGs)"),
                None => String::new(),
            };
            let d = dir.display().to_string();
            let d = d.trim_end_matches('/');
            println!("wrote            {d}/{{summary.json, trajectory.csv{what}}}");
        }
    }
    if report.passed() { 0 } else { EXIT_FAILED }
}
