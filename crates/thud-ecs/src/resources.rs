//! Resources: the engine world, the fixed-timestep clock, and the bookkeeping that
//! maps entities to engine bodies.
//!
//! ## Fixed timestep
//!
//! Physics steps at a fixed `dt` (1/60 s by default) whatever the frame rate. Each frame
//! the game tells the clock how much time passed ([`PhysicsClock::frame_delta`]); the
//! clock adds it to an accumulator and the `Step` systems take
//! `n = floor(accumulator / dt)` steps, at most `max_steps_per_frame` (the rest is
//! dropped, so a long hitch slows the simulation down instead of spiralling). What is
//! left, `alpha = accumulator / dt ∈ [0, 1)`, is how far the render time is between the
//! last two physics states: draw `lerp(previous, current, alpha)` for smooth motion.
//!
//! With [`StepMode::OncePerRun`] the clock takes exactly one step each time the schedule
//! runs: for schedules that are already fixed-rate (Bevy's `FixedUpdate`).

use std::collections::{BTreeMap, HashMap};

use bevy_ecs::prelude::*;
use glam::Vec3;
use thud_dynamics::BodyHandle;

/// The engine world: every body, collider and contact. Read it for queries the
/// components do not carry (contacts, step statistics); change bodies through
/// components, so the ECS and the engine stay in agreement.
#[derive(Resource, Default)]
pub struct PhysicsWorld(pub thud_dynamics::World);

/// How the clock turns schedule runs into physics steps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StepMode {
    /// Accumulate `frame_delta` and take as many fixed steps as fit (plain bevy_ecs loops).
    #[default]
    Accumulate,
    /// Take exactly one step per schedule run (a schedule that already runs at a fixed rate).
    OncePerRun,
}

/// The fixed-timestep clock.
#[derive(Resource, Clone, Debug)]
pub struct PhysicsClock {
    /// How runs become steps.
    pub mode: StepMode,
    /// Time that passed since the last frame (s): set it before each schedule run.
    pub frame_delta: f32,
    /// The most steps one frame may take; time beyond it is dropped.
    pub max_steps_per_frame: u32,
    /// Time not yet simulated (s).
    pub accumulator: f32,
    /// `accumulator / dt` after the last frame: the render interpolation factor.
    pub alpha: f32,
    /// Steps the last frame took.
    pub steps_last_frame: u32,
    /// Steps taken since the start.
    pub total_steps: u64,
}

impl Default for PhysicsClock {
    fn default() -> Self {
        Self {
            mode: StepMode::Accumulate,
            frame_delta: 0.0,
            max_steps_per_frame: 4,
            accumulator: 0.0,
            alpha: 0.0,
            steps_last_frame: 0,
            total_steps: 0,
        }
    }
}

impl PhysicsClock {
    /// Consumes this frame's time and returns how many steps of `dt` to take.
    ///
    /// Non-finite or negative frame times count as zero (a paused or broken clock
    /// must not poison the accumulator).
    pub fn steps_for_frame(&mut self, dt: f32) -> u32 {
        let steps = match self.mode {
            StepMode::OncePerRun => 1,
            StepMode::Accumulate => {
                let delta = if self.frame_delta.is_finite() && self.frame_delta > 0.0 {
                    self.frame_delta
                } else {
                    0.0
                };
                self.accumulator += delta;
                let mut n = 0;
                while self.accumulator >= dt && n < self.max_steps_per_frame {
                    self.accumulator -= dt;
                    n += 1;
                }
                if n == self.max_steps_per_frame && self.accumulator >= dt {
                    // Drop what cannot be caught up with.
                    self.accumulator %= dt;
                }
                n
            }
        };
        self.alpha = if dt > 0.0 {
            (self.accumulator / dt).clamp(0.0, 1.0)
        } else {
            0.0
        };
        self.steps_last_frame = steps;
        self.total_steps += u64::from(steps);
        steps
    }
}

/// Which engine body belongs to which entity.
#[derive(Resource, Default, Debug)]
pub struct BodyMap {
    pub(crate) by_entity: HashMap<Entity, BodyHandle>,
}

impl BodyMap {
    /// The engine body of `entity`, if it is simulated.
    #[must_use]
    pub fn get(&self, entity: Entity) -> Option<BodyHandle> {
        self.by_entity.get(&entity).copied()
    }

    /// How many entities have a body in the engine.
    #[must_use]
    pub fn len(&self) -> usize {
        self.by_entity.len()
    }

    /// Whether no entity has a body in the engine.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.by_entity.is_empty()
    }
}

/// Forces gathered by `Prepare` and applied before every step of the frame.
#[derive(Resource, Default, Debug)]
pub(crate) struct StepInputs {
    pub(crate) forces: Vec<(BodyHandle, Vec3)>,
}

/// A touching pair's last known normal (from A to B) and total normal impulse (N·s).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct TouchInfo {
    pub(crate) normal: Vec3,
    pub(crate) impulse: f32,
}

/// Pairs of entities in contact after the last step, and the changes the frame made.
#[derive(Resource, Default, Debug)]
pub(crate) struct ContactTracker {
    pub(crate) touching: BTreeMap<(Entity, Entity), TouchInfo>,
    pub(crate) scratch: BTreeMap<(Entity, Entity), TouchInfo>,
    pub(crate) started: Vec<((Entity, Entity), TouchInfo)>,
    pub(crate) ended: Vec<((Entity, Entity), TouchInfo)>,
}
