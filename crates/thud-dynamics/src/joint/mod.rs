//! Joints: more rows in the same complementarity problem as the contacts.
//!
//! A joint ties an anchor on body A (or on the static world) to an anchor on body B and
//! adds Jacobian rows in the very 3×6 per-body block form of the contact rows
//! (`jacobian.rs`), solved in the same PGS sweep (joints first, then contacts) and, for
//! hard islands, in the same exact boxed LCP (`exact.rs`):
//!
//! | row | `λ` bounds | used for |
//! |---|---|---|
//! | bilateral | `(−∞, ∞)` | the kept degrees of freedom: point, axis, orientation |
//! | limit | `[0, ∞)` | hinge angle or slider travel at a limit, rope length |
//! | motor | `±max_force·dt` | a velocity target with a bounded force or torque |
//! | soft | `(−∞, ∞)` with compliance | a distance spring (frequency, damping ratio) |
//!
//! Every joint type's rows (`C`, `J`, bounds) are written out in its own file and in
//! `docs/joints.md`. Position drift `C ≠ 0` is corrected like contact penetration: by the
//! split-impulse pass (`b = erp·C/dt` on pseudo-velocities, default), or with Baumgarte
//! in the velocity rows when `PenetrationMode::Baumgarte` is chosen. Limits are
//! speculative (`b = C/dt` while `C > 0`), so a joint approaching its limit fast stops at
//! it instead of overshooting.
//!
//! Joined bodies do not collide with each other unless
//! [`JointBuilder::collide_connected`] asks for it; joints connect islands, so a chain
//! sleeps and wakes as one; removing a body removes its joints.

mod api;
mod ball;
mod distance;
mod fixed;
mod hinge;
mod prismatic;
pub(crate) mod rows;

use glam::{Quat, Vec3};

use crate::body::BodyHandle;
use crate::error::DynamicsError;

/// A typed generational handle to a joint of a [`World`](crate::World).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct JointHandle {
    index: u32,
    generation: u32,
}

impl JointHandle {
    /// The slot index.
    #[must_use]
    pub const fn index(self) -> u32 {
        self.index
    }
}

/// A velocity motor: drive the joint's free coordinate at `target_velocity` (rad/s for
/// a hinge, m/s for a slider) with at most `max_force` (N·m for a hinge, N for a slider).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Motor {
    /// Target rate of the joint coordinate.
    pub target_velocity: f32,
    /// Largest torque (hinge) or force (slider) the motor may apply, ≥ 0.
    pub max_force: f32,
}

/// A soft distance constraint: a damped spring towards `rest_length`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spring {
    /// Length the spring pulls towards (m).
    pub rest_length: f32,
    /// Natural frequency in Hz (> 0).
    pub frequency: f32,
    /// Damping ratio ζ (≥ 0; 1 = critical).
    pub damping_ratio: f32,
}

/// The joint types and their parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum JointKind {
    /// Ball-and-socket: the anchors coincide (3 rows).
    Ball,
    /// Revolute: anchors coincide and B turns about the axis only (5 rows), with an
    /// optional angle range `(min, max)` in radians and a motor.
    Hinge {
        /// Angle limits (rad), `min ≤ max`, measured from the pose at creation.
        limits: Option<(f32, f32)>,
        /// Velocity motor about the axis.
        motor: Option<Motor>,
    },
    /// Weld: no relative motion (6 rows).
    Fixed,
    /// Slider: B keeps A's orientation and moves along the axis only (5 rows), with
    /// optional travel limits `(min, max)` in metres and a motor.
    Prismatic {
        /// Travel limits (m) along the axis from the anchor of A, `min ≤ max`.
        limits: Option<(f32, f32)>,
        /// Velocity motor along the axis.
        motor: Option<Motor>,
    },
    /// Distance between the anchors kept in `[min, max]` (a rod when equal, a rope with
    /// `min = 0`), optionally with a spring towards a rest length inside that range.
    Distance {
        /// Shortest allowed length (m), ≥ 0.
        min: f32,
        /// Longest allowed length (m), ≥ `min`.
        max: f32,
        /// Optional spring.
        spring: Option<Spring>,
    },
}

/// How a joint is described before [`World::add_joint`](crate::World::add_joint).
///
/// Anchors and the axis may be given in world coordinates (converted with the bodies'
/// poses at creation) or in each body's local frame. `a = None` attaches to the static
/// world (its frame is the world frame).
#[derive(Debug, Clone, PartialEq)]
pub struct JointBuilder {
    pub(crate) a: Option<BodyHandle>,
    pub(crate) b: BodyHandle,
    pub(crate) kind: JointKind,
    pub(crate) anchor: AnchorSpec,
    pub(crate) axis: AxisSpec,
    pub(crate) collide_connected: bool,
    pub(crate) break_force: Option<f32>,
    pub(crate) break_torque: Option<f32>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum AnchorSpec {
    World(Vec3),
    Local(Vec3, Vec3),
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum AxisSpec {
    World(Vec3),
    Local(Vec3, Vec3),
}

impl JointBuilder {
    fn new(a: Option<BodyHandle>, b: BodyHandle, kind: JointKind) -> Self {
        Self {
            a,
            b,
            kind,
            anchor: AnchorSpec::Local(Vec3::ZERO, Vec3::ZERO),
            axis: AxisSpec::World(Vec3::X),
            collide_connected: false,
            break_force: None,
            break_torque: None,
        }
    }

    /// A ball-and-socket joint.
    #[must_use]
    pub fn ball(a: Option<BodyHandle>, b: BodyHandle) -> Self {
        Self::new(a, b, JointKind::Ball)
    }

    /// A hinge (no limits, no motor; see [`limits`](Self::limits), [`motor`](Self::motor)).
    #[must_use]
    pub fn hinge(a: Option<BodyHandle>, b: BodyHandle) -> Self {
        Self::new(
            a,
            b,
            JointKind::Hinge {
                limits: None,
                motor: None,
            },
        )
    }

    /// A weld.
    #[must_use]
    pub fn fixed(a: Option<BodyHandle>, b: BodyHandle) -> Self {
        Self::new(a, b, JointKind::Fixed)
    }

    /// A slider.
    #[must_use]
    pub fn prismatic(a: Option<BodyHandle>, b: BodyHandle) -> Self {
        Self::new(
            a,
            b,
            JointKind::Prismatic {
                limits: None,
                motor: None,
            },
        )
    }

    /// A distance joint keeping the anchors between `min` and `max` apart.
    #[must_use]
    pub fn distance(a: Option<BodyHandle>, b: BodyHandle, min: f32, max: f32) -> Self {
        Self::new(
            a,
            b,
            JointKind::Distance {
                min,
                max,
                spring: None,
            },
        )
    }

    /// Both anchors at one world point (converted with the poses at creation).
    #[must_use]
    pub fn world_anchor(mut self, p: Vec3) -> Self {
        self.anchor = AnchorSpec::World(p);
        self
    }

    /// Anchors in each body's frame (for `a = None`, `anchor_a` is a world point).
    #[must_use]
    pub fn local_anchors(mut self, anchor_a: Vec3, anchor_b: Vec3) -> Self {
        self.anchor = AnchorSpec::Local(anchor_a, anchor_b);
        self
    }

    /// The hinge or slider axis in world coordinates at creation (default +x).
    #[must_use]
    pub fn world_axis(mut self, axis: Vec3) -> Self {
        self.axis = AxisSpec::World(axis);
        self
    }

    /// The axis in each body's frame.
    #[must_use]
    pub fn local_axes(mut self, axis_a: Vec3, axis_b: Vec3) -> Self {
        self.axis = AxisSpec::Local(axis_a, axis_b);
        self
    }

    /// Limits `(min, max)` of a hinge (rad) or slider (m); ignored by other kinds.
    #[must_use]
    pub fn limits(mut self, min: f32, max: f32) -> Self {
        match &mut self.kind {
            JointKind::Hinge { limits, .. } | JointKind::Prismatic { limits, .. } => {
                *limits = Some((min, max));
            }
            _ => {}
        }
        self
    }

    /// A motor of a hinge or slider; ignored by other kinds.
    #[must_use]
    pub fn motor(mut self, target_velocity: f32, max_force: f32) -> Self {
        let m = Some(Motor {
            target_velocity,
            max_force,
        });
        match &mut self.kind {
            JointKind::Hinge { motor, .. } | JointKind::Prismatic { motor, .. } => *motor = m,
            _ => {}
        }
        self
    }

    /// A spring of a distance joint; ignored by other kinds.
    #[must_use]
    pub fn spring(mut self, rest_length: f32, frequency: f32, damping_ratio: f32) -> Self {
        if let JointKind::Distance { spring, .. } = &mut self.kind {
            *spring = Some(Spring {
                rest_length,
                frequency,
                damping_ratio,
            });
        }
        self
    }

    /// Let the two bodies collide with each other (off by default).
    #[must_use]
    pub fn collide_connected(mut self, yes: bool) -> Self {
        self.collide_connected = yes;
        self
    }

    /// Break the joint when its constraint force exceeds `force` (N) in a step.
    #[must_use]
    pub fn break_force(mut self, force: f32) -> Self {
        self.break_force = Some(force);
        self
    }

    /// Break the joint when its constraint torque exceeds `torque` (N·m) in a step.
    #[must_use]
    pub fn break_torque(mut self, torque: f32) -> Self {
        self.break_torque = Some(torque);
        self
    }

    /// The kind and its parameters.
    #[must_use]
    pub fn kind(&self) -> &JointKind {
        &self.kind
    }
}

/// Check the parameters of a kind (limits ordered, finite, non-negative forces).
pub(crate) fn validate_kind(kind: &JointKind) -> Result<(), DynamicsError> {
    let range = |lo: f32, hi: f32, what: &'static str| {
        if !(lo.is_finite() && hi.is_finite()) {
            return Err(DynamicsError::NonFinite { what });
        }
        if lo > hi {
            return Err(DynamicsError::InvalidJoint(format!(
                "{what}: min {lo} > max {hi}"
            )));
        }
        Ok(())
    };
    let motor = |m: &Option<Motor>| match m {
        Some(m) if !(m.target_velocity.is_finite() && m.max_force.is_finite()) => {
            Err(DynamicsError::NonFinite {
                what: "joint motor",
            })
        }
        Some(m) if m.max_force < 0.0 => Err(DynamicsError::OutOfRange {
            what: "joint motor max_force",
            value: m.max_force,
        }),
        _ => Ok(()),
    };
    match kind {
        JointKind::Ball | JointKind::Fixed => Ok(()),
        JointKind::Hinge { limits, motor: m } | JointKind::Prismatic { limits, motor: m } => {
            if let Some((lo, hi)) = limits {
                range(*lo, *hi, "joint limits")?;
            }
            if let (JointKind::Hinge { .. }, Some((lo, hi))) = (kind, limits)
                && (*lo < -std::f32::consts::PI || *hi > std::f32::consts::PI)
            {
                return Err(DynamicsError::InvalidJoint(format!(
                    "hinge limits ({lo}, {hi}) must lie within [−π, π]"
                )));
            }
            motor(m)
        }
        JointKind::Distance { min, max, spring } => {
            range(*min, *max, "distance joint min/max")?;
            if *min < 0.0 {
                return Err(DynamicsError::OutOfRange {
                    what: "distance joint min",
                    value: *min,
                });
            }
            if let Some(s) = spring {
                if !(s.rest_length.is_finite()
                    && s.frequency.is_finite()
                    && s.damping_ratio.is_finite())
                {
                    return Err(DynamicsError::NonFinite {
                        what: "joint spring",
                    });
                }
                if s.frequency <= 0.0 || s.damping_ratio < 0.0 || s.rest_length < 0.0 {
                    return Err(DynamicsError::InvalidJoint(format!(
                        "spring needs frequency > 0, damping ≥ 0, rest length ≥ 0: {s:?}"
                    )));
                }
            }
            Ok(())
        }
    }
}

/// A joint in the world: its resolved frames, last impulses and state.
#[derive(Debug, Clone, PartialEq)]
pub struct Joint {
    /// Body slot of A (`None` = the world).
    pub(crate) a: Option<u32>,
    /// Body slot of B.
    pub(crate) b: u32,
    pub(crate) handle_a: Option<BodyHandle>,
    pub(crate) handle_b: BodyHandle,
    pub(crate) kind: JointKind,
    /// Anchors in the bodies' frames (relative to the body origin).
    pub(crate) anchor_a: Vec3,
    pub(crate) anchor_b: Vec3,
    /// Unit axis in each body's frame.
    pub(crate) axis_a: Vec3,
    pub(crate) axis_b: Vec3,
    /// Unit reference vectors ⟂ the axis (hinge angle 0) in each body's frame.
    pub(crate) ref_a: Vec3,
    pub(crate) ref_b: Vec3,
    /// Relative rotation `q_a⁻¹·q_b` at creation (fixed and slider orientation).
    pub(crate) rest_rotation: Quat,
    pub(crate) collide_connected: bool,
    pub(crate) break_force: Option<f32>,
    pub(crate) break_torque: Option<f32>,
    /// Accumulated impulses of the row slots (warm start).
    pub(crate) warm: [f32; rows::SLOTS],
    pub(crate) force: Vec3,
    pub(crate) torque: Vec3,
    pub(crate) broken: bool,
}

impl Joint {
    /// The kind and its parameters.
    #[must_use]
    pub fn kind(&self) -> &JointKind {
        &self.kind
    }

    /// Body A (`None` = the world).
    #[must_use]
    pub fn body_a(&self) -> Option<BodyHandle> {
        self.handle_a
    }

    /// Body B.
    #[must_use]
    pub fn body_b(&self) -> BodyHandle {
        self.handle_b
    }

    /// Force (N, world frame) the joint applied to B during the last step.
    #[must_use]
    pub fn force(&self) -> Vec3 {
        self.force
    }

    /// Torque (N·m, world frame) the joint's angular rows, limits and motor applied to B
    /// during the last step.
    #[must_use]
    pub fn torque(&self) -> Vec3 {
        self.torque
    }

    /// Whether the joint broke (it then adds no rows until removed).
    #[must_use]
    pub fn is_broken(&self) -> bool {
        self.broken
    }

    /// Anchors in A's and B's frames.
    #[must_use]
    pub fn local_anchors(&self) -> (Vec3, Vec3) {
        (self.anchor_a, self.anchor_b)
    }
}

/// The joints of a world: generational slots, like the body set.
#[derive(Debug, Clone, Default)]
pub(crate) struct JointSet {
    slots: Vec<Option<Joint>>,
    generation: Vec<u32>,
    free: Vec<u32>,
    /// Sorted body-slot pairs `(min, max)` that must not collide, with multiplicity.
    no_collide: Vec<(u32, u32)>,
}

impl JointSet {
    pub fn insert(&mut self, j: Joint) -> JointHandle {
        if !j.collide_connected
            && let Some(a) = j.a
        {
            let key = (a.min(j.b), a.max(j.b));
            let at = self.no_collide.partition_point(|&p| p < key);
            self.no_collide.insert(at, key);
        }
        let index = match self.free.pop() {
            Some(i) => i,
            None => {
                self.slots.push(None);
                self.generation.push(0);
                (self.slots.len() - 1) as u32
            }
        };
        self.slots[index as usize] = Some(j);
        JointHandle {
            index,
            generation: self.generation[index as usize],
        }
    }

    pub fn remove(&mut self, h: JointHandle) -> Result<Joint, DynamicsError> {
        self.get(h)?;
        let j = self.slots[h.index as usize].take().expect("checked");
        self.generation[h.index as usize] += 1;
        self.free.push(h.index);
        if !j.collide_connected
            && let Some(a) = j.a
        {
            let key = (a.min(j.b), a.max(j.b));
            if let Ok(at) = self.no_collide.binary_search(&key) {
                self.no_collide.remove(at);
            }
        }
        Ok(j)
    }

    pub fn get(&self, h: JointHandle) -> Result<&Joint, DynamicsError> {
        match self.slots.get(h.index as usize) {
            Some(Some(j)) if self.generation[h.index as usize] == h.generation => Ok(j),
            _ => Err(DynamicsError::InvalidJointHandle(h)),
        }
    }

    pub fn get_mut(&mut self, h: JointHandle) -> Result<&mut Joint, DynamicsError> {
        self.get(h)?;
        Ok(self.slots[h.index as usize].as_mut().expect("checked"))
    }

    /// Live joints with their handles, in slot order.
    pub fn iter(&self) -> impl Iterator<Item = (JointHandle, &Joint)> {
        self.slots.iter().enumerate().filter_map(|(i, s)| {
            s.as_ref().map(|j| {
                (
                    JointHandle {
                        index: i as u32,
                        generation: self.generation[i],
                    },
                    j,
                )
            })
        })
    }

    /// Live joints by slot index, mutable (the solver's write-back).
    pub fn slots_mut(&mut self) -> &mut [Option<Joint>] {
        &mut self.slots
    }

    /// Live joints by slot index.
    pub fn slots(&self) -> &[Option<Joint>] {
        &self.slots
    }

    /// Handles of the joints attached to a body slot.
    pub fn attached_to(&self, slot: u32) -> Vec<JointHandle> {
        self.iter()
            .filter(|(_, j)| j.b == slot || j.a == Some(slot))
            .map(|(h, _)| h)
            .collect()
    }

    /// Whether a joint between these body slots turns their collisions off.
    pub fn excludes(&self, a: u32, b: u32) -> bool {
        !self.no_collide.is_empty() && self.no_collide.binary_search(&(a.min(b), a.max(b))).is_ok()
    }

    pub fn len(&self) -> usize {
        self.slots.iter().filter(|s| s.is_some()).count()
    }
}

/// A unit vector ⟂ `n` (deterministic).
pub(crate) fn perpendicular(n: Vec3) -> Vec3 {
    crate::jacobian::tangents(n).0
}
