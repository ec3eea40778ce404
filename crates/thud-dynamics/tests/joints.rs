//! Joints against physics (issue 7, item 7): pendulum period, motors, limits, the
//! heavy-on-light chain in exact mode against PGS alone, energy of a free chain, springs,
//! break thresholds, force read-back and bad input.

use glam::Vec3;
use thud_dynamics::{
    BodyBuilder, BodyHandle, Collider, DynamicsError, JointBuilder, JointHandle, Settings,
    SolverMode, World,
};

const G: f32 = 9.81;

fn settings() -> Settings {
    Settings::without_sleeping()
}

/// A ball of radius `r` and mass `m` at `p`.
fn ball(w: &mut World, p: Vec3, r: f32, m: f32) -> BodyHandle {
    w.add_body(
        BodyBuilder::dynamic()
            .position(p)
            .mass(m)
            .collider(Collider::sphere(r)),
    )
    .unwrap()
}

/// Times of upward zero crossings of `x(t)` (linear interpolation between steps).
fn crossings(xs: &[f32], dt: f32) -> Vec<f32> {
    xs.windows(2)
        .enumerate()
        .filter(|(_, w)| w[0] < 0.0 && w[1] >= 0.0)
        .map(|(i, w)| (i as f32 + w[0] / (w[0] - w[1])) * dt)
        .collect()
}

/// Mean period from upward zero crossings.
fn period(xs: &[f32], dt: f32) -> f32 {
    let c = crossings(xs, dt);
    assert!(c.len() >= 3, "too few crossings: {c:?}");
    (c[c.len() - 1] - c[0]) / (c.len() - 1) as f32
}

#[test]
fn small_angle_pendulum_period_is_2_pi_sqrt_l_over_g() {
    let mut w = World::new(settings());
    let (l, r, m) = (1.0f32, 0.05f32, 1.0f32);
    let theta0 = 0.05f32;
    let pivot = Vec3::new(0.0, 3.0, 0.0);
    let bob = ball(
        &mut w,
        pivot + Vec3::new(l * theta0.sin(), -l * theta0.cos(), 0.0),
        r,
        m,
    );
    w.add_joint(JointBuilder::ball(None, bob).world_anchor(pivot))
        .unwrap();
    let dt = w.settings().dt;
    let xs: Vec<f32> = (0..600)
        .map(|_| {
            w.step().unwrap();
            w.body(bob).unwrap().position().x
        })
        .collect();
    // A physical pendulum: I_pivot = I_cm + m·L², T = 2π·√(I_pivot / (m·g·L)); for a
    // small ball this is within 0.1% of 2π·√(L/g).
    let i_pivot = 0.4 * m * r * r + m * l * l;
    let expected = std::f32::consts::TAU * (i_pivot / (m * G * l)).sqrt();
    let simple = std::f32::consts::TAU * (l / G).sqrt();
    let t = period(&xs, dt);
    assert!(
        (t - expected).abs() < 0.01 * expected,
        "T = {t}, expected {expected}"
    );
    assert!(
        (t - simple).abs() < 0.01 * simple,
        "T = {t}, 2π√(L/g) = {simple}"
    );
    // The rod keeps its length.
    let d = (w.body(bob).unwrap().position() - pivot).length();
    assert!((d - l).abs() < 1e-3 * l, "length {d}");
}

/// A wheel (cylinder about z, 2 kg) on a hinge to the world at its centre.
fn wheel(w: &mut World, target: f32, torque: f32) -> (BodyHandle, thud_dynamics::JointHandle) {
    let c = Vec3::new(0.0, 2.0, 0.0);
    let body = w
        .add_body(
            BodyBuilder::dynamic()
                .position(c)
                .rotation(glam::Quat::from_rotation_x(std::f32::consts::FRAC_PI_2))
                .mass(2.0)
                .collider(Collider::cylinder(0.1, 0.5)),
        )
        .unwrap();
    let j = w
        .add_joint(
            JointBuilder::hinge(None, body)
                .world_anchor(c)
                .world_axis(Vec3::Z)
                .motor(target, torque),
        )
        .unwrap();
    (body, j)
}

#[test]
fn hinge_motor_reaches_its_target_speed_within_its_torque_limit() {
    let mut w = World::new(settings());
    let (target, torque) = (3.0, 0.5);
    let (body, _) = wheel(&mut w, target, torque);
    let izz = w.body(body).unwrap().inertia_local().y_axis.y; // cylinder axis = local y
    let dt = w.settings().dt;
    w.step().unwrap();
    let w1 = w.body(body).unwrap().angular_velocity().z;
    // One step can gain at most τ·dt / I.
    assert!(
        w1 > 0.0 && w1 <= torque * dt / izz * 1.001,
        "{w1} vs {}",
        torque * dt / izz
    );
    // The torque limit decides the spin-up time: t = I·ω / τ.
    let t_up = izz * target / torque;
    let steps = (2.0 * t_up / dt) as usize + 10;
    for _ in 0..steps {
        w.step().unwrap();
    }
    let wz = w.body(body).unwrap().angular_velocity();
    assert!((wz.z - target).abs() < 0.01 * target, "{wz}");
    assert!(wz.x.abs() < 1e-3 && wz.y.abs() < 1e-3, "wobble {wz}");
    let p = w.body(body).unwrap().position();
    assert!((p - Vec3::new(0.0, 2.0, 0.0)).length() < 1e-3, "{p}");
}

#[test]
fn hinge_limits_hold_within_half_a_degree() {
    let mut w = World::new(settings());
    // A bar hanging from a hinge about z, kicked hard towards its limits.
    let pivot = Vec3::new(0.0, 3.0, 0.0);
    let bar = w
        .add_body(
            BodyBuilder::dynamic()
                .position(pivot - Vec3::new(0.0, 0.5, 0.0))
                .mass(1.0)
                .collider(Collider::cuboid(Vec3::new(0.05, 0.5, 0.05))),
        )
        .unwrap();
    let (lo, hi) = (-0.4f32, 0.6f32);
    let j = w
        .add_joint(
            JointBuilder::hinge(None, bar)
                .world_anchor(pivot)
                .world_axis(Vec3::Z)
                .limits(lo, hi),
        )
        .unwrap();
    // Spin the bar about the pivot at ω (the centre moves at ω × (c − pivot)).
    let kick = |w: &mut World, omega: f32| {
        let c = w.body(bar).unwrap().position();
        let spin = Vec3::new(0.0, 0.0, omega);
        w.set_angular_velocity(bar, spin).unwrap();
        w.set_linear_velocity(bar, spin.cross(c - pivot)).unwrap();
    };
    kick(&mut w, 8.0);
    let tol = 0.5f32.to_radians();
    let (mut min, mut max) = (0.0f32, 0.0f32);
    for step in 0..600 {
        if step == 200 {
            kick(&mut w, -10.0);
        }
        w.step().unwrap();
        let a = w.joint_coordinate(j).unwrap().unwrap();
        min = min.min(a);
        max = max.max(a);
    }
    assert!(max <= hi + tol, "upper limit exceeded: {max}");
    assert!(min >= lo - tol, "lower limit exceeded: {min}");
    assert!(
        max > hi - 0.05 && min < lo + 0.05,
        "limits never reached: {min}..{max}"
    );
}

/// A chain of `n` 1 kg links (0.5 m apart, ball joints at their ends) from a world
/// anchor, with an `end_mass` ball at the bottom; returns (top anchor, end body, length).
fn hanging_chain(w: &mut World, n: usize, end_mass: f32) -> (Vec3, BodyHandle, f32) {
    let top = Vec3::new(0.0, 20.0, 0.0);
    let link = 0.5;
    let mut prev: Option<BodyHandle> = None;
    for i in 0..n {
        let centre = top - Vec3::new(0.0, link * (i as f32 + 0.5), 0.0);
        let b = w
            .add_body(
                BodyBuilder::dynamic()
                    .position(centre)
                    .mass(1.0)
                    .collider(Collider::capsule(0.15, 0.08)),
            )
            .unwrap();
        let anchor = centre + Vec3::new(0.0, link / 2.0, 0.0);
        w.add_joint(JointBuilder::ball(prev, b).world_anchor(anchor))
            .unwrap();
        prev = Some(b);
    }
    let end_centre = top - Vec3::new(0.0, link * n as f32 + 0.3, 0.0);
    let end = ball(w, end_centre, 0.3, end_mass);
    w.add_joint(JointBuilder::ball(prev, end).world_anchor(end_centre + Vec3::Y * 0.3))
        .unwrap();
    (top, end, link * n as f32 + 0.3)
}

fn chain_stretch(mode: SolverMode) -> f32 {
    let mut w = World::new(Settings {
        solver_mode: mode,
        ..settings()
    });
    let (top, end, length) = hanging_chain(&mut w, 20, 100.0);
    let mut worst = 0.0f32;
    for _ in 0..300 {
        w.step().unwrap();
        let d = (w.body(end).unwrap().position() - top).length();
        worst = worst.max(d - length);
    }
    worst / length
}

#[test]
fn heavy_on_light_chain_stretches_under_one_percent_in_exact_mode() {
    let exact = chain_stretch(SolverMode::Exact);
    let auto = chain_stretch(SolverMode::Auto);
    let pgs = chain_stretch(SolverMode::Pgs);
    eprintln!(
        "20 links of 1 kg + 100 kg: stretch exact {:.3}%, auto {:.3}%, PGS alone {:.2}%",
        exact * 100.0,
        auto * 100.0,
        pgs * 100.0
    );
    assert!(exact < 0.01, "exact stretch {}%", exact * 100.0);
    assert!(
        auto < 0.01,
        "auto stretch {}% (the rule must pick exact)",
        auto * 100.0
    );
    assert!(
        pgs > 5.0 * exact,
        "PGS {}% vs exact {}%",
        pgs * 100.0,
        exact * 100.0
    );
}

#[test]
fn a_free_swinging_chain_never_gains_energy() {
    let mut w = World::new(settings());
    let top = Vec3::new(0.0, 10.0, 0.0);
    let mut prev = None;
    for i in 0..10 {
        // Start horizontal: links along +x.
        let c = top + Vec3::new(0.5 * (i as f32 + 0.5), 0.0, 0.0);
        let b = ball(&mut w, c, 0.1, 1.0);
        let anchor = c - Vec3::new(0.25, 0.0, 0.0);
        w.add_joint(JointBuilder::ball(prev, b).world_anchor(anchor))
            .unwrap();
        prev = Some(b);
    }
    let e0 = w.total_energy();
    let mut max_rise = 0.0f32;
    for _ in 0..600 {
        w.step().unwrap();
        max_rise = max_rise.max(w.total_energy() - e0);
    }
    // E includes potential energy (≈ 10·9.81·10 J); allow float noise of 1e-4 of it.
    assert!(max_rise <= 1e-4 * e0.abs(), "energy rose by {max_rise} J");
}

#[test]
fn spring_oscillates_at_its_frequency_and_rope_holds_its_length() {
    let mut w = World::new(Settings {
        gravity: Vec3::ZERO,
        ..settings()
    });
    let anchor = Vec3::ZERO;
    let b = ball(&mut w, Vec3::new(1.2, 0.0, 0.0), 0.1, 2.0);
    w.add_joint(
        JointBuilder::distance(None, b, 0.0, 5.0)
            .world_anchor(anchor)
            .local_anchors(anchor, Vec3::ZERO)
            .spring(1.0, 1.0, 0.0),
    )
    .unwrap();
    let dt = w.settings().dt;
    let xs: Vec<f32> = (0..360)
        .map(|_| {
            w.step().unwrap();
            w.body(b).unwrap().position().x - 1.0
        })
        .collect();
    let t = period(&xs, dt);
    assert!((t - 1.0).abs() < 0.03, "spring period {t} s, expected 1 s");

    // A rope of 1 m: a ball thrown away from the anchor stops at 1 m.
    let mut w = World::new(settings());
    let top = Vec3::new(0.0, 5.0, 0.0);
    let b = ball(&mut w, top + Vec3::new(0.5, 0.0, 0.0), 0.1, 1.0);
    w.set_linear_velocity(b, Vec3::new(6.0, 0.0, 0.0)).unwrap();
    w.add_joint(JointBuilder::distance(None, b, 0.0, 1.0).local_anchors(top, Vec3::ZERO))
        .unwrap();
    let mut longest = 0.0f32;
    for _ in 0..300 {
        w.step().unwrap();
        longest = longest.max((w.body(b).unwrap().position() - top).length());
    }
    assert!(longest < 1.0 + 0.01, "rope stretched to {longest}");
    assert!(longest > 0.99, "rope never taut: {longest}");
}

#[test]
fn slider_motor_drives_to_its_limit_and_weld_holds_its_pose() {
    let mut w = World::new(settings());
    let start = Vec3::new(0.0, 2.0, 0.0);
    let cart = w
        .add_body(
            BodyBuilder::dynamic()
                .position(start)
                .mass(1.0)
                .collider(Collider::cuboid(Vec3::splat(0.2))),
        )
        .unwrap();
    let slider = w
        .add_joint(
            JointBuilder::prismatic(None, cart)
                .world_anchor(start)
                .world_axis(Vec3::X)
                .limits(0.0, 1.0)
                .motor(1.0, 50.0),
        )
        .unwrap();
    let dt = w.settings().dt;
    let mut max_s = 0.0f32;
    for step in 0..180 {
        w.step().unwrap();
        let s = w.joint_coordinate(slider).unwrap().unwrap();
        max_s = max_s.max(s);
        if step == 30 {
            // After 0.5 s at 1 m/s (spin-up takes a step): travel ≈ 0.5 m.
            assert!((s - 31.0 * dt).abs() < 0.02, "travel {s}");
        }
    }
    let p = w.body(cart).unwrap().position();
    assert!(max_s <= 1.0 + 0.005, "limit exceeded: {max_s}");
    assert!((p.x - 1.0).abs() < 0.01, "{p}");
    assert!(
        (p.y - start.y).abs() < 1e-3 && p.z.abs() < 1e-3,
        "left the axis: {p}"
    );
    assert!(
        w.body(cart)
            .unwrap()
            .rotation()
            .angle_between(glam::Quat::IDENTITY)
            < 1e-3
    );

    // A weld: an L of two boxes hanging from a ball joint keeps its shape.
    let mut w = World::new(settings());
    let a = w
        .add_body(
            BodyBuilder::dynamic()
                .position(Vec3::new(0.0, 5.0, 0.0))
                .collider(Collider::cuboid(Vec3::new(0.5, 0.1, 0.1))),
        )
        .unwrap();
    let b = w
        .add_body(
            BodyBuilder::dynamic()
                .position(Vec3::new(0.6, 4.5, 0.0))
                .collider(Collider::cuboid(Vec3::new(0.1, 0.5, 0.1))),
        )
        .unwrap();
    w.add_joint(JointBuilder::fixed(Some(a), b).world_anchor(Vec3::new(0.6, 5.0, 0.0)))
        .unwrap();
    w.add_joint(JointBuilder::ball(None, a).world_anchor(Vec3::new(-0.5, 5.0, 0.0)))
        .unwrap();
    let rel0 = {
        let (pa, pb) = (w.body(a).unwrap().pose(), w.body(b).unwrap().pose());
        pa.inverse().mul(pb)
    };
    for _ in 0..300 {
        w.step().unwrap();
    }
    let (pa, pb) = (w.body(a).unwrap().pose(), w.body(b).unwrap().pose());
    let rel = pa.inverse().mul(pb);
    // PGS (16 sweeps) on a swinging two-body weld: measured 2.6 mm.
    assert!((rel.position - rel0.position).length() < 3e-3, "{rel:?}");
    assert!(rel.rotation.angle_between(rel0.rotation) < 2e-3, "{rel:?}");
}

/// A ball of `mass` kg hanging 1 m below a world anchor at (0, 5, 0) on a ball joint
/// that breaks above `break_force` N (∞: never).
fn hanging(mass: f32, break_force: f32) -> (World, BodyHandle, JointHandle) {
    let mut w = World::new(settings());
    let top = Vec3::new(0.0, 5.0, 0.0);
    let b = ball(&mut w, top - Vec3::Y, 0.1, mass);
    let mut joint = JointBuilder::ball(None, b).world_anchor(top);
    if break_force.is_finite() {
        joint = joint.break_force(break_force);
    }
    let j = w.add_joint(joint).unwrap();
    (w, b, j)
}

#[test]
fn joint_force_reads_back_and_joints_break_above_their_threshold() {
    let (mut w, _, j) = hanging(2.0, f32::INFINITY);
    for _ in 0..60 {
        w.step().unwrap();
    }
    let f = w.joint(j).unwrap().force();
    assert!(
        (f - Vec3::new(0.0, 2.0 * G, 0.0)).length() < 0.01 * 2.0 * G,
        "{f}"
    );

    // 10 kg on a joint that breaks above 50 N: breaks at once, then the ball falls.
    let (mut w, b, j) = hanging(10.0, 50.0);
    w.step().unwrap();
    assert!(w.joint(j).unwrap().is_broken());
    assert_eq!(w.stats().joints_broken, 1);
    for _ in 0..30 {
        w.step().unwrap();
    }
    assert!(w.body(b).unwrap().position().y < 5.0 - 1.5);
    // Below the threshold it holds.
    let (mut w, _, j) = hanging(2.0, 50.0);
    for _ in 0..60 {
        w.step().unwrap();
    }
    assert!(!w.joint(j).unwrap().is_broken());
}

#[test]
fn joined_bodies_do_not_collide_unless_asked() {
    for collide in [false, true] {
        let mut w = World::new(Settings {
            gravity: Vec3::ZERO,
            ..settings()
        });
        let a = ball(&mut w, Vec3::ZERO, 0.5, 1.0);
        let b = ball(&mut w, Vec3::new(0.8, 0.0, 0.0), 0.5, 1.0);
        w.add_joint(
            JointBuilder::ball(Some(a), b)
                .world_anchor(Vec3::new(0.4, 0.0, 0.0))
                .collide_connected(collide),
        )
        .unwrap();
        w.step().unwrap();
        assert_eq!(
            w.contacts().count() > 0,
            collide,
            "collide_connected = {collide}"
        );
    }
}

#[test]
fn a_hanging_chain_sleeps_as_one_island_and_a_motor_change_wakes_it() {
    let mut w = World::new(Settings::default());
    let pivot = Vec3::new(0.0, 3.0, 0.0);
    let a = ball(&mut w, pivot - Vec3::Y * 0.5, 0.1, 1.0);
    let b = ball(&mut w, pivot - Vec3::Y * 1.0, 0.1, 1.0);
    let h = w
        .add_joint(
            JointBuilder::hinge(None, a)
                .world_anchor(pivot)
                .world_axis(Vec3::Z),
        )
        .unwrap();
    w.add_joint(JointBuilder::ball(Some(a), b).world_anchor(pivot - Vec3::Y * 0.75))
        .unwrap();
    for _ in 0..120 {
        w.step().unwrap();
    }
    assert!(w.body(a).unwrap().is_sleeping() && w.body(b).unwrap().is_sleeping());
    w.set_joint_motor(
        h,
        Some(thud_dynamics::Motor {
            target_velocity: 1.0,
            max_force: 100.0,
        }),
    )
    .unwrap();
    w.step().unwrap();
    assert!(!w.body(a).unwrap().is_sleeping() && !w.body(b).unwrap().is_sleeping());
}

#[test]
fn bad_joints_are_typed_errors_and_change_nothing() {
    let mut w = World::new(settings());
    let a = ball(&mut w, Vec3::ZERO, 0.1, 1.0);
    let b = ball(&mut w, Vec3::X, 0.1, 1.0);
    let gone = ball(&mut w, Vec3::Y, 0.1, 1.0);
    w.remove_body(gone).unwrap();
    let cases: Vec<(JointBuilder, &str)> = vec![
        (JointBuilder::ball(Some(a), a), "self"),
        (JointBuilder::ball(Some(a), gone), "removed b"),
        (JointBuilder::ball(Some(gone), b), "removed a"),
        (
            JointBuilder::ball(Some(a), b).world_anchor(Vec3::new(f32::NAN, 0.0, 0.0)),
            "NaN anchor",
        ),
        (
            JointBuilder::hinge(Some(a), b).world_axis(Vec3::new(0.0, f32::INFINITY, 0.0)),
            "infinite axis",
        ),
        (
            JointBuilder::hinge(Some(a), b).world_axis(Vec3::ZERO),
            "zero axis",
        ),
        (
            JointBuilder::hinge(Some(a), b).limits(0.5, -0.5),
            "min > max",
        ),
        (
            JointBuilder::prismatic(Some(a), b).limits(2.0, 1.0),
            "slider min > max",
        ),
        (
            JointBuilder::distance(Some(a), b, 2.0, 1.0),
            "distance min > max",
        ),
        (
            JointBuilder::hinge(Some(a), b).motor(1.0, -5.0),
            "negative motor torque",
        ),
        (
            JointBuilder::ball(Some(a), b).break_force(f32::NAN),
            "NaN break force",
        ),
        (
            JointBuilder::distance(Some(a), b, 0.0, 1.0).spring(0.5, 0.0, 1.0),
            "zero spring frequency",
        ),
    ];
    for (builder, what) in cases {
        let r = w.add_joint(builder);
        assert!(
            matches!(
                r,
                Err(DynamicsError::InvalidHandle(_)
                    | DynamicsError::InvalidJoint(_)
                    | DynamicsError::NonFinite { .. }
                    | DynamicsError::OutOfRange { .. })
            ),
            "{what}: {r:?}"
        );
        assert_eq!(w.joint_count(), 0, "{what} left a joint");
    }
    let j = w
        .add_joint(JointBuilder::ball(Some(a), b).world_anchor(Vec3::X * 0.5))
        .unwrap();
    w.remove_joint(j).unwrap();
    assert!(matches!(
        w.remove_joint(j),
        Err(DynamicsError::InvalidJointHandle(_))
    ));
    // Removing a body removes its joints.
    let j = w
        .add_joint(JointBuilder::ball(Some(a), b).world_anchor(Vec3::X * 0.5))
        .unwrap();
    w.remove_body(b).unwrap();
    assert!(w.joint(j).is_err());
    for _ in 0..10 {
        w.step().unwrap();
    }
    assert!(w.body(a).unwrap().position().is_finite());
}

/// Islands are kept from step to step while their inputs stand (`World::find_islands`);
/// a joint between two bodies joins their islands from the step it is added, and
/// breaking or removing it parts them at the next step.
#[test]
fn joints_join_islands_until_they_break_or_go() {
    let mut w = World::new(settings());
    let a = ball(&mut w, Vec3::new(0.0, 50.0, 0.0), 0.1, 1.0);
    let b = ball(&mut w, Vec3::new(1.0, 50.0, 0.0), 0.1, 1.0);
    // (`c` flies off at 20 m/s.)
    let c = w
        .add_body(
            BodyBuilder::dynamic()
                .position(Vec3::new(30.0, 50.0, 0.0))
                .linear_velocity(Vec3::new(20.0, 0.0, 0.0))
                .collider(Collider::sphere(0.1)),
        )
        .unwrap();
    let islands = |w: &mut World| {
        w.step().unwrap();
        w.stats().islands
    };
    assert_eq!(islands(&mut w), 3);
    let ab = w
        .add_joint(JointBuilder::distance(Some(a), b, 0.5, 1.5))
        .unwrap();
    for _ in 0..5 {
        assert_eq!(islands(&mut w), 2);
    }
    w.remove_joint(ab).unwrap();
    assert_eq!(islands(&mut w), 3);
    // A joint that breaks in its first step (1 N cannot stop `c` flying off) parts them
    // on the next.
    let at = w.body(c).unwrap().position();
    let bc = w
        .add_joint(
            JointBuilder::ball(Some(b), c)
                .world_anchor(at)
                .break_force(1.0),
        )
        .unwrap();
    assert_eq!(islands(&mut w), 2);
    assert!(w.joint(bc).unwrap().is_broken());
    for _ in 0..3 {
        assert_eq!(islands(&mut w), 3);
    }
}
