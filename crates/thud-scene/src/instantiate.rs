//! Turning scene data into a [`thud_dynamics::World`]: shapes, colliders, bodies,
//! settings, joints. Every failure is a [`SceneError`] naming the body or the joint,
//! never a panic.

use glam::Vec3;
use thud_collide::{Pose, Shape};
use thud_dynamics::{
    BodyBuilder, BodyHandle, BodyKind, Collider, JointBuilder, JointHandle, Settings, World,
};

use crate::error::SceneError;
use crate::schema::{BodyDef, BodyKindDef, JointDef, JointKindDef, Scene, SceneSettings, ShapeDef};

/// The engine shape of a scene shape.
pub fn shape_of(def: &ShapeDef) -> Result<Shape, SceneError> {
    let r = match *def {
        ShapeDef::Cuboid { half_extents } => Shape::cuboid(half_extents),
        ShapeDef::Sphere { radius } => Shape::sphere(radius),
        ShapeDef::Capsule {
            half_height,
            radius,
        } => Shape::capsule(half_height, radius),
        ShapeDef::Cylinder {
            half_height,
            radius,
        } => Shape::cylinder(half_height, radius),
        ShapeDef::Halfspace { normal } => Shape::halfspace(normal.normalize_or(Vec3::Y)),
    };
    r.map_err(|e| SceneError::Engine {
        body: None,
        message: e.to_string(),
    })
}

/// The engine kind of a scene kind.
#[must_use]
pub fn kind_of(kind: BodyKindDef) -> BodyKind {
    match kind {
        BodyKindDef::Dynamic => BodyKind::Dynamic,
        BodyKindDef::Kinematic => BodyKind::Kinematic,
        BodyKindDef::Static => BodyKind::Static,
    }
}

/// The world settings of a scene: the engine's defaults with the scene's dt, gravity,
/// sleeping, and iterations and (solve) substeps where given.
#[must_use]
pub fn settings_of(s: &SceneSettings) -> Settings {
    settings_on(s, Settings::default())
}

/// The scene's dt, gravity, sleeping, and iterations and (solve) substeps where given, on top of
/// `base` (for runs that start from other settings than the defaults, such as timing
/// runs with sleeping off, which then set `sleeping` again).
#[must_use]
pub fn settings_on(s: &SceneSettings, base: Settings) -> Settings {
    let mut out = Settings {
        dt: s.dt,
        gravity: s.gravity,
        sleeping: s.sleeping,
        ..base
    };
    if let Some(i) = s.iterations {
        out.iterations = i;
    }
    if let Some(i) = s.substep_iterations {
        out.substep_iterations = Some(i);
    }
    if let Some(k) = s.friction_stride {
        out.friction_stride = k;
    }
    if let Some(n) = s.substeps {
        out.substeps = n;
    }
    if let Some(n) = s.solve_substeps {
        out.solve_substeps = n;
    }
    if let Some(d) = s.reuse_rows_within {
        out.reuse_rows_within = d;
    }
    if let Some(g) = s.touching_gap {
        out.touching_gap = g;
    }
    if let Some(t) = s.sweep_tolerance {
        out.sweep_tolerance = t;
    }
    out
}

/// The shapes of a body with their poses relative to the body.
pub fn shapes_of(def: &BodyDef) -> Result<Vec<(Pose, Shape)>, SceneError> {
    let with_body = |e: SceneError| match e {
        SceneError::Engine { message, .. } => SceneError::Engine {
            body: Some(def.name.clone()),
            message,
        },
        other => other,
    };
    let mut out = vec![(Pose::IDENTITY, shape_of(&def.shape).map_err(with_body)?)];
    for part in &def.parts {
        out.push((
            Pose::new(part.position, part.rotation),
            shape_of(&part.shape).map_err(with_body)?,
        ));
    }
    Ok(out)
}

/// The builder of a body; `user_data` is stored on the body (the runner uses the
/// body's index in its list).
pub fn builder_of(def: &BodyDef, user_data: u64) -> Result<BodyBuilder, SceneError> {
    let mut b = match def.kind {
        BodyKindDef::Dynamic => BodyBuilder::dynamic(),
        BodyKindDef::Kinematic => BodyBuilder::kinematic(),
        BodyKindDef::Static => BodyBuilder::fixed(),
    }
    .position(def.position)
    .rotation(def.rotation)
    .linear_velocity(def.velocity)
    .angular_velocity(def.angular_velocity)
    .can_sleep(def.can_sleep)
    .user_data(user_data);
    for (pose, shape) in shapes_of(def)? {
        b = b.collider(
            Collider::new(shape)
                .friction(def.friction)
                .restitution(def.restitution)
                .density(def.density)
                .local_pose(pose),
        );
    }
    if let Some(m) = def.mass {
        b = b.mass(m);
    }
    Ok(b)
}

/// Adds a body to a world.
pub fn add_body(
    world: &mut World,
    def: &BodyDef,
    user_data: u64,
) -> Result<BodyHandle, SceneError> {
    let builder = builder_of(def, user_data)?;
    world.add_body(builder).map_err(|e| SceneError::Engine {
        body: Some(def.name.clone()),
        message: e.to_string(),
    })
}

/// A world holding `bodies` (in order) with the scene's `settings`; the handles in the
/// same order.
pub fn build_world(
    settings: &SceneSettings,
    bodies: &[BodyDef],
) -> Result<(World, Vec<BodyHandle>), SceneError> {
    build_world_with(settings_of(settings), bodies)
}

/// A world holding `bodies` (in order) with the given engine settings.
pub fn build_world_with(
    settings: Settings,
    bodies: &[BodyDef],
) -> Result<(World, Vec<BodyHandle>), SceneError> {
    let mut world = World::new(settings);
    world.reserve(bodies.len());
    let mut handles = Vec::with_capacity(bodies.len());
    for (i, def) in bodies.iter().enumerate() {
        handles.push(add_body(&mut world, def, i as u64)?);
    }
    Ok((world, handles))
}

/// The engine builder of a joint; `body` finds the handle of a body by name.
/// `index` is the joint's place in the scene's list, for the error.
pub fn joint_builder_of(
    def: &JointDef,
    index: usize,
    body: impl Fn(&str) -> Option<BodyHandle>,
) -> Result<JointBuilder, SceneError> {
    let find = |name: &str| {
        body(name).ok_or_else(|| SceneError::Joint {
            joint: index,
            message: format!("body `{name}` is not in the world"),
        })
    };
    let a = def.a.as_deref().map(find).transpose()?;
    let b = find(&def.b)?;
    let mut j = match def.kind {
        JointKindDef::Ball => JointBuilder::ball(a, b),
        JointKindDef::Fixed => JointBuilder::fixed(a, b),
        JointKindDef::Hinge { limits_deg, motor } => {
            let mut j = JointBuilder::hinge(a, b);
            if let Some((lo, hi)) = limits_deg {
                j = j.limits(lo.to_radians(), hi.to_radians());
            }
            if let Some(m) = motor {
                j = j.motor(m.target_velocity, m.max_force);
            }
            j
        }
        JointKindDef::Prismatic { limits, motor } => {
            let mut j = JointBuilder::prismatic(a, b);
            if let Some((lo, hi)) = limits {
                j = j.limits(lo, hi);
            }
            if let Some(m) = motor {
                j = j.motor(m.target_velocity, m.max_force);
            }
            j
        }
        JointKindDef::Distance { min, max, spring } => {
            let mut j = JointBuilder::distance(a, b, min, max);
            if let Some(s) = spring {
                j = j.spring(s.rest_length, s.frequency, s.damping_ratio);
            }
            j
        }
    }
    .world_anchor(def.anchor)
    .collide_connected(def.collide_connected);
    if let Some(axis) = def.axis {
        j = j.world_axis(axis);
    }
    if let Some(f) = def.break_force {
        j = j.break_force(f);
    }
    if let Some(t) = def.break_torque {
        j = j.break_torque(t);
    }
    Ok(j)
}

/// Adds a joint to a world (see [`joint_builder_of`]); the engine's refusal is a
/// [`SceneError::Joint`].
pub fn add_joint(
    world: &mut World,
    def: &JointDef,
    index: usize,
    body: impl Fn(&str) -> Option<BodyHandle>,
) -> Result<JointHandle, SceneError> {
    let builder = joint_builder_of(def, index, body)?;
    world.add_joint(builder).map_err(|e| SceneError::Joint {
        joint: index,
        message: e.to_string(),
    })
}

/// A world holding a scene's bodies (in order) and then its joints; the handles of
/// both in the same order.
pub fn build_scene(
    scene: &Scene,
) -> Result<(World, Vec<BodyHandle>, Vec<JointHandle>), SceneError> {
    let (mut world, bodies) = build_world(&scene.settings, &scene.bodies)?;
    let by_name = |name: &str| {
        scene
            .bodies
            .iter()
            .position(|b| b.name == name)
            .map(|i| bodies[i])
    };
    let mut joints = Vec::with_capacity(scene.joints.len());
    for (i, def) in scene.joints.iter().enumerate() {
        joints.push(add_joint(&mut world, def, i, by_name)?);
    }
    Ok((world, bodies, joints))
}
