//! Anything against a half-space.
//!
//! With the plane's world normal `n` and a point `o` on it, a point `x` of the
//! other shape has height `n·(x − o)`. Each shape offers a few candidate points
//! (its deepest points and the corners that can rest on a plane):
//!
//! - sphere: `c − r·n`; capsule: both core ends minus `r·n` (2 points when lying
//!   flat); cuboid: the 8 corners (feature id = corner index `x + 2y + 4z`
//!   bits), so a box resting flat gives its 4 bottom corners at zero separation;
//! - cylinder: per cap, the rim point deepest along `−n` and the three rim
//!   points at 90° steps from it (when the axis is parallel to `n` the first
//!   rim point is along local +x, for stability); a standing cylinder gives 4
//!   rim points, a lying one the 2 ends of its bottom line;
//! - hull: every vertex.
//!
//! Candidates with height at most the margin are kept, reduced to 4 by area.
//! The surface point on the plane is the projection `x − n·height`.

use glam::Vec3;

use super::clip::{Candidate, Candidates, reduce};
use crate::{Manifold, Pose, Shape};

/// Contact of the half-space A (local normal `normal`) with the convex shape B.
pub(crate) fn halfspace_convex(
    normal: Vec3,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    margin: f32,
) -> Option<Manifold> {
    let n = pose_a.transform_vector(normal);
    let o = pose_a.position;
    let mut cands = Candidates::new();
    let add = |x: Vec3, id: u32, cands: &mut Candidates| {
        let h = n.dot(x - o);
        if h <= margin {
            cands.push(Candidate {
                pa: x - n * h,
                pb: x,
                sep: h,
                id,
            });
        }
    };
    match b {
        Shape::Sphere(s) => add(pose_b.position - n * s.radius(), 0, &mut cands),
        Shape::Capsule(c) => {
            for (i, e) in c.segment().into_iter().enumerate() {
                add(
                    pose_b.transform_point(e) - n * c.radius(),
                    i as u32,
                    &mut cands,
                );
            }
        }
        Shape::Cuboid(c) => {
            let h = c.half_extents();
            for i in 0..8u32 {
                let corner = Vec3::new(
                    if i & 1 == 0 { -h.x } else { h.x },
                    if i & 2 == 0 { -h.y } else { h.y },
                    if i & 4 == 0 { -h.z } else { h.z },
                );
                add(pose_b.transform_point(corner), i, &mut cands);
            }
        }
        Shape::Cylinder(c) => {
            let nl = pose_b.inverse_transform_vector(-n);
            let radial = Vec3::new(nl.x, 0.0, nl.z);
            let u = if radial.length_squared() > 1e-8 {
                radial.normalize()
            } else {
                Vec3::X
            };
            let w = Vec3::Y.cross(u);
            for (cap, y) in [(0u32, -c.half_height()), (1u32, c.half_height())] {
                for (k, d) in [u, w, -u, -w].into_iter().enumerate() {
                    let p = Vec3::new(0.0, y, 0.0) + d * c.radius();
                    add(pose_b.transform_point(p), cap * 4 + k as u32, &mut cands);
                }
            }
        }
        Shape::ConvexHull(hull) => {
            for (i, &v) in hull.vertices().iter().enumerate() {
                add(pose_b.transform_point(v), i as u32, &mut cands);
            }
        }
        Shape::Halfspace(_) | Shape::Compound(_) | Shape::TriMesh(_) => return None,
    }
    if cands.is_empty() {
        return None;
    }
    reduce(&mut cands, n);
    let mut m = Manifold::new(n);
    for c in &cands {
        m.push_world(pose_a, pose_b, c.pa, c.pb, c.id);
    }
    Some(m)
}
