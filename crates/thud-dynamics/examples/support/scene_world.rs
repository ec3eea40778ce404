//! Build a `thud_dynamics::World` from a `thud_scene::Scene` (the standard scenes).
//!
//! Shared by `examples/scene_metrics.rs`, `examples/towers.rs`, the root tests
//! (`stacking`, `allocation`, `threads`, `pinned_state`) and `benches/step.rs`
//! (included by path) until the facade offers one converter.

#![allow(dead_code)]

use glam::Vec3;
use thud_dynamics::{BodyHandle, Settings, World};
use thud_scene::instantiate::{build_world_with, settings_on};
use thud_scene::metrics::{PlacedShape, STILL_MOVING_SPEED};
use thud_scene::schema::Scene;

/// A world holding the scene's bodies, in the scene's order, with the scene's settings
/// on top of `base` (built by the scene library's own `instantiate`, so every user
/// builds bodies one way).
pub fn world(scene: &Scene, base: Settings) -> (World, Vec<BodyHandle>) {
    let settings = settings_on(&scene.settings, base);
    build_world_with(settings, &scene.bodies).expect("standard scene bodies")
}

/// A column of `n` unit boxes (the standard scenes' boxes: density 1, 1 kg) standing
/// on the ground at x = `x`, z = 0, bottom first: a small stack the exact mode takes, to
/// set beside a standard scene.
pub fn stand_column(world: &mut World, x: f32, n: usize) -> Vec<BodyHandle> {
    (0..n)
        .map(|k| {
            let b = thud_dynamics::BodyBuilder::dynamic()
                .position(Vec3::new(x, 0.5 + k as f32, 0.0))
                .collider(thud_dynamics::Collider::cuboid(Vec3::splat(0.5)));
            world.add_body(b).expect("column box")
        })
        .collect()
}

/// `count` towers of `n` unit boxes (`thud_scene::standard::tower`) in a row along x,
/// 3 m apart, on the standard ground: rows of small stacks, each an island the exact
/// mode may take (`docs/dynamics.md`, *Many small stacks*).
pub fn tower_row(count: usize, n: u32) -> Scene {
    let mut scene = thud_scene::standard::tower(n);
    let tower: Vec<_> = scene
        .bodies
        .iter()
        .filter(|b| b.kind == thud_scene::schema::BodyKindDef::Dynamic)
        .cloned()
        .collect();
    for k in 1..count {
        scene.bodies.extend(tower.iter().map(|b| {
            let mut b = b.clone();
            b.name = format!("{}_{k}", b.name);
            b.position.x += 3.0 * k as f32;
            b
        }));
    }
    if count > 1 {
        scene.name = format!("{count}_towers_of_{n}");
    }
    scene
}

/// A ball of radius 0.3 m hanging on a ball joint from a world anchor at (`x`, 8, 0),
/// released 2 m off to the side at (`x`, 5, 2): a pendulum (a joint elsewhere) to set
/// beside a standard scene.
pub fn hang_pendulum(world: &mut World, x: f32) -> BodyHandle {
    let bob = thud_dynamics::BodyBuilder::dynamic()
        .position(Vec3::new(x, 5.0, 2.0))
        .collider(thud_dynamics::Collider::sphere(0.3));
    let bob = world.add_body(bob).expect("pendulum bob");
    let joint = thud_dynamics::JointBuilder::ball(None, bob).world_anchor(Vec3::new(x, 8.0, 0.0));
    world.add_joint(joint).expect("pendulum joint");
    bob
}

/// A chain of `n` cubes (0.8 m) joined by ball joints 1 m apart, lying on the ground
/// along x from (`x`, 0.4, 0), or (`hanging`) hanging from a world anchor at
/// (`x`, 10, 0) straight out along x, released: an island of joints (a ragdoll at
/// rest, a swinging chain) to set beside a standard scene. Returns the links.
pub fn lay_chain(world: &mut World, x: f32, n: usize, hanging: bool) -> Vec<BodyHandle> {
    let y = if hanging { 10.0 } else { 0.4 };
    let mut links: Vec<BodyHandle> = Vec::new();
    for k in 0..n {
        let at = Vec3::new(x + k as f32 + 0.5, y, 0.0);
        let b = thud_dynamics::BodyBuilder::dynamic()
            .position(at)
            .collider(thud_dynamics::Collider::cuboid(Vec3::splat(0.4)));
        let b = world.add_body(b).expect("chain link");
        let anchor = at - Vec3::new(0.5, 0.0, 0.0);
        let joint = match links.last() {
            Some(&prev) => thud_dynamics::JointBuilder::ball(Some(prev), b),
            None if hanging => thud_dynamics::JointBuilder::ball(None, b),
            None => {
                links.push(b);
                continue;
            }
        };
        world
            .add_joint(joint.world_anchor(anchor))
            .expect("chain joint");
        links.push(b);
    }
    links
}

/// One thing set elsewhere in a standard scene's world, far from its bodies: what a
/// game's world holds beside its stacks (`step_quantiles`, the step bench).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Beside {
    /// A ball hanging on a ball joint at x = −60 m ([`hang_pendulum`]).
    Pendulum,
    /// A kinematic box at x = −80 m moving along z at 1 m/s.
    Kinematic,
    /// A chain of this many joined cubes lying on the ground at x = −100 m
    /// ([`lay_chain`]: an island of joints the exact mode takes, a ragdoll at rest).
    Chain(usize),
    /// A ball of restitution 0.5 resting on the ground at x = 100 m.
    BouncyBall,
    /// A capsule (other inertia than a cube's) rolling along the ground at x = 120 m,
    /// 1 m/s: a body that keeps turning.
    Roller,
}

/// Sets `what` in the world.
pub fn set_beside(world: &mut World, what: Beside) {
    use thud_dynamics::{BodyBuilder, Collider};
    let body = match what {
        Beside::Pendulum => {
            hang_pendulum(world, -60.0);
            return;
        }
        Beside::Chain(n) => {
            lay_chain(world, -100.0, n, false);
            return;
        }
        Beside::Kinematic => BodyBuilder::kinematic()
            .position(Vec3::new(-80.0, 2.0, 0.0))
            .linear_velocity(Vec3::Z)
            .collider(Collider::cuboid(Vec3::ONE)),
        Beside::BouncyBall => BodyBuilder::dynamic()
            .position(Vec3::new(100.0, 0.5, 0.0))
            .collider(Collider::sphere(0.5).restitution(0.5)),
        Beside::Roller => BodyBuilder::dynamic()
            .position(Vec3::new(120.0, 0.3, 0.0))
            .rotation(glam::Quat::from_rotation_x(std::f32::consts::FRAC_PI_2))
            .linear_velocity(Vec3::X)
            .angular_velocity(Vec3::new(0.0, 0.0, -1.0 / 0.3))
            .collider(Collider::capsule(0.5, 0.3)),
    };
    world.add_body(body).expect("a body beside the scene");
}

/// The scene's unit boxes `depth` m deep instead of 1 (half-extent `depth/2` along z):
/// boxes of other inertia than a cube's, as most bodies of a game.
pub fn deepen(scene: &mut Scene, depth: f32) {
    for b in &mut scene.bodies {
        if let thud_scene::ShapeDef::Cuboid { half_extents } = &mut b.shape
            && *half_extents == Vec3::splat(0.5)
        {
            half_extents.z = 0.5 * depth;
        }
    }
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
    /// Islands the exact mode's interior-point rescue solved, over the run.
    pub exact_rescued: usize,
    /// The deepest overlap of two bodies at the end (m; [`max_penetration`]).
    pub max_penetration: f32,
}

/// The deepest overlap (m) of two bodies of `scene` at `world`'s poses, measured from
/// the shapes as the comparison measures it (`thud_scene::metrics::max_penetration`).
pub fn max_penetration(scene: &Scene, world: &World, handles: &[BodyHandle]) -> f32 {
    let mut placed = Vec::new();
    for (i, (def, &h)) in scene.bodies.iter().zip(handles).enumerate() {
        let body = world.body(h).expect("live body");
        let shapes = thud_scene::instantiate::shapes_of(def).expect("standard scene shapes");
        for (local, shape) in shapes {
            placed.push(PlacedShape {
                body: i,
                pose: body.pose().mul(local),
                shape,
                moving: body.kind() != thud_dynamics::BodyKind::Static,
            });
        }
    }
    thud_scene::metrics::max_penetration(&placed).0
}

/// FNV-1a over the bits of every listed body's position, rotation, linear and angular
/// velocity: equal hashes mean bitwise-equal states. (Hand-written rather than
/// `DefaultHasher`, whose output may change between Rust releases.)
pub fn state_hash(world: &World, handles: &[BodyHandle]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in handles {
        let body = world.body(b).expect("live body");
        let p = body.pose();
        let v = [
            p.position.to_array(),
            body.linear_velocity().to_array(),
            body.angular_velocity().to_array(),
        ];
        for x in v.iter().flatten().chain(&p.rotation.to_array()) {
            for byte in x.to_bits().to_le_bytes() {
                h = (h ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
            }
        }
    }
    h
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

/// A push given to one body before one step of a run.
#[derive(Debug, Clone, Copy)]
pub struct Kick {
    /// Before this step (1-based).
    pub step: usize,
    /// The body, by its index in the scene's order.
    pub body: usize,
    /// Added to its linear velocity (m/s).
    pub v: Vec3,
    /// Added to its angular velocity (rad/s).
    pub w: Vec3,
}

/// How a run is disturbed and watched, to see how a scene answers a push
/// (`scene_metrics`: `THUD_KICK`, `THUD_ROCK`, `THUD_TRACE`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Disturb {
    /// A push to one body before one step.
    pub kick: Option<Kick>,
    /// Before the first step every body moves as one rigid body turning at this rate
    /// (rad/s) about the x axis through `(0, 0, 0.5)`: a wall one unit box deep in the
    /// x-y plane rocking out of its plane on its base's far edge.
    pub rock: Option<f32>,
    /// Print each step's energy change (from the start, after the rocking is given),
    /// how many bodies move (speed plus spin above 10⁻⁴), how many still move as the
    /// metrics count them (speed above `STILL_MOVING_SPEED`) and the fastest one, to
    /// stderr.
    pub trace: bool,
}

/// Run `steps` steps of a scene and measure.
pub fn run(scene: &Scene, base: Settings, steps: usize) -> (World, Metrics) {
    run_disturbed(scene, base, steps, Disturb::default())
}

/// [`run`] with a disturbance.
pub fn run_disturbed(
    scene: &Scene,
    base: Settings,
    steps: usize,
    disturb: Disturb,
) -> (World, Metrics) {
    let (mut world, handles) = world(scene, base);
    let starts: Vec<Vec3> = handles
        .iter()
        .map(|&h| world.body(h).unwrap().position())
        .collect();
    if let Some(rate) = disturb.rock {
        let w = Vec3::new(rate, 0.0, 0.0);
        for &h in &handles {
            let p = world.body(h).unwrap().position();
            world
                .set_linear_velocity(h, w.cross(p - Vec3::new(0.0, 0.0, 0.5)))
                .expect("a live body");
            world.set_angular_velocity(h, w).expect("a live body");
        }
    }
    let top = thud_scene::standard::ideal_top(scene);
    let e0 = energy(&world);
    let mut m = Metrics::default();
    let mut e_min = e0;
    let mut total = 0.0;
    for step in 1..=steps {
        if let Some(k) = disturb.kick.filter(|k| k.step == step) {
            let h = handles[k.body];
            let b = world.body(h).expect("a live body");
            let (v, w) = (b.linear_velocity() + k.v, b.angular_velocity() + k.w);
            world.set_linear_velocity(h, v).expect("a live body");
            world.set_angular_velocity(h, w).expect("a live body");
        }
        let t = std::time::Instant::now();
        world.step().expect("step");
        let dt = t.elapsed().as_secs_f64();
        total += dt;
        m.max_step = m.max_step.max(dt);
        m.exact_rescued += world.stats().exact_rescued;
        let e = energy(&world);
        m.energy_rise = m.energy_rise.max((e - e0) as f32);
        e_min = e_min.min(e);
        m.energy_rebound = m.energy_rebound.max((e - e_min) as f32);
        if disturb.trace {
            trace(&world, &handles, step, e - e0);
        }
    }
    m.mean_step = total / steps.max(1) as f64;
    for (i, &h) in handles.iter().enumerate() {
        let b = world.body(h).unwrap();
        if b.kind() != thud_dynamics::BodyKind::Dynamic {
            continue;
        }
        let d = b.position() - starts[i];
        m.drift = m.drift.max(Vec3::new(d.x, 0.0, d.z).length());
        if b.linear_velocity().length() > STILL_MOVING_SPEED {
            m.still_moving += 1;
        }
    }
    if let Some((i, y)) = top {
        m.sag = y - world.body(handles[i]).unwrap().position().y;
    }
    m.max_penetration = max_penetration(scene, &world, &handles);
    (world, m)
}

/// One step's line of [`Disturb::trace`].
fn trace(world: &World, handles: &[BodyHandle], step: usize, energy: f64) {
    let (mut moving, mut still_moving) = (0, 0);
    let mut fastest = (0, 0.0f32);
    for (i, &h) in handles.iter().enumerate() {
        let b = world.body(h).unwrap();
        let motion = b.linear_velocity().length() + b.angular_velocity().length();
        moving += usize::from(motion > 1e-4);
        still_moving += usize::from(b.linear_velocity().length() > STILL_MOVING_SPEED);
        if motion > fastest.1 {
            fastest = (i, motion);
        }
    }
    let b = world.body(handles[fastest.0]).unwrap();
    eprintln!(
        "step {step} energy {energy:+.6} J moving {moving} still moving {still_moving} fastest {} at {:.6?} v {:?} w {:?}",
        fastest.0,
        b.position().to_array(),
        b.linear_velocity().to_array(),
        b.angular_velocity().to_array()
    );
}
