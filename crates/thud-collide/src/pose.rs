//! Rigid poses: a rotation followed by a translation.
//!
//! A [`Pose`] maps a point `p` of a shape's local frame to the world as
//! `x = R·p + t`, with `R` the unit quaternion `rotation` and `t` the `position`.
//! Composition follows the usual operator order: `(a.mul(b)).transform_point(p)`
//! equals `a.transform_point(b.transform_point(p))`, i.e. `b` is applied first
//! (a child pose `b` expressed in a parent frame `a`). The inverse is
//! `x ↦ Rᵀ·(x − t)`.
//!
//! The rotation is assumed to be a unit quaternion; the collision routines never
//! renormalise it, so callers integrating orientations should do so.

use glam::{Mat3, Quat, Vec3};

/// A rigid transform: rotate by `rotation`, then translate by `position`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    /// Translation in metres (the local origin's world position).
    pub position: Vec3,
    /// Unit quaternion taking local directions to world directions.
    pub rotation: Quat,
}

impl Default for Pose {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Pose {
    /// The identity transform.
    pub const IDENTITY: Pose = Pose {
        position: Vec3::ZERO,
        rotation: Quat::IDENTITY,
    };

    /// A pose from a translation and a rotation.
    #[must_use]
    pub const fn new(position: Vec3, rotation: Quat) -> Self {
        Self { position, rotation }
    }

    /// A pure translation.
    #[must_use]
    pub const fn from_translation(position: Vec3) -> Self {
        Self {
            position,
            rotation: Quat::IDENTITY,
        }
    }

    /// A pure rotation about the origin.
    #[must_use]
    pub const fn from_rotation(rotation: Quat) -> Self {
        Self {
            position: Vec3::ZERO,
            rotation,
        }
    }

    /// Local point to world: `R·p + t`.
    #[inline]
    #[must_use]
    pub fn transform_point(&self, p: Vec3) -> Vec3 {
        self.rotation * p + self.position
    }

    /// World point to local: `Rᵀ·(x − t)`.
    #[inline]
    #[must_use]
    pub fn inverse_transform_point(&self, x: Vec3) -> Vec3 {
        self.rotation.conjugate() * (x - self.position)
    }

    /// Local direction to world: `R·v`.
    #[inline]
    #[must_use]
    pub fn transform_vector(&self, v: Vec3) -> Vec3 {
        self.rotation * v
    }

    /// World direction to local: `Rᵀ·v`.
    #[inline]
    #[must_use]
    pub fn inverse_transform_vector(&self, v: Vec3) -> Vec3 {
        self.rotation.conjugate() * v
    }

    /// Composition `self ∘ rhs`: apply `rhs` first, then `self`.
    #[allow(clippy::should_implement_trait)]
    #[inline]
    #[must_use]
    pub fn mul(self, rhs: Pose) -> Pose {
        Pose {
            position: self.rotation * rhs.position + self.position,
            rotation: self.rotation * rhs.rotation,
        }
    }

    /// The inverse transform.
    #[inline]
    #[must_use]
    pub fn inverse(&self) -> Pose {
        let r = self.rotation.conjugate();
        Pose {
            position: -(r * self.position),
            rotation: r,
        }
    }

    /// `self⁻¹ ∘ rhs`: the pose of `rhs` expressed in this pose's frame.
    #[inline]
    #[must_use]
    pub fn inv_mul(&self, rhs: &Pose) -> Pose {
        let r = self.rotation.conjugate();
        Pose {
            position: r * (rhs.position - self.position),
            rotation: r * rhs.rotation,
        }
    }

    /// The rotation as a 3×3 matrix.
    #[inline]
    #[must_use]
    pub fn rotation_matrix(&self) -> Mat3 {
        Mat3::from_quat(self.rotation)
    }

    /// True when both parts are finite.
    #[must_use]
    pub fn is_finite(&self) -> bool {
        self.position.is_finite() && self.rotation.is_finite()
    }
}

impl std::ops::Mul for Pose {
    type Output = Pose;
    fn mul(self, rhs: Pose) -> Pose {
        Pose::mul(self, rhs)
    }
}

impl From<Vec3> for Pose {
    fn from(position: Vec3) -> Self {
        Self::from_translation(position)
    }
}

impl From<(Vec3, Quat)> for Pose {
    fn from((position, rotation): (Vec3, Quat)) -> Self {
        Self { position, rotation }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compose_and_invert() {
        let a = Pose::new(Vec3::new(1.0, 2.0, 3.0), Quat::from_rotation_y(0.7));
        let b = Pose::new(Vec3::new(-0.5, 0.1, 2.0), Quat::from_rotation_x(-1.1));
        let p = Vec3::new(0.3, -0.2, 0.9);
        let ab = a.mul(b);
        assert!((ab.transform_point(p) - a.transform_point(b.transform_point(p))).length() < 1e-5);
        assert!((a.inverse_transform_point(a.transform_point(p)) - p).length() < 1e-5);
        assert!((a.inverse().mul(a).position).length() < 1e-5);
        let rel = a.inv_mul(&ab);
        assert!((rel.position - b.position).length() < 1e-5);
    }
}
