//! Closed-form physics checks of the whole step (issue 4, item 10).
//!
//! Where the time step itself shifts the answer, the test compares with the scheme's own
//! discrete closed form and states the O(dt) gap to the continuous one.

use glam::{Quat, Vec3};
use thud_dynamics::{
    BodyBuilder, BodyHandle, Collider, DynamicsError, Settings, SolverMode, World,
};

const G: f32 = 9.81;
const DT: f32 = 1.0 / 60.0;

fn settings() -> Settings {
    Settings::without_sleeping()
}

/// The standard ground: static cuboid, top face y = 0.
fn ground(world: &mut World, friction: f32) -> BodyHandle {
    world
        .add_body(
            BodyBuilder::fixed()
                .position(Vec3::new(0.0, -0.5, 0.0))
                .collider(Collider::cuboid(Vec3::new(200.0, 0.5, 200.0)).friction(friction)),
        )
        .unwrap()
}

fn unit_box(p: Vec3) -> BodyBuilder {
    BodyBuilder::dynamic()
        .position(p)
        .collider(Collider::cuboid(Vec3::splat(0.5)))
}

#[test]
fn free_fall_matches_the_discrete_closed_form() {
    let mut w = World::new(settings());
    let y0 = 100.0;
    let h = w
        .add_body(
            BodyBuilder::dynamic()
                .position(Vec3::new(0.0, y0, 0.0))
                .collider(Collider::sphere(0.5)),
        )
        .unwrap();
    let n = 90;
    for _ in 0..n {
        w.step().unwrap();
    }
    let b = w.body(h).unwrap();
    // The step runs `solve_substeps` semi-implicit Euler substeps of h = dt/substeps.
    let k = w.settings().solve_substeps;
    let (hs, nf, t) = (DT / k as f32, (n * k) as f32, n as f32 * DT);
    // Semi-implicit Euler: v_N = −g·N·h exactly; y_N = y0 − g·h²·N(N+1)/2.
    assert!(
        (b.linear_velocity().y + G * t).abs() <= 1e-5 * G * t,
        "{}",
        b.linear_velocity().y
    );
    let discrete = y0 - G * hs * hs * nf * (nf + 1.0) / 2.0;
    assert!(
        ((b.position().y - discrete) / discrete).abs() < 1e-5,
        "{} vs {discrete}",
        b.position().y
    );
    // The continuous answer differs by exactly g·h·t/2 (the scheme's O(h) lead).
    let continuous = y0 - G * t * t / 2.0;
    assert!((b.position().y - continuous).abs() <= G * hs * t / 2.0 * 1.001 + 1e-4);
}

/// A static half-space through the origin tilted by `theta` about z, and a unit box
/// resting on it; returns the box handle and the downhill unit vector.
fn incline(w: &mut World, theta: f32, mu: f32) -> (BodyHandle, Vec3) {
    let q = Quat::from_rotation_z(theta);
    let n = q * Vec3::Y;
    w.add_body(BodyBuilder::fixed().collider(Collider::halfspace(n).friction(mu)))
        .unwrap();
    let b = w
        .add_body(unit_box(n * 0.5).rotation(q).linear_velocity(Vec3::ZERO))
        .unwrap();
    let down = (q * Vec3::X) * -1.0; // x tilted up by theta; downhill is −x'
    let down = if down.y > 0.0 { -down } else { down };
    (b, down)
}

#[test]
fn box_on_shallow_incline_stays_put() {
    let mut w = World::new(settings());
    let theta = 20f32.to_radians(); // tan θ = 0.36 < μ = 0.6
    let (b, _) = incline(&mut w, theta, 0.6);
    let p0 = w.body(b).unwrap().position();
    for _ in 0..120 {
        w.step().unwrap();
    }
    let moved = (w.body(b).unwrap().position() - p0).length();
    // A frictionless box would have slid g·sinθ·t²/2 = 6.7 m; 2% of that is 13 cm.
    assert!(moved < 0.01, "moved {moved} m");
}

#[test]
fn box_on_steep_incline_slides_with_the_coulomb_acceleration() {
    let mut w = World::new(settings());
    let (theta, mu) = (40f32.to_radians(), 0.6f32); // tan θ = 0.84 > μ
    let (b, down) = incline(&mut w, theta, mu);
    for _ in 0..30 {
        w.step().unwrap();
    }
    let v1 = w.body(b).unwrap().linear_velocity().dot(down);
    for _ in 0..60 {
        w.step().unwrap();
    }
    let v2 = w.body(b).unwrap().linear_velocity().dot(down);
    let a = (v2 - v1) / (60.0 * DT);
    let expect = G * (theta.sin() - mu * theta.cos());
    assert!(
        ((a - expect) / expect).abs() < 0.02,
        "a = {a}, expected {expect}"
    );
}

#[test]
fn sliding_box_stops_after_v2_over_2_mu_g() {
    let mut w = World::new(settings());
    ground(&mut w, 0.6);
    let v0 = 2.0;
    let b = w
        .add_body(unit_box(Vec3::new(0.0, 0.5, 0.0)).linear_velocity(Vec3::new(v0, 0.0, 0.0)))
        .unwrap();
    let x0 = w.body(b).unwrap().position().x;
    for _ in 0..120 {
        w.step().unwrap();
    }
    let body = w.body(b).unwrap();
    assert!(
        body.linear_velocity().length() < 1e-3,
        "still moving {}",
        body.linear_velocity()
    );
    let d = body.position().x - x0;
    let expect = v0 * v0 / (2.0 * 0.6 * G);
    assert!(
        (d - expect).abs() <= v0 * DT + 0.02 * expect,
        "stopped after {d} m, expected {expect}"
    );
}

#[test]
fn ball_rebounds_to_e_squared_h() {
    let mut w = World::new(settings());
    ground(&mut w, 0.6);
    let (h, e, r) = (1.0f32, 0.5f32, 0.5f32);
    let ball = w
        .add_body(
            BodyBuilder::dynamic()
                .position(Vec3::new(0.0, r + h, 0.0))
                .collider(Collider::sphere(r).restitution(e)),
        )
        .unwrap();
    let mut bounced = false;
    let mut apex: f32 = 0.0;
    for _ in 0..150 {
        w.step().unwrap();
        let b = w.body(ball).unwrap();
        if b.linear_velocity().y > 0.0 {
            bounced = true;
        }
        if bounced {
            apex = apex.max(b.position().y - r);
        }
    }
    assert!(bounced);
    let expect = e * e * h;
    assert!(
        ((apex - expect) / expect).abs() < 0.05,
        "apex {apex}, expected {expect}"
    );
}

/// A unit box resting on the ground (μ = 0.6) after `steps` steps in `mode`.
fn resting_box(mode: SolverMode, steps: usize) -> (World, BodyHandle) {
    let mut w = World::new(Settings {
        solver_mode: mode,
        ..settings()
    });
    ground(&mut w, 0.6);
    let b = w.add_body(unit_box(Vec3::new(0.0, 0.5, 0.0))).unwrap();
    for _ in 0..steps {
        w.step().unwrap();
    }
    (w, b)
}

#[test]
fn resting_box_normal_impulses_sum_to_m_g_dt() {
    // PGS keeps the step's impulse sums in its lanes, the exact mode in the contact
    // store's rows: `contacts` reports either.
    for mode in [SolverMode::Pgs, SolverMode::Exact] {
        let (w, b) = resting_box(mode, 60);
        let sum: f32 = w.contacts().map(|c| c.total_normal_impulse()).sum();
        let m = w.body(b).unwrap().mass();
        let expect = m * G * DT;
        assert!(
            ((sum - expect) / expect).abs() < 1e-3,
            "{mode:?}: {sum} vs {expect}"
        );
    }
}

/// A box pushed 1 cm into the floor and released at rest: one step's split-impulse
/// position correction removes `1 − (1 − erp)ⁿ` of the penetration beyond the slop
/// (`n` solve substeps), whether the pass runs after every solve substep (at `erp`,
/// each on the separation the last one left) or once after the last (at the combined
/// rate, the default).
#[test]
fn position_correction_removes_the_combined_erp_fraction_per_step() {
    let depth = 0.01;
    for every in [false, true] {
        let s = Settings {
            split_every_substep: every,
            ..settings()
        };
        let (erp, slop, n) = (s.erp, s.slop, s.solve_substeps as i32);
        let mut w = World::new(s);
        ground(&mut w, 0.6);
        let b = w
            .add_body(unit_box(Vec3::new(0.0, 0.5 - depth, 0.0)))
            .unwrap();
        w.step().unwrap();
        let pen = -(w.body(b).unwrap().pose().position.y - 0.5);
        let expect = slop + (depth - slop) * (1.0 - erp).powi(n);
        assert!(
            (pen - expect).abs() < 0.02 * (depth - slop),
            "every substep {every}: penetration {pen} m, expected {expect} m"
        );
    }
}

#[test]
fn energy_never_rises_without_restitution() {
    let mut w = World::new(settings());
    ground(&mut w, 0.6);
    for i in 0..6 {
        let fi = i as f32;
        w.add_body(
            unit_box(Vec3::new(0.3 * fi - 0.8, 1.0 + 1.2 * fi, 0.1 * fi))
                .rotation(Quat::from_euler(
                    glam::EulerRot::YXZ,
                    0.3 * fi,
                    0.2 + 0.1 * fi,
                    0.5,
                ))
                .angular_velocity(Vec3::new(0.5, -1.0 + 0.3 * fi, 0.2)),
        )
        .unwrap();
    }
    let mut e_prev = w.total_energy();
    let e0 = e_prev;
    for step in 0..240 {
        w.step().unwrap();
        let e = w.total_energy();
        // Allow float noise of 1e-4 of the total.
        assert!(
            e <= e0 + 1e-4 * e0.abs(),
            "step {step}: E = {e} > E0 = {e0}"
        );
        e_prev = e;
    }
    let _ = e_prev;
}

#[test]
fn invalid_inputs_are_typed_errors_and_leave_the_world_unchanged() {
    let mut w = World::new(settings());
    ground(&mut w, 0.6);
    let b = w.add_body(unit_box(Vec3::new(0.0, 0.5, 0.0))).unwrap();
    w.step().unwrap();
    let snapshot = |w: &World| {
        let body = w.body(b).unwrap();
        (
            body.position(),
            body.rotation(),
            body.linear_velocity(),
            body.angular_velocity(),
            w.body_count(),
        )
    };
    let before = snapshot(&w);
    assert!(matches!(
        w.step_dt(0.0),
        Err(DynamicsError::InvalidTimeStep { .. })
    ));
    assert!(matches!(
        w.step_dt(-0.01),
        Err(DynamicsError::InvalidTimeStep { .. })
    ));
    assert!(matches!(
        w.step_dt(f32::NAN),
        Err(DynamicsError::InvalidTimeStep { .. })
    ));
    assert!(matches!(
        w.step_dt(f32::INFINITY),
        Err(DynamicsError::InvalidTimeStep { .. })
    ));
    assert!(matches!(
        w.set_linear_velocity(b, Vec3::NAN),
        Err(DynamicsError::NonFinite { .. })
    ));
    assert!(matches!(
        w.set_position(b, Vec3::new(f32::INFINITY, 0.0, 0.0)),
        Err(DynamicsError::NonFinite { .. })
    ));
    assert!(matches!(
        w.set_angular_velocity(b, Vec3::new(0.0, f32::NAN, 0.0)),
        Err(DynamicsError::NonFinite { .. })
    ));
    assert!(matches!(
        w.set_rotation(b, Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0)),
        Err(DynamicsError::NonFinite { .. })
    ));
    assert!(matches!(
        w.add_force(b, Vec3::splat(f32::NAN)),
        Err(DynamicsError::NonFinite { .. })
    ));
    assert!(matches!(
        w.apply_impulse(b, Vec3::splat(f32::INFINITY)),
        Err(DynamicsError::NonFinite { .. })
    ));
    assert!(matches!(
        w.add_body(unit_box(Vec3::ZERO).mass(0.0)),
        Err(DynamicsError::InvalidMass { .. })
    ));
    assert!(matches!(
        w.add_body(unit_box(Vec3::ZERO).mass(-2.0)),
        Err(DynamicsError::InvalidMass { .. })
    ));
    assert!(matches!(
        w.add_body(BodyBuilder::dynamic().collider(Collider::cuboid(Vec3::new(-1.0, 1.0, 1.0)))),
        Err(DynamicsError::Shape(_))
    ));
    assert!(matches!(
        w.add_body(BodyBuilder::dynamic().collider(Collider::cuboid(Vec3::ONE).density(0.0))),
        Err(DynamicsError::InvalidMass { .. })
    ));
    w.settings_mut().dt = -1.0;
    assert!(w.step().is_err());
    w.settings_mut().dt = DT;
    w.settings_mut().friction_stride = 0;
    assert!(matches!(
        w.step(),
        Err(DynamicsError::OutOfRange {
            what: "friction_stride",
            ..
        })
    ));
    w.settings_mut().friction_stride = 2;
    // Lengths that must be finite and at least 0, each set back to its default after.
    type Field = fn(&mut Settings) -> &mut f32;
    let lengths: [(&str, Field); 3] = [
        ("reuse_rows_within", |s| &mut s.reuse_rows_within),
        ("deep_penetration", |s| &mut s.deep_penetration),
        ("touching_gap", |s| &mut s.touching_gap),
    ];
    for (name, field) in lengths {
        let default = *field(&mut Settings::default());
        for d in [-1e-4, f32::NAN, f32::INFINITY] {
            *field(w.settings_mut()) = d;
            assert!(matches!(
                w.step(),
                Err(DynamicsError::OutOfRange { what, .. } | DynamicsError::NonFinite { what })
                    if what == name
            ));
        }
        *field(w.settings_mut()) = default;
    }
    assert_eq!(snapshot(&w), before);
    let removed = w.add_body(unit_box(Vec3::new(5.0, 0.5, 0.0))).unwrap();
    w.remove_body(removed).unwrap();
    assert!(matches!(
        w.body(removed),
        Err(DynamicsError::InvalidHandle(_))
    ));
    assert!(w.remove_body(removed).is_err());
    assert!(w.body(b).is_ok());
    w.step().unwrap();
}

#[test]
fn valid_input_never_produces_nan() {
    let mut w = World::new(settings());
    ground(&mut w, 0.6);
    let mut s: u64 = 7;
    let mut next = || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((s >> 33) as f32) / (1u64 << 31) as f32
    };
    for i in 0..30 {
        let p = Vec3::new(
            next() * 4.0 - 2.0,
            0.6 + 0.9 * i as f32 * next(),
            next() * 4.0 - 2.0,
        );
        let c = if i % 3 == 0 {
            Collider::sphere(0.2 + 0.4 * next())
        } else {
            Collider::cuboid(Vec3::new(0.1 + next(), 0.1 + next() * 0.3, 0.2 + next()))
        };
        w.add_body(
            BodyBuilder::dynamic()
                .position(p)
                .rotation(Quat::from_euler(
                    glam::EulerRot::YXZ,
                    next() * 6.0,
                    next() * 6.0,
                    next() * 6.0,
                ))
                .linear_velocity(Vec3::new(next() - 0.5, next() - 0.5, next() - 0.5) * 40.0)
                .angular_velocity(Vec3::new(next() - 0.5, next() - 0.5, next() - 0.5) * 80.0)
                .collider(c.restitution(next())),
        )
        .unwrap();
    }
    for _ in 0..180 {
        w.step().unwrap();
        for (_, b) in w.bodies() {
            assert!(b.position().is_finite() && b.rotation().is_finite());
            assert!(b.linear_velocity().is_finite() && b.angular_velocity().is_finite());
        }
    }
}

#[test]
fn sleeping_islands_sleep_and_wake() {
    let mut w = World::new(Settings::default());
    ground(&mut w, 0.6);
    let a = w.add_body(unit_box(Vec3::new(0.0, 0.5, 0.0))).unwrap();
    for _ in 0..120 {
        w.step().unwrap();
    }
    assert!(w.body(a).unwrap().is_sleeping());
    w.apply_impulse(a, Vec3::new(1.0, 0.0, 0.0)).unwrap();
    assert!(!w.body(a).unwrap().is_sleeping());
    w.step().unwrap();
    assert!(w.body(a).unwrap().linear_velocity().x > 0.1);
}

/// A 20-row pyramid of unit boxes at the defaults (sleeping on), standing on the
/// ground until it sleeps: the world and the boxes (the top one last).
fn sleeping_pyramid() -> (World, Vec<BodyHandle>) {
    let mut w = World::new(Settings::default());
    ground(&mut w, 0.6);
    let mut boxes = Vec::new();
    for r in 0..20 {
        for c in 0..20 - r {
            let x = c as f32 - (20 - r - 1) as f32 / 2.0;
            boxes.push(
                w.add_body(unit_box(Vec3::new(x, 0.5 + r as f32, 0.0)))
                    .unwrap(),
            );
        }
    }
    for _ in 0..120 {
        w.step().unwrap();
    }
    assert!(boxes.iter().all(|&h| w.body(h).unwrap().is_sleeping()));
    (w, boxes)
}

/// The largest distance any of `boxes` moves from where it is over `steps` steps.
fn largest_move(w: &mut World, boxes: &[BodyHandle], steps: usize) -> f32 {
    let start: Vec<Vec3> = boxes
        .iter()
        .map(|&h| w.body(h).unwrap().position())
        .collect();
    let mut worst = 0.0f32;
    for _ in 0..steps {
        w.step().unwrap();
        for (&h, p) in boxes.iter().zip(&start) {
            worst = worst.max((w.body(h).unwrap().position() - *p).length());
        }
    }
    worst
}

/// A sleeping island wakes whole. Its bodies' contacts with each other are dropped
/// while they sleep, so a body woken alone used to find its neighbours a step later,
/// and they theirs a step after: the pyramid woke a layer a step, each layer falling a
/// step without support, and crumpled by 0.22 m. Woken whole, it finds all its contacts
/// at once and starts from its statics: it does not move.
#[test]
fn a_sleeping_pyramid_woken_at_its_top_stays_as_it_was() {
    let (mut w, boxes) = sleeping_pyramid();
    let top = *boxes.last().unwrap();
    w.set_linear_velocity(top, Vec3::ZERO).unwrap();
    let moved = largest_move(&mut w, &boxes, 180);
    assert!(moved < 1e-4, "a box moved {moved} m");
}

/// Woken by a box dropped on it (the island woken where the box touches it, its
/// contacts found again in the same step and, but for the box's impact, started from
/// its statics), the pyramid takes the blow as an awake one does: its boxes move
/// 7.5 mm at most, as awake (12 mm started cold; 0.29 m when it woke a layer a step).
#[test]
fn a_sleeping_pyramid_takes_a_box_dropped_on_it() {
    let (mut w, boxes) = sleeping_pyramid();
    let top = w.body(*boxes.last().unwrap()).unwrap().position();
    w.add_body(unit_box(top + Vec3::new(0.0, 3.0, 0.0)))
        .unwrap();
    let moved = largest_move(&mut w, &boxes, 180);
    assert!(moved < 0.01, "a box moved {moved} m");
}

/// Boxes taken from under a sleeping pyramid wake it (its contacts with them were
/// dropped while it slept, so only its sleep group knows it): the box they carried
/// falls into the gap.
#[test]
fn boxes_removed_from_under_a_sleeping_pyramid_wake_it() {
    let (mut w, boxes) = sleeping_pyramid();
    // The two boxes of the second row from the top; the top box rests on both.
    let above = boxes[209];
    let y0 = w.body(above).unwrap().position().y;
    w.remove_body(boxes[207]).unwrap();
    w.remove_body(boxes[208]).unwrap();
    w.step().unwrap();
    assert!(
        !w.body(above).unwrap().is_sleeping(),
        "the pyramid slept on"
    );
    for _ in 0..20 {
        w.step().unwrap();
    }
    let fell = y0 - w.body(above).unwrap().position().y;
    assert!(fell > 0.1, "the box above fell {fell} m");
}

#[test]
fn kinematic_target_is_reached_exactly() {
    let mut w = World::new(settings());
    let k = w
        .add_body(BodyBuilder::kinematic().collider(Collider::cuboid(Vec3::splat(0.5))))
        .unwrap();
    let target = thud_dynamics::Pose::new(Vec3::new(0.1, 0.2, 0.0), Quat::from_rotation_y(0.1));
    w.set_kinematic_target(k, target).unwrap();
    w.step().unwrap();
    let b = w.body(k).unwrap();
    assert!((b.position() - target.position).length() < 1e-6);
}

/// `export_lcp` writes the rows the solver used whether the step kept the contact
/// store's scalar rows (auto mode: a small island) or solved from the packed lanes
/// alone (PGS mode): the same `A` to the bit, and an answer that carries the box.
#[test]
fn exported_problem_is_the_solved_one_with_or_without_scalar_rows() {
    let problem = |mode: SolverMode| {
        let (w, b) = resting_box(mode, 30);
        let mut out = Vec::new();
        assert_eq!(w.export_lcp(&mut out, 100).unwrap(), 1, "{mode:?}");
        let text = String::from_utf8(out).unwrap();
        let (mut problems, _) = thud_lcp::json::parse_problems(&text).unwrap();
        let thud_lcp::Problem::Boxed(p) = problems.remove(0).problem else {
            panic!("{mode:?}: not a boxed problem");
        };
        (p, w.body(b).unwrap().mass())
    };
    let (lanes, m) = problem(SolverMode::Pgs);
    let (store, _) = problem(SolverMode::Auto);
    assert_eq!(lanes.n(), 12, "four corners, three rows each");
    for i in 0..12 {
        assert_eq!(lanes.a().row(i), store.a().row(i), "row {i} of A");
    }
    // Solved exactly, the four normal impulses carry the box for one solve substep.
    let h = DT / settings().solve_substeps as f32;
    let options = thud_lcp::Options::default();
    let problem = thud_lcp::Problem::Boxed(lanes);
    let report = thud_lcp::solve(&problem, thud_lcp::Method::BoxedPivot, &options).unwrap();
    let normal: f64 = (0..4).map(|k| report.z[3 * k]).sum();
    let expect = f64::from(m * G * h);
    assert!(
        ((normal - expect) / expect).abs() < 1e-2,
        "{normal} vs {expect}"
    );
}

/// A plank carrying 24 boxes: the plank has more manifolds than the colouring's 16
/// colours, so in `SweepOrder::Colored` some of them go to the overflow set, solved on
/// the contact store's scalar rows — which solve substeps refresh apart from the lanes
/// (`b̃ = J̃·Vnc₀` plus the new stabilization, the change of `Vnc` in `dV`). The boxes
/// fall at twice the plank's gravity, so their rows' `J̃·Vnc` is not zero. Both orders
/// must hold the load at rest: every box stays put, the ground carries the whole weight
/// (`Σλₙ` over a step = `m·g·dt` summed), and the energy does not rise.
#[test]
fn overflow_manifolds_hold_a_loaded_plank_through_solve_substeps() {
    for order in [
        thud_dynamics::SweepOrder::Colored,
        thud_dynamics::SweepOrder::Sequential,
    ] {
        let mut w = World::new(Settings {
            sweep_order: order,
            ..settings()
        });
        let g = ground(&mut w, 0.6);
        let plank = w
            .add_body(
                BodyBuilder::dynamic()
                    .position(Vec3::new(0.0, 0.25, 0.0))
                    .collider(Collider::cuboid(Vec3::new(6.5, 0.25, 0.5))),
            )
            .unwrap();
        let boxes: Vec<(BodyHandle, Vec3)> = (0..24)
            .map(|i| {
                let p = Vec3::new(-6.0 + 0.52 * i as f32 + 0.26, 0.75, 0.0);
                let b = BodyBuilder::dynamic()
                    .position(p)
                    .gravity_scale(2.0)
                    .collider(Collider::cuboid(Vec3::new(0.25, 0.25, 0.25)));
                (w.add_body(b).unwrap(), p)
            })
            .collect();
        let e0 = w.total_energy();
        let mut overflow = 0;
        for _ in 0..120 {
            w.step().unwrap();
            overflow = overflow.max(w.stats().overflow);
            assert!(
                w.total_energy() <= e0 + 1e-4 * e0.abs(),
                "{order:?}: energy rose"
            );
        }
        if order == thud_dynamics::SweepOrder::Colored {
            assert!(
                overflow > 0,
                "the plank's manifolds should overflow 16 colours"
            );
        }
        for (b, p) in &boxes {
            let body = w.body(*b).unwrap();
            let q = body.position();
            assert!(
                (q - *p).length() < 0.005,
                "{order:?}: box moved from {p} to {q}"
            );
            // Each box rests on the plank alone: its contact carries its own weight.
            let carried: f32 = w
                .contacts()
                .filter(|c| c.a == *b || c.b == *b)
                .map(|c| c.total_normal_impulse())
                .sum();
            let own = body.mass() * 2.0 * G * DT;
            // And is at rest (about 1e-8 m/s; 1e-3 when the overflow rows' refresh was
            // off by half their J̃·Vnc₀).
            let v = body.linear_velocity().length();
            assert!(v < 1e-5, "{order:?}: a box still moves at {v} m/s");
            assert!(
                ((carried - own) / own).abs() < 1e-2,
                "{order:?}: a box's contact carries {carried} of its {own}"
            );
        }
        let weight: f32 = std::iter::once((plank, 1.0))
            .chain(boxes.iter().map(|b| (b.0, 2.0)))
            .map(|(b, scale)| w.body(b).unwrap().mass() * scale * G * DT)
            .sum();
        let on_ground: f32 = w
            .contacts()
            .filter(|c| c.a == g || c.b == g)
            .map(|c| c.total_normal_impulse())
            .sum();
        assert!(
            ((on_ground - weight) / weight).abs() < 2e-3,
            "{order:?}: ground carries {on_ground} of {weight}"
        );
    }
}

/// The step's counts of collider pairs: every pair the broadphase lists, and of those
/// the ones the narrowphase computed afresh — all of them on the first step, none while
/// the boxes rest (each keeps its manifold), and the moving one's while it falls.
#[test]
fn stats_count_the_pairs_listed_and_computed_afresh() {
    let mut w = World::new(Settings {
        sleeping: false,
        ..settings()
    });
    ground(&mut w, 0.6);
    w.add_body(unit_box(Vec3::new(-3.0, 0.5, 0.0))).unwrap();
    w.add_body(unit_box(Vec3::new(3.0, 0.5, 0.0))).unwrap();
    w.step().unwrap();
    assert_eq!((w.stats().pairs, w.stats().pairs_computed), (2, 2));
    for _ in 0..60 {
        w.step().unwrap();
    }
    assert_eq!((w.stats().pairs, w.stats().pairs_computed), (2, 0));
    // A box dropped from 3 m midway: far from the ground its fat box meets nothing;
    // its pair with the ground is listed as it comes down, computed afresh then and
    // while it lands and settles.
    w.add_body(unit_box(Vec3::new(0.0, 3.0, 0.0))).unwrap();
    let mut fall = Vec::new();
    for _ in 0..60 {
        w.step().unwrap();
        assert!(w.stats().pairs_computed <= w.stats().pairs);
        fall.push((w.stats().pairs, w.stats().pairs_computed));
    }
    assert!(fall[..20].iter().all(|&p| p == (2, 0)), "{fall:?}");
    let listed = fall
        .iter()
        .position(|p| p.0 == 3)
        .expect("the pair is listed");
    assert_eq!(
        fall[listed].1, 1,
        "a new pair is computed at once: {fall:?}"
    );
    let landing: usize = fall[listed..].iter().map(|p| p.1).sum();
    assert!(landing >= 5, "computed afresh while it lands: {fall:?}");
    for _ in 0..120 {
        w.step().unwrap();
    }
    assert_eq!((w.stats().pairs, w.stats().pairs_computed), (3, 0));
}

/// A step whose manifolds and bodies are as the last step's takes its islands as they
/// are; every change of those must find them again.
#[test]
fn islands_follow_every_change_of_contacts_and_bodies() {
    let mut w = World::new(settings());
    ground(&mut w, 0.6);
    let _a = w.add_body(unit_box(Vec3::new(-3.0, 0.5, 0.0))).unwrap();
    let b = w.add_body(unit_box(Vec3::new(3.0, 0.5, 0.0))).unwrap();
    for _ in 0..60 {
        w.step().unwrap();
        assert_eq!(w.stats().islands, 2);
    }
    // A box dropped onto the first: an island of its own until it lands, then one with it.
    w.add_body(unit_box(Vec3::new(-3.0, 1.6, 0.0))).unwrap();
    w.step().unwrap();
    assert_eq!(w.stats().islands, 3);
    for _ in 0..60 {
        w.step().unwrap();
    }
    assert_eq!(w.stats().islands, 2);
    // The second box made static, then dynamic again, then gone.
    w.set_body_kind(b, thud_dynamics::BodyKind::Static).unwrap();
    w.step().unwrap();
    assert_eq!(w.stats().islands, 1);
    w.set_body_kind(b, thud_dynamics::BodyKind::Dynamic)
        .unwrap();
    w.step().unwrap();
    assert_eq!(w.stats().islands, 2);
    w.remove_body(b).unwrap();
    w.step().unwrap();
    assert_eq!(w.stats().islands, 1);
    for _ in 0..10 {
        w.step().unwrap();
        assert_eq!(w.stats().islands, 1);
    }
}

/// The worst overlap (m) along a column of unit boxes standing on the ground (top face
/// y = 0), and the fastest box's speed.
fn column_overlap(w: &World, boxes: &[BodyHandle]) -> (f32, f32) {
    let ys: Vec<f32> = boxes
        .iter()
        .map(|&b| w.body(b).unwrap().pose().position.y)
        .collect();
    let worst = ys
        .windows(2)
        .map(|p| 1.0 - (p[1] - p[0]))
        .fold(0.5 - ys[0], f32::max);
    let fastest = boxes
        .iter()
        .map(|&b| w.body(b).unwrap().linear_velocity().length())
        .fold(0.0, f32::max);
    (worst, fastest)
}

/// A column of eight boxes spawned each 2 cm deep in the one below (and the first in
/// the ground) is pushed apart by the position pass, and as a split impulse it gives
/// them no velocity. With every contact deeper than `Settings::deep_penetration`, the
/// pass runs `deep_split_iterations` sweeps and carries the lift up the column: after
/// 1 s the worst overlap is 3.3 mm; at one sweep a step it is still 12.4 mm.
#[test]
fn a_column_spawned_sunk_into_itself_is_pushed_apart_without_motion() {
    let (n, sink) = (8, 0.02);
    let run = |deep_split_iterations: u32| {
        let s = Settings {
            deep_split_iterations,
            ..settings()
        };
        let mut w = World::new(s);
        ground(&mut w, 0.6);
        let boxes: Vec<_> = (0..n)
            .map(|k| {
                let y = 0.5 - sink + k as f32 * (1.0 - sink);
                w.add_body(unit_box(Vec3::new(0.0, y, 0.0))).unwrap()
            })
            .collect();
        let mut fastest = 0.0f32;
        for _ in 0..60 {
            w.step().unwrap();
            fastest = fastest.max(column_overlap(&w, &boxes).1);
        }
        (column_overlap(&w, &boxes).0, fastest)
    };
    let (deep, deep_speed) = run(Settings::default().deep_split_iterations);
    let (one, one_speed) = run(1);
    assert!(deep < 0.005, "overlap {deep} m after 1 s");
    assert!(one > 0.01, "one sweep a step: overlap {one} m after 1 s");
    assert!(
        deep_speed < 0.01 && one_speed < 0.01,
        "speeds {deep_speed}, {one_speed} m/s"
    );
}

/// The auto mode solves a resting column exactly, but not while it is still landing:
/// five boxes spawned each 2 cm deep in the one below (deeper than
/// `Settings::deep_penetration`) are left to PGS while the position pass pushes them
/// apart, and taken once their contacts are within it (an exact solve of such an island
/// cost 4–7 ms a step in a landing heap, and has no rest to hold).
#[test]
fn a_landing_column_is_solved_exactly_only_once_its_contacts_are_shallow() {
    let mut w = World::new(settings());
    ground(&mut w, 0.6);
    let boxes: Vec<_> = (0..5)
        .map(|k| {
            let y = 0.5 - 0.02 + k as f32 * 0.98;
            w.add_body(unit_box(Vec3::new(0.0, y, 0.0))).unwrap()
        })
        .collect();
    let mut first_exact = None;
    for step in 1..=60 {
        // (A step's contacts are the narrowphase's at the poses it starts from.)
        let deep = column_overlap(&w, &boxes).0;
        w.step().unwrap();
        if w.stats().exact_islands > 0 {
            first_exact.get_or_insert((step, deep));
        }
    }
    let (step, deep) = first_exact.expect("the resting column is solved exactly");
    assert!(step > 1, "taken on its first step, 2 cm deep");
    assert!(
        deep <= Settings::default().deep_penetration,
        "taken at step {step} with contacts {deep} m deep"
    );
}

/// A column of `n` unit boxes standing on the ground at x = `x`, bottom first.
fn stand_column(w: &mut World, x: f32, n: usize) -> Vec<BodyHandle> {
    (0..n)
        .map(|k| {
            let p = Vec3::new(x, 0.5 + k as f32, 0.0);
            w.add_body(unit_box(p)).unwrap()
        })
        .collect()
}

/// More resting columns than the exact mode's sixteen kept starts: each island's last
/// exact answer is kept while the island is there, so once the columns have settled
/// they are seldom solved again. With sixteen starts for these seventeen columns of
/// eight boxes, the columns evicted each other's answers, every solve started from
/// PGS's instead, and their last 2 s of 7 still solved 184 times; now 6. (How often a
/// settled column wanders off its answer depends on where it stands: with the row
/// starting at x = −20, 0 or 7 m instead of −50, 23, 44 and 4 times in those 2 s,
/// against 70, 147 and 235 with sixteen starts.)
#[test]
fn more_resting_columns_than_sixteen_stop_being_solved_exactly() {
    // (A budget for all seventeen: 96 rows each.)
    let mut w = World::new(Settings {
        exact_rows_per_step: 2048,
        ..settings()
    });
    ground(&mut w, 0.6);
    let columns = 17;
    for c in 0..columns {
        stand_column(&mut w, 3.0 * c as f32 - 50.0, 8);
    }
    let (mut early, mut late) = (0, 0);
    for step in 1..=420 {
        w.step().unwrap();
        let solved = w.stats().exact_islands;
        if step <= 300 {
            early += solved;
        } else {
            late += solved;
        }
    }
    assert!(early >= columns, "{early} exact solves in the first 5 s");
    assert!(late <= 20, "{late} exact solves in the last 2 s");
}

/// The auto mode's row budget (`Settings::exact_rows_per_step`) goes to the islands of
/// the most bodies first, and islands of ten bodies or more are taken and solved beyond
/// it: three columns of twelve boxes (144 rows each) beside eight of four (48 rows
/// each), the short ones listed first, and a budget of 300 rows. The first step solves
/// the three tall columns exactly and no short one (in list order the budget went to
/// six short ones; taken beyond the budget but solved within it, the third tall one
/// waited for a later step); the short ones stay in the lanes, where PGS holds them.
/// After 10 s the tall columns' tops are within a millimetre of where they started, the
/// short ones' within 5 mm.
#[test]
fn the_exact_modes_budget_goes_to_the_tallest_islands_first() {
    let mut w = World::new(Settings {
        exact_rows_per_step: 300,
        ..settings()
    });
    ground(&mut w, 0.6);
    let short: Vec<_> = (0..8)
        .map(|c| stand_column(&mut w, 3.0 * c as f32, 4))
        .collect();
    let tall: Vec<_> = (0..3)
        .map(|c| stand_column(&mut w, 30.0 + 3.0 * c as f32, 12))
        .collect();
    let top =
        |boxes: &Vec<BodyHandle>, w: &World| w.body(boxes[boxes.len() - 1]).unwrap().position();
    let tops: Vec<Vec3> = tall.iter().chain(&short).map(|b| top(b, &w)).collect();
    let mut solved = Vec::new();
    for _ in 0..600 {
        w.step().unwrap();
        solved.push(w.stats().exact_islands);
    }
    assert_eq!(solved[0], 3, "islands solved on the first step");
    for (k, boxes) in tall.iter().chain(&short).enumerate() {
        let d = top(boxes, &w) - tops[k];
        let lean = Vec3::new(d.x, 0.0, d.z).length();
        let limit = if k < 3 { 1e-3 } else { 5e-3 };
        assert!(lean < limit, "column {k}: its top moved {lean} m aside");
    }
}

/// Sixteen resting towers of sixteen boxes (192 rows each, three times the default row
/// budget): each is solved exactly whenever its answer misses, and all stand. Solved
/// only within the budget, the towers it left unsolved step after step leaned off their
/// answers, gained 66 J and fell within 10 s (PGS alone holds them to 2.7 mm).
#[test]
fn many_tall_towers_stand_in_the_auto_mode() {
    let mut w = World::new(settings());
    ground(&mut w, 0.6);
    let towers: Vec<_> = (0..16)
        .map(|c| stand_column(&mut w, 3.0 * c as f32 - 50.0, 16))
        .collect();
    let top =
        |boxes: &Vec<BodyHandle>, w: &World| w.body(boxes[boxes.len() - 1]).unwrap().position();
    let tops: Vec<Vec3> = towers.iter().map(|b| top(b, &w)).collect();
    let e0 = w.total_energy();
    for _ in 0..600 {
        w.step().unwrap();
    }
    for (k, boxes) in towers.iter().enumerate() {
        let d = top(boxes, &w) - tops[k];
        let lean = Vec3::new(d.x, 0.0, d.z).length();
        assert!(lean < 1e-3, "tower {k}: its top moved {lean} m aside");
    }
    let e = w.total_energy();
    assert!(e <= e0 + 1e-4 * e0.abs(), "energy {e} J, from {e0}");
}
