//! Convex shapes seen through their support mapping, in world space.
//!
//! GJK and EPA only ask one question of a convex set `K`: its *support point*
//! `s(d) = argmax_{x∈K} d·x`. Manifold building asks a second one: the
//! *support feature* in direction `d` — the face, edge or vertex of `K` that
//! is farthest along `d`, as a polygon:
//!
//! | shape | support point | support feature |
//! |---|---|---|
//! | sphere | `c + r·d̂` | that point |
//! | capsule | core end with larger `d·`, `+ r·d̂` | the core segment `+ r·d̂` when `|â·d̂| < 0.3`, else the point |
//! | cuboid | corner `R·(sign(Rᵀd)∘h) + c` | the face whose normal is within 8° of `d` (4 corners), else the edge within 17° of perpendicular to `d`, else the corner |
//! | cylinder | cap rim point `c ± h·â + r·(radial of d)` | the cap (as an 8-gon) when `|â·d̂| > 0.7`, the side line when `< 0.3`, else the rim point |
//! | hull | vertex with the largest `d·v` | the face with the largest `d·n` |
//! | triangle | vertex with the largest `d·v` | the triangle when `|n·d̂| > 0.7`, else its highest edge or vertex |
//!
//! A feature carries an id (face index, or a code for cap/side/segment) and,
//! for polygons, the face normal, which the clipping step needs.

use glam::{Mat3, Vec3};
use smallvec::SmallVec;

use crate::shape::ConvexHull;
use crate::{Pose, Shape};

/// A convex set in world space.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Convex<'a> {
    Sphere {
        c: Vec3,
        r: f32,
    },
    Capsule {
        p: Vec3,
        q: Vec3,
        r: f32,
    },
    Cuboid {
        c: Vec3,
        rot: Mat3,
        h: Vec3,
    },
    Cylinder {
        c: Vec3,
        axis: Vec3,
        h: f32,
        r: f32,
    },
    Hull {
        pose: Pose,
        rot: Mat3,
        hull: &'a ConvexHull,
    },
    Triangle {
        v: [Vec3; 3],
        n: Vec3,
    },
}

/// A support feature: polygon (≥ 3 points, with `normal`), segment, or point.
#[derive(Clone, Debug)]
pub(crate) struct Feature {
    pub pts: SmallVec<[Vec3; 8]>,
    pub normal: Vec3,
    pub id: u32,
}

const CAP_SIDES: usize = 8;
/// A cuboid's support feature is a face when `d` is within ≈ 8° of its normal…
const FACE_COS: f32 = 0.99;
/// …an edge when `d` is within ≈ 17° of perpendicular to it, else a corner.
const EDGE_SIN: f32 = 0.3;

impl<'a> Convex<'a> {
    /// The world convex of a convex shape at `pose` (`None` for other kinds).
    pub fn new(shape: &'a Shape, pose: &Pose) -> Option<Self> {
        Some(match shape {
            Shape::Sphere(s) => Convex::Sphere {
                c: pose.position,
                r: s.radius(),
            },
            Shape::Capsule(k) => {
                let [p, q] = k.segment();
                Convex::Capsule {
                    p: pose.transform_point(p),
                    q: pose.transform_point(q),
                    r: k.radius(),
                }
            }
            Shape::Cuboid(b) => Convex::Cuboid {
                c: pose.position,
                rot: pose.rotation_matrix(),
                h: b.half_extents(),
            },
            Shape::Cylinder(k) => Convex::Cylinder {
                c: pose.position,
                axis: pose.transform_vector(glam::Vec3::Y),
                h: k.half_height(),
                r: k.radius(),
            },
            Shape::ConvexHull(h) => Convex::Hull {
                pose: *pose,
                rot: pose.rotation_matrix(),
                hull: h,
            },
            _ => return None,
        })
    }

    /// The same set moved by `d`.
    pub fn translated(&self, d: Vec3) -> Self {
        match *self {
            Convex::Sphere { c, r } => Convex::Sphere { c: c + d, r },
            Convex::Capsule { p, q, r } => Convex::Capsule {
                p: p + d,
                q: q + d,
                r,
            },
            Convex::Cuboid { c, rot, h } => Convex::Cuboid { c: c + d, rot, h },
            Convex::Cylinder { c, axis, h, r } => Convex::Cylinder {
                c: c + d,
                axis,
                h,
                r,
            },
            Convex::Hull { pose, rot, hull } => Convex::Hull {
                pose: Pose::new(pose.position + d, pose.rotation),
                rot,
                hull,
            },
            Convex::Triangle { v, n } => Convex::Triangle {
                v: v.map(|x| x + d),
                n,
            },
        }
    }

    /// A point strictly inside (or on, for a triangle).
    pub fn center(&self) -> Vec3 {
        match self {
            Convex::Sphere { c, .. } | Convex::Cuboid { c, .. } | Convex::Cylinder { c, .. } => *c,
            Convex::Capsule { p, q, .. } => (*p + *q) * 0.5,
            Convex::Hull { pose, hull, .. } => pose.transform_point(hull.interior_point()),
            Convex::Triangle { v, .. } => (v[0] + v[1] + v[2]) / 3.0,
        }
    }

    /// Support point in direction `d` (need not be normalised; zero gives some boundary point).
    pub fn support(&self, d: Vec3) -> Vec3 {
        match self {
            Convex::Sphere { c, r } => *c + d.normalize_or_zero() * *r,
            Convex::Capsule { p, q, r } => {
                let e = if d.dot(*q - *p) > 0.0 { *q } else { *p };
                e + d.normalize_or_zero() * *r
            }
            Convex::Cuboid { c, rot, h } => {
                let l = rot.transpose() * d;
                let s = Vec3::new(
                    if l.x < 0.0 { -h.x } else { h.x },
                    if l.y < 0.0 { -h.y } else { h.y },
                    if l.z < 0.0 { -h.z } else { h.z },
                );
                *c + *rot * s
            }
            Convex::Cylinder { c, axis, h, r } => {
                let along = d.dot(*axis);
                let radial = (d - *axis * along).normalize_or_zero();
                *c + *axis * (if along < 0.0 { -*h } else { *h }) + radial * *r
            }
            Convex::Hull { pose, rot, hull } => {
                let l = rot.transpose() * d;
                pose.transform_point(hull.vertices()[hull.support_index(l)])
            }
            Convex::Triangle { v, .. } => {
                let (d0, d1, d2) = (v[0].dot(d), v[1].dot(d), v[2].dot(d));
                if d0 >= d1 && d0 >= d2 {
                    v[0]
                } else if d1 >= d2 {
                    v[1]
                } else {
                    v[2]
                }
            }
        }
    }

    /// The support feature in direction `d` (unit).
    pub fn feature(&self, d: Vec3) -> Feature {
        let mut f = Feature {
            pts: SmallVec::new(),
            normal: Vec3::ZERO,
            id: 0,
        };
        match self {
            Convex::Sphere { .. } => {
                f.pts.push(self.support(d));
                f.id = 0xF0;
            }
            Convex::Capsule { p, q, r } => {
                let a = (*q - *p).normalize_or_zero();
                if a.dot(d).abs() < 0.3 {
                    f.pts.extend([*p + d * *r, *q + d * *r]);
                    f.id = 0xF1;
                } else {
                    f.pts.push(self.support(d));
                    f.id = if a.dot(d) > 0.0 { 0xF3 } else { 0xF2 };
                }
            }
            Convex::Cuboid { c, rot, h } => {
                let l = rot.transpose() * d;
                let k = if l.x.abs() >= l.y.abs() && l.x.abs() >= l.z.abs() {
                    0
                } else if l.y.abs() >= l.z.abs() {
                    1
                } else {
                    2
                };
                let sg = |x: f32| if x < 0.0 { -1.0 } else { 1.0 };
                let s = sg(l[k]);
                let (u, v) = ((k + 1) % 3, (k + 2) % 3);
                let m = l.abs();
                if m[k] >= FACE_COS * l.length() {
                    for (su, sv) in [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)] {
                        let mut p = Vec3::ZERO;
                        p[k] = s * h[k];
                        p[u] = su * h[u];
                        p[v] = sv * h[v];
                        f.pts.push(*c + *rot * p);
                    }
                    let mut n = Vec3::ZERO;
                    n[k] = s;
                    f.normal = *rot * n;
                    f.id = (k * 2 + usize::from(s < 0.0)) as u32;
                } else {
                    // An edge along the axis most perpendicular to d, or a corner.
                    let e = if m.x <= m.y && m.x <= m.z {
                        0
                    } else if m.y <= m.z {
                        1
                    } else {
                        2
                    };
                    let corner = Vec3::new(sg(l.x) * h.x, sg(l.y) * h.y, sg(l.z) * h.z);
                    if m[e] <= EDGE_SIN * l.length() {
                        let (mut p0, mut p1) = (corner, corner);
                        p0[e] = -h[e];
                        p1[e] = h[e];
                        f.pts.extend([*c + *rot * p0, *c + *rot * p1]);
                        f.id = 0x40
                            + (e as u32) * 8
                            + u32::from(l[(e + 1) % 3] < 0.0)
                            + 2 * u32::from(l[(e + 2) % 3] < 0.0);
                    } else {
                        f.pts.push(*c + *rot * corner);
                        f.id = 0x80
                            + u32::from(l.x < 0.0)
                            + 2 * u32::from(l.y < 0.0)
                            + 4 * u32::from(l.z < 0.0);
                    }
                }
            }
            Convex::Cylinder { c, axis, h, r } => {
                let along = d.dot(*axis);
                if along.abs() > 0.7 {
                    let s = if along < 0.0 { -1.0 } else { 1.0 };
                    let u = axis.any_orthonormal_vector();
                    let w = axis.cross(u) * s;
                    let centre = *c + *axis * (s * *h);
                    for i in 0..CAP_SIDES {
                        let t = i as f32 * std::f32::consts::TAU / CAP_SIDES as f32;
                        f.pts.push(centre + (u * t.cos() + w * t.sin()) * *r);
                    }
                    f.normal = *axis * s;
                    f.id = if s < 0.0 { 0xE0 } else { 0xE1 };
                } else if along.abs() < 0.3 {
                    let radial = (d - *axis * along).normalize_or_zero();
                    let base = *c + radial * *r;
                    f.pts.extend([base - *axis * *h, base + *axis * *h]);
                    f.id = 0xE2;
                } else {
                    f.pts.push(self.support(d));
                    f.id = if along < 0.0 { 0xE3 } else { 0xE4 };
                }
            }
            Convex::Hull { pose, rot, hull } => {
                let l = rot.transpose() * d;
                let (mut best, mut bd) = (0, f32::MIN);
                for (i, face) in hull.faces().iter().enumerate() {
                    let x = face.normal.dot(l);
                    if x > bd {
                        bd = x;
                        best = i;
                    }
                }
                let face = &hull.faces()[best];
                f.pts.extend(
                    face.vertices
                        .iter()
                        .map(|&k| pose.transform_point(hull.vertices()[k as usize])),
                );
                f.normal = *rot * face.normal;
                f.id = best as u32;
            }
            Convex::Triangle { v, n } => {
                let dn = n.dot(d);
                if dn.abs() > 0.7 {
                    if dn >= 0.0 {
                        f.pts.extend(*v);
                        f.normal = *n;
                        f.id = 0xD0;
                    } else {
                        f.pts.extend([v[0], v[2], v[1]]);
                        f.normal = -*n;
                        f.id = 0xD1;
                    }
                } else {
                    let ds = [v[0].dot(d), v[1].dot(d), v[2].dot(d)];
                    let mut order = [0usize, 1, 2];
                    order.sort_by(|&a, &b| ds[b].total_cmp(&ds[a]));
                    let size = (v[1] - v[0]).length().max((v[2] - v[0]).length());
                    if ds[order[0]] - ds[order[1]] < 0.05 * size {
                        let (i, j) = (order[0].min(order[1]), order[0].max(order[1]));
                        f.pts.extend([v[i], v[j]]);
                        f.id = 0xD2 + (i + j) as u32;
                    } else {
                        f.pts.push(v[order[0]]);
                        f.id = 0xD8 + order[0] as u32;
                    }
                }
            }
        }
        f
    }
}
