//! Run standard scenes and print drift, sag, energy, the deepest penetration left at the
//! end (measured from the shapes, as the comparison measures it) and step time.
//!
//! `cargo run --release -p thud-dynamics --example scene_metrics -- tower_20 pyramid_20`
//! Settings overrides through the environment: `THUD_ITER`, `THUD_ERP`, `THUD_SLOP`, `THUD_GAP` (`touching_gap`),
//! `THUD_SWEEP_TOL` (`sweep_tolerance`),
//! `THUD_SPLIT` (0/1), `THUD_SPLIT_ITER`, `THUD_DEEP_ITER` (`deep_split_iterations`), `THUD_DEEP`
//! (`deep_penetration`), `THUD_SPLIT_EVERY` (0/1), `THUD_MARGIN`, `THUD_SUBSTEPS`, `THUD_SOLVE_SUBSTEPS`,
//! `THUD_LATER_ITER` (`substep_iterations`), `THUD_FRICTION_STRIDE`, `THUD_OMEGA`, `THUD_MODE` (pgs/auto/exact), `THUD_ORDER` (`colored`: `SweepOrder::Colored`), `THUD_EXACT_TOL`, `THUD_BUDGET` (`exact_rows_per_step`), `THUD_MIN_PAIRS`
//! (`Settings::parallel_min_pairs`), `THUD_REUSE` (`Settings::reuse_rows_within`), `THUD_STATICS`
//! (0/1: `Settings::statics_warm_start`), `THUD_SYM` (0/1: `Settings::symmetric_sweeps`),
//! `THUD_STEPS`.
//!
//! The scenes step on the global rayon pool (one thread per core), or on a pool of
//! `THUD_THREADS` threads; each line ends with the pool's size, whose step times it
//! measured (`step_quantiles` steps on one thread by default).
//!
//! To see how a scene answers a push (`docs/performance-log.md`, *Tall stacks*):
//! `THUD_KICK=step,body,vx,vy,vz,wx,wy,wz` adds that velocity to one body (by its index
//! in the scene) before that step (1-based); `THUD_ROCK=ω` sets a one-box-deep wall
//! rocking out of its plane at `ω` rad/s about its base's far edge before the first
//! step; `THUD_FRICTION=μ` gives every body that friction; `THUD_TRACE=1` prints every
//! step's energy change, the bodies moving, those still moving as the summary's `moving`
//! counts them (faster than 0.1 m/s) and the fastest one to stderr.

mod support;

use glam::Vec3;
use support::scene_world::{Disturb, Kick, run_disturbed};
use thud_dynamics::{PenetrationMode, Settings, Stage};

fn env<T: std::str::FromStr>(k: &str) -> Option<T> {
    std::env::var(k).ok().and_then(|v| v.parse().ok())
}

fn main() {
    let mut s = Settings::without_sleeping();
    if let Some(v) = env("THUD_ITER") {
        s.iterations = v;
    }
    if let Some(v) = env("THUD_ERP") {
        s.erp = v;
    }
    if let Some(v) = env("THUD_SLOP") {
        s.slop = v;
    }
    if let Some(v) = env("THUD_SWEEP_TOL") {
        s.sweep_tolerance = v;
    }
    if let Some(v) = env("THUD_GAP") {
        s.touching_gap = v;
    }
    if let Some(v) = env::<u32>("THUD_SPLIT") {
        s.penetration = if v == 0 {
            PenetrationMode::Baumgarte
        } else {
            PenetrationMode::SplitImpulse
        };
    }
    if let Some(v) = env("THUD_SPLIT_ITER") {
        s.split_iterations = v;
    }
    if let Some(v) = env("THUD_DEEP_ITER") {
        s.deep_split_iterations = v;
    }
    if let Some(v) = env("THUD_DEEP") {
        s.deep_penetration = v;
    }
    if let Some(v) = env::<u32>("THUD_SPLIT_EVERY") {
        s.split_every_substep = v != 0;
    }
    if let Some(v) = env("THUD_MARGIN") {
        s.contact_margin = v;
    }
    if let Some(v) = env("THUD_SUBSTEPS") {
        s.substeps = v;
    }
    if let Some(v) = env::<String>("THUD_MODE") {
        s.solver_mode = match v.as_str() {
            "pgs" => thud_dynamics::SolverMode::Pgs,
            "exact" => thud_dynamics::SolverMode::Exact,
            _ => thud_dynamics::SolverMode::Auto,
        };
    }
    if let Some(v) = env("THUD_BUDGET") {
        s.exact_rows_per_step = v;
    }
    if let Some(v) = env("THUD_EXACT_TOL") {
        s.exact_tolerance = v;
    }
    if let Some(v) = env::<String>("THUD_ORDER") {
        s.sweep_order = match v.as_str() {
            "colored" => thud_dynamics::SweepOrder::Colored,
            _ => thud_dynamics::SweepOrder::Sequential,
        };
    }
    if let Some(v) = env("THUD_SOLVE_SUBSTEPS") {
        s.solve_substeps = v;
    }
    if let Some(v) = env("THUD_LATER_ITER") {
        s.substep_iterations = Some(v);
    }
    if let Some(v) = env("THUD_FRICTION_STRIDE") {
        s.friction_stride = v;
    }
    if let Some(v) = env("THUD_OMEGA") {
        s.omega = v;
    }
    if let Some(v) = env("THUD_REUSE") {
        s.reuse_rows_within = v;
    }
    if let Some(v) = env("THUD_MIN_PAIRS") {
        s.parallel_min_pairs = v;
    }
    if let Some(v) = env::<u32>("THUD_STATICS") {
        s.statics_warm_start = v != 0;
    }
    if let Some(v) = env("THUD_WARM") {
        s.warm_start = v;
    }
    if let Some(v) = env::<u32>("THUD_SYM") {
        s.symmetric_sweeps = v != 0;
    }
    let steps: usize = env("THUD_STEPS").unwrap_or(600);
    let kick = std::env::var("THUD_KICK").ok().map(|v| {
        let x: Vec<f32> = v
            .split(',')
            .map(|x| x.trim().parse().expect("THUD_KICK: numbers"))
            .collect();
        assert!(x.len() == 8, "THUD_KICK=step,body,vx,vy,vz,wx,wy,wz");
        Kick {
            step: x[0] as usize,
            body: x[1] as usize,
            v: Vec3::new(x[2], x[3], x[4]),
            w: Vec3::new(x[5], x[6], x[7]),
        }
    });
    let disturb = Disturb {
        kick,
        rock: env("THUD_ROCK"),
        trace: env::<u32>("THUD_TRACE").is_some_and(|v| v != 0),
    };
    let names: Vec<String> = std::env::args().skip(1).collect();
    let run = || {
        for name in &names {
            report(name, &s, steps, disturb);
        }
    };
    match env::<usize>("THUD_THREADS") {
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .expect("THUD_THREADS: a rayon pool")
            .install(run),
        None => run(),
    }
}

/// One scene's run and its lines.
fn report(name: &str, s: &Settings, steps: usize, disturb: Disturb) {
    let mut scene = thud_scene::standard(name).expect("standard scene name");
    if let Some(mu) = env::<f32>("THUD_FRICTION") {
        for b in &mut scene.bodies {
            (b.friction, b.material) = (mu, None);
        }
    }
    let (world, m) = run_disturbed(&scene, s.clone(), steps, disturb);
    let st = world.stats();
    println!(
        "{name:12} drift {:7.3} mm  sag {:7.3} mm  rise {:9.5} J  rebound {:8.4} J  pen {:6.2} mm  moving {:4}  step mean {:7.3} ms max {:7.3} ms  rows {} contacts {} manifolds {} levels {}  threads {}",
        m.drift * 1e3,
        m.sag * 1e3,
        m.energy_rise,
        m.energy_rebound,
        m.max_penetration * 1e3,
        m.still_moving,
        m.mean_step * 1e3,
        m.max_step * 1e3,
        st.rows,
        st.contacts,
        st.manifolds,
        st.colors,
        rayon::current_num_threads()
    );
    let stages: Vec<String> = Stage::ALL
        .iter()
        .map(|&g| format!("{} {:.3}", g, st.stage(g).as_secs_f64() * 1e3))
        .collect();
    println!("             last step: {}", stages.join(", "));
}
