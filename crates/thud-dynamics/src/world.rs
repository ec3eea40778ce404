//! The world and its step.
//!
//! [`World::step`] runs the pipeline of `docs/architecture.md`, one [`Stage`] per line,
//! each timed into [`StepStats`]:
//!
//! ```text
//!   BroadPhase      poses → fattened AABBs → overlapping collider pairs (with a crew,
//!                   last step's manifolds refreshed on the other thread meanwhile)
//!   NarrowPhase     pairs → manifolds, matched to last step's points (λ for warm start);
//!                   the contact store takes their points as they are made
//!   Islands         union-find over contacts; sleeping islands touched by awake ones wake
//!                   whole (their sleep groups), and the step collides them again
//!   BuildJacobians  dense solver bodies (Vnc = u + dt·M⁻¹F); rows J̃, T, D, b̃, bounds
//!   WarmStart       dV = T·λ_warm
//!   Solve           PGS sweeps (or exact BLCP per island), restitution, split impulse
//!   Integrate       u(t+1) = Vnc + dV, poses; λ back into the narrowphase cache
//!   Sleep           sleep timers; islands at rest fall asleep
//! ```
//!
//! Every entry point validates first and mutates after, so an error leaves the world
//! unchanged.

use std::time::Instant;

use glam::{Mat3, Quat, Vec3};
use thud_collide::{Aabb, BroadPhase, NarrowPhase, Pose};

use crate::body::{Body, BodyBuilder, BodyHandle, BodyKind, BodySet, com_at, origin_at};
use crate::cold_start;
use crate::collider::ColliderSet;
use crate::contact::{BuildContext, ContactPointView, ContactStore, ContactView};
use crate::error::{DynamicsError, finite3};
use crate::integrate::{
    ForceInput, clamp_velocity, diagonal_of, gravity_only, implicit_gyroscopic_diagonal,
    integrate_pose, pay_for_lift, velocity_without_contact,
};
use crate::island::Islands;
use crate::jacobian::{BuildParams, tangents};
use crate::joint::JointSet;
use crate::joint::rows::{JointParams, JointRows};
use crate::pgs;
use crate::reuse::RowReuse;
use crate::settings::{PenetrationMode, Settings, SweepOrder};
use crate::solver_body::{Entries, Entry, Fill, NewBody, Plain, Read, SolverBodies, Velocity};
use crate::stats::{Stage, StepStats};
use crate::wide::WideContacts;

/// A physics world: bodies, colliders, contacts, and the step.
pub struct World {
    pub(crate) settings: Settings,
    pub(crate) bodies: BodySet,
    colliders: ColliderSet,
    broad: BroadPhase,
    narrow: NarrowPhase,
    pairs: Vec<(u32, u32)>,
    solver: SolverBodies,
    /// Solver index per body slot (0 = not in the solver: static, sleeping).
    solver_of: Vec<u32>,
    contacts: ContactStore,
    /// The contact rows packed by colour for the solver.
    wide: WideContacts,
    /// Solve substeps must keep the contact store's rows current too (the exact mode
    /// has an island to look at, or the colouring an overflow set).
    store_rows: bool,
    /// The last solve changed λ in the store (exact mode, restitution).
    store_lambda_changed: bool,
    /// The step's last solve wrote the impulses back to the narrowphase in its last
    /// sweep (`wide::WriteBack`).
    written_back: bool,
    /// The refresh of the lanes' rows that the next solve runs (`wide::Refresh`), set
    /// between solve substeps and at the start of a step that keeps its rows.
    fresh: Option<Fresh>,
    /// Rows the exact mode may still solve this step (`exact_rows_per_step`).
    exact_budget: usize,
    /// Each exactly solved island's last answer, where its next exact solve starts.
    exact_starts: crate::exact::Starts,
    /// The last step held an island the exact mode takes: this one solves once.
    exact_last_step: bool,
    /// The last solve's last sweep moved no row's bodies by more than
    /// `Settings::sweep_tolerance` (and every row took part in that measure): the next
    /// solve, over the same rows, runs one sweep.
    settled: bool,
    /// Steps in a row that kept their rows ([`RELIST_AFTER`]).
    kept_steps: u32,
    /// The solve just run swept on the pool's threads (its crew's helper answered).
    solved_on_threads: bool,
    /// How many solver bodies each half of the body order made in the last step's build
    /// (`World::solver_bodies`).
    solver_counts: [usize; 2],
    /// What the last build's solver bodies were made from: the body set's insertions
    /// and removals and the broadphase passes' changes of a body to or from moving
    /// (`movers_changed`). While both stand, the awake and kinematic bodies are those
    /// solver bodies, in their order ([`World::keep_bodies_in_halves`]).
    solver_list_at: Option<(u64, u64)>,
    /// Bodies the broadphase passes found turned moving or still, so far.
    movers_changed: u64,
    /// This step sweeps the exact mode's islands once over the whole step (`whole_h`)
    /// while the others take their solve substeps: [`World::take_whole_step`].
    apart: bool,
    whole_h: f32,
    /// Per solver body: it belongs to such an island (integrated once, over `whole_h`).
    whole_body: Vec<bool>,
    /// This step's build already put the lanes' warm impulses into `dV`.
    warm_in_build: bool,
    /// This step's velocity sweeps in its first solve substep and in each later one,
    /// and its split sweeps per solve substep.
    sweeps: (u32, u32, u32),
    /// How many solve substeps' position correction this step's split pass makes at
    /// once: the step's solve substeps when the pass runs only after the last of them
    /// (split impulse, `Settings::split_every_substep` off, no joints), else 1.
    split_passes: u32,
    /// What the rows were last built from, for a later step to keep them
    /// (`Settings::reuse_rows_within`, `reuse.rs`).
    row_reuse: RowReuse,
    /// Scratch: the units whose rows a step that keeps the others' builds again, and
    /// the store manifolds that moved.
    stale_units: Vec<bool>,
    moved_manifolds: Vec<bool>,
    /// Scratch of a cold step's warm start from statics (`cold_start.rs`).
    cold_start: cold_start::ColdStart,
    /// What the contact store was last gathered from (`Gathered`).
    gathered: Gathered,
    /// What the islands were last found from (the narrowphase layout, the collider
    /// generation, the body slots and bodies), where a later step may take them as
    /// they are: the same joints between bodies (`joint_links`), and no kinematic or
    /// sleeping body then.
    islands_at: Option<IslandsAt>,
    /// The joints' unions (body slots `(a, b)` of each unbroken joint between two
    /// bodies) at the last island search, and this step's (scratch).
    joint_links: Vec<(u32, u32)>,
    joint_links_now: Vec<(u32, u32)>,
    /// A step that keeps its rows: the bodies in their own angular frames that turned
    /// too far for the build's, with their new frames, and a flag per solver body.
    turned: Vec<(u32, crate::solver_body::Frame)>,
    /// `turned` of the second half of the solver bodies (`keep_bodies_in_halves`).
    turned_high: Vec<(u32, crate::solver_body::Frame)>,
    turned_body: Vec<bool>,
    /// This step's broadphase pass saw a body change kind, or a kinematic or sleeping
    /// body (the islands are found again).
    island_bodies_changed: bool,
    islands: Islands,
    /// Sleeping islands to wake whole (`Body::sleep_group`, `wake_groups`), the next
    /// group's number, and how many times groups woke (the statics' warm start looks
    /// at the islands after a wake, `cold_start.rs`).
    wake_queue: Vec<u32>,
    next_sleep_group: u32,
    wakes: u64,
    pub(crate) joints: JointSet,
    joint_rows: JointRows,
    /// On a step that sweeps the exact mode's islands apart (`apart`), their joint
    /// rows, built over the whole step and swept with their contacts in the last solve
    /// substep; `joint_rows` then holds the others'.
    whole_joints: JointRows,
    /// Scratch of `integrate`: the solver bodies that joint rows hold.
    jointed: Vec<bool>,
    /// `whole_joints` holds rows this step.
    joints_apart: bool,
    stats: StepStats,
    /// Body slots whose pose the user changed since the last step (AABB refresh).
    dirty: Vec<u32>,
    /// Whether this step uses the rayon pool (`uses_pool`).
    pool: bool,
    /// What each half of the body order left for the stepping thread
    /// (`World::make_collider_boxes`).
    collider_boxes: [BoxHalf; 2],
    /// Build every point's scalar rows where the exact mode reads only its islands'
    /// (the unit test that compares the two).
    #[cfg(test)]
    all_scalar_rows: bool,
    /// Gather the contact store anew on every step that builds its rows (the unit
    /// test that compares it with taking the points again).
    #[cfg(test)]
    no_regather: bool,
    /// Tests: the narrowphase never shows the contact store its manifolds
    /// (`contact::Tap`), so every regather reads them back; and how many updates
    /// showed them, the store taking them all or not.
    #[cfg(test)]
    no_tap: bool,
    #[cfg(test)]
    taps: [usize; 2],
    /// Let the colouring compare its keys on every step (the store's `keys_at` cleared
    /// before the layout), and count the builds whose colouring skipped the look.
    #[cfg(test)]
    unkeyed: bool,
    #[cfg(test)]
    keyed: usize,
    /// Keep the rows on whatever colouring they were built (no `RELIST_AFTER`).
    #[cfg(test)]
    no_relist: bool,
    /// Per body slot: whether its colliders are marked moving in the broadphase.
    moving: Vec<bool>,
    /// Per body slot: whether it is dynamic (set by each step's broadphase pass, for
    /// the pair filter right after it, which would otherwise read two bodies a pair).
    dynamic: Vec<bool>,
}

impl Default for World {
    fn default() -> Self {
        Self::new(Settings::default())
    }
}

impl std::fmt::Debug for World {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("World")
            .field("settings", &self.settings)
            .field("bodies", &self.bodies.len())
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

impl World {
    /// An empty world.
    #[must_use]
    pub fn new(settings: Settings) -> Self {
        Self {
            settings,
            bodies: BodySet::default(),
            colliders: ColliderSet::default(),
            broad: BroadPhase::default(),
            narrow: NarrowPhase::default(),
            pairs: Vec::new(),
            solver: SolverBodies::default(),
            solver_of: Vec::new(),
            contacts: ContactStore::default(),
            wide: WideContacts::default(),
            store_rows: false,
            store_lambda_changed: false,
            written_back: false,
            fresh: None,
            exact_budget: 0,
            exact_starts: crate::exact::Starts::default(),
            exact_last_step: false,
            settled: false,
            kept_steps: 0,
            solved_on_threads: false,
            solver_counts: [0, 0],
            solver_list_at: None,
            movers_changed: 0,
            apart: false,
            whole_h: 0.0,
            whole_body: Vec::new(),
            warm_in_build: false,
            sweeps: (0, 0, 0),
            split_passes: 1,
            row_reuse: RowReuse::default(),
            stale_units: Vec::new(),
            moved_manifolds: Vec::new(),
            cold_start: cold_start::ColdStart::default(),
            gathered: Gathered::default(),
            islands_at: None,
            joint_links: Vec::new(),
            joint_links_now: Vec::new(),
            turned: Vec::new(),
            turned_high: Vec::new(),
            turned_body: Vec::new(),
            island_bodies_changed: true,
            islands: Islands::default(),
            wake_queue: Vec::new(),
            next_sleep_group: 0,
            wakes: 0,
            joints: JointSet::default(),
            joint_rows: JointRows::default(),
            whole_joints: JointRows::default(),
            jointed: Vec::new(),
            joints_apart: false,
            stats: StepStats::default(),
            dirty: Vec::new(),
            pool: false,
            collider_boxes: Default::default(),
            #[cfg(test)]
            all_scalar_rows: false,
            #[cfg(test)]
            no_regather: false,
            #[cfg(test)]
            no_tap: false,
            #[cfg(test)]
            taps: [0; 2],
            #[cfg(test)]
            unkeyed: false,
            #[cfg(test)]
            keyed: 0,
            #[cfg(test)]
            no_relist: false,
            moving: Vec::new(),
            dynamic: Vec::new(),
        }
    }

    /// The settings.
    #[must_use]
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The settings, to change gravity or solver knobs (validated by the next step).
    pub fn settings_mut(&mut self) -> &mut Settings {
        self.settled = false;
        &mut self.settings
    }

    /// Timings and counters of the last step.
    #[must_use]
    pub fn stats(&self) -> &StepStats {
        &self.stats
    }

    // ------------------------------------------------------------------ bodies

    /// Make room for `additional` more bodies with one collider each, so that adding
    /// them does not grow (and double) the world's arrays one reallocation at a time: a
    /// scene loader that knows its count builds the world without the growth slack
    /// (`pyramid_40`'s 821 bodies would otherwise sit in arrays of 1024).
    pub fn reserve(&mut self, additional: usize) {
        self.bodies.reserve(additional);
        self.colliders.reserve(additional);
        self.broad.reserve(additional);
        self.moving.reserve(additional);
        self.dynamic.reserve(additional);
        self.solver_of.reserve(additional);
    }

    /// Add a body; validates everything (shapes, mass, finiteness) first.
    pub fn add_body(&mut self, builder: BodyBuilder) -> Result<BodyHandle, DynamicsError> {
        let body = builder.build()?;
        let shapes: Vec<_> = body
            .colliders
            .iter()
            .map(|c| c.validate().cloned())
            .collect::<Result<_, _>>()?;
        let handle = self.bodies.insert(body);
        let slot = handle.index();
        let body = self.bodies.slot_mut(slot);
        let moving = body.kind != BodyKind::Static;
        let pose = body.pose;
        let mut keys = smallvec::SmallVec::new();
        let mut extent = 0.0f32;
        for (c, shape) in body.colliders.iter().zip(shapes) {
            let local = shape.aabb(&c.pose());
            extent = extent.max(local.min.abs().max(local.max.abs()).length());
            let world = pose.mul(c.pose());
            let aabb = shape.aabb(&world).expanded(self.settings.contact_margin);
            let key = self
                .colliders
                .insert(shape, c.pose(), world, c.get_material(), slot);
            self.broad.insert(key, aabb, moving, c.get_filter());
            keys.push(key);
        }
        body.collider_keys = keys;
        body.extent = extent;
        let n = self.bodies.capacity();
        self.moving.resize(n, false);
        self.dynamic.resize(n, false);
        self.solver_of.resize(n, 0);
        self.moving[slot as usize] = moving;
        Ok(handle)
    }

    /// Remove a body and the joints attached to it; bodies it touched are woken. Other
    /// handles stay valid.
    pub fn remove_body(&mut self, h: BodyHandle) -> Result<(), DynamicsError> {
        self.bodies.get(h)?;
        self.wake_touching(h.index());
        // (Asleep, it touches nothing the narrowphase still lists: its sleep group
        // wakes instead.)
        self.wake(h.index());
        for j in self.joints.attached_to(h.index()) {
            let _ = self.remove_joint(j);
        }
        let body = self.bodies.remove(h)?;
        for &k in &body.collider_keys {
            self.broad.remove(k);
            self.colliders.remove(k);
        }
        self.dirty.retain(|&s| s != h.index());
        // (Its slot may go to another body, whose island would then match a kept one.)
        self.exact_starts.forget(h.index());
        Ok(())
    }

    /// The body of a handle.
    pub fn body(&self, h: BodyHandle) -> Result<&Body, DynamicsError> {
        self.bodies.get(h)
    }

    /// Live bodies in insertion order.
    pub fn bodies(&self) -> impl Iterator<Item = (BodyHandle, &Body)> {
        self.bodies.iter()
    }

    /// Number of live bodies.
    #[must_use]
    pub fn body_count(&self) -> usize {
        self.bodies.len()
    }

    /// Total energy `Σ ½mv² + ½ωᵀIω − m·g·x` of the dynamic bodies (J), relative to the
    /// world origin.
    #[must_use]
    pub fn total_energy(&self) -> f32 {
        let g = self.settings.gravity;
        self.bodies
            .iter()
            .filter(|(_, b)| b.kind == BodyKind::Dynamic)
            .map(|(_, b)| b.kinetic_energy() - b.mass * b.gravity_scale * g.dot(b.center_of_mass()))
            .sum()
    }

    pub(crate) fn wake(&mut self, slot: u32) {
        let b = self.bodies.slot_mut(slot);
        if b.sleeping && b.sleep_group != u32::MAX {
            // The rest of its island wakes with it before the next step's broadphase.
            self.wake_queue.push(b.sleep_group);
        }
        b.sleeping = false;
        b.sleep_time = 0.0;
    }

    /// Wakes every sleeping body of the queued sleep groups (`Body::sleep_group`);
    /// says whether one woke. An island falls asleep whole, and while its bodies sleep
    /// the broadphase lists no pair of two of them, so their contacts are dropped: a
    /// body woken alone would find its neighbours' contacts only a step later, and
    /// theirs a step after that, the island waking a layer a step and each new layer
    /// falling a step without support (a 20-row pyramid woken at its top crumpled by
    /// 0.22 m). Woken whole, before the broadphase lists its pairs, it finds all its
    /// contacts at once, and being cold and still they start from its statics
    /// (`cold_start.rs`).
    fn wake_groups(&mut self) -> bool {
        if self.wake_queue.is_empty() {
            return false;
        }
        let queue = &mut self.wake_queue;
        queue.sort_unstable();
        queue.dedup();
        let mut woke = false;
        for i in 0..self.bodies.order().len() {
            let slot = self.bodies.order()[i];
            let b = self.bodies.slot_mut(slot);
            if b.sleep_group != u32::MAX && queue.binary_search(&b.sleep_group).is_ok() {
                woke |= b.sleeping;
                (b.sleeping, b.sleep_time, b.sleep_group) = (false, 0.0, u32::MAX);
            }
        }
        queue.clear();
        self.wakes += 1;
        woke
    }

    /// Wake every dynamic body that has a contact with body slot `slot`.
    fn wake_touching(&mut self, slot: u32) {
        let mut touched = Vec::new();
        for pm in self.narrow.manifolds() {
            let (ba, bb) = (
                self.colliders.body[pm.a as usize],
                self.colliders.body[pm.b as usize],
            );
            if ba == slot && bb != u32::MAX {
                touched.push(bb);
            } else if bb == slot && ba != u32::MAX {
                touched.push(ba);
            }
        }
        for s in touched {
            self.wake(s);
        }
    }

    fn body_mut_awake(&mut self, h: BodyHandle) -> Result<&mut Body, DynamicsError> {
        self.bodies.get(h)?;
        self.wake(h.index());
        // A body the caller moved, pushed or drove: the next step sweeps in full.
        self.settled = false;
        self.bodies.get_mut(h)
    }

    /// Move a body's origin (wakes it and what it touches).
    pub fn set_position(&mut self, h: BodyHandle, p: Vec3) -> Result<(), DynamicsError> {
        finite3(p, "position")?;
        self.bodies.get(h)?;
        self.wake_touching(h.index());
        self.body_mut_awake(h)?.pose.position = p;
        self.dirty.push(h.index());
        Ok(())
    }

    /// Set a body's orientation (normalized; wakes it and what it touches).
    pub fn set_rotation(&mut self, h: BodyHandle, q: Quat) -> Result<(), DynamicsError> {
        if !q.is_finite() || q.length_squared() < 1e-12 {
            return Err(DynamicsError::NonFinite { what: "rotation" });
        }
        self.bodies.get(h)?;
        self.wake_touching(h.index());
        self.body_mut_awake(h)?.pose.rotation = q.normalize();
        self.dirty.push(h.index());
        Ok(())
    }

    /// Set a body's gravity multiplier (1 = normal, 0 = floats; wakes it).
    pub fn set_gravity_scale(&mut self, h: BodyHandle, scale: f32) -> Result<(), DynamicsError> {
        if !scale.is_finite() {
            return Err(DynamicsError::NonFinite {
                what: "gravity scale",
            });
        }
        self.body_mut_awake(h)?.gravity_scale = scale;
        Ok(())
    }

    /// Set the linear velocity of the centre of mass (ignored for static bodies).
    pub fn set_linear_velocity(&mut self, h: BodyHandle, v: Vec3) -> Result<(), DynamicsError> {
        finite3(v, "linear velocity")?;
        let b = self.body_mut_awake(h)?;
        if b.kind != BodyKind::Static {
            b.linear_velocity = v;
        }
        Ok(())
    }

    /// Set the angular velocity (world frame; ignored for static bodies).
    pub fn set_angular_velocity(&mut self, h: BodyHandle, w: Vec3) -> Result<(), DynamicsError> {
        finite3(w, "angular velocity")?;
        let b = self.body_mut_awake(h)?;
        if b.kind != BodyKind::Static {
            b.angular_velocity = w;
        }
        Ok(())
    }

    /// Apply an impulse (N·s) at the centre of mass of a dynamic body.
    pub fn apply_impulse(&mut self, h: BodyHandle, impulse: Vec3) -> Result<(), DynamicsError> {
        finite3(impulse, "impulse")?;
        let b = self.body_mut_awake(h)?;
        b.linear_velocity += impulse * b.inv_mass;
        Ok(())
    }

    /// Apply an impulse (N·s) at a world point of a dynamic body.
    pub fn apply_impulse_at(
        &mut self,
        h: BodyHandle,
        impulse: Vec3,
        point: Vec3,
    ) -> Result<(), DynamicsError> {
        finite3(impulse, "impulse")?;
        finite3(point, "point")?;
        let b = self.body_mut_awake(h)?;
        let r = point - b.center_of_mass();
        let inv_i = b.inverse_inertia_world();
        b.linear_velocity += impulse * b.inv_mass;
        b.angular_velocity += inv_i * r.cross(impulse);
        Ok(())
    }

    /// Add a force (N) at the centre of mass, for the next step only.
    pub fn add_force(&mut self, h: BodyHandle, force: Vec3) -> Result<(), DynamicsError> {
        finite3(force, "force")?;
        self.body_mut_awake(h)?.force += force;
        Ok(())
    }

    /// Add a torque (N·m), for the next step only.
    pub fn add_torque(&mut self, h: BodyHandle, torque: Vec3) -> Result<(), DynamicsError> {
        finite3(torque, "torque")?;
        self.body_mut_awake(h)?.torque += torque;
        Ok(())
    }

    /// Change a body's kind (a body becoming dynamic needs a positive mass from its
    /// colliders).
    pub fn set_body_kind(&mut self, h: BodyHandle, kind: BodyKind) -> Result<(), DynamicsError> {
        self.bodies.get(h)?;
        // (Its sleep group wakes with it: `wake_groups`.)
        self.wake(h.index());
        self.settled = false;
        let mut body = self.bodies.get(h)?.clone();
        if kind == BodyKind::Dynamic {
            body.compute_mass(body.explicit_mass)?;
        } else {
            body.mass = 0.0;
            body.inv_mass = 0.0;
            body.inv_inertia_local = Mat3::ZERO;
            if kind == BodyKind::Static {
                body.linear_velocity = Vec3::ZERO;
                body.angular_velocity = Vec3::ZERO;
            }
        }
        body.kind = kind;
        body.sleeping = false;
        body.sleep_time = 0.0;
        self.wake_touching(h.index());
        *self.bodies.get_mut(h)? = body;
        self.dirty.push(h.index());
        Ok(())
    }

    /// Drive a kinematic body to `target` over the next step (its velocity is set to
    /// reach it exactly; the pose is snapped to it after the step).
    pub fn set_kinematic_target(
        &mut self,
        h: BodyHandle,
        target: Pose,
    ) -> Result<(), DynamicsError> {
        if !target.is_finite() {
            return Err(DynamicsError::NonFinite {
                what: "kinematic target",
            });
        }
        let b = self.body_mut_awake(h)?;
        if b.kind != BodyKind::Kinematic {
            return Err(DynamicsError::OutOfRange {
                what: "kinematic target on a non-kinematic body",
                value: 0.0,
            });
        }
        b.kinematic_target = Some(Pose::new(target.position, target.rotation.normalize()));
        Ok(())
    }

    /// The contact manifolds of the last step, with their impulses.
    pub fn contacts(&self) -> impl Iterator<Item = ContactView> + '_ {
        // The store's manifolds are the narrowphase's that the step solved, in the
        // same order (`ContactStore::manifold_source`): walk both together.
        let store = &self.contacts;
        let mut next = 0;
        self.narrow
            .manifolds()
            .iter()
            .enumerate()
            .filter_map(move |(mi, pm)| {
                let first = (store.manifold_source.get(next) == Some(&(mi as u32))).then(|| {
                    next += 1;
                    store.manifold_points[next - 1].0 as usize
                });
                let (ba, bb) = (
                    self.colliders.body[pm.a as usize],
                    self.colliders.body[pm.b as usize],
                );
                if ba == u32::MAX || bb == u32::MAX {
                    return None;
                }
                let n = pm.manifold.normal;
                let (t1, t2) = tangents(n);
                Some(ContactView {
                    a: self.bodies.handle_of(ba),
                    b: self.bodies.handle_of(bb),
                    normal: n,
                    points: pm
                        .manifold
                        .points
                        .iter()
                        .enumerate()
                        .map(|(k, p)| {
                            let [n, s1, s2] =
                                first.map_or([0.0; 3], |f| self.summed_impulse(f + k));
                            ContactPointView {
                                position: p.point,
                                separation: p.separation,
                                normal_impulse: n,
                                tangent_impulses: [s1, s2],
                                tangents: [t1, t2],
                            }
                        })
                        .collect(),
                })
            })
    }

    /// Store point `p`'s impulses summed over the last step's solve substeps: in the
    /// store when the step built its rows (only the apart islands' on an `apart` step),
    /// else in the lanes.
    fn summed_impulse(&self, p: usize) -> [f32; 3] {
        let c = &self.contacts;
        let own = !self.apart || c.whole.get(p).copied().unwrap_or(false);
        if c.has_rows() && own {
            self.contacts.impulse.get(p).copied().unwrap_or([0.0; 3])
        } else {
            self.wide.summed_impulse(p)
        }
    }

    /// Write the last step's contact problems in thud-lcp's JSON format (an array, one
    /// coupled boxed LCP `(A, b, lo, hi, friction_coupling)` per island of at most
    /// `max_rows` rows, assembled from the very rows the solver used), so they can be
    /// studied with `thud-lcp compare`. Returns how many problems were written. With
    /// several solve substeps the contact rows are those of the last solve substep (its
    /// `b` from the separations advanced to it), except on steps that kept the store's
    /// rows for the exact mode, the overflow set or restitution without refreshing
    /// them, whose rows' `b` are the first substep's (`docs/dynamics.md`).
    pub fn export_lcp(
        &self,
        out: &mut dyn std::io::Write,
        max_rows: usize,
    ) -> Result<usize, DynamicsError> {
        let mut store = self.contacts.clone();
        let store_current =
            self.contacts.has_rows() && !self.contacts.partial_rows() && !self.apart;
        if !(store_current || self.contacts.inputs.is_empty()) {
            // The step solved from its lanes alone, or built scalar rows only for the
            // exact mode's islands, or swept those apart and refreshed no other
            // scalar row between its substeps: the others' rows from the lanes.
            self.wide.rows_into(&mut store);
        }
        // The rows' `b̃` are `J̃·Vnc` of the step's first solve substep (see
        // `refresh_rows`); the problem written is the last substep's, whose `b̃` adds
        // `J̃·(Vnc_now − Vnc₀)`.
        let sb = &self.solver;
        let ext = |i: u32| {
            let (now, first) = (sb.vnc_now[i as usize], sb.vnc[i as usize]);
            Velocity {
                lin: now.lin - first.lin,
                ang: now.ang - first.ang,
            }
        };
        for c in &mut store.points {
            let (ea, eb) = (ext(c.a), ext(c.b));
            for r in &mut c.rows {
                r.b += pgs::row_velocity(r, &ea, &eb);
            }
        }
        let mut joints = self.joint_rows.clone();
        let w = &self.whole_joints;
        joints.rows.extend_from_slice(&w.rows);
        joints.island.extend_from_slice(&w.island);
        joints.split_lambda.extend_from_slice(&w.split_lambda);
        for j in &mut joints.rows {
            j.row.b += pgs::row_velocity(&j.row, &ext(j.a), &ext(j.b));
        }
        crate::exact::export(&store, &joints, max_rows, out).map_err(DynamicsError::Export)
    }

    /// Run `sweeps` more velocity sweeps over the contact and joint rows the last step
    /// solved last, as they stand (the last solve substep's rows, impulses and `dV`),
    /// and return the row updates they made, counted as [`StepStats::row_updates`]
    /// counts them. The bodies do not move, but the impulses the next step starts from
    /// are these sweeps': this is for timing the row update alone (`benches/step.rs`,
    /// `row_update`) and for watching a solve converge, not for a world that goes on.
    pub fn sweep_again(&mut self, sweeps: u32) -> u64 {
        if self.solver.dv.is_empty() {
            // (No step yet: no solver bodies, no rows.)
            return 0;
        }
        let s = &self.settings;
        // (All `sweeps` of them, as counted: not the one of a settled solve.)
        (self.wide.settled, self.wide.measure) = (false, false);
        self.wide.solve(
            None,
            &mut self.contacts,
            &mut self.joint_rows.rows,
            &mut self.solver.dv,
            (sweeps, s.friction_stride),
            s.omega,
            false,
            crate::wide::LastSweep::default(),
        );
        self.row_updates(sweeps)
    }

    /// The contact row updates of `iterations` sweeps: every row in a sweep with
    /// friction, the normal rows alone in one without (the overflow's scalar rows keep
    /// friction in every sweep: `wide::overflow`).
    fn row_updates(&self, iterations: u32) -> u64 {
        let rows = self.contacts.rows() as u64;
        let overflow: usize = self
            .wide
            .overflow_points(&self.contacts)
            .map(|r| r.len())
            .sum();
        let stride = self.settings.friction_stride;
        let with = (0..iterations)
            .filter(|&k| pgs::friction_sweep(k, iterations, stride))
            .count() as u64;
        let without = u64::from(iterations) - with;
        with * rows + without * (rows / 3 + 2 * overflow as u64)
    }

    // ------------------------------------------------------------------ the step

    /// One step of `settings.dt`.
    pub fn step(&mut self) -> Result<(), DynamicsError> {
        self.step_dt(self.settings.dt)
    }

    /// One step of `dt` seconds (`settings.substeps` substeps of `dt / substeps`).
    pub fn step_dt(&mut self, dt: f32) -> Result<(), DynamicsError> {
        if !(dt.is_finite() && dt > 0.0) {
            return Err(DynamicsError::InvalidTimeStep { dt });
        }
        self.settings.validate()?;
        self.stats = StepStats::default();
        let n = self.settings.substeps;
        let h = dt / n as f32;
        let run = |w: &mut World| {
            // Subnormals flushed on every thread of the step (`thud_collide::denormals`),
            // and the caller's mode back after it.
            let _flush = thud_collide::FlushDenormals::new();
            for _ in 0..n {
                w.substep(h);
            }
        };
        let pool = self.uses_pool();
        self.pool = pool;
        if pool {
            // Called from outside the pool (a game's main thread), the whole step runs
            // on a pool thread, one hand-over per step instead of one per parallel
            // stage; a second pool thread stays at hand for the step's sweeps: the one
            // that takes the helper's job (`rayon::join`, whose jobs live on the stack,
            // so that the step allocates nothing).
            let crew = crate::parallel::Crew::default();
            rayon::join(
                || {
                    let _on = crew.enter();
                    run(self);
                },
                || crew.serve(rayon::current_thread_index().unwrap_or(usize::MAX)),
            );
        } else {
            run(self);
        }
        self.stats.bodies = self.bodies.len();
        Ok(())
    }

    /// Whether this step uses the rayon pool (`Settings::parallel_min_pairs`): several
    /// threads, and solves whose sweeps run in parallel or a large narrowphase.
    fn uses_pool(&self) -> bool {
        let s = &self.settings;
        // The most sweeps one solve of this step runs (`substep`'s `self.sweeps`).
        let later = s.substep_iterations.unwrap_or(s.iterations);
        let sweeps = if self.exact_last_step {
            s.iterations + (s.solve_substeps.max(1) - 1) * later
        } else {
            s.iterations.max(later)
        };
        // Sweeps that split (cut into regions, or long enough) only where the last step's
        // sweeps had a schedule: `tower_20`'s twelve-sweep solves after an exact step
        // have too few groups for one, and handed its steps to the pool for nothing.
        let split = sweeps >= crate::parallel::MIN_SWEEPS || self.wide.cut();
        rayon::current_num_threads() > 1
            && (split && self.wide.schedules()
                || self.pairs.len() >= s.parallel_min_pairs
                || self.narrow.recomputed_pairs() >= s.parallel_min_recomputed)
    }

    /// The pipeline.
    fn substep(&mut self, h: f32) {
        self.wake_groups();
        let counted = (self.stats.pairs, self.stats.pairs_computed);
        self.timed(Stage::BroadPhase, |w| w.broad_phase());
        self.timed(Stage::NarrowPhase, |w| w.narrow_phase());
        self.timed(Stage::Islands, |w| w.find_islands());
        if self.wake_groups() {
            // Sleeping islands an awake body touched woke whole (`wake_groups`): their
            // pairs listed and their contacts found in this step too (the pairs
            // counted as the second pass finds them).
            (self.stats.pairs, self.stats.pairs_computed) = counted;
            self.timed(Stage::BroadPhase, |w| w.broad_phase());
            self.timed(Stage::NarrowPhase, |w| w.narrow_phase());
            self.timed(Stage::Islands, |w| w.find_islands());
        }
        // A step after one that held an island for the exact mode runs a single solve
        // of all the substeps' sweeps (see `Settings::solve_substeps`).
        let s = &self.settings;
        let later = s.substep_iterations.unwrap_or(s.iterations);
        self.sweeps = match s.solve_substeps {
            n if self.exact_last_step => {
                (s.iterations + (n - 1) * later, 0, s.split_iterations * n)
            }
            _ => (s.iterations, later, s.split_iterations),
        };
        let n = if self.exact_last_step {
            1
        } else {
            s.solve_substeps
        };
        // The position pass once, after the last solve substep, standing for `n` (the
        // joints' position rows, meant per substep, still run in every substep:
        // `solve`).
        let once = s.penetration == PenetrationMode::SplitImpulse && !s.split_every_substep;
        self.split_passes = if once { n.max(1) } else { 1 };
        let hs = h / n as f32;
        self.exact_budget = self.settings.exact_rows_per_step;
        self.timed(Stage::BuildJacobians, |w| w.build_jacobians(hs, h));
        // Rows built (or some built again) have not been measured yet.
        let st = &self.stats;
        self.settled &= st.rows_kept && st.rows_rebuilt == 0 && st.rows_relaid == 0;
        for k in 0..n {
            if k > 0 {
                self.timed(Stage::BuildJacobians, |w| w.refresh_rows(hs, k + 1 == n));
            }
            self.timed(Stage::WarmStart, |w| w.warm_start(k == 0));
            self.timed(Stage::Solve, |w| w.solve(k == 0, k + 1 == n));
            // (The solve refreshes the rows as it first sweeps them: build time.)
            let refreshed = self.wide.take_refresh_time();
            self.stats
                .move_time(Stage::Solve, Stage::BuildJacobians, refreshed);
            let threaded = self.wide.take_threaded();
            self.stats.threaded_solves += threaded;
            self.solved_on_threads = threaded > 0;
            self.stats.regions = self.wide.cut();
            self.stats.blocks = self.wide.blocks();
            self.timed(Stage::Integrate, |w| w.integrate(hs, k + 1 == n));
        }
        self.timed(Stage::Sleep, |w| w.sleep(h));
    }

    fn timed(&mut self, stage: Stage, f: impl FnOnce(&mut Self)) {
        let t = Instant::now();
        f(self);
        self.stats.add_time(stage, t.elapsed());
    }

    /// Whether the body in `slot` moves this step (awake dynamic, or kinematic).
    fn is_moving(b: &Body) -> bool {
        match b.kind {
            BodyKind::Dynamic => !b.sleeping,
            BodyKind::Kinematic => true,
            BodyKind::Static => false,
        }
    }

    /// A body's look at the step's start: its kind and moving flags brought up to date
    /// (a body that starts or stops moving changes trees in the broadphase), and, where
    /// `boxes`, a moving body's colliders' poses and boxes made. Whether the islands'
    /// bodies may have changed (`island_bodies_changed`).
    #[inline(always)]
    fn look_at_body(&mut self, slot: u32, boxes: bool) -> bool {
        let b = self.bodies.slot(slot);
        let (dynamic, moving, unsettled) = Self::flags(b);
        let changed = self.dynamic[slot as usize] != dynamic || unsettled;
        self.dynamic[slot as usize] = dynamic;
        if moving != self.moving[slot as usize] {
            self.moving[slot as usize] = moving;
            self.movers_changed += 1;
            for &k in &b.collider_keys {
                self.broad.set_moving(k, moving);
            }
        }
        if moving && boxes {
            self.refresh_colliders(slot);
        }
        changed
    }

    /// Whether a body is dynamic, whether it moves (`is_moving`), and whether it keeps
    /// the islands from standing as they were (kinematic, or dynamic and asleep).
    #[inline(always)]
    fn flags(b: &Body) -> (bool, bool, bool) {
        let dynamic = b.kind == BodyKind::Dynamic;
        let unsettled = b.kind == BodyKind::Kinematic || (dynamic && b.sleeping);
        (dynamic, Self::is_moving(b), unsettled)
    }

    fn refresh_colliders(&mut self, slot: u32) {
        let margin = self.settings.contact_margin;
        let b = self.bodies.slot(slot);
        let ahead = b.linear_velocity * (AHEAD_STEPS * self.settings.dt);
        for &k in &b.collider_keys {
            let (pose, aabb) = collider_box(
                (&self.colliders.local, &self.colliders.shapes),
                k,
                b,
                margin,
            );
            self.colliders.poses[k as usize] = pose;
            self.broad.update_moving(k, aabb, ahead);
        }
    }

    fn broad_phase(&mut self) {
        // With the step's crew, the bodies are looked at and the moving colliders'
        // poses and boxes made by the two threads, each for one half of the body order
        // (`make_collider_boxes`).
        let halves = self.pool && self.bodies.order().len() >= PAR_BODIES;
        self.broad.set_parallel(self.pool_now());
        let changed = if halves {
            self.make_collider_boxes()
        } else {
            let mut changed = false;
            for i in 0..self.bodies.order().len() {
                let slot = self.bodies.order()[i];
                changed |= self.look_at_body(slot, true);
            }
            changed
        };
        self.island_bodies_changed = changed;
        let mut dirty = std::mem::take(&mut self.dirty);
        for &slot in &dirty {
            self.refresh_colliders(slot);
        }
        dirty.clear();
        self.dirty = dirty;
        self.pairs.clear();
        if self.pool_now() && self.narrow.manifolds().len() >= PAR_AHEAD {
            self.find_pairs_and_refresh_ahead();
        } else {
            self.broad.find_pairs(&mut self.pairs);
            PairFilter::new(&self.colliders.body, &self.dynamic, &self.joints)
                .apply(&mut self.pairs);
        }
    }

    /// The broadphase's pairs found (and filtered) on one of the crew's threads while
    /// the other refreshes the manifolds of last step's pairs ahead of the
    /// narrowphase's update, until the pairs are found (`NarrowPhase::refresh_ahead`; on
    /// two threads the pair search ran alone while the helper waited). The narrowphase
    /// gives every pair what its update gives it however far that got: the same bits on
    /// any pool.
    fn find_pairs_and_refresh_ahead(&mut self) {
        enum Job<'a> {
            Pairs(&'a mut BroadPhase, &'a mut Vec<(u32, u32)>, PairFilter<'a>),
            Ahead(&'a mut NarrowPhase, &'a [thud_collide::Shape], &'a [Pose]),
        }
        let stop = std::sync::atomic::AtomicBool::new(false);
        let margin = self.settings.contact_margin;
        let filter = PairFilter::new(&self.colliders.body, &self.dynamic, &self.joints);
        let pairs = Job::Pairs(&mut self.broad, &mut self.pairs, filter);
        let ahead = Job::Ahead(
            &mut self.narrow,
            &self.colliders.shapes,
            &self.colliders.poses,
        );
        crate::parallel::both(pairs, ahead, |job| match job {
            Job::Pairs(broad, out, filter) => {
                broad.find_pairs(out);
                filter.apply(out);
                stop.store(true, std::sync::atomic::Ordering::Release);
            }
            Job::Ahead(narrow, shapes, poses) => {
                narrow.refresh_ahead(shapes, poses, margin, &stop);
            }
        });
    }

    /// The bodies' look at the step's start (`look_at_body`) and the moving colliders'
    /// poses and boxes, made for each half of the body order on one of the crew's two
    /// threads (`parallel::both`; one after the other without a helper) and handed to
    /// the broadphase there: each half writes the poses and updates the proxies of its
    /// own range of collider keys (`update_in_parts`, split where the second half's
    /// colliders start: keys follow the body order where the bodies were added in it).
    /// A collider outside its half's range is handed over afterwards on this thread,
    /// and so is a body whose kind or moving flag changed, in body order: it changes
    /// the flags and the broadphase's trees (`look_at_body`). The same boxes as body by
    /// body, so the same pairs. Whether the islands' bodies may have changed.
    fn make_collider_boxes(&mut self) -> bool {
        let (bodies, moving, dynamic) = (&self.bodies, &self.moving, &self.dynamic);
        let colliders = &mut self.colliders;
        let (local, shapes) = (&colliders.local, &colliders.shapes);
        let (margin, dt) = (self.settings.contact_margin, self.settings.dt);
        let [mut first, mut second] = std::mem::take(&mut self.collider_boxes);
        let order = bodies.order();
        let (a, b) = order.split_at(order.len() / 2);
        let split = b
            .iter()
            .find_map(|&s| bodies.slot(s).collider_keys.first().copied())
            .unwrap_or(u32::MAX);
        let at = (split as usize).min(colliders.poses.len());
        let (poses_a, poses_b) = colliders.poses.split_at_mut(at);
        self.broad.update_in_parts(split, |[part_a, part_b]| {
            let half_a = (a, part_a, poses_a, 0, &mut first);
            let half_b = (b, part_b, poses_b, at, &mut second);
            crate::parallel::both(half_a, half_b, |(slots, part, poses, start, out)| {
                out.left.clear();
                out.flagged.clear();
                // (Summed here and stored once: the two halves' outputs share a cache
                // line.)
                let mut changed = false;
                for &slot in slots {
                    let b = bodies.slot(slot);
                    let (is_dynamic, is_moving, unsettled) = Self::flags(b);
                    if is_dynamic != dynamic[slot as usize] || is_moving != moving[slot as usize] {
                        out.flagged.push(slot);
                        continue;
                    }
                    changed |= unsettled;
                    if !is_moving {
                        continue;
                    }
                    let ahead = b.linear_velocity * (AHEAD_STEPS * dt);
                    for &k in &b.collider_keys {
                        let (pose, aabb) = collider_box((local, shapes), k, b, margin);
                        let own = (k as usize).checked_sub(start).filter(|_| part.holds(k));
                        match own.and_then(|i| poses.get_mut(i)) {
                            Some(p) => {
                                *p = pose;
                                part.update_moving(k, aabb, ahead);
                            }
                            None => out.left.push((k, pose, aabb, ahead)),
                        }
                    }
                }
                out.changed = changed;
            });
        });
        let mut changed = first.changed || second.changed;
        for half in [&first, &second] {
            for &(k, pose, aabb, ahead) in &half.left {
                self.colliders.poses[k as usize] = pose;
                self.broad.update_moving(k, aabb, ahead);
            }
        }
        for &slot in first.flagged.iter().chain(&second.flagged) {
            changed |= self.look_at_body(slot, true);
        }
        self.collider_boxes = [first, second];
        changed
    }

    fn narrow_phase(&mut self) {
        self.narrow.set_parallel(self.pool_now());
        // The manifolds' spreads, which only a touching gap reads, are taken with their
        // points (by the tap below, or the step's gather or regather) only where there
        // is one.
        self.contacts.spreads = self.settings.touching_gap > 0.0;
        // Where the contact store holds the narrowphase's list as it stands, it takes
        // the points as the update leaves each manifold (`contact::Tap`), instead of
        // reading them all back for its regather.
        let at = (self.narrow.layout(), self.colliders.generation());
        #[cfg(test)]
        let allowed = !self.no_tap;
        #[cfg(not(test))]
        let allowed = true;
        if allowed && self.gathered.at == Some(at) {
            let mut tap = self.contacts.tap();
            let all = self.narrow.update_tapped(
                &self.pairs,
                &self.colliders.shapes,
                &self.colliders.poses,
                self.settings.contact_margin,
                &mut tap,
            );
            self.contacts.tapped = tap.finish(all);
            #[cfg(test)]
            {
                self.taps[usize::from(self.contacts.tapped.is_none())] += 1;
            }
        } else {
            self.contacts.tapped = None;
            self.narrow.update(
                &self.pairs,
                &self.colliders.shapes,
                &self.colliders.poses,
                self.settings.contact_margin,
            );
        }
        self.stats.pairs += self.pairs.len();
        self.stats.pairs_computed += self.narrow.recomputed_pairs();
    }

    fn find_islands(&mut self) {
        let n = self.bodies.capacity();
        // The same unions as last step (the same manifolds between the same dynamic
        // bodies, the same joints between bodies) give the same islands; with no
        // kinematic or sleeping body, every island is awake and nothing wakes.
        let at = (
            self.narrow.layout(),
            self.colliders.generation(),
            n,
            self.bodies.order().len(),
        );
        let mut links = std::mem::take(&mut self.joint_links_now);
        links.clear();
        links.extend(
            self.joints
                .slots()
                .iter()
                .flatten()
                .filter(|j| !j.broken)
                .filter_map(|j| j.a.map(|a| (a, j.b))),
        );
        let same_joints = links == self.joint_links;
        (self.joint_links_now, self.joint_links) = (std::mem::take(&mut self.joint_links), links);
        let steady = !self.island_bodies_changed && same_joints;
        if steady && self.islands_at == Some(at) {
            self.stats.islands = self.islands.count;
            return;
        }
        self.islands_at = steady.then_some(at);
        let isl = &mut self.islands;
        isl.uf.reset(n);
        isl.awake.clear();
        isl.awake.resize(n, false);
        let bodies = &self.bodies;
        let cb = &self.colliders.body;
        let sleeping = self.settings.sleeping;
        let lin_thr = self.settings.sleep_linear_threshold;
        let dynamic = &self.dynamic;
        for pm in self.narrow.manifolds() {
            let (sa, sb) = (cb[pm.a as usize], cb[pm.b as usize]);
            if sa == u32::MAX || sb == u32::MAX || pm.manifold.points.is_empty() {
                continue;
            }
            // Two dynamic bodies (most contacts) are joined without reading the bodies
            // (`broad_phase` just wrote each body's kind into `dynamic`).
            match (dynamic[sa as usize], dynamic[sb as usize]) {
                (true, true) => {
                    isl.uf.union(sa, sb);
                    continue;
                }
                (false, false) => continue,
                _ => {}
            }
            // One dynamic body: awake where the other is a moving kinematic one.
            let (ba, bb) = (bodies.slot(sa), bodies.slot(sb));
            match (ba.kind, bb.kind) {
                (BodyKind::Dynamic, BodyKind::Kinematic)
                    if bb.linear_velocity.length() > lin_thr || bb.kinematic_target.is_some() =>
                {
                    isl.awake[sa as usize] = true;
                }
                (BodyKind::Kinematic, BodyKind::Dynamic)
                    if ba.linear_velocity.length() > lin_thr || ba.kinematic_target.is_some() =>
                {
                    isl.awake[sb as usize] = true;
                }
                _ => {}
            }
        }
        for j in self.joints.slots().iter().flatten() {
            let Some(sa) = j.a.filter(|_| !j.broken) else {
                continue;
            };
            let (ba, bb) = (bodies.slot(sa), bodies.slot(j.b));
            match (ba.kind, bb.kind) {
                (BodyKind::Dynamic, BodyKind::Dynamic) => isl.uf.union(sa, j.b),
                (BodyKind::Dynamic, BodyKind::Kinematic) => isl.awake[sa as usize] = true,
                (BodyKind::Kinematic, BodyKind::Dynamic) => isl.awake[j.b as usize] = true,
                _ => {}
            }
        }
        isl.root.clear();
        isl.root.resize(n, u32::MAX);
        let mut count = 0;
        for &slot in bodies.order() {
            let b = bodies.slot(slot);
            if b.kind != BodyKind::Dynamic {
                continue;
            }
            let r = isl.uf.find(slot);
            isl.root[slot as usize] = r;
            if !sleeping || !b.sleeping || isl.awake[slot as usize] {
                isl.awake[r as usize] = true;
            }
        }
        for i in 0..self.bodies.order().len() {
            let slot = self.bodies.order()[i];
            if self.bodies.slot(slot).kind != BodyKind::Dynamic {
                continue;
            }
            let r = self.islands.root[slot as usize];
            if r == slot && self.islands.awake[slot as usize] {
                count += 1;
            }
            if self.islands.awake[r as usize] && self.bodies.slot(slot).sleeping {
                self.wake(slot);
            }
        }
        self.stats.islands = count;
        self.islands.count = count;
    }

    /// Solver bodies and rows for a solve substep of `h`; kinematic bodies move to
    /// their targets over the whole (sub)step `step_h`.
    fn build_jacobians(&mut self, h: f32, step_h: f32) {
        // (Every joint row is built, then parted: `part_joint_rows`.)
        self.joints_apart = false;
        // Rows that have stood for `RELIST_AFTER` steps on a colouring at its manifolds'
        // earliest levels are built once more, list-scheduled.
        let relist = self.kept_steps >= RELIST_AFTER && !self.wide.listed();
        #[cfg(test)]
        let relist = relist && !self.no_relist;
        let rows = if relist {
            self.wide.relist();
            Rows::Build
        } else {
            self.keep_rows(h, step_h)
        };
        let gathered = match rows {
            Rows::Kept => {
                self.kept_steps = self.kept_steps.saturating_add(1);
                return;
            }
            Rows::Gathered => true,
            Rows::Build => false,
        };
        self.kept_steps = 0;
        // (A step that looked at keeping its rows may have parted them.)
        self.joints_apart = false;
        self.solver_bodies(h, step_h);
        let params = build_params(&self.settings, h, self.split_passes);
        if !gathered {
            self.gather_again();
        }
        let threshold = self.settings.restitution_threshold;
        self.contacts.find_bounces(&self.solver, threshold);
        self.build_joint_rows(h);
        // The store's own scalar rows, for the steps that read them: the exact mode (an
        // island it takes by size and bodies, judged from the points' inputs; its
        // manifolds are swept from those rows), the overflow set, the restitution pass.
        let exact = self.exact_takes_any();
        let s = &self.settings;
        // (Not where every step builds its rows, `reuse_rows_within` 0: there a
        // `pyramid_20` started exactly touching gained 5.9 J over two minutes, and
        // `pyramid_40` lay down, where started cold they stand; `docs/dynamics.md`.)
        let guess = s.statics_warm_start && s.warm_start > 0.0 && s.reuse_rows_within > 0.0;
        let look = (
            self.bodies.capacity(),
            (s.gravity, step_h),
            (self.colliders.generation(), self.wakes),
        );
        let cold = guess
            && self
                .cold_start
                .cold_islands(&self.contacts, &self.solver, look);
        if cold {
            // The resting contacts of the islands that start cold (a scene's first step,
            // a stack built into a running world or onto a structure standing there)
            // start from the statics of their structure (`cold_start.rs`; the exact
            // mode's islands are solved exactly anyway).
            let inputs = (s.gravity, h, step_h);
            let (c, sb, b) = (&mut self.contacts, &self.solver, &self.bodies);
            self.cold_start.guess(c, sb, b, inputs);
        }
        // The lanes' warm start rides along the build (the joints' impulses go into `dV`
        // after the contacts').
        #[cfg(test)]
        if self.unkeyed {
            self.contacts.keys_at = 0;
        }
        let mut dv = std::mem::take(&mut self.solver.dv);
        self.warm_in_build = self.wide.pack(
            &self.contacts,
            &self.solver,
            s.sweep_order,
            self.sweeps.0.max(self.sweeps.1),
            &params,
            Some(&mut dv[..]),
        );
        self.solver.dv = dv;
        #[cfg(test)]
        {
            self.keyed += usize::from(self.wide.same_keys());
        }
        (self.stats.colors, self.stats.overflow) = self.wide.colors();
        // Where only the exact mode reads them (the sequential order's overflow set is
        // its taken islands), only its islands' points need scalar rows: a small stack
        // beside a large structure no longer builds them for every point.
        #[cfg(test)]
        let all = self.all_scalar_rows;
        #[cfg(not(test))]
        let all = false;
        let partial =
            exact && !all && !self.contacts.bouncy && s.sweep_order == SweepOrder::Sequential;
        let apart = self.apart_eligible(exact);
        self.apart = apart && h < step_h;
        self.take_whole_step(step_h);
        self.part_joint_rows(step_h);
        if self.warm_in_build {
            pgs::warm_start_joints(&self.joint_rows.rows, &mut self.solver.dv);
            pgs::warm_start_joints(&self.whole_joints.rows, &mut self.solver.dv);
        }
        let s = &self.settings;
        if exact || self.stats.overflow > 0 || self.contacts.bouncy {
            let only = std::mem::take(&mut self.contacts.taken);
            let whole = build_params(s, step_h, 1);
            self.contacts.build_rows(
                &self.solver,
                &params,
                partial.then_some(&only[..]),
                self.apart.then_some(&whole),
            );
            self.contacts.taken = only;
        }
        // (On a step that sweeps the exact mode's islands apart, their rows wait for the
        // last substep and the lanes keep their λ, sums and write-back to themselves.)
        self.store_rows = h < step_h && (self.stats.overflow > 0 || exact) && !self.apart;
        self.exact_last_step = exact && s.solve_substeps > 1 && !apart;
        self.stats.joint_rows += self.joint_rows.rows.len() + self.whole_joints.rows.len();
        self.count_rows(None);
        let s = &self.settings;
        let keepable = s.reuse_rows_within > 0.0
            && s.warm_start == 1.0
            && (!exact || partial)
            && (self.stats.overflow == 0 || partial)
            && !self.contacts.bouncy;
        let halves = self.halves_on_crew(self.contacts.manifold_inputs.len(), PAR_MANIFOLDS);
        let bodies = &self.bodies;
        self.row_reuse.record(
            keepable.then_some((s, h, rayon::current_num_threads())),
            self.solver.body.iter().map(|&slot| {
                // (The dummy's is never read.)
                if slot == u32::MAX {
                    (Mat3::ZERO, Quat::IDENTITY)
                } else {
                    let b = bodies.slot(slot);
                    (b.inv_inertia_local, b.pose.rotation)
                }
            }),
            &self.solver.com,
            &self.contacts,
            halves,
        );
    }

    /// The solver bodies of the awake dynamic and the kinematic bodies, in body order
    /// ([`new_solver_body`]). From [`PAR_SOLVER_BODIES`] bodies on a step with a crew
    /// (`halves_on_crew`) two threads make half the bodies each, into the places the
    /// last step's counts give each half (`SolverBodies::fill_parts`); where a half
    /// made another number (a body came, went, fell asleep or woke), both halves are
    /// made again at the counts found. Every body's entry is its own, so the bits are
    /// those of one thread.
    fn solver_bodies(&mut self, h: f32, step_h: f32) {
        let order = self.bodies.order();
        let split = self.halves_on_crew(order.len(), PAR_SOLVER_BODIES);
        let mid = if split { order.len() / 2 } else { order.len() };
        let (bodies, s) = (&self.bodies, &self.settings);
        let run = |(mut fill, slots, made): (Fill<'_>, &[u32], &mut usize)| {
            let mut k = 0;
            for &slot in slots {
                if let Some(new) = new_solver_body(bodies.slot(slot), slot, s, (h, step_h)) {
                    if k < fill.len() {
                        fill.set(k, &new);
                    }
                    k += 1;
                }
            }
            *made = k;
        };
        let mut counts = match self.solver_counts {
            [c0, c1] if c0 + c1 > order.len() => [0, 0],
            [c0, c1] if !split => [c0 + c1, 0],
            c => c,
        };
        loop {
            let [f0, f1] = self.solver.fill_parts(counts);
            let mut made = [0, 0];
            let [m0, m1] = &mut made;
            let (low, high) = order.split_at(mid);
            if split {
                crate::parallel::both((f0, low, m0), (f1, high, m1), run);
            } else {
                run((f0, low, m0));
                run((f1, high, m1));
            }
            if made == counts {
                break;
            }
            counts = made;
        }
        self.solver_counts = counts;
        self.solver_list_at = Some((self.bodies.changes(), self.movers_changed));
        self.solver.join_frames(counts[0]);
        self.solver_of.fill(0);
        for (k, &slot) in self.solver.body.iter().enumerate().skip(1) {
            self.solver_of[slot as usize] = k as u32;
        }
    }

    /// Keep the rows of an earlier step where what they were made from has not moved
    /// (`reuse.rs`): the bodies' new velocities without contact go into their `dV`, the
    /// rows of the units whose manifolds moved are built again, the points' new
    /// separations go into the lanes and the normal rows' `b̃`. Otherwise it changes
    /// nothing the build reads and says whether the store already gathered the step's
    /// points.
    fn keep_rows(&mut self, h: f32, step_h: f32) -> Rows {
        let s = &self.settings;
        if !self.row_reuse.may_keep(s, h, rayon::current_num_threads()) {
            return Rows::Build;
        }
        self.turned.clear();
        // The same awake and kinematic bodies in the same order, with the same mass
        // properties: on the crew's two threads where no body came, went, woke or fell
        // asleep since the build.
        let list_at = (self.bodies.changes(), self.movers_changed);
        if self.solver_list_at == Some(list_at)
            && self.halves_on_crew(self.solver.len(), PAR_SOLVER_BODIES)
        {
            if !self.keep_bodies_in_halves(h, step_h) {
                return Rows::Build;
            }
        } else if !self.keep_bodies(h, step_h) {
            return Rows::Build;
        }
        self.keep_rows_of_bodies(h, step_h)
    }

    /// The bodies' pass of a step that keeps its rows ([`keep_rows`](Self::keep_rows)),
    /// in the body order: each awake or kinematic body must be the next solver body with
    /// its mass properties; it takes its centre of mass and velocity without contact
    /// now (a kinematic body its velocity of the step). Returns false where the step
    /// must build.
    fn keep_bodies(&mut self, h: f32, step_h: f32) -> bool {
        let s = &self.settings;
        let mut k = 1;
        for &slot in self.bodies.order() {
            let b = self.bodies.slot(slot);
            let kinematic = match b.kind {
                BodyKind::Static => continue,
                BodyKind::Dynamic if b.sleeping => continue,
                BodyKind::Dynamic => false,
                BodyKind::Kinematic => true,
            };
            if self.solver.body.get(k) != Some(&slot) {
                return false;
            }
            let sb = (self.solver.inv_mass[k], self.solver.frame_of[k]);
            let eps = s.reuse_rows_within;
            match kept_body(&self.row_reuse, k, sb, (b, kinematic), eps) {
                Err(()) => return false,
                Ok(Some(f)) => self.turned.push((k as u32, f)),
                Ok(None) => {}
            }
            if kinematic {
                keep_kinematic(&mut self.solver.entry(k).0, b, step_h);
                k += 1;
                continue;
            }
            // Its centre of mass now (for the lever arms below) and its new velocity
            // without contact into its `dV`, as between solve substeps (a body of another
            // inertia than `c·1` also its world inertia, for the rows built again) — in
            // this pass, while the body is in cache. A step that builds after all resets
            // the solver bodies first, so none of it stays.
            self.solver.pseudo[k] = Velocity::ZERO;
            self.solver.moved[k] = Velocity::ZERO;
            self.solver.accel[k] = plain_accel(b, s);
            if !b.isotropic {
                let rot = Mat3::from_quat(b.pose.rotation);
                self.solver.inv_inertia[k] = crate::integrate::to_world(rot, b.inv_inertia_local);
            }
            let (mut e, r) = self.solver.entry(k);
            take_velocity_without_contact((&mut e, &r), b, s, h);
            k += 1;
        }
        k == self.solver.len()
    }

    /// [`keep_bodies`](Self::keep_bodies) on the crew's two threads, each taking half the
    /// solver bodies, where the awake and kinematic bodies are known to be the solver
    /// bodies in their order (`solver_list_at`): first each body's checks, frame, plain
    /// acceleration and world inertia, then its velocity without contact. Each body's
    /// entries are its own and it meets the same operations in the same order, so the
    /// bits are one thread's; and it asks build where that would.
    fn keep_bodies_in_halves(&mut self, h: f32, step_h: f32) -> bool {
        let n = self.solver.len();
        let mid = n.div_ceil(2).max(1);
        let (s, bodies, reuse) = (&self.settings, &self.bodies, &self.row_reuse);
        let eps = s.reuse_rows_within;
        let sb = &mut self.solver;
        let (body, inv_mass, frame_of) = (&sb.body, &sb.inv_mass, &sb.frame_of);
        let (acc_lo, acc_hi) = sb.accel.split_at_mut(mid);
        let (ii_lo, ii_hi) = sb.inv_inertia.split_at_mut(mid);
        let mut high = std::mem::take(&mut self.turned_high);
        high.clear();
        type Part<'a> = (
            std::ops::Range<usize>,
            &'a mut [Option<Plain>],
            &'a mut [Mat3],
            &'a mut Vec<(u32, crate::solver_body::Frame)>,
            &'a std::sync::atomic::AtomicBool,
        );
        let ok = [true, true].map(std::sync::atomic::AtomicBool::new);
        let check = |(range, accel, inv_inertia, turned, ok): Part<'_>| {
            let from = range.start;
            for k in range {
                let b = bodies.slot(body[k]);
                let kinematic = match b.kind {
                    BodyKind::Dynamic if !b.sleeping => false,
                    BodyKind::Kinematic => true,
                    _ => {
                        ok.store(false, std::sync::atomic::Ordering::Relaxed);
                        return;
                    }
                };
                match kept_body(reuse, k, (inv_mass[k], frame_of[k]), (b, kinematic), eps) {
                    Err(()) => {
                        ok.store(false, std::sync::atomic::Ordering::Relaxed);
                        return;
                    }
                    Ok(Some(f)) => turned.push((k as u32, f)),
                    Ok(None) => {}
                }
                if !kinematic {
                    accel[k - from] = plain_accel(b, s);
                    if !b.isotropic {
                        let rot = Mat3::from_quat(b.pose.rotation);
                        inv_inertia[k - from] =
                            crate::integrate::to_world(rot, b.inv_inertia_local);
                    }
                }
            }
        };
        let low = (
            1..mid,
            &mut acc_lo[1..],
            &mut ii_lo[1..],
            &mut self.turned,
            &ok[0],
        );
        crate::parallel::both(low, (mid..n, acc_hi, ii_hi, &mut high, &ok[1]), check);
        self.turned.append(&mut high);
        self.turned_high = high;
        if !ok
            .iter()
            .all(|o| o.load(std::sync::atomic::Ordering::Relaxed))
        {
            return false;
        }
        let run = |mut part: Entries<'_>| {
            part.each(|_, slot, mut e, r| {
                let b = bodies.slot(slot);
                if b.kind == BodyKind::Kinematic {
                    keep_kinematic(&mut e, b, step_h);
                } else {
                    *e.pseudo = Velocity::ZERO;
                    *e.moved = Velocity::ZERO;
                    take_velocity_without_contact((&mut e, r), b, s, h);
                }
            });
        };
        let [lo, hi] = self.solver.halves(mid);
        crate::parallel::both(lo, hi, run);
        true
    }

    /// The rest of [`keep_rows`](Self::keep_rows), once the bodies stand.
    fn keep_rows_of_bodies(&mut self, h: f32, step_h: f32) -> Rows {
        // The same manifolds with as many points (the store's inputs read the solver
        // bodies, which are the build's). Where the narrowphase list and the colliders are
        // as they were at the last gather, its keys, bodies and islands stand: only the
        // points and normals are taken again.
        let at = (self.narrow.layout(), self.colliders.generation());
        if self.gathered.at != Some(at) || !self.contacts.regather(self.narrow.manifolds()) {
            self.gather_contacts();
        }
        // (A step whose manifolds changed is likely followed by another: the next
        // `reuse::BACK_OFF` steps build without looking.)
        // The joint rows are made anew from the poses every step (and substep), as the
        // build makes them, their old impulses taken out of `dV` (a joint may have broken
        // or been removed since) and their warm ones put in below; the exact mode must
        // take the islands it took at the build (which laid out the lanes beside them).
        pgs::take_out_joints(&self.joint_rows.rows, &mut self.solver.dv);
        pgs::take_out_joints(&self.whole_joints.rows, &mut self.solver.dv);
        self.build_joint_rows(h);
        let exact = self.exact_takes_any();
        self.contacts
            .find_bounces(&self.solver, self.settings.restitution_threshold);
        // (A manifold whose point count changed keeps its lanes where it still fits
        // its group: its rows are built again below, as one that moved.)
        let same = !self.contacts.bouncy
            && self.row_reuse.same_manifolds(&self.contacts)
            && self.row_reuse.same_exact(&self.contacts)
            && self.wide.lay_points(&self.contacts);
        let s = &self.settings;
        if !same {
            self.row_reuse.back_off();
            return Rows::Gathered;
        }
        // The units whose manifolds moved (a normal, or a point's lever arm on either
        // body), to be built again — all of them, where that is more than half the
        // units: building a unit again costs more than building it with the others
        // (its old impulses are taken out of `dV` first), and a full build needs no
        // refresh of the kept rows (measured on `pyramid_40`, whose count of moved
        // units has a median of 30 of 361 and a tail past 90: at a quarter its rows
        // were kept on 419 of 600 steps, step median −2.8 %; at half on 567, −5.5 %).
        // Such a step tries again only after `reuse::BACK_OFF` steps (a scene whose
        // bodies keep moving does not pay for the look every step).
        let eps = s.reuse_rows_within;
        let relaid = self.row_reuse.relay(&self.contacts);
        let mut moved = std::mem::take(&mut self.moved_manifolds);
        let halves = self.halves_on_crew(self.contacts.manifold_inputs.len(), PAR_MANIFOLDS);
        self.row_reuse
            .moved(&self.contacts, &self.solver.com, eps, (&mut moved, halves));
        if !self.turned.is_empty() {
            // Every manifold on a body that takes a new frame is built again.
            let mut on = std::mem::take(&mut self.turned_body);
            on.clear();
            on.resize(self.solver.len(), false);
            for &(k, _) in &self.turned {
                on[k as usize] = true;
            }
            for (m, flag) in self.contacts.manifold_inputs.iter().zip(moved.iter_mut()) {
                *flag |= on[m.a as usize] || on[m.b as usize];
            }
            self.turned_body = on;
        }
        if exact {
            // The exact mode's islands (whole islands, swept from the scalar rows, which
            // no kept row reads) start as a build starts them: their scalar rows are
            // built anew below, and their bodies take their velocity without contact as
            // it is now with nothing in `dV` (the warm start puts their impulses in).
            // (Taking the old impulses out of `dV` instead left the rounding of their
            // sums there, and `tower_20` fell within 2 s.)
            // (A kinematic partner keeps its `dV`, its velocity's change since the build,
            // which the other rows on it read.)
            let sb = &mut self.solver;
            for k in self.contacts.taken_bodies() {
                if sb.inv_mass[k] > 0.0 {
                    (sb.vnc[k], sb.dv[k]) = (sb.vnc_now[k], Velocity::ZERO);
                }
            }
        }
        // (The islands are those of the build, and so is whether they are swept apart.)
        self.take_whole_step(step_h);
        self.part_joint_rows(step_h);
        let mut stale = std::mem::take(&mut self.stale_units);
        self.wide.stale_units(&mut stale, &moved);
        let rebuilt = stale.iter().filter(|&&x| x).count();
        if 2 * rebuilt > stale.len() {
            (self.stale_units, self.moved_manifolds) = (stale, moved);
            // (Where bodies turned, the next step may well keep its rows: a stack of
            // planks settling kept them on 263 of 600 steps this way, on 109 backing
            // off.)
            if self.turned.is_empty() {
                self.row_reuse.back_off();
            }
            return Rows::Gathered;
        }
        let params = build_params(&self.settings, h, self.split_passes);
        let mut dv = std::mem::take(&mut self.solver.dv);
        let turned = !self.turned.is_empty();
        if turned {
            // The turned bodies' rows give their impulses back in the old frames (every
            // unit built again first), then their velocities move into the new frames
            // (`ω̃' = L'⁻¹·L·ω̃`), then the units are built in them.
            self.wide.take_out_units(&stale, &mut dv);
            let sb = &mut self.solver;
            for &(k, f) in &self.turned {
                let (k, fi) = (k as usize, sb.frame_of[k as usize] as usize);
                let old = sb.frames[fi];
                let to_new = |w: Vec3| f.inv * (old.l * w);
                sb.vnc[k].ang = to_new(sb.vnc[k].ang);
                sb.vnc_now[k].ang = to_new(sb.vnc_now[k].ang);
                dv[k].ang = to_new(dv[k].ang);
                sb.frames[fi] = f;
                let q = self.bodies.slot(sb.body[k]).pose.rotation;
                self.row_reuse.turned(k, q);
            }
        }
        let (c, sb) = (&self.contacts, &self.solver);
        let on_threads = self
            .wide
            .rebuild_units(&stale, c, sb, &params, &mut dv, !turned);
        self.solver.dv = dv;
        if turned {
            // The joint rows, built above in the old frames (their impulses go into `dV`
            // below).
            self.build_joint_rows(h);
            self.part_joint_rows(step_h);
        }
        // Every manifold of a unit built again has its lever arms as built now (`moved`
        // marks them all; those that moved are among them).
        for u in (0..stale.len()).filter(|&u| stale[u]) {
            for m in self.wide.unit_manifolds(u) {
                moved[m as usize] = true;
            }
        }
        self.row_reuse
            .rebuilt(&self.contacts, &self.solver.com, &moved, halves);
        (self.stale_units, self.moved_manifolds) = (stale, moved);
        self.wide.resync(&self.contacts, halves);
        // The normal rows' `b̃` from those separations, unit by unit in the first sweep.
        self.fresh = Some(Fresh {
            h,
            params,
            motion: false,
            still: false,
        });
        if exact {
            // The exact islands' scalar rows, as the build makes them (the warm start
            // puts the overflow's impulses into `dV`).
            let only = std::mem::take(&mut self.contacts.taken);
            let whole = build_params(&self.settings, step_h, 1);
            self.contacts.build_rows(
                &self.solver,
                &params,
                Some(&only[..]),
                self.apart.then_some(&whole),
            );
            self.contacts.taken = only;
        }
        self.row_reuse.kept();
        // What the build would have said: `dV` holds the lanes' impulses, then the
        // joints' warm ones.
        pgs::warm_start_joints(&self.joint_rows.rows, &mut self.solver.dv);
        pgs::warm_start_joints(&self.whole_joints.rows, &mut self.solver.dv);
        self.warm_in_build = true;
        self.stats.joint_rows += self.joint_rows.rows.len() + self.whole_joints.rows.len();
        let s = &self.settings;
        (self.stats.colors, self.stats.overflow) = self.wide.colors();
        // (On a step that sweeps the exact mode's islands apart, their rows wait for the
        // last substep and the lanes keep their λ, sums and write-back to themselves.)
        self.store_rows = h < step_h && (self.stats.overflow > 0 || exact) && !self.apart;
        self.exact_last_step = exact && s.solve_substeps > 1 && !self.apart;
        self.count_rows(Some(rebuilt));
        self.stats.rows_relaid = relaid;
        self.stats.rows_rebuilt_on_threads = on_threads && rebuilt > 0;
        Rows::Kept
    }

    /// The counters of the rows a (sub)step solves: awake bodies, points, manifolds,
    /// rows, warm-started points, and whether it kept earlier rows (`Some`: how many
    /// units it built again) or built them all (`None`).
    fn count_rows(&mut self, kept: Option<usize>) {
        self.stats.awake_bodies += self.solver.len() - 1;
        self.stats.contacts = self.contacts.inputs.len();
        self.stats.manifolds = self.contacts.manifolds;
        self.stats.rows = self.contacts.rows();
        self.stats.warm_started = self.contacts.warm_started;
        self.stats.rows_kept = kept.is_some();
        self.stats.rows_rebuilt = kept.unwrap_or(0);
        self.stats.rows_relaid = 0;
        self.stats.rows_rebuilt_on_threads = false;
    }

    /// This step's points from the narrowphase into the contact store, with the
    /// solver bodies as they are (`ContactStore::gather`).
    /// The contact store for a step that builds its rows: where the narrowphase list,
    /// the colliders, the islands and the solver bodies (slots and inverse masses) are
    /// all as the last gather found them, only the points and normals are taken again
    /// (`ContactStore::regather`, as a step that keeps its rows does: a falling
    /// `pyramid_100` builds every row each step over the same manifolds); else a
    /// whole gather.
    fn gather_again(&mut self) {
        let at = (self.narrow.layout(), self.colliders.generation());
        let g = &self.gathered;
        #[cfg(test)]
        let allowed = !self.no_regather;
        #[cfg(not(test))]
        let allowed = true;
        let same = allowed
            && g.at == Some(at)
            && self.islands_at.is_some()
            && g.islands == self.islands_at
            && g.bodies == self.solver.body
            && g.mass == self.solver.inv_mass;
        self.contacts.pool = self.pool_points();
        if same && self.contacts.regather(self.narrow.manifolds()) {
            self.contacts.pool = self.pool_points();
        } else {
            self.gather_contacts();
        }
    }

    /// Whether the store's per-point passes may use the pool (`contact::pool_points`):
    /// where the sweeps run on it, long solves or a cut sweep with a schedule.
    fn pool_points(&self) -> bool {
        crate::contact::pool_points(self.sweeps.0.max(self.sweeps.1))
            || (rayon::current_num_threads() > 1 && self.wide.cut() && self.wide.schedules())
    }

    /// Whether a pass over `n` elements, each one's result its own, runs in two halves
    /// on the step's crew (`parallel::both`): from `min` elements, after a solve whose
    /// sweeps ran on the threads, or where the sweeps have no schedule for them (a
    /// heap's, whose colourings are not cut: its bodies' passes then share the threads
    /// as its narrowphase does). A step whose sweeps went back to one thread after a
    /// stall (`parallel::STALL`) keeps its other passes there too.
    fn halves_on_crew(&self, n: usize, min: usize) -> bool {
        (self.solved_on_threads || !self.wide.schedules())
            && n >= min
            && crate::parallel::Crew::serving()
    }

    /// Whether this step hands work to the pool now: it uses the pool, and its crew's
    /// helper has come (`Crew::pool_ready`).
    fn pool_now(&self) -> bool {
        self.pool && crate::parallel::Crew::pool_ready()
    }

    fn gather_contacts(&mut self) {
        let s = &self.settings;
        let ctx = BuildContext {
            collider_body: &self.colliders.body,
            material: &self.colliders.material,
            solver_of: &self.solver_of,
            island_root: &self.islands.root,
            friction_combine: s.friction_combine,
            restitution_combine: s.restitution_combine,
        };
        self.contacts.pool = self.pool_points();
        self.contacts
            .gather(self.narrow.manifolds(), &ctx, &self.solver);
        let g = &mut self.gathered;
        g.at = Some((self.narrow.layout(), self.colliders.generation()));
        g.islands = self.islands_at;
        g.bodies.clone_from(&self.solver.body);
        g.mass.clone_from(&self.solver.inv_mass);
    }

    /// Whether the exact mode's islands may be swept once over the whole step while the
    /// other contacts take their solve substeps (`apart`): solve substeps, no
    /// restitution pass, the overflow set made of those islands (or of none, for
    /// islands of joints alone) and apart from the groups (the sequential order's), and
    /// contacts in the lanes beside them. Their joint rows go with them
    /// (`part_joint_rows`); joints elsewhere keep their rows of each substep. Solved
    /// exactly in every substep, `tower_20` fell over
    /// (`docs/dynamics.md`, *Not with the exact mode*), and one solve a step for the
    /// whole world left `pyramid_40` too soft to stand beside a 4-box column.
    fn apart_eligible(&self, exact: bool) -> bool {
        exact
            && !self.contacts.bouncy
            && self.settings.solve_substeps > 1
            && (self.stats.overflow > 0 || self.contacts.taken_joints)
            && self.wide.overflow_apart()
            && self.contacts.taken.iter().any(|&t| !t)
    }

    /// On a step that sweeps the exact mode's islands apart (`apart`): their points are
    /// built over the whole step `step_h` (`ContactStore::whole`), and their dynamic
    /// bodies take their velocity without contact over it, with nothing in `dV` (the
    /// warm start puts their impulses in); `integrate` moves them once, on the last
    /// substep. Otherwise it clears the marks.
    fn take_whole_step(&mut self, step_h: f32) {
        let c = &mut self.contacts;
        c.whole.clear();
        self.whole_body.clear();
        if !self.apart {
            return;
        }
        self.whole_h = step_h;
        c.whole.extend_from_slice(&c.taken);
        self.whole_body.resize(self.solver.len(), false);
        let s = &self.settings;
        let sb = &mut self.solver;
        // (The bodies of the taken islands' joint rows too: an island of joints alone.)
        let roots = &c.taken_roots;
        let jr = &self.joint_rows;
        let joined = (0..jr.rows.len())
            .filter(|&r| roots.binary_search(&jr.island[r]).is_ok())
            .flat_map(|r| [jr.rows[r].a as usize, jr.rows[r].b as usize])
            .filter(|&k| k != 0);
        for k in c.taken_bodies().chain(joined) {
            let b = self.bodies.slot(sb.body[k]);
            if self.whole_body[k] || b.kind != BodyKind::Dynamic {
                continue;
            }
            self.whole_body[k] = true;
            let u0 = Velocity {
                lin: b.linear_velocity,
                ang: b.angular_velocity,
            };
            let vnc = velocity_without_contact(u0, &force_input(b, s, sb.inv_inertia[k]), step_h);
            (sb.vnc[k], sb.vnc_now[k], sb.dv[k]) = (vnc, vnc, Velocity::ZERO);
        }
    }

    /// Whether the exact mode takes an island this step (judged from the store's
    /// inputs, `exact::takes_any`, which marks its manifolds in `taken`).
    fn exact_takes_any(&mut self) -> bool {
        self.contacts.taken.clear();
        self.contacts.taken_joints = false;
        crate::exact::Rule::of(&self.settings).is_some_and(|r| {
            crate::exact::takes_any(&mut self.contacts, &self.joint_rows, &self.solver, r)
        })
    }

    /// The joint rows for a solve substep of `h`, from the bodies' current poses.
    fn build_joint_rows(&mut self, h: f32) {
        let mut rows = std::mem::take(&mut self.joint_rows);
        self.all_joint_rows(&mut rows, h);
        self.joint_rows = rows;
        if self.joints_apart {
            // (The exact mode's islands' rows are in `whole_joints`.)
            let roots = &self.contacts.taken_roots;
            self.joint_rows
                .retain_islands(|r| roots.binary_search(&r).is_err());
        }
    }

    /// Every joint's rows for a (sub)step of `h` into `out`, from the bodies' current
    /// poses and velocities without contact.
    fn all_joint_rows(&self, out: &mut JointRows, h: f32) {
        crate::joint::rows::build(
            out,
            &self.joints,
            &self.bodies,
            &self.solver_of,
            &self.solver,
            &self.islands.root,
            joint_params(&self.settings, h),
        );
    }

    /// On a step that sweeps the exact mode's islands apart, their joint rows go to
    /// `whole_joints`, built over the whole step `step_h` from their bodies' velocities
    /// without contact over it (`take_whole_step`), and leave `joint_rows`.
    fn part_joint_rows(&mut self, step_h: f32) {
        self.whole_joints.retain_islands(|_| false);
        self.joints_apart = self.apart && self.contacts.taken_joints;
        if !self.joints_apart {
            return;
        }
        let mut rows = std::mem::take(&mut self.whole_joints);
        self.all_joint_rows(&mut rows, step_h);
        self.whole_joints = rows;
        let roots = &self.contacts.taken_roots;
        let taken = |r: u32| roots.binary_search(&r).is_ok();
        self.whole_joints.retain_islands(taken);
        self.joint_rows.retain_islands(|r| !taken(r));
    }

    /// Between two solve substeps of `h`: contacts advance their separations by the
    /// move just made (the bodies took their new velocities and centres of mass in
    /// [`next_substep_body`], keeping the step's world inertia as the rows keep their
    /// blocks), normal rows their new stabilization; joint rows are built again from
    /// the moved poses.
    ///
    /// The rows keep the `b̃ = J̃·Vnc` of the step's first substep (`vnc`); how far a
    /// body's `Vnc` has moved since goes into its `dV` instead
    /// (`dV += Vnc_{k+1} − Vnc_k`), which the row update reads anyway:
    /// `b̃ + J̃·(Vnc_k − Vnc₀ + T·λ) = J̃·Vnc_k + J̃·T·λ` for every row, so only the
    /// normal rows' stabilization needs rewriting (`docs/dynamics.md`).
    fn refresh_rows(&mut self, h: f32, last: bool) {
        // The bodies took their new velocities and centres of mass in the `integrate`
        // just before (`next_substep_body`), while each was at hand.
        let s = &self.settings;
        let params = build_params(s, h, self.split_passes);
        self.contacts.restitution.clear();
        if self.store_rows {
            self.contacts.advance(&self.solver.pseudo, h);
            self.contacts.refresh(&params);
        }
        if !self.joint_rows.rows.is_empty() {
            // `dV` holds the joint rows' `T·λ` as solved: out with the old rows', in
            // with the new rows' warm impulses, so that the other bodies' `dV` (the
            // lanes' impulses) stays as it is (`warm_start`).
            pgs::take_out_joints(&self.joint_rows.rows, &mut self.solver.dv);
            self.build_joint_rows(h);
            pgs::warm_start_joints(&self.joint_rows.rows, &mut self.solver.dv);
        }
        // The lanes' separations advance by the bodies' motion (summed since they last
        // did) before the last solve substep, whose split pass reads their
        // stabilization, and on every substep where the stabilization enters the
        // velocity rows or a split pass follows each. In between only the units with a
        // body that has moved far enough since (`Settings::reuse_rows_within`) take new
        // rows, from their separations as the motion leaves them; a unit of bodies that
        // stood keeps its rows, as a step that keeps its rows does.
        let s = &self.settings;
        let advance = last || !params.split || s.split_every_substep || s.reuse_rows_within == 0.0;
        let moved =
            !advance && mark_still(&mut self.solver, h, s.reuse_rows_within, s.contact_margin);
        // (The rows themselves are refreshed by the solve that follows, unit by unit
        // before each one's first sweep where it can: `wide::Refresh`.)
        let lambda_from = self.store_lambda_changed.then_some(&self.contacts);
        self.wide.refresh_lambdas(lambda_from);
        self.fresh = (advance || moved).then_some(Fresh {
            h,
            params,
            motion: true,
            still: !advance,
        });
        self.solver.pseudo.fill(Velocity::ZERO);
    }

    /// `dV = T·λ` for the warm impulses: joint rows, the lanes, the overflow set (the
    /// lanes' already went in during the build when it had no joint rows to put first:
    /// `warm_in_build`). After the first solve substep `dV` already is `T·λ` of the last
    /// substep's λ (the joint rows built again swapped their old impulses for their warm
    /// ones in `refresh_rows`), so there is nothing to do.
    fn warm_start(&mut self, first: bool) {
        if !first {
            return;
        }
        if !(first && self.warm_in_build) {
            // (Else `dV` holds the lanes' warm impulses from the build, and there are no
            // joint rows.)
            self.solver.start_dv();
            pgs::warm_start_joints(&self.joint_rows.rows, &mut self.solver.dv);
            pgs::warm_start_joints(&self.whole_joints.rows, &mut self.solver.dv);
            self.wide.warm_start(&mut self.solver.dv);
        }
        let dv = &mut self.solver.dv;
        if self.contacts.has_rows() {
            for r in self.wide.overflow_points(&self.contacts) {
                pgs::warm_start(&self.contacts.points[r], dv);
            }
        }
    }

    /// The sweeps, the exact mode, restitution and the split pass, and the impulses
    /// summed over the solve substeps. When the step built the store's rows, their λ
    /// are brought up to date on the `last` solve substep and whenever something reads
    /// them (exact mode, overflow, restitution); otherwise λ and their sums stay in the
    /// lanes.
    fn solve(&mut self, first: bool, last: bool) {
        let s = &self.settings;
        let (first_sweeps, later_sweeps, split_iterations) = self.sweeps;
        let iterations = if first { first_sweeps } else { later_sweeps };
        // A step with a deep contact runs more position sweeps (`Settings::deep_penetration`):
        // `deep_split_iterations` for each `split_iterations` of the step's count (which
        // is `n` times it in the single solve after an exact step).
        let split_iterations = if self.contacts.deepest > s.deep_penetration
            && s.deep_split_iterations > s.split_iterations
            && s.split_iterations > 0
        {
            split_iterations / s.split_iterations * s.deep_split_iterations
        } else {
            split_iterations
        };
        // The split pass's first sweep over the packed groups rides along the last
        // velocity sweep where it can (its rows are then still in cache), and so do the
        // impulse sums of a substep whose λ stay in the lanes (`wide::LastSweep`).
        let bouncing = !self.contacts.restitution.is_empty();
        let in_store =
            self.contacts.has_rows() && (last || self.store_rows || bouncing) && !self.apart;
        let joints = self.joint_rows.rows.len();
        let fuses = self.wide.fuses(s.symmetric_sweeps, iterations);
        // With `split_passes > 1` the position pass runs only after the last substep.
        let split = s.penetration == PenetrationMode::SplitImpulse
            && split_iterations > 0
            && (last || self.split_passes == 1);
        // (Joint rows apart from the groups, which share no movable body with them, take
        // their split rows' first sweep after the groups' as well as before.)
        let joints_apart = joints == 0 || self.wide.joints_apart(&self.joint_rows.rows);
        let fused = split && fuses && joints_apart;
        let summed = fuses && !in_store;
        // On the step's last substep the lanes' λ and sums go back to the narrowphase in
        // that same sweep too (else `integrate` writes them back).
        self.written_back = last && summed;
        if self.apart {
            // The exact mode's islands: the groups' sweeps without them here, and all
            // of the step's sweeps of theirs in its last substep (below).
            self.wide.overflow_sweeps = Some(0);
        }
        let source = std::mem::take(&mut self.contacts.manifold_source);
        let write = self.written_back.then(|| crate::wide::WriteBack {
            source: &source,
            manifolds: self.narrow.manifolds_mut(),
        });
        let fresh = self.fresh.take();
        let (moved, still) = (&self.solver.moved, &self.solver.still);
        let refresh = fresh.as_ref().map(|f| crate::wide::Refresh {
            moved: f.motion.then_some(&moved[..]),
            h: f.h,
            params: &f.params,
            still: f.still.then_some(&still[..]),
        });
        // A settled solve (`Settings::sweep_tolerance`) sweeps the groups' rows once,
        // with the friction rows, which measures again whether they stay settled.
        let tolerance = s.sweep_tolerance;
        self.wide.measure = tolerance > 0.0 && !s.symmetric_sweeps;
        self.wide.settled = self.settled;
        self.wide.solve(
            refresh,
            &mut self.contacts,
            &mut self.joint_rows.rows,
            &mut self.solver.dv,
            (iterations, s.friction_stride),
            s.omega,
            s.symmetric_sweeps,
            crate::wide::LastSweep {
                split: fused.then_some(&mut self.solver.pseudo[..]),
                sum: summed,
                write,
            },
        );
        // (Nor is one whose points bounce: below.)
        self.settled = tolerance > 0.0
            && self.wide.change() <= tolerance
            && self
                .wide
                .groups_at_rest(&self.solver, REST_SPEEDS * tolerance);
        self.contacts.manifold_source = source;
        if fresh.is_some_and(|f| f.motion && !f.still) {
            // The separations advanced by the summed motion: it starts again.
            self.solver.moved.fill(Velocity::ZERO);
        }
        if self.apart && last {
            // They share no body with the groups (`Coloring::overflow_apart`): each of
            // the step's sweeps of their joint rows, then of their contacts.
            let n = s.solve_substeps.max(1);
            let sweeps = first_sweeps + (n - 1) * later_sweeps;
            if self.whole_joints.rows.is_empty() {
                // (Two sweeps at a time, to the same bits.)
                let dv = &mut self.solver.dv;
                self.wide
                    .overflow_sweeps_paired(&mut self.contacts, dv, s.omega, sweeps);
            } else {
                for _ in 0..sweeps {
                    pgs::sweep_joints(&mut self.whole_joints.rows, &mut self.solver.dv, false);
                    self.wide
                        .overflow_sweep(&mut self.contacts, &mut self.solver.dv, s.omega);
                }
            }
        }
        if in_store {
            self.wide.unpack(&mut self.contacts);
        }
        // (The groups' sweeps: a settled solve's rows apart from them take them all.)
        let swept = self.wide.group_sweeps();
        self.stats.iterations += swept;
        self.stats.row_updates += self.row_updates(swept);
        let mut exact = 0;
        // (Islands swept apart are solved once, after their sweeps in the last substep.)
        let exact_now = if self.apart {
            last && self.contacts.has_rows()
        } else {
            in_store
        };
        if let Some(rule) = crate::exact::Rule::of(s).filter(|_| exact_now) {
            let joints = if self.joints_apart {
                &mut self.whole_joints
            } else {
                &mut self.joint_rows
            };
            let rescued;
            (exact, rescued) = crate::exact::solve_islands(
                &mut self.contacts,
                joints,
                &mut self.solver,
                s,
                (rule, &mut self.exact_starts),
                &mut self.exact_budget,
            );
            self.stats.exact_islands += exact;
            self.stats.exact_rescued += rescued;
        }
        self.store_lambda_changed = exact > 0 || bouncing;
        self.settled &= !bouncing;
        pgs::restitution_pass(
            &mut self.contacts.points,
            &self.contacts.restitution,
            &mut self.solver.dv,
        );
        if in_store {
            // Lane sums first, so the store adds λ in substep order.
            self.wide.drain_impulse(&mut self.contacts);
            self.contacts.accumulate();
        } else if !summed {
            self.wide.accumulate();
        }
        if self.apart && last {
            // The apart islands' one solve: their step's impulses are its λ.
            self.contacts.accumulate_whole();
        }
        if split {
            self.wide.split_solve(
                &mut self.contacts,
                &mut self.joint_rows,
                &mut self.solver.pseudo,
                split_iterations,
                fused,
            );
            if self.apart {
                // The exact mode's islands take the split sweeps of all the substeps, as
                // in one solve a step: their joint rows' all here.
                let n = s.solve_substeps.max(1);
                let w = &mut self.whole_joints;
                for _ in 0..split_iterations * n {
                    pgs::split_sweep_joints(&w.rows, &mut w.split_lambda, &mut self.solver.pseudo);
                }
                let more = split_iterations * (s.solve_substeps.max(1) - 1);
                self.wide
                    .split_overflow_sweeps(&mut self.contacts, &mut self.solver.pseudo, more);
            }
        } else if joints > 0 && s.penetration == PenetrationMode::SplitImpulse {
            // The contacts' position pass waits for the last substep; the joints' rows
            // (`joint_erp` is per substep) take theirs now, alone.
            for _ in 0..split_iterations {
                pgs::split_sweep_joints(
                    &self.joint_rows.rows,
                    &mut self.joint_rows.split_lambda,
                    &mut self.solver.pseudo,
                );
            }
        }
    }

    /// Move the solver's bodies by `h` ([`integrate_body`]); a solve substep before the
    /// `last` also gives each body its state for the next one ([`next_substep_body`]);
    /// the `last` solve substep of a step lands kinematic bodies on their targets, clears
    /// forces and writes the impulses back. After a solve whose sweeps ran on a crew,
    /// from [`PAR_INTEGRATE`] bodies, two threads move half the bodies each.
    fn integrate(&mut self, h: f32, last: bool) {
        let (apart, whole_h, s) = (self.apart, self.whole_h, &self.settings);
        let limits = (
            self.settings.max_linear_velocity,
            self.settings.max_angular_velocity,
        );
        let whole_body = &self.whole_body[..];
        // Bodies that joints hold do not pay for their position pass's lift (see
        // `integrate.rs`): their joints' rows, which share the pass, give back the
        // height that a turn about the joint lost.
        let mut flags = std::mem::take(&mut self.jointed);
        let rows = [&self.joint_rows, &self.whole_joints];
        let jointed = mark_jointed(&mut flags, rows, self.solver.len());
        // One run of solver bodies with the slots they own.
        let run = |(mut e, bodies, base): (Entries<'_>, &mut [Body], u32)| {
            e.each(|i, slot, e, r| {
                // A body of an island swept apart moves once, over the whole step.
                let whole = apart && whole_body[i];
                if whole && !last {
                    return;
                }
                let h = if whole { whole_h } else { h };
                let b = &mut bodies[(slot - base) as usize];
                let pays = jointed.is_none_or(|j| !j[i]);
                integrate_body(b, e, r, (s, h, last), limits, pays);
            });
        };
        // On a step with a crew, two threads take half the bodies each where the bodies
        // split by slot there too (`SolverBodies::slot_cut`); every body's move is its
        // own, so the bits are the same.
        let split = self.halves_on_crew(self.solver.len(), PAR_INTEGRATE);
        let cut = if split { self.solver.slot_cut() } else { None };
        match cut {
            Some(mid) => {
                let at = self.solver.body[mid];
                let (low, high) = self.bodies.slots_mut().split_at_mut(at as usize);
                let [e0, e1] = self.solver.halves(mid);
                crate::parallel::both((e0, low, 0), (e1, high, at), run);
            }
            None => {
                let [all, _] = self.solver.halves(self.solver.len());
                run((all, self.bodies.slots_mut(), 0));
            }
        }
        self.jointed = flags;
        if last && self.contacts.has_rows() && !self.apart {
            self.contacts.write_back(self.narrow.manifolds_mut());
        } else if last {
            if !self.written_back {
                self.wide
                    .write_back(&self.contacts, self.narrow.manifolds_mut());
            }
            if self.apart {
                self.contacts.write_back_whole(self.narrow.manifolds_mut());
            }
        }
        self.stats.joints_broken +=
            crate::joint::rows::write_back(&self.joint_rows, &mut self.joints, h);
        if last && self.joints_apart {
            self.stats.joints_broken +=
                crate::joint::rows::write_back(&self.whole_joints, &mut self.joints, self.whole_h);
        }
    }

    fn sleep(&mut self, h: f32) {
        let s = &self.settings;
        if !s.sleeping {
            return;
        }
        let n = self.bodies.capacity();
        let isl = &mut self.islands;
        isl.min_sleep.clear();
        isl.min_sleep.resize(n, f32::INFINITY);
        let (lt, at) = (s.sleep_linear_threshold, s.sleep_angular_threshold);
        for i in 1..self.solver.len() {
            let slot = self.solver.body[i];
            let b = self.bodies.slot_mut(slot);
            if b.kind != BodyKind::Dynamic {
                continue;
            }
            if b.linear_velocity.length() < lt && b.angular_velocity.length() < at {
                b.sleep_time += h;
            } else {
                b.sleep_time = 0.0;
            }
            let t = if b.can_sleep { b.sleep_time } else { -1.0 };
            let r = isl.root[slot as usize] as usize;
            isl.min_sleep[r] = isl.min_sleep[r].min(t);
        }
        // Each island that falls asleep is one sleep group (`wake_groups`); the map from
        // roots to groups is made on the first body that falls asleep.
        let mut groups_made = false;
        for i in 1..self.solver.len() {
            let slot = self.solver.body[i];
            let r = isl.root[slot as usize];
            if r == u32::MAX || isl.min_sleep[r as usize] < s.time_to_sleep {
                continue;
            }
            if !groups_made {
                isl.group.clear();
                isl.group.resize(n, u32::MAX);
                groups_made = true;
            }
            let group = &mut isl.group[r as usize];
            if *group == u32::MAX {
                *group = self.next_sleep_group;
                self.next_sleep_group = self.next_sleep_group.wrapping_add(1);
            }
            let b = self.bodies.slot_mut(slot);
            b.sleeping = true;
            b.sleep_group = *group;
            b.linear_velocity = Vec3::ZERO;
            b.angular_velocity = Vec3::ZERO;
        }
    }
}

/// What a body's solver entry is made from (`World::solver_bodies`), or `None` for a
/// static or sleeping body (contacts on it point at the dummy).
#[inline(always)]
fn new_solver_body(b: &Body, slot: u32, s: &Settings, (h, step_h): (f32, f32)) -> Option<NewBody> {
    let com = com_at(&b.pose, b.local_com);
    let u0 = Velocity {
        lin: b.linear_velocity,
        ang: b.angular_velocity,
    };
    let reach = b.extent + b.local_com.length();
    match b.kind {
        BodyKind::Static => None,
        BodyKind::Dynamic if b.sleeping => None,
        BodyKind::Dynamic => {
            // (The rotation matrix only where `to_world` reads it.)
            let m = b.inv_inertia_local;
            let inv_inertia = if crate::integrate::is_isotropic(&m) {
                m
            } else {
                crate::integrate::to_world(Mat3::from_quat(b.pose.rotation), m)
            };
            // A body under gravity and force alone takes `gravity_only`'s short path,
            // as between solve substeps (the same values).
            let accel = plain_accel(b, s);
            let vnc = match accel {
                Some(Plain { accel, gyro: None }) => gravity_only(u0, accel, h),
                _ => velocity_without_contact(u0, &force_input(b, s, inv_inertia), h),
            };
            Some(NewBody {
                body: slot,
                v0: u0,
                vnc,
                inv_mass: b.inv_mass,
                inv_inertia,
                com,
                accel,
                reach,
            })
        }
        BodyKind::Kinematic => {
            let u = match b.kinematic_target {
                Some(t) => kinematic_velocity(b, t, step_h),
                None => u0,
            };
            Some(NewBody {
                body: slot,
                v0: u,
                vnc: u,
                inv_mass: 0.0,
                inv_inertia: Mat3::ZERO,
                com,
                accel: None,
                reach,
            })
        }
    }
}

/// The joint rows' parameters for a (sub)step of `h`.
fn joint_params(s: &Settings, h: f32) -> JointParams {
    JointParams {
        h,
        erp: s.joint_erp,
        split: s.penetration == PenetrationMode::SplitImpulse,
        warm_start: s.warm_start,
    }
}

/// What [`World::keep_rows`] did.
enum Rows {
    /// The step keeps the rows (some perhaps built again).
    Kept,
    /// The step builds its rows; the contact store has gathered this step's points.
    Gathered,
    /// The step builds its rows from the start.
    Build,
}

/// Which of the broadphase's pairs the narrowphase computes: those of two colliders on
/// different bodies, one of them dynamic, whose bodies no joint keeps from colliding.
struct PairFilter<'a> {
    /// Each collider's body slot, and which body slots are dynamic.
    body: &'a [u32],
    dynamic: &'a [bool],
    joints: &'a JointSet,
}

impl<'a> PairFilter<'a> {
    fn new(body: &'a [u32], dynamic: &'a [bool], joints: &'a JointSet) -> Self {
        Self {
            body,
            dynamic,
            joints,
        }
    }

    fn apply(&self, pairs: &mut Vec<(u32, u32)>) {
        let (cb, dynamic) = (self.body, self.dynamic);
        pairs.retain(|&(a, b)| {
            let (sa, sb) = (cb[a as usize], cb[b as usize]);
            sa != sb
                && (dynamic[sa as usize] || dynamic[sb as usize])
                && !self.joints.excludes(sa, sb)
        });
    }
}

/// What one half of the body order left for the stepping thread
/// (`World::make_collider_boxes`).
#[derive(Debug, Default)]
struct BoxHalf {
    /// The moving colliders' new poses and boxes whose keys lie outside the half's
    /// range.
    left: Vec<(u32, Pose, Aabb, Vec3)>,
    /// The bodies whose kind or moving flag changed, in body order.
    flagged: Vec<u32>,
    /// One of its other bodies is kinematic or a sleeping dynamic one
    /// (`island_bodies_changed`).
    changed: bool,
}

/// How many steps of travel a moving collider's new broadphase box reaches ahead
/// (`BroadPhase::update_moving`).
const AHEAD_STEPS: f32 = 4.0;

/// Steps in a row that keep their rows before a step builds them once more where their
/// colouring kept each manifold at its earliest level (`color.rs`, `LIST_AFTER`), now
/// list-scheduled: a settling heap colours anew nearly every step, so the colouring its
/// rows keep as it comes to rest is such a one, and list-scheduled its resting sweeps
/// run fewer, fuller units (`pile_1000` after 10 s: 298 units instead of 319, the Solve
/// stage about 6 % shorter). Resting stacks, whose colourings are list-scheduled from
/// the start, never take it.
const RELIST_AFTER: u32 = 8;

/// A settled solve's bodies move no faster than this many times
/// `Settings::sweep_tolerance` (m/s, and rad/s), each component of their velocities:
/// a wall rocking slowly out of its plane changes its rows by less than the tolerance
/// from sweep to sweep, and one sweep a substep let `pyramid_40`'s top box rock 4.5 mm
/// out of the plane within a minute (0.45 mm at ten times the tolerance, 0.06 mm
/// sweeping in full; `docs/dynamics.md`, *Settled solves*).
const REST_SPEEDS: f32 = 10.0;

/// Bodies from which a step with a crew makes its colliders' boxes on two threads
/// (`World::make_collider_boxes`).
const PAR_BODIES: usize = 1024;

/// Solver bodies from which a step with a crew integrates them on two threads.
const PAR_INTEGRATE: usize = 512;

/// From this many bodies a step with a crew makes its solver bodies on two threads
/// (`World::solver_bodies`).
const PAR_SOLVER_BODIES: usize = 512;

/// Manifolds from which a step with a crew refreshes last step's manifolds ahead of
/// the narrowphase on one thread while the other finds the pairs
/// (`World::find_pairs_and_refresh_ahead`).
const PAR_AHEAD: usize = 1024;

/// Manifolds from which a step with a crew checks which moved
/// (`RowReuse::moved`) on two threads.
const PAR_MANIFOLDS: usize = 1024;

/// Collider `k`'s world pose on body `b` and its box grown by the contact margin.
fn collider_box(
    (local, shapes): (&[Pose], &[thud_collide::Shape]),
    k: u32,
    b: &Body,
    margin: f32,
) -> (Pose, Aabb) {
    let ki = k as usize;
    let local = local[ki];
    // (A collider at the body's origin, the common case, takes the body's pose.)
    let pose = if local == Pose::IDENTITY {
        b.pose
    } else {
        b.pose.mul(local)
    };
    (pose, shapes[ki].aabb(&pose).expanded(margin))
}

/// What the contact store was last gathered from: the narrowphase layout and collider
/// generation (while both stay, a step that keeps its rows takes the points again from
/// the same manifolds, `ContactStore::regather`), and the islands' `islands_at` and the
/// solver bodies' slots and inverse masses (while these stand too, so does a step that
/// builds its rows: `World::gather_again`).
#[derive(Debug, Default)]
struct Gathered {
    at: Option<(u64, u64)>,
    islands: Option<IslandsAt>,
    bodies: Vec<u32>,
    mass: Vec<f32>,
}

/// What a step's islands were found from (`World::islands_at`): the narrowphase
/// layout, the collider generation, the body slots and the bodies.
type IslandsAt = (u64, u64, usize, usize);

/// A refresh of the lanes' rows that the next solve runs (`wide::Refresh`, made from
/// the solver bodies there): a substep's `h` and parameters, whether the separations
/// advance by the bodies' summed motion (`SolverBodies::moved`) or stand as they are,
/// and whether only the units with a body not marked still (`SolverBodies::still`,
/// `mark_still`) take new rows.
#[derive(Debug, Clone, Copy)]
struct Fresh {
    h: f32,
    params: BuildParams,
    motion: bool,
    still: bool,
}

/// Mark in `SolverBodies::still` each solver body whose motion summed since the
/// lanes' separations last advanced (`SolverBodies::moved`, over solve substeps of
/// `h`) cannot have moved a contact point on it by more than `distance`:
/// `h·(|Δv| + |Δω|·(reach + margin))`, the point at most its colliders' reach and the
/// contact margin from its centre of mass. Returns whether some body is not still.
fn mark_still(sb: &mut SolverBodies, h: f32, distance: f32, margin: f32) -> bool {
    let limit = distance / h;
    let n = sb.len();
    sb.still.clear();
    sb.still.resize(n, true);
    let mut moving = false;
    for i in 1..n {
        let (u, f) = (sb.moved[i], sb.frame_of[i]);
        let ang = match sb.frames.get(f as usize) {
            Some(frame) => frame.l * u.ang,
            None => u.ang,
        };
        let r = sb.reach[i] + margin;
        let still = u.lin.length() + ang.length() * r <= limit;
        sb.still[i] = still;
        moving |= !still;
    }
    moving
}

/// The solver bodies that joint rows hold, marked in `flags` (`None` without joint rows).
fn mark_jointed<'a>(
    flags: &'a mut Vec<bool>,
    rows: [&JointRows; 2],
    bodies: usize,
) -> Option<&'a [bool]> {
    if rows.iter().all(|r| r.rows.is_empty()) {
        return None;
    }
    flags.clear();
    flags.resize(bodies, false);
    for j in rows.iter().flat_map(|r| &r.rows) {
        flags[j.a as usize] = true;
        flags[j.b as usize] = true;
    }
    Some(flags)
}

/// Solver body `e` (`b`, its slot's body) moved by `h` with its velocity and
/// pseudo-velocity (`Vnc + dV`, clamped, and the split pass's): its pose and velocity
/// written to the body; before the step's `last` solve substep its state for the next
/// one ([`next_substep_body`]); in the last, a kinematic body lands on its target and
/// the forces are cleared. Where it `pays`, a dynamic body that the pseudo-velocity
/// lifts pays for the lift from its motion first ([`pay_for_lift`]).
#[inline(always)]
fn integrate_body(
    b: &mut Body,
    mut e: Entry<'_>,
    r: &Read<'_>,
    (s, h, last): (&Settings, f32, bool),
    (max_lin, max_ang): (f32, f32),
    pays: bool,
) {
    let (vnc, dv) = (r.vnc(e.k), *e.dv);
    // (A kinematic body moves with its velocity of this step: `vnc_now`, which a step
    // that keeps its rows takes again while `vnc` stays the build's.)
    // (A body in its own angular frame, `solver_body.rs`, comes back to the world's:
    // `ω = L·ω̃`.)
    let u = if b.kind == BodyKind::Dynamic {
        clamp_velocity(
            Velocity {
                lin: vnc.lin + dv.lin,
                ang: r.out_of_frame(e.k, vnc.ang + dv.ang),
            },
            max_lin,
            max_ang,
        )
    } else {
        *e.vnc_now
    };
    let p = *e.pseudo;
    // (A body the contacts' position pass lifts pays for the lift from its motion.)
    let u = if p.lin == Vec3::ZERO || b.kind != BodyKind::Dynamic || !pays {
        u
    } else {
        let work = b.mass * b.gravity_scale * (-s.gravity).dot(p.lin) * h;
        pay_for_lift(u, work, b.mass, b.pose.rotation, b.inertia_local)
    };
    let move_u = Velocity {
        lin: u.lin + p.lin,
        ang: u.ang + r.out_of_frame(e.k, p.ang),
    };
    let (com, q) = integrate_pose(*e.com, b.pose.rotation, move_u, h);
    let pose = Pose::new(origin_at(com, q, b.local_com), q);
    b.pose = pose;
    if b.kind == BodyKind::Dynamic {
        b.linear_velocity = u.lin;
        b.angular_velocity = u.ang;
    }
    if !last {
        // (The pose and velocity as just written, from the registers: read back from
        // the body, in loads of other widths than these stores, they stalled on every
        // body.)
        next_substep_body(&mut e, r, b, s, h, (&pose, u));
        return;
    }
    if let Some(t) = b.kinematic_target.take() {
        b.pose = t;
        b.linear_velocity = Vec3::ZERO;
        b.angular_velocity = Vec3::ZERO;
    }
    b.force = Vec3::ZERO;
    b.torque = Vec3::ZERO;
}

/// After solver body `e` (`b`) moved in a solve substep of `h` that is not the step's
/// last: the next substep's state of the body. `pseudo` keeps the velocity the pose just
/// moved with (`Vnc + dV`; `refresh_rows` advances the contacts by it, then clears it),
/// the centre of mass is the moved pose's, and a dynamic body's velocity without
/// contact is taken again from its new velocity (`v0`, `vnc_now`), the difference going
/// into its `dV` (see `refresh_rows`).
#[inline(always)]
fn next_substep_body(
    e: &mut Entry<'_>,
    r: &Read<'_>,
    b: &Body,
    s: &Settings,
    h: f32,
    now: (&Pose, Velocity),
) {
    let (vnc, dv) = (r.vnc(e.k), *e.dv);
    let p = &mut *e.pseudo;
    p.lin += vnc.lin + dv.lin;
    p.ang += vnc.ang + dv.ang;
    let (lin, ang) = (p.lin, p.ang);
    let m = &mut *e.moved;
    m.lin += lin;
    m.ang += ang;
    velocity_without_contact_at(e, r, b, s, h, now);
}

/// Solver body `e` (`b`) at its current pose and velocity for a solve substep of `h` on
/// rows built earlier: its centre of mass, and a dynamic body's velocity without
/// contact taken again from its velocity (`v0`, `vnc_now`), the difference going into
/// its `dV`.
#[inline(always)]
fn take_velocity_without_contact(
    (e, r): (&mut Entry<'_>, &Read<'_>),
    b: &Body,
    s: &Settings,
    h: f32,
) {
    let u = Velocity {
        lin: b.linear_velocity,
        ang: b.angular_velocity,
    };
    velocity_without_contact_at(e, r, b, s, h, (&b.pose, u));
}

/// [`take_velocity_without_contact`] with the body's pose and velocity `now` (its own
/// `pose`, `linear_velocity` and `angular_velocity`) given by the caller.
#[inline(always)]
fn velocity_without_contact_at(
    e: &mut Entry<'_>,
    r: &Read<'_>,
    b: &Body,
    s: &Settings,
    h: f32,
    (pose, u): (&Pose, Velocity),
) {
    *e.com = com_at(pose, b.local_com);
    if b.kind == BodyKind::Dynamic {
        let (lin0, ang0) = (u.lin, u.ang);
        // (Field by field, here and below, and the common case without a call: a
        // `Velocity` made whole went through the stack in stores of other widths than
        // the loads that read it back, a store-forwarding stall on every body.)
        let v0 = &mut *e.v0;
        v0.lin = lin0;
        v0.ang = ang0;
        // A body under gravity and force alone (the standard scenes' every body) skips
        // the inertia product with a zero torque, and reads no more of the body.
        match r.accel(e.k) {
            Some(Plain { accel, gyro: None }) => {
                let (lin, ang) = (lin0 + h * accel, ang0 + Vec3::ZERO);
                next_velocity_without_contact(e, r, lin, ang);
            }
            _ => other_velocity_without_contact(e, r, b, s, h, (pose.rotation, u)),
        }
    }
}

/// [`take_velocity_without_contact`] of a body that turns by the gyroscopic term or
/// takes a torque or damping, at orientation `rotation` and velocity `u0` (out of line:
/// the standard scenes' bodies take neither).
#[inline(never)]
fn other_velocity_without_contact(
    e: &mut Entry<'_>,
    r: &Read<'_>,
    b: &Body,
    s: &Settings,
    h: f32,
    (rotation, u0): (Quat, Velocity),
) {
    let next = match r.accel(e.k) {
        Some(Plain { accel, gyro }) => {
            let mut v = gravity_only(u0, accel, h);
            if let Some(d) = gyro {
                v.ang = implicit_gyroscopic_diagonal(v.ang, rotation, d, h);
            }
            v
        }
        None => velocity_without_contact(u0, &force_input(b, s, r.inv_inertia(e.k)), h),
    };
    next_velocity_without_contact(e, r, next.lin, next.ang);
}

/// Solver body `e`'s new velocity without contact (`ang` in the world), the change
/// since the one it had into its `dV`.
#[inline(always)]
fn next_velocity_without_contact(e: &mut Entry<'_>, r: &Read<'_>, lin: Vec3, ang: Vec3) {
    let ang = r.in_frame(e.k, ang);
    let now = &mut *e.vnc_now;
    let (d_lin, d_ang) = (lin - now.lin, ang - now.ang);
    now.lin = lin;
    now.ang = ang;
    let dv = &mut *e.dv;
    dv.lin += d_lin;
    dv.ang += d_ang;
}

/// What a dynamic body's velocity without contact takes when no torque or damping
/// enters it ([`Plain`]: `g + F/m`, and the body-frame inertia's diagonal of a body the
/// gyroscopic term turns), for `SolverBodies::accel`; `None` otherwise. The same values
/// as [`velocity_without_contact`]: its torque term `I⁻¹·0` adds `+0`, as
/// `gravity_only` does, and its gyroscopic step on a diagonal tensor is
/// `implicit_gyroscopic_diagonal`.
#[inline(always)]
fn plain_accel(b: &Body, s: &Settings) -> Option<Plain> {
    if b.torque != Vec3::ZERO || b.linear_damping != 0.0 || b.angular_damping != 0.0 {
        return None;
    }
    // (As in `force_input`: no step for an isotropic tensor, `b.isotropic` being
    // `is_isotropic(inertia_local)`.)
    let gyro = if s.gyroscopic && !b.isotropic {
        Some(diagonal_of(&b.inertia_local)?)
    } else {
        None
    };
    Some(Plain {
        accel: s.gravity * b.gravity_scale + b.inv_mass * b.force,
        gyro,
    })
}

/// What the integrator needs of a dynamic body for its velocity without contact.
fn force_input(b: &Body, s: &Settings, inv_i: Mat3) -> ForceInput {
    ForceInput {
        gravity: s.gravity * b.gravity_scale,
        force: b.force,
        torque: b.torque,
        inv_mass: b.inv_mass,
        inv_inertia_world: inv_i,
        inertia_local: b.inertia_local,
        rotation: b.pose.rotation,
        linear_damping: b.linear_damping,
        angular_damping: b.angular_damping,
        // (An isotropic body has no gyroscopic torque: `implicit_gyroscopic` would
        // return `ω` as it is.)
        gyroscopic: s.gyroscopic && !b.isotropic,
    }
}

/// The row builder's parameters for a solve substep of `h`. With split impulse, a
/// position pass that stands for `passes` solve substeps' passes (run once, after the
/// last) removes what they would have together: `1 − (1 − erp)^passes` of the
/// penetration beyond the slop, at up to `passes` times the correction speed (the
/// pseudo-velocity moves the bodies for one substep). `passes` is 1 without split
/// impulse (`World::split_passes`), so Baumgarte rows keep `erp`.
fn build_params(s: &Settings, h: f32, passes: u32) -> BuildParams {
    BuildParams {
        inv_dt: 1.0 / h,
        erp: if passes > 1 {
            1.0 - (1.0 - s.erp).powi(passes as i32)
        } else {
            s.erp
        },
        slop: s.slop,
        gap: s.touching_gap,
        max_correction: s.max_correction_velocity * passes as f32,
        split: s.penetration == PenetrationMode::SplitImpulse,
        warm_start: s.warm_start,
        restitution_threshold: s.restitution_threshold,
    }
}

/// Whether solver body `k` (its inverse mass and frame index `sb`), the body `b` (a
/// `kinematic` one or not), keeps the build's rows: the same inverse mass and local
/// inertia, else `Err`. A body in its own angular frame (`solver_body.rs`) keeps the
/// build's frame while it has turned less than `eps` (`reuse_rows_within`, the
/// tolerance of the lever arms) in any component of its orientation; one that turned
/// more takes the new frame returned, and its manifolds' rows are built again
/// (`Err` where its inertia has none).
fn kept_body(
    reuse: &RowReuse,
    k: usize,
    (inv_mass, frame_of): (f32, u32),
    (b, kinematic): (&Body, bool),
    eps: f32,
) -> Result<Option<crate::solver_body::Frame>, ()> {
    let m = if kinematic { 0.0 } else { b.inv_mass };
    if inv_mass != m || !reuse.same_inertia(k, b.inv_inertia_local) {
        return Err(());
    }
    if frame_of == u32::MAX || reuse.same_rotation(k, b.pose.rotation, eps) {
        return Ok(None);
    }
    let rot = Mat3::from_quat(b.pose.rotation);
    let inv_i = crate::integrate::to_world(rot, b.inv_inertia_local);
    crate::solver_body::Frame::of(&inv_i).map(Some).ok_or(())
}

/// A kinematic body on a step that keeps its rows: its velocity over this step (toward
/// its target, or as set) into its `dV`, where the rows read it (no sweep writes a
/// kinematic body's `dV`: its `T` blocks are zero and its lanes not movable), and its
/// centre of mass now.
fn keep_kinematic(e: &mut Entry<'_>, b: &Body, step_h: f32) {
    let u = match b.kinematic_target {
        Some(t) => kinematic_velocity(b, t, step_h),
        None => Velocity {
            lin: b.linear_velocity,
            ang: b.angular_velocity,
        },
    };
    *e.pseudo = Velocity::ZERO;
    *e.moved = Velocity::ZERO;
    *e.com = com_at(&b.pose, b.local_com);
    *e.v0 = u;
    let (now, dv) = (&mut *e.vnc_now, &mut *e.dv);
    dv.lin += u.lin - now.lin;
    dv.ang += u.ang - now.ang;
    *now = u;
}

/// Velocity that carries a kinematic body from its pose to `target` in `h`.
fn kinematic_velocity(b: &Body, target: Pose, h: f32) -> Velocity {
    let com0 = com_at(&b.pose, b.local_com);
    let com1 = com_at(&target, b.local_com);
    let mut dq = target.rotation * b.pose.rotation.inverse();
    if dq.w < 0.0 {
        dq = -dq;
    }
    let (axis, angle) = dq.to_axis_angle();
    Velocity {
        lin: (com1 - com0) / h,
        ang: if angle.is_finite() && axis.is_finite() {
            axis * (angle / h)
        } else {
            Vec3::ZERO
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BodyBuilder, Collider};

    /// A body stands while `h·(|Δv| + |Δω|·(reach + margin))` stays within the distance:
    /// a slide or a turn just past it moves it, one just within does not, and a body in
    /// its own angular frame is judged by its world angular velocity `L·ω̃`.
    #[test]
    fn a_body_stands_while_its_contact_points_cannot_have_moved_the_distance() {
        let (h, distance, margin) = (0.01, 1e-4, 0.02);
        let mut sb = SolverBodies::default();
        sb.reset();
        let lin = |x: f32| Velocity {
            lin: Vec3::new(x, 0.0, 0.0),
            ang: Vec3::ZERO,
        };
        let ang = |w: f32| Velocity {
            lin: Vec3::ZERO,
            ang: Vec3::new(0.0, w, 0.0),
        };
        // (reach 0.48 + margin 0.02 = 0.5 m: |Δω| of 0.02 rad/s moves a point 1e-4 m.)
        let moved = [
            lin(0.0099),
            lin(0.0101),
            ang(0.0198),
            ang(0.0202),
            ang(0.0198),
        ];
        for (i, m) in moved.into_iter().enumerate() {
            let k = sb.push(i as u32, m, m, 1.0, Mat3::IDENTITY, Vec3::ZERO) as usize;
            sb.moved[k] = m;
            sb.reach[k] = 0.48;
        }
        // The last body in a frame that doubles its angular velocity in the world.
        sb.frame_of[5] = 0;
        sb.frames.push(crate::solver_body::Frame {
            l: Mat3::from_diagonal(Vec3::splat(2.0)),
            lt: Mat3::from_diagonal(Vec3::splat(2.0)),
            inv: Mat3::from_diagonal(Vec3::splat(0.5)),
        });
        assert!(mark_still(&mut sb, h, distance, margin));
        assert_eq!(sb.still, [true, true, false, true, false, false]);
        // Nothing moving: nothing to refresh.
        for m in &mut sb.moved {
            *m = Velocity::ZERO;
        }
        assert!(!mark_still(&mut sb, h, distance, margin));
        assert!(sb.still.iter().all(|&s| s));
    }

    /// A wall of boxes too large for the exact mode and, beside it, a column it takes:
    /// the step builds scalar rows for the column's points only, and ends every step in
    /// the bits of a step that builds them for every point (what it did before); the
    /// export of its problems reads the wall's rows from the lanes and matches too.
    /// Bodies of other inertia than `c·1` solved in their own angular frames
    /// (`solver_body.rs`: cube-like rows, `T̃ = J̃`) move as with `T` blocks beside the
    /// rows: a stack of planks with a plank tumbling onto it, the two runs within
    /// rounding of each other (the same physics, other arithmetic) for a second and a
    /// half, with and without rows kept across steps.
    #[test]
    fn bodies_in_their_own_angular_frames_move_as_with_t_blocks() {
        let run = |frames: bool, reuse: f32| {
            // (PGS alone: the exact mode would take the stack, from the scalar rows.
            // The stack starts cold: warm-started from its statics it stands still from
            // the first step, every step keeps its rows, and the tumbling plank, whose
            // spin about its middle axis grows any rounding, passes through a new frame
            // on each; the two runs then part by 2·10⁻⁴ in its orientation by the end.)
            let mut w = World::new(Settings {
                reuse_rows_within: reuse,
                solver_mode: crate::SolverMode::Pgs,
                statics_warm_start: false,
                ..Settings::without_sleeping()
            });
            w.solver.no_frames = !frames;
            w.add_body(
                BodyBuilder::fixed()
                    .position(glam::Vec3::new(0.0, -0.5, 0.0))
                    .collider(Collider::cuboid(glam::Vec3::new(10.0, 0.5, 10.0))),
            )
            .unwrap();
            let plank = || Collider::cuboid(glam::Vec3::new(1.0, 0.1, 0.3));
            let mut handles = Vec::new();
            for k in 0..5 {
                let p = glam::Vec3::new(0.0, 0.1 + 0.2 * k as f32, 0.0);
                let q = glam::Quat::from_rotation_y(0.3 * k as f32);
                let b = BodyBuilder::dynamic()
                    .position(p)
                    .rotation(q)
                    .collider(plank());
                handles.push(w.add_body(b).unwrap());
            }
            // A plank spinning on the ground (friction brakes its spin and slide), and
            // one tumbling in the air (its gyroscopic motion in and out of the frame).
            let spinning = BodyBuilder::dynamic()
                .position(glam::Vec3::new(4.0, 0.1, 0.0))
                .rotation(glam::Quat::from_rotation_y(0.4))
                .linear_velocity(glam::Vec3::new(1.0, 0.0, 0.5))
                .angular_velocity(glam::Vec3::new(0.0, 3.0, 0.0))
                .collider(plank());
            handles.push(w.add_body(spinning).unwrap());
            let tumbling = BodyBuilder::dynamic()
                .position(glam::Vec3::new(-4.0, 30.0, 0.0))
                .rotation(glam::Quat::from_euler(glam::EulerRot::XYZ, 0.4, 0.2, 0.7))
                .angular_velocity(glam::Vec3::new(1.0, 3.0, -2.0))
                .collider(plank());
            handles.push(w.add_body(tumbling).unwrap());
            let mut framed = 0;
            for _ in 0..90 {
                w.step().unwrap();
                framed = framed.max(w.solver.frames.len());
            }
            let poses: Vec<_> = handles.iter().map(|&h| w.body(h).unwrap().pose()).collect();
            (poses, framed)
        };
        for reuse in [0.0, 1e-4] {
            let (with, framed) = run(true, reuse);
            let (without, none) = run(false, reuse);
            assert_eq!(none, 0);
            assert_eq!(framed, 7, "every plank in its frame");
            for (a, b) in with.iter().zip(&without) {
                assert!(
                    (a.position - b.position).length() < 1e-4,
                    "{a:?} against {b:?}"
                );
                // (Quaternion components: `angle_between`'s `acos` in `f32` cannot tell
                // angles below about 5·10⁻⁴ rad from zero.)
                let turn = glam::Vec4::from(a.rotation) - glam::Vec4::from(b.rotation);
                assert!(turn.length() < 1e-4, "{a:?} against {b:?}");
            }
            // The stack stands; the spinning plank slid and stopped turning so fast.
            assert!((with[4].position.y - 0.9).abs() < 2e-3, "{:?}", with[4]);
            assert!(with[5].position.x > 4.1, "{:?}", with[5]);
        }
    }

    /// A fixed slab for ground and on it a one-box-deep pyramid of unit cubes, `rows`
    /// rows (row `r` of `rows − r` boxes, `spacing` apart, the bottom row's first at
    /// `x0`); the boxes' handles, bottom row first.
    fn ground_and_pyramid(w: &mut World, rows: usize, spacing: f32, x0: f32) -> Vec<BodyHandle> {
        w.add_body(
            BodyBuilder::fixed()
                .position(glam::Vec3::new(0.0, -0.5, 0.0))
                .collider(Collider::cuboid(glam::Vec3::new(30.0, 0.5, 5.0))),
        )
        .unwrap();
        let mut handles = Vec::new();
        for row in 0..rows {
            for k in 0..rows - row {
                let x = k as f32 * spacing + row as f32 * spacing / 2.0 + x0;
                handles.push(cube_at(w, glam::Vec3::new(x, 0.5 + row as f32, 0.0)));
            }
        }
        handles
    }

    /// Only a touching gap reads a manifold's spread, so the store takes it with the
    /// points only where there is a gap: a cube tilted on the ground, its far edge 1 cm
    /// up (within the margin), has a spread of about that on the gather's step and the
    /// steps that take its points again, and none without a gap.
    #[test]
    fn the_store_takes_the_spreads_only_where_there_is_a_touching_gap() {
        for gap in [0.0, 1e-5] {
            let mut w = World::new(Settings {
                touching_gap: gap,
                ..Settings::without_sleeping()
            });
            ground_and_pyramid(&mut w, 0, 1.0, 0.0);
            let tilt = 0.01f32;
            let at = glam::Vec3::new(0.0, 0.5 * tilt.cos() + 0.5 * tilt.sin(), 0.0);
            w.add_body(
                BodyBuilder::dynamic()
                    .position(at)
                    .rotation(glam::Quat::from_rotation_z(tilt))
                    .collider(Collider::cuboid(glam::Vec3::splat(0.5))),
            )
            .unwrap();
            for step in 0..3 {
                w.step().unwrap();
                let spreads: Vec<f32> = w
                    .contacts
                    .manifold_inputs
                    .iter()
                    .map(|m| m.spread)
                    .collect();
                assert_eq!(spreads.len(), 1, "step {step}");
                if gap > 0.0 {
                    assert!(spreads[0] > 5e-3, "step {step}: {spreads:?}");
                } else {
                    assert_eq!(spreads, [0.0], "step {step}");
                }
            }
        }
    }

    /// A dynamic unit cube at `p`.
    fn cube_at(w: &mut World, p: glam::Vec3) -> BodyHandle {
        let cube = Collider::cuboid(glam::Vec3::splat(0.5));
        w.add_body(BodyBuilder::dynamic().position(p).collider(cube))
            .unwrap()
    }

    /// Every body's position, linear velocity and rotation, as bits.
    fn state_bits(w: &World) -> impl Iterator<Item = u32> + '_ {
        w.bodies().flat_map(|(_, b)| {
            let p = b.pose();
            [p.position.to_array(), b.linear_velocity().to_array()]
                .into_iter()
                .flatten()
                .chain(p.rotation.to_array())
                .map(f32::to_bits)
                .collect::<Vec<_>>()
        })
    }

    #[test]
    fn scalar_rows_for_the_exact_islands_only_give_the_same_steps() {
        let run = |all: bool| {
            // (Every step builds its rows: a step with every point's scalar rows keeps
            // none.)
            let mut w = World::new(Settings {
                reuse_rows_within: 0.0,
                ..Settings::without_sleeping()
            });
            w.all_scalar_rows = all;
            ground_and_pyramid(&mut w, 8, 1.02, -4.0);
            for k in 0..5 {
                cube_at(&mut w, glam::Vec3::new(15.0, 0.5 + k as f32, 0.0));
            }
            let mut partial = 0;
            let mut bits = Vec::new();
            for _ in 0..90 {
                w.step().unwrap();
                partial += usize::from(w.contacts.partial_rows());
                bits.extend(state_bits(&w));
            }
            let mut json = Vec::new();
            w.export_lcp(&mut json, 100_000).unwrap();
            (bits, partial, json)
        };
        let (all, none, all_json) = run(true);
        let (some, partial, some_json) = run(false);
        assert_eq!(none, 0);
        assert!(
            partial > 30,
            "{partial} steps with rows for the column only"
        );
        assert_eq!(some, all);
        // The wall's rows now come from the lanes, which refresh `b̃` substep by substep
        // in their own order: the same problems, `b` equal to f32 rounding.
        let parse = |j: &[u8]| serde_json::from_slice::<Vec<serde_json::Value>>(j).unwrap();
        let (some, all) = (parse(&some_json), parse(&all_json));
        assert_eq!(some.len(), 2);
        assert_eq!(some.len(), all.len());
        for (p, q) in some.iter().zip(&all) {
            for key in ["A", "lo", "hi", "friction_coupling", "name"] {
                assert_eq!(p[key], q[key], "{key}");
            }
            let b = |v: &serde_json::Value| -> Vec<f64> {
                v["b"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_f64().unwrap())
                    .collect()
            };
            let (bp, bq) = (b(p), b(q));
            assert_eq!(bp.len(), bq.len());
            for (x, y) in bp.iter().zip(&bq) {
                assert!((x - y).abs() <= 1e-6 * x.abs().max(1.0), "{x} vs {y}");
            }
        }
    }

    /// A solve that refreshes each unit's rows right before its first sweep gives the
    /// bits of one that refreshes them all first: at the start of steps that keep their
    /// rows, and between solve substeps both where every separation advances and where
    /// only the units of bodies that moved take new rows.
    #[test]
    fn rows_refreshed_in_the_first_sweep_give_the_same_steps() {
        let run = |from: usize| {
            // (Every sweep run: a settled solve refreshes its rows before its one sweep.)
            let mut w = World::new(Settings {
                sweep_tolerance: 0.0,
                ..Settings::without_sleeping()
            });
            w.wide.fused_refresh.0 = Some(from);
            ground_and_pyramid(&mut w, 12, 1.0, -6.0);
            // A box dropped beside it: bodies that move among bodies that stand.
            cube_at(&mut w, glam::Vec3::new(12.0, 3.0, 0.0));
            let (mut bits, mut kept) = (Vec::new(), 0);
            for _ in 0..120 {
                w.step().unwrap();
                kept += usize::from(w.stats().rows_kept);
                bits.extend(state_bits(&w));
            }
            (bits, kept, w.wide.fused_refresh.1)
        };
        let (fused, kept, solves) = run(0);
        let (apart, _, none) = run(usize::MAX);
        assert!(kept > 30, "{kept} steps kept their rows");
        assert!(solves > 300, "{solves} solves refreshed in their sweeps");
        assert_eq!(none, 0);
        assert_eq!(fused, apart);
    }

    /// A step that builds its rows takes the points again from the manifolds the last
    /// gather read while they, the islands and the solver bodies stand, and gathers anew
    /// where one changed: a joint that joins two islands, a body made kinematic, a
    /// body removed. The same bits as a gather every step.
    #[test]
    fn points_taken_again_give_the_steps_of_a_gather() {
        let run = |no_regather: bool| columns_beside_a_pyramid(|w| w.no_regather = no_regather).0;
        assert_eq!(run(false), run(true));
    }

    /// The points the contact store takes as the narrowphase updates each manifold
    /// (`contact::Tap`) are those a regather reads back after it: the same bits, on
    /// steps that keep their rows and on steps that build them, through manifolds that
    /// gain points (tilted cubes landing beside a pyramid, which the store must gather
    /// anew) and the changes of `columns_beside_a_pyramid`.
    #[test]
    fn points_taken_from_the_narrowphase_give_the_steps_of_a_regather() {
        let landing = |no_tap: bool| {
            let mut w = World::new(Settings::without_sleeping());
            w.no_tap = no_tap;
            ground_and_pyramid(&mut w, 6, 1.0, -3.0);
            tilted_cubes(&mut w);
            let mut bits = Vec::new();
            let mut kept = 0;
            for _ in 0..90 {
                w.step().unwrap();
                kept += usize::from(w.stats().rows_kept);
                bits.extend(state_bits(&w));
            }
            (bits, w.taps, kept)
        };
        let ((tapped, [taken, refused], kept), (read, none, _)) = (landing(false), landing(true));
        assert_eq!(none, [0, 0]);
        assert!(
            taken > 30 && refused > 0,
            "{taken} taken, {refused} refused"
        );
        assert!(kept > 10, "{kept} steps kept their rows");
        assert!(tapped == read, "the steps differ");
        let run = |no_tap: bool| columns_beside_a_pyramid(|w| w.no_tap = no_tap).0;
        assert!(run(false) == run(true), "the steps differ");
        // On a pool of two, with more pairs than a chunk of the narrowphase (256): the
        // steps whose narrowphase splits over the pool tap the store in parts
        // (`a_tap_in_parts_takes_what_a_gather_would` takes them apart).
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let pooled = |no_tap: bool| {
            pool.install(|| {
                let mut w = World::new(Settings {
                    parallel_min_pairs: 0,
                    ..Settings::without_sleeping()
                });
                w.no_tap = no_tap;
                ground_and_pyramid(&mut w, 16, 1.0, -8.0);
                let mut bits = Vec::new();
                for _ in 0..40 {
                    w.step().unwrap();
                    bits.extend(state_bits(&w));
                }
                assert!(w.pairs.len() > 300, "{} pairs", w.pairs.len());
                (bits, w.taps)
            })
        };
        let ((tapped, [taken, _]), (read, _)) = (pooled(false), pooled(true));
        assert!(taken > 20, "{taken} taken");
        assert!(tapped == read, "the steps differ on the pool");
    }

    /// A colouring that skips the look at its keys where the store's `keys_at` says
    /// they stand steps as one that compares them, through the same changes: the exact
    /// mode taking columns apart, then joined, letting them go and taking them again, a
    /// body made kinematic, one removed.
    #[test]
    fn a_colouring_kept_by_its_keys_gives_the_steps_of_one_that_compares_them() {
        let (keyed, skipped) = columns_beside_a_pyramid(|_| {});
        let (compared, none) = columns_beside_a_pyramid(|w| w.unkeyed = true);
        assert_eq!(none, 0);
        assert!(skipped > 30, "{skipped} of 120 builds skipped the look");
        assert!(keyed == compared, "the steps differ");
    }

    /// Cubes dropped tilted beside a pyramid touch the ground on an edge, then on a face:
    /// their manifolds gain points while the colouring stands. Lanes laid again for the
    /// same groups (`WideContacts::relane`) give the bits of groups laid out afresh
    /// (rows built every step: kept rows are built again unit by unit, and units of
    /// other groups would build other rows again).
    #[test]
    fn lanes_laid_again_give_the_steps_of_groups_laid_out_afresh() {
        let run = |afresh: bool| {
            let mut w = World::new(Settings {
                reuse_rows_within: 0.0,
                ..Settings::without_sleeping()
            });
            w.wide.relane.0 = afresh;
            ground_and_pyramid(&mut w, 6, 1.0, -3.0);
            tilted_cubes(&mut w);
            let mut bits = Vec::new();
            for _ in 0..90 {
                w.step().unwrap();
                bits.extend(state_bits(&w));
            }
            (bits, w.wide.relane.1)
        };
        let ((laid, relaned), (afresh, none)) = (run(false), run(true));
        assert_eq!(none, 0);
        assert!(relaned > 0, "no layout relaned");
        assert!(laid == afresh, "the steps differ");
    }

    /// Six unit cubes dropped tilted beside `ground_and_pyramid`'s pyramid: each lands on
    /// an edge, then on a face, its manifold gaining points.
    fn tilted_cubes(w: &mut World) {
        for k in 0..6 {
            let tilt = glam::Quat::from_rotation_z(0.1 + 0.05 * k as f32);
            let at = glam::Vec3::new(6.0 + 1.5 * k as f32, 0.75, 0.0);
            let cube = Collider::cuboid(glam::Vec3::splat(0.5));
            w.add_body(
                BodyBuilder::dynamic()
                    .position(at)
                    .rotation(tilt)
                    .collider(cube),
            )
            .unwrap();
        }
    }

    /// 120 steps of a pyramid beside two columns that the exact mode takes, their rows
    /// built every step, through a joint that joins the columns' islands, a rule that
    /// lets them go for a while, a body made kinematic and one removed: the state's
    /// bits after each step, and how many builds kept their colouring by the store's
    /// keys.
    fn columns_beside_a_pyramid(set: impl Fn(&mut World)) -> (Vec<u32>, usize) {
        let mut w = World::new(Settings {
            reuse_rows_within: 0.0,
            ..Settings::without_sleeping()
        });
        set(&mut w);
        let mut handles = ground_and_pyramid(&mut w, 6, 1.0, -3.0);
        // Two columns the exact mode takes, apart, then joined.
        for (x, n) in [(10.0, 5), (12.0, 4)] {
            for k in 0..n {
                handles.push(cube_at(&mut w, glam::Vec3::new(x, 0.5 + k as f32, 0.0)));
            }
        }
        let mut bits = Vec::new();
        for step in 0..120 {
            match step {
                // Joins the columns' islands (the top of one to the top of the other).
                30 => {
                    let (a, b) = (handles[25], handles[29]);
                    let anchor = glam::Vec3::new(11.0, 4.0, 0.0);
                    w.add_joint(crate::JointBuilder::ball(Some(a), b).world_anchor(anchor))
                        .unwrap();
                }
                // The exact mode lets the columns go, then takes them again, with the
                // same manifolds.
                45 => w.settings_mut().exact_min_bodies += 100,
                60 => w.set_body_kind(handles[2], BodyKind::Kinematic).unwrap(),
                75 => w.settings_mut().exact_min_bodies -= 100,
                90 => w.remove_body(handles[20]).unwrap(),
                _ => {}
            }
            w.step().unwrap();
            bits.extend(state_bits(&w));
        }
        (bits, w.keyed)
    }

    /// Columns whose boxes land one after the other colour anew as their contacts come,
    /// so the rows they keep at rest sit at their manifolds' earliest levels (thirteen
    /// manifolds a level, in four groups: two units each). After `RELIST_AFTER` steps
    /// that kept them, one step builds them again, list-scheduled, in fewer units of the
    /// sweep, and the steps after keep those; without that the columns rest on the
    /// earliest levels.
    #[test]
    fn rows_kept_at_their_earliest_levels_are_built_once_more_list_scheduled() {
        let run = |no_relist: bool| {
            // (Every sweep run: settled solves leave the resting columns jittering at
            // some µm/s, and at the earliest levels one step of the thirty watched
            // built its rows again.)
            let mut w = World::new(Settings {
                solver_mode: crate::SolverMode::Pgs,
                sweep_tolerance: 0.0,
                ..Settings::without_sleeping()
            });
            w.no_relist = no_relist;
            w.add_body(
                BodyBuilder::fixed()
                    .position(glam::Vec3::new(0.0, -0.5, 0.0))
                    .collider(Collider::cuboid(glam::Vec3::new(30.0, 0.5, 5.0))),
            )
            .unwrap();
            // Thirteen columns of three, their boxes 5 cm apart.
            for c in 0..13 {
                for k in 0..3 {
                    let p = glam::Vec3::new(2.0 * c as f32 - 13.0, 0.55 + 1.05 * k as f32, 0.0);
                    cube_at(&mut w, p);
                }
            }
            for _ in 0..300 {
                w.step().unwrap();
            }
            let mut built = 0;
            for _ in 0..30 {
                w.step().unwrap();
                built += usize::from(!w.stats().rows_kept);
            }
            assert_eq!(built, 0, "the columns rest and keep their rows");
            assert!(w.bodies().all(|(_, b)| b.linear_velocity().length() < 1e-3));
            (w.wide.listed(), w.wide.unit_count())
        };
        let (listed, units) = run(false);
        let (earliest, earliest_units) = run(true);
        assert!(listed && !earliest);
        assert!(
            units < earliest_units,
            "{units} units list-scheduled, {earliest_units} at the earliest levels"
        );
    }

    /// `sweep_again` runs sweeps over the last step's rows and counts them as a step
    /// does, and moves no body; before any step there is nothing to sweep.
    #[test]
    fn sweeping_again_counts_its_row_updates_and_moves_nothing() {
        let mut w = World::new(Settings::without_sleeping());
        assert_eq!(w.sweep_again(3), 0);
        ground_and_pyramid(&mut w, 5, 1.0, -2.5);
        for _ in 0..30 {
            w.step().unwrap();
        }
        let rows = w.stats().rows as u64;
        assert!(rows > 0);
        let before: Vec<u32> = state_bits(&w).collect();
        // Friction rows in the first and last of three sweeps (stride 2): 2 × all
        // rows and the normal rows once.
        assert_eq!(w.sweep_again(3), 2 * rows + rows / 3);
        // (All three swept, though the resting pyramid's steps settle into one.)
        assert!(w.stats().iterations < 12, "{} sweeps", w.stats().iterations);
        assert_eq!(w.wide.group_sweeps(), 3);
        assert_eq!(w.sweep_again(1), rows);
        assert_eq!(state_bits(&w).collect::<Vec<_>>(), before);
        w.step().unwrap();
        // Every body asleep: the step solved nothing, and there is nothing to sweep.
        let mut w = World::new(Settings::default());
        ground_and_pyramid(&mut w, 3, 1.0, -1.5);
        for _ in 0..240 {
            w.step().unwrap();
        }
        assert_eq!(w.stats().awake_bodies, 0);
        assert_eq!(w.sweep_again(3), 0);
    }

    /// After `reserve(n)`, adding `n` one-collider bodies moves none of the world's
    /// per-body arrays (they were not reallocated), and the arrays hold exactly `n`
    /// (growing by doubling, 821 bodies would sit in arrays of 1024).
    #[test]
    fn reserve_makes_room_for_the_bodies_to_come() {
        let mut w = World::new(Settings::default());
        let n = 821;
        w.reserve(n);
        let before = (
            w.bodies.slots_ptr(),
            w.colliders.shapes.as_ptr() as usize,
            w.colliders.poses.as_ptr() as usize,
        );
        for i in 0..n {
            w.add_body(
                BodyBuilder::dynamic()
                    .position(glam::Vec3::new(i as f32 * 1.1, 0.5, 0.0))
                    .collider(Collider::cuboid(glam::Vec3::splat(0.5))),
            )
            .unwrap();
        }
        let after = (
            w.bodies.slots_ptr(),
            w.colliders.shapes.as_ptr() as usize,
            w.colliders.poses.as_ptr() as usize,
        );
        assert_eq!(before, after);
        assert_eq!(w.colliders.shapes.capacity(), n);
        assert_eq!(w.bodies.capacity_of_slots(), n);
        // Each body keeps its one collider in a list of one (not the four a first push
        // reserves).
        for &slot in w.bodies.order() {
            assert_eq!(w.bodies.slot(slot).colliders.capacity(), 1);
        }
    }
}
