//! Axis-aligned bounding boxes.
//!
//! An [`Aabb`] is the box `[min, max]` in world space. Shapes compute a tight
//! box for a pose ([`crate::Shape::aabb`]); the caller widens it by the contact
//! margin ([`Aabb::expanded`]) before handing it to the broadphase, so that pairs
//! within the margin produce speculative contacts. Infinite shapes (half-spaces)
//! use [`HUGE`] instead of infinity so that sums and perimeters stay finite.
//!
//! For a box with half extents `h` rotated by `R`, the world half extents are
//! `|R|·h` (element-wise absolute rotation matrix), the tightest axis-aligned
//! box of the rotated box.

use glam::{Mat3, Vec3};

/// Stand-in for infinity in bounding boxes of unbounded shapes (metres).
pub const HUGE: f32 = 1.0e18;

/// An axis-aligned box `[min, max]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    /// Lower corner.
    pub min: Vec3,
    /// Upper corner.
    pub max: Vec3,
}

impl Aabb {
    /// The empty box (min = +HUGE, max = −HUGE); the identity of [`Aabb::union`].
    pub const EMPTY: Aabb = Aabb {
        min: Vec3::splat(HUGE),
        max: Vec3::splat(-HUGE),
    };

    /// A box from its corners.
    #[must_use]
    pub const fn new(min: Vec3, max: Vec3) -> Self {
        Self { min, max }
    }

    /// A box from its centre and half extents.
    #[must_use]
    pub fn from_center_half_extents(center: Vec3, half: Vec3) -> Self {
        Self {
            min: center - half,
            max: center + half,
        }
    }

    /// The smallest box holding all `points` ([`Aabb::EMPTY`] for none).
    #[must_use]
    pub fn from_points(points: &[Vec3]) -> Self {
        points.iter().fold(Self::EMPTY, |b, &p| Self {
            min: b.min.min(p),
            max: b.max.max(p),
        })
    }

    /// The box of a rotated box: centre `c`, rotation `r`, local half extents `h`.
    #[must_use]
    pub fn from_rotated_box(c: Vec3, r: &Mat3, h: Vec3) -> Self {
        let e = Vec3::new(
            r.x_axis.x.abs() * h.x + r.y_axis.x.abs() * h.y + r.z_axis.x.abs() * h.z,
            r.x_axis.y.abs() * h.x + r.y_axis.y.abs() * h.y + r.z_axis.y.abs() * h.z,
            r.x_axis.z.abs() * h.x + r.y_axis.z.abs() * h.y + r.z_axis.z.abs() * h.z,
        );
        Self::from_center_half_extents(c, e)
    }

    /// Whether the two (closed) boxes overlap.
    #[inline]
    #[must_use]
    pub fn overlaps(&self, other: &Aabb) -> bool {
        // All six comparisons, joined without short-circuits: one branch for the
        // caller instead of up to six, which a tree query or a pair list mispredicts.
        (self.min.x <= other.max.x)
            & (other.min.x <= self.max.x)
            & (self.min.y <= other.max.y)
            & (other.min.y <= self.max.y)
            & (self.min.z <= other.max.z)
            & (other.min.z <= self.max.z)
    }

    /// Whether `other` lies inside this box.
    #[inline]
    #[must_use]
    pub fn contains(&self, other: &Aabb) -> bool {
        self.min.cmple(other.min).all() && other.max.cmple(self.max).all()
    }

    /// Whether the point lies inside the box.
    #[inline]
    #[must_use]
    pub fn contains_point(&self, p: Vec3) -> bool {
        self.min.cmple(p).all() && p.cmple(self.max).all()
    }

    /// The box grown by `margin` on every side.
    #[inline]
    #[must_use]
    pub fn expanded(&self, margin: f32) -> Self {
        Self {
            min: self.min - Vec3::splat(margin),
            max: self.max + Vec3::splat(margin),
        }
    }

    /// The smallest box holding both.
    #[inline]
    #[must_use]
    pub fn union(&self, other: &Aabb) -> Self {
        Self {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
        }
    }

    /// Centre point.
    #[must_use]
    pub fn center(&self) -> Vec3 {
        (self.min + self.max) * 0.5
    }

    /// Half extents.
    #[must_use]
    pub fn half_extents(&self) -> Vec3 {
        (self.max - self.min) * 0.5
    }

    /// Half the surface area, `xy + yz + zx` of the extents: the tree's cost metric.
    #[inline]
    #[must_use]
    pub fn half_area(&self) -> f32 {
        let d = (self.max - self.min).max(Vec3::ZERO);
        d.x * d.y + d.y * d.z + d.z * d.x
    }

    /// True when every coordinate is finite and `min <= max`.
    #[must_use]
    pub fn is_valid(&self) -> bool {
        self.min.is_finite() && self.max.is_finite() && self.min.cmple(self.max).all()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotated_box_bounds() {
        let r = Mat3::from_rotation_z(std::f32::consts::FRAC_PI_4);
        let b = Aabb::from_rotated_box(Vec3::ZERO, &r, Vec3::splat(0.5));
        let s = std::f32::consts::FRAC_1_SQRT_2;
        assert!((b.max.x - s).abs() < 1e-5 && (b.max.z - 0.5).abs() < 1e-5);
        assert!(b.overlaps(&Aabb::new(Vec3::splat(0.5), Vec3::splat(1.0))));
        assert!(!b.overlaps(&Aabb::new(Vec3::splat(0.8), Vec3::splat(1.0))));
    }
}
