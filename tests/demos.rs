//! Every demo file loads, is built into the `thud` binary, and passes its expectations.
//!
//! Long demos run short here (a second or two of simulated time); expectations timed
//! after the end of a short run are skipped, the end-of-run ones are checked at its
//! end. Demos the engine cannot pass yet are listed in `KNOWN_FAILING` with the reason:
//! they must still load and run without an engine error, and the test reports (not
//! hides) their failures; when one starts passing the test says so, so the entry can go.

use std::path::PathBuf;

use thud::demos::{DEMOS, demo};
use thud::scene::{RunOptions, Simulation, load_file};

/// Demos whose expectations fail with the current engine, and why.
const KNOWN_FAILING: &[(&str, &str)] = &[];

fn scenes_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/scenes")
}

#[test]
fn every_scene_file_is_a_built_in_demo_and_loads() {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(scenes_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "ron") {
            let scene = load_file(&path).unwrap_or_else(|e| panic!("{e}"));
            let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
            assert_eq!(scene.name, stem, "a demo's name is its file name");
            assert!(
                !scene.description.is_empty(),
                "{stem}: says what a viewer should see"
            );
            assert!(!scene.expectations.is_empty(), "{stem}: has expectations");
            let src = std::fs::read_to_string(&path).unwrap();
            assert_eq!(
                demo(&stem),
                Some(src.as_str()),
                "{stem} is in thud::demos::DEMOS"
            );
            files.push(stem);
        }
    }
    assert_eq!(files.len(), DEMOS.len());
    for name in thud::scene::STANDARD_NAMES {
        assert!(
            files.iter().any(|f| f == name),
            "standard scene {name} has a file"
        );
    }
}

fn check(name: &str, seconds: Option<f32>) {
    let scene = thud::demos::load_demo(name).unwrap().unwrap();
    let opts = RunOptions {
        seconds,
        threads: 1,
        ..RunOptions::default()
    };
    let mut sim = Simulation::new(scene, &opts).unwrap();
    while !sim.is_done() {
        sim.step().unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    let report = sim.finish();
    let known = KNOWN_FAILING.iter().find(|(n, _)| *n == name);
    match (report.passed(), known) {
        (true, None) => assert!(
            report.summary.expectations_passed > 0,
            "{name}: nothing checked"
        ),
        (false, None) => panic!("{name} failed:\n{}", report.text()),
        (false, Some((_, why))) => eprintln!(
            "{name}: known failing ({why}):\n{}",
            report.failures().join("\n")
        ),
        (true, Some(_)) => eprintln!("{name} passes now: remove it from KNOWN_FAILING"),
    }
}

macro_rules! demo_tests {
    ($($test:ident: $name:literal, $seconds:expr;)*) => {$(
        #[test]
        fn $test() {
            check($name, $seconds);
        }
    )*};
}

demo_tests! {
    tower_20: "tower_20", None;
    pyramid_20: "pyramid_20", Some(3.0);
    pyramid_40: "pyramid_40", Some(0.5);
    pyramid_100: "pyramid_100", Some(0.05);
    pyramid3d_10: "pyramid3d_10", Some(1.0);
    pile_1000: "pile_1000", Some(0.5);
    domino_chain: "domino_chain", None;
    card_house: "card_house", None;
    jenga: "jenga", None;
    wall_sphere: "wall_sphere", None;
    rain_bin: "rain_bin", None;
    seesaw: "seesaw", None;
    newtons_cradle: "newtons_cradle", None;
    incline: "incline", None;
    pendulum: "pendulum", None;
    chain_20: "chain_20", Some(4.0);
    rope_bridge: "rope_bridge", None;
    // The whole run: once the ragdoll lies still (after ~3 s) the Auto solver's searches
    // of its island mostly fail and back off (`exact::Starts`), which this covers.
    ragdoll_stairs: "ragdoll_stairs", None;
    hinged_door: "hinged_door", None;
    motor_wheel: "motor_wheel", None;
    heavy_on_light: "heavy_on_light", None;
}
