//! The Rapier side: one converter, [`RapierEngine::new`], from the same
//! `thud_scene::Scene` values thud builds from (shape, pose, velocities, density or
//! mass, friction, restitution, kind; dt, gravity) to Rapier bodies and colliders, to
//! the specification of `scenes.md`.
//!
//! - Integration parameters are `IntegrationParameters::default()` with the scene's
//!   dt. With [`Budget::Matched`], `num_solver_iterations` and
//!   `num_internal_pgs_iterations` are set to thud's `solve_substeps` and `iterations`
//!   (see [`Budget`]).
//! - Sleeping is off: every body is created with `can_sleep(false)`.
//! - Friction combines as `GeometricMean` (√(μa·μb), thud's documented rule) and
//!   restitution as `Max`, on every collider. Rapier's default friction rule is the
//!   average; all standard-scene materials are equal (μ = 0.6 everywhere), so any rule
//!   would give the same μ there, but the geometric mean keeps other scenes equal too.
//! - Single-threaded: the `parallel` feature of `rapier3d` is not enabled.
//! - Rapier uses its own glam version; vectors and quaternions cross by components.

use glam::{Quat, Vec3};
use rapier3d::prelude::*;
use thud_scene::{BodyDef, BodyKindDef, Scene, ShapeDef};

use crate::engine::{BodyState, Engine};
use crate::error::CompareError;

/// Which solver budget Rapier runs with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// `IntegrationParameters::default()`: 4 solver iterations per step, each a
    /// substep with 1 PGS sweep and 1 stabilization sweep.
    Default,
    /// thud's solve budget: `num_solver_iterations` = thud's `solve_substeps` (4 by
    /// default) and `num_internal_pgs_iterations` = thud's `iterations` per substep (3),
    /// the rest at Rapier's defaults. Rapier's solver iterations are substeps of the
    /// same kind as thud's solve substeps (positions move, contacts stay), so this
    /// matches the substeps and the velocity sweeps per step, not the work per sweep.
    Matched {
        /// Substeps per step.
        substeps: usize,
        /// PGS sweeps per substep.
        sweeps: usize,
    },
}

/// Rapier integration parameters for a scene and budget.
#[must_use]
pub fn integration_parameters(scene: &Scene, budget: Budget) -> IntegrationParameters {
    let mut p = IntegrationParameters {
        dt: scene.settings.dt,
        ..IntegrationParameters::default()
    };
    if let Budget::Matched { substeps, sweeps } = budget {
        p.num_solver_iterations = substeps.max(1);
        p.num_internal_pgs_iterations = sweeps.max(1);
    }
    p
}

fn vector(v: Vec3) -> Vector {
    Vector::new(v.x, v.y, v.z)
}

fn rotation(q: Quat) -> Rotation {
    Rotation::from_xyzw(q.x, q.y, q.z, q.w)
}

fn pose(p: Vec3, q: Quat) -> Pose {
    Pose::from_parts(vector(p), rotation(q))
}

/// The Rapier shape of a scene shape.
fn shared_shape(def: &ShapeDef) -> SharedShape {
    match *def {
        ShapeDef::Cuboid { half_extents: h } => SharedShape::cuboid(h.x, h.y, h.z),
        ShapeDef::Sphere { radius } => SharedShape::ball(radius),
        ShapeDef::Capsule {
            half_height,
            radius,
        } => SharedShape::capsule_y(half_height, radius),
        ShapeDef::Cylinder {
            half_height,
            radius,
        } => SharedShape::cylinder(half_height, radius),
        ShapeDef::Halfspace { normal } => {
            SharedShape::halfspace(vector(normal.normalize_or(Vec3::Y)))
        }
    }
}

/// The body builder of a scene body (kind, pose, velocities; never sleeping).
fn body_builder(def: &BodyDef, index: usize) -> RigidBodyBuilder {
    match def.kind {
        BodyKindDef::Dynamic => RigidBodyBuilder::dynamic(),
        BodyKindDef::Kinematic => RigidBodyBuilder::kinematic_velocity_based(),
        BodyKindDef::Static => RigidBodyBuilder::fixed(),
    }
    .pose(pose(def.position, def.resolved_rotation()))
    .linvel(vector(def.velocity))
    .angvel(vector(def.angular_velocity))
    .can_sleep(false)
    .user_data(index as u128)
}

/// The colliders of a scene body: its shape at the body origin, then its parts.
///
/// With a mass override the density is scaled so the body's total mass is the given
/// one (thud scales the inertia to match the same way).
fn colliders(def: &BodyDef) -> Result<Vec<ColliderBuilder>, CompareError> {
    if def.material.is_some() {
        // Materials are resolved into the body by `thud_scene::resolve` at load time;
        // the standard scenes use none.
        return Err(CompareError::Unsupported {
            body: def.name.clone(),
            what: "unresolved named materials",
        });
    }
    let mut shapes = vec![(shared_shape(&def.shape), Vec3::ZERO, Quat::IDENTITY)];
    for part in &def.parts {
        shapes.push((shared_shape(&part.shape), part.position, part.rotation));
    }
    let mut density = def.density;
    if let Some(m) = def.mass {
        let unit_mass: f32 = shapes
            .iter()
            .map(|(s, _, _)| s.mass_properties(1.0).mass())
            .sum();
        if !(unit_mass > 0.0 && unit_mass.is_finite()) {
            return Err(CompareError::Unsupported {
                body: def.name.clone(),
                what: "a mass override on shapes without volume",
            });
        }
        density = m / unit_mass;
    }
    Ok(shapes
        .into_iter()
        .map(|(shape, p, q)| {
            ColliderBuilder::new(shape)
                .position(pose(p, q))
                .density(density)
                .friction(def.friction)
                .friction_combine_rule(CoefficientCombineRule::GeometricMean)
                .restitution(def.restitution)
                .restitution_combine_rule(CoefficientCombineRule::Max)
        })
        .collect())
}

/// A Rapier world holding one scene.
pub struct RapierEngine {
    world: PhysicsWorld,
    handles: Vec<RigidBodyHandle>,
}

impl RapierEngine {
    /// Converts the scene's bodies, in order, into a Rapier world.
    pub fn new(scene: &Scene, budget: Budget) -> Result<RapierEngine, CompareError> {
        // Both engines' sets are made with room for the scene (thud: `World::reserve`),
        // so neither pays the arrays' growth slack in the memory table.
        let n = scene.bodies.len();
        let mut world = PhysicsWorld {
            gravity: vector(scene.settings.gravity),
            integration_parameters: integration_parameters(scene, budget),
            bodies: RigidBodySet::with_capacity(n),
            colliders: ColliderSet::with_capacity(n),
            ..PhysicsWorld::default()
        };
        let mut handles = Vec::with_capacity(scene.bodies.len());
        for (i, def) in scene.bodies.iter().enumerate() {
            let parts = colliders(def)?;
            let h = world.bodies.insert(body_builder(def, i));
            for c in parts {
                world.colliders.insert_with_parent(c, h, &mut world.bodies);
            }
            handles.push(h);
        }
        Ok(RapierEngine { world, handles })
    }
}

impl Engine for RapierEngine {
    fn name(&self) -> &'static str {
        "Rapier"
    }

    fn step(&mut self) -> Result<(), CompareError> {
        self.world.step();
        Ok(())
    }

    fn states(&self, out: &mut Vec<BodyState>) {
        out.clear();
        for &h in &self.handles {
            let Some(b) = self.world.bodies.get(h) else {
                continue;
            };
            let t = b.translation();
            let q = b.rotation();
            let c = b.center_of_mass();
            let v = b.linvel();
            let dynamic = b.is_dynamic();
            out.push(BodyState {
                position: Vec3::new(t.x, t.y, t.z),
                rotation: Quat::from_xyzw(q.x, q.y, q.z, q.w),
                center_of_mass: Vec3::new(c.x, c.y, c.z),
                linear_velocity: Vec3::new(v.x, v.y, v.z),
                kinetic_energy: if dynamic {
                    f64::from(b.kinetic_energy())
                } else {
                    0.0
                },
                mass: if dynamic { b.mass() } else { 0.0 },
                dynamic,
            });
        }
    }

    fn contact_points(&self) -> usize {
        self.world
            .contact_pairs()
            .filter_map(ContactPair::rigid)
            .flat_map(|r| r.solver_manifolds())
            .map(|m| m.data.solver_contacts.len())
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::thud_side::ThudEngine;

    /// Both engines start every standard scene with the same bodies: same order,
    /// kinds, poses and masses (1 kg boxes).
    #[test]
    fn converter_matches_thud_on_every_standard_scene() {
        for name in thud_scene::STANDARD_NAMES {
            let scene = thud_scene::standard(name).expect("standard scene");
            let (mut a, mut b) = (Vec::new(), Vec::new());
            ThudEngine::new(&scene).expect("thud world").states(&mut a);
            RapierEngine::new(&scene, Budget::Default)
                .expect("Rapier world")
                .states(&mut b);
            assert_eq!(a.len(), scene.bodies.len(), "{name}");
            assert_eq!(a.len(), b.len(), "{name}");
            for (i, (s, r)) in a.iter().zip(&b).enumerate() {
                assert_eq!(s.dynamic, r.dynamic, "{name} body {i}");
                assert!((s.position - r.position).length() < 1e-6, "{name} body {i}");
                assert!(
                    s.rotation.dot(r.rotation).abs() > 1.0 - 1e-6,
                    "{name} body {i}"
                );
                assert!((s.mass - r.mass).abs() < 1e-4, "{name} body {i}");
                assert!((s.center_of_mass - r.center_of_mass).length() < 1e-5);
            }
        }
    }

    #[test]
    fn matched_budget_sets_the_solver_iterations() {
        let scene = thud_scene::standard("tower_20").expect("standard scene");
        let m = integration_parameters(
            &scene,
            Budget::Matched {
                substeps: 4,
                sweeps: 3,
            },
        );
        assert_eq!(
            (m.num_solver_iterations, m.num_internal_pgs_iterations),
            (4, 3)
        );
        let p = integration_parameters(&scene, Budget::Default);
        assert_eq!(
            p.num_solver_iterations,
            IntegrationParameters::default().num_solver_iterations
        );
        assert_eq!(p.dt, scene.settings.dt);
    }
}
