//! A headless game loop on a bevy_ecs `Schedule`: a pyramid stands on the ground, a
//! box is dropped onto it every half second, bodies that fall off the world are
//! despawned, and contact messages are printed.
//!
//! Run: `cargo run --release --example ecs_drop`.

mod common;

use bevy_ecs::prelude::*;
use glam::{Quat, Vec3};
use thud_ecs::prelude::*;

/// Seconds between drops.
const DROP_EVERY: f32 = 0.5;

/// The game's own state: a drop timer and a counter.
#[derive(Resource, Default)]
struct Dropper {
    timer: f32,
    dropped: u32,
}

fn drop_boxes(mut commands: Commands, clock: Res<PhysicsClock>, mut dropper: ResMut<Dropper>) {
    dropper.timer += clock.frame_delta;
    if dropper.timer < DROP_EVERY {
        return;
    }
    dropper.timer -= DROP_EVERY;
    dropper.dropped += 1;
    let n = dropper.dropped as f32;
    let x = (n * 1.7).sin() * 3.0;
    commands.spawn((
        RigidBody::Dynamic,
        Collider::cuboid(Vec3::splat(0.5)).friction(0.6),
        PhysicsTransform::from_xyz(x, 14.0, 0.0).with_rotation(Quat::from_rotation_y(n)),
    ));
}

fn despawn_fallen(
    mut commands: Commands,
    bodies: Query<(Entity, &PhysicsTransform), With<RigidBody>>,
) {
    for (entity, pose) in &bodies {
        if pose.translation.y < -20.0 {
            println!("despawning {entity}: fell off the world");
            commands.entity(entity).despawn();
        }
    }
}

fn print_contacts(
    mut started: MessageReader<ContactStarted>,
    mut ended: MessageReader<ContactEnded>,
    clock: Res<PhysicsClock>,
) {
    let (s, e) = (started.read().count(), ended.read().count());
    if (s > 0 || e > 0) && clock.total_steps.is_multiple_of(30) {
        println!(
            "step {:4}: {s} contacts started, {e} ended",
            clock.total_steps
        );
    }
}

fn main() {
    let scene = thud_scene::standard::pyramid(10);
    let mut world = World::new();
    let mut settings = thud_scene::instantiate::settings_of(&scene.settings);
    settings.sleeping = true;
    world.insert_resource(PhysicsWorld(thud_dynamics::World::new(settings)));
    world.init_resource::<Dropper>();
    let mut schedule = Schedule::default();
    add_physics(&mut world, &mut schedule);
    schedule.add_systems((
        (drop_boxes, despawn_fallen).before(PhysicsSystems::Prepare),
        print_contacts.after(PhysicsSystems::Writeback),
    ));
    let pyramid = common::spawn_bodies(&mut world, &scene.bodies);
    println!("spawned a pyramid of {} bodies", pyramid.len());

    let dt = scene.settings.dt;
    for _ in 0..600 {
        world.resource_mut::<PhysicsClock>().frame_delta = dt;
        schedule.run(&mut world);
    }
    let physics = &world.resource::<PhysicsWorld>().0;
    let stats = physics.stats();
    println!(
        "after 10 s: {} boxes dropped, {} bodies, {} awake, {} contacts",
        world.resource::<Dropper>().dropped,
        physics.body_count(),
        stats.awake_bodies,
        stats.contacts
    );
}
