//! Property tests: symmetry, translation invariance, agreement with brute force,
//! finiteness, and independence of the thread count.

use glam::{Quat, Vec3};
use proptest::prelude::*;
use thud_collide::{BroadPhase, CollisionFilter, Manifold, NarrowPhase, Pose, Shape, contact};

fn cube(h: Vec3) -> Shape {
    Shape::cuboid(h).unwrap()
}

fn quat() -> impl Strategy<Value = Quat> {
    (-1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0).prop_filter_map(
        "non-zero",
        |(x, y, z, w)| {
            let q = Quat::from_xyzw(x, y, z, w);
            (q.length() > 0.1).then(|| q.normalize())
        },
    )
}

fn half() -> impl Strategy<Value = Vec3> {
    (0.2f32..1.0, 0.2f32..1.0, 0.2f32..1.0).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn vec3(r: f32) -> impl Strategy<Value = Vec3> {
    (-r..r, -r..r, -r..r).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

/// Exact distance between two separated boxes: min over vertex–box and edge–edge.
fn box_distance(ha: Vec3, pa: &Pose, hb: Vec3, pb: &Pose) -> f32 {
    let corners = |h: Vec3, p: &Pose| -> Vec<Vec3> {
        (0..8)
            .map(|i| {
                p.transform_point(Vec3::new(
                    if i & 1 == 0 { -h.x } else { h.x },
                    if i & 2 == 0 { -h.y } else { h.y },
                    if i & 4 == 0 { -h.z } else { h.z },
                ))
            })
            .collect()
    };
    let edges = |c: &[Vec3]| -> Vec<(Vec3, Vec3)> {
        let mut e = Vec::new();
        for i in 0..8usize {
            for bit in [1usize, 2, 4] {
                if i & bit == 0 {
                    e.push((c[i], c[i | bit]));
                }
            }
        }
        e
    };
    let point_box = |x: Vec3, h: Vec3, p: &Pose| {
        let l = p.inverse_transform_point(x);
        (l - l.clamp(-h, h)).length()
    };
    let (ca, cb) = (corners(ha, pa), corners(hb, pb));
    let mut d = f32::MAX;
    for &x in &ca {
        d = d.min(point_box(x, hb, pb));
    }
    for &x in &cb {
        d = d.min(point_box(x, ha, pa));
    }
    for (p1, q1) in edges(&ca) {
        for (p2, q2) in edges(&cb) {
            d = d.min(seg_seg(p1, q1, p2, q2));
        }
    }
    d
}

fn seg_seg(p1: Vec3, q1: Vec3, p2: Vec3, q2: Vec3) -> f32 {
    // Dense parameter search refined by projection: accurate enough as a reference.
    let mut best = f32::MAX;
    for i in 0..=64 {
        let a = p1 + (q1 - p1) * (i as f32 / 64.0);
        let d2 = q2 - p2;
        let t = ((a - p2).dot(d2) / d2.length_squared()).clamp(0.0, 1.0);
        best = best.min((a - (p2 + d2 * t)).length());
    }
    best
}

/// Penetration depth of two overlapping boxes: least overlap over the 15 SAT axes.
fn box_depth(ha: Vec3, pa: &Pose, hb: Vec3, pb: &Pose) -> f32 {
    let (ra, rb) = (pa.rotation_matrix(), pb.rotation_matrix());
    let axes_a = [ra.x_axis, ra.y_axis, ra.z_axis];
    let axes_b = [rb.x_axis, rb.y_axis, rb.z_axis];
    let mut axes: Vec<Vec3> = axes_a.iter().chain(&axes_b).copied().collect();
    for a in axes_a {
        for b in axes_b {
            let c = a.cross(b);
            if c.length() > 1e-3 {
                axes.push(c.normalize());
            }
        }
    }
    let t = pb.position - pa.position;
    axes.iter()
        .map(|n| {
            let ra_ = (0..3).map(|k| ha[k] * n.dot(axes_a[k]).abs()).sum::<f32>();
            let rb_ = (0..3).map(|k| hb[k] * n.dot(axes_b[k]).abs()).sum::<f32>();
            ra_ + rb_ - t.dot(*n).abs()
        })
        .fold(f32::MAX, f32::min)
}

fn min_sep(m: &Manifold) -> f32 {
    m.points
        .iter()
        .map(|p| p.separation)
        .fold(f32::MAX, f32::min)
}

fn same_points(m1: &Manifold, m2: &Manifold, tol: f32) -> bool {
    m1.points.len() == m2.points.len()
        && m1.points.iter().all(|p| {
            m2.points
                .iter()
                .any(|q| (p.point - q.point).length() <= tol)
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn swapping_flips_normal_keeps_points(ha in half(), hb in half(), qa in quat(), qb in quat(), d in vec3(1.2)) {
        let (a, b) = (cube(ha), cube(hb));
        let pa = Pose::new(Vec3::ZERO, qa);
        let pb = Pose::new(d, qb);
        let m1 = contact(&a, &pa, &b, &pb, 0.02);
        let m2 = contact(&b, &pb, &a, &pa, 0.02);
        prop_assert_eq!(m1.is_some(), m2.is_some());
        if let (Some(m1), Some(m2)) = (m1, m2) {
            prop_assert!((m1.normal + m2.normal).length() < 1e-3, "{:?} {:?}", m1.normal, m2.normal);
            prop_assert!((min_sep(&m1) - min_sep(&m2)).abs() < 1e-3);
            // The deepest point is the same; the others may differ where the
            // reduction to 4 meets a near tie (two candidates equally far apart) or
            // the reference face switches sides inside the tie band.
            let deepest = |m: &Manifold| m.points.iter().min_by(|x, y| x.separation.total_cmp(&y.separation)).map(|p| p.point);
            let tol = 1e-3 + 2.0 * min_sep(&m1).abs();
            prop_assert!((deepest(&m1).unwrap() - deepest(&m2).unwrap()).length() <= tol, "{:?}\n{:?}", m1, m2);
            if m1.points.len() <= 4 && m1.points.iter().all(|p| p.separation > -0.01) {
                prop_assert!(same_points(&m1, &m2, tol), "{:?}\n{:?}", m1, m2);
            }
        }
    }

    #[test]
    fn translating_both_translates_points(ha in half(), hb in half(), qa in quat(), qb in quat(), d in vec3(1.2), t in vec3(20.0)) {
        let shapes = [cube(ha), cube(hb), Shape::capsule(0.5, 0.3).unwrap(), Shape::cylinder(0.4, 0.5).unwrap(), Shape::sphere(0.6).unwrap()];
        for (bi, b) in shapes.iter().enumerate().skip(1) {
            // Penetrating a cylinder goes through EPA on a curved surface, which
            // can settle on a different near-minimal face (known limitation, see
            // docs/collision.md); separated cylinder contacts are compared.
            // Capsule and cylinder against a box go through GJK/EPA: exact while
            // separated (cores apart), but EPA under penetration is not yet
            // translation-stable (known weakness, docs/collision.md).
            let curved = bi == 2 || bi == 3;
            let a = &shapes[0];
            let (pa, pb) = (Pose::new(Vec3::ZERO, qa), Pose::new(d, qb));
            let (ta, tb) = (Pose::new(t, qa), Pose::new(d + t, qb));
            let m1 = contact(a, &pa, b, &pb, 0.02);
            let m2 = contact(a, &ta, b, &tb, 0.02);
            if m1.is_some() != m2.is_some() {
                if curved {
                    // Known weakness: GJK/EPA against a penetrated cylinder.
                    continue;
                }
                // Only right at the margin may rounding decide.
                let m = m1.as_ref().or(m2.as_ref()).unwrap();
                prop_assert!(min_sep(m) > 0.02 - 2e-3, "{:?}", m);
                continue;
            }
            if let (Some(m1), Some(m2)) = (m1, m2) {
                if curved && (min_sep(&m1) < 0.0 || min_sep(&m2) < 0.0) {
                    continue;
                }
                if min_sep(&m1) < -0.1 {
                    // Deep overlaps: EPA may settle on a different (near-)minimal
                    // face; only the depth is compared.
                    prop_assert!((min_sep(&m1) - min_sep(&m2)).abs() <= 0.05);
                    continue;
                }
                let tol = if curved { 2e-2 } else { 2e-3 * (1.0 + t.length() * 0.1) };
                let ntol = if curved { 4e-2 } else { 1e-2 };
                prop_assert!((m1.normal - m2.normal).length() < ntol, "shape {} sep {} {}: {:?} {:?}", bi, min_sep(&m1), min_sep(&m2), m1.normal, m2.normal);
                prop_assert!((min_sep(&m1) - min_sep(&m2)).abs() <= tol);
                {
                    prop_assert_eq!(m1.points.len(), m2.points.len());
                    for (p, q) in m1.points.iter().zip(&m2.points) {
                        prop_assert!((p.point + t - q.point).length() <= tol, "{:?} {:?}", p, q);
                        prop_assert!((p.separation - q.separation).abs() <= tol);
                    }
                }
            }
        }
    }

    #[test]
    fn box_separation_agrees_with_brute_force(ha in half(), hb in half(), qa in quat(), qb in quat(), d in vec3(2.5)) {
        let (a, b) = (cube(ha), cube(hb));
        let pa = Pose::new(Vec3::ZERO, qa);
        let pb = Pose::new(d, qb);
        let margin = 0.05;
        let m = contact(&a, &pa, &b, &pb, margin);
        let depth = box_depth(ha, &pa, hb, &pb);
        if depth > 0.0 {
            // Overlapping: deepest point = −depth (face or edge axis).
            let m = m.expect("overlapping boxes must touch");
            prop_assert!((min_sep(&m) + depth).abs() < 2e-3, "sep {} depth {}", min_sep(&m), depth);
        } else {
            let dist = box_distance(ha, &pa, hb, &pb);
            match m {
                Some(m) => {
                    // Separating-axis gaps are lower bounds of the distance: a
                    // speculative contact never claims more room than there is, and
                    // separated boxes are never reported as penetrating.
                    prop_assert!(min_sep(&m) <= dist + 2e-3, "sep {} dist {}", min_sep(&m), dist);
                    prop_assert!(min_sep(&m) >= -2e-3);
                }
                None => prop_assert!(dist > margin - 2e-3, "missed contact at distance {}", dist),
            }
        }
    }

    #[test]
    fn gjk_pairs_agree_with_brute_force(h in half(), qa in quat(), qb in quat(), d in vec3(1.8)) {
        // Capsule against box: distance from the core segment, minus the radius.
        let a = cube(h);
        let b = Shape::capsule(0.5, 0.25).unwrap();
        let pa = Pose::new(Vec3::ZERO, qa);
        let pb = Pose::new(d, qb);
        let p = pb.transform_point(Vec3::new(0.0, -0.5, 0.0));
        let q = pb.transform_point(Vec3::new(0.0, 0.5, 0.0));
        let mut dist = f32::MAX;
        for i in 0..=400 {
            let x = pa.inverse_transform_point(p + (q - p) * (i as f32 / 400.0));
            dist = dist.min((x - x.clamp(-h, h)).length());
        }
        let m = contact(&a, &pa, &b, &pb, 0.05);
        if dist > 0.26 {
            match m {
                Some(m) => prop_assert!((min_sep(&m) - (dist - 0.25)).abs() < 3e-3, "sep {} want {}", min_sep(&m), dist - 0.25),
                None => prop_assert!(dist - 0.25 > 0.05 - 1e-3),
            }
        } else if dist < 0.2 {
            prop_assert!(m.is_some_and(|m| min_sep(&m) < 0.0));
        }
    }

    #[test]
    fn coincident_and_touching_never_nan(qa in quat(), qb in quat(), kind_a in 0usize..6, kind_b in 0usize..6, touch in prop::bool::ANY) {
        let hull_pts: Vec<Vec3> = (0..12).map(|i| {
            let t = i as f32 * 0.9;
            Vec3::new(t.cos() * 0.5, ((i * 7) % 5) as f32 * 0.2 - 0.4, t.sin() * 0.5)
        }).collect();
        let shapes = [
            Shape::sphere(0.5).unwrap(),
            cube(Vec3::new(0.5, 0.3, 0.4)),
            Shape::capsule(0.3, 0.3).unwrap(),
            Shape::cylinder(0.3, 0.4).unwrap(),
            Shape::convex_hull(&hull_pts).unwrap(),
            Shape::halfspace(Vec3::Y).unwrap(),
        ];
        let (a, b) = (&shapes[kind_a], &shapes[kind_b]);
        let pa = Pose::new(Vec3::ZERO, qa);
        let mut pb = Pose::new(Vec3::ZERO, qb);
        if touch {
            // Place B so that its support point touches A's along +x.
            let sa = a.aabb(&pa).max.x;
            let sb = b.aabb(&Pose::new(Vec3::ZERO, qb)).min.x;
            if sa < 1e17 && sb > -1e17 {
                pb.position = Vec3::new(sa - sb, 0.0, 0.0);
            }
        }
        let mut out = Vec::new();
        thud_collide::contact_manifolds(a, &pa, b, &pb, 0.02, &mut out);
        for (_, _, m) in &out {
            prop_assert!(m.normal.is_finite() && (m.normal.length() - 1.0).abs() < 1e-3);
            for p in &m.points {
                prop_assert!(p.point.is_finite() && p.separation.is_finite() && p.local_a.is_finite() && p.local_b.is_finite());
            }
        }
    }
}

/// A jumble of turned boxes, spheres and capsules for the determinism test.
fn jumble(n: usize) -> (Vec<Shape>, Vec<Pose>) {
    let mut state = 42u64;
    let mut rnd = move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f32 / (1u64 << 53) as f32
    };
    let mut shapes = vec![Shape::halfspace(Vec3::Y).unwrap()];
    let mut poses = vec![Pose::IDENTITY];
    for i in 0..n {
        shapes.push(match i % 3 {
            0 => cube(Vec3::splat(0.5)),
            1 => Shape::sphere(0.5).unwrap(),
            _ => Shape::capsule(0.4, 0.3).unwrap(),
        });
        let p = Vec3::new(
            (i % 10) as f32 * 0.9,
            0.4 + (i / 100) as f32 * 0.9,
            ((i / 10) % 10) as f32 * 0.9,
        );
        let q = Quat::from_euler(
            glam::EulerRot::YXZ,
            rnd() * std::f32::consts::TAU,
            rnd() * std::f32::consts::TAU,
            rnd() * std::f32::consts::TAU,
        );
        poses.push(Pose::new(p, q));
    }
    (shapes, poses)
}

#[test]
fn narrowphase_output_independent_of_thread_count() {
    let (shapes, poses) = jumble(600);
    let mut bp = BroadPhase::new();
    for (k, (s, p)) in shapes.iter().zip(&poses).enumerate() {
        bp.insert(
            k as u32,
            s.aabb(p).expanded(0.02),
            k != 0,
            CollisionFilter::default(),
        );
    }
    let mut pairs = Vec::new();
    bp.find_pairs(&mut pairs);
    assert!(pairs.len() > 1000, "{} pairs", pairs.len());
    let run = |threads: usize, parallel: bool| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut np = NarrowPhase::new();
            np.set_parallel(parallel);
            np.update(&pairs, &shapes, &poses, 0.02);
            // A second step with moved poses exercises reuse, recompute and matching.
            let moved: Vec<Pose> = poses
                .iter()
                .enumerate()
                .map(|(k, p)| Pose::new(p.position + Vec3::X * (k % 3) as f32 * 4e-4, p.rotation))
                .collect();
            np.update(&pairs, &shapes, &moved, 0.02);
            let mut out = vec![np.manifolds().to_vec()];
            // A changed pair list (the full update, which moves last step's manifolds
            // on one thread and copies them on several): some pairs gone, then back.
            let fewer: Vec<(u32, u32)> = pairs
                .iter()
                .enumerate()
                .filter(|(i, _)| i % 7 != 3)
                .map(|(_, p)| *p)
                .collect();
            let moved2: Vec<Pose> = moved
                .iter()
                .enumerate()
                .map(|(k, p)| Pose::new(p.position + Vec3::Z * (k % 5) as f32 * 3e-4, p.rotation))
                .collect();
            for list in [&fewer, &pairs] {
                // Impulses as a solver would store them, for the update to carry over.
                for (i, m) in np.manifolds_mut().iter_mut().enumerate() {
                    for (j, user) in m.manifold.points.users_mut().iter_mut().enumerate() {
                        *user = [(i * 4 + j) as f32; 3];
                    }
                }
                np.update(list, &shapes, &moved2, 0.02);
                out.push(np.manifolds().to_vec());
            }
            out
        })
    };
    let one = run(1, true);
    assert!(one.iter().all(|m| !m.is_empty()));
    assert!(
        one[1].len() < one[0].len(),
        "the shorter list has fewer manifolds"
    );
    for (threads, parallel) in [(2, true), (4, true), (3, false)] {
        let other = run(threads, parallel);
        assert!(one == other, "output differs with {threads} threads");
    }
    // Sorted by (a, b, sub_a, sub_b).
    for m in &one {
        assert!(
            m.windows(2)
                .all(|w| (w[0].a, w[0].b, w[0].sub_a, w[0].sub_b)
                    < (w[1].a, w[1].b, w[1].sub_a, w[1].sub_b))
        );
    }
}
