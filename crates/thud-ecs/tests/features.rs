//! The optional integrations: the Bevy plugin and the `bevy_transform` conversions.
//! Run with `cargo test -p thud-ecs --all-features` (CI does).

#[cfg(feature = "bevy_app")]
#[test]
fn the_plugin_steps_once_per_fixed_tick() {
    use bevy_app::{App, FixedPostUpdate};
    use thud_ecs::prelude::*;

    let mut app = App::new();
    app.add_plugins(thud_ecs::ThudPlugin);
    let ball = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::sphere(0.5),
            PhysicsTransform::from_xyz(0.0, 10.0, 0.0),
        ))
        .id();
    for _ in 0..60 {
        app.world_mut().run_schedule(FixedPostUpdate);
    }
    assert_eq!(app.world().resource::<PhysicsClock>().total_steps, 60);
    let v = app.world().get::<LinearVelocity>(ball).map(|v| v.0.y);
    assert!(
        v.is_some_and(|v| (v + 9.81).abs() < 1e-3),
        "v after 1 s: {v:?}"
    );
}

#[cfg(feature = "bevy_transform")]
#[test]
fn transforms_convert_both_ways() {
    use bevy_transform::components::Transform;
    use glam::{Quat, Vec3};
    use thud_ecs::PhysicsTransform;

    let pose = PhysicsTransform::from_translation(Vec3::new(1.0, 2.0, 3.0))
        .with_rotation(Quat::from_rotation_y(0.7));
    let t: Transform = pose.into();
    assert_eq!(t.translation.to_array(), [1.0, 2.0, 3.0]);
    assert_eq!(t.scale.to_array(), [1.0, 1.0, 1.0]);
    let back: PhysicsTransform = t.into();
    assert_eq!(back, pose);
}
