//! The timeline: events at given times.
//!
//! An [`Event`] fires once, at the first step whose start time `t` satisfies
//! `t ≥ at − dt/2` (so `at: 1.0` fires before the step that starts at one second;
//! `at: 0` fires before the first step). Events at the same time fire in file order.
//! A `Force` lasts `duration` seconds (at least one step): it is added before every
//! step that starts in `[at, at + duration)`.
//!
//! Body names in events are checked when the scene is loaded: a name must be a body
//! of the scene, or be spawned by an earlier event, and not be removed before.

use glam::Vec3;
use serde::{Deserialize, Serialize};

use crate::pattern::Pattern;
use crate::schema::BodyDef;

/// Something that happens at a given time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Event {
    /// Time, seconds from the start.
    pub at: f32,
    /// What happens.
    pub action: Action,
}

/// What an [`Event`] does.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Action {
    /// Add a body.
    Spawn(BodyDef),
    /// Add the bodies of a pattern.
    SpawnPattern(Pattern),
    /// Apply an impulse (N·s), at the centre of mass or at a world point.
    Impulse {
        /// Body name.
        body: String,
        /// Impulse, N·s.
        impulse: Vec3,
        /// World point of application; the centre of mass when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        point: Option<Vec3>,
    },
    /// Push with a force (N) at the centre of mass for a while.
    Force {
        /// Body name.
        body: String,
        /// Force, N.
        force: Vec3,
        /// How long, seconds (at least one step).
        #[serde(default)]
        duration: f32,
    },
    /// Set a body's velocity.
    SetVelocity {
        /// Body name.
        body: String,
        /// New linear velocity, m/s (unchanged when absent).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        linear: Option<Vec3>,
        /// New angular velocity, rad/s (unchanged when absent).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        angular: Option<Vec3>,
    },
    /// Make a body kinematic, optionally giving it a velocity it then keeps.
    MakeKinematic {
        /// Body name.
        body: String,
        /// Linear velocity the body moves with.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        velocity: Option<Vec3>,
    },
    /// Make a body dynamic again.
    MakeDynamic {
        /// Body name.
        body: String,
    },
    /// Remove a body from the world.
    Remove {
        /// Body name.
        body: String,
    },
    /// Change gravity.
    SetGravity {
        /// New gravity, m/s².
        gravity: Vec3,
    },
}

impl Action {
    /// The existing body the action refers to, if any.
    #[must_use]
    pub fn target(&self) -> Option<&str> {
        match self {
            Action::Impulse { body, .. }
            | Action::Force { body, .. }
            | Action::SetVelocity { body, .. }
            | Action::MakeKinematic { body, .. }
            | Action::MakeDynamic { body }
            | Action::Remove { body } => Some(body),
            Action::Spawn(_) | Action::SpawnPattern(_) | Action::SetGravity { .. } => None,
        }
    }

    /// A short name of the action, for messages.
    #[must_use]
    pub fn label(&self) -> &'static str {
        match self {
            Action::Spawn(_) => "Spawn",
            Action::SpawnPattern(_) => "SpawnPattern",
            Action::Impulse { .. } => "Impulse",
            Action::Force { .. } => "Force",
            Action::SetVelocity { .. } => "SetVelocity",
            Action::MakeKinematic { .. } => "MakeKinematic",
            Action::MakeDynamic { .. } => "MakeDynamic",
            Action::Remove { .. } => "Remove",
            Action::SetGravity { .. } => "SetGravity",
        }
    }
}
