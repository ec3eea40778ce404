//! Static triangle meshes for ground and level geometry.
//!
//! A [`TriMesh`] stores vertices and index triples, one unit normal per
//! triangle (from the winding, `(b − a) × (c − a)`), a bounding volume
//! hierarchy over the triangles and, per triangle edge, whether the edge is a
//! *real* (convex or boundary) edge.
//!
//! **Internal edges.** Where two triangles share an edge and lie in one plane
//! (or fold concavely), the edge is not a feature of the solid surface: a box
//! sliding across a flat floor made of triangles must never be pushed by it
//! ("ghost contacts"). An edge `ab` of triangle `T` with neighbour `T'` whose
//! opposite vertex `c'` satisfies `n_T·(c' − a) ≥ −ε` (coplanar or concave) is
//! flagged internal. The narrowphase only tests triangle edge axes of real
//! edges, and a triangle whose three edges are all internal contributes only
//! its face normal, so contacts on a flat floor always have the floor normal.
//!
//! **BVH.** Built top-down once: the triangles' bounding boxes are split at the
//! median centroid along the longest axis until at most 4 remain in a leaf.
//! Queries walk it with an explicit stack. Degenerate (zero-area) triangles are
//! kept in the index but never produce contacts.

use std::collections::HashMap;

use glam::Vec3;

use crate::{Aabb, ShapeError};

const LEAF_SIZE: usize = 4;

#[derive(Clone, Debug, PartialEq)]
struct Node {
    aabb: Aabb,
    /// Leaf: first index into `order`; inner: index of the right child (left is next).
    start: u32,
    /// Leaf: triangle count (> 0); inner: 0.
    count: u32,
}

/// A static triangle mesh with a BVH and internal-edge flags.
#[derive(Clone, Debug, PartialEq)]
pub struct TriMesh {
    vertices: Vec<Vec3>,
    triangles: Vec<[u32; 3]>,
    normals: Vec<Vec3>,
    /// Bit k set: edge k (from vertex k to k+1) is a real edge.
    edge_real: Vec<u8>,
    nodes: Vec<Node>,
    order: Vec<u32>,
}

impl TriMesh {
    /// A mesh from vertices and index triples.
    pub fn new(vertices: Vec<Vec3>, triangles: Vec<[u32; 3]>) -> Result<Self, ShapeError> {
        if triangles.is_empty() {
            return Err(ShapeError::InvalidMesh {
                reason: "no triangles".into(),
            });
        }
        if vertices.iter().any(|v| !v.is_finite()) {
            return Err(ShapeError::NonFinite {
                what: "mesh vertex",
            });
        }
        if vertices.iter().any(|v| v.abs().max_element() > 1e15) {
            return Err(ShapeError::InvalidMesh {
                reason: "vertex coordinate too large".into(),
            });
        }
        if let Some((i, _)) = triangles
            .iter()
            .enumerate()
            .find(|(_, t)| t.iter().any(|&k| k as usize >= vertices.len()))
        {
            return Err(ShapeError::InvalidMesh {
                reason: format!("triangle {i} has an index out of range"),
            });
        }
        let normals: Vec<Vec3> = triangles
            .iter()
            .map(|t| {
                let [a, b, c] = t.map(|k| vertices[k as usize]);
                (b - a).cross(c - a).normalize_or_zero()
            })
            .collect();
        let bounds = Aabb::from_points(&vertices);
        let eps = 1e-4 * (bounds.max - bounds.min).length().max(1e-6);
        // Edge adjacency.
        let mut adj: HashMap<(u32, u32), Vec<(usize, usize)>> = HashMap::new();
        for (ti, t) in triangles.iter().enumerate() {
            for k in 0..3 {
                let (a, b) = (t[k], t[(k + 1) % 3]);
                adj.entry((a.min(b), a.max(b))).or_default().push((ti, k));
            }
        }
        let mut edge_real = vec![0b111u8; triangles.len()];
        for list in adj.values() {
            if list.len() != 2 {
                continue;
            }
            for (s, o) in [(list[0], list[1]), (list[1], list[0])] {
                let (ti, k) = s;
                let (tj, kj) = o;
                let n = normals[ti];
                if n == Vec3::ZERO || normals[tj] == Vec3::ZERO {
                    continue;
                }
                let a = vertices[triangles[ti][k] as usize];
                let c_other = vertices[triangles[tj][(kj + 2) % 3] as usize];
                // Coplanar or concave fold: the edge is internal for this triangle.
                if n.dot(c_other - a) >= -eps && n.dot(normals[tj]) > 0.0 {
                    edge_real[ti] &= !(1 << k);
                }
            }
        }
        let mut mesh = Self {
            vertices,
            triangles,
            normals,
            edge_real,
            nodes: Vec::new(),
            order: Vec::new(),
        };
        mesh.build_bvh();
        Ok(mesh)
    }

    fn tri_aabb(&self, t: u32) -> Aabb {
        let [a, b, c] = self.triangles[t as usize].map(|k| self.vertices[k as usize]);
        Aabb::new(a.min(b).min(c), a.max(b).max(c))
    }

    fn build_bvh(&mut self) {
        let n = self.triangles.len();
        self.order = (0..n as u32).collect();
        let boxes: Vec<Aabb> = (0..n as u32).map(|t| self.tri_aabb(t)).collect();
        let mut order = std::mem::take(&mut self.order);
        let mut nodes = Vec::with_capacity(2 * n / LEAF_SIZE + 1);
        build(&boxes, &mut order, 0, &mut nodes);
        self.order = order;
        self.nodes = nodes;
    }

    /// Calls `f(triangle_index)` for every triangle whose box overlaps `aabb` (local frame).
    pub fn query(&self, aabb: &Aabb, mut f: impl FnMut(u32)) {
        let mut stack: smallvec::SmallVec<[u32; 64]> = smallvec::SmallVec::new();
        if self.nodes.is_empty() {
            return;
        }
        stack.push(0);
        while let Some(i) = stack.pop() {
            let node = &self.nodes[i as usize];
            if !node.aabb.overlaps(aabb) {
                continue;
            }
            if node.count > 0 {
                for &t in &self.order[node.start as usize..(node.start + node.count) as usize] {
                    if self.tri_aabb(t).overlaps(aabb) {
                        f(t);
                    }
                }
            } else {
                stack.push(node.start);
                stack.push(i + 1);
            }
        }
    }

    /// Vertices (local frame).
    #[must_use]
    pub fn vertices(&self) -> &[Vec3] {
        &self.vertices
    }
    /// Index triples.
    #[must_use]
    pub fn triangles(&self) -> &[[u32; 3]] {
        &self.triangles
    }
    /// The three corners of triangle `t`.
    #[must_use]
    pub fn triangle(&self, t: u32) -> [Vec3; 3] {
        self.triangles[t as usize].map(|k| self.vertices[k as usize])
    }
    /// Unit normal of triangle `t` (zero for a degenerate triangle).
    #[must_use]
    pub fn normal(&self, t: u32) -> Vec3 {
        self.normals[t as usize]
    }
    /// Bit k set when edge k (corner k to corner k+1) of triangle `t` is a real edge.
    #[must_use]
    pub fn real_edges(&self, t: u32) -> u8 {
        self.edge_real[t as usize]
    }
    /// Local bounding box of the whole mesh.
    #[must_use]
    pub fn local_aabb(&self) -> Aabb {
        self.nodes.first().map_or(Aabb::EMPTY, |n| n.aabb)
    }
}

fn build(boxes: &[Aabb], order: &mut [u32], start: usize, nodes: &mut Vec<Node>) -> u32 {
    let me = nodes.len() as u32;
    let aabb = order
        .iter()
        .fold(Aabb::EMPTY, |b, &t| b.union(&boxes[t as usize]));
    nodes.push(Node {
        aabb,
        start: start as u32,
        count: order.len() as u32,
    });
    if order.len() <= LEAF_SIZE {
        return me;
    }
    let cb = order.iter().fold(Aabb::EMPTY, |b, &t| {
        let c = boxes[t as usize].center();
        Aabb::new(b.min.min(c), b.max.max(c))
    });
    let ext = cb.max - cb.min;
    let axis = if ext.x >= ext.y && ext.x >= ext.z {
        0
    } else if ext.y >= ext.z {
        1
    } else {
        2
    };
    let mid = order.len() / 2;
    order.select_nth_unstable_by(mid, |&a, &b| {
        boxes[a as usize].center()[axis].total_cmp(&boxes[b as usize].center()[axis])
    });
    let (l, r) = order.split_at_mut(mid);
    build(boxes, l, start, nodes);
    let right = build(boxes, r, start + mid, nodes);
    nodes[me as usize].start = right;
    nodes[me as usize].count = 0;
    me
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A flat n×n grid of quads in the y = 0 plane.
    pub(crate) fn grid(n: u32) -> TriMesh {
        let mut v = Vec::new();
        for i in 0..=n {
            for j in 0..=n {
                v.push(Vec3::new(i as f32, 0.0, j as f32));
            }
        }
        let mut t = Vec::new();
        for i in 0..n {
            for j in 0..n {
                let a = i * (n + 1) + j;
                let (b, c, d) = (a + 1, a + n + 1, a + n + 2);
                t.push([a, b, d]);
                t.push([a, d, c]);
            }
        }
        TriMesh::new(v, t).unwrap()
    }

    #[test]
    fn flat_grid_edges_are_internal_except_boundary() {
        let m = grid(4);
        assert!(m.normal(0).dot(Vec3::Y) > 0.99);
        let interior = (0..m.triangles().len() as u32)
            .filter(|&t| m.real_edges(t) == 0)
            .count();
        assert!(interior > 0);
        let mut hits = Vec::new();
        m.query(
            &Aabb::new(Vec3::new(1.2, -0.1, 1.2), Vec3::new(1.8, 0.1, 1.8)),
            |t| hits.push(t),
        );
        assert_eq!(hits.len(), 2);
    }

    #[test]
    fn bad_meshes() {
        assert!(TriMesh::new(vec![Vec3::ZERO], vec![]).is_err());
        assert!(TriMesh::new(vec![Vec3::ZERO, Vec3::X, Vec3::Y], vec![[0, 1, 3]]).is_err());
    }
}
