//! Mass properties: mass, centre of mass and inertia tensor from shape and density.
//!
//! All inertia tensors are about the centre of mass, in the shape's local frame
//! (kg·m²). Closed forms, with `ρ` the density (kg/m³):
//!
//! | shape | mass | inertia |
//! |---|---|---|
//! | sphere `r` | `ρ·4/3·π·r³` | `2/5·m·r²` on every axis |
//! | cuboid `h` | `ρ·8·hx·hy·hz` | `Ixx = m/3·(hy² + hz²)`, … |
//! | cylinder `h, r` (axis y) | `ρ·π·r²·2h` | `Iyy = m·r²/2`, `Ixx = Izz = m·(3r² + 4h²)/12` |
//! | capsule `h, r` (axis y) | `mc + ms`, `mc = ρ·π·r²·2h`, `ms = ρ·4/3·π·r³` | `Iyy = mc·r²/2 + ms·2r²/5`, `Ixx = mc·(3r² + 4h²)/12 + ms·(2r²/5 + h² + 3hr/4)` |
//!
//! The capsule's cap term: a hemisphere of mass `ms/2` has inertia `2/5·(ms/2)·r²`
//! about a transverse axis through its flat face; its centre of mass sits `3r/8`
//! from that face, so moving the axis to the capsule centre (distance `h` from
//! the face) adds `(ms/2)·((h + 3r/8)² − (3r/8)²) = (ms/2)·(h² + 3hr/4)`.
//!
//! **Polyhedra** (convex hulls) use the covariance form of the tetrahedral
//! decomposition: fan every face from a point `o` inside; a tetrahedron
//! `(o, o+a, o+b, o+c)` with `A = [a b c]` has volume `det A / 6` and second
//! moment (covariance about `o`) `C = det A · A·Ĉ·Aᵀ` with the canonical
//! `Ĉ = 1/120·[[2,1,1],[1,2,1],[1,1,2]]`. Summing, shifting `C` to the centre
//! of mass (`C −= V·c·cᵀ`, with `c` relative to `o`) and scaling by `ρ` gives the
//! inertia `I = tr(C)·𝟙 − C`. This is exact for any closed polyhedron.
//!
//! **Compounds** sum their children: `m = Σ mᵢ`, `c = Σ mᵢ·cᵢ / m`, and each
//! child's tensor is rotated into the parent frame (`R·I·Rᵀ`) and moved by the
//! parallel-axis theorem `I += mᵢ·(|d|²·𝟙 − d·dᵀ)`, `d = cᵢ − c`.

use glam::{Mat3, Vec3};

use crate::{Pose, ShapeError};

/// Mass, centre of mass and inertia of a shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MassProperties {
    /// Mass in kg.
    pub mass: f32,
    /// Centre of mass in the shape's local frame (m).
    pub local_com: Vec3,
    /// Inertia tensor about the centre of mass, local axes (kg·m²).
    pub inertia: Mat3,
}

pub(crate) fn check_density(density: f32) -> Result<f32, ShapeError> {
    if density.is_finite() && density > 0.0 {
        Ok(density)
    } else {
        Err(ShapeError::InvalidDensity(density))
    }
}

impl MassProperties {
    /// A solid sphere.
    #[must_use]
    pub fn sphere(density: f32, radius: f32) -> Self {
        let m = density * 4.0 / 3.0 * std::f32::consts::PI * radius.powi(3);
        Self {
            mass: m,
            local_com: Vec3::ZERO,
            inertia: Mat3::from_diagonal(Vec3::splat(0.4 * m * radius * radius)),
        }
    }

    /// A solid box with half extents `h`.
    #[must_use]
    pub fn cuboid(density: f32, h: Vec3) -> Self {
        let m = density * 8.0 * h.x * h.y * h.z;
        let s = h * h;
        Self {
            mass: m,
            local_com: Vec3::ZERO,
            inertia: Mat3::from_diagonal(Vec3::new(s.y + s.z, s.x + s.z, s.x + s.y) * (m / 3.0)),
        }
    }

    /// A solid cylinder along +y.
    #[must_use]
    pub fn cylinder(density: f32, half_height: f32, radius: f32) -> Self {
        let (h, r) = (half_height, radius);
        let m = density * std::f32::consts::PI * r * r * 2.0 * h;
        let t = m * (3.0 * r * r + 4.0 * h * h) / 12.0;
        Self {
            mass: m,
            local_com: Vec3::ZERO,
            inertia: Mat3::from_diagonal(Vec3::new(t, 0.5 * m * r * r, t)),
        }
    }

    /// A solid capsule along +y.
    #[must_use]
    pub fn capsule(density: f32, half_height: f32, radius: f32) -> Self {
        let (h, r) = (half_height, radius);
        let pi = std::f32::consts::PI;
        let mc = density * pi * r * r * 2.0 * h;
        let ms = density * 4.0 / 3.0 * pi * r * r * r;
        let iyy = mc * r * r / 2.0 + ms * 0.4 * r * r;
        let ixx =
            mc * (3.0 * r * r + 4.0 * h * h) / 12.0 + ms * (0.4 * r * r + h * h + 0.75 * h * r);
        Self {
            mass: mc + ms,
            local_com: Vec3::ZERO,
            inertia: Mat3::from_diagonal(Vec3::new(ixx, iyy, ixx)),
        }
    }

    /// A closed polyhedron given as triangles (counter-clockwise seen from outside)
    /// fanned from the point `inner`, which should lie inside.
    #[must_use]
    pub fn polyhedron(
        density: f32,
        inner: Vec3,
        triangles: impl Iterator<Item = [Vec3; 3]>,
    ) -> Self {
        let canon = Mat3::from_cols(
            Vec3::new(2.0, 1.0, 1.0),
            Vec3::new(1.0, 2.0, 1.0),
            Vec3::new(1.0, 1.0, 2.0),
        ) * (1.0 / 120.0);
        let mut vol = 0.0f64;
        let mut first = [0.0f64; 3];
        let mut cov = Mat3::ZERO;
        for [p, q, r] in triangles {
            let a = Mat3::from_cols(p - inner, q - inner, r - inner);
            let det = a.determinant();
            vol += f64::from(det) / 6.0;
            let s = (a.x_axis + a.y_axis + a.z_axis) * (det / 24.0);
            first[0] += f64::from(s.x);
            first[1] += f64::from(s.y);
            first[2] += f64::from(s.z);
            cov += a * canon * a.transpose() * det;
        }
        if vol.is_nan() || vol <= 0.0 {
            return Self {
                mass: 0.0,
                local_com: inner,
                inertia: Mat3::ZERO,
            };
        }
        let c = Vec3::new(
            (first[0] / vol) as f32,
            (first[1] / vol) as f32,
            (first[2] / vol) as f32,
        );
        let v = vol as f32;
        let cov_c = cov - outer(c, c) * v;
        let inertia = (Mat3::from_diagonal(Vec3::splat(trace(&cov_c))) - cov_c) * density;
        Self {
            mass: density * v,
            local_com: inner + c,
            inertia,
        }
    }

    /// Combines parts given in a common frame: each `(pose, props)` has its
    /// properties in its own frame, placed by `pose`.
    #[must_use]
    pub fn compose(parts: &[(Pose, MassProperties)]) -> Self {
        let mass: f32 = parts.iter().map(|(_, p)| p.mass).sum();
        if mass.is_nan() || mass <= 0.0 {
            return Self {
                mass: 0.0,
                local_com: Vec3::ZERO,
                inertia: Mat3::ZERO,
            };
        }
        let com = parts
            .iter()
            .map(|(pose, p)| pose.transform_point(p.local_com) * p.mass)
            .sum::<Vec3>()
            / mass;
        let mut inertia = Mat3::ZERO;
        for (pose, p) in parts {
            let r = pose.rotation_matrix();
            let d = pose.transform_point(p.local_com) - com;
            inertia += r * p.inertia * r.transpose() + parallel_axis(p.mass, d);
        }
        Self {
            mass,
            local_com: com,
            inertia,
        }
    }

    /// The inertia about a point at offset `d` from the centre of mass.
    #[must_use]
    pub fn inertia_about(&self, d: Vec3) -> Mat3 {
        self.inertia + parallel_axis(self.mass, d)
    }
}

fn outer(a: Vec3, b: Vec3) -> Mat3 {
    Mat3::from_cols(a * b.x, a * b.y, a * b.z)
}

fn trace(m: &Mat3) -> f32 {
    m.x_axis.x + m.y_axis.y + m.z_axis.z
}

/// `m·(|d|²·𝟙 − d·dᵀ)`.
fn parallel_axis(m: f32, d: Vec3) -> Mat3 {
    (Mat3::from_diagonal(Vec3::splat(d.length_squared())) - outer(d, d)) * m
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Mat3, b: Mat3, tol: f32) -> bool {
        (a - b).to_cols_array().iter().all(|x| x.abs() <= tol)
    }

    fn box_tris(h: Vec3) -> Vec<[Vec3; 3]> {
        let c = |i: u32| {
            Vec3::new(
                if i & 1 == 0 { -h.x } else { h.x },
                if i & 2 == 0 { -h.y } else { h.y },
                if i & 4 == 0 { -h.z } else { h.z },
            )
        };
        // Faces as quads (ccw from outside), split in two triangles.
        let quads = [
            [0, 4, 6, 2],
            [1, 3, 7, 5],
            [0, 1, 5, 4],
            [2, 6, 7, 3],
            [0, 2, 3, 1],
            [4, 5, 7, 6],
        ];
        let mut t = Vec::new();
        for q in quads {
            t.push([c(q[0]), c(q[1]), c(q[2])]);
            t.push([c(q[0]), c(q[2]), c(q[3])]);
        }
        t
    }

    #[test]
    fn polyhedron_matches_cuboid() {
        let h = Vec3::new(0.5, 1.0, 2.0);
        let exact = MassProperties::cuboid(3.0, h);
        let shift = Vec3::new(0.2, -0.1, 0.3);
        let p = MassProperties::polyhedron(3.0, shift, box_tris(h).into_iter());
        assert!((p.mass - exact.mass).abs() < 1e-3 * exact.mass);
        assert!(p.local_com.length() < 1e-5);
        assert!(close(
            p.inertia,
            exact.inertia,
            1e-3 * exact.inertia.x_axis.x
        ));
    }

    #[test]
    fn compose_two_boxes_is_one_box() {
        let half = MassProperties::cuboid(1.0, Vec3::new(0.5, 0.5, 0.5));
        let whole = MassProperties::cuboid(1.0, Vec3::new(1.0, 0.5, 0.5));
        let c = MassProperties::compose(&[
            (Pose::from_translation(Vec3::new(-0.5, 0.0, 0.0)), half),
            (
                Pose::new(Vec3::new(0.5, 0.0, 0.0), glam::Quat::from_rotation_y(1.0)),
                half,
            ),
        ]);
        assert!((c.mass - whole.mass).abs() < 1e-5);
        assert!(c.local_com.length() < 1e-6);
        assert!(close(c.inertia, whole.inertia, 1e-5));
    }

    #[test]
    fn capsule_limits() {
        // As the core shrinks a capsule tends to a sphere.
        let c = MassProperties::capsule(1.0, 1e-4, 1.0);
        let s = MassProperties::sphere(1.0, 1.0);
        assert!((c.mass - s.mass).abs() < 1e-3);
        assert!(close(c.inertia, s.inertia, 1e-3));
        let cy = MassProperties::cylinder(2.0, 1.0, 0.5);
        assert!((cy.mass - 2.0 * std::f32::consts::PI * 0.25 * 2.0).abs() < 1e-5);
    }
}
