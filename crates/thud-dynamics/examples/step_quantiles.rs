//! Low quantiles of the step and stage times of standard scenes, for comparing two
//! builds on a shared host: other tenants only ever add time, so the fastest tenth of
//! many steps moves far less with the host's load than a median or a mean does.
//!
//! `cargo run --release -p thud-dynamics --example step_quantiles -- pyramid_40`
//! (one thread; `THUD_STEPS` steps after 60 settling ones, default 600). Prints, per
//! scene, the 10th percentile and the median of the step and of every stage, in ms.
//!
//! `THUD_FRICTION_STRIDE` sets `Settings::friction_stride`; a list (`1,2`) compares
//! settings in one process: one world per value, stepped in turns of 20 steps each
//! (`THUD_BLOCK`), so that the host's slow and fast spells (`docs/performance.md`)
//! fall on all of them alike; then each world's quantiles, and the ratios of the
//! others' p10s to the first's.

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
}

fn main() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("pool");
    let steps: usize = env("THUD_STEPS").unwrap_or(600).max(1);
    let block: usize = env("THUD_BLOCK").unwrap_or(20).max(1);
    let strides: Vec<Option<u32>> = match std::env::var("THUD_FRICTION_STRIDE") {
        Ok(list) => list.split(',').map(|v| v.trim().parse().ok()).collect(),
        Err(_) => vec![None],
    };
    for name in std::env::args().skip(1) {
        let scene = thud_scene::standard(&name).expect("standard scene name");
        let mut worlds: Vec<_> = strides
            .iter()
            .map(|&stride| {
                let mut settings = Settings::without_sleeping();
                if let Some(k) = stride {
                    settings.friction_stride = k;
                }
                scene_world::world(&scene, settings).0
            })
            .collect();
        let mut times: Vec<Times> = worlds
            .iter()
            .map(|_| Times {
                total: Vec::new(),
                stages: vec![Vec::new(); Stage::ALL.len()],
            })
            .collect();
        pool.install(|| {
            for world in &mut worlds {
                for _ in 0..60 {
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
                    }
                }
                done += n;
            }
        });
        let q = |v: &mut Vec<f64>| format!("{:.4} / {:.4}", quantile(v, 0.1), quantile(v, 0.5));
        let mut first: Option<(f64, f64)> = None;
        for (t, stride) in times.iter_mut().zip(&strides) {
            let label = match stride {
                Some(k) if strides.len() > 1 => format!("{name} (friction_stride {k})"),
                _ => name.clone(),
            };
            println!("{label}: step p10 / median {} ms", q(&mut t.total));
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
