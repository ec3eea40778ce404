//! An ECS-driven run of a standard scene is bit-for-bit the plain `World` run.

use bevy_ecs::prelude::*;
use thud_ecs::prelude::*;
use thud_scene::instantiate::{build_world, kind_of, settings_of, shapes_of};

fn rigid_body(kind: thud_dynamics::BodyKind) -> RigidBody {
    match kind {
        thud_dynamics::BodyKind::Dynamic => RigidBody::Dynamic,
        thud_dynamics::BodyKind::Kinematic => RigidBody::Kinematic,
        thud_dynamics::BodyKind::Static => RigidBody::Static,
    }
}

#[test]
fn ecs_run_of_pyramid_20_is_bitwise_the_plain_world_run() {
    let scene = thud_scene::standard::standard("pyramid_20").expect("a standard scene");
    let steps = 120;

    let (mut plain, handles) = build_world(&scene.settings, &scene.bodies).expect("builds");
    for _ in 0..steps {
        plain.step().expect("steps");
    }

    let mut world = World::new();
    world.insert_resource(PhysicsWorld(thud_dynamics::World::new(settings_of(
        &scene.settings,
    ))));
    let mut schedule = Schedule::default();
    add_physics(&mut world, &mut schedule);
    let mut entities = Vec::new();
    for def in &scene.bodies {
        let parts = shapes_of(def).expect("shapes");
        assert_eq!(parts.len(), 1, "standard scene bodies have one shape");
        let (pose, shape) = parts.into_iter().next().expect("one part");
        let collider = thud_dynamics::Collider::new(shape)
            .friction(def.friction)
            .restitution(def.restitution)
            .density(def.density)
            .local_pose(pose);
        let mut e = world.spawn((
            rigid_body(kind_of(def.kind)),
            Collider(collider),
            PhysicsTransform {
                translation: def.position,
                rotation: def.rotation,
            },
            LinearVelocity(def.velocity),
            AngularVelocity(def.angular_velocity),
        ));
        if let Some(m) = def.mass {
            e.insert(Mass(m));
        }
        entities.push(e.id());
    }
    let dt = scene.settings.dt;
    for _ in 0..steps {
        world.resource_mut::<PhysicsClock>().frame_delta = dt;
        schedule.run(&mut world);
    }
    assert_eq!(world.resource::<PhysicsClock>().total_steps, steps);

    for (entity, handle) in entities.iter().zip(&handles) {
        let body = plain.body(*handle).expect("live");
        let pose = world.get::<PhysicsTransform>(*entity).expect("pose");
        let v = world.get::<LinearVelocity>(*entity).expect("velocity");
        let w = world.get::<AngularVelocity>(*entity).expect("spin");
        assert_eq!(
            pose.translation.to_array().map(f32::to_bits),
            body.position().to_array().map(f32::to_bits)
        );
        assert_eq!(
            pose.rotation.to_array().map(f32::to_bits),
            body.rotation().to_array().map(f32::to_bits)
        );
        assert_eq!(
            v.0.to_array().map(f32::to_bits),
            body.linear_velocity().to_array().map(f32::to_bits)
        );
        assert_eq!(
            w.0.to_array().map(f32::to_bits),
            body.angular_velocity().to_array().map(f32::to_bits)
        );
    }
}
