//! # thud-collide: geometry for the thud physics engine
//!
//! This crate knows shapes and poses, nothing of bodies or solvers. One step of
//! collision detection is three stages:
//!
//! ```text
//! poses ─► Shape::aabb (+margin) ─► BroadPhase::find_pairs ─► NarrowPhase::update ─► manifolds
//!                                    (static/moving sets,       (contact_manifolds per pair,
//!                                     filters, sorted pairs)     cache: feature ids, user data)
//! ```
//!
//! ## Contents
//!
//! | module | concept |
//! |---|---|
//! | [`pose`] | [`Pose`]: rotation + translation |
//! | [`shape`] | [`Shape`] and its validated kinds; [`ShapeError`] in [`error`] |
//! | [`mass`] | [`MassProperties`]: closed forms, polyhedra, compounds |
//! | [`aabb`] | [`Aabb`] |
//! | [`filter`] | [`CollisionFilter`] group/mask bits |
//! | [`broadphase`] | [`BroadPhase`]: overlapping pairs, deterministic order (on a dynamic AABB tree, `tree.rs`) |
//! | [`manifold`] | [`Manifold`], [`ContactPoint`], [`FeatureId`]: the contract with the solver |
//! | [`narrow`] | [`contact_manifolds`]: one routine per pair of shape kinds |
//! | [`cache`] | [`NarrowPhase`]: persistent manifolds, parallel and deterministic |
//! | [`denormals`] | [`FlushDenormals`]: subnormal floats flushed to zero while a step runs |
//!
//! ## Example
//!
//! ```
//! use glam::Vec3;
//! use thud_collide::{Pose, Shape, contact_manifolds};
//!
//! let ground = Shape::halfspace(Vec3::Y).unwrap();
//! let cube = Shape::cuboid(Vec3::splat(0.5)).unwrap();
//! let mut out = Vec::new();
//! contact_manifolds(&ground, &Pose::IDENTITY, &cube, &Pose::from_translation(Vec3::Y * 0.5), 0.02, &mut out);
//! let (_, _, m) = &out[0];
//! assert_eq!(m.points.len(), 4);
//! assert!(m.points.iter().all(|p| p.separation.abs() < 1e-6));
//! ```

pub mod aabb;
pub mod broadphase;
pub mod cache;
pub mod denormals;
pub mod error;
pub mod filter;
pub mod manifold;
pub mod mass;
pub mod narrow;
pub mod pose;
pub mod shape;
pub(crate) mod tree;

pub use aabb::Aabb;
pub use broadphase::{BroadPhase, UpdatePart};
pub use cache::{ManifoldTap, NarrowPhase, PairManifold};
pub use denormals::{FlushDenormals, flushed};
pub use error::ShapeError;
pub use filter::CollisionFilter;
pub use manifold::{ContactPoint, ContactPoints, FeatureId, Manifold};
pub use mass::MassProperties;
pub use narrow::{contact, contact_manifolds};
pub use pose::Pose;
pub use shape::{
    Capsule, Compound, ConvexHull, Cuboid, Cylinder, Halfspace, HullFace, Shape, Sphere, TriMesh,
};

/// A small deterministic generator for the unit tests: numbers in `[0, 1)` from a
/// 64-bit linear congruential sequence started at `seed`.
#[cfg(test)]
pub(crate) fn test_rng(seed: u64) -> impl FnMut() -> f32 {
    let mut state = seed;
    move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 33) as f32) / (1u64 << 31) as f32
    }
}
