//! The RON scene format: standard scene files equal the builders, round trips, and
//! the promised error messages for bad files.

use std::path::PathBuf;

use thud_scene::{STANDARD_NAMES, SceneError, load_file, load_str, parse_str, standard, to_ron};

fn scenes_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/scenes")
}

#[test]
fn standard_scene_files_match_the_builders() {
    for name in STANDARD_NAMES {
        let file = load_file(&scenes_dir().join(format!("{name}.ron")))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let built = thud_scene::resolve(standard(name).unwrap(), None, name).unwrap();
        assert_eq!(file.name, name);
        assert_eq!(file.bodies.len(), built.bodies.len(), "{name}");
        for (a, b) in file.bodies.iter().zip(&built.bodies) {
            assert_eq!(a, b, "{name}");
        }
        assert_eq!(file.settings, built.settings, "{name}");
        assert_eq!(file.camera, built.camera, "{name}");
        assert_eq!(file.resting, built.resting, "{name}");
    }
}

#[test]
fn raw_and_resolved_scenes_round_trip() {
    for entry in std::fs::read_dir(scenes_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "ron") {
            continue;
        }
        let src = std::fs::read_to_string(&path).unwrap();
        let raw = parse_str(&src, "x").unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let again = parse_str(&to_ron(&raw).unwrap(), "y").unwrap();
        assert!(raw == again, "{}", path.display());
        let resolved = load_str(&src, "x").unwrap();
        let text = to_ron(&resolved).unwrap();
        let back = load_str(&text, "z").unwrap();
        assert_eq!(back.bodies.len(), resolved.bodies.len());
        for (a, b) in back.bodies.iter().zip(&resolved.bodies) {
            assert!(a == b, "{}: body {}", path.display(), a.name);
        }
        assert!(back == resolved, "{}", path.display());
    }
}

fn err(src: &str) -> String {
    match load_str(src, "bad.ron") {
        Ok(_) => panic!("expected an error for {src}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn unknown_field_names_file_line_column_and_field() {
    let src = "(\n  bodies: [\n    (name: \"a\", shap: Sphere(radius: 1.0)),\n  ],\n)";
    let e = err(src);
    assert!(e.starts_with("bad.ron:3:"), "{e}");
    assert!(e.contains("shap"), "{e}");
    assert!(e.contains("unknown field"), "{e}");
}

#[test]
fn wrong_type_names_the_field() {
    let src = "(\n  settings: (dt: \"fast\"),\n)";
    let e = err(src);
    assert!(e.starts_with("bad.ron:2:"), "{e}");
    assert!(e.contains("dt"), "{e}");
}

#[test]
fn missing_shape_is_reported() {
    let e = err("(bodies: [(name: \"a\")])");
    assert!(e.contains("bad.ron:1:"), "{e}");
    assert!(e.contains("shape"), "{e}");
}

#[test]
fn unknown_body_in_an_event_is_a_load_error() {
    let src = "(\n  bodies: [(name: \"ball\", shape: Sphere(radius: 0.5))],\n  timeline: [\n    (at: 1.0, action: Impulse(body: \"bal\", impulse: (1.0, 0.0, 0.0))),\n  ],\n)";
    let e = load_str(src, "bad.ron").unwrap_err();
    let SceneError::Invalid {
        location,
        field,
        message,
    } = &e
    else {
        panic!("{e:?}")
    };
    assert_eq!((location.line, location.column), (4, 37), "{e}");
    assert!(
        field.contains("timeline[0]") && field.ends_with(".body"),
        "{e}"
    );
    assert!(message.contains("`bal`"), "{e}");
}

#[test]
fn removed_bodies_cannot_be_used_later() {
    let src = "(bodies: [(name: \"b\", shape: Sphere(radius: 0.5))], timeline: [\
        (at: 2.0, action: SetVelocity(body: \"b\", linear: (0.0, 1.0, 0.0))),\
        (at: 1.0, action: Remove(body: \"b\"))])";
    assert!(err(src).contains("was removed before"));
}

#[test]
fn spawned_bodies_can_be_used_after_their_spawn() {
    let src = "(timeline: [\
        (at: 1.0, action: Spawn(name: \"s\", shape: Sphere(radius: 0.5))),\
        (at: 2.0, action: Remove(body: \"s\"))],\
        expectations: [(check: Speed(body: \"s\", max: 1.0))])";
    assert!(load_str(src, "ok.ron").is_ok());
    let src = "(timeline: [\
        (at: 2.0, action: Spawn(name: \"s\", shape: Sphere(radius: 0.5))),\
        (at: 1.0, action: Remove(body: \"s\"))])";
    assert!(err(src).contains("not a body"));
}

#[test]
fn unknown_body_in_an_expectation_is_a_load_error() {
    let e = err("(expectations: [(at: 1.0, check: Speed(body: \"ghost\", max: 1.0))])");
    assert!(e.contains("ghost") && e.contains("expectations[0]"), "{e}");
}

#[test]
fn bad_numbers_and_names() {
    assert!(err("(bodies: [(shape: Sphere(radius: -1.0))])").contains("radius"));
    assert!(err("(bodies: [(name: \"a\", shape: Sphere(radius: 1.0)), (name: \"a\", shape: Sphere(radius: 1.0))])").contains("duplicate"));
    assert!(
        err("(bodies: [(shape: Sphere(radius: 1.0), material: \"ice\")])")
            .contains("unknown material")
    );
    assert!(err("(settings: (dt: 0.0))").contains("settings.dt"));
    assert!(err("(settings: (friction_stride: Some(0)))").contains("settings.friction_stride"));
    assert!(
        err("(settings: (reuse_rows_within: Some(-0.001)))").contains("settings.reuse_rows_within")
    );
    assert!(err("(settings: (touching_gap: Some(-1e-5)))").contains("settings.touching_gap"));
    assert!(err("(settings: (touching_gap: Some(inf)))").contains("settings.touching_gap"));
    assert!(err("(settings: (sweep_tolerance: Some(-1e-6)))").contains("settings.sweep_tolerance"));
    assert!(err("(settings: (sweep_tolerance: Some(NaN)))").contains("settings.sweep_tolerance"));
    assert!(err("(bodies: [(shape: Halfspace(normal: (0.0, 1.0, 0.0)))])").contains("Static"));
    assert!(
        err("(bodies: [(shape: Sphere(radius: 1.0), kind: Floppy)])").contains("unknown variant")
    );
    assert!(err("(patterns: [Grid(prefix: \"g\", counts: (1000, 1000, 1000), origin: (0.0, 0.0, 0.0), spacing: (1.0, 1.0, 1.0), body: (shape: Sphere(radius: 0.5)))])").contains("more than"));
    // Counts whose product overflows 64 bits are rejected, not a panic.
    assert!(err("(patterns: [Grid(prefix: \"g\", counts: (4000000000, 4000000000, 4000000000), origin: (0.0, 0.0, 0.0), spacing: (1.0, 1.0, 1.0), body: (shape: Sphere(radius: 0.5)))])").contains("more than"));
    assert!(err("(patterns: [Pyramid3d(prefix: \"p\", base: 4000000000, origin: (0.0, 0.0, 0.0), body: (shape: Sphere(radius: 0.5)))])").contains("more than"));
    assert!(
        err("(camera: (eye: (1.0, 1.0, 1.0), target: (0.0, 0.0, 0.0), width: 100000))")
            .contains("camera")
    );
}

#[test]
fn materials_names_euler_angles_resolve() {
    let src = "(materials: {\"ice\": (friction: 0.05, density: 2.0)}, bodies: [\
        (shape: Sphere(radius: 1.0), material: \"ice\", euler_deg: (90.0, 0.0, 0.0))])";
    let s = load_str(src, "ok.ron").unwrap();
    let b = &s.bodies[0];
    assert_eq!(b.name, "body_0");
    assert_eq!((b.friction, b.density), (0.05, 2.0));
    let expect = glam::Quat::from_rotation_y(std::f32::consts::FRAC_PI_2);
    assert!(b.rotation.dot(expect) > 0.9999);
    assert!(b.euler_deg.is_none());
}

#[test]
fn missing_file_is_an_io_error() {
    let e = load_file(std::path::Path::new("/nonexistent/x.ron")).unwrap_err();
    assert!(matches!(e, SceneError::Io { .. }));
}

#[test]
fn scene_settings_reach_the_world_settings() {
    let scene = load_str(
        "(settings: (friction_stride: Some(1), reuse_rows_within: Some(0.0), touching_gap: Some(1e-5)))",
        "s.ron",
    )
    .unwrap();
    let s = thud_scene::instantiate::settings_of(&scene.settings);
    assert_eq!(
        (s.friction_stride, s.reuse_rows_within, s.touching_gap),
        (1, 0.0, 1e-5)
    );
    // Absent, the engine's defaults.
    let plain = load_str("()", "p.ron").unwrap();
    let d = thud_dynamics::Settings::default();
    let s = thud_scene::instantiate::settings_of(&plain.settings);
    assert_eq!(
        (s.friction_stride, s.reuse_rows_within, s.touching_gap),
        (d.friction_stride, d.reuse_rows_within, d.touching_gap)
    );
}
