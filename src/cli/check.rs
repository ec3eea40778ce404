//! `thud check FILE.ron...`: run each scene and report every failed expectation —
//! which, when, by how much. Exit 1 if any failed, 3 if a file did not load, 4 if the
//! engine refused one.

use thud_scene::{Outcome, RunOptions, Simulation};

use super::{EXIT_ENGINE, EXIT_FAILED, EXIT_SCENE, load_scene, setup_threads};

/// Runs the check; the exit code.
pub fn check(files: &[String], seconds: Option<f32>, threads: Option<usize>) -> u8 {
    if let Some(s) = seconds
        && !(s.is_finite() && s >= 0.0)
    {
        eprintln!("error: --seconds must be ≥ 0, got {s}");
        return super::EXIT_USAGE;
    }
    let threads = setup_threads(threads);
    let mut worst = 0u8;
    for spec in files {
        let scene = match load_scene(spec) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("error: {e}");
                worst = worst.max(EXIT_SCENE);
                continue;
            }
        };
        let name = scene.name.clone();
        let opts = RunOptions {
            seconds,
            threads,
            ..RunOptions::default()
        };
        let mut sim = match Simulation::new(scene, &opts) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("error: {spec}: {e}");
                worst = worst.max(EXIT_ENGINE);
                continue;
            }
        };
        let mut failed_to_run = None;
        while !sim.is_done() {
            if let Err(e) = sim.step() {
                failed_to_run = Some(e);
                break;
            }
        }
        if let Some(e) = failed_to_run {
            eprintln!("error: {spec}: {e}");
            worst = worst.max(EXIT_ENGINE);
            continue;
        }
        let report = sim.finish();
        let skipped = report
            .expectations
            .iter()
            .filter(|e| matches!(e.outcome, Outcome::Skipped { .. }))
            .count();
        let s = &report.summary;
        if report.passed() {
            println!(
                "ok    {spec} ({name}): {} passed{}",
                s.expectations_passed,
                if skipped > 0 {
                    format!(", {skipped} skipped")
                } else {
                    String::new()
                }
            );
        } else {
            println!(
                "FAIL  {spec} ({name}): {} failed, {} passed",
                s.expectations_failed, s.expectations_passed
            );
            for f in report.failures() {
                println!("      {f}");
            }
            worst = worst.max(EXIT_FAILED);
        }
    }
    worst
}
