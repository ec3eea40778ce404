//! Collision benches: broadphase and narrowphase on the standard scenes.
//!
//! Layouts come from `thud_scene::standard` (`scenes.md`):
//!
//! - `pyramid_100`: 5050 unit boxes exactly resting (settled by construction), plus
//!   the ground cuboid. This is the target case: contact generation (broadphase +
//!   narrowphase) under 1.5 ms per step, single thread.
//! - `pile_1000/start`: the initial lattice of `pile_1000` as given (1000 jittered,
//!   randomly turned boxes, 2 m apart, in the bin): broadphase-heavy, few contacts.
//! - `pile_1000/packed`: a stand-in for the settled heap: the same 1000 turned boxes
//!   (same order and rotations) packed on a 10 × 10 × 10 lattice with 1.05 m spacing
//!   from y = 0.55, so turned neighbours interpenetrate and touch at arbitrary
//!   angles — the face/edge mix of a real heap, without running the solver.
//! - `lattice_N`: `N` unit boxes on a cubic lattice, every box moved each iteration
//!   (inside its fat box, or out of it), the broadphase alone on one thread and,
//!   parallel (`BroadPhase::set_parallel`), on a pool of two.
//!
//! "step" means what the engine does every frame: recompute every collider's box from
//! its pose (plus the 2 cm contact margin), `BroadPhase::update` each, `find_pairs`,
//! then `NarrowPhase::update` (single thread, `set_parallel(false)`). Poses do not
//! change between iterations, as in a settled scene, so the broadphase sees no moves
//! and the narrowphase cache matches every point. `cold` rebuilds the broadphase from
//! scratch each iteration (every proxy inserted, every pair found by a tree query).
//! `step_jitter` nudges every moving body by ±10 µm per iteration, as a settled
//! solver does, so the pair cache must re-evaluate every contact (its reuse path);
//! `narrowphase_no_reuse` disables the pair cache: every pair recomputed from scratch.
//!
//! Run: `cargo bench --bench collide -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use glam::{EulerRot, Quat, Vec3};
use thud_collide::{BroadPhase, CollisionFilter, NarrowPhase, Pose, Shape};
use thud_scene::schema::{BodyKindDef, ShapeDef};

const MARGIN: f32 = 0.02;

struct Layout {
    shapes: Vec<Shape>,
    poses: Vec<Pose>,
    moving: Vec<bool>,
}

fn to_shape(s: &ShapeDef) -> Shape {
    match s {
        ShapeDef::Cuboid { half_extents } => Shape::cuboid(*half_extents),
        ShapeDef::Sphere { radius } => Shape::sphere(*radius),
        ShapeDef::Capsule {
            half_height,
            radius,
        } => Shape::capsule(*half_height, *radius),
        ShapeDef::Cylinder {
            half_height,
            radius,
        } => Shape::cylinder(*half_height, *radius),
        #[allow(unreachable_patterns)]
        _ => Shape::cuboid(Vec3::splat(0.5)),
    }
    .expect("standard scene shapes are valid")
}

fn layout(name: &str) -> Layout {
    let scene = thud_scene::standard::standard(name).expect("standard scene");
    let mut l = Layout {
        shapes: Vec::new(),
        poses: Vec::new(),
        moving: Vec::new(),
    };
    for b in &scene.bodies {
        let rotation = match b.euler_deg {
            Some(e) => Quat::from_euler(
                EulerRot::YXZ,
                e.x.to_radians(),
                e.y.to_radians(),
                e.z.to_radians(),
            ),
            None => b.rotation,
        };
        l.shapes.push(to_shape(&b.shape));
        l.poses.push(Pose::new(b.position, rotation));
        l.moving.push(b.kind != BodyKindDef::Static);
    }
    l
}

/// `pile_1000` with its boxes packed on a 1.05 m lattice (see the module notes).
fn pile_packed() -> Layout {
    let mut l = layout("pile_1000");
    let mut n = 0;
    for k in 0..l.poses.len() {
        if !l.moving[k] {
            continue;
        }
        let (i, j, kk) = (n / 100, (n / 10) % 10, n % 10);
        l.poses[k].position = Vec3::new(
            (i as f32 - 4.5) * 1.05,
            0.55 + j as f32 * 1.05,
            (kk as f32 - 4.5) * 1.05,
        );
        n += 1;
    }
    l
}

fn boxes_of(l: &Layout) -> impl Iterator<Item = thud_collide::Aabb> + '_ {
    l.shapes
        .iter()
        .zip(&l.poses)
        .map(|(s, p)| s.aabb(p).expanded(MARGIN))
}

fn build_broadphase(l: &Layout) -> BroadPhase {
    let mut bp = BroadPhase::new();
    for (k, b) in boxes_of(l).enumerate() {
        bp.insert(k as u32, b, l.moving[k], CollisionFilter::default());
    }
    bp
}

fn bench_layout(c: &mut Criterion, name: &str, l: &Layout) {
    let mut g = c.benchmark_group(format!("collide/{name}"));
    let mut bp = build_broadphase(l);
    let mut pairs = Vec::new();
    bp.find_pairs(&mut pairs);
    let mut np = NarrowPhase::new();
    np.set_parallel(false);
    np.update(&pairs, &l.shapes, &l.poses, MARGIN);
    let points: usize = np.manifolds().iter().map(|m| m.manifold.points.len()).sum();
    eprintln!(
        "{name}: {} colliders, {} pairs, {} manifolds, {} points",
        l.shapes.len(),
        pairs.len(),
        np.manifolds().len(),
        points
    );
    g.bench_function("broadphase", |b| {
        b.iter(|| {
            for (k, bb) in boxes_of(l).enumerate() {
                bp.update(k as u32, bb);
            }
            bp.find_pairs(&mut pairs);
            black_box(pairs.len())
        })
    });
    g.bench_function("broadphase_cold", |b| {
        b.iter(|| {
            let mut fresh = build_broadphase(l);
            let mut out = Vec::new();
            fresh.find_pairs(&mut out);
            black_box(out.len())
        })
    });
    g.bench_function("narrowphase", |b| {
        b.iter(|| {
            np.update(&pairs, &l.shapes, &l.poses, MARGIN);
            black_box(np.manifolds().len())
        })
    });
    g.bench_function("step", |b| {
        b.iter(|| {
            for (k, bb) in boxes_of(l).enumerate() {
                bp.update(k as u32, bb);
            }
            bp.find_pairs(&mut pairs);
            np.update(&pairs, &l.shapes, &l.poses, MARGIN);
            black_box(np.manifolds().len())
        })
    });
    // As a settled solver leaves them: every body nudged by ±10 µm each step, so
    // the pair cache re-evaluates every anchor (reuse path, no recomputation).
    let mut jittered = l.poses.clone();
    let mut flip = 1.0f32;
    g.bench_function("step_jitter", |b| {
        b.iter(|| {
            flip = -flip;
            for (k, p) in jittered.iter_mut().enumerate() {
                if l.moving[k] {
                    p.position = l.poses[k].position + Vec3::new(1e-5, -1e-5, 0.5e-5) * flip;
                }
            }
            for (k, s) in l.shapes.iter().enumerate() {
                bp.update(k as u32, s.aabb(&jittered[k]).expanded(MARGIN));
            }
            bp.find_pairs(&mut pairs);
            np.update(&pairs, &l.shapes, &jittered, MARGIN);
            black_box(np.manifolds().len())
        })
    });
    let mut cold = NarrowPhase::new().with_reuse_thresholds(0.0, 0.0);
    cold.set_parallel(false);
    g.bench_function("narrowphase_no_reuse", |b| {
        b.iter(|| {
            cold.update(&pairs, &l.shapes, &l.poses, MARGIN);
            black_box(cold.manifolds().len())
        })
    });
    g.finish();
}

/// 10⁵ static boxes (a level) and 1000 moving ones drifting through it.
fn bench_large_level(c: &mut Criterion) {
    let mut bp = BroadPhase::new();
    let h = Vec3::splat(0.5);
    let mut key = 0u32;
    for i in 0..100 {
        for j in 0..1000 {
            let p = Vec3::new(i as f32 * 1.5, 0.0, j as f32 * 1.5);
            bp.insert(
                key,
                thud_collide::Aabb::from_center_half_extents(p, h),
                false,
                CollisionFilter::default(),
            );
            key += 1;
        }
    }
    let first_moving = key;
    for m in 0..1000u32 {
        let p = Vec3::new((m % 100) as f32 * 1.5, 1.0, (m / 100) as f32 * 15.0);
        bp.insert(
            key,
            thud_collide::Aabb::from_center_half_extents(p, h),
            true,
            CollisionFilter::default(),
        );
        key += 1;
    }
    let mut pairs = Vec::new();
    bp.find_pairs(&mut pairs);
    let mut t = 0u32;
    c.bench_function("collide/level_100k_static_1k_moving/broadphase", |b| {
        b.iter(|| {
            t += 1;
            let dz = (t % 200) as f32 * 0.05;
            for m in 0..1000u32 {
                let p = Vec3::new((m % 100) as f32 * 1.5, 1.0, (m / 100) as f32 * 15.0 + dz);
                bp.update(
                    first_moving + m,
                    thud_collide::Aabb::from_center_half_extents(p, h),
                );
            }
            bp.find_pairs(&mut pairs);
            black_box(pairs.len())
        })
    });
}

/// `n³` unit boxes on a lattice of 1.05 m, all moving, each moved every iteration:
/// by ±1 mm (inside its fat box: the tight-overlap pass alone) or by ±0.3 m (out of
/// it: the stale-pair pass, a tree update and a query per box), on one thread and,
/// parallel, on a pool of two.
fn bench_threads(c: &mut Criterion, n: usize) {
    let h = Vec3::splat(0.5);
    let centres: Vec<Vec3> = (0..n * n * n)
        .map(|k| Vec3::new((k / (n * n)) as f32, ((k / n) % n) as f32, (k % n) as f32) * 1.05)
        .collect();
    let boxes = |d: f32| {
        centres
            .iter()
            .map(move |&p| thud_collide::Aabb::from_center_half_extents(p + Vec3::splat(d), h))
    };
    // (Each iteration enters its pool, as a step called from a game's thread does.)
    let pools = [1, 2].map(|t| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build()
            .expect("a pool")
    });
    for (moves, d) in [("small_moves", 1e-3), ("escapes", 0.3)] {
        for pool in &pools {
            let threads = pool.current_num_threads();
            let mut bp = BroadPhase::new();
            bp.set_parallel(threads > 1);
            for (k, b) in boxes(0.0).enumerate() {
                bp.insert(k as u32, b, true, CollisionFilter::default());
            }
            let mut pairs = Vec::new();
            bp.find_pairs(&mut pairs);
            let mut flip = 1.0f32;
            let name = format!(
                "collide/lattice_{}/broadphase_{moves}/{threads}_threads",
                n * n * n
            );
            c.bench_function(&name, |b| {
                b.iter(|| {
                    flip = -flip;
                    pool.install(|| {
                        for (k, bb) in boxes(d * flip).enumerate() {
                            bp.update(k as u32, bb);
                        }
                        bp.find_pairs(&mut pairs);
                    });
                    black_box(pairs.len())
                })
            });
        }
    }
}

fn collide(c: &mut Criterion) {
    bench_layout(c, "pyramid_100", &layout("pyramid_100"));
    bench_layout(c, "pile_1000/start", &layout("pile_1000"));
    bench_layout(c, "pile_1000/packed", &pile_packed());
    bench_large_level(c);
    bench_threads(c, 12);
    bench_threads(c, 24);
}

criterion_group!(benches, collide);
criterion_main!(benches);
