//! Build a `thud_dynamics::World` from a `thud_scene::Scene` (the standard scenes).
//!
//! Shared by `examples/scene_metrics.rs`, the root `tests/stacking.rs` and
//! `benches/step.rs` (included by path) until the facade offers one converter.

#![allow(dead_code)]

use glam::Vec3;
use thud_dynamics::{BodyBuilder, BodyHandle, Collider, Pose, Settings, World};
use thud_scene::schema::{BodyKindDef, Scene, ShapeDef};

/// The collider of a shape definition.
pub fn collider(shape: &ShapeDef) -> Collider {
    match *shape {
        ShapeDef::Cuboid { half_extents } => Collider::cuboid(half_extents),
        ShapeDef::Sphere { radius } => Collider::sphere(radius),
        ShapeDef::Capsule {
            half_height,
            radius,
        } => Collider::capsule(half_height, radius),
        ShapeDef::Cylinder {
            half_height,
            radius,
        } => Collider::cylinder(half_height, radius),
        ShapeDef::Halfspace { normal } => Collider::halfspace(normal),
    }
}

/// The world settings of a scene on top of `base` (the engine's defaults).
pub fn settings(scene: &Scene, mut base: Settings) -> Settings {
    base.dt = scene.settings.dt;
    base.gravity = scene.settings.gravity;
    base.sleeping = scene.settings.sleeping;
    if let Some(n) = scene.settings.substeps {
        base.substeps = n;
    }
    if let Some(n) = scene.settings.iterations {
        base.iterations = n;
    }
    base
}

/// A world holding the scene's bodies, in the scene's order.
pub fn world(scene: &Scene, base: Settings) -> (World, Vec<BodyHandle>) {
    let mut world = World::new(settings(scene, base));
    let mut handles = Vec::with_capacity(scene.bodies.len());
    for b in &scene.bodies {
        let (friction, restitution, density) =
            match b.material.as_ref().and_then(|m| scene.materials.get(m)) {
                Some(m) => (m.friction, m.restitution, m.density.unwrap_or(b.density)),
                None => (b.friction, b.restitution, b.density),
            };
        let mut builder = match b.kind {
            BodyKindDef::Dynamic => BodyBuilder::dynamic(),
            BodyKindDef::Kinematic => BodyBuilder::kinematic(),
            BodyKindDef::Static => BodyBuilder::fixed(),
        }
        .position(b.position)
        .rotation(b.resolved_rotation())
        .linear_velocity(b.velocity)
        .angular_velocity(b.angular_velocity)
        .can_sleep(b.can_sleep);
        let shapes: Vec<(Pose, &ShapeDef)> = if b.parts.is_empty() {
            vec![(Pose::IDENTITY, &b.shape)]
        } else {
            b.parts
                .iter()
                .map(|p| (Pose::new(p.position, p.rotation), &p.shape))
                .collect()
        };
        for (pose, shape) in shapes {
            builder = builder.collider(
                collider(shape)
                    .local_pose(pose)
                    .friction(friction)
                    .restitution(restitution)
                    .density(density),
            );
        }
        if let Some(m) = b.mass {
            builder = builder.mass(m);
        }
        handles.push(world.add_body(builder).expect("standard scene body"));
    }
    (world, handles)
}

/// The figures of `shared/scenes.md` for a resting scene.
#[derive(Debug, Clone, Copy, Default)]
pub struct Metrics {
    /// Largest horizontal displacement of any dynamic body from its start (m).
    pub drift: f32,
    /// Ideal top y minus the top box's y (m).
    pub sag: f32,
    /// max E(t) − E(0) (J).
    pub energy_rise: f32,
    /// max over t of E(t) − min over s ≤ t of E(s) (J).
    pub energy_rebound: f32,
    /// Bodies faster than 0.1 m/s at the end.
    pub still_moving: usize,
    /// Mean and max wall time of a step (s).
    pub mean_step: f64,
    /// Max step time (s).
    pub max_step: f64,
}

/// Total energy with g = 9.81 as `scenes.md` defines it.
pub fn energy(world: &World) -> f64 {
    world
        .bodies()
        .filter(|(_, b)| b.kind() == thud_dynamics::BodyKind::Dynamic)
        .map(|(_, b)| {
            f64::from(b.kinetic_energy())
                + f64::from(b.mass()) * 9.81 * f64::from(b.center_of_mass().y)
        })
        .sum()
}

/// Run `steps` steps of a scene and measure.
pub fn run(scene: &Scene, base: Settings, steps: usize) -> (World, Metrics) {
    let (mut world, handles) = world(scene, base);
    let starts: Vec<Vec3> = handles
        .iter()
        .map(|&h| world.body(h).unwrap().position())
        .collect();
    let top = thud_scene::standard::ideal_top(scene);
    let e0 = energy(&world);
    let mut m = Metrics::default();
    let mut e_min = e0;
    let mut total = 0.0;
    for _ in 0..steps {
        let t = std::time::Instant::now();
        world.step().expect("step");
        let dt = t.elapsed().as_secs_f64();
        total += dt;
        m.max_step = m.max_step.max(dt);
        let e = energy(&world);
        m.energy_rise = m.energy_rise.max((e - e0) as f32);
        e_min = e_min.min(e);
        m.energy_rebound = m.energy_rebound.max((e - e_min) as f32);
    }
    m.mean_step = total / steps.max(1) as f64;
    for (i, &h) in handles.iter().enumerate() {
        let b = world.body(h).unwrap();
        if b.kind() != thud_dynamics::BodyKind::Dynamic {
            continue;
        }
        let d = b.position() - starts[i];
        m.drift = m.drift.max(Vec3::new(d.x, 0.0, d.z).length());
        if b.linear_velocity().length() > 0.1 {
            m.still_moving += 1;
        }
    }
    if let Some((i, y)) = top {
        m.sag = y - world.body(handles[i]).unwrap().position().y;
    }
    (world, m)
}
