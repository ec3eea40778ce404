//! The scene description: plain data that a RON file deserializes into and that the
//! standard scene builders produce, so a standard scene and a `.ron` file are one thing.
//!
//! A [`Scene`] holds [`SceneSettings`], named [`MaterialDef`]s, explicit [`BodyDef`]s,
//! repeated [`Pattern`]s (expanded into bodies at load time), a timeline of
//! [`Event`]s, [`Expectation`]s and an optional [`Camera`]. Units are metres,
//! kilograms, seconds, radians (except fields whose name ends in `_deg`); +y is up.
//!
//! Every field but a body's `shape` has a default, so a RON file states only what
//! differs from the standard scenes' conventions: dynamic unit-density bodies with
//! friction 0.6 and restitution 0, gravity (0, −9.81, 0), dt = 1/60 s.

use std::collections::BTreeMap;

use glam::{EulerRot, Quat, Vec3};
use serde::{Deserialize, Serialize};

use crate::expect::Expectation;
use crate::pattern::Pattern;
use crate::timeline::Event;

/// A whole scene: what to build, what happens when, and what must hold.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scene {
    /// Short identifier (`pyramid_20`); the file stem when empty.
    #[serde(default)]
    pub name: String,
    /// What a viewer should see, in a sentence or two.
    #[serde(default)]
    pub description: String,
    /// Default run length in seconds (the command line's `--seconds` overrides it).
    #[serde(default = "default_seconds")]
    pub seconds: f32,
    /// Whether the scene starts exactly at rest (towers, pyramids): the run then
    /// reports drift and sag.
    #[serde(default)]
    pub resting: bool,
    /// World settings.
    #[serde(default)]
    pub settings: SceneSettings,
    /// Named materials bodies may refer to by `material: "name"`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub materials: BTreeMap<String, MaterialDef>,
    /// Bodies, in the order they are added to the world (after which come the
    /// bodies of `patterns`, in order).
    #[serde(default)]
    pub bodies: Vec<BodyDef>,
    /// Repeated layouts, expanded into `bodies` when the scene is loaded.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub patterns: Vec<Pattern>,
    /// Joints between bodies (or a body and the world), added after every body, in
    /// order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub joints: Vec<JointDef>,
    /// Events at given times.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub timeline: Vec<Event>,
    /// Checks at given times.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub expectations: Vec<Expectation>,
    /// Where the renderer looks from; a default view of the scene's bodies when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub camera: Option<Camera>,
}

fn default_seconds() -> f32 {
    10.0
}

impl Default for Scene {
    fn default() -> Self {
        Scene {
            name: String::new(),
            description: String::new(),
            seconds: default_seconds(),
            resting: false,
            settings: SceneSettings::default(),
            materials: BTreeMap::new(),
            bodies: Vec::new(),
            patterns: Vec::new(),
            joints: Vec::new(),
            timeline: Vec::new(),
            expectations: Vec::new(),
            camera: None,
        }
    }
}

impl Scene {
    /// Number of bodies of the given kind among `bodies` (patterns not expanded).
    #[must_use]
    pub fn count(&self, kind: BodyKindDef) -> usize {
        self.bodies.iter().filter(|b| b.kind == kind).count()
    }

    /// Index of a body in `bodies` by name.
    #[must_use]
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.bodies.iter().position(|b| b.name == name)
    }
}

/// World settings of a scene.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SceneSettings {
    /// Time step, seconds (one step per frame).
    #[serde(default = "default_dt")]
    pub dt: f32,
    /// Substeps per step; the engine's default when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub substeps: Option<u32>,
    /// Solver iterations per solve substep; the engine's default when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub iterations: Option<u32>,
    /// Solver iterations in each solve substep after the first; `iterations` when
    /// absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub substep_iterations: Option<u32>,
    /// Friction rows in the first sweep of a solve, every `friction_stride`-th after it
    /// and the last (1: every sweep); the engine's default when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub friction_stride: Option<u32>,
    /// Solve substeps per (sub)step; the engine's default when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solve_substeps: Option<u32>,
    /// A step keeps the rows of an earlier one while its contact points' lever arms
    /// stay within this distance (m) of what they were built from (0: build every step);
    /// the engine's default when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reuse_rows_within: Option<f32>,
    /// A resting contact's gap (m) that counts as touching, where its manifold lies
    /// flat (`Settings::touching_gap`); the engine's default (1e-5) when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub touching_gap: Option<f32>,
    /// How far a sweep may still move a contact's bodies (m/s) for a solve substep's
    /// rows to count as settled, the next one then running one sweep
    /// (`Settings::sweep_tolerance`; 0: every sweep always); the engine's default
    /// (1e-6) when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sweep_tolerance: Option<f32>,
    /// Gravity, m/s².
    #[serde(default = "default_gravity")]
    pub gravity: Vec3,
    /// Whether bodies at rest fall asleep.
    #[serde(default = "default_true")]
    pub sleeping: bool,
}

fn default_dt() -> f32 {
    1.0 / 60.0
}
fn default_gravity() -> Vec3 {
    Vec3::new(0.0, -9.81, 0.0)
}
fn default_true() -> bool {
    true
}

impl Default for SceneSettings {
    fn default() -> Self {
        SceneSettings {
            dt: default_dt(),
            substeps: None,
            iterations: None,
            substep_iterations: None,
            friction_stride: None,
            solve_substeps: None,
            reuse_rows_within: None,
            touching_gap: None,
            sweep_tolerance: None,
            gravity: default_gravity(),
            sleeping: true,
        }
    }
}

/// A named material.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MaterialDef {
    /// Coulomb friction coefficient (combined as √(μa·μb)).
    #[serde(default = "default_friction")]
    pub friction: f32,
    /// Restitution (combined as the max of the two).
    #[serde(default)]
    pub restitution: f32,
    /// Density, kg/m³, replacing the body's when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub density: Option<f32>,
}

/// How a body moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum BodyKindDef {
    /// Moved by forces and contacts.
    #[default]
    Dynamic,
    /// Moved by its velocity only; pushes dynamic bodies, is not pushed.
    Kinematic,
    /// Never moves.
    Static,
}

/// A collision shape, in the body's (or the part's) local frame.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum ShapeDef {
    /// A box.
    Cuboid {
        /// Half extents along local x, y, z.
        half_extents: Vec3,
    },
    /// A ball.
    Sphere {
        /// Radius.
        radius: f32,
    },
    /// A capsule along local +y: a segment of length `2·half_height` swept by `radius`.
    Capsule {
        /// Half length of the inner segment.
        half_height: f32,
        /// Radius.
        radius: f32,
    },
    /// A cylinder along local +y.
    Cylinder {
        /// Half height.
        half_height: f32,
        /// Radius.
        radius: f32,
    },
    /// The half-space below a plane through the body's origin (static bodies only).
    Halfspace {
        /// Outward unit normal.
        normal: Vec3,
    },
}

impl ShapeDef {
    /// A cuboid with the given half extents.
    #[must_use]
    pub const fn cuboid(half_extents: Vec3) -> ShapeDef {
        ShapeDef::Cuboid { half_extents }
    }

    /// A conservative bounding radius about the shape's origin (infinite for half-spaces).
    #[must_use]
    pub fn bounding_radius(&self) -> f32 {
        match *self {
            ShapeDef::Cuboid { half_extents } => half_extents.length(),
            ShapeDef::Sphere { radius } => radius,
            ShapeDef::Capsule {
                half_height,
                radius,
            } => half_height + radius,
            ShapeDef::Cylinder {
                half_height,
                radius,
            } => (half_height * half_height + radius * radius).sqrt(),
            ShapeDef::Halfspace { .. } => f32::INFINITY,
        }
    }
}

/// An extra shape of a body, placed relative to the body's origin.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PartDef {
    /// The shape.
    pub shape: ShapeDef,
    /// Offset from the body's origin, in the body frame.
    #[serde(default)]
    pub position: Vec3,
    /// Rotation relative to the body.
    #[serde(default)]
    pub rotation: Quat,
}

/// One body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BodyDef {
    /// Unique name, used by events, expectations and the trajectory; `body_N` (N the
    /// index in the world) when empty.
    #[serde(default)]
    pub name: String,
    /// Dynamic, kinematic or static.
    #[serde(default)]
    pub kind: BodyKindDef,
    /// The body's shape, at the body's origin.
    pub shape: ShapeDef,
    /// Further shapes making the body a compound.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<PartDef>,
    /// Centre, world frame, metres.
    #[serde(default)]
    pub position: Vec3,
    /// Orientation, a unit quaternion `(x, y, z, w)`.
    #[serde(default)]
    pub rotation: Quat,
    /// Orientation as `Quat::from_euler(EulerRot::YXZ, y, x, z)` with the three angles
    /// in degrees (about y, then x, then z); folded into `rotation` at load time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub euler_deg: Option<Vec3>,
    /// Linear velocity, m/s.
    #[serde(default)]
    pub velocity: Vec3,
    /// Angular velocity, rad/s.
    #[serde(default)]
    pub angular_velocity: Vec3,
    /// Friction coefficient.
    #[serde(default = "default_friction")]
    pub friction: f32,
    /// Restitution.
    #[serde(default)]
    pub restitution: f32,
    /// Density, kg/m³.
    #[serde(default = "default_density")]
    pub density: f32,
    /// Mass override, kg (inertia scaled to match).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mass: Option<f32>,
    /// Name of a material of the scene, replacing `friction`, `restitution` (and
    /// `density` when the material gives one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub material: Option<String>,
    /// Whether the body may fall asleep.
    #[serde(default = "default_true")]
    pub can_sleep: bool,
}

fn default_friction() -> f32 {
    0.6
}
fn default_density() -> f32 {
    1.0
}

impl BodyDef {
    /// A dynamic body with the standard scenes' material (friction 0.6, restitution 0,
    /// density 1) at rest at `position`.
    #[must_use]
    pub fn new(name: impl Into<String>, shape: ShapeDef, position: Vec3) -> BodyDef {
        BodyDef {
            name: name.into(),
            kind: BodyKindDef::Dynamic,
            shape,
            parts: Vec::new(),
            position,
            rotation: Quat::IDENTITY,
            euler_deg: None,
            velocity: Vec3::ZERO,
            angular_velocity: Vec3::ZERO,
            friction: default_friction(),
            restitution: 0.0,
            density: default_density(),
            mass: None,
            material: None,
            can_sleep: true,
        }
    }

    /// The same body, of another kind.
    #[must_use]
    pub fn with_kind(mut self, kind: BodyKindDef) -> BodyDef {
        self.kind = kind;
        self
    }

    /// The same body, with another orientation.
    #[must_use]
    pub fn with_rotation(mut self, rotation: Quat) -> BodyDef {
        self.rotation = rotation;
        self
    }

    /// The orientation with `euler_deg` applied (it wins over `rotation` when set).
    #[must_use]
    pub fn resolved_rotation(&self) -> Quat {
        match self.euler_deg {
            Some(e) => Quat::from_euler(
                EulerRot::YXZ,
                e.x.to_radians(),
                e.y.to_radians(),
                e.z.to_radians(),
            ),
            None => self.rotation,
        }
    }
}

/// A joint between two bodies of the scene, or between a body and the static world.
///
/// Anchor and axis are world coordinates at creation (the bodies' start poses); hinge
/// angles and slider travel are measured from that pose.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JointDef {
    /// The joint type and its parameters.
    pub kind: JointKindDef,
    /// Name of body A; the static world when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub a: Option<String>,
    /// Name of body B.
    pub b: String,
    /// The joint's anchor, a world point at creation (both bodies' anchors).
    #[serde(default)]
    pub anchor: Vec3,
    /// Hinge or slider axis in world coordinates at creation; +x when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub axis: Option<Vec3>,
    /// Whether the two joined bodies collide with each other.
    #[serde(default)]
    pub collide_connected: bool,
    /// The joint breaks when its force exceeds this (N) in a step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub break_force: Option<f32>,
    /// The joint breaks when its torque exceeds this (N·m) in a step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub break_torque: Option<f32>,
}

impl JointDef {
    /// A joint of `kind` from `a` (the world when `None`) to `b` at the world point
    /// `anchor`, axis +x, joined bodies not colliding, unbreakable.
    #[must_use]
    pub fn new(
        kind: JointKindDef,
        a: Option<&str>,
        b: impl Into<String>,
        anchor: Vec3,
    ) -> JointDef {
        JointDef {
            kind,
            a: a.map(str::to_string),
            b: b.into(),
            anchor,
            axis: None,
            collide_connected: false,
            break_force: None,
            break_torque: None,
        }
    }
}

/// The joint types of a [`JointDef`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum JointKindDef {
    /// Ball-and-socket: the anchors stay together, any rotation is free.
    Ball,
    /// Revolute: the anchors stay together and B turns about the axis only.
    Hinge {
        /// Angle range `(min, max)`, degrees, within [−180, 180]; free when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        limits_deg: Option<(f32, f32)>,
        /// A velocity motor about the axis (rad/s, N·m).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        motor: Option<MotorDef>,
    },
    /// Weld: no relative motion.
    Fixed,
    /// Slider: B keeps A's orientation and moves along the axis only.
    Prismatic {
        /// Travel range `(min, max)`, metres along the axis; free when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        limits: Option<(f32, f32)>,
        /// A velocity motor along the axis (m/s, N).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        motor: Option<MotorDef>,
    },
    /// The anchors' distance kept within `[min, max]` metres (a rod when equal, a rope
    /// with `min = 0`).
    Distance {
        /// Shortest length, metres.
        #[serde(default)]
        min: f32,
        /// Longest length, metres.
        max: f32,
        /// An optional spring towards a rest length.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        spring: Option<SpringDef>,
    },
}

/// A velocity motor of a hinge or slider.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MotorDef {
    /// Target rate: rad/s for a hinge, m/s for a slider.
    pub target_velocity: f32,
    /// Largest torque (N·m, hinge) or force (N, slider) the motor applies, ≥ 0.
    pub max_force: f32,
}

/// A damped spring of a distance joint.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpringDef {
    /// Length the spring pulls towards, metres.
    pub rest_length: f32,
    /// Natural frequency, Hz (> 0).
    pub frequency: f32,
    /// Damping ratio (≥ 0; 1 is critical).
    #[serde(default)]
    pub damping_ratio: f32,
}

/// Where the renderer's camera sits and what it looks at.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Camera {
    /// Eye position.
    pub eye: Vec3,
    /// Point looked at.
    pub target: Vec3,
    /// Vertical field of view, degrees.
    #[serde(default = "default_fov")]
    pub fov_deg: f32,
    /// Image width, pixels (16..=2048).
    #[serde(default = "default_width")]
    pub width: u32,
    /// Image height, pixels (16..=2048).
    #[serde(default = "default_height")]
    pub height: u32,
}

fn default_fov() -> f32 {
    45.0
}
fn default_width() -> u32 {
    480
}
fn default_height() -> u32 {
    320
}

impl Camera {
    /// A camera at `eye` looking at `target` with the default lens and image size.
    #[must_use]
    pub fn looking(eye: Vec3, target: Vec3) -> Camera {
        Camera {
            eye,
            target,
            fov_deg: default_fov(),
            width: default_width(),
            height: default_height(),
        }
    }
}
