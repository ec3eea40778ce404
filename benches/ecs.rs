//! The ECS adapter's overhead: one frame through the bevy_ecs schedule (Prepare, one
//! step, Writeback) against the same step on the plain `World`, for 1 000 and 10 000
//! awake boxes resting on the ground. Overhead share = (frame − step) / step.

use bevy_ecs::prelude::*;
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use glam::Vec3;
use thud_ecs::prelude::*;

fn layout(n: usize) -> Vec<Vec3> {
    let side = (n as f32).sqrt().ceil() as usize;
    (0..n)
        .map(|i| Vec3::new((i % side) as f32 * 1.5, 0.5, (i / side) as f32 * 1.5))
        .collect()
}

fn settings() -> thud_dynamics::Settings {
    thud_dynamics::Settings {
        sleeping: false,
        ..thud_dynamics::Settings::default()
    }
}

fn ground() -> thud_dynamics::Collider {
    thud_dynamics::Collider::cuboid(Vec3::new(200.0, 0.5, 200.0))
}

fn plain_world(n: usize) -> thud_dynamics::World {
    let mut world = thud_dynamics::World::new(settings());
    let _ = world.add_body(
        thud_dynamics::BodyBuilder::fixed()
            .position(Vec3::new(0.0, -0.5, 0.0))
            .collider(ground()),
    );
    for p in layout(n) {
        let _ = world.add_body(
            thud_dynamics::BodyBuilder::dynamic()
                .position(p)
                .collider(thud_dynamics::Collider::cuboid(Vec3::splat(0.5))),
        );
    }
    world
}

fn ecs_world(n: usize) -> (World, Schedule) {
    let mut world = World::new();
    world.insert_resource(PhysicsWorld(thud_dynamics::World::new(settings())));
    let mut schedule = Schedule::default();
    add_physics(&mut world, &mut schedule);
    world.spawn((
        RigidBody::Static,
        Collider(ground()),
        PhysicsTransform::from_xyz(0.0, -0.5, 0.0),
    ));
    for p in layout(n) {
        world.spawn((
            RigidBody::Dynamic,
            Collider::cuboid(Vec3::splat(0.5)),
            PhysicsTransform::from_translation(p),
        ));
    }
    (world, schedule)
}

fn overhead(c: &mut Criterion) {
    let mut group = c.benchmark_group("ecs_overhead");
    group.sample_size(20);
    for n in [1_000, 10_000] {
        let mut plain = plain_world(n);
        for _ in 0..30 {
            let _ = plain.step();
        }
        group.bench_with_input(BenchmarkId::new("plain_step", n), &n, |b, _| {
            b.iter(|| plain.step());
        });
        let (mut world, mut schedule) = ecs_world(n);
        let dt = world.resource::<PhysicsWorld>().0.settings().dt;
        for _ in 0..30 {
            world.resource_mut::<PhysicsClock>().frame_delta = dt;
            schedule.run(&mut world);
        }
        group.bench_with_input(BenchmarkId::new("ecs_frame", n), &n, |b, _| {
            b.iter(|| {
                world.resource_mut::<PhysicsClock>().frame_delta = dt;
                schedule.run(&mut world);
            });
        });
    }
    group.finish();
}

criterion_group!(benches, overhead);
criterion_main!(benches);
