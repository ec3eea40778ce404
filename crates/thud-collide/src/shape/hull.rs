//! Convex hulls built from point clouds.
//!
//! Construction is the incremental algorithm: start from a tetrahedron of four
//! extreme points (the first is the smallest x, the second the farthest from it,
//! the third the farthest from their line, the fourth the farthest from their
//! plane; if any of these distances is below `ε = 1e-5·diameter` the cloud is
//! degenerate and [`ShapeError::DegenerateHull`] is returned). Each further point
//! `p` that lies more than `ε` outside some face sees a connected set of faces;
//! their boundary is the *horizon*, found as the directed edges `u→v` of visible
//! faces whose reverse `v→u` does not belong to a visible face. The visible
//! faces are removed and a triangle `(u, v, p)` added per horizon edge, which
//! keeps every face wound counter-clockwise seen from outside. Cost O(n·F).
//!
//! Triangles lying in a common supporting plane (normals within 1e-3 rad,
//! offsets within ε) are then merged into polygon faces, ordered by angle about
//! the face centre: a hull of a box's eight corners has six quads, which is what
//! face clipping needs for a good manifold. Unused points are dropped.
//!
//! The hull stores vertices, polygon faces with their planes `n·x = d`, and the
//! unique undirected edges (for the edge–edge axes of the separating-axis test).

use glam::Vec3;
use smallvec::SmallVec;

use crate::{Aabb, ShapeError};

/// One polygon face of a hull: vertex indices counter-clockwise seen from outside.
#[derive(Clone, Debug, PartialEq)]
pub struct HullFace {
    /// Indices into [`ConvexHull::vertices`].
    pub vertices: SmallVec<[u32; 8]>,
    /// Outward unit normal.
    pub normal: Vec3,
    /// Plane offset: `normal·x = offset` for points `x` of the face.
    pub offset: f32,
}

/// A convex polyhedron (validated; at least 4 vertices, positive volume).
#[derive(Clone, Debug, PartialEq)]
pub struct ConvexHull {
    vertices: Vec<Vec3>,
    faces: Vec<HullFace>,
    edges: Vec<[u32; 2]>,
    aabb: Aabb,
    centroid: Vec3,
}

#[derive(Clone, Copy)]
struct Tri {
    v: [u32; 3],
    n: Vec3,
    d: f32,
}

fn make_tri(pts: &[Vec3], a: u32, b: u32, c: u32) -> Tri {
    let (pa, pb, pc) = (pts[a as usize], pts[b as usize], pts[c as usize]);
    let n = (pb - pa).cross(pc - pa).normalize_or_zero();
    Tri {
        v: [a, b, c],
        n,
        d: n.dot(pa),
    }
}

impl ConvexHull {
    /// The convex hull of `points`.
    pub fn new(points: &[Vec3]) -> Result<Self, ShapeError> {
        let degenerate = ShapeError::DegenerateHull {
            points: points.len(),
        };
        if points.len() < 4 {
            return Err(degenerate);
        }
        if points.iter().any(|p| !p.is_finite()) {
            return Err(ShapeError::NonFinite { what: "hull point" });
        }
        let bounds = Aabb::from_points(points);
        let diam = (bounds.max - bounds.min).length();
        if diam.is_nan() || diam <= 0.0 || !diam.is_finite() {
            return Err(degenerate);
        }
        let eps = 1e-5 * diam;
        // Initial tetrahedron from extreme points.
        let i0 = (0..points.len())
            .min_by(|&a, &b| points[a].x.total_cmp(&points[b].x))
            .unwrap_or(0);
        let p0 = points[i0];
        let far = |f: &dyn Fn(Vec3) -> f32| -> (usize, f32) {
            let mut best = (0usize, -1.0f32);
            for (i, &p) in points.iter().enumerate() {
                let v = f(p);
                if v > best.1 {
                    best = (i, v);
                }
            }
            best
        };
        let (i1, d1) = far(&|p| (p - p0).length());
        if d1 < eps {
            return Err(degenerate);
        }
        let p1 = points[i1];
        let dir = (p1 - p0) / d1;
        let (i2, d2) = far(&|p| {
            let v = p - p0;
            (v - dir * v.dot(dir)).length()
        });
        if d2 < eps {
            return Err(degenerate);
        }
        let p2 = points[i2];
        let n = (p1 - p0).cross(p2 - p0).normalize();
        let (i3, d3) = far(&|p| (p - p0).dot(n).abs());
        if d3 < eps {
            return Err(degenerate);
        }
        let (i0, i1, i2, i3) = (i0 as u32, i1 as u32, i2 as u32, i3 as u32);
        let inner = (points[i0 as usize] + p1 + p2 + points[i3 as usize]) * 0.25;
        let mut tris: Vec<Tri> = Vec::new();
        for [a, b, c] in [[i0, i1, i2], [i0, i1, i3], [i0, i2, i3], [i1, i2, i3]] {
            let t = make_tri(points, a, b, c);
            if t.n.dot(inner) > t.d {
                tris.push(make_tri(points, a, c, b));
            } else {
                tris.push(t);
            }
        }
        // Incremental insertion.
        let mut visible: Vec<bool> = Vec::new();
        let mut edges: Vec<(u32, u32)> = Vec::new();
        for (pi, &p) in points.iter().enumerate() {
            let pi = pi as u32;
            if pi == i0 || pi == i1 || pi == i2 || pi == i3 {
                continue;
            }
            visible.clear();
            visible.extend(tris.iter().map(|t| t.n.dot(p) - t.d > eps));
            if !visible.iter().any(|&v| v) {
                continue;
            }
            edges.clear();
            for (t, _) in tris.iter().zip(&visible).filter(|(_, v)| **v) {
                for k in 0..3 {
                    edges.push((t.v[k], t.v[(k + 1) % 3]));
                }
            }
            let horizon: Vec<(u32, u32)> = edges
                .iter()
                .copied()
                .filter(|&(u, v)| !edges.contains(&(v, u)))
                .collect();
            let mut keep = visible.iter().map(|v| !v);
            tris.retain(|_| keep.next().unwrap_or(true));
            for (u, v) in horizon {
                tris.push(make_tri(points, u, v, pi));
            }
        }
        Self::from_triangles(points, &tris, eps)
    }

    fn from_triangles(points: &[Vec3], tris: &[Tri], eps: f32) -> Result<Self, ShapeError> {
        // Reindex used vertices.
        let mut remap = vec![u32::MAX; points.len()];
        let mut vertices = Vec::new();
        for t in tris {
            for &i in &t.v {
                if remap[i as usize] == u32::MAX {
                    remap[i as usize] = vertices.len() as u32;
                    vertices.push(points[i as usize]);
                }
            }
        }
        // Merge coplanar triangles into polygons.
        let mut used = vec![false; tris.len()];
        let mut faces = Vec::new();
        for i in 0..tris.len() {
            if used[i] || tris[i].n == Vec3::ZERO {
                continue;
            }
            let n0 = tris[i].n;
            let mut ids: SmallVec<[u32; 8]> = SmallVec::new();
            let mut nsum = Vec3::ZERO;
            for j in i..tris.len() {
                if !used[j] && tris[j].n.dot(n0) > 1.0 - 5e-7 && (tris[j].d - tris[i].d).abs() < eps
                {
                    used[j] = true;
                    let t = &tris[j];
                    let (a, b, c) = (
                        points[t.v[0] as usize],
                        points[t.v[1] as usize],
                        points[t.v[2] as usize],
                    );
                    nsum += (b - a).cross(c - a);
                    for &v in &t.v {
                        let r = remap[v as usize];
                        if !ids.contains(&r) {
                            ids.push(r);
                        }
                    }
                }
            }
            let normal = nsum.normalize_or(n0);
            let c = ids.iter().map(|&k| vertices[k as usize]).sum::<Vec3>() / ids.len() as f32;
            let u = (vertices[ids[0] as usize] - c).normalize_or(normal.any_orthonormal_vector());
            let w = normal.cross(u);
            ids.sort_by(|&a, &b| {
                let da = vertices[a as usize] - c;
                let db = vertices[b as usize] - c;
                da.dot(w)
                    .atan2(da.dot(u))
                    .total_cmp(&db.dot(w).atan2(db.dot(u)))
            });
            let offset = ids
                .iter()
                .map(|&k| normal.dot(vertices[k as usize]))
                .fold(f32::MIN, f32::max);
            faces.push(HullFace {
                vertices: ids,
                normal,
                offset,
            });
        }
        if faces.len() < 4 {
            return Err(ShapeError::DegenerateHull {
                points: points.len(),
            });
        }
        let mut edges: Vec<[u32; 2]> = Vec::new();
        for f in &faces {
            for k in 0..f.vertices.len() {
                let (a, b) = (f.vertices[k], f.vertices[(k + 1) % f.vertices.len()]);
                let e = [a.min(b), a.max(b)];
                if !edges.contains(&e) {
                    edges.push(e);
                }
            }
        }
        let aabb = Aabb::from_points(&vertices);
        let centroid = vertices.iter().sum::<Vec3>() / vertices.len() as f32;
        Ok(Self {
            vertices,
            faces,
            edges,
            aabb,
            centroid,
        })
    }

    /// The hull's vertices (local frame).
    #[must_use]
    pub fn vertices(&self) -> &[Vec3] {
        &self.vertices
    }
    /// The polygon faces.
    #[must_use]
    pub fn faces(&self) -> &[HullFace] {
        &self.faces
    }
    /// Unique undirected edges as vertex index pairs.
    #[must_use]
    pub fn edges(&self) -> &[[u32; 2]] {
        &self.edges
    }
    /// Local bounding box.
    #[must_use]
    pub fn local_aabb(&self) -> Aabb {
        self.aabb
    }
    /// The mean of the vertices: a point strictly inside.
    #[must_use]
    pub fn interior_point(&self) -> Vec3 {
        self.centroid
    }
    /// Index of the vertex farthest along `dir`.
    #[must_use]
    pub fn support_index(&self, dir: Vec3) -> usize {
        let mut best = 0;
        let mut bd = f32::MIN;
        for (i, v) in self.vertices.iter().enumerate() {
            let d = v.dot(dir);
            if d > bd {
                bd = d;
                best = i;
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cube_hull_has_six_quads() {
        let mut pts = Vec::new();
        for i in 0..8 {
            pts.push(Vec3::new(
                if i & 1 == 0 { -1.0 } else { 1.0 },
                if i & 2 == 0 { -1.0 } else { 1.0 },
                if i & 4 == 0 { -1.0 } else { 1.0 },
            ));
        }
        pts.push(Vec3::ZERO);
        pts.push(Vec3::new(1.0, 0.0, 0.0)); // on a face: dropped
        let h = ConvexHull::new(&pts).unwrap();
        assert_eq!(h.vertices().len(), 8);
        assert_eq!(h.faces().len(), 6);
        assert!(
            h.faces()
                .iter()
                .all(|f| f.vertices.len() == 4 && (f.offset - 1.0).abs() < 1e-5)
        );
        assert_eq!(h.edges().len(), 12);
    }

    #[test]
    fn degenerate_inputs() {
        assert!(ConvexHull::new(&[Vec3::ZERO; 3]).is_err());
        let flat = [
            Vec3::ZERO,
            Vec3::X,
            Vec3::Z,
            Vec3::ONE.with_y(0.0),
            Vec3::new(0.5, 0.0, 0.2),
        ];
        assert!(matches!(
            ConvexHull::new(&flat),
            Err(ShapeError::DegenerateHull { .. })
        ));
        assert!(ConvexHull::new(&[Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::splat(f32::NAN)]).is_err());
    }
}
