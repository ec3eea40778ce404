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

use glam::Vec3;
use smallvec::SmallVec;

use crate::Pose;

/// Identifies the pair of features that produced a contact point.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FeatureId(pub u32);

/// One contact point of a manifold.
#[derive(Clone, Copy, Debug, PartialEq)]
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
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Manifold {
    /// World unit normal from A to B.
    pub normal: Vec3,
    /// The contact points (at most 4).
    pub points: SmallVec<[ContactPoint; 4]>,
}

impl Manifold {
    /// An empty manifold with the given normal.
    #[must_use]
    pub fn new(normal: Vec3) -> Self {
        Self {
            normal,
            points: SmallVec::new(),
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
