//! The primitive shapes: sphere, cuboid, capsule, cylinder and half-space.
//!
//! Each is a small validated value type whose fields are private, so a shape
//! that exists is always valid (finite, positive sizes; unit half-space normal).
//! All are centred on their local origin; capsule and cylinder run along local
//! +y. A capsule is the set of points within `radius` of the segment
//! `[(0, −h, 0), (0, h, 0)]` (its "core"); a cylinder is the set
//! `{ |y| ≤ h, x² + z² ≤ r² }`; a half-space with outward normal `n` is the solid
//! `{ x : n·x ≤ 0 }` (the plane through the local origin, solid below).

use glam::Vec3;

use crate::ShapeError;

pub(crate) fn check_size(what: &'static str, value: f32) -> Result<f32, ShapeError> {
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(ShapeError::InvalidSize { what, value })
    }
}

/// A ball of the given radius.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sphere {
    radius: f32,
}

impl Sphere {
    /// A sphere; the radius must be finite and positive.
    pub fn new(radius: f32) -> Result<Self, ShapeError> {
        Ok(Self {
            radius: check_size("sphere radius", radius)?,
        })
    }
    /// Radius in metres.
    #[must_use]
    pub fn radius(&self) -> f32 {
        self.radius
    }
}

/// A box with the given half extents.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cuboid {
    half_extents: Vec3,
}

impl Cuboid {
    /// A cuboid; every half extent must be finite and positive.
    pub fn new(half_extents: Vec3) -> Result<Self, ShapeError> {
        check_size("cuboid half extent x", half_extents.x)?;
        check_size("cuboid half extent y", half_extents.y)?;
        check_size("cuboid half extent z", half_extents.z)?;
        Ok(Self { half_extents })
    }
    /// Half extents in metres.
    #[must_use]
    pub fn half_extents(&self) -> Vec3 {
        self.half_extents
    }
}

/// A capsule along local +y: a segment of half length `half_height`, swept by a ball.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Capsule {
    half_height: f32,
    radius: f32,
}

impl Capsule {
    /// A capsule; both sizes must be finite and positive.
    pub fn new(half_height: f32, radius: f32) -> Result<Self, ShapeError> {
        Ok(Self {
            half_height: check_size("capsule half height", half_height)?,
            radius: check_size("capsule radius", radius)?,
        })
    }
    /// Half length of the core segment (metres).
    #[must_use]
    pub fn half_height(&self) -> f32 {
        self.half_height
    }
    /// Radius (metres).
    #[must_use]
    pub fn radius(&self) -> f32 {
        self.radius
    }
    /// The core segment's end points `(0, ∓h, 0)`.
    #[must_use]
    pub fn segment(&self) -> [Vec3; 2] {
        [
            Vec3::new(0.0, -self.half_height, 0.0),
            Vec3::new(0.0, self.half_height, 0.0),
        ]
    }
}

/// A solid cylinder along local +y.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cylinder {
    half_height: f32,
    radius: f32,
}

impl Cylinder {
    /// A cylinder; both sizes must be finite and positive.
    pub fn new(half_height: f32, radius: f32) -> Result<Self, ShapeError> {
        Ok(Self {
            half_height: check_size("cylinder half height", half_height)?,
            radius: check_size("cylinder radius", radius)?,
        })
    }
    /// Half height (metres).
    #[must_use]
    pub fn half_height(&self) -> f32 {
        self.half_height
    }
    /// Radius (metres).
    #[must_use]
    pub fn radius(&self) -> f32 {
        self.radius
    }
}

/// The solid below a plane through the local origin.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Halfspace {
    normal: Vec3,
}

impl Halfspace {
    /// A half-space with the given outward normal (normalised here; must be non-zero and finite).
    pub fn new(normal: Vec3) -> Result<Self, ShapeError> {
        if !normal.is_finite() {
            return Err(ShapeError::NonFinite {
                what: "half-space normal",
            });
        }
        let len = normal.length();
        if len.is_nan() || len <= 1e-12 {
            return Err(ShapeError::ZeroNormal);
        }
        Ok(Self {
            normal: normal / len,
        })
    }
    /// Outward unit normal in the local frame.
    #[must_use]
    pub fn normal(&self) -> Vec3 {
        self.normal
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation() {
        assert!(Sphere::new(0.0).is_err());
        assert!(Sphere::new(f32::NAN).is_err());
        assert!(Cuboid::new(Vec3::new(1.0, -1.0, 1.0)).is_err());
        assert!(Capsule::new(1.0, f32::INFINITY).is_err());
        assert!(Cylinder::new(0.5, 0.5).is_ok());
        assert_eq!(Halfspace::new(Vec3::ZERO), Err(ShapeError::ZeroNormal));
        assert!(
            (Halfspace::new(Vec3::new(0.0, 3.0, 0.0)).unwrap().normal() - Vec3::Y).length() < 1e-6
        );
    }
}
