//! Components: what a game puts on an entity to make it a rigid body.
//!
//! A body is an entity with a [`RigidBody`] and one [`Collider`]. `RigidBody` requires
//! the rest ([`PhysicsTransform`], [`LinearVelocity`], [`AngularVelocity`],
//! [`ExternalForce`], [`ExternalImpulse`], [`GravityScale`], [`Sleeping`]) so a game can
//! spawn `(RigidBody::Dynamic, Collider::cuboid(..), PhysicsTransform::from_xyz(..))`
//! and get sensible defaults for everything else.
//!
//! The components are plain newtypes over glam values. They are the game's view of a
//! body: the `Prepare` systems copy what the game changed into the engine, the engine
//! steps on its own dense arrays, and the `Writeback` systems copy the result back. The
//! solver never iterates ECS queries.
//!
//! Units: metres, kilograms, seconds; velocities in m/s and rad/s, forces in N,
//! impulses in N·s.

use bevy_ecs::prelude::*;
use glam::{Quat, Vec3};
use thud_dynamics::BodyHandle;

/// How the engine moves a body.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[require(
    PhysicsTransform,
    LinearVelocity,
    AngularVelocity,
    ExternalForce,
    ExternalImpulse,
    GravityScale,
    Sleeping
)]
pub enum RigidBody {
    /// Moved by forces, gravity and contacts.
    #[default]
    Dynamic,
    /// Moved only by its velocity (set by the game); pushes dynamic bodies, is never pushed.
    Kinematic,
    /// Never moves (ground, walls, level geometry).
    Static,
}

impl RigidBody {
    /// The engine's body kind for this component.
    #[must_use]
    pub fn kind(self) -> thud_dynamics::BodyKind {
        match self {
            Self::Dynamic => thud_dynamics::BodyKind::Dynamic,
            Self::Kinematic => thud_dynamics::BodyKind::Kinematic,
            Self::Static => thud_dynamics::BodyKind::Static,
        }
    }
}

/// The body's collision shape and material (friction, restitution, density).
///
/// A thin wrapper over the engine's [`thud_dynamics::Collider`]; build it with the
/// same shortcuts: `Collider::cuboid(Vec3::splat(0.5)).friction(0.6)`.
#[derive(Component, Clone, Debug)]
pub struct Collider(pub thud_dynamics::Collider);

impl Collider {
    /// A box with the given half-extents (m).
    #[must_use]
    pub fn cuboid(half_extents: Vec3) -> Self {
        Self(thud_dynamics::Collider::cuboid(half_extents))
    }
    /// A sphere of the given radius (m).
    #[must_use]
    pub fn sphere(radius: f32) -> Self {
        Self(thud_dynamics::Collider::sphere(radius))
    }
    /// A capsule along local +y: half the segment length and the radius (m).
    #[must_use]
    pub fn capsule(half_height: f32, radius: f32) -> Self {
        Self(thud_dynamics::Collider::capsule(half_height, radius))
    }
    /// A cylinder along local +y: half its height and its radius (m).
    #[must_use]
    pub fn cylinder(half_height: f32, radius: f32) -> Self {
        Self(thud_dynamics::Collider::cylinder(half_height, radius))
    }
    /// An infinite plane through the body's origin with the given outward normal.
    #[must_use]
    pub fn halfspace(normal: Vec3) -> Self {
        Self(thud_dynamics::Collider::halfspace(normal))
    }
    /// Sets the friction coefficient μ.
    #[must_use]
    pub fn friction(self, friction: f32) -> Self {
        Self(self.0.friction(friction))
    }
    /// Sets the restitution coefficient e.
    #[must_use]
    pub fn restitution(self, restitution: f32) -> Self {
        Self(self.0.restitution(restitution))
    }
    /// Sets the density (kg/m³) the body's mass is computed from.
    #[must_use]
    pub fn density(self, density: f32) -> Self {
        Self(self.0.density(density))
    }
}

/// The body's pose: position of its origin (m) and orientation.
///
/// thud's own transform type, so a plain bevy_ecs game needs no `bevy_transform`.
/// With the `bevy_transform` feature, `From` conversions to and from
/// `bevy_transform::components::Transform` exist (scale is dropped on the way in and is
/// one on the way out: rigid bodies do not scale).
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct PhysicsTransform {
    /// Position of the body's origin in world space (m).
    pub translation: Vec3,
    /// Orientation (unit quaternion).
    pub rotation: Quat,
}

impl Default for PhysicsTransform {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl PhysicsTransform {
    /// The origin, not rotated.
    pub const IDENTITY: Self = Self {
        translation: Vec3::ZERO,
        rotation: Quat::IDENTITY,
    };

    /// A pose at `(x, y, z)`, not rotated.
    #[must_use]
    pub const fn from_xyz(x: f32, y: f32, z: f32) -> Self {
        Self::from_translation(Vec3::new(x, y, z))
    }

    /// A pose at `translation`, not rotated.
    #[must_use]
    pub const fn from_translation(translation: Vec3) -> Self {
        Self {
            translation,
            rotation: Quat::IDENTITY,
        }
    }

    /// The same pose with another orientation.
    #[must_use]
    pub const fn with_rotation(mut self, rotation: Quat) -> Self {
        self.rotation = rotation;
        self
    }
}

#[cfg(feature = "bevy_transform")]
mod bevy_transform_conversions {
    use super::PhysicsTransform;
    use bevy_transform::components::Transform;

    impl From<Transform> for PhysicsTransform {
        fn from(t: Transform) -> Self {
            let p = t.translation.to_array();
            let q = t.rotation.to_array();
            Self {
                translation: glam::Vec3::from_array(p),
                rotation: glam::Quat::from_array(q),
            }
        }
    }

    impl From<PhysicsTransform> for Transform {
        fn from(t: PhysicsTransform) -> Self {
            let mut out = Transform::IDENTITY;
            // Through arrays: bevy's math types may be another glam version than ours.
            out.translation = t.translation.to_array().into();
            let [x, y, z, w] = t.rotation.to_array();
            out.rotation = bevy_transform::components::Transform::IDENTITY.rotation;
            (
                out.rotation.x,
                out.rotation.y,
                out.rotation.z,
                out.rotation.w,
            ) = (x, y, z, w);
            out
        }
    }
}

/// Linear velocity of the centre of mass (m/s). Write it to set the body's velocity.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
pub struct LinearVelocity(pub Vec3);

/// Angular velocity (rad/s, world axes). Write it to set the body's spin.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
pub struct AngularVelocity(pub Vec3);

/// A force (N) at the centre of mass, applied on every step until the game changes it.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
pub struct ExternalForce(pub Vec3);

/// An impulse (N·s) at the centre of mass, applied once at the next step and then
/// reset to zero.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
pub struct ExternalImpulse(pub Vec3);

/// Overrides the mass (kg) computed from the collider's density; inertia scales with it.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Mass(pub f32);

/// Overrides the collider's density (kg/m³).
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Density(pub f32);

/// Multiplies gravity for this body (1 = normal, 0 = floats).
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct GravityScale(pub f32);

impl Default for GravityScale {
    fn default() -> Self {
        Self(1.0)
    }
}

/// Whether the engine has put the body to sleep (written back each frame; read-only
/// for the game: change a velocity or apply a force to wake it).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sleeping(pub bool);

/// The engine body behind an entity, with the values last exchanged with the engine.
///
/// Inserted by the `Prepare` systems. Writeback records what it wrote, so `Prepare` can
/// tell a game's change from its own and push only real changes.
#[derive(Component, Clone, Copy, Debug)]
pub struct PhysicsBody {
    /// The engine's handle of this entity's body.
    pub handle: BodyHandle,
    pub(crate) synced_transform: PhysicsTransform,
    pub(crate) synced_linear: Vec3,
    pub(crate) synced_angular: Vec3,
}

/// Marks an entity whose physics data was refused (see the `PhysicsError` message);
/// it is not simulated until its `RigidBody` is inserted again.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct PhysicsRejected;
