//! The manifold cache, feature-id stability and the broadphase contract.

use glam::{Quat, Vec3};
use thud_collide::{
    Aabb, BroadPhase, CollisionFilter, NarrowPhase, Pose, Shape, contact_manifolds,
};

fn cube() -> Shape {
    Shape::cuboid(Vec3::splat(0.5)).unwrap()
}

#[test]
fn feature_ids_stable_while_box_slides_across_box() {
    let base = Pose::from_translation(Vec3::new(0.0, 0.5, 0.0));
    let mut prev: Option<Vec<u32>> = None;
    let mut changes = 0;
    // Slide from x = -0.6 to 0.6 in 1 mm steps, slightly rotated about y.
    let rot = Quat::from_rotation_y(0.1);
    for step in 0..=1200 {
        let x = -0.6 + step as f32 * 0.001;
        let top = Pose::new(Vec3::new(x, 1.499, 0.05), rot);
        let mut out = Vec::new();
        contact_manifolds(&cube(), &base, &cube(), &top, 0.02, &mut out);
        let m = &out[0].2;
        assert!(
            m.points.len() >= 3,
            "step {step}: {} points",
            m.points.len()
        );
        let mut ids: Vec<u32> = m.points.iter().map(|p| p.feature.0).collect();
        ids.sort_unstable();
        if prev.as_ref().is_some_and(|p| *p != ids) {
            changes += 1;
        }
        prev = Some(ids);
    }
    // Ids only change when the topology of the overlap changes (a corner of one
    // face crosses an edge of the other), a handful of times over the slide.
    assert!(changes <= 12, "feature ids changed {changes} times");
}

#[test]
fn feature_ids_identical_for_a_resting_stack_across_steps() {
    let shapes = vec![Shape::halfspace(Vec3::Y).unwrap(), cube(), cube(), cube()];
    let poses: Vec<Pose> = (0..4)
        .map(|i| {
            Pose::from_translation(Vec3::new(
                0.0,
                if i == 0 { 0.0 } else { i as f32 - 0.5 },
                0.0,
            ))
        })
        .collect();
    let pairs = vec![(0, 1), (1, 2), (2, 3)];
    let mut np = NarrowPhase::new();
    np.update(&pairs, &shapes, &poses, 0.02);
    assert_eq!(np.manifolds().len(), 3);
    for m in np.manifolds_mut() {
        let a = m.a as f32;
        for (k, user) in m.manifold.points.users_mut().iter_mut().enumerate() {
            *user = [a, k as f32, 1.0];
        }
    }
    // Tiny jitter: same features, user data carried.
    let jittered: Vec<Pose> = poses
        .iter()
        .map(|p| Pose::from_translation(p.position + Vec3::new(1e-4, -1e-5, 0.0)))
        .collect();
    np.update(&pairs, &shapes, &jittered, 0.02);
    for m in np.manifolds() {
        assert_eq!(m.manifold.points.len(), 4);
        for (k, user) in m.manifold.points.users().iter().enumerate() {
            assert_eq!(*user, [m.a as f32, k as f32, 1.0]);
        }
    }
    // Pair dropped: forgotten; when it comes back the user data starts at zero.
    np.update(&pairs[..2], &shapes, &poses, 0.02);
    assert_eq!(np.manifolds().len(), 2);
    np.update(&pairs, &shapes, &poses, 0.02);
    assert!(
        np.manifolds()[2]
            .manifold
            .points
            .users()
            .iter()
            .all(|u| *u == [0.0; 3])
    );
}

#[test]
fn broadphase_pairs_sorted_filtered_no_static_static() {
    let mut bp = BroadPhase::new();
    let b = |x: f32| Aabb::from_center_half_extents(Vec3::new(x, 0.0, 0.0), Vec3::splat(0.6));
    bp.insert(5, b(0.0), true, CollisionFilter::default());
    bp.insert(2, b(1.0), true, CollisionFilter::default());
    bp.insert(9, b(2.0), false, CollisionFilter::default());
    bp.insert(7, b(3.0), false, CollisionFilter::default());
    bp.insert(1, b(1.0), true, CollisionFilter::new(1, 0));
    let mut out = Vec::new();
    bp.find_pairs(&mut out);
    assert_eq!(out, vec![(2, 5), (2, 9)]);
    bp.set_moving(7, true);
    bp.find_pairs(&mut out);
    assert_eq!(out, vec![(2, 5), (2, 9), (7, 9)]);
    bp.update(5, b(10.0));
    bp.remove(2);
    bp.find_pairs(&mut out);
    assert_eq!(out, vec![(7, 9)]);
}

#[test]
fn reuse_refreshes_separation_and_forget_collider_recomputes() {
    let shapes = vec![Shape::halfspace(Vec3::Y).unwrap(), cube()];
    let mut poses = vec![
        Pose::IDENTITY,
        Pose::from_translation(Vec3::new(0.0, 0.5, 0.0)),
    ];
    let pairs = vec![(0, 1)];
    let mut np = NarrowPhase::new();
    np.set_parallel(false);
    np.update(&pairs, &shapes, &poses, 0.02);
    assert_eq!(np.recomputed_pairs(), 1);
    np.manifolds_mut()[0].manifold.points.users_mut()[0] = [3.0; 3];
    // Sink by 0.1 mm: reused, separations follow the anchors.
    poses[1].position.y -= 1e-4;
    np.update(&pairs, &shapes, &poses, 0.02);
    assert_eq!(np.recomputed_pairs(), 0);
    let m = &np.manifolds()[0].manifold;
    assert!(m.points.iter().all(|p| (p.separation + 1e-4).abs() < 1e-6));
    assert_eq!(m.points.users()[0], [3.0; 3]);
    // Sink by 1 cm: recomputed, user data still matched by feature id.
    poses[1].position.y -= 0.01;
    np.update(&pairs, &shapes, &poses, 0.02);
    assert_eq!(np.recomputed_pairs(), 1);
    assert_eq!(np.manifolds()[0].manifold.points.users()[0], [3.0; 3]);
    // The slot gets a new collider: recomputed from scratch.
    np.forget_collider(1);
    np.update(&pairs, &shapes, &poses, 0.02);
    assert_eq!(np.recomputed_pairs(), 1);
    assert!(
        np.manifolds()[0]
            .manifold
            .points
            .users()
            .iter()
            .all(|u| *u == [0.0; 3])
    );
    // Without reuse every update recomputes.
    let mut cold = NarrowPhase::new().with_reuse_thresholds(0.0, 0.0);
    cold.update(&pairs, &shapes, &poses, 0.02);
    cold.update(&pairs, &shapes, &poses, 0.02);
    assert_eq!(cold.recomputed_pairs(), 1);
}
