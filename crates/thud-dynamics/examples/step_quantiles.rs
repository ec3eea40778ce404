//! Low quantiles of the step and stage times of standard scenes, for comparing two
//! builds on a shared host: other tenants only ever add time, so the fastest tenth of
//! many steps moves far less with the host's load than a median or a mean does.
//!
//! `cargo run --release -p thud-dynamics --example step_quantiles -- pyramid_40`
//! (one thread; `THUD_STEPS` steps after 60 settling ones, default 600;
//! `THUD_FRICTION_STRIDE` overrides `Settings::friction_stride`). Prints, per scene,
//! the 10th percentile and the median of the step and of every stage, in ms.

#[path = "support/scene_world.rs"]
mod scene_world;

use std::time::Instant;

use thud_dynamics::{Settings, Stage};

fn quantile(v: &mut [f64], q: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    v[((v.len() - 1) as f64 * q).round() as usize]
}

fn main() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("pool");
    let steps: usize = std::env::var("THUD_STEPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(600)
        .max(1);
    for name in std::env::args().skip(1) {
        let scene = thud_scene::standard(&name).expect("standard scene name");
        let mut settings = Settings::without_sleeping();
        if let Some(v) = std::env::var("THUD_FRICTION_STRIDE")
            .ok()
            .and_then(|v| v.parse().ok())
        {
            settings.friction_stride = v;
        }
        let (mut world, _) = scene_world::world(&scene, settings);
        let (mut total, mut stages) = (Vec::new(), vec![Vec::new(); Stage::ALL.len()]);
        pool.install(|| {
            for _ in 0..60 {
                world.step().expect("step");
            }
            for _ in 0..steps {
                let t = Instant::now();
                world.step().expect("step");
                total.push(t.elapsed().as_secs_f64() * 1e3);
                for (s, &g) in stages.iter_mut().zip(&Stage::ALL) {
                    s.push(world.stats().stage(g).as_secs_f64() * 1e3);
                }
            }
        });
        let q = |v: &mut Vec<f64>| format!("{:.4} / {:.4}", quantile(v, 0.1), quantile(v, 0.5));
        println!("{name}: step p10 / median {} ms", q(&mut total));
        for (s, g) in stages.iter_mut().zip(Stage::ALL) {
            println!("  {:14} {} ms", g.name(), q(s));
        }
    }
}
