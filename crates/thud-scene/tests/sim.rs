//! Running scenes: the timeline fires when it should, expectations are checked when
//! they should, and the figures mean what they say.

use thud_scene::{Outcome, RunOptions, Simulation, load_str};

fn sim(src: &str, seconds: f32) -> Simulation {
    let scene = load_str(src, "test.ron").unwrap_or_else(|e| panic!("{e}"));
    let opts = RunOptions {
        seconds: Some(seconds),
        ..RunOptions::default()
    };
    Simulation::new(scene, &opts).unwrap()
}

fn run(mut s: Simulation) -> thud_scene::Report {
    while !s.is_done() {
        s.step().unwrap();
    }
    s.finish()
}

#[test]
fn free_fall_matches_the_closed_form() {
    // No ground: y(t) = y0 − g t²/2 (semi-implicit Euler lands within g·dt·t).
    let s = sim(
        "(settings: (sleeping: false), bodies: [(name: \"ball\", shape: Sphere(radius: 0.5), position: (0.0, 100.0, 0.0))],
          expectations: [(at: 1.0, check: Position(body: \"ball\", y: (95.0, 95.2))),
                         (at: 1.0, check: Speed(body: \"ball\", min: 9.7, max: 9.9))])",
        1.0,
    );
    let r = run(s);
    assert!(r.passed(), "{}", r.text());
    assert_eq!(r.summary.expectations_passed, 2);
    assert_eq!(r.summary.steps, 60);
    assert!(r.summary.energy_rise < 0.05, "{}", r.summary.energy_rise);
}

#[test]
fn events_fire_at_their_time() {
    let src = "(settings: (gravity: (0.0, 0.0, 0.0), sleeping: false),
        bodies: [(name: \"a\", shape: Sphere(radius: 0.5), position: (0.0, 5.0, 0.0), mass: 2.0)],
        timeline: [
            (at: 0.5, action: Impulse(body: \"a\", impulse: (4.0, 0.0, 0.0))),
            (at: 1.0, action: Spawn(name: \"b\", shape: Sphere(radius: 0.5), position: (0.0, 5.0, 10.0))),
            (at: 1.5, action: Remove(body: \"a\")),
        ])";
    let mut s = sim(src, 2.0);
    let count = |s: &Simulation| s.live().count();
    while s.time() < 0.49 {
        s.step().unwrap();
    }
    // Before the step that starts at 0.5 s: still at rest.
    assert_eq!(
        s.world().bodies().next().unwrap().1.linear_velocity().x,
        0.0
    );
    s.step().unwrap();
    let v = s.live().next().unwrap().2.linear_velocity();
    assert!((v.x - 2.0).abs() < 1e-4, "J/m = 2 m/s, got {v}");
    while s.time() < 0.99 {
        s.step().unwrap();
    }
    assert_eq!(count(&s), 1);
    s.step().unwrap();
    assert_eq!(count(&s), 2);
    while !s.is_done() {
        s.step().unwrap();
    }
    assert_eq!(count(&s), 1);
    assert_eq!(s.slots().len(), 2);
    let r = s.finish();
    // The impulse's kinetic energy was put in on purpose: no energy rise.
    assert!(
        r.summary.energy_rise.abs() < 1e-3,
        "{}",
        r.summary.energy_rise
    );
}

#[test]
fn forces_act_for_their_duration_and_gravity_changes() {
    let src = "(settings: (gravity: (0.0, 0.0, 0.0), sleeping: false),
        bodies: [(name: \"a\", shape: Sphere(radius: 0.5), position: (0.0, 5.0, 0.0), mass: 1.0)],
        timeline: [
            (at: 0.0, action: Force(body: \"a\", force: (6.0, 0.0, 0.0), duration: 0.5)),
            (at: 1.0, action: SetGravity(gravity: (0.0, -10.0, 0.0))),
            (at: 1.0, action: SetVelocity(body: \"a\", linear: (0.0, 0.0, 0.0))),
        ],
        expectations: [
            (at: 0.9, check: Speed(body: \"a\", min: 2.95, max: 3.05)),
            (at: 2.0, check: Speed(body: \"a\", min: 9.9, max: 10.1)),
        ])";
    let r = run(sim(src, 2.0));
    assert!(r.passed(), "{}", r.text());
}

#[test]
fn unreached_expectations_are_skipped_and_failures_say_by_how_much() {
    let src = "(bodies: [(name: \"ball\", shape: Sphere(radius: 0.5), position: (0.0, 10.0, 0.0))],
        expectations: [
            (at: 0.5, check: Position(body: \"ball\", y: (9.9, 10.1))),
            (at: 5.0, check: AllAsleep),
        ])";
    let r = run(sim(src, 1.0));
    assert_eq!(r.summary.expectations_failed, 1);
    assert!(matches!(r.expectations[1].outcome, Outcome::Skipped { .. }));
    let f = r.failures();
    assert_eq!(f.len(), 1);
    assert!(
        f[0].contains("t = 0.500") && f[0].contains("outside [9.9, 10.1] by"),
        "{}",
        f[0]
    );
}

#[test]
fn resting_scene_reports_drift_and_sag_and_json_has_exactly_the_keys() {
    let mut scene = thud_scene::standard("tower_20").unwrap();
    scene.bodies.truncate(4); // ground and three boxes
    let scene = thud_scene::resolve(scene, None, "t").unwrap();
    let mut s = Simulation::new(
        scene,
        &RunOptions {
            steps: Some(30),
            threads: 1,
            ..RunOptions::default()
        },
    )
    .unwrap();
    while !s.is_done() {
        s.step().unwrap();
    }
    let r = s.finish();
    let sum = &r.summary;
    assert!(sum.drift.is_some() && sum.sag.is_some());
    assert!(sum.sag.unwrap().abs() < 0.05, "{:?}", sum.sag);
    assert_eq!(sum.steps, 30);
    assert_eq!(sum.bodies, 4);
    let v: serde_json::Value = serde_json::from_str(&r.json()).unwrap();
    let mut keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    let mut want = vec![
        "scene",
        "steps",
        "dt",
        "threads",
        "bodies",
        "contacts",
        "step_ms_median",
        "step_ms_p90",
        "stages",
        "max_penetration",
        "drift",
        "sag",
        "still_moving",
        "energy_rise",
        "energy_rebound",
        "expectations_passed",
        "expectations_failed",
    ];
    want.sort_unstable();
    assert_eq!(keys, want);
    let stages = v["stages"].as_object().unwrap();
    for st in thud_dynamics::Stage::ALL {
        assert!(stages.contains_key(st.name()), "{}", st.name());
    }
}

#[test]
fn run_options_reach_the_world_settings_and_bad_ones_are_errors() {
    let scene = || thud_scene::standard("tower_20").unwrap();
    let opts = RunOptions {
        touching_gap: Some(2e-5),
        reuse_rows_within: Some(0.0),
        sweep_tolerance: Some(0.0),
        ..RunOptions::default()
    };
    let sim = Simulation::new(scene(), &opts).unwrap();
    let s = sim.world().settings();
    assert_eq!(
        (s.touching_gap, s.reuse_rows_within, s.sweep_tolerance),
        (2e-5, 0.0, 0.0)
    );
    for bad in [-1e-5, f32::NAN, f32::INFINITY] {
        let opts = RunOptions {
            touching_gap: Some(bad),
            ..RunOptions::default()
        };
        let Err(e) = Simulation::new(scene(), &opts) else {
            panic!("touching_gap {bad} taken");
        };
        assert!(e.to_string().contains("touching_gap"), "{e}");
        let opts = RunOptions {
            sweep_tolerance: Some(bad),
            ..RunOptions::default()
        };
        let Err(e) = Simulation::new(scene(), &opts) else {
            panic!("sweep_tolerance {bad} taken");
        };
        assert!(e.to_string().contains("sweep_tolerance"), "{e}");
    }
}
