//! Bodies: typed generational handles, the builder, and the body set.
//!
//! A [`Body`] is the user-facing record: kind, pose, velocities, mass properties,
//! damping, user data, colliders, sleep state. The solver never iterates it: each step
//! the awake bodies are copied into the dense `SolverBodies` arrays (`solver_body.rs`)
//! and the result copied back (`STYLE.md` §5: split data by who reads it).
//!
//! Handles are `(index, generation)`: removing a body bumps its slot's generation, so a
//! stale handle is refused ([`DynamicsError::InvalidHandle`]) instead of naming the slot's
//! next tenant, and no other handle moves. Iteration follows insertion order of the live
//! bodies.
//!
//! Mass properties come from the colliders (`Σ` of each shape's mass at its density,
//! the inertia moved to the common centre of mass by the parallel-axis theorem
//! `I += m(|d|²1 − d dᵀ)`), or from an explicit `.mass(m)`, which scales the colliders'
//! inertia by `m / m_colliders` (or uses a solid sphere of radius 0.5, `I = 0.1·m·1`,
//! when there are no colliders).

use glam::{Mat3, Quat, Vec3};
use smallvec::SmallVec;
use thud_collide::Pose;

use crate::collider::Collider;
use crate::error::{DynamicsError, finite1, finite3, non_negative};

/// A typed generational handle to a body of a [`World`](crate::World).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BodyHandle {
    index: u32,
    generation: u32,
}

impl BodyHandle {
    /// The slot index (stable while the body lives; reused after removal).
    #[must_use]
    pub const fn index(self) -> u32 {
        self.index
    }

    /// The slot's generation when the handle was issued.
    #[must_use]
    pub const fn generation(self) -> u32 {
        self.generation
    }

    /// A handle that names no body.
    pub const INVALID: Self = Self {
        index: u32::MAX,
        generation: u32::MAX,
    };
}

/// How a body moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum BodyKind {
    /// Moved by forces and contacts.
    #[default]
    Dynamic,
    /// Moved by the user (velocity, or a pose target per step); infinite mass to contacts.
    Kinematic,
    /// Never moves; infinite mass.
    Static,
}

/// Builder of a body: `BodyBuilder::dynamic().position(..).collider(..)`.
#[derive(Debug, Clone)]
pub struct BodyBuilder {
    pub(crate) kind: BodyKind,
    pub(crate) position: Vec3,
    pub(crate) rotation: Quat,
    pub(crate) linear_velocity: Vec3,
    pub(crate) angular_velocity: Vec3,
    pub(crate) colliders: Vec<Collider>,
    pub(crate) mass: Option<f32>,
    pub(crate) gravity_scale: f32,
    pub(crate) linear_damping: f32,
    pub(crate) angular_damping: f32,
    pub(crate) user_data: u64,
    pub(crate) can_sleep: bool,
}

impl BodyBuilder {
    fn new(kind: BodyKind) -> Self {
        Self {
            kind,
            position: Vec3::ZERO,
            rotation: Quat::IDENTITY,
            linear_velocity: Vec3::ZERO,
            angular_velocity: Vec3::ZERO,
            colliders: Vec::new(),
            mass: None,
            gravity_scale: 1.0,
            linear_damping: 0.0,
            angular_damping: 0.0,
            user_data: 0,
            can_sleep: true,
        }
    }

    /// A dynamic body.
    #[must_use]
    pub fn dynamic() -> Self {
        Self::new(BodyKind::Dynamic)
    }

    /// A kinematic body.
    #[must_use]
    pub fn kinematic() -> Self {
        Self::new(BodyKind::Kinematic)
    }

    /// A static (fixed) body.
    #[must_use]
    pub fn fixed() -> Self {
        Self::new(BodyKind::Static)
    }

    /// Position of the body origin (m).
    #[must_use]
    pub fn position(mut self, p: Vec3) -> Self {
        self.position = p;
        self
    }

    /// Orientation (normalized on add).
    #[must_use]
    pub fn rotation(mut self, q: Quat) -> Self {
        self.rotation = q;
        self
    }

    /// Linear velocity of the centre of mass (m/s).
    #[must_use]
    pub fn linear_velocity(mut self, v: Vec3) -> Self {
        self.linear_velocity = v;
        self
    }

    /// Angular velocity, world frame (rad/s).
    #[must_use]
    pub fn angular_velocity(mut self, w: Vec3) -> Self {
        self.angular_velocity = w;
        self
    }

    /// Attach a collider (repeatable).
    #[must_use]
    pub fn collider(mut self, c: Collider) -> Self {
        self.colliders.push(c);
        self
    }

    /// Override the mass (kg); the inertia is scaled to match.
    #[must_use]
    pub fn mass(mut self, m: f32) -> Self {
        self.mass = Some(m);
        self
    }

    /// Multiplier of the world gravity for this body.
    #[must_use]
    pub fn gravity_scale(mut self, s: f32) -> Self {
        self.gravity_scale = s;
        self
    }

    /// Linear damping c (1/s): `v ← v / (1 + dt·c)` each step.
    #[must_use]
    pub fn linear_damping(mut self, c: f32) -> Self {
        self.linear_damping = c;
        self
    }

    /// Angular damping c (1/s): `ω ← ω / (1 + dt·c)` each step.
    #[must_use]
    pub fn angular_damping(mut self, c: f32) -> Self {
        self.angular_damping = c;
        self
    }

    /// Opaque user data.
    #[must_use]
    pub fn user_data(mut self, d: u64) -> Self {
        self.user_data = d;
        self
    }

    /// Whether the body may fall asleep (default true).
    #[must_use]
    pub fn can_sleep(mut self, b: bool) -> Self {
        self.can_sleep = b;
        self
    }

    /// Validate the builder and compute the body (mass properties included).
    pub(crate) fn build(self) -> Result<Body, DynamicsError> {
        finite3(self.position, "position")?;
        if !self.rotation.is_finite() || self.rotation.length_squared() < 1e-12 {
            return Err(DynamicsError::NonFinite { what: "rotation" });
        }
        finite3(self.linear_velocity, "linear velocity")?;
        finite3(self.angular_velocity, "angular velocity")?;
        finite1(self.gravity_scale, "gravity scale")?;
        non_negative(self.linear_damping, "linear damping")?;
        non_negative(self.angular_damping, "angular damping")?;
        for c in &self.colliders {
            c.validate()?;
        }
        // The builder's list grew one push at a time (a first push reserves room for
        // four 80 B colliders); the body keeps exactly what it has.
        let mut colliders = self.colliders;
        colliders.shrink_to_fit();
        let mut body = Body {
            kind: self.kind,
            pose: Pose::new(self.position, self.rotation.normalize()),
            local_com: Vec3::ZERO,
            linear_velocity: self.linear_velocity,
            angular_velocity: self.angular_velocity,
            mass: 0.0,
            inv_mass: 0.0,
            inertia_local: Mat3::ZERO,
            inv_inertia_local: Mat3::ZERO,
            isotropic: true,
            gravity_scale: self.gravity_scale,
            linear_damping: self.linear_damping,
            angular_damping: self.angular_damping,
            user_data: self.user_data,
            can_sleep: self.can_sleep,
            sleeping: false,
            sleep_time: 0.0,
            sleep_group: u32::MAX,
            force: Vec3::ZERO,
            torque: Vec3::ZERO,
            colliders,
            collider_keys: SmallVec::new(),
            extent: 0.0,
            kinematic_target: None,
            explicit_mass: self.mass,
        };
        if body.kind == BodyKind::Dynamic {
            body.compute_mass(self.mass)?;
        } else {
            body.linear_velocity = if body.kind == BodyKind::Static {
                Vec3::ZERO
            } else {
                body.linear_velocity
            };
            if body.kind == BodyKind::Static {
                body.angular_velocity = Vec3::ZERO;
            }
        }
        Ok(body)
    }
}

/// A rigid body as the user sees it.
///
/// The fields are laid out by who reads them (`repr(C)`, each body on cache lines of
/// its own): the first 64 bytes hold what every solve substep's integration
/// reads and writes (pose, velocities, kind), the next 64 what the step's build and its
/// last substep add (centre of mass, forces, mass and damping), then the inertia, then
/// what only the user, the broadphase or a kind change reads. A `pyramid_100` substep
/// then touches two lines of each body instead of five.
#[derive(Debug, Clone)]
#[repr(C, align(64))]
pub struct Body {
    /// Pose of the body origin.
    pub(crate) pose: Pose,
    pub(crate) linear_velocity: Vec3,
    pub(crate) angular_velocity: Vec3,
    pub(crate) kind: BodyKind,
    pub(crate) sleeping: bool,
    pub(crate) can_sleep: bool,
    /// `inertia_local` is `c·1` (a sphere's, a cube's): no gyroscopic torque, and the
    /// world inertia is the local one (`integrate::is_isotropic`, asked once here
    /// instead of by the integrator for every body in every solve substep).
    pub(crate) isotropic: bool,
    pub(crate) sleep_time: f32,
    /// Centre of mass in the body frame.
    pub(crate) local_com: Vec3,
    /// Force (N) and torque (N·m) for the next step only.
    pub(crate) force: Vec3,
    pub(crate) torque: Vec3,
    pub(crate) mass: f32,
    pub(crate) inv_mass: f32,
    pub(crate) gravity_scale: f32,
    pub(crate) linear_damping: f32,
    pub(crate) angular_damping: f32,
    /// How far from the body's origin its colliders reach (m): the largest distance of
    /// a corner of a collider's box in the body's frame (set when the world adds it).
    pub(crate) extent: f32,
    /// Inertia about the centre of mass, body frame (kg·m²).
    pub(crate) inv_inertia_local: Mat3,
    pub(crate) inertia_local: Mat3,
    /// The builder's `.mass(m)` override, kept for kind changes.
    pub(crate) explicit_mass: Option<f32>,
    pub(crate) user_data: u64,
    /// While asleep, the island it fell asleep with (`World::sleep`; `u32::MAX` none):
    /// its contacts with the others are dropped while they sleep, so waking one wakes
    /// them all (`World::wake_groups`).
    pub(crate) sleep_group: u32,
    /// The colliders' slots in the world's collider arrays (broadphase keys).
    pub(crate) collider_keys: SmallVec<[u32; 2]>,
    pub(crate) colliders: Vec<Collider>,
    pub(crate) kinematic_target: Option<Pose>,
}

impl Body {
    /// What a removed body's slot holds until it is used again: a static body without
    /// colliders, never read (no allocation).
    fn vacant() -> Self {
        Body {
            pose: Pose::default(),
            linear_velocity: Vec3::ZERO,
            angular_velocity: Vec3::ZERO,
            kind: BodyKind::Static,
            sleeping: false,
            can_sleep: false,
            isotropic: true,
            sleep_time: 0.0,
            sleep_group: u32::MAX,
            local_com: Vec3::ZERO,
            force: Vec3::ZERO,
            torque: Vec3::ZERO,
            mass: 0.0,
            inv_mass: 0.0,
            gravity_scale: 0.0,
            linear_damping: 0.0,
            angular_damping: 0.0,
            extent: 0.0,
            inv_inertia_local: Mat3::ZERO,
            inertia_local: Mat3::ZERO,
            explicit_mass: None,
            user_data: 0,
            collider_keys: SmallVec::new(),
            colliders: Vec::new(),
            kinematic_target: None,
        }
    }

    /// How the body moves.
    #[must_use]
    pub fn kind(&self) -> BodyKind {
        self.kind
    }
    /// Position of the body origin (m).
    #[must_use]
    pub fn position(&self) -> Vec3 {
        self.pose.position
    }
    /// Orientation.
    #[must_use]
    pub fn rotation(&self) -> Quat {
        self.pose.rotation
    }
    /// Pose of the body origin.
    #[must_use]
    pub fn pose(&self) -> Pose {
        self.pose
    }
    /// World position of the centre of mass (m).
    #[must_use]
    pub fn center_of_mass(&self) -> Vec3 {
        com_at(&self.pose, self.local_com)
    }
    /// Linear velocity of the centre of mass (m/s).
    #[must_use]
    pub fn linear_velocity(&self) -> Vec3 {
        self.linear_velocity
    }
    /// Angular velocity, world frame (rad/s).
    #[must_use]
    pub fn angular_velocity(&self) -> Vec3 {
        self.angular_velocity
    }
    /// Mass in kg (0 for static and kinematic bodies).
    #[must_use]
    pub fn mass(&self) -> f32 {
        self.mass
    }
    /// Inverse mass in 1/kg (0 = immovable).
    #[must_use]
    pub fn inverse_mass(&self) -> f32 {
        self.inv_mass
    }
    /// Inertia about the centre of mass in the body frame (kg·m²).
    #[must_use]
    pub fn inertia_local(&self) -> Mat3 {
        self.inertia_local
    }
    /// Inverse inertia in world frame, `R I⁻¹ Rᵀ`.
    #[must_use]
    pub fn inverse_inertia_world(&self) -> Mat3 {
        crate::integrate::to_world(Mat3::from_quat(self.pose.rotation), self.inv_inertia_local)
    }
    /// Whether the body is asleep.
    #[must_use]
    pub fn is_sleeping(&self) -> bool {
        self.sleeping
    }
    /// Whether the body may fall asleep.
    #[must_use]
    pub fn can_sleep(&self) -> bool {
        self.can_sleep
    }
    /// The attached colliders.
    #[must_use]
    pub fn colliders(&self) -> &[Collider] {
        &self.colliders
    }
    /// Opaque user data.
    #[must_use]
    pub fn user_data(&self) -> u64 {
        self.user_data
    }
    /// Gravity multiplier.
    #[must_use]
    pub fn gravity_scale(&self) -> f32 {
        self.gravity_scale
    }
    /// Linear damping (1/s).
    #[must_use]
    pub fn linear_damping(&self) -> f32 {
        self.linear_damping
    }
    /// Angular damping (1/s).
    #[must_use]
    pub fn angular_damping(&self) -> f32 {
        self.angular_damping
    }
    /// Kinetic energy `½mv² + ½ωᵀIω` (J).
    #[must_use]
    pub fn kinetic_energy(&self) -> f32 {
        if self.kind != BodyKind::Dynamic {
            return 0.0;
        }
        let r = Mat3::from_quat(self.pose.rotation);
        let w_local = r.transpose() * self.angular_velocity;
        0.5 * self.mass * self.linear_velocity.length_squared()
            + 0.5 * w_local.dot(self.inertia_local * w_local)
    }

    /// Mass properties from the colliders, or the explicit mass.
    pub(crate) fn compute_mass(&mut self, explicit: Option<f32>) -> Result<(), DynamicsError> {
        let mut mass = 0.0f32;
        let mut first_moment = Vec3::ZERO;
        let mut parts: SmallVec<[(f32, Vec3, Mat3); 4]> = SmallVec::new();
        for c in &self.colliders {
            let shape = c.validate()?;
            if c.get_density() == 0.0 {
                continue; // a massless part (it still collides)
            }
            let mp = shape
                .mass_properties(c.get_density())
                .map_err(|e| DynamicsError::Shape(e.to_string()))?;
            let pose = c.pose();
            let rot = Mat3::from_quat(pose.rotation);
            let com = pose.transform_point(mp.local_com);
            let inertia = rot * mp.inertia * rot.transpose();
            mass += mp.mass;
            first_moment += mp.mass * com;
            parts.push((mp.mass, com, inertia));
        }
        let (local_com, mut inertia) = if mass > 0.0 {
            let com = first_moment / mass;
            let mut inertia = Mat3::ZERO;
            for (m, c, i) in &parts {
                let d = *c - com;
                inertia += *i + (Mat3::IDENTITY * d.length_squared() - outer(d, d)) * *m;
            }
            (com, inertia)
        } else {
            (Vec3::ZERO, Mat3::ZERO)
        };
        if let Some(m) = explicit {
            if !(m.is_finite() && m > 0.0) {
                return Err(DynamicsError::InvalidMass { mass: m });
            }
            if mass > 0.0 {
                inertia *= m / mass;
            } else {
                inertia = Mat3::IDENTITY * (0.1 * m);
            }
            mass = m;
        }
        if !(mass.is_finite() && mass > 0.0) {
            return Err(DynamicsError::InvalidMass { mass });
        }
        let det = inertia.determinant();
        if !(det.is_finite() && det > 0.0) {
            return Err(DynamicsError::InvalidMass { mass });
        }
        self.mass = mass;
        self.inv_mass = 1.0 / mass;
        self.local_com = local_com;
        self.inertia_local = inertia;
        self.inv_inertia_local = inertia.inverse();
        self.isotropic = crate::integrate::is_isotropic(&inertia);
        Ok(())
    }
}

/// `a bᵀ`.
pub(crate) fn outer(a: Vec3, b: Vec3) -> Mat3 {
    Mat3::from_cols(a * b.x, a * b.y, a * b.z)
}

/// The bodies of a world: slots with generations, a free list, and the insertion order.
/// Each body starts a cache line ([`Body`]); the generations live apart, so that a slot
/// is the body's five lines and no more.
#[derive(Debug, Clone, Default)]
pub struct BodySet {
    /// A removed body's slot holds [`Body::vacant`] until it is used again (an
    /// `Option` would keep its tag in the niche of a field on the body's last line,
    /// which every access then reads).
    slots: Vec<Body>,
    live: Vec<bool>,
    generations: Vec<u32>,
    free: Vec<u32>,
    order: Vec<u32>,
    /// Bodies inserted and removed so far: while it stands, `order` does.
    changes: u64,
}

impl BodySet {
    /// Bodies inserted and removed so far (the body order stands while this does).
    pub(crate) fn changes(&self) -> u64 {
        self.changes
    }

    /// Room for `additional` more bodies without reallocating.
    pub(crate) fn reserve(&mut self, additional: usize) {
        self.slots.reserve(additional);
        self.live.reserve(additional);
        self.generations.reserve(additional);
        self.order.reserve(additional);
    }

    /// Where the slots live (a test sees whether they moved).
    #[cfg(test)]
    pub(crate) fn slots_ptr(&self) -> usize {
        self.slots.as_ptr() as usize
    }

    /// How many slots fit without reallocating (for the same test).
    #[cfg(test)]
    pub(crate) fn capacity_of_slots(&self) -> usize {
        self.slots.capacity()
    }

    /// Insert a body, reusing a free slot (with a bumped generation).
    pub(crate) fn insert(&mut self, body: Body) -> BodyHandle {
        let index = if let Some(i) = self.free.pop() {
            self.slots[i as usize] = body;
            self.live[i as usize] = true;
            i
        } else {
            self.slots.push(body);
            self.live.push(true);
            self.generations.push(0);
            (self.slots.len() - 1) as u32
        };
        self.order.push(index);
        self.changes += 1;
        BodyHandle {
            index,
            generation: self.generations[index as usize],
        }
    }

    /// Remove a body; its handle (and only its) becomes invalid.
    pub(crate) fn remove(&mut self, h: BodyHandle) -> Result<Body, DynamicsError> {
        self.get(h)?;
        let i = h.index as usize;
        let body = std::mem::replace(&mut self.slots[i], Body::vacant());
        self.live[i] = false;
        self.generations[i] = self.generations[i].wrapping_add(1);
        self.free.push(h.index);
        self.order.retain(|&i| i != h.index);
        self.changes += 1;
        Ok(body)
    }

    /// The body of a handle.
    pub fn get(&self, h: BodyHandle) -> Result<&Body, DynamicsError> {
        let i = h.index as usize;
        match self.slots.get(i) {
            Some(b) if self.live[i] && self.generations[i] == h.generation => Ok(b),
            _ => Err(DynamicsError::InvalidHandle(h)),
        }
    }

    /// The body of a handle, mutably.
    pub(crate) fn get_mut(&mut self, h: BodyHandle) -> Result<&mut Body, DynamicsError> {
        let i = h.index as usize;
        match self.slots.get_mut(i) {
            Some(b) if self.live[i] && self.generations[i] == h.generation => Ok(b),
            _ => Err(DynamicsError::InvalidHandle(h)),
        }
    }

    /// The body in slot `i` (must be live).
    #[inline]
    pub(crate) fn slot(&self, i: u32) -> &Body {
        debug_assert!(self.live[i as usize], "live slot");
        &self.slots[i as usize]
    }

    /// The body in slot `i`, mutably (must be live).
    #[inline]
    pub(crate) fn slot_mut(&mut self, i: u32) -> &mut Body {
        debug_assert!(self.live[i as usize], "live slot");
        &mut self.slots[i as usize]
    }

    /// The handle of live slot `i`.
    #[inline]
    pub(crate) fn handle_of(&self, i: u32) -> BodyHandle {
        BodyHandle {
            index: i,
            generation: self.generations[i as usize],
        }
    }

    /// Every slot's body, live or vacant (the integration splits them between two
    /// threads by slot).
    #[inline]
    pub(crate) fn slots_mut(&mut self) -> &mut [Body] {
        &mut self.slots
    }

    /// Live slot indices in insertion order.
    #[inline]
    pub(crate) fn order(&self) -> &[u32] {
        &self.order
    }

    /// Number of slots ever allocated (live or free).
    #[inline]
    pub(crate) fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// Live bodies in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = (BodyHandle, &Body)> {
        self.order
            .iter()
            .map(|&i| (self.handle_of(i), self.slot(i)))
    }

    /// Number of live bodies.
    #[must_use]
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// Whether there are no bodies.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }
}

/// The world centre of mass of a body at `pose` whose centre is `local_com` in its own
/// frame: `pose·local_com`, or `pose.position` itself when the centre is the body's
/// origin (a box's, a ball's): the rotated zero adds only zeros, so the step skips the
/// rotation of every such body in every solve substep.
#[inline]
pub(crate) fn com_at(pose: &Pose, local_com: Vec3) -> Vec3 {
    if local_com == Vec3::ZERO {
        pose.position
    } else {
        pose.transform_point(local_com)
    }
}

/// The body origin that puts the centre of mass `local_com` at `com` with orientation
/// `q` (`com − q·local_com`; `com` itself for a centre at the origin, as in [`com_at`]).
#[inline]
pub(crate) fn origin_at(com: Vec3, q: Quat, local_com: Vec3) -> Vec3 {
    if local_com == Vec3::ZERO {
        com
    } else {
        com - q * local_com
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dummy() -> Body {
        BodyBuilder::dynamic().mass(1.0).build().unwrap()
    }

    #[test]
    fn handles_survive_removal_of_others() {
        let mut set = BodySet::default();
        let a = set.insert(dummy());
        let b = set.insert(dummy());
        let c = set.insert(dummy());
        set.remove(b).unwrap();
        assert!(set.get(a).is_ok() && set.get(c).is_ok());
        assert!(set.get(b).is_err());
        let d = set.insert(dummy());
        assert_eq!(d.index(), b.index());
        assert!(
            set.get(b).is_err(),
            "stale handle must not name the new tenant"
        );
        let order: Vec<_> = set.iter().map(|(h, _)| h).collect();
        assert_eq!(order, vec![a, c, d]);
    }

    /// What each solve substep's integration reads and writes sits in a body's first
    /// cache line, what the build and the last substep add in its second, and every
    /// body starts a line: a field moved about shows here.
    #[test]
    fn a_substeps_fields_sit_in_a_bodys_first_cache_line() {
        use std::mem::{align_of, offset_of, size_of};
        assert_eq!(align_of::<Body>(), 64);
        assert_eq!(size_of::<Body>() % 64, 0);
        let end = |at: usize, size: usize| at + size;
        for e in [
            end(offset_of!(Body, pose), size_of::<Pose>()),
            end(offset_of!(Body, linear_velocity), size_of::<Vec3>()),
            end(offset_of!(Body, angular_velocity), size_of::<Vec3>()),
            end(offset_of!(Body, kind), size_of::<BodyKind>()),
            end(offset_of!(Body, sleeping), 1),
        ] {
            assert!(e <= 64, "a substep's field ends at byte {e}");
        }
        for at in [
            offset_of!(Body, local_com),
            offset_of!(Body, force),
            offset_of!(Body, torque),
            offset_of!(Body, inv_mass),
            offset_of!(Body, gravity_scale),
            offset_of!(Body, linear_damping),
            offset_of!(Body, angular_damping),
            offset_of!(Body, extent),
        ] {
            assert!((64..128).contains(&at), "a build field at byte {at}");
        }
        // A removed body's slot is vacant until used again, and gives back the body.
        let mut set = BodySet::default();
        let a = set.insert(
            BodyBuilder::dynamic()
                .mass(2.0)
                .user_data(7)
                .build()
                .unwrap(),
        );
        let gone = set.remove(a).unwrap();
        assert_eq!((gone.mass(), gone.user_data()), (2.0, 7));
        assert!(set.get(a).is_err() && set.remove(a).is_err());
    }

    #[test]
    fn bad_mass_is_refused() {
        assert!(BodyBuilder::dynamic().mass(0.0).build().is_err());
        assert!(BodyBuilder::dynamic().mass(-1.0).build().is_err());
        assert!(BodyBuilder::dynamic().mass(f32::NAN).build().is_err());
        assert!(
            BodyBuilder::dynamic().build().is_err(),
            "no colliders, no mass"
        );
        assert!(BodyBuilder::fixed().build().is_ok());
        assert!(
            BodyBuilder::dynamic()
                .mass(1.0)
                .position(Vec3::new(f32::INFINITY, 0.0, 0.0))
                .build()
                .is_err()
        );
    }
}
