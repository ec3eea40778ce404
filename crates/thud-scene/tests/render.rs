//! The renderer draws what is there: a box on the ground from a fixed camera.

use glam::{Quat, Vec3};
use thud_scene::render::{DrawBody, render_frame};
use thud_scene::standard::{ground, standard, unit_box};
use thud_scene::{BodyDef, Camera};

fn draw(bodies: &[BodyDef]) -> Vec<DrawBody<'_>> {
    bodies
        .iter()
        .enumerate()
        .map(|(index, def)| DrawBody {
            def,
            index,
            position: def.position,
            rotation: def.rotation,
        })
        .collect()
}

#[test]
fn box_on_the_ground_has_the_expected_silhouette() {
    let mut b = unit_box();
    b.position = Vec3::new(0.0, 0.5, 0.0);
    let bodies = [ground(), b];
    // Looking straight along −z from (0, 0.5, 10): the unit box's front face spans
    // x, y ∈ [−0.5, 0.5] at distance 9.5; with a 45° lens the projection is known.
    let mut cam = Camera::looking(Vec3::new(0.0, 0.5, 10.0), Vec3::new(0.0, 0.5, 0.0));
    cam.width = 200;
    cam.height = 200;
    let img = render_frame(&cam, &draw(&bodies));
    if std::env::var_os("THUD_KEEP_RENDERS").is_some() {
        img.save("/tmp/thud_box_silhouette.png").unwrap();
    }
    let f = 1.0 / (22.5f32.to_radians()).tan();
    let half_px = f * 0.5 / 9.5 * 100.0; // half width of the front face in pixels
    // Box colour is the first dynamic palette entry (orange): red clearly above blue.
    let is_box = |x: u32, y: u32| {
        let p = img.get_pixel(x, y);
        p[0] as i32 > p[2] as i32 + 40
    };
    let mut count = 0;
    for y in 0..200 {
        for x in 0..200 {
            if is_box(x, y) {
                count += 1;
            }
        }
    }
    let expected = (2.0 * half_px) * (2.0 * half_px);
    assert!(
        (count as f32 - expected).abs() < 0.15 * expected,
        "{count} vs {expected}"
    );
    // Centre is box, well outside is not; the ground lies below the box.
    assert!(is_box(100, 100));
    assert!(!is_box(100 + 2 * half_px as u32, 100));
    assert!(!is_box(100, 100 - 2 * half_px as u32));
    let below = img.get_pixel(100, 100 + 2 * half_px as u32);
    let sky = img.get_pixel(100, 5);
    assert_ne!(below, sky, "ground under the box");
}

#[test]
fn standard_scene_renders_non_blank() {
    for name in thud_scene::STANDARD_NAMES {
        let s = standard(name).unwrap();
        let img = render_frame(s.camera.as_ref().unwrap(), &draw(&s.bodies));
        if std::env::var_os("THUD_KEEP_RENDERS").is_some() {
            img.save(format!("/tmp/thud_{name}.png")).unwrap();
        }
        let distinct: std::collections::HashSet<_> = img.pixels().map(|p| p.0).collect();
        assert!(distinct.len() > 50, "{name}");
    }
    let _ = Quat::IDENTITY;
}
