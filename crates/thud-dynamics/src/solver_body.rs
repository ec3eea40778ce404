//! The dense awake state the solver reads: one entry per awake dynamic or kinematic
//! body, plus entry 0, a dummy immovable body that every static (or sleeping) contact
//! partner points at.
//!
//! Layout (structure of arrays, `n` = awake bodies + 1):
//!
//! | array | type | bytes per body | read by |
//! |---|---|---|---|
//! | `dv` | [`Velocity`] (Δv, Δω) | 24 | every PGS row update (the only hot array) |
//! | `pseudo` | [`Velocity`] | 24 | split-impulse position pass |
//! | `vnc` | [`Velocity`] (v, ω without contact, the step's first solve substep) | 24 | Jacobian build, integration |
//! | `vnc_now` | [`Velocity`] (the same, of the current solve substep) | 24 | solve-substep refresh |
//! | `v0` | [`Velocity`] (u(t), start of step) | 24 | restitution (approach speed) |
//! | `inv_mass` | `f32` | 4 | Jacobian build |
//! | `inv_inertia` | `Mat3` (world) | 36 | Jacobian build |
//! | `iso` | `Option<f32>`: `c` where `inv_inertia = c·1` (a cube's, a sphere's; 0 for a fixed body) | 8 | packing the groups (`wide.rs`) |
//! | `com` | `Vec3` (world) | 12 | Jacobian build (lever arms) |
//! | `accel` | `Option<Vec3>`: `g + F/m` of a body under gravity and force alone (no torque, damping or gyroscopic term) | 16 | the velocity without contact between solve substeps |
//! | `body` | `u32` body slot | 4 | write-back |
//!
//! The dummy (index 0) has zero inverse mass and inertia, so its `T = M⁻¹Jᵀ` blocks are
//! zero: a contact against the ground runs the same code as a contact between two boxes
//! and adds `0` to `dv[0]` (Box2D v3's trick). Kinematic bodies get their own entry (their
//! velocity enters `b` through `vnc`) with zero inverse mass, so they too stay unmoved by
//! impulses. The arrays are reused from step to step (cleared, never freed).

use glam::{Mat3, Vec3};

/// A velocity pair `(v, ω)`: linear (m/s) and angular (rad/s, world frame). `repr(C)`:
/// the packed solver loads `(v, ω.x)` as one 16-byte piece (`wide::gather`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[repr(C)]
pub struct Velocity {
    /// Linear part.
    pub lin: Vec3,
    /// Angular part.
    pub ang: Vec3,
}

impl Velocity {
    /// Zero.
    pub const ZERO: Self = Self {
        lin: Vec3::ZERO,
        ang: Vec3::ZERO,
    };
}

/// The dense solver arrays (see the module table).
#[derive(Debug, Clone, Default)]
pub(crate) struct SolverBodies {
    pub dv: Vec<Velocity>,
    pub pseudo: Vec<Velocity>,
    pub vnc: Vec<Velocity>,
    pub vnc_now: Vec<Velocity>,
    pub v0: Vec<Velocity>,
    pub inv_mass: Vec<f32>,
    pub inv_inertia: Vec<Mat3>,
    pub iso: Vec<Option<f32>>,
    pub com: Vec<Vec3>,
    /// A dynamic body's acceleration without contact, `g + F/m`, where nothing else
    /// enters its velocity without contact (set by the step, `None` otherwise).
    pub accel: Vec<Option<Vec3>>,
    pub body: Vec<u32>,
}

impl SolverBodies {
    /// Clear to just the dummy immovable body at index 0.
    pub fn reset(&mut self) {
        self.dv.clear();
        self.pseudo.clear();
        self.vnc.clear();
        self.vnc_now.clear();
        self.v0.clear();
        self.inv_mass.clear();
        self.inv_inertia.clear();
        self.iso.clear();
        self.com.clear();
        self.accel.clear();
        self.body.clear();
        self.push(
            u32::MAX,
            Velocity::ZERO,
            Velocity::ZERO,
            0.0,
            Mat3::ZERO,
            Vec3::ZERO,
        );
    }

    /// Append a body; returns its solver index.
    pub fn push(
        &mut self,
        body: u32,
        v0: Velocity,
        vnc: Velocity,
        inv_mass: f32,
        inv_inertia: Mat3,
        com: Vec3,
    ) -> u32 {
        self.dv.push(Velocity::ZERO);
        self.pseudo.push(Velocity::ZERO);
        self.vnc.push(vnc);
        self.vnc_now.push(vnc);
        self.v0.push(v0);
        self.inv_mass.push(inv_mass);
        self.inv_inertia.push(inv_inertia);
        let iso = crate::integrate::is_isotropic(&inv_inertia).then_some(inv_inertia.x_axis.x);
        self.iso.push(iso);
        self.com.push(com);
        self.accel.push(None);
        self.body.push(body);
        (self.dv.len() - 1) as u32
    }

    /// Number of entries including the dummy.
    pub fn len(&self) -> usize {
        self.body.len()
    }

    /// Reset the accumulated velocity changes before a warm start: `dV` to how far each
    /// body's `Vnc` has moved since the step's first solve substep (`vnc_now − vnc`:
    /// zero in the first), the split pass's pseudo-velocities to zero.
    pub fn start_dv(&mut self) {
        for ((dv, now), first) in self.dv.iter_mut().zip(&self.vnc_now).zip(&self.vnc) {
            *dv = Velocity {
                lin: now.lin - first.lin,
                ang: now.ang - first.ang,
            };
        }
        self.pseudo.fill(Velocity::ZERO);
    }
}

const _: () = assert!(std::mem::size_of::<Velocity>() == 24);

/// Every component of `v`, as bits (the tests that compare solves to the bit).
#[cfg(test)]
pub(crate) fn velocity_bits<'a>(v: impl IntoIterator<Item = &'a Velocity>) -> Vec<u32> {
    v.into_iter()
        .flat_map(|v| [v.lin.to_array(), v.ang.to_array()])
        .flatten()
        .map(f32::to_bits)
        .collect()
}
