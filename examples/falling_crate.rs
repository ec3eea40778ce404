//! The README's game-loop example, runnable: `cargo run --example falling_crate`.
//!
//! A crate falls from 3 m onto the ground; each frame prints its height, as a game
//! would hand the pose to its renderer.

use thud::prelude::*;

fn main() -> Result<(), DynamicsError> {
    let mut world = World::new(Settings::default()); // dt = 1/60 s, gravity −9.81 m/s² in y
    world.add_body(BodyBuilder::fixed().collider(Collider::halfspace(Vec3::Y)))?;
    let crate_ = world.add_body(
        BodyBuilder::dynamic()
            .position(Vec3::new(0.0, 3.0, 0.0))
            .collider(Collider::cuboid(Vec3::splat(0.5)).friction(0.6)),
    )?;
    for frame in 0..120 {
        world.step()?;
        let body = world.body(crate_)?;
        if frame % 10 == 0 {
            println!(
                "frame {frame:3}: y = {:.3} m, asleep: {}",
                body.position().y,
                body.is_sleeping()
            );
        }
    }
    Ok(())
}
