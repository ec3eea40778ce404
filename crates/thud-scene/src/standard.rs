//! The standard scenes of the project's shared yardstick (`scenes.md`), built here
//! and only here, to exactly that specification: the demos, the tests, the criterion
//! benches and the comparison with other engines all call [`standard`].
//!
//! Common to all: gravity (0, −9.81, 0), dt = 1/60 s, boxes of half extents 0.5,
//! density 1 (1 kg), friction 0.6, restitution 0; the ground is a static cuboid of
//! half extents (200, 0.5, 200) centred at (0, −0.5, 0), so its top face is y = 0.
//! The ground is body 0 (then the bin walls of `pile_1000`), then the boxes.
//! Sleeping is **off**, as for timing runs; the demo files may turn it on.
//!
//! | name | boxes | layout |
//! |---|---|---|
//! | `tower_20` | 20 | box i centred at (0, 0.5 + i, 0) |
//! | `pyramid_20` | 210 | row r has 20 − r boxes at x = c − (20 − r − 1)/2, y = 0.5 + r |
//! | `pyramid_40` | 820 | as `pyramid_20`, base 40 |
//! | `pyramid_100` | 5050 | as `pyramid_20`, base 100 |
//! | `pyramid3d_10` | 385 | layer k has (10 − k)² boxes |
//! | `pile_1000` | 1000 (+ 4 walls) | a jittered 10×10×10 lattice dropped into a bin |

use glam::Vec3;

use crate::pattern::{Jitter, Pattern};
use crate::schema::{BodyDef, BodyKindDef, Camera, Scene, SceneSettings, ShapeDef};

/// The names [`standard`] knows, in the order of `scenes.md`.
pub const STANDARD_NAMES: [&str; 6] = [
    "tower_20",
    "pyramid_20",
    "pyramid_40",
    "pyramid_100",
    "pyramid3d_10",
    "pile_1000",
];

/// Half extents of every standard box.
pub const BOX_HALF_EXTENTS: Vec3 = Vec3::splat(0.5);

/// Half extents of the standard ground.
pub const GROUND_HALF_EXTENTS: Vec3 = Vec3::new(200.0, 0.5, 200.0);

/// A standard scene by name, `None` for a name not in [`STANDARD_NAMES`].
#[must_use]
pub fn standard(name: &str) -> Option<Scene> {
    let scene = match name {
        "tower_20" => tower(20),
        "pyramid_20" => pyramid(20),
        "pyramid_40" => pyramid(40),
        "pyramid_100" => pyramid(100),
        "pyramid3d_10" => pyramid3d(10),
        "pile_1000" => pile_1000(),
        _ => return None,
    };
    Some(scene)
}

/// The standard ground body, named `ground`.
#[must_use]
pub fn ground() -> BodyDef {
    BodyDef::new(
        "ground",
        ShapeDef::cuboid(GROUND_HALF_EXTENTS),
        Vec3::new(0.0, -0.5, 0.0),
    )
    .with_kind(BodyKindDef::Static)
}

/// The standard unit box template (unnamed, at the origin).
#[must_use]
pub fn unit_box() -> BodyDef {
    BodyDef::new("", ShapeDef::cuboid(BOX_HALF_EXTENTS), Vec3::ZERO)
}

/// The settings of the standard scenes: gravity (0, −9.81, 0), dt = 1/60, sleeping off.
#[must_use]
pub fn standard_settings() -> SceneSettings {
    SceneSettings {
        sleeping: false,
        ..SceneSettings::default()
    }
}

/// The camera of a standard scene (scaled from `size` for other sizes).
fn camera_for(name: &str, size: f32) -> Camera {
    let (eye, target) = match name {
        "tower_20" => (Vec3::new(10.0, 12.0, 32.0), Vec3::new(0.0, 9.0, 0.0)),
        "pyramid_20" => (Vec3::new(8.0, 12.0, 34.0), Vec3::new(0.0, 9.0, 0.0)),
        "pyramid_40" => (Vec3::new(16.0, 24.0, 68.0), Vec3::new(0.0, 18.0, 0.0)),
        "pyramid_100" => (Vec3::new(40.0, 60.0, 170.0), Vec3::new(0.0, 45.0, 0.0)),
        "pyramid3d_10" => (Vec3::new(12.0, 10.0, 16.0), Vec3::new(0.0, 3.0, 0.0)),
        _ if name.starts_with("pyramid3d") => (
            Vec3::new(1.2, 1.0, 1.6) * size,
            Vec3::new(0.0, 0.3, 0.0) * size,
        ),
        _ => (
            Vec3::new(0.4, 0.6, 1.7) * size,
            Vec3::new(0.0, 0.45, 0.0) * size,
        ),
    };
    Camera::looking(eye, target)
}

fn base_scene(name: &str, description: &str, resting: bool, camera: Camera) -> Scene {
    Scene {
        name: name.to_string(),
        description: description.to_string(),
        seconds: 10.0,
        resting,
        settings: standard_settings(),
        bodies: vec![ground()],
        camera: Some(camera),
        ..Scene::default()
    }
}

/// `tower_{n}`: one vertical stack of `n` boxes, box i centred at (0, 0.5 + i, 0).
#[must_use]
pub fn tower(n: u32) -> Scene {
    let h = n as f32;
    let mut s = base_scene(
        &format!("tower_{n}"),
        &format!("A single column of {n} unit boxes resting on the ground; it should stand still."),
        true,
        camera_for(&format!("tower_{n}"), h),
    );
    s.bodies.extend(
        Pattern::Stack {
            prefix: "box".into(),
            count: n,
            origin: Vec3::new(0.0, 0.5, 0.0),
            step: Vec3::Y,
            body: unit_box(),
            jitter: None,
        }
        .expand(),
    );
    s
}

/// `pyramid_{base}`: a one-box-deep pyramid in the x–y plane with `base` boxes in the
/// bottom row, exactly resting.
#[must_use]
pub fn pyramid(base: u32) -> Scene {
    let b = base as f32;
    let mut s = base_scene(
        &format!("pyramid_{base}"),
        &format!(
            "A one-box-deep pyramid of {} unit boxes, {base} at the base; it should stand still.",
            base * (base + 1) / 2
        ),
        true,
        camera_for(&format!("pyramid_{base}"), b),
    );
    s.bodies.extend(
        Pattern::Pyramid {
            prefix: "box".into(),
            base,
            origin: Vec3::new(0.0, 0.5, 0.0),
            spacing: Vec3::ONE,
            body: unit_box(),
        }
        .expand(),
    );
    s
}

/// `pyramid3d_{base}`: a square pyramid, layer k holding (base − k)² boxes.
#[must_use]
pub fn pyramid3d(base: u32) -> Scene {
    let b = base as f32;
    let n = base * (base + 1) * (2 * base + 1) / 6;
    let mut s = base_scene(
        &format!("pyramid3d_{base}"),
        &format!(
            "A square pyramid of {n} unit boxes, {base}×{base} at the base; it should stand still."
        ),
        true,
        camera_for(&format!("pyramid3d_{base}"), b),
    );
    s.bodies.extend(
        Pattern::Pyramid3d {
            prefix: "box".into(),
            base,
            origin: Vec3::new(0.0, 0.5, 0.0),
            spacing: Vec3::ONE,
            body: unit_box(),
        }
        .expand(),
    );
    s
}

/// The four static walls of the `pile_1000` bin (interior |x|, |z| < 10.5).
#[must_use]
pub fn bin_walls() -> Vec<BodyDef> {
    let x_wall = ShapeDef::cuboid(Vec3::new(0.5, 5.0, 11.5));
    let z_wall = ShapeDef::cuboid(Vec3::new(11.5, 5.0, 0.5));
    [
        ("wall_east", x_wall, Vec3::new(11.0, 5.0, 0.0)),
        ("wall_west", x_wall, Vec3::new(-11.0, 5.0, 0.0)),
        ("wall_north", z_wall, Vec3::new(0.0, 5.0, 11.0)),
        ("wall_south", z_wall, Vec3::new(0.0, 5.0, -11.0)),
    ]
    .into_iter()
    .map(|(name, shape, p)| BodyDef::new(name, shape, p).with_kind(BodyKindDef::Static))
    .collect()
}

/// The jittered lattice pattern of `pile_1000` (SplitMix64 seed 42).
#[must_use]
pub fn pile_pattern() -> Pattern {
    Pattern::Grid {
        prefix: "box".into(),
        counts: (10, 10, 10),
        origin: Vec3::new(-9.0, 2.0, -9.0),
        spacing: Vec3::splat(2.0),
        body: unit_box(),
        jitter: Some(Jitter {
            seed: 42,
            position: Vec3::new(0.1, 0.0, 0.1),
            rotation: true,
        }),
    }
}

/// `pile_1000`: a 10 × 10 × 10 lattice of randomly turned boxes dropped into a bin.
#[must_use]
pub fn pile_1000() -> Scene {
    let mut s = base_scene(
        "pile_1000",
        "A thousand randomly turned boxes fall into a walled bin and settle into a heap.",
        false,
        Camera::looking(Vec3::new(24.0, 26.0, 34.0), Vec3::new(0.0, 4.0, 0.0)),
    );
    s.bodies.extend(bin_walls());
    s.bodies.extend(pile_pattern().expand());
    s
}

/// For a resting scene: the index in `bodies` of the top box (the dynamic body with
/// the highest initial centre; the first such body on ties) and its ideal centre
/// height, the `y` from which sag is measured.
#[must_use]
pub fn ideal_top(scene: &Scene) -> Option<(usize, f32)> {
    let mut best: Option<(usize, f32)> = None;
    for (i, b) in scene.bodies.iter().enumerate() {
        if b.kind != BodyKindDef::Dynamic {
            continue;
        }
        if best.is_none_or(|(_, y)| b.position.y > y) {
            best = Some((i, b.position.y));
        }
    }
    best
}

/// Sag of a resting scene: the ideal top centre height minus the top box's actual one.
#[must_use]
pub fn sag(ideal_top_y: f32, actual_top_y: f32) -> f32 {
    ideal_top_y - actual_top_y
}

/// Drift of a resting scene: the largest horizontal (x–z) displacement of any body
/// from its start, given `(start, now)` centre pairs.
#[must_use]
pub fn drift(pairs: impl IntoIterator<Item = (Vec3, Vec3)>) -> f32 {
    pairs
        .into_iter()
        .map(|(a, b)| {
            let d = b - a;
            (d.x * d.x + d.z * d.z).sqrt()
        })
        .fold(0.0, f32::max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::SplitMix64;
    use glam::{EulerRot, Quat};

    fn dynamic(s: &Scene) -> Vec<&BodyDef> {
        s.bodies
            .iter()
            .filter(|b| b.kind == BodyKindDef::Dynamic)
            .collect()
    }

    #[test]
    fn counts_match_the_spec() {
        let expect = [210, 820, 5050];
        for (name, n) in ["pyramid_20", "pyramid_40", "pyramid_100"]
            .iter()
            .zip(expect)
        {
            let s = standard(name).unwrap();
            assert_eq!(dynamic(&s).len(), n, "{name}");
            assert_eq!(s.bodies.len(), n + 1);
        }
        assert_eq!(dynamic(&standard("tower_20").unwrap()).len(), 20);
        assert_eq!(dynamic(&standard("pyramid3d_10").unwrap()).len(), 385);
        let pile = standard("pile_1000").unwrap();
        assert_eq!(dynamic(&pile).len(), 1000);
        assert_eq!(pile.count(BodyKindDef::Static), 5);
        assert!(standard("nope").is_none());
        for name in STANDARD_NAMES {
            let s = standard(name).unwrap();
            assert_eq!(s.name, name);
            assert!(!s.settings.sleeping);
            assert_eq!(s.settings.gravity, Vec3::new(0.0, -9.81, 0.0));
            assert_eq!(s.bodies[0], ground());
        }
    }

    #[test]
    fn ground_and_boxes_follow_the_common_settings() {
        let g = ground();
        assert_eq!(g.position, Vec3::new(0.0, -0.5, 0.0));
        assert_eq!(g.shape, ShapeDef::cuboid(Vec3::new(200.0, 0.5, 200.0)));
        assert_eq!(g.kind, BodyKindDef::Static);
        for b in dynamic(&standard("pyramid_20").unwrap()) {
            assert_eq!(b.shape, ShapeDef::cuboid(Vec3::splat(0.5)));
            assert_eq!((b.friction, b.restitution, b.density), (0.6, 0.0, 1.0));
            assert_eq!(b.velocity, Vec3::ZERO);
            assert_eq!(b.rotation, Quat::IDENTITY);
        }
    }

    #[test]
    fn tower_positions() {
        let s = standard("tower_20").unwrap();
        for (i, b) in dynamic(&s).iter().enumerate() {
            assert_eq!(b.position, Vec3::new(0.0, 0.5 + i as f32, 0.0));
        }
        assert_eq!(ideal_top(&s), Some((20, 19.5)));
    }

    #[test]
    fn pyramid_positions() {
        let s = standard("pyramid_20").unwrap();
        let boxes = dynamic(&s);
        // Row 0: x = c − 9.5.
        assert_eq!(boxes[0].position, Vec3::new(-9.5, 0.5, 0.0));
        assert_eq!(boxes[19].position, Vec3::new(9.5, 0.5, 0.0));
        // Row 1 starts at x = −9.
        assert_eq!(boxes[20].position, Vec3::new(-9.0, 1.5, 0.0));
        assert_eq!(boxes[209].position, Vec3::new(0.0, 19.5, 0.0));
        assert_eq!(ideal_top(&s), Some((210, 19.5)));
        let big = standard("pyramid_100").unwrap();
        assert_eq!(big.bodies[1].position, Vec3::new(-49.5, 0.5, 0.0));
        assert_eq!(big.bodies[5050].position, Vec3::new(0.0, 99.5, 0.0));
    }

    #[test]
    fn pyramid3d_positions() {
        let s = standard("pyramid3d_10").unwrap();
        let boxes = dynamic(&s);
        assert_eq!(boxes[0].position, Vec3::new(-4.5, 0.5, -4.5));
        assert_eq!(boxes[99].position, Vec3::new(4.5, 0.5, 4.5));
        assert_eq!(boxes[100].position, Vec3::new(-4.0, 1.5, -4.0));
        assert_eq!(boxes[384].position, Vec3::new(0.0, 9.5, 0.0));
        for k in 0..10 {
            let n = boxes
                .iter()
                .filter(|b| b.position.y == 0.5 + k as f32)
                .count();
            assert_eq!(n, (10 - k) * (10 - k));
        }
    }

    #[test]
    fn pile_walls_and_first_draws() {
        let s = standard("pile_1000").unwrap();
        let walls = &s.bodies[1..5];
        assert_eq!(walls[0].position, Vec3::new(11.0, 5.0, 0.0));
        assert_eq!(walls[0].shape, ShapeDef::cuboid(Vec3::new(0.5, 5.0, 11.5)));
        assert_eq!(walls[2].position, Vec3::new(0.0, 5.0, 11.0));
        assert_eq!(walls[3].shape, ShapeDef::cuboid(Vec3::new(11.5, 5.0, 0.5)));

        // Recompute the first boxes straight from the spec's recipe.
        let mut rng = SplitMix64::new(42);
        let mut u = || rng.next_f64();
        let boxes = dynamic(&s);
        let mut n = 0;
        for i in 0..10 {
            for j in 0..10 {
                for k in 0..10 {
                    let jx = -0.1 + 0.2 * u();
                    let jz = -0.1 + 0.2 * u();
                    let tau = std::f64::consts::TAU;
                    let (a, b, c) = (tau * u(), tau * u(), tau * u());
                    let p = Vec3::new(
                        ((i as f64 - 4.5) * 2.0 + jx) as f32,
                        (2.0 + j as f64 * 2.0) as f32,
                        ((k as f64 - 4.5) * 2.0 + jz) as f32,
                    );
                    let q = Quat::from_euler(EulerRot::YXZ, a as f32, b as f32, c as f32);
                    assert!((boxes[n].position - p).length() < 1e-6, "box {n}");
                    assert!(boxes[n].rotation.dot(q) > 1.0 - 1e-6, "box {n}");
                    n += 1;
                }
            }
        }
        assert_eq!(n, 1000);
        // First box: pinned numbers so a change of recipe shows up here.
        let mut rng = SplitMix64::new(42);
        let first = rng.next_u64();
        assert_eq!(first, 0xBDD7_3226_2FEB_6E95);
        assert!(boxes[0].position.x > -9.1 && boxes[0].position.x < -8.9);
        assert_eq!(boxes[0].position.y, 2.0);
        assert_eq!(boxes[999].position.y, 20.0);
    }

    #[test]
    fn pile_boxes_start_apart_and_inside_the_bin() {
        let s = standard("pile_1000").unwrap();
        for b in dynamic(&s) {
            assert!(b.position.x.abs() + 0.87 < 10.5 && b.position.z.abs() + 0.87 < 10.5);
        }
    }

    #[test]
    fn drift_and_sag_helpers() {
        assert_eq!(sag(19.5, 19.4), 19.5 - 19.4);
        let d = drift([
            (Vec3::ZERO, Vec3::new(3.0, 9.0, 4.0)),
            (Vec3::ZERO, Vec3::X),
        ]);
        assert_eq!(d, 5.0);
    }
}
