//! Quick single-thread timing of contact generation on `pyramid_100` (5050 boxes,
//! generated here from the `scenes.md` spec) without criterion:
//! `cargo run --release -p thud-collide --example collide_timing`.

use std::time::Instant;

use glam::Vec3;
use thud_collide::{BroadPhase, CollisionFilter, NarrowPhase, Pose, Shape};

/// This thread's CPU time in seconds (Linux), to see through a loaded machine.
fn cpu_time() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| {
            s.split_whitespace()
                .next()
                .and_then(|x| x.parse::<f64>().ok())
        })
        .map_or(0.0, |ns| ns * 1e-9)
}

fn main() {
    let margin = 0.02;
    let mut shapes = vec![Shape::cuboid(Vec3::new(200.0, 0.5, 200.0)).unwrap()];
    let mut poses = vec![Pose::from_translation(Vec3::new(0.0, -0.5, 0.0))];
    let mut moving = vec![false];
    let base = 100;
    for r in 0..base {
        for c in 0..base - r {
            let x = c as f32 - (base - r - 1) as f32 / 2.0;
            shapes.push(Shape::cuboid(Vec3::splat(0.5)).unwrap());
            poses.push(Pose::from_translation(Vec3::new(x, 0.5 + r as f32, 0.0)));
            moving.push(true);
        }
    }
    let mut bp = BroadPhase::new();
    for k in 0..shapes.len() {
        bp.insert(
            k as u32,
            shapes[k].aabb(&poses[k]).expanded(margin),
            moving[k],
            CollisionFilter::default(),
        );
    }
    let mut pairs = Vec::new();
    let mut np = NarrowPhase::new();
    np.set_parallel(false);
    let steps = 200;
    let (mut tb, mut tn) = (0.0f64, 0.0f64);
    let (mut cb, mut cn) = (0.0f64, 0.0f64);
    for step in 0..steps {
        let c0 = cpu_time();
        let t0 = Instant::now();
        for k in 0..shapes.len() {
            bp.update(k as u32, shapes[k].aabb(&poses[k]).expanded(margin));
        }
        bp.find_pairs(&mut pairs);
        let t1 = Instant::now();
        let c1 = cpu_time();
        np.update(&pairs, &shapes, &poses, margin);
        let t2 = Instant::now();
        let c2 = cpu_time();
        if step >= 10 {
            cb += c1 - c0;
            cn += c2 - c1;
            tb += (t1 - t0).as_secs_f64();
            tn += (t2 - t1).as_secs_f64();
        }
    }
    let n = (steps - 10) as f64;
    {
        let a = Shape::cuboid(Vec3::splat(0.5)).unwrap();
        let pa = Pose::from_translation(Vec3::new(0.0, 0.5, 0.0));
        let pb = Pose::from_translation(Vec3::new(0.5, 1.5, 0.0));
        let mut out = Vec::new();
        let t = Instant::now();
        for _ in 0..100_000 {
            out.clear();
            thud_collide::contact_manifolds(
                &a,
                std::hint::black_box(&pa),
                &a,
                std::hint::black_box(&pb),
                margin,
                &mut out,
            );
        }
        println!(
            "one box-box pair: {:.1} ns",
            t.elapsed().as_secs_f64() * 1e9 / 1e5
        );
    }
    let points: usize = np.manifolds().iter().map(|m| m.manifold.points.len()).sum();
    println!(
        "pyramid_100: {} pairs, {} manifolds, {} points; broadphase {:.3} ms, narrowphase {:.3} ms, total {:.3} ms per step",
        pairs.len(),
        np.manifolds().len(),
        points,
        tb / n * 1e3,
        tn / n * 1e3,
        (tb + tn) / n * 1e3
    );
    println!(
        "  thread CPU time: broadphase {:.3} ms, narrowphase {:.3} ms, total {:.3} ms per step",
        cb / n * 1e3,
        cn / n * 1e3,
        (cb + cn) / n * 1e3
    );
    let mut cold = NarrowPhase::new().with_reuse_thresholds(0.0, 0.0);
    cold.set_parallel(false);
    cold.update(&pairs, &shapes, &poses, margin);
    let c0 = cpu_time();
    for _ in 0..20 {
        cold.update(&pairs, &shapes, &poses, margin);
    }
    println!(
        "  narrowphase without reuse: {:.3} ms CPU per step",
        (cpu_time() - c0) / 20.0 * 1e3
    );
}
