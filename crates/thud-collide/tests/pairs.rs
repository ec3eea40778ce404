//! Every pair of shape kinds: known configurations and no NaN.

use glam::{Quat, Vec3};
use thud_collide::{Manifold, Pose, Shape, contact_manifolds};

const MARGIN: f32 = 0.02;

fn all(a: &Shape, pa: Pose, b: &Shape, pb: Pose) -> Vec<(u32, u32, Manifold)> {
    let mut out = Vec::new();
    contact_manifolds(a, &pa, b, &pb, MARGIN, &mut out);
    for (_, _, m) in &out {
        assert!(
            m.normal.is_finite() && (m.normal.length() - 1.0).abs() < 1e-3,
            "{m:?}"
        );
        assert!(m.points.len() <= 4);
        for p in &m.points {
            assert!(
                p.point.is_finite()
                    && p.separation.is_finite()
                    && p.local_a.is_finite()
                    && p.local_b.is_finite()
            );
            assert!(p.separation <= MARGIN + 1e-5);
        }
    }
    out
}

fn shapes() -> Vec<Shape> {
    let cube_pts: Vec<Vec3> = (0..8)
        .map(|i| {
            Vec3::new(
                if i & 1 == 0 { -0.5 } else { 0.5 },
                if i & 2 == 0 { -0.5 } else { 0.5 },
                if i & 4 == 0 { -0.5 } else { 0.5 },
            )
        })
        .collect();
    let tetra = [
        Vec3::new(0.0, 0.6, 0.0),
        Vec3::new(-0.5, -0.3, -0.4),
        Vec3::new(0.5, -0.3, -0.4),
        Vec3::new(0.0, -0.3, 0.5),
    ];
    vec![
        Shape::sphere(0.5).unwrap(),
        Shape::cuboid(Vec3::new(0.5, 0.4, 0.3)).unwrap(),
        Shape::capsule(0.4, 0.3).unwrap(),
        Shape::cylinder(0.4, 0.5).unwrap(),
        Shape::halfspace(Vec3::Y).unwrap(),
        Shape::convex_hull(&cube_pts).unwrap(),
        Shape::convex_hull(&tetra).unwrap(),
        Shape::compound(vec![
            (
                Pose::from_translation(Vec3::new(-0.4, 0.0, 0.0)),
                Shape::sphere(0.3).unwrap(),
            ),
            (
                Pose::new(Vec3::new(0.4, 0.0, 0.0), Quat::from_rotation_z(0.3)),
                Shape::cuboid(Vec3::splat(0.3)).unwrap(),
            ),
        ])
        .unwrap(),
        floor_mesh(),
    ]
}

fn floor_mesh() -> Shape {
    let n = 4u32;
    let mut v = Vec::new();
    for i in 0..=n {
        for j in 0..=n {
            v.push(Vec3::new(i as f32 - 2.0, 0.0, j as f32 - 2.0));
        }
    }
    let mut t = Vec::new();
    for i in 0..n {
        for j in 0..n {
            let a = i * (n + 1) + j;
            t.push([a, a + 1, a + n + 2]);
            t.push([a, a + n + 2, a + n + 1]);
        }
    }
    Shape::trimesh(v, t).unwrap()
}

#[test]
fn every_pair_coincident_and_touching_is_finite() {
    let s = shapes();
    let rot = Quat::from_euler(glam::EulerRot::YXZ, 0.3, 0.7, -0.2);
    for a in &s {
        for b in &s {
            for pb in [
                Pose::IDENTITY,
                Pose::new(Vec3::ZERO, rot),
                Pose::new(Vec3::new(0.0, 0.8, 0.0), Quat::IDENTITY),
                Pose::new(Vec3::new(0.3, 0.7, -0.2), rot),
            ] {
                let _ = all(a, Pose::IDENTITY, b, pb);
            }
        }
    }
}

#[test]
fn every_convex_pair_finds_an_overlap() {
    let s = shapes();
    for (i, a) in s.iter().enumerate() {
        for (j, b) in s.iter().enumerate() {
            let static_pair = matches!(a, Shape::Halfspace(_) | Shape::TriMesh(_))
                && matches!(b, Shape::Halfspace(_) | Shape::TriMesh(_));
            if static_pair {
                continue;
            }
            let out = all(
                a,
                Pose::IDENTITY,
                b,
                Pose::from_translation(Vec3::new(0.05, 0.25, 0.02)),
            );
            assert!(
                !out.is_empty(),
                "pair {i} {j} ({} vs {}) gave no contact",
                a.kind_name(),
                b.kind_name()
            );
            let min = out
                .iter()
                .flat_map(|(_, _, m)| m.points.iter().map(|p| p.separation))
                .fold(f32::MAX, f32::min);
            assert!(
                min < 0.0,
                "pair {} vs {}: min separation {min}",
                a.kind_name(),
                b.kind_name()
            );
        }
    }
}

#[test]
fn capsule_lying_on_box_gives_two_points() {
    let b = Shape::cuboid(Vec3::new(2.0, 0.5, 2.0)).unwrap();
    let c = Shape::capsule(0.5, 0.2).unwrap();
    let pc = Pose::new(
        Vec3::new(0.3, 0.69, 0.1),
        Quat::from_rotation_x(std::f32::consts::FRAC_PI_2),
    );
    let out = all(&b, Pose::IDENTITY, &c, pc);
    let m = &out[0].2;
    assert_eq!(m.points.len(), 2, "{m:?}");
    assert!((m.normal - Vec3::Y).length() < 1e-3);
    for p in &m.points {
        assert!((p.separation + 0.01).abs() < 1e-3, "{p:?}");
    }
}

#[test]
fn cylinder_standing_and_lying() {
    let ground = Shape::halfspace(Vec3::Y).unwrap();
    let cyl = Shape::cylinder(0.5, 0.3).unwrap();
    let out = all(
        &ground,
        Pose::IDENTITY,
        &cyl,
        Pose::from_translation(Vec3::new(0.0, 0.5, 0.0)),
    );
    assert_eq!(out[0].2.points.len(), 4);
    let lying = Pose::new(
        Vec3::new(0.0, 0.3, 0.0),
        Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
    );
    let out = all(&ground, Pose::IDENTITY, &cyl, lying);
    assert_eq!(out[0].2.points.len(), 2);
    // Standing on a box via GJK/EPA + clipping.
    let b = Shape::cuboid(Vec3::new(2.0, 0.5, 2.0)).unwrap();
    let out = all(
        &b,
        Pose::IDENTITY,
        &cyl,
        Pose::from_translation(Vec3::new(0.1, 0.99, 0.0)),
    );
    let m = &out[0].2;
    assert!((m.normal - Vec3::Y).length() < 1e-3, "{m:?}");
    assert!(m.points.len() >= 3);
    assert!(m.points.iter().all(|p| (p.separation + 0.01).abs() < 2e-3));
}

#[test]
fn hull_cube_on_hull_cube_matches_box_case() {
    let s = shapes();
    let hull = &s[5];
    let out = all(
        hull,
        Pose::IDENTITY,
        hull,
        Pose::from_translation(Vec3::new(0.2, 0.99, 0.0)),
    );
    let m = &out[0].2;
    assert!((m.normal - Vec3::Y).length() < 1e-3, "{m:?}");
    assert_eq!(m.points.len(), 4);
    assert!(m.points.iter().all(|p| (p.separation + 0.01).abs() < 1e-3));
}

#[test]
fn box_on_flat_mesh_has_only_floor_normals() {
    let mesh = floor_mesh();
    let cube = Shape::cuboid(Vec3::splat(0.5)).unwrap();
    // Slide across internal edges (grid lines at integers, diagonals too).
    for k in 0..50 {
        let x = -1.0 + k as f32 * 0.04;
        let pose = Pose::new(Vec3::new(x, 0.495, 0.3 * x), Quat::from_rotation_y(0.2));
        let out = all(&mesh, Pose::IDENTITY, &cube, pose);
        assert!(!out.is_empty());
        let mut count = 0;
        for (_, _, m) in &out {
            assert!(
                (m.normal - Vec3::Y).length() < 1e-5,
                "ghost normal {:?} at x = {x}",
                m.normal
            );
            for p in &m.points {
                assert!((p.separation + 0.005).abs() < 1e-4);
                count += 1;
            }
        }
        assert!(count >= 4);
        // Reverse order flips.
        let rev = all(&cube, pose, &mesh, Pose::IDENTITY);
        assert_eq!(rev.len(), out.len());
        assert!(
            rev.iter()
                .all(|(sa, sb, m)| *sa == 0 && *sb < 32 && (m.normal + Vec3::Y).length() < 1e-5)
        );
    }
    // A sphere resting exactly over a vertex shared by six triangles: still +y only.
    let s = Shape::sphere(0.5).unwrap();
    let out = all(
        &mesh,
        Pose::IDENTITY,
        &s,
        Pose::from_translation(Vec3::new(0.0, 0.49, 0.0)),
    );
    assert!(!out.is_empty());
    assert!(
        out.iter()
            .all(|(_, _, m)| (m.normal - Vec3::Y).length() < 1e-5)
    );
}

#[test]
fn compound_on_plane_tags_children() {
    let s = shapes();
    let ground = &s[4];
    let comp = &s[7];
    let out = all(
        ground,
        Pose::IDENTITY,
        comp,
        Pose::from_translation(Vec3::new(0.0, 0.29, 0.0)),
    );
    let subs: Vec<(u32, u32)> = out.iter().map(|(a, b, _)| (*a, *b)).collect();
    assert_eq!(subs, vec![(0, 0), (0, 1)]);
    // local_b is in the compound's frame.
    let (_, _, m) = &out[0];
    assert!((m.points[0].local_b - Vec3::new(-0.4, -0.3, 0.0)).length() < 1e-5);
}
