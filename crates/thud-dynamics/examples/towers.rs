//! Towers of n boxes (`THUD_NS=2,5,10,20`) for 10 s under env-var settings: drift, sag,
//! energy rise, mean step time (`THUD_MODE=pgs|auto|exact`). The tool used to study the tall-stack failure (docs/dynamics.md).
//!
//! `THUD_COUNT=k` stands `k` such towers in a row along x, 3 m apart (many small stacks:
//! what the exact mode's islands cost, `docs/dynamics.md`, *Exact mode*); the figures
//! are then the worst tower's, and the step time the whole row's (on the global pool:
//! `RAYON_NUM_THREADS=1` for one thread).
mod support;
use thud_dynamics::{PenetrationMode, Settings, SolverMode};
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
    if let Some(v) = env("THUD_GAP") {
        s.touching_gap = v;
    }
    if let Some(v) = env("THUD_SLOP") {
        s.slop = v;
    }
    if let Some(v) = env("THUD_WARM") {
        s.warm_start = v;
    }
    if let Some(v) = env("THUD_MARGIN") {
        s.contact_margin = v;
    }
    if let Some(v) = env("THUD_OMEGA") {
        s.omega = v;
    }
    if let Some(v) = env("THUD_SPLIT_ITER") {
        s.split_iterations = v;
    }
    if let Some(v) = env("THUD_SOLVE_SUBSTEPS") {
        s.solve_substeps = v;
    }
    if let Some(v) = env("THUD_SUBSTEPS") {
        s.substeps = v;
    }
    if let Some(v) = env::<u32>("THUD_SPLIT") {
        s.penetration = if v == 0 {
            PenetrationMode::Baumgarte
        } else {
            PenetrationMode::SplitImpulse
        };
    }
    if let Ok(v) = std::env::var("THUD_MODE") {
        s.solver_mode = match v.as_str() {
            "pgs" => SolverMode::Pgs,
            "exact" => SolverMode::Exact,
            _ => SolverMode::Auto,
        };
    }
    if let Some(v) = env("THUD_MAX_ROWS") {
        s.exact_max_rows = v;
    }
    if let Some(v) = env("THUD_BUDGET") {
        s.exact_rows_per_step = v;
    }
    if let Some(v) = env("THUD_OUTER") {
        s.exact_outer_passes = v;
    }
    let steps: usize = env("THUD_STEPS").unwrap_or(600);
    let sizes: Vec<u32> = std::env::var("THUD_NS")
        .ok()
        .map(|v| v.split(',').map(|x| x.parse().unwrap()).collect())
        .unwrap_or(vec![2, 5, 10, 20]);
    let count: usize = env("THUD_COUNT").unwrap_or(1);
    for n in sizes {
        let mut scene = support::scene_world::tower_row(count, n);
        if let Some(mu) = env::<f32>("THUD_MU") {
            for b in &mut scene.bodies {
                b.friction = mu;
            }
        }
        let (_, m) = support::scene_world::run(&scene, s.clone(), steps);
        let n = if count > 1 {
            format!("{count} × {n}")
        } else {
            n.to_string()
        };
        print!(
            "n {n}: drift {:.2} mm sag {:.2} mm rise {:.4} step {:.3} ms | ",
            m.drift * 1e3,
            m.sag * 1e3,
            m.energy_rise,
            m.mean_step * 1e3
        );
    }
    println!();
}
