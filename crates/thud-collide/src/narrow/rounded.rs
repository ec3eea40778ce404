//! Pairs of rounded shapes (spheres, capsules) and sphere–cuboid.
//!
//! A sphere is a point core and a capsule a segment core, each swept by its
//! radius. For two such shapes the closest points `c_a`, `c_b` of the cores
//! give everything: the normal `n = (c_b − c_a)/|c_b − c_a|`, the separation
//! `|c_b − c_a| − r_a − r_b` and the surface points `c_a + r_a·n`, `c_b − r_b·n`.
//! Segment–segment closest points use the clamped two-parameter minimisation
//! (Ericson, *Real-Time Collision Detection*, §5.1.9), which also covers
//! zero-length segments. When the cores touch (coincident sphere centres,
//! crossing capsule axes) the normal falls back to a fixed direction
//! perpendicular to A's core, so no NaN can appear.
//!
//! Two nearly parallel capsules (|cos| > 0.999) lying side by side touch
//! along a line: the manifold then has two points, at the ends of the overlap
//! of B's core projected onto A's core (feature ids 1 and 2).
//!
//! **Sphere–cuboid.** In the box frame, the closest box point to the centre
//! `c` is `q = clamp(c, −h, h)`. Outside, `n = (c − q)/|c − q|`; the feature id
//! records which of the 27 regions (face, edge, corner) `q` lies in. Inside,
//! the face of least penetration `hₖ − |cₖ|` gives the normal (ties: the lowest
//! axis, positive side), so a centre at the box centre is still well defined.

use glam::Vec3;

use crate::{Manifold, Pose};

/// Closest points between segments `[p1, q1]` and `[p2, q2]`.
pub(crate) fn closest_segments(p1: Vec3, q1: Vec3, p2: Vec3, q2: Vec3) -> (Vec3, Vec3) {
    let d1 = q1 - p1;
    let d2 = q2 - p2;
    let r = p1 - p2;
    let a = d1.length_squared();
    let e = d2.length_squared();
    let f = d2.dot(r);
    const EPS: f32 = 1e-12;
    let (s, t);
    if a <= EPS && e <= EPS {
        return (p1, p2);
    }
    if a <= EPS {
        s = 0.0;
        t = (f / e).clamp(0.0, 1.0);
    } else {
        let c = d1.dot(r);
        if e <= EPS {
            t = 0.0;
            s = (-c / a).clamp(0.0, 1.0);
        } else {
            let b = d1.dot(d2);
            let denom = a * e - b * b;
            let s0 = if denom > EPS * a * e {
                ((b * f - c * e) / denom).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let t0 = (b * s0 + f) / e;
            if t0 < 0.0 {
                t = 0.0;
                s = (-c / a).clamp(0.0, 1.0);
            } else if t0 > 1.0 {
                t = 1.0;
                s = ((b - c) / a).clamp(0.0, 1.0);
            } else {
                t = t0;
                s = s0;
            }
        }
    }
    (p1 + d1 * s, p2 + d2 * t)
}

/// A rounded core in world space: a segment (equal ends for a sphere) and a radius.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Core {
    pub p: Vec3,
    pub q: Vec3,
    pub radius: f32,
}

/// Contact between two rounded cores.
pub(crate) fn rounded_pair(
    a: Core,
    pose_a: &Pose,
    b: Core,
    pose_b: &Pose,
    margin: f32,
) -> Option<Manifold> {
    rounded_pair_or_gap(a, pose_a, b, pose_b, margin).ok()
}

/// [`rounded_pair`], or, where the shapes are more than `margin` apart, their distance
/// (the cores' distance less the radii).
pub(crate) fn rounded_pair_or_gap(
    a: Core,
    pose_a: &Pose,
    b: Core,
    pose_b: &Pose,
    margin: f32,
) -> Result<Manifold, f32> {
    let (ca, cb) = closest_segments(a.p, a.q, b.p, b.q);
    let d = cb - ca;
    let dist = d.length();
    let gap = dist - a.radius - b.radius;
    if gap > margin {
        return Err(gap);
    }
    let axis_a = a.q - a.p;
    let n = if dist > 1e-6 {
        d / dist
    } else if axis_a.length_squared() > 1e-12 {
        let t = axis_a.normalize();
        let w = (b.q - b.p).cross(t);
        if w.length_squared() > 1e-12 {
            w.normalize()
        } else {
            t.any_orthonormal_vector()
        }
    } else {
        Vec3::Y
    };
    let mut m = Manifold::new(n);
    let axis_b = b.q - b.p;
    let (la, lb) = (axis_a.length(), axis_b.length());
    if la > 1e-6 && lb > 1e-6 && (axis_a.dot(axis_b) / (la * lb)).abs() > 0.999 && dist > 1e-6 {
        // Side by side: two points over the overlap of the cores.
        let ta = axis_a / la;
        let s0 = (b.p - a.p).dot(ta).clamp(0.0, la);
        let s1 = (b.q - a.p).dot(ta).clamp(0.0, la);
        let (lo, hi) = (s0.min(s1), s0.max(s1));
        if hi - lo > 1e-4 * la {
            for (id, s) in [(1u32, lo), (2u32, hi)] {
                let xa_core = a.p + ta * s;
                let (_, xb_core) = closest_segments(xa_core, xa_core, b.p, b.q);
                let xa = xa_core + n * a.radius;
                let xb = xb_core - n * b.radius;
                if n.dot(xb - xa) <= margin {
                    m.push_world(pose_a, pose_b, xa, xb, id);
                }
            }
            if !m.is_empty() {
                return Ok(m);
            }
        }
    }
    m.push_world(pose_a, pose_b, ca + n * a.radius, cb - n * b.radius, 0);
    Ok(m)
}

/// Contact between a sphere (A) and a cuboid (B).
pub(crate) fn sphere_cuboid(
    radius: f32,
    pose_a: &Pose,
    h: Vec3,
    pose_b: &Pose,
    margin: f32,
) -> Option<Manifold> {
    let c = pose_b.inverse_transform_point(pose_a.position);
    let q = c.clamp(-h, h);
    let d = c - q;
    let dist = d.length();
    // n_box points from the box to the sphere (B to A), in B's frame.
    let (n_box, qb, sep, id);
    if dist > 1e-6 {
        n_box = d / dist;
        qb = q;
        sep = dist - radius;
        let region = |k: usize| {
            if c[k] > h[k] {
                2u32
            } else if c[k] < -h[k] {
                0
            } else {
                1
            }
        };
        id = region(0) + 3 * region(1) + 9 * region(2);
    } else {
        let pen = h - c.abs();
        let k = if pen.x <= pen.y && pen.x <= pen.z {
            0
        } else if pen.y <= pen.z {
            1
        } else {
            2
        };
        let s = if c[k] < 0.0 { -1.0 } else { 1.0 };
        let mut n = Vec3::ZERO;
        n[k] = s;
        n_box = n;
        let mut qq = c;
        qq[k] = s * h[k];
        qb = qq;
        sep = -pen[k] - radius;
        id = 32 + (k as u32) * 2 + u32::from(s < 0.0);
    }
    if sep > margin {
        return None;
    }
    let n_world = pose_b.transform_vector(n_box);
    let xb = pose_b.transform_point(qb);
    let xa = pose_a.position - n_world * radius;
    let mut m = Manifold::new(-n_world);
    m.push_world(pose_a, pose_b, xa, xb, id);
    Some(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments() {
        let (a, b) = closest_segments(
            Vec3::ZERO,
            Vec3::X,
            Vec3::new(0.5, 1.0, -1.0),
            Vec3::new(0.5, 1.0, 1.0),
        );
        assert!((a - Vec3::new(0.5, 0.0, 0.0)).length() < 1e-6);
        assert!((b - Vec3::new(0.5, 1.0, 0.0)).length() < 1e-6);
        let (a, b) = closest_segments(Vec3::ZERO, Vec3::ZERO, Vec3::ONE, Vec3::ONE);
        assert_eq!((a, b), (Vec3::ZERO, Vec3::ONE));
    }
}
