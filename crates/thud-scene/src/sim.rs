//! Running a scene: the world, the timeline, the expectations and the figures.
//!
//! A [`Simulation`] is built from a loaded [`Scene`] and [`RunOptions`]; each
//! [`Simulation::step`] fires the events that are due (see [`crate::timeline`]), adds
//! the forces still acting, steps the world once (timed), records energy and step
//! times, and checks the expectations that are due (see [`crate::expect`]).
//! [`Simulation::finish`] checks the end-of-run expectations and returns a [`Report`].
//!
//! Bodies are numbered in the order they enter the world — the scene's bodies, then
//! spawned ones — and keep their number after removal; that number is the `body`
//! column of the trajectory and the `user_data` of the engine body.
//!
//! Energy put in on purpose is not counted as energy rise: the jump in E across the
//! events of a step (spawns, impulses, velocity and gravity changes, removals) and the
//! change of E over a step during which a scripted force acts are added to an
//! "injected" account that is subtracted from E before rise and rebound are taken.

use std::time::Instant;

use glam::{Quat, Vec3};
use thud_dynamics::{Body, BodyHandle, BodyKind, World};

use crate::error::SceneError;
use crate::expect::Check;
use crate::instantiate::{add_body, add_joint, kind_of, settings_of, shapes_of};
use crate::metrics::{
    EnergyTracker, PlacedShape, STILL_MOVING_SPEED, body_energy, lowest_point,
    max_penetration_except, percentile,
};
use crate::render::{DrawBody, default_camera};
use crate::schema::{BodyDef, BodyKindDef, Camera, Scene};
use crate::standard::{drift, ideal_top};
use crate::summary::{ExpectationResult, Outcome, Report, Summary};
use crate::timeline::Action;

/// Overrides of a scene's run settings, as the command line gives them.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct RunOptions {
    /// Run length in seconds (the scene's `seconds` when absent).
    pub seconds: Option<f32>,
    /// Run length in steps (wins over `seconds`).
    pub steps: Option<u64>,
    /// Time step.
    pub dt: Option<f32>,
    /// Solver iterations per solve substep (the first, with `substep_iterations`).
    pub iterations: Option<u32>,
    /// Solver iterations in each solve substep after the first.
    pub substep_iterations: Option<u32>,
    /// Friction rows every `friction_stride`-th sweep (`Settings::friction_stride`).
    pub friction_stride: Option<u32>,
    /// Rows kept across steps within this distance (`Settings::reuse_rows_within`).
    pub reuse_rows_within: Option<f32>,
    /// A resting contact's gap that counts as touching (`Settings::touching_gap`).
    pub touching_gap: Option<f32>,
    /// How far a sweep may still move a contact's bodies for its rows to count as
    /// settled, m/s (`Settings::sweep_tolerance`).
    pub sweep_tolerance: Option<f32>,
    /// Solve substeps per step.
    pub solve_substeps: Option<u32>,
    /// Sleeping on or off.
    pub sleeping: Option<bool>,
    /// Worker threads in use (reported only; the caller sets up the thread pool).
    pub threads: usize,
}

/// One body the run knows: its description, its engine handle while it lives, its
/// start position.
#[derive(Debug, Clone)]
pub struct Slot {
    /// The description (kind updated by `MakeKinematic` / `MakeDynamic`).
    pub def: BodyDef,
    /// The engine handle, `None` once removed.
    pub handle: Option<BodyHandle>,
    /// Centre when the body entered the world.
    pub start: Vec3,
    shapes: Vec<(thud_collide::Pose, thud_collide::Shape)>,
}

/// A force the timeline keeps adding.
#[derive(Debug, Clone, Copy)]
struct ActiveForce {
    slot: usize,
    force: Vec3,
    steps_left: u64,
}

/// A scene being run.
pub struct Simulation {
    scene: Scene,
    world: World,
    slots: Vec<Slot>,
    /// The scene's joints with whether their bodies collide with each other.
    joints: Vec<(thud_dynamics::JointHandle, bool)>,
    next_event: usize,
    forces: Vec<ActiveForce>,
    step: u64,
    total_steps: u64,
    dt: f32,
    threads: usize,
    injected: f64,
    energy: EnergyTracker,
    step_ms: Vec<f64>,
    stage_ms: Vec<Vec<f64>>,
    outcomes: Vec<Outcome>,
}

impl Simulation {
    /// Builds the world of a loaded (resolved) scene.
    pub fn new(mut scene: Scene, options: &RunOptions) -> Result<Simulation, SceneError> {
        if let Some(dt) = options.dt {
            if !(dt.is_finite() && dt > 0.0 && dt <= 1.0) {
                return Err(SceneError::Engine {
                    body: None,
                    message: format!("--dt must be in (0, 1] s, got {dt}"),
                });
            }
            scene.settings.dt = dt;
        }
        if let Some(i) = options.iterations {
            scene.settings.iterations = Some(i.max(1));
        }
        if let Some(i) = options.substep_iterations {
            scene.settings.substep_iterations = Some(i.max(1));
        }
        if let Some(k) = options.friction_stride {
            scene.settings.friction_stride = Some(k.max(1));
        }
        for (d, what, into) in [
            (
                options.reuse_rows_within,
                "reuse_rows_within",
                &mut scene.settings.reuse_rows_within,
            ),
            (
                options.touching_gap,
                "touching_gap",
                &mut scene.settings.touching_gap,
            ),
        ] {
            if let Some(d) = d {
                if !(d.is_finite() && d >= 0.0) {
                    return Err(SceneError::Engine {
                        body: None,
                        message: format!("{what} must be ≥ 0 m, got {d}"),
                    });
                }
                *into = Some(d);
            }
        }
        if let Some(t) = options.sweep_tolerance {
            if !(t.is_finite() && t >= 0.0) {
                return Err(SceneError::Engine {
                    body: None,
                    message: format!("sweep_tolerance must be ≥ 0 m/s, got {t}"),
                });
            }
            scene.settings.sweep_tolerance = Some(t);
        }
        if let Some(n) = options.solve_substeps {
            scene.settings.solve_substeps = Some(n.max(1));
        }
        if let Some(s) = options.sleeping {
            scene.settings.sleeping = s;
        }
        let dt = scene.settings.dt;
        let seconds = options.seconds.unwrap_or(scene.seconds);
        if !(seconds.is_finite() && seconds >= 0.0) {
            return Err(SceneError::Engine {
                body: None,
                message: format!("--seconds must be ≥ 0, got {seconds}"),
            });
        }
        let total_steps = options
            .steps
            .unwrap_or_else(|| (f64::from(seconds) / f64::from(dt)).round() as u64);
        let world = World::new(settings_of(&scene.settings));
        let mut sim = Simulation {
            outcomes: vec![Outcome::Pending; scene.expectations.len()],
            world,
            slots: Vec::new(),
            joints: Vec::new(),
            next_event: 0,
            forces: Vec::new(),
            step: 0,
            total_steps,
            dt,
            threads: options.threads.max(1),
            injected: 0.0,
            energy: EnergyTracker::new(0.0),
            step_ms: Vec::new(),
            stage_ms: vec![Vec::new(); thud_dynamics::Stage::ALL.len()],
            scene,
        };
        let bodies = sim.scene.bodies.clone();
        for def in bodies {
            sim.spawn(def)?;
        }
        let joints = sim.scene.joints.clone();
        for (i, def) in joints.iter().enumerate() {
            let slots = &sim.slots;
            let by_name = |name: &str| {
                slots
                    .iter()
                    .find(|s| s.def.name == name)
                    .and_then(|s| s.handle)
            };
            let h = add_joint(&mut sim.world, def, i, by_name)?;
            sim.joints.push((h, def.collide_connected));
        }
        sim.energy = EnergyTracker::new(sim.energy_now());
        Ok(sim)
    }

    fn spawn(&mut self, def: BodyDef) -> Result<(), SceneError> {
        let index = self.slots.len();
        let handle = add_body(&mut self.world, &def, index as u64)?;
        let shapes = shapes_of(&def)?;
        self.slots.push(Slot {
            start: def.position,
            def,
            handle: Some(handle),
            shapes,
        });
        Ok(())
    }

    /// The scene (resolved, with the run's overrides applied).
    #[must_use]
    pub fn scene(&self) -> &Scene {
        &self.scene
    }

    /// The engine world.
    #[must_use]
    pub fn world(&self) -> &World {
        &self.world
    }

    /// Steps done so far.
    #[must_use]
    pub fn steps_done(&self) -> u64 {
        self.step
    }

    /// Steps the run will take.
    #[must_use]
    pub fn total_steps(&self) -> u64 {
        self.total_steps
    }

    /// Whether every step has been taken.
    #[must_use]
    pub fn is_done(&self) -> bool {
        self.step >= self.total_steps
    }

    /// Simulated time, seconds.
    #[must_use]
    pub fn time(&self) -> f64 {
        self.step as f64 * f64::from(self.dt)
    }

    /// The time step.
    #[must_use]
    pub fn dt(&self) -> f32 {
        self.dt
    }

    /// Every body the run has known (removed ones too), by body number.
    #[must_use]
    pub fn slots(&self) -> &[Slot] {
        &self.slots
    }

    /// Live bodies: number, description and engine body.
    pub fn live(&self) -> impl Iterator<Item = (usize, &BodyDef, &Body)> + '_ {
        self.slots.iter().enumerate().filter_map(|(i, s)| {
            let body = self.world.body(s.handle?).ok()?;
            Some((i, &s.def, body))
        })
    }

    /// What the renderer needs for the current frame.
    #[must_use]
    pub fn draw_list(&self) -> Vec<DrawBody<'_>> {
        self.live()
            .map(|(index, def, body)| DrawBody {
                def,
                index,
                position: body.position(),
                rotation: body.rotation(),
            })
            .collect()
    }

    /// The scene's camera, or one framing its bodies.
    #[must_use]
    pub fn camera(&self) -> Camera {
        self.scene
            .camera
            .unwrap_or_else(|| default_camera(&self.scene))
    }

    fn energy_now(&self) -> f64 {
        let g = self.world.settings().gravity;
        self.live().map(|(_, _, b)| body_energy(b, g)).sum()
    }

    fn placed_shapes(&self) -> Vec<PlacedShape> {
        let mut out = Vec::new();
        for (i, slot) in self.slots.iter().enumerate() {
            let Some(body) = slot.handle.and_then(|h| self.world.body(h).ok()) else {
                continue;
            };
            let pose = body.pose();
            for (local, shape) in &slot.shapes {
                out.push(PlacedShape {
                    body: i,
                    pose: pose.mul(*local),
                    shape: shape.clone(),
                    moving: body.kind() != BodyKind::Static,
                });
            }
        }
        out
    }

    /// The deepest overlap of two bodies that may collide (joined bodies whose joint
    /// turns their collisions off overlap at the joint by design and are left out).
    fn max_penetration(&self) -> (f32, Option<(usize, usize)>) {
        let slot_of = |h: BodyHandle| self.slots.iter().position(|s| s.handle == Some(h));
        let mut joined: Vec<(usize, usize)> = Vec::new();
        for &(h, collide) in &self.joints {
            let Ok(j) = self.world.joint(h) else { continue };
            if collide || j.is_broken() {
                continue;
            }
            if let (Some(a), Some(b)) = (j.body_a().and_then(slot_of), slot_of(j.body_b())) {
                joined.push((a.min(b), a.max(b)));
            }
        }
        max_penetration_except(&self.placed_shapes(), |a, b| {
            joined.contains(&(a.min(b), a.max(b)))
        })
    }

    fn engine(&self, slot: usize) -> impl Fn(thud_dynamics::DynamicsError) -> SceneError + '_ {
        move |e| SceneError::Engine {
            body: self.slots.get(slot).map(|s| s.def.name.clone()),
            message: e.to_string(),
        }
    }

    fn find(&self, name: &str) -> Option<usize> {
        self.slots
            .iter()
            .position(|s| s.def.name == name && s.handle.is_some())
    }

    /// Fires one event. Names were checked at load time; a body missing now is an
    /// engine error, not a panic.
    fn fire(&mut self, action: Action) -> Result<(), SceneError> {
        let target = match action.target() {
            Some(name) => Some(self.find(name).ok_or_else(|| SceneError::Engine {
                body: Some(name.to_string()),
                message: format!("{} of a body that is not in the world", action.label()),
            })?),
            None => None,
        };
        let handle = target.and_then(|i| self.slots[i].handle);
        let (slot, h) = match (target, handle) {
            (Some(s), Some(h)) => (s, h),
            _ => (usize::MAX, BodyHandle::INVALID),
        };
        match action {
            Action::Spawn(def) => self.spawn(def)?,
            Action::SpawnPattern(p) => {
                for def in p.expand() {
                    self.spawn(def)?;
                }
            }
            Action::Impulse { impulse, point, .. } => {
                let r = match point {
                    Some(p) => self.world.apply_impulse_at(h, impulse, p),
                    None => self.world.apply_impulse(h, impulse),
                };
                r.map_err(self.engine(slot))?;
            }
            Action::Force {
                force, duration, ..
            } => {
                let steps = ((f64::from(duration) / f64::from(self.dt)).round() as u64).max(1);
                self.forces.push(ActiveForce {
                    slot,
                    force,
                    steps_left: steps,
                });
            }
            Action::SetVelocity {
                linear, angular, ..
            } => {
                if let Some(v) = linear {
                    self.world
                        .set_linear_velocity(h, v)
                        .map_err(self.engine(slot))?;
                }
                if let Some(w) = angular {
                    self.world
                        .set_angular_velocity(h, w)
                        .map_err(self.engine(slot))?;
                }
            }
            Action::MakeKinematic { velocity, .. } => {
                self.world
                    .set_body_kind(h, BodyKind::Kinematic)
                    .map_err(self.engine(slot))?;
                if let Some(v) = velocity {
                    self.world
                        .set_linear_velocity(h, v)
                        .map_err(self.engine(slot))?;
                }
                self.slots[slot].def.kind = BodyKindDef::Kinematic;
            }
            Action::MakeDynamic { .. } => {
                self.world
                    .set_body_kind(h, kind_of(BodyKindDef::Dynamic))
                    .map_err(self.engine(slot))?;
                self.slots[slot].def.kind = BodyKindDef::Dynamic;
            }
            Action::Remove { .. } => {
                self.world.remove_body(h).map_err(self.engine(slot))?;
                self.slots[slot].handle = None;
                self.forces.retain(|f| f.slot != slot);
            }
            Action::SetGravity { gravity } => self.world.settings_mut().gravity = gravity,
        }
        Ok(())
    }

    /// One step: due events, forces, the world step, energy, due expectations.
    pub fn step(&mut self) -> Result<(), SceneError> {
        let t = self.time() as f32;
        let half = self.dt / 2.0;
        let due = self.scene.timeline[self.next_event..]
            .iter()
            .take_while(|e| e.at <= t + half)
            .count();
        if due > 0 {
            let before = self.energy_now();
            let events: Vec<Action> = self.scene.timeline[self.next_event..self.next_event + due]
                .iter()
                .map(|e| e.action.clone())
                .collect();
            self.next_event += due;
            for action in events {
                self.fire(action)?;
            }
            self.injected += self.energy_now() - before;
        }
        let pushing = !self.forces.is_empty();
        let before_step = if pushing { self.energy_now() } else { 0.0 };
        for i in 0..self.forces.len() {
            let f = self.forces[i];
            if let Some(h) = self.slots[f.slot].handle {
                self.world
                    .add_force(h, f.force)
                    .map_err(self.engine(f.slot))?;
            }
            self.forces[i].steps_left -= 1;
        }
        self.forces.retain(|f| f.steps_left > 0);

        let start = Instant::now();
        self.world.step().map_err(|e| SceneError::Engine {
            body: None,
            message: format!("step {}: {e}", self.step + 1),
        })?;
        let ms = start.elapsed().as_secs_f64() * 1e3;
        self.step += 1;
        if self.step > 1 {
            self.step_ms.push(ms);
            for (i, (_, d)) in self.world.stats().stages.iter().enumerate() {
                if let Some(v) = self.stage_ms.get_mut(i) {
                    v.push(d.as_secs_f64() * 1e3);
                }
            }
        }
        let e = self.energy_now();
        if pushing {
            self.injected += e - before_step;
        }
        self.energy.record(e - self.injected);

        let now = self.time() as f32;
        for i in 0..self.outcomes.len() {
            if let (Outcome::Pending, Some(at)) = (&self.outcomes[i], self.scene.expectations[i].at)
                && at <= now + half
            {
                self.outcomes[i] = self.evaluate(i);
            }
        }
        Ok(())
    }

    /// Checks expectation `i` now.
    fn evaluate(&self, i: usize) -> Outcome {
        let at = self.time();
        let fail = |detail: String| Outcome::Failed { at, detail };
        let pass = |detail: String| Outcome::Passed { at, detail };
        let check = &self.scene.expectations[i].check;
        let body_of = |name: &str| {
            self.live()
                .find(|(_, d, _)| d.name == name)
                .map(|(_, _, b)| b)
        };
        match check {
            Check::Position { body, x, y, z } => {
                let Some(b) = body_of(body) else {
                    return fail(format!("body `{body}` is not in the world"));
                };
                let p = b.position();
                let mut worst: Option<(char, f32, f32, f32, f32)> = None;
                for (axis, v, r) in [('x', p.x, *x), ('y', p.y, *y), ('z', p.z, *z)] {
                    if let Some((lo, hi)) = r {
                        let off = if v < lo {
                            lo - v
                        } else if v > hi {
                            v - hi
                        } else {
                            0.0
                        };
                        if off > 0.0 && worst.is_none_or(|w| off > w.4) {
                            worst = Some((axis, v, lo, hi, off));
                        }
                    }
                }
                match worst {
                    Some((axis, v, lo, hi, off)) => fail(format!(
                        "{body}.{axis} = {v:.4} outside [{lo}, {hi}] by {off:.4} m"
                    )),
                    None => pass(format!("{body} at ({:.3}, {:.3}, {:.3})", p.x, p.y, p.z)),
                }
            }
            Check::Speed { body, min, max } => {
                let Some(b) = body_of(body) else {
                    return fail(format!("body `{body}` is not in the world"));
                };
                let s = b.linear_velocity().length();
                if s < *min {
                    fail(format!(
                        "{body} speed {s:.4} m/s below {min} by {:.4}",
                        min - s
                    ))
                } else if s > *max {
                    fail(format!(
                        "{body} speed {s:.4} m/s above {max} by {:.4}",
                        s - max
                    ))
                } else {
                    pass(format!("{body} speed {s:.4} m/s"))
                }
            }
            Check::AngularSpeed { body, min, max } => {
                let Some(b) = body_of(body) else {
                    return fail(format!("body `{body}` is not in the world"));
                };
                let w = b.angular_velocity().length();
                if w < *min || w > *max {
                    fail(format!(
                        "{body} angular speed {w:.4} rad/s outside [{min}, {max}]"
                    ))
                } else {
                    pass(format!("{body} angular speed {w:.4} rad/s"))
                }
            }
            Check::AllAsleep => {
                let (n, awake) = self
                    .live()
                    .filter(|(_, _, b)| b.kind() == BodyKind::Dynamic)
                    .fold((0, 0), |(n, a), (_, _, b)| {
                        (n + 1, a + usize::from(!b.is_sleeping()))
                    });
                if awake == 0 {
                    pass(format!("{n} bodies asleep"))
                } else {
                    fail(format!("{awake} of {n} dynamic bodies awake"))
                }
            }
            Check::AllSlowerThan { speed } => {
                let fastest = self
                    .live()
                    .filter(|(_, _, b)| b.kind() == BodyKind::Dynamic)
                    .map(|(_, d, b)| (b.linear_velocity().length(), d.name.as_str()))
                    .max_by(|a, b| a.0.total_cmp(&b.0));
                match fastest {
                    Some((s, name)) if s > *speed => fail(format!(
                        "{name} moves at {s:.4} m/s, above {speed} by {:.4}",
                        s - speed
                    )),
                    Some((s, _)) => pass(format!("fastest {s:.4} m/s")),
                    None => pass("no dynamic bodies".into()),
                }
            }
            Check::MaxPenetration { max } => {
                let (d, pair) = self.max_penetration();
                let names = pair
                    .map(|(a, b)| {
                        format!(" ({} / {})", self.slots[a].def.name, self.slots[b].def.name)
                    })
                    .unwrap_or_default();
                if d > *max {
                    fail(format!(
                        "penetration {d:.4} m{names} above {max} by {:.4}",
                        d - max
                    ))
                } else {
                    pass(format!("penetration {d:.4} m{names}"))
                }
            }
            Check::EnergyNotRising { tolerance } => {
                let rise = self.energy.rise;
                if rise > f64::from(*tolerance) {
                    fail(format!(
                        "energy rose {rise:.4} J above E(0), tolerance {tolerance} (by {:.4})",
                        rise - f64::from(*tolerance)
                    ))
                } else {
                    pass(format!("energy rise {rise:.4} J"))
                }
            }
            Check::NoBodyBelow { y } => match lowest_point(&self.placed_shapes()) {
                Some((low, body)) if low < *y => fail(format!(
                    "{} reaches y = {low:.4}, below {y} by {:.4}",
                    self.slots[body].def.name,
                    y - low
                )),
                Some((low, _)) => pass(format!("lowest point y = {low:.4}")),
                None => pass("no moving bodies".into()),
            },
        }
    }

    /// Checks the end-of-run expectations, marks the unreached ones skipped, and
    /// computes the summary.
    #[must_use]
    pub fn finish(mut self) -> Report {
        for i in 0..self.outcomes.len() {
            if let Outcome::Pending = self.outcomes[i] {
                self.outcomes[i] = match self.scene.expectations[i].at {
                    None => self.evaluate(i),
                    Some(at) => Outcome::Skipped {
                        detail: format!("the run ended at {:.3} s, before {at} s", self.time()),
                    },
                };
            }
        }
        let (max_pen, _) = self.max_penetration();
        let resting = self.scene.resting;
        let (drift_v, sag_v) = if resting {
            let pairs = self
                .live()
                .filter(|(_, d, _)| d.kind == BodyKindDef::Dynamic)
                .map(|(i, _, b)| (self.slots[i].start, b.position()));
            let d = drift(pairs);
            let sag = ideal_top(&self.scene).and_then(|(i, y)| {
                let b = self
                    .slots
                    .get(i)?
                    .handle
                    .and_then(|h| self.world.body(h).ok())?;
                Some(y - b.position().y)
            });
            (Some(d), sag)
        } else {
            (None, None)
        };
        let still_moving = self
            .live()
            .filter(|(_, _, b)| {
                b.kind() == BodyKind::Dynamic && b.linear_velocity().length() > STILL_MOVING_SPEED
            })
            .count();
        let stages = thud_dynamics::Stage::ALL
            .iter()
            .zip(&self.stage_ms)
            .map(|(s, v)| (s.name().to_string(), percentile(v, 0.5)))
            .collect();
        let passed = self
            .outcomes
            .iter()
            .filter(|o| matches!(o, Outcome::Passed { .. }))
            .count();
        let failed = self
            .outcomes
            .iter()
            .filter(|o| matches!(o, Outcome::Failed { .. }))
            .count();
        let summary = Summary {
            scene: self.scene.name.clone(),
            steps: self.step,
            dt: self.dt,
            threads: self.threads,
            bodies: self.world.body_count(),
            contacts: self.world.stats().contacts,
            step_ms_median: percentile(&self.step_ms, 0.5),
            step_ms_p90: percentile(&self.step_ms, 0.9),
            stages,
            max_penetration: max_pen,
            drift: drift_v,
            sag: sag_v,
            still_moving,
            energy_rise: self.energy.rise,
            energy_rebound: self.energy.rebound,
            expectations_passed: passed,
            expectations_failed: failed,
        };
        let expectations = self
            .scene
            .expectations
            .iter()
            .zip(self.outcomes)
            .map(|(e, outcome)| ExpectationResult {
                check: e.check.describe(),
                at: e.at,
                outcome,
            })
            .collect();
        Report {
            summary,
            expectations,
            initial_energy: self.energy.initial,
        }
    }

    /// The pose of a live body by number (for writers that need it).
    #[must_use]
    pub fn pose_of(&self, index: usize) -> Option<(Vec3, Quat)> {
        let b = self.world.body(self.slots.get(index)?.handle?).ok()?;
        Some((b.position(), b.rotation()))
    }
}
