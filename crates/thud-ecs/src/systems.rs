//! The physics systems, in three public, ordered sets.
//!
//! ```text
//! PhysicsSystems::Prepare   ECS → engine: create bodies for new entities, remove bodies of
//!                           despawned ones, push poses / velocities / kinds the game
//!                           changed, gather forces, apply impulses
//! PhysicsSystems::Step      zero or more fixed steps of the engine (the clock decides)
//! PhysicsSystems::Writeback engine → ECS: poses, velocities, sleep state; contact messages
//! ```
//!
//! The sets are chained, so a game orders its own systems against them
//! (`my_system.before(PhysicsSystems::Prepare)`). The engine steps on its own dense
//! arrays: the solver never iterates ECS queries.
//!
//! **Telling a game's change from the writeback's.** Writeback records the values it
//! wrote in [`PhysicsBody`]; Prepare pushes a component to the engine only when it
//! differs from that record. So a game can simply assign `LinearVelocity` and it takes
//! effect on the next step, while bodies nobody touched cost one comparison.

use bevy_ecs::prelude::*;
use glam::Vec3;
use thud_dynamics::{BodyBuilder, BodyHandle, BodyKind};

use crate::components::{
    AngularVelocity, Collider, Density, ExternalForce, ExternalImpulse, GravityScale,
    LinearVelocity, Mass, PhysicsBody, PhysicsRejected, PhysicsTransform, RigidBody, Sleeping,
};
use crate::messages::{ContactEnded, ContactStarted, PhysicsError};
use crate::resources::{
    BodyMap, ContactTracker, PhysicsClock, PhysicsWorld, StepInputs, TouchInfo,
};

/// The physics system sets, run in this order.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PhysicsSystems {
    /// Copy the game's changes into the engine.
    Prepare,
    /// Run the fixed steps.
    Step,
    /// Copy the engine's state back into components and write messages.
    Writeback,
}

type NewBodyQuery<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static RigidBody,
        Option<&'static Collider>,
        &'static PhysicsTransform,
        &'static LinearVelocity,
        &'static AngularVelocity,
        &'static GravityScale,
        Option<&'static Mass>,
        Option<&'static Density>,
    ),
    (Without<PhysicsBody>, Without<PhysicsRejected>),
>;

/// Creates engine bodies for entities that got a [`RigidBody`], in entity order (so
/// the engine sees the same insertion order as a plain-`World` program spawning the
/// same bodies in the same order).
pub(crate) fn create_bodies(
    mut commands: Commands,
    mut physics: ResMut<PhysicsWorld>,
    mut map: ResMut<BodyMap>,
    new_bodies: NewBodyQuery,
    mut errors: MessageWriter<PhysicsError>,
) {
    let mut fresh: Vec<_> = new_bodies.iter().collect();
    fresh.sort_by_key(|item| item.0.index());
    for (entity, body, collider, pose, linear, angular, gravity, mass, density) in fresh {
        let mut builder = match body.kind() {
            BodyKind::Dynamic => BodyBuilder::dynamic(),
            BodyKind::Kinematic => BodyBuilder::kinematic(),
            BodyKind::Static => BodyBuilder::fixed(),
        }
        .position(pose.translation)
        .rotation(pose.rotation)
        .linear_velocity(linear.0)
        .angular_velocity(angular.0)
        .gravity_scale(gravity.0)
        .user_data(entity.to_bits());
        if let Some(collider) = collider {
            let mut c = collider.0.clone();
            if let Some(density) = density {
                c = c.density(density.0);
            }
            builder = builder.collider(c);
        }
        if let Some(mass) = mass {
            builder = builder.mass(mass.0);
        }
        match physics.0.add_body(builder) {
            Ok(handle) => {
                map.by_entity.insert(entity, handle);
                commands.entity(entity).insert(PhysicsBody {
                    handle,
                    synced_transform: *pose,
                    synced_linear: linear.0,
                    synced_angular: angular.0,
                });
            }
            Err(error) => {
                commands.entity(entity).insert(PhysicsRejected);
                errors.write(PhysicsError {
                    entity: Some(entity),
                    message: error.to_string(),
                });
            }
        }
    }
}

/// Removes the engine bodies of entities that were despawned or lost their
/// [`RigidBody`].
pub(crate) fn remove_bodies(
    mut commands: Commands,
    mut removed: RemovedComponents<RigidBody>,
    mut physics: ResMut<PhysicsWorld>,
    mut map: ResMut<BodyMap>,
    mut tracker: ResMut<ContactTracker>,
    alive: Query<(), With<PhysicsBody>>,
) {
    for entity in removed.read() {
        let Some(handle) = map.by_entity.remove(&entity) else {
            continue;
        };
        // The handle came from the engine and was never removed: this cannot fail, and
        // if it did there would be nothing left to clean up.
        let _ = physics.0.remove_body(handle);
        end_contacts_of(&mut tracker, entity);
        if alive.contains(entity) {
            commands.entity(entity).remove::<PhysicsBody>();
        }
    }
}

/// Pushes poses, velocities and kinds that the game changed since the last writeback.
#[allow(clippy::type_complexity)]
pub(crate) fn push_changes(
    mut commands: Commands,
    mut physics: ResMut<PhysicsWorld>,
    mut map: ResMut<BodyMap>,
    mut bodies: Query<
        (
            Entity,
            &mut PhysicsBody,
            Ref<RigidBody>,
            &PhysicsTransform,
            &LinearVelocity,
            &AngularVelocity,
            Ref<GravityScale>,
        ),
        Or<(
            Changed<RigidBody>,
            Changed<PhysicsTransform>,
            Changed<LinearVelocity>,
            Changed<AngularVelocity>,
            Changed<GravityScale>,
        )>,
    >,
    mut errors: MessageWriter<PhysicsError>,
) {
    let world = &mut physics.0;
    for (entity, mut synced, kind, pose, linear, angular, gravity) in &mut bodies {
        let handle = synced.handle;
        let result = (|| -> Result<(), thud_dynamics::DynamicsError> {
            if kind.is_changed() && !kind.is_added() {
                world.set_body_kind(handle, kind.kind())?;
            }
            if gravity.is_changed() && !gravity.is_added() {
                world.set_gravity_scale(handle, gravity.0)?;
            }
            if *pose != synced.synced_transform {
                if *kind == RigidBody::Kinematic {
                    world.set_kinematic_target(
                        handle,
                        thud_collide::Pose {
                            position: pose.translation,
                            rotation: pose.rotation,
                        },
                    )?;
                } else {
                    world.set_position(handle, pose.translation)?;
                    world.set_rotation(handle, pose.rotation)?;
                }
            }
            if linear.0 != synced.synced_linear {
                world.set_linear_velocity(handle, linear.0)?;
            }
            if angular.0 != synced.synced_angular {
                world.set_angular_velocity(handle, angular.0)?;
            }
            Ok(())
        })();
        match result {
            Ok(()) => {
                synced.synced_transform = *pose;
                synced.synced_linear = linear.0;
                synced.synced_angular = angular.0;
            }
            Err(error) => reject(
                &mut commands,
                world,
                &mut map,
                entity,
                handle,
                error,
                &mut errors,
            ),
        }
    }
}

/// Gathers the forces for this frame's steps and applies pending impulses.
pub(crate) fn gather_forces(
    mut commands: Commands,
    mut physics: ResMut<PhysicsWorld>,
    mut map: ResMut<BodyMap>,
    mut inputs: ResMut<StepInputs>,
    forces: Query<(&PhysicsBody, &ExternalForce)>,
    mut impulses: Query<(Entity, &PhysicsBody, &mut ExternalImpulse)>,
    mut errors: MessageWriter<PhysicsError>,
) {
    inputs.forces.clear();
    for (body, force) in &forces {
        if force.0 != Vec3::ZERO {
            inputs.forces.push((body.handle, force.0));
        }
    }
    inputs.forces.sort_by_key(|(handle, _)| *handle);
    for (entity, body, mut impulse) in &mut impulses {
        if impulse.0 == Vec3::ZERO {
            continue;
        }
        let value = std::mem::take(&mut impulse.0);
        if let Err(error) = physics.0.apply_impulse(body.handle, value) {
            reject(
                &mut commands,
                &mut physics.0,
                &mut map,
                entity,
                body.handle,
                error,
                &mut errors,
            );
        }
    }
}

/// Takes this frame's fixed steps and records which pairs started or stopped touching.
pub(crate) fn step_world(
    mut physics: ResMut<PhysicsWorld>,
    mut clock: ResMut<PhysicsClock>,
    inputs: Res<StepInputs>,
    map: Res<BodyMap>,
    mut tracker: ResMut<ContactTracker>,
    mut errors: MessageWriter<PhysicsError>,
) {
    let world = &mut physics.0;
    let steps = clock.steps_for_frame(world.settings().dt);
    for _ in 0..steps {
        for &(handle, force) in &inputs.forces {
            // A body removed by an error this frame simply has no force to take.
            let _ = world.add_force(handle, force);
        }
        if let Err(error) = world.step() {
            errors.write(PhysicsError {
                entity: None,
                message: error.to_string(),
            });
            return;
        }
        update_touching(world, &map, &mut tracker);
    }
}

/// Writes poses, velocities and sleep state back, and the frame's contact messages.
pub(crate) fn write_back(
    physics: Res<PhysicsWorld>,
    mut bodies: Query<(
        &mut PhysicsBody,
        &mut PhysicsTransform,
        &mut LinearVelocity,
        &mut AngularVelocity,
        &mut Sleeping,
    )>,
    mut tracker: ResMut<ContactTracker>,
    mut started: MessageWriter<ContactStarted>,
    mut ended: MessageWriter<ContactEnded>,
) {
    let world = &physics.0;
    for (mut synced, mut pose, mut linear, mut angular, mut sleeping) in &mut bodies {
        let Ok(body) = world.body(synced.handle) else {
            continue;
        };
        let new_pose = PhysicsTransform {
            translation: body.position(),
            rotation: body.rotation(),
        };
        pose.set_if_neq(new_pose);
        linear.set_if_neq(LinearVelocity(body.linear_velocity()));
        angular.set_if_neq(AngularVelocity(body.angular_velocity()));
        sleeping.set_if_neq(Sleeping(body.is_sleeping()));
        synced.synced_transform = new_pose;
        synced.synced_linear = body.linear_velocity();
        synced.synced_angular = body.angular_velocity();
    }
    for ((entity_a, entity_b), info) in tracker.started.drain(..) {
        started.write(ContactStarted {
            entity_a,
            entity_b,
            normal: info.normal,
            impulse: info.impulse,
        });
    }
    for ((entity_a, entity_b), info) in tracker.ended.drain(..) {
        ended.write(ContactEnded {
            entity_a,
            entity_b,
            normal: info.normal,
            impulse: info.impulse,
        });
    }
}

/// Takes an entity out of the simulation after its data was refused.
fn reject(
    commands: &mut Commands,
    world: &mut thud_dynamics::World,
    map: &mut BodyMap,
    entity: Entity,
    handle: BodyHandle,
    error: thud_dynamics::DynamicsError,
    errors: &mut MessageWriter<PhysicsError>,
) {
    let _ = world.remove_body(handle);
    map.by_entity.remove(&entity);
    commands
        .entity(entity)
        .remove::<PhysicsBody>()
        .insert(PhysicsRejected);
    errors.write(PhysicsError {
        entity: Some(entity),
        message: error.to_string(),
    });
}

/// The entity a body belongs to (its user data holds the entity's bits).
fn entity_of(world: &thud_dynamics::World, handle: BodyHandle) -> Option<Entity> {
    let body = world.body(handle).ok()?;
    Entity::try_from_bits(body.user_data())
}

/// Recomputes the touching pairs after a step and queues starts and ends.
///
/// A sleeping island keeps no live contacts in the engine, yet its pairs still touch:
/// a pair that touched before stays touching while neither of its bodies is awake.
fn update_touching(world: &thud_dynamics::World, map: &BodyMap, tracker: &mut ContactTracker) {
    let mut now = std::mem::take(&mut tracker.scratch);
    now.clear();
    for contact in world.contacts() {
        let mut impulse = 0.0;
        let mut touching = false;
        for point in &contact.points {
            impulse += point.normal_impulse;
            touching |= point.normal_impulse > 0.0 || point.separation < 0.0;
        }
        if !touching {
            continue;
        }
        let (Some(a), Some(b)) = (entity_of(world, contact.a), entity_of(world, contact.b)) else {
            continue;
        };
        let (key, normal) = if a < b {
            ((a, b), contact.normal)
        } else {
            ((b, a), -contact.normal)
        };
        let entry = now.entry(key).or_insert(TouchInfo {
            normal,
            impulse: 0.0,
        });
        entry.impulse += impulse;
    }
    let resting = |entity: Entity| {
        map.get(entity)
            .and_then(|h| world.body(h).ok())
            .is_some_and(|body| body.is_sleeping() || body.kind() == BodyKind::Static)
    };
    for (key, info) in &tracker.touching {
        if now.contains_key(key) {
            continue;
        }
        if resting(key.0) && resting(key.1) {
            now.insert(*key, *info);
        } else {
            tracker.ended.push((*key, *info));
        }
    }
    for (key, info) in &now {
        if !tracker.touching.contains_key(key) {
            tracker.started.push((*key, *info));
        }
    }
    tracker.scratch = std::mem::replace(&mut tracker.touching, now);
}

/// Ends every contact of a removed entity.
fn end_contacts_of(tracker: &mut ContactTracker, entity: Entity) {
    let gone: Vec<_> = tracker
        .touching
        .iter()
        .filter(|((a, b), _)| *a == entity || *b == entity)
        .map(|(key, info)| (*key, *info))
        .collect();
    for (key, info) in gone {
        tracker.touching.remove(&key);
        tracker.ended.push((key, info));
    }
}
