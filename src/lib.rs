//! # thud
//!
//! Real-time rigid-body contact physics for games: boxes, spheres, capsules, cylinders,
//! hulls and meshes that stack, slide, tumble and come to rest, stepped by a projected
//! Gauss–Seidel contact solver (or an exact LCP solve, for the few islands that need it).
//!
//! This crate is the facade: `use thud::prelude::*;` brings in everything a game needs.
//!
//! | module | what |
//! |---|---|
//! | [`prelude`] | [`World`](prelude::World), [`BodyBuilder`](prelude::BodyBuilder), [`Collider`](prelude::Collider), [`Shape`](prelude::Shape), [`Material`](prelude::Material), [`Settings`](prelude::Settings), handles, glam types |
//! | [`dynamics`] | the engine (`thud-dynamics`): bodies, contacts, the solver, the step |
//! | [`collide`] | shapes and collision detection (`thud-collide`) |
//! | [`lcp`] | dense LCP solvers (`thud-lcp`) |
//! | [`scene`] | RON scenes, standard scenes, metrics, the software renderer (`thud-scene`) |
//!
//! ```
//! use thud::prelude::*;
//!
//! let mut world = World::new(Settings::default());
//! // The ground: a static box whose top face is y = 0.
//! world.add_body(
//!     BodyBuilder::fixed()
//!         .position(Vec3::new(0.0, -0.5, 0.0))
//!         .collider(Collider::cuboid(Vec3::new(50.0, 0.5, 50.0))),
//! )?;
//! // A crate dropped from 2 m.
//! let crate_ = world.add_body(
//!     BodyBuilder::dynamic()
//!         .position(Vec3::new(0.0, 2.0, 0.0))
//!         .collider(Collider::cuboid(Vec3::splat(0.5)).friction(0.6)),
//! )?;
//! for _ in 0..120 {
//!     world.step()?; // 1/60 s each
//! }
//! let y = world.body(crate_)?.position().y;
//! assert!((y - 0.5).abs() < 0.05, "the crate rests on the ground: y = {y}");
//! # Ok::<(), DynamicsError>(())
//! ```
//!
//! The `thud` command-line tool (this package's binary) runs scene files:
//! `thud list`, `thud run pyramid_20 --render gif --out out/`, `thud check scene.ron`
//! (see `docs/cli.md`).

pub mod demos;

pub use thud_collide as collide;
pub use thud_dynamics as dynamics;
pub use thud_lcp as lcp;
pub use thud_scene as scene;

/// Everything a game needs: `use thud::prelude::*;`.
///
/// ```
/// use thud::prelude::*;
///
/// let mut world = World::default();
/// let ball = world.add_body(
///     BodyBuilder::dynamic()
///         .position(Vec3::new(0.0, 10.0, 0.0))
///         .linear_velocity(Vec3::new(1.0, 0.0, 0.0))
///         .collider(Collider::sphere(0.25).restitution(0.5).density(2.0)),
/// )?;
/// world.step()?;
/// let body = world.body(ball)?;
/// assert!(body.position().y < 10.0); // falling
/// assert_eq!(body.kind(), BodyKind::Dynamic);
/// # Ok::<(), DynamicsError>(())
/// ```
pub mod prelude {
    pub use glam::{EulerRot, Mat3, Quat, Vec3};
    pub use thud_collide::{CollisionFilter, Pose, Shape, ShapeError};
    pub use thud_dynamics::{
        Body, BodyBuilder, BodyHandle, BodyKind, Collider, ContactView, DynamicsError, Joint,
        JointBuilder, JointHandle, JointKind, Material, Motor, Settings, SolverMode, Spring, Stage,
        StepStats, World,
    };
}
