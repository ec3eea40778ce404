//! Setup: physics in a plain bevy_ecs game in two lines, or a Bevy `Plugin`.
//!
//! ```text
//! let mut world = bevy_ecs::world::World::new();
//! let mut schedule = bevy_ecs::schedule::Schedule::default();
//! thud_ecs::add_physics(&mut world, &mut schedule);
//! // each frame:
//! world.resource_mut::<thud_ecs::PhysicsClock>().frame_delta = frame_seconds;
//! schedule.run(&mut world);
//! ```
//!
//! [`add_physics`] inserts the resources, registers the messages, adds the systems in
//! their chained sets, and adds bevy_ecs's `message_update_system` before them, so
//! messages live for two frames as usual. A game that already updates its messages
//! itself calls [`add_physics_systems`] instead and registers the resources with
//! [`init_physics_resources`].

use bevy_ecs::message::{MessageRegistry, message_update_system};
use bevy_ecs::prelude::*;

use crate::messages::{ContactEnded, ContactStarted, PhysicsError};
use crate::resources::{BodyMap, ContactTracker, PhysicsClock, PhysicsWorld, StepInputs};
use crate::systems::{
    PhysicsSystems, create_bodies, gather_forces, push_changes, remove_bodies, step_world,
    write_back,
};

/// Inserts the physics resources (a default engine world unless one is present) and
/// registers the physics messages.
pub fn init_physics_resources(world: &mut World) {
    world.init_resource::<PhysicsWorld>();
    world.init_resource::<PhysicsClock>();
    world.init_resource::<BodyMap>();
    world.init_resource::<StepInputs>();
    world.init_resource::<ContactTracker>();
    MessageRegistry::register_message::<ContactStarted>(world);
    MessageRegistry::register_message::<ContactEnded>(world);
    MessageRegistry::register_message::<PhysicsError>(world);
}

/// Adds the physics systems to `schedule`, in the chained sets
/// [`PhysicsSystems::Prepare`] → [`PhysicsSystems::Step`] → [`PhysicsSystems::Writeback`].
pub fn add_physics_systems(schedule: &mut Schedule) {
    schedule.configure_sets(
        (
            PhysicsSystems::Prepare,
            PhysicsSystems::Step,
            PhysicsSystems::Writeback,
        )
            .chain(),
    );
    schedule.add_systems(
        (remove_bodies, create_bodies, push_changes, gather_forces)
            .chain()
            .in_set(PhysicsSystems::Prepare),
    );
    schedule.add_systems(step_world.in_set(PhysicsSystems::Step));
    schedule.add_systems(write_back.in_set(PhysicsSystems::Writeback));
}

/// Everything a plain bevy_ecs game needs: resources, messages, the systems, and the
/// message update system before them.
pub fn add_physics(world: &mut World, schedule: &mut Schedule) {
    init_physics_resources(world);
    add_physics_systems(schedule);
    schedule.add_systems(message_update_system.before(PhysicsSystems::Prepare));
}

/// A Bevy plugin: physics in `FixedPostUpdate`, one engine step per fixed tick.
///
/// The engine's `dt` should match Bevy's fixed timestep (both default to 1/60 s here
/// and 1/64 s in Bevy: set one of them). Messages are registered with the app, which
/// updates them itself.
#[cfg(feature = "bevy_app")]
#[derive(Default)]
pub struct ThudPlugin;

#[cfg(feature = "bevy_app")]
impl bevy_app::Plugin for ThudPlugin {
    fn build(&self, app: &mut bevy_app::App) {
        init_physics_resources(app.world_mut());
        app.world_mut().resource_mut::<PhysicsClock>().mode = crate::StepMode::OncePerRun;
        app.add_message::<ContactStarted>()
            .add_message::<ContactEnded>()
            .add_message::<PhysicsError>();
        app.edit_schedule(bevy_app::FixedPostUpdate, add_physics_systems);
    }
}
