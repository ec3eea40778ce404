//! The [`Shape`] enum: every collision shape thud knows.
//!
//! A shape is geometry in its own local frame; a [`Pose`] places it in the
//! world. The enum is cheap to clone: the primitives are a few floats and the
//! heavy shapes (hulls, compounds, meshes) sit behind an [`Arc`]. Every
//! constructor validates and returns [`ShapeError`] instead of panicking.
//!
//! | variant | solid | finite mass |
//! |---|---|---|
//! | [`Shape::Sphere`] | ball of radius r | yes |
//! | [`Shape::Cuboid`] | box of half extents h | yes |
//! | [`Shape::Capsule`] | points within r of the y segment ±h | yes |
//! | [`Shape::Cylinder`] | `|y| ≤ h, x²+z² ≤ r²` | yes |
//! | [`Shape::Halfspace`] | `n·x ≤ 0` | no (static only) |
//! | [`Shape::ConvexHull`] | convex polyhedron | yes |
//! | [`Shape::Compound`] | union of convex children | yes |
//! | [`Shape::TriMesh`] | triangle soup surface | no (static only) |

mod compound;
mod hull;
mod primitives;
mod trimesh;

use std::sync::Arc;

use glam::Vec3;

pub use compound::Compound;
pub use hull::{ConvexHull, HullFace};
pub use primitives::{Capsule, Cuboid, Cylinder, Halfspace, Sphere};
pub use trimesh::TriMesh;

use crate::aabb::HUGE;
use crate::mass::check_density;
use crate::{Aabb, MassProperties, Pose, ShapeError};

/// A collision shape in its local frame.
#[derive(Clone, Debug)]
pub enum Shape {
    /// A ball.
    Sphere(Sphere),
    /// A box.
    Cuboid(Cuboid),
    /// A capsule along local +y.
    Capsule(Capsule),
    /// A cylinder along local +y.
    Cylinder(Cylinder),
    /// An infinite solid below a plane through the origin.
    Halfspace(Halfspace),
    /// A convex polyhedron.
    ConvexHull(Arc<ConvexHull>),
    /// Convex children with local poses.
    Compound(Arc<Compound>),
    /// A static triangle mesh.
    TriMesh(Arc<TriMesh>),
}

impl Shape {
    /// A sphere of the given radius.
    pub fn sphere(radius: f32) -> Result<Shape, ShapeError> {
        Ok(Shape::Sphere(Sphere::new(radius)?))
    }
    /// A box of the given half extents.
    pub fn cuboid(half_extents: Vec3) -> Result<Shape, ShapeError> {
        Ok(Shape::Cuboid(Cuboid::new(half_extents)?))
    }
    /// A capsule along local +y: core segment of half length `half_height`, then `radius`.
    pub fn capsule(half_height: f32, radius: f32) -> Result<Shape, ShapeError> {
        Ok(Shape::Capsule(Capsule::new(half_height, radius)?))
    }
    /// A cylinder along local +y.
    pub fn cylinder(half_height: f32, radius: f32) -> Result<Shape, ShapeError> {
        Ok(Shape::Cylinder(Cylinder::new(half_height, radius)?))
    }
    /// The half-space below the plane through the local origin with outward `normal`.
    pub fn halfspace(normal: Vec3) -> Result<Shape, ShapeError> {
        Ok(Shape::Halfspace(Halfspace::new(normal)?))
    }
    /// The convex hull of a point cloud (at least 4 non-coplanar points).
    pub fn convex_hull(points: &[Vec3]) -> Result<Shape, ShapeError> {
        Ok(Shape::ConvexHull(Arc::new(ConvexHull::new(points)?)))
    }
    /// A compound of convex shapes with local poses.
    pub fn compound(children: Vec<(Pose, Shape)>) -> Result<Shape, ShapeError> {
        Ok(Shape::Compound(Arc::new(Compound::new(children)?)))
    }
    /// A static triangle mesh.
    pub fn trimesh(vertices: Vec<Vec3>, triangles: Vec<[u32; 3]>) -> Result<Shape, ShapeError> {
        Ok(Shape::TriMesh(Arc::new(TriMesh::new(vertices, triangles)?)))
    }

    /// True for the bounded convex shapes (allowed as compound children).
    #[must_use]
    pub fn is_convex(&self) -> bool {
        matches!(
            self,
            Shape::Sphere(_)
                | Shape::Cuboid(_)
                | Shape::Capsule(_)
                | Shape::Cylinder(_)
                | Shape::ConvexHull(_)
        )
    }

    /// A short name of the variant.
    #[must_use]
    pub fn kind_name(&self) -> &'static str {
        match self {
            Shape::Sphere(_) => "sphere",
            Shape::Cuboid(_) => "cuboid",
            Shape::Capsule(_) => "capsule",
            Shape::Cylinder(_) => "cylinder",
            Shape::Halfspace(_) => "half-space",
            Shape::ConvexHull(_) => "convex hull",
            Shape::Compound(_) => "compound",
            Shape::TriMesh(_) => "triangle mesh",
        }
    }

    /// Mass properties for a uniform `density` (kg/m³).
    ///
    /// Half-spaces and meshes return [`ShapeError::NoFiniteMass`].
    pub fn mass_properties(&self, density: f32) -> Result<MassProperties, ShapeError> {
        let rho = check_density(density)?;
        Ok(match self {
            Shape::Sphere(s) => MassProperties::sphere(rho, s.radius()),
            Shape::Cuboid(c) => MassProperties::cuboid(rho, c.half_extents()),
            Shape::Capsule(c) => MassProperties::capsule(rho, c.half_height(), c.radius()),
            Shape::Cylinder(c) => MassProperties::cylinder(rho, c.half_height(), c.radius()),
            Shape::ConvexHull(h) => {
                let v = h.vertices();
                MassProperties::polyhedron(
                    rho,
                    h.interior_point(),
                    h.faces().iter().flat_map(move |f| {
                        (1..f.vertices.len() - 1).map(move |k| {
                            [
                                v[f.vertices[0] as usize],
                                v[f.vertices[k] as usize],
                                v[f.vertices[k + 1] as usize],
                            ]
                        })
                    }),
                )
            }
            Shape::Compound(c) => {
                let mut parts = Vec::with_capacity(c.children().len());
                for (pose, child) in c.children() {
                    parts.push((*pose, child.mass_properties(rho)?));
                }
                MassProperties::compose(&parts)
            }
            Shape::Halfspace(_) | Shape::TriMesh(_) => {
                return Err(ShapeError::NoFiniteMass(self.kind_name()));
            }
        })
    }

    /// The world bounding box of the shape placed at `pose` (no margin).
    #[must_use]
    pub fn aabb(&self, pose: &Pose) -> Aabb {
        let c = pose.position;
        match self {
            Shape::Sphere(s) => Aabb::from_center_half_extents(c, Vec3::splat(s.radius())),
            Shape::Cuboid(b) => {
                Aabb::from_rotated_box(c, &pose.rotation_matrix(), b.half_extents())
            }
            Shape::Capsule(k) => {
                let a = pose.transform_vector(Vec3::Y) * k.half_height();
                Aabb::from_center_half_extents(c, a.abs() + Vec3::splat(k.radius()))
            }
            Shape::Cylinder(k) => {
                let a = pose.transform_vector(Vec3::Y);
                let r = (Vec3::ONE - a * a).max(Vec3::ZERO);
                let e = a.abs() * k.half_height()
                    + Vec3::new(r.x.sqrt(), r.y.sqrt(), r.z.sqrt()) * k.radius();
                Aabb::from_center_half_extents(c, e)
            }
            Shape::Halfspace(h) => {
                let n = pose.transform_vector(h.normal());
                let mut b = Aabb::new(Vec3::splat(-HUGE), Vec3::splat(HUGE));
                // Axis-aligned normals bound one side exactly.
                for k in 0..3 {
                    if (n[k].abs() - 1.0).abs() < 1e-6 {
                        if n[k] > 0.0 {
                            b.max[k] = c[k];
                        } else {
                            b.min[k] = c[k];
                        }
                    }
                }
                b
            }
            Shape::ConvexHull(h) => {
                let l = h.local_aabb();
                Aabb::from_rotated_box(
                    pose.transform_point(l.center()),
                    &pose.rotation_matrix(),
                    l.half_extents(),
                )
            }
            Shape::Compound(k) => k
                .children()
                .iter()
                .fold(Aabb::EMPTY, |acc, (p, s)| acc.union(&s.aabb(&pose.mul(*p)))),
            Shape::TriMesh(m) => {
                let l = m.local_aabb();
                Aabb::from_rotated_box(
                    pose.transform_point(l.center()),
                    &pose.rotation_matrix(),
                    l.half_extents(),
                )
            }
        }
    }
}

impl From<Sphere> for Shape {
    fn from(s: Sphere) -> Self {
        Shape::Sphere(s)
    }
}
impl From<Cuboid> for Shape {
    fn from(s: Cuboid) -> Self {
        Shape::Cuboid(s)
    }
}
impl From<Capsule> for Shape {
    fn from(s: Capsule) -> Self {
        Shape::Capsule(s)
    }
}
impl From<Cylinder> for Shape {
    fn from(s: Cylinder) -> Self {
        Shape::Cylinder(s)
    }
}
impl From<Halfspace> for Shape {
    fn from(s: Halfspace) -> Self {
        Shape::Halfspace(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constructors_validate() {
        assert!(Shape::sphere(-1.0).is_err());
        assert!(Shape::compound(vec![]).is_err());
        let plane = Shape::halfspace(Vec3::Y).unwrap();
        assert!(matches!(
            Shape::compound(vec![(Pose::IDENTITY, plane.clone())]),
            Err(ShapeError::InvalidCompoundChild { index: 0 })
        ));
        assert!(matches!(
            plane.mass_properties(1.0),
            Err(ShapeError::NoFiniteMass(_))
        ));
        assert!(Shape::sphere(1.0).unwrap().mass_properties(0.0).is_err());
    }

    #[test]
    fn hull_mass_matches_cuboid() {
        let pts: Vec<Vec3> = (0..8)
            .map(|i| {
                Vec3::new(
                    if i & 1 == 0 { -0.5 } else { 0.5 },
                    if i & 2 == 0 { -1.0 } else { 1.0 },
                    if i & 4 == 0 { -2.0 } else { 2.0 },
                )
            })
            .collect();
        let h = Shape::convex_hull(&pts)
            .unwrap()
            .mass_properties(2.0)
            .unwrap();
        let b = Shape::cuboid(Vec3::new(0.5, 1.0, 2.0))
            .unwrap()
            .mass_properties(2.0)
            .unwrap();
        assert!((h.mass - b.mass).abs() < 1e-3);
        assert!(
            (h.inertia - b.inertia)
                .to_cols_array()
                .iter()
                .all(|x| x.abs() < 1e-2)
        );
    }

    #[test]
    fn halfspace_aabb_is_finite() {
        let b = Shape::halfspace(Vec3::Y).unwrap().aabb(&Pose::IDENTITY);
        assert!(b.is_valid() && b.max.y == 0.0);
    }
}
