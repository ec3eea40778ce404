//! The thud side: a `thud_dynamics::World` built from a scene with the scene
//! library's own `thud_scene::instantiate::build_world_with` (as every other user of the
//! standard scenes builds it), on `Settings::without_sleeping()` plus the scene's dt,
//! gravity, and iterations and substeps where the scene gives them.

use thud_dynamics::{BodyHandle, BodyKind, Settings, World};
use thud_scene::Scene;
use thud_scene::instantiate::{build_world_with, settings_on};

use crate::engine::{BodyState, Engine};
use crate::error::CompareError;

/// The thud settings of a scene for the comparison (sleeping always off).
#[must_use]
pub fn settings(scene: &Scene) -> Settings {
    Settings {
        sleeping: false,
        ..settings_on(&scene.settings, Settings::without_sleeping())
    }
}

/// A thud world holding one scene.
pub struct ThudEngine {
    world: World,
    handles: Vec<BodyHandle>,
}

impl ThudEngine {
    /// Builds the scene's bodies, in order, into a world with [`settings`].
    pub fn new(scene: &Scene) -> Result<ThudEngine, CompareError> {
        let (world, handles) = build_world_with(settings(scene), &scene.bodies)?;
        Ok(ThudEngine { world, handles })
    }
}

impl Engine for ThudEngine {
    fn name(&self) -> &'static str {
        "thud"
    }

    fn step(&mut self) -> Result<(), CompareError> {
        self.world
            .step()
            .map_err(|e| CompareError::Step(e.to_string()))
    }

    fn states(&self, out: &mut Vec<BodyState>) {
        out.clear();
        for &h in &self.handles {
            // Every handle was returned by `add_body` and no body is ever removed.
            let Ok(b) = self.world.body(h) else {
                continue;
            };
            let dynamic = b.kind() == BodyKind::Dynamic;
            out.push(BodyState {
                position: b.position(),
                rotation: b.rotation(),
                center_of_mass: b.center_of_mass(),
                linear_velocity: b.linear_velocity(),
                kinetic_energy: f64::from(b.kinetic_energy()),
                mass: if dynamic { b.mass() } else { 0.0 },
                dynamic,
            });
        }
    }

    fn contact_points(&self) -> usize {
        self.world.stats().contacts
    }
}
