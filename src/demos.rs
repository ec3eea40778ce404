//! The built-in demos: the scene files of `examples/scenes/`, compiled into the binary
//! so `thud run pyramid_20` works from anywhere.

macro_rules! demos {
    ($($name:literal),* $(,)?) => {
        &[$(($name, include_str!(concat!("../examples/scenes/", $name, ".ron")))),*]
    };
}

/// `(name, RON text)` of every built-in demo, standard scenes first.
pub const DEMOS: &[(&str, &str)] = demos![
    "tower_20",
    "pyramid_20",
    "pyramid_40",
    "pyramid_100",
    "pyramid3d_10",
    "pile_1000",
    "domino_chain",
    "card_house",
    "jenga",
    "wall_sphere",
    "rain_bin",
    "seesaw",
    "newtons_cradle",
    "incline",
    "pendulum",
    "chain_20",
    "rope_bridge",
    "ragdoll_stairs",
    "hinged_door",
    "motor_wheel",
    "heavy_on_light",
];

/// The RON text of a built-in demo.
#[must_use]
pub fn demo(name: &str) -> Option<&'static str> {
    DEMOS.iter().find(|(n, _)| *n == name).map(|(_, s)| *s)
}

/// Loads a built-in demo.
pub fn load_demo(name: &str) -> Option<Result<thud_scene::Scene, thud_scene::SceneError>> {
    demo(name).map(|src| thud_scene::load_str(src, &format!("{name}.ron")))
}
