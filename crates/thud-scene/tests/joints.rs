//! Joints in the scene format: the syntax, the load errors of bad joint files, the
//! build errors of joints the engine refuses, and joints holding in a run.

use glam::Vec3;
use thud_scene::instantiate::build_scene;
use thud_scene::{
    JointDef, JointKindDef, RunOptions, Scene, SceneError, Simulation, load_str, parse_str, to_ron,
};

const TWO_BALLS: &str = r#"(
    bodies: [
        (name: "a", shape: Sphere(radius: 0.2), position: (0.0, 3.0, 0.0)),
        (name: "b", shape: Sphere(radius: 0.2), position: (1.0, 3.0, 0.0)),
    ],
    joints: [
        JOINT
    ],
)"#;

fn with_joint(joint: &str) -> String {
    TWO_BALLS.replace("JOINT", joint)
}

fn invalid(src: &str) -> (usize, String, String) {
    match load_str(src, "bad.ron") {
        Err(SceneError::Invalid {
            location,
            field,
            message,
        }) => (location.line, field, message),
        other => panic!("expected an Invalid error, got {other:?}"),
    }
}

#[test]
fn every_kind_parses_and_round_trips() {
    for joint in [
        r#"(kind: Ball, b: "a", anchor: (0.0, 4.0, 0.0))"#,
        r#"(kind: Fixed, a: "a", b: "b", anchor: (0.5, 3.0, 0.0), break_force: 100.0)"#,
        r#"(kind: Hinge(), a: "a", b: "b", anchor: (0.5, 3.0, 0.0), axis: (0.0, 0.0, 1.0))"#,
        r#"(kind: Hinge(limits_deg: (-45.0, 90.0), motor: (target_velocity: 2.0, max_force: 10.0)), a: "a", b: "b", anchor: (0.5, 3.0, 0.0), break_torque: 5.0)"#,
        r#"(kind: Prismatic(limits: (-0.5, 0.5)), a: "a", b: "b", collide_connected: true)"#,
        r#"(kind: Distance(min: 0.0, max: 1.5, spring: (rest_length: 1.0, frequency: 2.0, damping_ratio: 0.5)), a: "a", b: "b", anchor: (0.5, 3.0, 0.0))"#,
    ] {
        let src = with_joint(joint);
        let scene = load_str(&src, "ok.ron").unwrap_or_else(|e| panic!("{joint}: {e}"));
        assert_eq!(scene.joints.len(), 1);
        let raw = parse_str(&src, "ok.ron").unwrap();
        let back = parse_str(&to_ron(&raw).unwrap(), "back.ron").unwrap();
        assert_eq!(back.joints, raw.joints, "{joint}");
        let (world, _, joints) = build_scene(&scene).unwrap_or_else(|e| panic!("{joint}: {e}"));
        assert_eq!(joints.len(), 1);
        assert_eq!(world.joint_count(), 1);
    }
}

#[test]
fn a_scene_without_joints_writes_no_joints_field() {
    let scene = load_str(
        "(bodies: [(name: \"a\", shape: Sphere(radius: 0.2))])",
        "x.ron",
    )
    .unwrap();
    assert!(!to_ron(&scene).unwrap().contains("joints"));
}

#[test]
fn unknown_body_is_a_load_error() {
    let (line, field, message) = invalid(&with_joint(
        r#"(kind: Ball, a: "a", b: "c", anchor: (0.5, 3.0, 0.0))"#,
    ));
    assert_eq!(line, 7, "points at the joint");
    assert!(field.starts_with("joints[0]"), "{field}");
    assert!(message.contains("`c`"), "{message}");
    let (_, _, message) = invalid(&with_joint(
        r#"(kind: Ball, a: "ghost", b: "b", anchor: (0.5, 3.0, 0.0))"#,
    ));
    assert!(message.contains("`ghost`"), "{message}");
}

#[test]
fn min_above_max_is_a_load_error() {
    for (joint, what) in [
        (
            r#"(kind: Distance(min: 2.0, max: 1.0), a: "a", b: "b")"#,
            "kind",
        ),
        (
            r#"(kind: Hinge(limits_deg: (30.0, -30.0)), a: "a", b: "b")"#,
            "limits_deg",
        ),
        (
            r#"(kind: Prismatic(limits: (1.0, 0.0)), a: "a", b: "b")"#,
            "limits",
        ),
    ] {
        let (_, field, message) = invalid(&with_joint(joint));
        assert!(
            field.starts_with("joints[0]") && field.contains(what),
            "{joint}: {field}"
        );
        assert!(message.contains("min ≤ max"), "{joint}: {message}");
    }
}

#[test]
fn other_bad_numbers_are_load_errors() {
    for (joint, what) in [
        (r#"(kind: Ball, a: "b", b: "b")"#, "different bodies"),
        (
            r#"(kind: Hinge(), a: "a", b: "b", axis: (0.0, 0.0, 0.0))"#,
            "non-zero",
        ),
        (
            r#"(kind: Hinge(limits_deg: (-200.0, 0.0)), a: "a", b: "b")"#,
            "[-180, 180]",
        ),
        (
            r#"(kind: Hinge(motor: (target_velocity: 1.0, max_force: -1.0)), a: "a", b: "b")"#,
            "max_force",
        ),
        (r#"(kind: Ball, a: "a", b: "b", break_force: -1.0)"#, "≥ 0"),
        (
            r#"(kind: Distance(max: 1.0, spring: (rest_length: 1.0, frequency: 0.0)), a: "a", b: "b")"#,
            "frequency > 0",
        ),
    ] {
        let (_, _, message) = invalid(&with_joint(joint));
        assert!(message.contains(what), "{joint}: {message}");
    }
}

#[test]
fn unknown_joint_field_is_a_syntax_error() {
    let e = load_str(
        &with_joint(r#"(kind: Ball, b: "a", anchr: (0.0, 1.0, 0.0))"#),
        "bad.ron",
    )
    .unwrap_err();
    assert!(matches!(e, SceneError::Syntax { .. }), "{e:?}");
    assert!(e.to_string().contains("anchr"), "{e}");
}

/// A scene built without loading (no validation) still fails with typed errors.
#[test]
fn building_unchecked_joints_fails_with_joint_errors() {
    let mut scene = load_str(&with_joint(r#"(kind: Ball, b: "a")"#), "x.ron").unwrap();
    scene.joints = vec![JointDef::new(
        JointKindDef::Ball,
        Some("a"),
        "nobody",
        Vec3::ZERO,
    )];
    let Err(e) = build_scene(&scene) else {
        panic!("built a joint to a missing body")
    };
    assert!(
        matches!(&e, SceneError::Joint { joint: 0, message } if message.contains("nobody")),
        "{e:?}"
    );
    // The engine refuses min > max; the error says which joint.
    scene.joints = vec![
        JointDef::new(JointKindDef::Ball, None, "a", Vec3::new(0.0, 4.0, 0.0)),
        JointDef::new(
            JointKindDef::Distance {
                min: 2.0,
                max: 1.0,
                spring: None,
            },
            Some("a"),
            "b",
            Vec3::ZERO,
        ),
    ];
    let Err(e) = build_scene(&scene) else {
        panic!("built a distance joint with min > max")
    };
    assert!(matches!(&e, SceneError::Joint { joint: 1, .. }), "{e:?}");
    assert!(e.to_string().starts_with("joint 1:"), "{e}");
}

#[test]
fn a_ball_joint_to_the_world_holds_a_swinging_ball() {
    let src = r#"(
        settings: (sleeping: false),
        bodies: [(name: "bob", shape: Sphere(radius: 0.1), position: (1.0, 3.0, 0.0))],
        joints: [(kind: Ball, b: "bob", anchor: (0.0, 3.0, 0.0))],
    )"#;
    let scene: Scene = load_str(src, "p.ron").unwrap();
    let opts = RunOptions {
        seconds: Some(1.0),
        ..RunOptions::default()
    };
    let mut sim = Simulation::new(scene, &opts).unwrap();
    let pivot = Vec3::new(0.0, 3.0, 0.0);
    let mut lowest = f32::INFINITY;
    while !sim.is_done() {
        sim.step().unwrap();
        let (_, _, bob) = sim.live().next().unwrap();
        let r = bob.position().distance(pivot);
        // Let go from horizontal, the rod carries 3·m·g at the bottom; the measured
        // stretch there is ~2 % (a one-body island is left to PGS).
        assert!((r - 1.0).abs() < 0.04, "the rod length stays 1 m, got {r}");
        lowest = lowest.min(bob.position().y);
    }
    assert!(lowest < 2.1, "it swung down: lowest y {lowest}");
}
