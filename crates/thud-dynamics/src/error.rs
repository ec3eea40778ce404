//! Typed errors of the dynamics crate.
//!
//! Every fallible entry point (`World::add_body`, the setters, `World::step`) validates
//! its input *before* touching the world: when an error is returned the world is exactly
//! as it was. The world never produces a non-finite number from valid input, so there is
//! no "simulation blew up" error: a NaN can only come in through a setter, and the setters
//! refuse it.

use thiserror::Error;

/// What went wrong in a call into the dynamics world.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum DynamicsError {
    /// The handle does not name a live body (removed, or from another world).
    #[error("invalid body handle {0:?}")]
    InvalidHandle(crate::BodyHandle),
    /// The handle does not name a live joint (removed, or from another world).
    #[error("invalid joint handle {0:?}")]
    InvalidJointHandle(crate::JointHandle),
    /// A joint that cannot be built: a body joined to itself, limits with min > max, a
    /// zero axis, ...
    #[error("invalid joint: {0}")]
    InvalidJoint(String),
    /// A value that must be finite was NaN or infinite.
    #[error("non-finite value for {what}")]
    NonFinite {
        /// Which input was non-finite.
        what: &'static str,
    },
    /// A dynamic body's mass was zero or negative (explicitly, or from its colliders).
    #[error("a dynamic body needs a positive finite mass, got {mass}")]
    InvalidMass {
        /// The offending mass in kg.
        mass: f32,
    },
    /// A time step that is zero, negative or non-finite.
    #[error("time step must be positive and finite, got {dt}")]
    InvalidTimeStep {
        /// The offending step in seconds.
        dt: f32,
    },
    /// A parameter outside its documented range (damping < 0, friction < 0, ...).
    #[error("{what} out of range: {value}")]
    OutOfRange {
        /// Which parameter.
        what: &'static str,
        /// Its value.
        value: f32,
    },
    /// A collider's shape could not be built or has no mass where one is needed.
    #[error("collider shape: {0}")]
    Shape(String),
    /// The exact solver failed on an island (the PGS answer was kept instead).
    #[error("exact LCP solve failed: {0}")]
    Exact(String),
    /// Writing an exported LCP failed.
    #[error("export failed: {0}")]
    Export(String),
}

/// Check that every component is finite.
pub(crate) fn finite3(v: glam::Vec3, what: &'static str) -> Result<(), DynamicsError> {
    if v.is_finite() {
        Ok(())
    } else {
        Err(DynamicsError::NonFinite { what })
    }
}

/// Check that a scalar is finite.
pub(crate) fn finite1(v: f32, what: &'static str) -> Result<(), DynamicsError> {
    if v.is_finite() {
        Ok(())
    } else {
        Err(DynamicsError::NonFinite { what })
    }
}

/// Check that a scalar is finite and `>= 0`.
pub(crate) fn non_negative(v: f32, what: &'static str) -> Result<(), DynamicsError> {
    finite1(v, what)?;
    if v >= 0.0 {
        Ok(())
    } else {
        Err(DynamicsError::OutOfRange { what, value: v })
    }
}
