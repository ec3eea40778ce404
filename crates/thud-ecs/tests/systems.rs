//! Behaviour of the ECS adapter: bodies follow entities, the game's changes reach the
//! engine, contact messages fire once, bad data is refused without stopping the world.

use bevy_ecs::message::Messages;
use bevy_ecs::prelude::*;
use glam::Vec3;
use thud_ecs::prelude::*;

const DT: f32 = 1.0 / 60.0;

fn app() -> (World, Schedule) {
    let mut world = World::new();
    let mut schedule = Schedule::default();
    add_physics(&mut world, &mut schedule);
    (world, schedule)
}

fn frame(world: &mut World, schedule: &mut Schedule) {
    world.resource_mut::<PhysicsClock>().frame_delta = DT;
    schedule.run(world);
}

fn ground(world: &mut World) -> Entity {
    world
        .spawn((
            RigidBody::Static,
            Collider::cuboid(Vec3::new(50.0, 0.5, 50.0)),
            PhysicsTransform::from_xyz(0.0, -0.5, 0.0),
        ))
        .id()
}

fn drain<M: Message + Clone>(world: &mut World) -> Vec<M> {
    world.resource_mut::<Messages<M>>().drain().collect()
}

#[test]
fn spawn_and_despawn_leave_no_engine_bodies() {
    let (mut world, mut schedule) = app();
    for i in 0..10_000 {
        let e = world
            .spawn((
                RigidBody::Dynamic,
                Collider::sphere(0.25),
                PhysicsTransform::from_xyz(i as f32 * 0.0, 10.0, 0.0),
            ))
            .id();
        frame(&mut world, &mut schedule);
        assert_eq!(world.resource::<PhysicsWorld>().0.body_count(), 1);
        world.despawn(e);
        frame(&mut world, &mut schedule);
        assert_eq!(world.resource::<PhysicsWorld>().0.body_count(), 0);
    }
    assert!(world.resource::<BodyMap>().is_empty());
}

#[test]
fn falling_body_follows_free_fall() {
    let (mut world, mut schedule) = app();
    let e = world
        .spawn((
            RigidBody::Dynamic,
            Collider::sphere(0.5),
            PhysicsTransform::from_xyz(0.0, 100.0, 0.0),
        ))
        .id();
    for _ in 0..60 {
        frame(&mut world, &mut schedule);
    }
    let v = world.get::<LinearVelocity>(e).unwrap().0;
    assert!((v.y + 9.81).abs() < 1e-3, "after 1 s of free fall v = {v}");
    assert!(world.get::<PhysicsTransform>(e).unwrap().translation.y < 100.0 - 4.8);
}

#[test]
fn changing_linear_velocity_takes_effect_on_the_next_step() {
    let (mut world, mut schedule) = app();
    let e = world
        .spawn((
            RigidBody::Dynamic,
            Collider::sphere(0.5),
            PhysicsTransform::from_xyz(0.0, 100.0, 0.0),
            GravityScale(0.0),
        ))
        .id();
    frame(&mut world, &mut schedule);
    let x0 = world.get::<PhysicsTransform>(e).unwrap().translation.x;
    world.get_mut::<LinearVelocity>(e).unwrap().0 = Vec3::new(6.0, 0.0, 0.0);
    frame(&mut world, &mut schedule);
    let x1 = world.get::<PhysicsTransform>(e).unwrap().translation.x;
    assert!(
        (x1 - x0 - 6.0 * DT).abs() < 1e-5,
        "moved {} in one step",
        x1 - x0
    );
    assert_eq!(world.get::<LinearVelocity>(e).unwrap().0.x, 6.0);
}

#[test]
fn impulses_apply_once_and_forces_every_step() {
    let (mut world, mut schedule) = app();
    let kicked = world
        .spawn((
            RigidBody::Dynamic,
            Collider::sphere(0.5),
            Mass(2.0),
            GravityScale(0.0),
            PhysicsTransform::from_xyz(0.0, 50.0, 0.0),
        ))
        .id();
    let pushed = world
        .spawn((
            RigidBody::Dynamic,
            Collider::sphere(0.5),
            Mass(2.0),
            GravityScale(0.0),
            PhysicsTransform::from_xyz(10.0, 50.0, 0.0),
            ExternalForce(Vec3::new(4.0, 0.0, 0.0)),
        ))
        .id();
    frame(&mut world, &mut schedule);
    world.get_mut::<ExternalImpulse>(kicked).unwrap().0 = Vec3::new(0.0, 0.0, 3.0);
    for _ in 0..10 {
        frame(&mut world, &mut schedule);
    }
    let vk = world.get::<LinearVelocity>(kicked).unwrap().0;
    assert!(
        (vk.z - 1.5).abs() < 1e-5,
        "3 N·s on 2 kg gives 1.5 m/s once: {vk}"
    );
    assert_eq!(world.get::<ExternalImpulse>(kicked).unwrap().0, Vec3::ZERO);
    let vp = world.get::<LinearVelocity>(pushed).unwrap().0;
    assert!(
        (vp.x - 2.0 * 11.0 * DT).abs() < 1e-4,
        "4 N on 2 kg for 11 steps: {vp}"
    );
}

#[test]
fn contact_messages_fire_once_per_touch() {
    let (mut world, mut schedule) = app();
    let floor = ground(&mut world);
    let ball = world
        .spawn((
            RigidBody::Dynamic,
            Collider::sphere(0.5),
            PhysicsTransform::from_xyz(0.0, 1.5, 0.0),
        ))
        .id();
    let mut started = Vec::new();
    for _ in 0..90 {
        frame(&mut world, &mut schedule);
        started.extend(drain::<ContactStarted>(&mut world));
        assert!(
            drain::<ContactEnded>(&mut world).is_empty(),
            "resting ball never leaves"
        );
    }
    assert_eq!(started.len(), 1, "one start: {started:?}");
    let s = started[0];
    let (a, b) = if floor < ball {
        (floor, ball)
    } else {
        (ball, floor)
    };
    assert_eq!((s.entity_a, s.entity_b), (a, b));
    assert!(s.impulse > 0.0);
    // Launch it: the contact ends once.
    world.get_mut::<LinearVelocity>(ball).unwrap().0 = Vec3::new(0.0, 8.0, 0.0);
    let mut ended = Vec::new();
    for _ in 0..20 {
        frame(&mut world, &mut schedule);
        ended.extend(drain::<ContactEnded>(&mut world));
        assert!(drain::<ContactStarted>(&mut world).is_empty());
    }
    assert_eq!(ended.len(), 1, "one end: {ended:?}");
    assert_eq!((ended[0].entity_a, ended[0].entity_b), (a, b));
}

#[test]
fn bad_entities_are_refused_and_the_rest_steps_on() {
    let (mut world, mut schedule) = app();
    let good = world
        .spawn((
            RigidBody::Dynamic,
            Collider::sphere(0.5),
            PhysicsTransform::from_xyz(0.0, 10.0, 0.0),
        ))
        .id();
    let nan_pose = world
        .spawn((
            RigidBody::Dynamic,
            Collider::sphere(0.5),
            PhysicsTransform::from_xyz(f32::NAN, 10.0, 0.0),
        ))
        .id();
    let negative_mass = world
        .spawn((RigidBody::Dynamic, Collider::sphere(0.5), Mass(-1.0)))
        .id();
    let degenerate = world
        .spawn((
            RigidBody::Dynamic,
            Collider::cuboid(Vec3::new(0.0, 1.0, 1.0)),
        ))
        .id();
    frame(&mut world, &mut schedule);
    let errors = drain::<PhysicsError>(&mut world);
    let named: Vec<_> = errors.iter().filter_map(|e| e.entity).collect();
    for bad in [nan_pose, negative_mass, degenerate] {
        assert!(named.contains(&bad), "{bad} named in {errors:?}");
        assert!(world.get::<PhysicsRejected>(bad).is_some());
    }
    assert_eq!(world.resource::<PhysicsWorld>().0.body_count(), 1);

    // A NaN velocity set later takes the entity out too, with a message.
    world.get_mut::<LinearVelocity>(good).unwrap().0 = Vec3::new(f32::NAN, 0.0, 0.0);
    frame(&mut world, &mut schedule);
    let errors = drain::<PhysicsError>(&mut world);
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].entity, Some(good));
    let other = world
        .spawn((
            RigidBody::Dynamic,
            Collider::sphere(0.5),
            PhysicsTransform::from_xyz(5.0, 10.0, 0.0),
        ))
        .id();
    for _ in 0..10 {
        frame(&mut world, &mut schedule);
    }
    let p = world.get::<PhysicsTransform>(other).unwrap().translation;
    assert!(
        p.is_finite() && p.y < 10.0,
        "the rest of the world steps on: {p}"
    );
}

#[test]
fn the_clock_takes_fixed_steps_and_reports_alpha() {
    let (mut world, mut schedule) = app();
    world.resource_mut::<PhysicsClock>().frame_delta = 2.5 * DT;
    schedule.run(&mut world);
    let clock = world.resource::<PhysicsClock>();
    assert_eq!(clock.steps_last_frame, 2);
    assert!((clock.alpha - 0.5).abs() < 1e-3, "alpha = {}", clock.alpha);
    world.resource_mut::<PhysicsClock>().frame_delta = 1.0;
    schedule.run(&mut world);
    let clock = world.resource::<PhysicsClock>();
    assert_eq!(clock.steps_last_frame, clock.max_steps_per_frame);
    assert!(
        clock.accumulator < DT,
        "a hitch is dropped, not carried over"
    );
    world.resource_mut::<PhysicsClock>().frame_delta = f32::NAN;
    schedule.run(&mut world);
    assert_eq!(world.resource::<PhysicsClock>().steps_last_frame, 0);
}

#[test]
fn changing_gravity_scale_takes_effect() {
    let (mut world, mut schedule) = app();
    let e = world
        .spawn((
            RigidBody::Dynamic,
            Collider::sphere(0.5),
            PhysicsTransform::from_xyz(0.0, 100.0, 0.0),
        ))
        .id();
    frame(&mut world, &mut schedule);
    world.get_mut::<GravityScale>(e).unwrap().0 = 0.0;
    let v0 = world.get::<LinearVelocity>(e).unwrap().0;
    for _ in 0..10 {
        frame(&mut world, &mut schedule);
    }
    assert_eq!(
        world.get::<LinearVelocity>(e).unwrap().0,
        v0,
        "no gravity: constant velocity"
    );
    world.get_mut::<GravityScale>(e).unwrap().0 = f32::NAN;
    frame(&mut world, &mut schedule);
    let errors = drain::<PhysicsError>(&mut world);
    assert_eq!(
        errors.len(),
        1,
        "a NaN gravity scale is refused: {errors:?}"
    );
}
