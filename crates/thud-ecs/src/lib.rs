//! # thud-ecs: drive thud from a bevy_ecs schedule
//!
//! A game adds physics to its bevy_ecs world in a few lines, spawns bodies as entities,
//! reads contact events as messages, and gets exactly the simulation the plain
//! [`thud_dynamics::World`] API gives: same bodies in the same order, same steps, the
//! same bits.
//!
//! | module | what |
//! |---|---|
//! | [`components`] | `RigidBody`, `Collider`, `PhysicsTransform`, velocities, forces, impulses, mass overrides, `Sleeping` |
//! | [`resources`] | `PhysicsWorld`, the fixed-timestep `PhysicsClock`, `BodyMap` |
//! | [`systems`] | the `PhysicsSystems::{Prepare, Step, Writeback}` sets and their systems |
//! | [`messages`] | `ContactStarted`, `ContactEnded`, `PhysicsError` |
//! | [`plugin`] | `add_physics` for plain bevy_ecs, `ThudPlugin` for Bevy apps (feature `bevy_app`) |
//!
//! ```
//! use bevy_ecs::prelude::*;
//! use glam::Vec3;
//! use thud_ecs::prelude::*;
//!
//! let mut world = World::new();
//! let mut schedule = Schedule::default();
//! add_physics(&mut world, &mut schedule);
//!
//! world.spawn((RigidBody::Static, Collider::halfspace(Vec3::Y)));
//! let ball = world
//!     .spawn((RigidBody::Dynamic, Collider::sphere(0.5), PhysicsTransform::from_xyz(0.0, 3.0, 0.0)))
//!     .id();
//! for _ in 0..60 {
//!     world.resource_mut::<PhysicsClock>().frame_delta = 1.0 / 60.0;
//!     schedule.run(&mut world);
//! }
//! let y = world.get::<PhysicsTransform>(ball).unwrap().translation.y;
//! assert!(y < 3.0 && y > 0.4, "the ball fell and rests on the ground: y = {y}");
//! ```

pub mod components;
pub mod messages;
pub mod plugin;
pub mod resources;
pub mod systems;

pub use components::{
    AngularVelocity, Collider, Density, ExternalForce, ExternalImpulse, GravityScale,
    LinearVelocity, Mass, PhysicsBody, PhysicsRejected, PhysicsTransform, RigidBody, Sleeping,
};
pub use messages::{ContactEnded, ContactStarted, PhysicsError};
#[cfg(feature = "bevy_app")]
pub use plugin::ThudPlugin;
pub use plugin::{add_physics, add_physics_systems, init_physics_resources};
pub use resources::{BodyMap, PhysicsClock, PhysicsWorld, StepMode};
pub use systems::PhysicsSystems;

/// Everything a game needs: `use thud_ecs::prelude::*;`.
pub mod prelude {
    pub use crate::{
        AngularVelocity, BodyMap, Collider, ContactEnded, ContactStarted, Density, ExternalForce,
        ExternalImpulse, GravityScale, LinearVelocity, Mass, PhysicsBody, PhysicsClock,
        PhysicsError, PhysicsRejected, PhysicsSystems, PhysicsTransform, PhysicsWorld, RigidBody,
        Sleeping, StepMode, add_physics,
    };
}
