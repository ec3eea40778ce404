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
//!   solver's accumulated impulses (the points' user data, below) from one step
//!   to the next.
//!   Feature ids are only compared within one shape pair and one sub-shape
//!   pair; their bit layout is private to each pair routine.
//!
//! Beside each point the manifold holds three floats of opaque caller data, the
//! point's *user* data ([`ContactPoints::users`]): the solver stores its last normal
//! and tangent impulses there, its warm start. The narrowphase sets them to zero for
//! new points and copies them over for matched points. They are kept apart from the
//! points, all four points' together after them and beside the count, because they
//! have another reader and writer: the narrowphase writes the points and reads the
//! user data only to carry it, the solver writes the user data once a step and reads
//! no point there. A manifold of the narrowphase's list is four cache lines
//! ([`crate::PairManifold`]); the user data and the count share its last, so the
//! solver's write-back touches one line of a manifold instead of all four.

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
}

/// Up to four contact points sharing one normal.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C)]
pub struct Manifold {
    /// World unit normal from A to B.
    pub normal: Vec3,
    /// The contact points (at most 4).
    pub points: ContactPoints,
}

/// A manifold's contact points: at most [`ContactPoints::CAPACITY`], held inline, so
/// a manifold is plain data that copies as bytes (no heap, and no check of where the
/// points live on every access). Reads and writes go through the slice of the points
/// held (`Deref`). Each point has three floats of caller data beside it
/// ([`users`](Self::users)), zero for a point pushed, laid out after the points and
/// before the count (`repr(C)`: see the module docs). The user data belongs to a
/// point's place in the list: a caller that reorders the points through the slice
/// reorders their user data as well ([`users_mut`](Self::users_mut)).
#[derive(Clone, Copy, Default)]
#[repr(C)]
pub struct ContactPoints {
    items: [ContactPoint; ContactPoints::CAPACITY],
    users: [[f32; 3]; ContactPoints::CAPACITY],
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
            }; Self::CAPACITY],
            users: [[0.0; 3]; Self::CAPACITY],
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
            self.users[n] = [0.0; 3];
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
            self.users[shallowest] = [0.0; 3];
        }
    }

    /// The caller data of the points held, point by point (zero for a point pushed,
    /// what [`users_mut`](Self::users_mut) wrote otherwise).
    #[must_use]
    #[inline]
    pub fn users(&self) -> &[[f32; 3]] {
        &self.users[..usize::from(self.len)]
    }

    /// The caller data of the points held, to change in place.
    #[inline]
    pub fn users_mut(&mut self) -> &mut [[f32; 3]] {
        &mut self.users[..usize::from(self.len)]
    }

    /// The user data of every slot, the points held first: for a writer that knows how
    /// many points it writes, which then does not read the count (the solver's
    /// write-back, whose reads of the count missed the cache on most manifolds of a
    /// large scene). What it writes past the points held is never read: a point pushed
    /// starts at zero.
    #[inline]
    pub fn user_slots_mut(&mut self) -> &mut [[f32; 3]; Self::CAPACITY] {
        &mut self.users
    }

    /// The points held with their caller data, to change in place together.
    #[inline]
    pub fn iter_with_users_mut(
        &mut self,
    ) -> impl Iterator<Item = (&mut ContactPoint, &mut [f32; 3])> {
        let n = usize::from(self.len);
        self.items[..n].iter_mut().zip(&mut self.users[..n])
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
        **self == **other && self.users() == other.users()
    }
}

impl std::fmt::Debug for ContactPoints {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.iter().zip(self.users()))
            .finish()
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

    /// A manifold of the narrowphase's list is four whole cache lines, and its points'
    /// user data and count lie in the last one (the solver's write-back touches that
    /// line alone).
    #[test]
    fn a_listed_manifolds_user_data_and_count_share_its_last_cache_line() {
        use std::mem::{align_of, offset_of, size_of};
        assert_eq!(align_of::<crate::PairManifold>(), 64);
        assert_eq!(size_of::<crate::PairManifold>(), 256);
        let points = offset_of!(crate::PairManifold, manifold.points);
        let users = points + offset_of!(ContactPoints, users);
        let len = points + offset_of!(ContactPoints, len);
        assert!(users >= 192 && users + size_of::<[[f32; 3]; 4]>() <= 256);
        assert!((192..256).contains(&len));
    }

    /// User data written past the points held (`user_slots_mut`, as the solver's
    /// write-back does) is never seen: `users` shows the held points' only, and a
    /// point pushed into such a slot starts at zero, as does one that takes the
    /// shallowest point's place in a full list.
    #[test]
    fn user_data_past_the_points_held_is_never_read() {
        let mut ps: ContactPoints = [at(-0.01, 0), at(-0.02, 1)].into_iter().collect();
        *ps.user_slots_mut() = [[1.0; 3], [2.0; 3], [3.0; 3], [4.0; 3]];
        assert_eq!(ps.users(), [[1.0; 3], [2.0; 3]]);
        ps.push(at(-0.03, 2));
        assert_eq!(ps.users(), [[1.0; 3], [2.0; 3], [0.0; 3]]);
        ps.push(at(-0.04, 3));
        *ps.user_slots_mut() = [[5.0; 3]; ContactPoints::CAPACITY];
        // Deeper than the shallowest (-0.01, slot 0): takes its place with zero data.
        ps.push(at(-0.05, 4));
        assert_eq!(ps.users(), [[0.0; 3], [5.0; 3], [5.0; 3], [5.0; 3]]);
        let copy = ps;
        assert_eq!(copy, ps);
        ps.users_mut()[1] = [6.0; 3];
        assert_ne!(copy, ps, "the user data takes part in equality");
    }

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
