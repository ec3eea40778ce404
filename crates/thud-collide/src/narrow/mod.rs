//! The narrowphase: contact manifolds for every pair of shape kinds.
//!
//! [`contact_manifolds`] is the single entry point. It unpacks compounds
//! (one manifold per touching child, tagged with the child index) and meshes
//! (one manifold per touching triangle, tagged with the triangle index), then
//! dispatches each convex pair to its routine:
//!
//! | pair | routine |
//! |---|---|
//! | half-space – any convex | `plane`: candidate points against the plane |
//! | sphere/capsule – sphere/capsule | `rounded`: closest points of the cores |
//! | sphere – cuboid | `rounded`: clamp to the box |
//! | cuboid – cuboid | `box_box`: 15-axis SAT, face clipping, reduction |
//! | everything else convex | `convex`: GJK / EPA for the normal, then clipping of the support features |
//! | triangle mesh – convex | `mesh`: BVH query, per-triangle convex test without internal edges |
//!
//! Pair routines are written for one order of kinds; the dispatcher swaps the
//! arguments and [flips](crate::Manifold::flip) the result for the other order,
//! so `contact(a, b)` and `contact(b, a)` agree up to the flip. Half-space –
//! half-space, half-space – mesh and mesh – mesh pairs are static–static and
//! produce nothing.

pub(crate) mod box_box;
pub(crate) mod clip;
pub(crate) mod convex;
pub(crate) mod gjk;
pub(crate) mod mesh;
pub(crate) mod plane;
pub(crate) mod rounded;
pub(crate) mod support;

use crate::{Manifold, Pose, Shape};
use rounded::Core;

/// All manifolds between shape `a` at `pose_a` and shape `b` at `pose_b`, with
/// points up to `margin` apart, appended to `out` as `(sub_a, sub_b, manifold)`.
///
/// `sub_a` / `sub_b` are the compound child or mesh triangle indices (0 for
/// other shapes). Only non-empty manifolds are appended, in ascending
/// `(sub_a, sub_b)` order.
pub fn contact_manifolds(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    margin: f32,
    out: &mut Vec<(u32, u32, Manifold)>,
) {
    if !margin.is_finite() || !pose_a.is_finite() || !pose_b.is_finite() {
        return;
    }
    let margin = margin.max(0.0);
    match (a, b) {
        (Shape::Compound(c), _) => {
            let bb = b.aabb(pose_b).expanded(margin);
            let mut tmp = Vec::new();
            for (i, (p, child)) in c.children().iter().enumerate() {
                let pc = pose_a.mul(*p);
                if !child.aabb(&pc).overlaps(&bb) {
                    continue;
                }
                tmp.clear();
                contact_manifolds(child, &pc, b, pose_b, margin, &mut tmp);
                for (_, sb, mut m) in tmp.drain(..) {
                    fix_local_a(&mut m, &pc, pose_a);
                    out.push((i as u32, sb, m));
                }
            }
        }
        (_, Shape::Compound(c)) => {
            let start = out.len();
            let ba = a.aabb(pose_a).expanded(margin);
            let mut tmp = Vec::new();
            for (j, (p, child)) in c.children().iter().enumerate() {
                let pc = pose_b.mul(*p);
                if !child.aabb(&pc).overlaps(&ba) {
                    continue;
                }
                tmp.clear();
                contact_manifolds(a, pose_a, child, &pc, margin, &mut tmp);
                for (sa, _, mut m) in tmp.drain(..) {
                    fix_local_b(&mut m, &pc, pose_b);
                    out.push((sa, j as u32, m));
                }
            }
            // Keep (sub_a, sub_b) ascending when `a` is a mesh.
            out[start..].sort_by_key(|(sa, sb, _)| (*sa, *sb));
        }
        (Shape::TriMesh(m), _) => {
            if b.is_convex() {
                mesh::mesh_convex(m, pose_a, b, pose_b, margin, out);
            }
        }
        (_, Shape::TriMesh(m)) => {
            if a.is_convex() {
                let start = out.len();
                mesh::mesh_convex(m, pose_b, a, pose_a, margin, out);
                for (sa, sb, man) in &mut out[start..] {
                    std::mem::swap(sa, sb);
                    man.flip();
                }
            }
        }
        _ => {
            if let Some(m) = contact(a, pose_a, b, pose_b, margin)
                && !m.is_empty()
            {
                out.push((0, 0, m));
            }
        }
    }
}

/// [`contact_manifolds`], returning, where it appends nothing, a lower bound on the
/// distance between the two shapes and the reach of `b` (the largest distance of its
/// points from its origin): `(0, 0)` where it cannot tell (only the box pair says).
/// The narrowphase cache keeps a pair that far apart without looking again until it
/// may have moved by that much.
pub(crate) fn contact_manifolds_apart(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    margin: f32,
    out: &mut Vec<(u32, u32, Manifold)>,
) -> (f32, f32) {
    if let (Shape::Cuboid(x), Shape::Cuboid(y)) = (a, b)
        && margin.is_finite()
        && pose_a.is_finite()
        && pose_b.is_finite()
    {
        let hb = y.half_extents();
        return match box_box::cuboid_pair(x.half_extents(), pose_a, hb, pose_b, margin.max(0.0)) {
            Ok(m) => {
                if !m.is_empty() {
                    out.push((0, 0, m));
                }
                (0.0, 0.0)
            }
            Err(gap) => (gap, hb.length()),
        };
    }
    // Spheres and capsules: the cores' distance less the radii. (`contact` takes the
    // lower-ranked kind first and flips the answer; so does this.)
    if let (Some(ca), Some(cb)) = (core(a, pose_a), core(b, pose_b))
        && margin.is_finite()
        && pose_a.is_finite()
        && pose_b.is_finite()
    {
        let reach = cb.radius + (cb.q - cb.p).length() * 0.5;
        let margin = margin.max(0.0);
        let pair = if rank(a) > rank(b) {
            rounded::rounded_pair_or_gap(cb, pose_b, ca, pose_a, margin).map(Manifold::flipped)
        } else {
            rounded::rounded_pair_or_gap(ca, pose_a, cb, pose_b, margin)
        };
        return match pair {
            Ok(m) => {
                if !m.is_empty() {
                    out.push((0, 0, m));
                }
                (0.0, 0.0)
            }
            Err(gap) => (gap, reach),
        };
    }
    contact_manifolds(a, pose_a, b, pose_b, margin, out);
    (0.0, 0.0)
}

/// Re-expresses `local_a` (in the child frame `child`) in the parent frame `parent`.
fn fix_local_a(m: &mut Manifold, child: &Pose, parent: &Pose) {
    for p in &mut m.points {
        p.local_a = parent.inverse_transform_point(child.transform_point(p.local_a));
    }
}

fn fix_local_b(m: &mut Manifold, child: &Pose, parent: &Pose) {
    for p in &mut m.points {
        p.local_b = parent.inverse_transform_point(child.transform_point(p.local_b));
    }
}

/// Dispatch rank: routines take the lower-ranked kind first.
fn rank(s: &Shape) -> u8 {
    match s {
        Shape::Halfspace(_) => 0,
        Shape::Sphere(_) => 1,
        Shape::Capsule(_) => 2,
        Shape::Cuboid(_) => 3,
        Shape::Cylinder(_) => 4,
        Shape::ConvexHull(_) => 5,
        Shape::TriMesh(_) => 6,
        Shape::Compound(_) => 7,
    }
}

/// The single manifold of a pair of non-compound shapes (`None` if apart or unsupported).
#[must_use]
pub fn contact(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    margin: f32,
) -> Option<Manifold> {
    if rank(a) > rank(b) {
        return contact_ordered(b, pose_b, a, pose_a, margin).map(Manifold::flipped);
    }
    contact_ordered(a, pose_a, b, pose_b, margin)
}

fn core(s: &Shape, pose: &Pose) -> Option<Core> {
    match s {
        Shape::Sphere(k) => Some(Core {
            p: pose.position,
            q: pose.position,
            radius: k.radius(),
        }),
        Shape::Capsule(k) => {
            let [p, q] = k.segment();
            Some(Core {
                p: pose.transform_point(p),
                q: pose.transform_point(q),
                radius: k.radius(),
            })
        }
        _ => None,
    }
}

fn contact_ordered(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    margin: f32,
) -> Option<Manifold> {
    match (a, b) {
        (Shape::Halfspace(h), _) => plane::halfspace_convex(h.normal(), pose_a, b, pose_b, margin),
        (Shape::Sphere(_) | Shape::Capsule(_), Shape::Sphere(_) | Shape::Capsule(_)) => {
            rounded::rounded_pair(core(a, pose_a)?, pose_a, core(b, pose_b)?, pose_b, margin)
        }
        (Shape::Sphere(s), Shape::Cuboid(c)) => {
            rounded::sphere_cuboid(s.radius(), pose_a, c.half_extents(), pose_b, margin)
        }
        (Shape::Cuboid(x), Shape::Cuboid(y)) => {
            box_box::cuboid_cuboid(x.half_extents(), pose_a, y.half_extents(), pose_b, margin)
        }
        (Shape::TriMesh(_) | Shape::Compound(_), _)
        | (_, Shape::TriMesh(_) | Shape::Compound(_)) => None,
        _ => {
            let ca = support::Convex::new(a, pose_a)?;
            let cb = support::Convex::new(b, pose_b)?;
            convex::convex_convex(&ca, pose_a, &cb, pose_b, margin)
        }
    }
}
