//! Running one engine through one scene and taking the figures of `scenes.md`
//! ("What a run of a scene reports"), by the same code for both engines, from the
//! bodies' states only:
//!
//! - **step time**: `Instant` around each `step` call alone; median, p90 and mean over the
//!   steps after the first (the first step builds the broadphase and contact caches);
//! - **drift** and **sag** (resting scenes): `thud_scene::standard::drift` and `sag`
//!   from the scene's start poses and the final ones;
//! - **max penetration**: `thud_scene::metrics::max_penetration` on the final poses,
//!   i.e. thud_collide's broadphase and narrowphase at zero margin over the scene's
//!   own shapes placed at each engine's poses, so the measure is the same for both;
//! - **still moving**: dynamic bodies faster than 0.1 m/s at the end;
//! - **energy rise** and **rebound**: `thud_scene::metrics::EnergyTracker` over
//!   E = Σ kinetic − m·g·x_com (= kinetic + m·9.81·y with the standard gravity), in f64.

use std::time::Instant;

use thud_collide::Pose;
use thud_scene::Scene;
use thud_scene::instantiate::shapes_of;
use thud_scene::metrics::{
    EnergyTracker, PlacedShape, STILL_MOVING_SPEED, max_penetration, percentile,
};
use thud_scene::standard::{drift, ideal_top, sag};

use crate::engine::{BodyState, Engine};
use crate::error::CompareError;

/// The figures of one engine on one scene.
#[derive(Debug, Clone, PartialEq)]
pub struct Figures {
    /// The engine's name.
    pub engine: &'static str,
    /// Steps run.
    pub steps: usize,
    /// Median step time, ms (steps 2..).
    pub median_ms: f64,
    /// 90th-percentile step time, ms (steps 2..).
    pub p90_ms: f64,
    /// Mean step time, ms (steps 2..): with the rare long steps (an exact solve, a
    /// burst of new contacts) that the median and p90 do not show.
    pub mean_ms: f64,
    /// Median step time of each simulated second, ms (the first second's from step 2).
    pub per_second_ms: Vec<f64>,
    /// Largest horizontal displacement of a dynamic body from its start, m (resting scenes).
    pub drift: Option<f32>,
    /// Ideal top y minus the top box's y, m (resting scenes).
    pub sag: Option<f32>,
    /// Deepest overlap of two shapes of different bodies at the end, m.
    pub max_penetration: f32,
    /// Dynamic bodies faster than 0.1 m/s at the end.
    pub still_moving: usize,
    /// Max over steps of E(t) − E(0), J.
    pub energy_rise: f64,
    /// Max over t of E(t) − min over s ≤ t of E(s), J.
    pub energy_rebound: f64,
    /// Contact points the engine held after the last step.
    pub contact_points: usize,
    /// Live heap bytes the engine held once the scene was built, and after the run
    /// (filled in by the caller, which owns the counting allocator).
    pub heap: Option<(usize, usize)>,
}

/// Total energy of the states, J.
fn energy(states: &[BodyState], gravity: glam::Vec3) -> f64 {
    states
        .iter()
        .filter(|s| s.dynamic)
        .map(|s| s.kinetic_energy - f64::from(s.mass) * f64::from(gravity.dot(s.center_of_mass)))
        .sum()
}

/// The scene's shapes placed at the bodies' poses.
fn placed(scene: &Scene, states: &[BodyState]) -> Result<Vec<PlacedShape>, CompareError> {
    let mut out = Vec::with_capacity(states.len());
    for (i, (def, s)) in scene.bodies.iter().zip(states).enumerate() {
        let body = Pose::new(s.position, s.rotation);
        for (local, shape) in shapes_of(def)? {
            out.push(PlacedShape {
                body: i,
                pose: body * local,
                shape,
                moving: s.dynamic,
            });
        }
    }
    Ok(out)
}

/// One engine's run through one scene, taken a few steps at a time (so two engines can
/// take turns, [`Run::steps`]) and then measured ([`Run::finish`]).
pub struct Run<'a> {
    engine: &'a mut dyn Engine,
    scene: &'a Scene,
    states: Vec<BodyState>,
    energy_tracker: EnergyTracker,
    times: Vec<f64>,
}

impl<'a> Run<'a> {
    /// Starts a run of `engine` (built from `scene`) of up to `steps` steps.
    pub fn new(engine: &'a mut dyn Engine, scene: &'a Scene, steps: usize) -> Self {
        let mut states = Vec::with_capacity(scene.bodies.len());
        engine.states(&mut states);
        let energy_tracker = EnergyTracker::new(energy(&states, scene.settings.gravity));
        Run {
            engine,
            scene,
            states,
            energy_tracker,
            times: Vec::with_capacity(steps),
        }
    }

    /// `n` more steps, each timed alone.
    pub fn steps(&mut self, n: usize) -> Result<(), CompareError> {
        let g = self.scene.settings.gravity;
        for _ in 0..n {
            let t = Instant::now();
            self.engine.step()?;
            self.times.push(t.elapsed().as_secs_f64() * 1e3);
            self.engine.states(&mut self.states);
            self.energy_tracker.record(energy(&self.states, g));
        }
        Ok(())
    }

    /// Steps done so far.
    pub fn done(&self) -> usize {
        self.times.len()
    }

    /// The figures of the steps done.
    pub fn finish(self) -> Result<Figures, CompareError> {
        let Run {
            engine,
            scene,
            states,
            energy_tracker,
            times,
        } = self;
        let steps = times.len();
        let timed = times.get(1..).unwrap_or(&[]);
        let per_second_ms = per_second(&times, scene.settings.dt);

        let (drift_m, sag_m) = if scene.resting {
            let d = drift(
                scene
                    .bodies
                    .iter()
                    .zip(&states)
                    .filter(|(_, s)| s.dynamic)
                    .map(|(def, s)| (def.position, s.position)),
            );
            let s =
                ideal_top(scene).and_then(|(i, y)| states.get(i).map(|st| sag(y, st.position.y)));
            (Some(d), s)
        } else {
            (None, None)
        };
        let (pen, _) = max_penetration(&placed(scene, &states)?);
        let still_moving = states
            .iter()
            .filter(|s| s.dynamic && s.linear_velocity.length() > STILL_MOVING_SPEED)
            .count();
        Ok(Figures {
            engine: engine.name(),
            steps,
            median_ms: percentile(timed, 0.5),
            p90_ms: percentile(timed, 0.9),
            mean_ms: timed.iter().sum::<f64>() / timed.len().max(1) as f64,
            per_second_ms,
            drift: drift_m,
            sag: sag_m,
            max_penetration: pen,
            still_moving,
            energy_rise: energy_tracker.rise,
            energy_rebound: energy_tracker.rebound,
            contact_points: engine.contact_points(),
            heap: None,
        })
    }
}

/// Runs `steps` steps of `engine` (built from `scene`) and takes the figures;
/// `progress(done)` is called every few steps.
pub fn run(
    engine: &mut dyn Engine,
    scene: &Scene,
    steps: usize,
    progress: &mut dyn FnMut(usize),
) -> Result<Figures, CompareError> {
    let mut run = Run::new(engine, scene, steps);
    let every = (steps / 20).max(1);
    while run.done() < steps {
        run.steps(every.min(steps - run.done()))?;
        progress(run.done());
    }
    run.finish()
}

/// The median of each simulated second's step `times` (ms) at step `dt` (s): steps
/// `k·n .. (k + 1)·n` for `n = round(1/dt)` steps a second, the first step left out as
/// in the run's median (it builds what later steps keep); a last, partial second
/// counts as one.
fn per_second(times: &[f64], dt: f32) -> Vec<f64> {
    let n = if dt.is_finite() && dt > 0.0 {
        ((1.0 / dt).round() as usize).max(1)
    } else {
        times.len().max(1)
    };
    times
        .chunks(n)
        .enumerate()
        .map(|(k, c)| percentile(if k == 0 { c.get(1..).unwrap_or(&[]) } else { c }, 0.5))
        .collect()
}

#[cfg(test)]
mod per_second_tests {
    use super::per_second;

    /// A second is `round(1/dt)` steps; the first step stays out of the first second;
    /// a partial last second counts (medians by nearest rank, as the run's).
    #[test]
    fn each_second_takes_the_median_of_its_steps() {
        let times = [9.0, 1.0, 2.0, 3.0, 6.0, 4.0, 5.0, 7.0];
        assert_eq!(per_second(&times, 1.0 / 3.0), vec![1.0, 4.0, 5.0]);
        assert_eq!(per_second(&[], 0.25), Vec::<f64>::new());
    }
}
