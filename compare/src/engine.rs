//! What the measuring loop needs from an engine: step once, and report the state of
//! every scene body (in the scene's order) so that both engines are measured by the
//! same code from the same kind of data.

use glam::{Quat, Vec3};

use crate::error::CompareError;

/// The state of one body after a step, as the figures need it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BodyState {
    /// Origin of the body frame (where the scene placed the body).
    pub position: Vec3,
    /// Orientation of the body frame.
    pub rotation: Quat,
    /// Centre of mass, world frame.
    pub center_of_mass: Vec3,
    /// Linear velocity.
    pub linear_velocity: Vec3,
    /// ½m|v|² + ½ωᵀIω, J.
    pub kinetic_energy: f64,
    /// Mass, kg (0 for non-dynamic bodies).
    pub mass: f32,
    /// Whether the body is dynamic (only dynamic bodies enter the figures).
    pub dynamic: bool,
}

/// One engine holding one scene.
pub trait Engine {
    /// Short name for progress lines and tables (`thud`, `Rapier`).
    fn name(&self) -> &'static str;

    /// Advance one step of the scene's dt.
    fn step(&mut self) -> Result<(), CompareError>;

    /// Overwrite `out` with the state of every scene body, in the scene's order.
    fn states(&self, out: &mut Vec<BodyState>);

    /// Contact points the engine holds after the last step (including speculative ones).
    fn contact_points(&self) -> usize;
}
