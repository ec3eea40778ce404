//! Contact manifolds: the narrowphase's output and the solver's input.
//!
//! A [`Manifold`] describes one touching region between shape A and shape B:
//! a single world unit `normal` pointing **from A to B**, and up to four
//! [`ContactPoint`]s. For each point:
//!
//! - `local_a` / `local_b` are the touching points on the surface of A and of
//!   B, each in its own shape's local frame (so the solver can recompute the
//!   separation after the bodies move: `sep = n·(x_b − x_a)`);
//! - `point` is the world midpoint of the two surface points;
//! - `separation = n·(x_b − x_a)`: negative is penetration depth, positive a
//!   gap (a *speculative* contact, reported while the gap is within the margin
//!   passed to the narrowphase);
//! - `feature` names the pair of geometric features (face/edge/vertex indices,
//!   clip-plane indices) that produced the point. It stays the same while the
//!   same features touch, which is what lets [`crate::NarrowPhase`] carry the
//!   solver's accumulated impulses (`user`) from one step to the next.
//!   Feature ids are only compared within one shape pair and one sub-shape
//!   pair; their bit layout is private to each pair routine.
//! - `user` is opaque per-point data owned by the caller (the solver stores
//!   its last normal and tangent impulses there, its warm start). The
//!   narrowphase sets it to zero for new points and copies it over for matched
//!   points. Three floats: a point is 56 bytes, and the narrowphase's points are
//!   streamed several times a step.

use std::ops::{Deref, DerefMut};

use glam::Vec3;

use crate::Pose;

/// Identifies the pair of features that produced a contact point.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FeatureId(pub u32);

/// One contact point of a manifold.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ContactPoint {
    /// Point on A's surface in A's local frame.
    pub local_a: Vec3,
    /// Point on B's surface in B's local frame.
    pub local_b: Vec3,
    /// World midpoint between the two surface points.
    pub point: Vec3,
    /// Signed distance along the normal (negative = penetration), metres.
    pub separation: f32,
    /// Which features touch.
    pub feature: FeatureId,
    /// Caller data carried across steps by the cache (zero for a new point).
    pub user: [f32; 3],
}

/// Up to four contact points sharing one normal.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Manifold {
    /// World unit normal from A to B.
    pub normal: Vec3,
    /// The contact points (at most 4).
    pub points: ContactPoints,
}

/// A manifold's contact points: at most [`ContactPoints::CAPACITY`], held inline, so
/// a manifold is plain data that copies as bytes (no heap, and no check of where the
/// points live on every access). Reads and writes go through the slice of the points
/// held (`Deref`).
#[derive(Clone, Copy, Default)]
pub struct ContactPoints {
    items: [ContactPoint; ContactPoints::CAPACITY],
    len: u8,
}

impl ContactPoints {
    /// Most points a manifold holds.
    pub const CAPACITY: usize = 4;

    /// No points.
    #[must_use]
    #[inline]
    pub const fn new() -> Self {
        Self {
            items: [ContactPoint {
                local_a: Vec3::ZERO,
                local_b: Vec3::ZERO,
                point: Vec3::ZERO,
                separation: 0.0,
                feature: FeatureId(0),
                user: [0.0; 3],
            }; Self::CAPACITY],
            len: 0,
        }
    }

    /// Adds a point. A full list keeps its four deepest: a deeper point takes the place
    /// of the shallowest one, a shallower one is left out (the pair routines reduce
    /// their points to four before they add them, so only a caller's own fifth point
    /// meets this).
    #[inline]
    pub fn push(&mut self, p: ContactPoint) {
        let n = usize::from(self.len);
        if n < Self::CAPACITY {
            self.items[n] = p;
            self.len += 1;
            return;
        }
        let shallowest = (1..n).fold(0, |k, i| {
            if self.items[i].separation > self.items[k].separation {
                i
            } else {
                k
            }
        });
        if p.separation < self.items[shallowest].separation {
            self.items[shallowest] = p;
        }
    }

    /// The points held.
    #[must_use]
    #[inline]
    pub fn as_slice(&self) -> &[ContactPoint] {
        self
    }

    /// The points held, to change in place.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [ContactPoint] {
        self
    }

    /// Removes the last point and returns it (`None` if there is none).
    #[inline]
    pub fn pop(&mut self) -> Option<ContactPoint> {
        let n = self.len.checked_sub(1)?;
        self.len = n;
        Some(self.items[usize::from(n)])
    }

    /// Removes every point.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Adds each point of `ps` in turn ([`push`](Self::push)).
    #[inline]
    pub fn extend_from_slice(&mut self, ps: &[ContactPoint]) {
        for &p in ps {
            self.push(p);
        }
    }
}

impl Deref for ContactPoints {
    type Target = [ContactPoint];

    #[inline]
    fn deref(&self) -> &[ContactPoint] {
        &self.items[..usize::from(self.len)]
    }
}

impl DerefMut for ContactPoints {
    #[inline]
    fn deref_mut(&mut self) -> &mut [ContactPoint] {
        &mut self.items[..usize::from(self.len)]
    }
}

impl PartialEq for ContactPoints {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl std::fmt::Debug for ContactPoints {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl FromIterator<ContactPoint> for ContactPoints {
    fn from_iter<I: IntoIterator<Item = ContactPoint>>(iter: I) -> Self {
        let mut ps = Self::new();
        for p in iter {
            ps.push(p);
        }
        ps
    }
}

impl<'a> IntoIterator for &'a ContactPoints {
    type Item = &'a ContactPoint;
    type IntoIter = std::slice::Iter<'a, ContactPoint>;

    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a> IntoIterator for &'a mut ContactPoints {
    type Item = &'a mut ContactPoint;
    type IntoIter = std::slice::IterMut<'a, ContactPoint>;

    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

impl Manifold {
    /// An empty manifold with the given normal.
    #[must_use]
    pub fn new(normal: Vec3) -> Self {
        Self {
            normal,
            points: ContactPoints::new(),
        }
    }

    /// Adds a point from its two world surface points; separation is `n·(x_b − x_a)`.
    pub fn push_world(&mut self, pose_a: &Pose, pose_b: &Pose, xa: Vec3, xb: Vec3, feature: u32) {
        self.points.push(ContactPoint {
            local_a: pose_a.inverse_transform_point(xa),
            local_b: pose_b.inverse_transform_point(xb),
            point: (xa + xb) * 0.5,
            separation: self.normal.dot(xb - xa),
            feature: FeatureId(feature),
            user: [0.0; 3],
        });
    }

    /// The same contact seen from B: normal negated, anchors swapped.
    #[must_use]
    pub fn flipped(mut self) -> Self {
        self.flip();
        self
    }

    /// Flips in place (see [`Manifold::flipped`]).
    pub fn flip(&mut self) {
        self.normal = -self.normal;
        for p in &mut self.points {
            std::mem::swap(&mut p.local_a, &mut p.local_b);
        }
    }

    /// Deepest (smallest) separation, or `None` if empty.
    #[must_use]
    pub fn min_separation(&self) -> Option<f32> {
        self.points.iter().map(|p| p.separation).reduce(f32::min)
    }

    /// True when there are no points.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(separation: f32, id: u32) -> ContactPoint {
        ContactPoint {
            separation,
            feature: FeatureId(id),
            ..ContactPoint::default()
        }
    }

    /// Four points fit; a fifth takes the shallowest one's place only if it is deeper;
    /// `pop`, `clear` and the slice view see exactly the points held.
    #[test]
    fn contact_points_keep_the_four_deepest() {
        let mut ps = ContactPoints::new();
        assert!(ps.is_empty() && ps.pop().is_none());
        for (k, s) in [0.01, -0.02, 0.03, -0.01].into_iter().enumerate() {
            ps.push(at(s, k as u32));
        }
        assert_eq!(ps.len(), ContactPoints::CAPACITY);
        // Shallower than all four: left out.
        ps.push(at(0.05, 9));
        let ids = |ps: &ContactPoints| ps.iter().map(|p| p.feature.0).collect::<Vec<_>>();
        assert_eq!(ids(&ps), [0, 1, 2, 3]);
        // Deeper than the shallowest (0.03, id 2): takes its place.
        ps.push(at(-0.05, 7));
        assert_eq!(ids(&ps), [0, 1, 7, 3]);
        assert_eq!(ps.pop().map(|p| p.feature.0), Some(3));
        assert_eq!(ids(&ps), [0, 1, 7]);
        let copy = ps;
        ps.clear();
        assert!(ps.is_empty());
        assert_eq!(ids(&copy), [0, 1, 7]);
        assert_eq!(
            copy,
            [at(0.01, 0), at(-0.02, 1), at(-0.05, 7)]
                .into_iter()
                .collect()
        );
        assert_ne!(copy, ps);
    }
}
