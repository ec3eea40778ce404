//! Shared by the ECS examples: spawn a scene description's bodies as entities.

use bevy_ecs::prelude::*;
use thud_ecs::prelude::*;
use thud_scene::schema::{BodyDef, BodyKindDef};

/// Spawns one entity per body of `defs` (one shape each) and returns them in order.
pub fn spawn_bodies(world: &mut World, defs: &[BodyDef]) -> Vec<Entity> {
    let mut out = Vec::with_capacity(defs.len());
    for def in defs {
        let kind = match def.kind {
            BodyKindDef::Dynamic => RigidBody::Dynamic,
            BodyKindDef::Kinematic => RigidBody::Kinematic,
            BodyKindDef::Static => RigidBody::Static,
        };
        let Ok(parts) = thud_scene::instantiate::shapes_of(def) else {
            eprintln!("skipping {}: bad shape", def.name);
            continue;
        };
        let Some((pose, shape)) = parts.into_iter().next() else {
            continue;
        };
        let collider = thud_dynamics::Collider::new(shape)
            .friction(def.friction)
            .restitution(def.restitution)
            .density(def.density)
            .local_pose(pose);
        let pose = PhysicsTransform::from_translation(def.position).with_rotation(def.rotation);
        out.push(world.spawn((kind, Collider(collider), pose)).id());
    }
    out
}
