//! Joint step times (issue 7, item 8): a 100-joint chain and a pile of 10 ragdolls,
//! PGS alone against the exact island solve.
//!
//! `cargo bench -p thud-dynamics --bench joints -- --warm-up-time 1 --measurement-time 3`

use criterion::{Criterion, criterion_group, criterion_main};
use glam::{Quat, Vec3};
use thud_dynamics::{BodyBuilder, BodyHandle, Collider, JointBuilder, Settings, SolverMode, World};

/// A chain of `n` links (ball joints, 0.5 m apart) from a world anchor, swinging: it
/// starts horizontal.
fn chain(settings: Settings, n: usize) -> World {
    let mut w = World::new(settings);
    let top = Vec3::new(0.0, 60.0, 0.0);
    let mut prev = None;
    for i in 0..n {
        let c = top + Vec3::new(0.5 * (i as f32 + 0.5), 0.0, 0.0);
        let b = w
            .add_body(
                BodyBuilder::dynamic()
                    .position(c)
                    .mass(1.0)
                    .collider(Collider::sphere(0.1)),
            )
            .unwrap();
        w.add_joint(JointBuilder::ball(prev, b).world_anchor(c - Vec3::X * 0.25))
            .unwrap();
        prev = Some(b);
    }
    w
}

fn capsule(w: &mut World, c: Vec3, rot: Quat, half: f32, r: f32) -> BodyHandle {
    w.add_body(
        BodyBuilder::dynamic()
            .position(c)
            .rotation(rot)
            .collider(Collider::capsule(half, r)),
    )
    .unwrap()
}

/// A ragdoll of 10 capsules at `o` (pelvis): ball joints at hips, shoulders, neck and
/// waist; hinges with limits at knees and elbows.
fn ragdoll(w: &mut World, o: Vec3) {
    let flat = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
    let up = Quat::IDENTITY;
    let pelvis = capsule(w, o, flat, 0.15, 0.12);
    let chest = capsule(w, o + Vec3::Y * 0.45, flat, 0.2, 0.14);
    let head = capsule(w, o + Vec3::Y * 0.85, up, 0.05, 0.12);
    let ball = |w: &mut World, a, b, p| {
        w.add_joint(JointBuilder::ball(Some(a), b).world_anchor(p))
            .unwrap();
    };
    ball(w, pelvis, chest, o + Vec3::Y * 0.22);
    ball(w, chest, head, o + Vec3::Y * 0.7);
    for s in [-1.0f32, 1.0] {
        let thigh = capsule(w, o + Vec3::new(0.12 * s, -0.4, 0.0), up, 0.15, 0.08);
        let shin = capsule(w, o + Vec3::new(0.12 * s, -0.85, 0.0), up, 0.15, 0.07);
        ball(w, pelvis, thigh, o + Vec3::new(0.12 * s, -0.15, 0.0));
        w.add_joint(
            JointBuilder::hinge(Some(thigh), shin)
                .world_anchor(o + Vec3::new(0.12 * s, -0.62, 0.0))
                .world_axis(Vec3::X)
                .limits(-2.0, 0.0),
        )
        .unwrap();
        let arm = capsule(w, o + Vec3::new(0.5 * s, 0.55, 0.0), flat, 0.12, 0.06);
        let fore = capsule(w, o + Vec3::new(0.85 * s, 0.55, 0.0), flat, 0.12, 0.05);
        ball(w, chest, arm, o + Vec3::new(0.33 * s, 0.55, 0.0));
        w.add_joint(
            JointBuilder::hinge(Some(arm), fore)
                .world_anchor(o + Vec3::new(0.68 * s, 0.55, 0.0))
                .world_axis(Vec3::Y)
                .limits(-0.1, 2.0),
        )
        .unwrap();
    }
}

/// 10 ragdolls dropped on the ground in a loose column, stepped (with PGS) until they
/// pile up; then the given settings apply.
fn ragdoll_pile(settings: Settings) -> World {
    let mut w = World::new(Settings {
        solver_mode: SolverMode::Pgs,
        ..settings.clone()
    });
    w.add_body(BodyBuilder::fixed().collider(Collider::halfspace(Vec3::Y)))
        .unwrap();
    for i in 0..10 {
        let o = Vec3::new(
            0.2 * (i % 3) as f32,
            1.5 + 1.3 * i as f32,
            0.15 * (i % 2) as f32,
        );
        ragdoll(&mut w, o);
    }
    for _ in 0..240 {
        w.step().unwrap();
    }
    *w.settings_mut() = settings;
    w
}

fn modes() -> [(&'static str, Settings); 3] {
    let pgs = Settings {
        solver_mode: SolverMode::Pgs,
        ..Settings::without_sleeping()
    };
    let auto = Settings::without_sleeping();
    let exact = Settings {
        solver_mode: SolverMode::Exact,
        exact_max_rows: 512,
        ..Settings::without_sleeping()
    };
    [("pgs", pgs), ("auto", auto), ("exact", exact)]
}

fn benches(c: &mut Criterion) {
    let mut g = c.benchmark_group("joints");
    for (name, s) in modes() {
        let mut w = chain(s.clone(), 100);
        for _ in 0..60 {
            w.step().unwrap();
        }
        g.bench_function(format!("chain_100/{name}"), |b| {
            b.iter(|| w.step().unwrap())
        });
        // One ragdoll in free fall (no contacts): a joint-only island of 10 bodies.
        let mut w = World::new(s.clone());
        ragdoll(&mut w, Vec3::new(0.0, 1000.0, 0.0));
        g.bench_function(format!("ragdoll_falling/{name}"), |b| {
            b.iter(|| w.step().unwrap())
        });
        let mut w = ragdoll_pile(s);
        g.bench_function(format!("ragdolls_10/{name}"), |b| {
            b.iter(|| w.step().unwrap())
        });
    }
    g.finish();
}

criterion_group!(joints, benches);
criterion_main!(joints);
