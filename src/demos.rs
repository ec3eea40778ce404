//! The built-in demos: the scene files of `examples/scenes/`, compiled into the binary
//! so `thud run pyramid_20` works from anywhere.

/// `(name, RON text)` of every built-in demo, standard scenes first.
pub const DEMOS: &[(&str, &str)] = &[
    ("tower_20", include_str!("../examples/scenes/tower_20.ron")),
    (
        "pyramid_20",
        include_str!("../examples/scenes/pyramid_20.ron"),
    ),
    (
        "pyramid_40",
        include_str!("../examples/scenes/pyramid_40.ron"),
    ),
    (
        "pyramid_100",
        include_str!("../examples/scenes/pyramid_100.ron"),
    ),
    (
        "pyramid3d_10",
        include_str!("../examples/scenes/pyramid3d_10.ron"),
    ),
    (
        "pile_1000",
        include_str!("../examples/scenes/pile_1000.ron"),
    ),
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
