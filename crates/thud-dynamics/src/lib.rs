//! # thud-dynamics
//!
//! Bodies, colliders, contacts, the Jacobian builder, the PGS solver, the integrator,
//! islands and sleeping, the exact (LCP) step mode and the step itself, built on the
//! math of `shared/reference/contact-lcp.md`.
//!
//! | module | what |
//! |---|---|
//! | [`world`] | [`World`] and its `step()`, which reads as the pipeline of [`Stage`]s |
//! | [`body`] | [`BodyHandle`], [`BodyBuilder`], [`Body`], the body set |
//! | `solver_body` | the dense awake state the solver reads |
//! | [`collider`], [`material`] | [`Collider`], [`Material`], combine rules |
//! | `contact` | the contact store built from thud-collide's `NarrowPhase` |
//! | `jacobian` | rows: 3×6 blocks, `T = M⁻¹Jᵀ`, `D`, `b̃ = b/D`, `J̃ = J/D` |
//! | `pgs` | the projected Gauss-Seidel / SOR row update |
//! | `color`, `wide` | graph colouring; the packed solver, four manifolds per SIMD lane |
//! | `lanes`, `wide_build` | four `Vec3`/`Mat3` per SIMD lane; rows built straight into the lanes |
//! | `parallel` | the packed sweeps on several threads, in the serial order's dependencies |
//! | `integrate` | semi-implicit Euler, gyroscopic term, damping |
//! | `island` | union-find islands, sleeping, waking |
//! | [`joint`] | [`JointBuilder`], [`Joint`]: ball, hinge, fixed, prismatic, distance rows |
//! | `exact` | island BLCP through thud-lcp, `export_lcp` |
//! | [`settings`], [`error`], [`stats`] | knobs, errors, per-stage timings |
//!
//! ```
//! use glam::Vec3;
//! use thud_dynamics::{BodyBuilder, Collider, World};
//!
//! let mut world = World::default();
//! world.add_body(BodyBuilder::fixed().collider(Collider::halfspace(Vec3::Y))).unwrap();
//! let ball = world
//!     .add_body(BodyBuilder::dynamic().position(Vec3::new(0.0, 2.0, 0.0)).collider(Collider::sphere(0.5)))
//!     .unwrap();
//! for _ in 0..120 {
//!     world.step().unwrap();
//! }
//! let y = world.body(ball).unwrap().position().y;
//! assert!((y - 0.5).abs() < 0.01, "{y}");
//! ```

pub mod body;
mod cold_start;
pub mod collider;
mod color;
mod contact;
pub mod error;
mod exact;
mod integrate;
mod island;
mod jacobian;
pub mod joint;
mod lanes;
pub mod material;
mod parallel;
mod pgs;
mod reuse;
pub mod settings;
mod solver_body;
pub mod stats;
mod wide;
mod wide_avx;
mod wide_build;
pub mod world;

pub use body::{Body, BodyBuilder, BodyHandle, BodyKind};
pub use collider::Collider;
pub use contact::{ContactPointView, ContactView};
pub use error::DynamicsError;
pub use joint::{Joint, JointBuilder, JointHandle, JointKind, Motor, Spring};
pub use material::{CombineRule, Material};
pub use settings::{PenetrationMode, Settings, SolverMode, SweepOrder};
pub use solver_body::Velocity;
pub use stats::{Stage, StepStats};
pub use thud_collide::{CollisionFilter, Pose, Shape};
pub use world::World;
