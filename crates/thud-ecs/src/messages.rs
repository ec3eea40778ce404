//! Messages the physics systems write: contact starts and ends, and refused data.
//!
//! Contact messages come from the engine's contact store after each step. A pair of
//! entities *touches* when one of its contact points carries a positive normal
//! impulse or is penetrating; a speculative contact (a gap still inside the margin)
//! does not count. `ContactStarted` is written once when a pair starts touching, and
//! `ContactEnded` once when it stops (or when one of the two is removed). Messages of
//! a frame are written in ascending entity-pair order, so they are deterministic.

use bevy_ecs::prelude::*;
use glam::Vec3;

/// Two entities started touching.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct ContactStarted {
    /// The first entity (the smaller of the two).
    pub entity_a: Entity,
    /// The second entity.
    pub entity_b: Entity,
    /// Contact normal in world space, pointing from `entity_a` to `entity_b`.
    pub normal: Vec3,
    /// Total normal impulse of the pair in the step it started (N·s).
    pub impulse: f32,
}

/// Two entities stopped touching.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct ContactEnded {
    /// The first entity (the smaller of the two).
    pub entity_a: Entity,
    /// The second entity.
    pub entity_b: Entity,
    /// The last known contact normal, pointing from `entity_a` to `entity_b`.
    pub normal: Vec3,
    /// The last known total normal impulse of the pair (N·s).
    pub impulse: f32,
}

/// Physics data that was refused. The entity is not simulated (it gets a
/// `PhysicsRejected` marker) and the rest of the world steps on.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct PhysicsError {
    /// The entity whose data was refused; `None` for a world-level problem (such as a
    /// bad time step).
    pub entity: Option<Entity>,
    /// What was wrong, in words.
    pub message: String,
}
