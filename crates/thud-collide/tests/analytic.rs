//! Analytic contact cases with known answers.

use glam::{Quat, Vec3};
use thud_collide::{Manifold, Pose, Shape, contact_manifolds};

const MARGIN: f32 = 0.02;

fn one(a: &Shape, pa: Pose, b: &Shape, pb: Pose) -> Manifold {
    let mut out = Vec::new();
    contact_manifolds(a, &pa, b, &pb, MARGIN, &mut out);
    assert_eq!(out.len(), 1, "expected one manifold, got {}", out.len());
    out.pop().unwrap().2
}

fn none(a: &Shape, pa: Pose, b: &Shape, pb: Pose) {
    let mut out = Vec::new();
    contact_manifolds(a, &pa, b, &pb, MARGIN, &mut out);
    assert!(out.is_empty(), "expected no contact, got {out:?}");
}

fn cube() -> Shape {
    Shape::cuboid(Vec3::splat(0.5)).unwrap()
}

fn check_consistent(m: &Manifold, pa: &Pose, pb: &Pose) {
    assert!((m.normal.length() - 1.0).abs() < 1e-4);
    for p in &m.points {
        let xa = pa.transform_point(p.local_a);
        let xb = pb.transform_point(p.local_b);
        assert!((m.normal.dot(xb - xa) - p.separation).abs() < 1e-4, "{p:?}");
        assert!(((xa + xb) * 0.5 - p.point).length() < 1e-4);
        assert!(p.point.is_finite() && p.separation.is_finite());
    }
}

#[test]
fn box_resting_on_plane_gives_four_corners() {
    let ground = Shape::halfspace(Vec3::Y).unwrap();
    let pb = Pose::from_translation(Vec3::new(1.0, 0.5, -2.0));
    let m = one(&ground, Pose::IDENTITY, &cube(), pb);
    assert_eq!(m.points.len(), 4);
    assert!((m.normal - Vec3::Y).length() < 1e-6);
    for p in &m.points {
        assert!(p.separation.abs() < 1e-6);
        assert!((p.point.y).abs() < 1e-6);
        assert!(
            ((p.point.x - 1.0).abs() - 0.5).abs() < 1e-6
                && ((p.point.z + 2.0).abs() - 0.5).abs() < 1e-6
        );
    }
    check_consistent(&m, &Pose::IDENTITY, &pb);
    // And the other order flips the normal.
    let m2 = one(&cube(), pb, &ground, Pose::IDENTITY);
    assert!((m2.normal + Vec3::Y).length() < 1e-6);
    assert_eq!(m2.points.len(), 4);
}

#[test]
fn box_on_box_face_to_face() {
    let pa = Pose::from_translation(Vec3::new(0.0, 0.5, 0.0));
    let pb = Pose::from_translation(Vec3::new(0.0, 1.5, 0.0));
    let m = one(&cube(), pa, &cube(), pb);
    assert_eq!(m.points.len(), 4);
    assert!((m.normal - Vec3::Y).length() < 1e-6);
    for p in &m.points {
        assert!(p.separation.abs() < 1e-5);
        assert!((p.point.y - 1.0).abs() < 1e-5);
        assert!((p.point.x.abs() - 0.5).abs() < 1e-5 && (p.point.z.abs() - 0.5).abs() < 1e-5);
    }
    check_consistent(&m, &pa, &pb);
    let mut ids: Vec<u32> = m.points.iter().map(|p| p.feature.0).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 4);
}

#[test]
fn box_on_box_rotated_45_degrees() {
    let pa = Pose::from_translation(Vec3::new(0.0, 0.5, 0.0));
    let pb = Pose::new(
        Vec3::new(0.0, 1.5, 0.0),
        Quat::from_rotation_y(std::f32::consts::FRAC_PI_4),
    );
    let m = one(&cube(), pa, &cube(), pb);
    assert_eq!(m.points.len(), 4);
    assert!((m.normal - Vec3::Y).length() < 1e-5);
    for p in &m.points {
        assert!(p.separation.abs() < 1e-5);
        // On the octagon where the two squares overlap.
        assert!(p.point.x.abs() <= 0.5 + 1e-5 && p.point.z.abs() <= 0.5 + 1e-5);
        let r = Quat::from_rotation_y(-std::f32::consts::FRAC_PI_4) * p.point;
        assert!(r.x.abs() <= 0.5 + 1e-5 && r.z.abs() <= 0.5 + 1e-5);
    }
    check_consistent(&m, &pa, &pb);
}

#[test]
fn box_on_two_boxes_pyramid_layout() {
    // Row 1 box sits across two row-0 boxes: half its face on each.
    let top = Pose::from_translation(Vec3::new(0.0, 1.5, 0.0));
    for x in [-0.5f32, 0.5] {
        let low = Pose::from_translation(Vec3::new(x, 0.5, 0.0));
        let m = one(&cube(), low, &cube(), top);
        assert_eq!(m.points.len(), 4);
        assert!((m.normal - Vec3::Y).length() < 1e-6);
        for p in &m.points {
            assert!(p.separation.abs() < 1e-5);
            assert!(p.point.x * x.signum() >= -1e-5);
        }
    }
    // Side neighbours in one row touch at zero separation too.
    let m = one(
        &cube(),
        Pose::from_translation(Vec3::new(-0.5, 0.5, 0.0)),
        &cube(),
        Pose::from_translation(Vec3::new(0.5, 0.5, 0.0)),
    );
    assert!((m.normal - Vec3::X).length() < 1e-6);
    assert_eq!(m.points.len(), 4);
}

#[test]
fn box_edge_edge_crossing() {
    // A rests on an edge (rotated 45° about z); B above rotated 45° about x:
    // the two edges cross at right angles.
    let d = std::f32::consts::FRAC_1_SQRT_2; // half diagonal of a unit face
    let pa = Pose::new(
        Vec3::ZERO,
        Quat::from_rotation_z(std::f32::consts::FRAC_PI_4),
    );
    let gap = -0.01;
    let pb = Pose::new(
        Vec3::new(0.0, 2.0 * d + gap, 0.0),
        Quat::from_rotation_x(std::f32::consts::FRAC_PI_4),
    );
    let m = one(&cube(), pa, &cube(), pb);
    assert_eq!(m.points.len(), 1);
    assert!((m.normal - Vec3::Y).length() < 1e-4, "{:?}", m.normal);
    let p = m.points[0];
    assert!((p.separation - gap).abs() < 1e-4, "{p:?}");
    assert!((p.point - Vec3::new(0.0, d + gap * 0.5, 0.0)).length() < 1e-4);
    check_consistent(&m, &pa, &pb);
}

#[test]
fn separated_boxes_have_no_contact() {
    none(
        &cube(),
        Pose::IDENTITY,
        &cube(),
        Pose::from_translation(Vec3::new(0.0, 1.05, 0.0)),
    );
    // Within the margin: speculative contact with positive separation.
    let m = one(
        &cube(),
        Pose::IDENTITY,
        &cube(),
        Pose::from_translation(Vec3::new(0.0, 1.01, 0.0)),
    );
    assert!(m.points.iter().all(|p| (p.separation - 0.01).abs() < 1e-5));
}

#[test]
fn sphere_against_box_face_edge_corner() {
    let s = Shape::sphere(0.25).unwrap();
    let b = cube();
    // Face.
    let m = one(
        &b,
        Pose::IDENTITY,
        &s,
        Pose::from_translation(Vec3::new(0.1, 0.7, 0.2)),
    );
    assert!((m.normal - Vec3::Y).length() < 1e-5);
    assert!((m.points[0].separation + 0.05).abs() < 1e-5);
    assert!((m.points[0].point - Vec3::new(0.1, 0.475, 0.2)).length() < 1e-5);
    // Edge (x = 0.5, y = 0.5).
    let c = Vec3::new(0.5 + 0.1, 0.5 + 0.1, 0.0);
    let m = one(&b, Pose::IDENTITY, &s, Pose::from_translation(c));
    let n = Vec3::new(1.0, 1.0, 0.0).normalize();
    assert!((m.normal - n).length() < 1e-5);
    assert!((m.points[0].separation - (0.1 * 2f32.sqrt() - 0.25)).abs() < 1e-5);
    // Corner.
    let c = Vec3::splat(0.6);
    let m = one(&s, Pose::from_translation(c), &b, Pose::IDENTITY);
    assert!((m.normal + Vec3::ONE.normalize()).length() < 1e-5);
    assert!((m.points[0].separation - (0.1 * 3f32.sqrt() - 0.25)).abs() < 1e-5);
    // Centre inside the box, even at the exact centre: no NaN.
    let m = one(&b, Pose::IDENTITY, &s, Pose::IDENTITY);
    assert!(m.normal.is_finite() && m.points[0].separation < -0.7);
}

#[test]
fn spheres_and_coincident_centres() {
    let s = Shape::sphere(0.5).unwrap();
    let m = one(
        &s,
        Pose::IDENTITY,
        &s,
        Pose::from_translation(Vec3::new(0.9, 0.0, 0.0)),
    );
    assert!((m.normal - Vec3::X).length() < 1e-6);
    assert!((m.points[0].separation + 0.1).abs() < 1e-6);
    let m = one(&s, Pose::IDENTITY, &s, Pose::IDENTITY);
    assert!(m.normal.is_finite() && (m.points[0].separation + 1.0).abs() < 1e-6);
    let ground = Shape::halfspace(Vec3::Y).unwrap();
    let m = one(
        &ground,
        Pose::IDENTITY,
        &s,
        Pose::from_translation(Vec3::new(3.0, 0.49, 1.0)),
    );
    assert!((m.points[0].separation + 0.01).abs() < 1e-6);
}

#[test]
fn capsule_lying_on_plane_gives_two_points() {
    let ground = Shape::halfspace(Vec3::Y).unwrap();
    let cap = Shape::capsule(1.0, 0.25).unwrap();
    let pb = Pose::new(
        Vec3::new(0.0, 0.25, 0.0),
        Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
    );
    let m = one(&ground, Pose::IDENTITY, &cap, pb);
    assert_eq!(m.points.len(), 2);
    for p in &m.points {
        assert!(p.separation.abs() < 1e-5);
        assert!((p.point.x.abs() - 1.0).abs() < 1e-5);
    }
    check_consistent(&m, &Pose::IDENTITY, &pb);
    // Two parallel capsules side by side: two points.
    let pa = Pose::new(
        Vec3::new(0.0, 0.25, 0.0),
        Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
    );
    let pb = Pose::new(
        Vec3::new(0.5, 0.74, 0.0),
        Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
    );
    let m = one(&cap, pa, &cap, pb);
    assert_eq!(m.points.len(), 2);
    assert!((m.points[0].separation + 0.01).abs() < 1e-5);
}

#[test]
fn degenerate_inputs_do_not_panic() {
    let mut out = Vec::new();
    let nan = Pose::from_translation(Vec3::NAN);
    contact_manifolds(&cube(), &nan, &cube(), &Pose::IDENTITY, MARGIN, &mut out);
    contact_manifolds(
        &cube(),
        &Pose::IDENTITY,
        &cube(),
        &Pose::IDENTITY,
        f32::NAN,
        &mut out,
    );
    assert!(out.is_empty());
    // Coincident boxes.
    contact_manifolds(
        &cube(),
        &Pose::IDENTITY,
        &cube(),
        &Pose::IDENTITY,
        MARGIN,
        &mut out,
    );
    assert_eq!(out.len(), 1);
    assert!(
        out[0]
            .2
            .points
            .iter()
            .all(|p| p.separation.is_finite() && p.point.is_finite())
    );
}
