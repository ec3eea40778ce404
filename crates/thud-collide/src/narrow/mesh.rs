//! Triangle mesh against a convex shape.
//!
//! The convex shape's bounding box, expressed in the mesh frame and widened by
//! the margin, is queried against the mesh BVH; each triangle it meets is a
//! convex set of its own and gets its own manifold (sub-shape index = triangle
//! index, ascending).
//!
//! **No ghost contacts.** A triangle whose three edges are all internal (its
//! neighbours are coplanar or fold concavely, see [`crate::TriMesh`]) may only
//! push along its face normal: the normal is fixed to `±n_T` (the side the
//! convex shape's centre is on), the separation is that of B's support point
//! along `−n_T`, and B's support feature is clipped against the triangle as
//! reference. Whatever lies beyond the triangle's edges is clipped away and is
//! the neighbouring triangle's business, so a box sliding over a flat
//! triangulated floor only ever sees the floor normal. Triangles with a real
//! (convex or boundary) edge use the general GJK/EPA routine, whose edge and
//! vertex normals are genuine there.

use glam::Vec3;

use super::clip::{Candidates, reduce};
use super::convex::{clip_features, convex_convex};
use super::support::{Convex, Feature};
use crate::{Manifold, Pose, Shape, TriMesh};

/// Manifolds of mesh A against convex B, appended as `(triangle, 0, manifold)`.
pub(crate) fn mesh_convex(
    mesh: &TriMesh,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    margin: f32,
    out: &mut Vec<(u32, u32, Manifold)>,
) {
    let Some(cb) = Convex::new(b, pose_b) else {
        return;
    };
    let local = pose_a.inv_mul(pose_b);
    let query = b.aabb(&local).expanded(margin);
    let mut tris: Vec<u32> = Vec::new();
    mesh.query(&query, |t| tris.push(t));
    tris.sort_unstable();
    let centre_b = cb.center();
    for t in tris {
        let n_local = mesh.normal(t);
        if n_local == Vec3::ZERO {
            continue;
        }
        let v = mesh.triangle(t).map(|p| pose_a.transform_point(p));
        let n = pose_a.transform_vector(n_local);
        let tri = Convex::Triangle { v, n };
        let real = mesh.real_edges(t);
        let m = if real == 0 {
            face_only(v, n, centre_b, &cb, pose_a, pose_b, margin)
        } else {
            match convex_convex(&tri, pose_a, &cb, pose_b, margin) {
                Some(m) if m.normal.dot(n).abs() < 0.999 && !on_real_edge(&m, pose_a, v, real) => {
                    face_only(v, n, centre_b, &cb, pose_a, pose_b, margin)
                }
                other => other,
            }
        };
        if let Some(m) = m
            && !m.is_empty()
        {
            out.push((t, 0, m));
        }
    }
}

/// Whether the deepest point of `m` on the triangle lies on one of its real edges.
fn on_real_edge(m: &Manifold, pose_a: &Pose, v: [Vec3; 3], real: u8) -> bool {
    let Some(p) = m
        .points
        .iter()
        .min_by(|x, y| x.separation.total_cmp(&y.separation))
    else {
        return false;
    };
    let x = pose_a.transform_point(p.local_a);
    let size = (v[1] - v[0]).length().max((v[2] - v[0]).length());
    let tol = 1e-3 * (1.0 + size);
    (0..3).any(|k| {
        if real & (1 << k) == 0 {
            return false;
        }
        let (a, b) = (v[k], v[(k + 1) % 3]);
        let (q, _) = super::rounded::closest_segments(a, b, x, x);
        (q - x).length() <= tol
    })
}

fn face_only(
    v: [Vec3; 3],
    n: Vec3,
    centre_b: Vec3,
    b: &Convex,
    pose_a: &Pose,
    pose_b: &Pose,
    margin: f32,
) -> Option<Manifold> {
    let (n, tri) = if n.dot(centre_b - v[0]) >= 0.0 {
        (n, [v[0], v[1], v[2]])
    } else {
        (-n, [v[0], v[2], v[1]])
    };
    let s = b.support(-n);
    let h = n.dot(s - v[0]);
    if h > margin {
        return None;
    }
    let fa = Feature {
        pts: tri.into_iter().collect(),
        normal: n,
        id: 0xD0,
    };
    let fb = b.feature(-n);
    let mut cands = Candidates::new();
    clip_features(&fa, &fb, n, margin, Some(true), &mut cands);
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
