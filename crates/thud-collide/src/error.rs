//! Typed errors of shape construction and mass computation.
//!
//! Every constructor of [`crate::Shape`] validates its input and returns one of
//! these instead of panicking or producing a shape that would later yield NaN.

use thiserror::Error;

/// Why a shape could not be built or a mass computed.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum ShapeError {
    /// A size parameter (radius, half extent, half height) was zero, negative or not finite.
    #[error("invalid {what}: {value} (must be finite and > 0)")]
    InvalidSize {
        /// Which parameter.
        what: &'static str,
        /// The value given.
        value: f32,
    },
    /// A vector (normal, point, pose) had a non-finite component.
    #[error("non-finite {what}")]
    NonFinite {
        /// Which input.
        what: &'static str,
    },
    /// A half-space normal had (nearly) zero length.
    #[error("half-space normal has zero length")]
    ZeroNormal,
    /// A convex hull needs at least 4 points that are not all coplanar.
    #[error("convex hull needs at least 4 non-coplanar points (got {points} points)")]
    DegenerateHull {
        /// How many points were given.
        points: usize,
    },
    /// A compound had no children.
    #[error("compound has no children")]
    EmptyCompound,
    /// A compound child was not a convex primitive or hull.
    #[error(
        "compound child {index} must be a convex shape (sphere, cuboid, capsule, cylinder or hull)"
    )]
    InvalidCompoundChild {
        /// Index of the offending child.
        index: usize,
    },
    /// A triangle mesh had no triangles, or an index out of range.
    #[error("invalid triangle mesh: {reason}")]
    InvalidMesh {
        /// What is wrong.
        reason: String,
    },
    /// The density was zero, negative or not finite.
    #[error("invalid density {0} (must be finite and > 0)")]
    InvalidDensity(f32),
    /// Half-spaces and triangle meshes have no finite mass (they are for static bodies).
    #[error("{0} has no finite mass")]
    NoFiniteMass(&'static str),
}
