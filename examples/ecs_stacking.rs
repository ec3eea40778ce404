//! A standard stack driven by a bevy_ecs schedule: `tower_20` (20 unit boxes) for 10 s.
//!
//! Run: `cargo run --release --example ecs_stacking`. It prints the top box's height
//! once a second; a stiff stack keeps it at 19.5 m (sag below a centimetre).

mod common;

use bevy_ecs::prelude::*;
use thud_ecs::prelude::*;

fn main() {
    let scene = thud_scene::standard::standard("tower_20").expect("a standard scene");
    let mut world = World::new();
    world.insert_resource(PhysicsWorld(thud_dynamics::World::new(
        thud_scene::instantiate::settings_of(&scene.settings),
    )));
    let mut schedule = Schedule::default();
    add_physics(&mut world, &mut schedule);
    let bodies = common::spawn_bodies(&mut world, &scene.bodies);
    let top = *bodies.last().expect("the tower has boxes");
    let ideal = thud_scene::standard::ideal_top(&scene).map_or(19.5, |(_, y)| y);

    let dt = scene.settings.dt;
    for frame in 1..=600 {
        world.resource_mut::<PhysicsClock>().frame_delta = dt;
        schedule.run(&mut world);
        if frame % 60 == 0 {
            let y = world
                .get::<PhysicsTransform>(top)
                .map_or(f32::NAN, |p| p.translation.y);
            println!(
                "t = {:4.1} s  top y = {y:.4} m  sag = {:.2} mm",
                frame as f32 * dt,
                (ideal - y) * 1000.0
            );
        }
    }
}
