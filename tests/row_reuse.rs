//! Rows kept across steps (`Settings::reuse_rows_within`, `thud-dynamics/src/reuse.rs`):
//! a step that keeps its rows must move the bodies as one that builds them, to the
//! order of the distance it allows, and must build again whatever moved.

#[path = "../crates/thud-dynamics/examples/support/scene_world.rs"]
mod scene_world;

use glam::Vec3;
use thud_dynamics::{Settings, World};

/// The defaults (sleeping off) with the statics' warm start off too: the steps that
/// build every row (`built`) start cold, so the worlds compared with them must as well.
fn cold() -> Settings {
    Settings {
        statics_warm_start: false,
        ..Settings::without_sleeping()
    }
}

fn built() -> Settings {
    Settings {
        reuse_rows_within: 0.0,
        ..Settings::without_sleeping()
    }
}

/// A world with a fixed ground slab of these half-extents, its top at y = 0.
fn on_ground(settings: Settings, half: Vec3) -> World {
    let mut w = World::new(settings);
    w.add_body(
        thud_dynamics::BodyBuilder::fixed()
            .position(Vec3::new(0.0, -0.5, 0.0))
            .collider(thud_dynamics::Collider::cuboid(Vec3::new(
                half.x, 0.5, half.z,
            ))),
    )
    .unwrap();
    w
}

/// A dynamic unit box at `p`.
fn unit_box(p: Vec3) -> thud_dynamics::BodyBuilder {
    thud_dynamics::BodyBuilder::dynamic()
        .position(p)
        .collider(thud_dynamics::Collider::cuboid(Vec3::splat(0.5)))
}

/// Two runs' states (`state`) are the same stack at rest: positions within `dp`, every
/// body slower than `v` in both.
fn assert_same_at_rest(with: Vec<(Vec3, Vec3)>, without: Vec<(Vec3, Vec3)>, dp: f32, v: f32) {
    assert_eq!(with.len(), without.len());
    for ((pk, vk), (pf, vf)) in with.into_iter().zip(without) {
        assert!((pk - pf).length() < dp, "{pk} against {pf}");
        assert!(vk.length() < v && vf.length() < v, "{vk} {vf}");
    }
}

/// Every body's position and linear velocity.
fn state(world: &World) -> Vec<(Vec3, Vec3)> {
    world
        .bodies()
        .map(|(_, b)| (b.position(), b.linear_velocity()))
        .collect()
}

/// `pyramid_20` after 2 s at the defaults (sleeping off): resting, its rows kept.
fn resting_pyramid_20() -> (World, Vec<thud_dynamics::BodyHandle>) {
    let scene = thud_scene::standard("pyramid_20").expect("standard scene");
    let (mut w, handles) = scene_world::world(&scene, cold());
    for _ in 0..120 {
        w.step().unwrap();
    }
    (w, handles)
}

#[test]
fn a_resting_pyramid_keeps_its_rows_and_stands_as_when_it_builds_them() {
    let scene = thud_scene::standard("pyramid3d_10").expect("standard scene");
    let (mut kept, _) = scene_world::world(&scene, cold());
    let (mut fresh, _) = scene_world::world(&scene, built());
    let mut kept_steps = 0;
    for _ in 0..300 {
        kept.step().unwrap();
        fresh.step().unwrap();
        assert!(!fresh.stats().rows_kept);
        kept_steps += usize::from(kept.stats().rows_kept);
    }
    // Resting: nearly every step keeps its rows (a full build every `MAX_AGE` steps).
    assert!(
        kept_steps > 250,
        "{kept_steps} of 300 steps kept their rows"
    );
    // The same stack to a tenth of a millimetre, at rest.
    assert_same_at_rest(state(&kept), state(&fresh), 1e-4, 1e-3);
}

#[test]
fn kept_rows_give_a_kicked_body_the_built_rows_answer() {
    // A box resting on another on the ground; the top one is kicked sideways on a step
    // whose rows the world keeps (nothing has moved yet): the new velocity enters
    // through `dV`, and friction must slow it exactly as freshly built rows do.
    let run = |settings: Settings| {
        let mut w = on_ground(settings, Vec3::new(20.0, 0.5, 20.0));
        let unit = |y: f32| unit_box(Vec3::new(0.0, y, 0.0));
        w.add_body(unit(0.5)).unwrap();
        let top = w.add_body(unit(1.5)).unwrap();
        for _ in 0..60 {
            w.step().unwrap();
        }
        w.apply_impulse(top, Vec3::new(1.5, 0.0, 0.0)).unwrap();
        let mut kept = 0;
        let mut track = Vec::new();
        for _ in 0..30 {
            w.step().unwrap();
            kept += usize::from(w.stats().rows_kept);
            track.push(w.body(top).unwrap().linear_velocity());
        }
        (kept, track, w.body(top).unwrap().position())
    };
    let (kept, with, end_kept) = run(cold());
    let (none, without, end_built) = run(built());
    assert_eq!(none, 0);
    // The kick's step keeps the rows (nothing has moved yet), and gives the built rows'
    // velocity to the order of their error (points within 0.1 mm of the fresh ones'):
    // a lost or doubled kick would be off by metres a second. Once the box slides its
    // rows are built; the two runs then differ only as far as that first step set
    // them apart, which the sliding box's wobble on its support amplifies (to
    // millimetres a second), so the slide is compared by where it stops.
    assert!(kept >= 1, "{kept}");
    assert!(
        (with[0] - without[0]).length() < 2e-4,
        "{} against {}",
        with[0],
        without[0]
    );
    assert!(
        (end_kept - end_built).length() < 5e-3,
        "{end_kept} against {end_built}"
    );
    // It slid and stopped.
    assert!(end_kept.x > 0.05 && with.last().unwrap().length() < 1e-2);
}

#[test]
fn a_body_moved_by_the_user_gets_its_rows_built_again() {
    let (mut w, handles) = resting_pyramid_20();
    // The top box lifted 5 mm: its contacts open, it falls back and the pyramid stands.
    let top = *handles.last().unwrap();
    let p = w.body(top).unwrap().position();
    w.set_position(top, p + Vec3::new(0.0, 0.005, 0.0)).unwrap();
    w.step().unwrap();
    let s = w.stats();
    assert!(!s.rows_kept || s.rows_rebuilt > 0, "{s:?}");
    for _ in 0..60 {
        w.step().unwrap();
    }
    let q = w.body(top).unwrap().position();
    assert!((q - p).length() < 1e-3, "{q} against {p}");
}

#[test]
fn rows_are_kept_beside_a_kinematic_body_and_beside_a_joint_asleep_or_awake() {
    use thud_dynamics::{BodyBuilder, Collider, JointBuilder};
    let base = |w: &mut World| {
        w.add_body(
            BodyBuilder::fixed()
                .position(Vec3::new(0.0, -0.5, 0.0))
                .collider(Collider::cuboid(Vec3::new(20.0, 0.5, 20.0))),
        )
        .unwrap();
        for k in 0..3 {
            w.add_body(
                BodyBuilder::dynamic()
                    .position(Vec3::new(0.0, 0.5 + k as f32, 0.0))
                    .collider(Collider::cuboid(Vec3::splat(0.5))),
            )
            .unwrap();
        }
    };
    let kept = |w: &mut World| {
        (0..120)
            .map(|_| {
                w.step().unwrap();
                usize::from(w.stats().rows_kept)
            })
            .sum::<usize>()
    };
    // A resting column keeps its rows.
    let mut w = World::new(cold());
    base(&mut w);
    assert!(kept(&mut w) > 100);
    // A kinematic body elsewhere in the world, moving (its velocity is set, not
    // integrated): the column keeps its rows.
    let mut w = World::new(cold());
    base(&mut w);
    w.add_body(
        BodyBuilder::kinematic()
            .position(Vec3::new(5.0, 3.5, 0.0))
            .linear_velocity(Vec3::new(0.0, 0.0, 0.5))
            .collider(Collider::cuboid(Vec3::splat(0.5))),
    )
    .unwrap();
    assert!(kept(&mut w) > 100);
    // A joint (its rows are made anew every step and solve substep, and the warm start
    // makes `dV` again from the joints' and the lanes' impulses): the column keeps its
    // rows, and the pendulum swings as when every step builds them.
    let pendulum = |settings: Settings| {
        let mut w = World::new(settings);
        base(&mut w);
        let bob = w
            .add_body(
                BodyBuilder::dynamic()
                    .position(Vec3::new(5.0, 3.0, 0.6))
                    .collider(Collider::sphere(0.2)),
            )
            .unwrap();
        w.add_joint(JointBuilder::ball(None, bob).world_anchor(Vec3::new(5.0, 4.0, 0.0)))
            .unwrap();
        let k = kept(&mut w);
        (k, w.body(bob).unwrap().position())
    };
    let (k, swung) = pendulum(cold());
    let (none, built_swung) = pendulum(built());
    assert!(k > 100, "{k} of 120 steps kept their rows");
    assert_eq!(none, 0);
    assert!(
        (swung - built_swung).length() < 1e-4,
        "{swung} against {built_swung}"
    );
    // With sleeping on, the column keeps its rows (awake, and asleep with nothing to
    // build), falls asleep as when it builds them, and ends where that one does, to a
    // few micrometres (between its solve substeps a unit whose bodies stood keeps its
    // rows too, `World::refresh_rows`; one that builds every row refreshes them all).
    let run = |reuse_rows_within: f32| {
        let mut w = World::new(Settings {
            reuse_rows_within,
            statics_warm_start: false,
            ..Settings::default()
        });
        base(&mut w);
        let k = kept(&mut w);
        let end: Vec<_> = w
            .bodies()
            .map(|(_, b)| (b.position(), b.is_sleeping()))
            .collect();
        (k, end)
    };
    let ((k, with), (none, without)) = (run(1e-4), run(0.0));
    assert!(k > 100 && none == 0, "{k} {none}");
    for ((pk, sk), (pb, sb)) in with.into_iter().zip(without) {
        assert_eq!(sk, sb);
        assert!((pk - pb).length() < 1e-5, "{pk} against {pb}");
    }
}

#[test]
fn bodies_added_or_removed_between_kept_steps_are_seen_at_once() {
    use thud_dynamics::{BodyBuilder, Collider};
    let (mut w, handles) = resting_pyramid_20();
    let islands = w.stats().islands;
    let contacts = w.contacts().count();
    // A box far from the pyramid: a collider more, no contact more. The rows stand, the
    // islands gain one, and the box falls freely.
    let far = w
        .add_body(
            BodyBuilder::dynamic()
                .position(Vec3::new(40.0, 10.0, 0.0))
                .collider(Collider::cuboid(Vec3::splat(0.5))),
        )
        .unwrap();
    w.step().unwrap();
    assert_eq!(w.stats().islands, islands + 1);
    assert_eq!(w.contacts().count(), contacts);
    for _ in 0..10 {
        w.step().unwrap();
    }
    assert!(w.body(far).unwrap().linear_velocity().y < -1.0);
    // The top box removed: its contacts go, the boxes below it stay where they are.
    let top = *handles.last().unwrap();
    let below: Vec<Vec3> = handles[handles.len() - 3..handles.len() - 1]
        .iter()
        .map(|&h| w.body(h).unwrap().position())
        .collect();
    w.remove_body(top).unwrap();
    for _ in 0..60 {
        w.step().unwrap();
    }
    assert!(w.contacts().count() < contacts);
    for (&h, p) in handles[handles.len() - 3..handles.len() - 1]
        .iter()
        .zip(below)
    {
        let q = w.body(h).unwrap().position();
        assert!((q - p).length() < 1e-3, "{q} against {p}");
    }
}

/// `tower_20` alone: the exact mode takes its island every step, and its rows are
/// those of the scalar sweep, built every step. A step that keeps the rows (none are
/// in the lanes) builds the island's rows as a full build does and starts its bodies'
/// `dV` and velocity without contact as a build does, so the two runs are the same to
/// the bit while nearly every step keeps its rows.
#[test]
fn a_tower_the_exact_mode_takes_steps_to_the_bit_with_its_rows_kept() {
    let scene = thud_scene::standard("tower_20").expect("standard scene");
    let (mut kept, hk) = scene_world::world(&scene, cold());
    let (mut fresh, hf) = scene_world::world(&scene, built());
    let mut kept_steps = 0;
    for _ in 0..240 {
        kept.step().unwrap();
        fresh.step().unwrap();
        kept_steps += usize::from(kept.stats().rows_kept);
    }
    assert!(
        kept_steps > 200,
        "{kept_steps} of 240 steps kept their rows"
    );
    assert_eq!(
        scene_world::state_hash(&kept, &hk),
        scene_world::state_hash(&fresh, &hf)
    );
}

/// A wall of boxes in the lanes and, beside it, a column the exact mode takes: the
/// wall keeps its rows on most steps while the column's are built every step, and
/// both stand as when every step builds its rows.
#[test]
fn rows_are_kept_beside_an_island_the_exact_mode_takes() {
    let run = |settings: Settings| {
        let mut w = on_ground(settings, Vec3::new(30.0, 0.5, 5.0));
        let cube = unit_box;
        for row in 0..8 {
            for k in 0..8 - row {
                let x = k as f32 * 1.02 + row as f32 * 0.51 - 4.0;
                w.add_body(cube(Vec3::new(x, 0.5 + row as f32, 0.0)))
                    .unwrap();
            }
        }
        for k in 0..5 {
            w.add_body(cube(Vec3::new(15.0, 0.5 + k as f32, 0.0)))
                .unwrap();
        }
        let mut kept = 0;
        let mut exact = 0;
        for _ in 0..180 {
            w.step().unwrap();
            kept += usize::from(w.stats().rows_kept);
            exact += usize::from(w.stats().overflow > 0);
        }
        (kept, exact, state(&w))
    };
    let (kept, exact, with) = run(cold());
    let (none, _, without) = run(built());
    assert_eq!(none, 0);
    assert_eq!(
        exact, 180,
        "the column is swept from the scalar rows every step"
    );
    assert!(kept > 120, "{kept} of 180 steps kept their rows");
    assert_same_at_rest(with, without, 1e-3, 1e-2);
}

/// Two boxes resting on the ground, joined by a ball joint at the middle of their
/// shared face: their contacts sit in the lanes beside the joint rows. At rest most
/// steps keep their rows; then one box is kicked sideways, and friction and the joint
/// must drag the pair as when every step builds its rows.
#[test]
fn boxes_joined_on_the_ground_keep_their_rows_and_move_as_when_built() {
    let run = |settings: Settings| {
        let mut w = on_ground(settings, Vec3::new(20.0, 0.5, 20.0));
        let a = w.add_body(unit_box(Vec3::new(0.0, 0.5, 0.0))).unwrap();
        let b = w.add_body(unit_box(Vec3::new(1.0, 0.5, 0.0))).unwrap();
        let joint = thud_dynamics::JointBuilder::ball(Some(a), b);
        w.add_joint(joint.world_anchor(Vec3::new(0.5, 0.5, 0.0)))
            .unwrap();
        let mut kept = 0;
        for _ in 0..60 {
            w.step().unwrap();
            kept += usize::from(w.stats().rows_kept);
        }
        w.apply_impulse(a, Vec3::new(0.0, 0.0, 3.0)).unwrap();
        for _ in 0..60 {
            w.step().unwrap();
        }
        let (pa, pb) = (w.body(a).unwrap().position(), w.body(b).unwrap().position());
        (kept, pa, pb)
    };
    let (kept, ka, kb) = run(cold());
    let (none, ba, bb) = run(built());
    assert_eq!(none, 0);
    assert!(kept > 40, "{kept} of 60 resting steps kept their rows");
    // Dragged together: both moved in z, and the two runs agree to a millimetre.
    assert!(ka.z > 0.05 && kb.z > 0.05, "{ka} {kb}");
    assert!((ka - ba).length() < 1e-3, "{ka} against {ba}");
    assert!((kb - bb).length() < 1e-3, "{kb} against {bb}");
}

/// A box riding a kinematic platform (velocity set, then driven to targets): the rows
/// are kept while the two move together — the platform's new velocity each step goes
/// into its `dV`, where the rows read it — and the box rides as when every step builds
/// them.
#[test]
fn a_box_on_a_kinematic_platform_keeps_its_rows_and_rides_as_when_built() {
    use thud_dynamics::{BodyBuilder, Collider, Pose};
    let run = |settings: Settings| {
        let mut w = World::new(settings);
        let platform = w
            .add_body(
                BodyBuilder::kinematic()
                    .position(Vec3::new(0.0, 0.5, 0.0))
                    .linear_velocity(Vec3::new(1.0, 0.0, 0.0))
                    .collider(Collider::cuboid(Vec3::new(2.0, 0.5, 2.0))),
            )
            .unwrap();
        let rider = w
            .add_body(
                BodyBuilder::dynamic()
                    .position(Vec3::new(0.0, 1.5, 0.0))
                    .collider(Collider::cuboid(Vec3::splat(0.5))),
            )
            .unwrap();
        let mut kept = 0;
        for _ in 0..120 {
            w.step().unwrap();
            kept += usize::from(w.stats().rows_kept);
        }
        // Then driven to targets: up and back, 1 m/s each way.
        let dt = w.settings().dt;
        for k in 0..120 {
            let p = w.body(platform).unwrap().position();
            let vy = if k < 60 { 1.0 } else { -1.0 };
            let target = Pose::new(p + Vec3::new(0.0, vy * dt, 0.0), glam::Quat::IDENTITY);
            w.set_kinematic_target(platform, target).unwrap();
            w.step().unwrap();
            kept += usize::from(w.stats().rows_kept);
        }
        let b = w.body(rider).unwrap();
        (
            kept,
            b.position(),
            b.linear_velocity(),
            w.body(platform).unwrap().position(),
        )
    };
    let (kept, p, v, platform) = run(cold());
    let (none, p_built, v_built, platform_built) = run(built());
    assert!(kept > 150, "{kept} of 240 steps kept their rows");
    assert_eq!(none, 0);
    assert!((p - p_built).length() < 1e-4, "{p} against {p_built}");
    assert!((v - v_built).length() < 1e-3, "{v} against {v_built}");
    assert_eq!(platform, platform_built);
    // The box rode along (the platform went 2 m to the side; the box slipped while
    // friction took it up to speed and again when the platform stopped) and sits on
    // the platform.
    assert!((platform.x - 2.0).abs() < 1e-3, "{platform}");
    assert!(p.x > 1.8 && p.x < 2.2, "{p}");
    assert!((p.y - platform.y - 1.0).abs() < 0.01, "{p} on {platform}");
}

/// A plank (other inertia than a cube's: solved in its own angular frame) spinning as
/// it slides on the ground beside a resting column: its frame turns with it, and a step
/// whose plank turned too far for the build's frame gives it a new frame and builds its
/// rows alone, so the column keeps its rows; the plank moves as when every step builds
/// them. (Before, a body turning anywhere made every step build.)
#[test]
fn a_plank_spinning_beside_a_column_keeps_the_rows_and_moves_as_when_built() {
    use thud_dynamics::{BodyBuilder, Collider};
    let run = |settings: Settings| {
        let mut w = on_ground(settings, Vec3::new(30.0, 0.5, 30.0));
        for k in 0..3 {
            w.add_body(unit_box(Vec3::new(0.0, 0.5 + k as f32, 0.0)))
                .unwrap();
        }
        let plank = w
            .add_body(
                BodyBuilder::dynamic()
                    .position(Vec3::new(5.0, 0.1, 0.0))
                    .linear_velocity(Vec3::new(2.0, 0.0, 0.5))
                    .angular_velocity(Vec3::new(0.0, 4.0, 0.0))
                    .collider(Collider::cuboid(Vec3::new(1.0, 0.1, 0.3))),
            )
            .unwrap();
        let mut kept = 0;
        for _ in 0..60 {
            w.step().unwrap();
            kept += usize::from(w.stats().rows_kept);
        }
        (kept, w.body(plank).unwrap().pose())
    };
    let (kept, moved) = run(cold());
    let (none, built_moved) = run(built());
    assert!(kept > 40, "{kept} of 60 steps kept their rows");
    assert_eq!(none, 0);
    assert!(
        (moved.position - built_moved.position).length() < 1e-4,
        "{moved:?} against {built_moved:?}"
    );
    let turn = glam::Vec4::from(moved.rotation) - glam::Vec4::from(built_moved.rotation);
    assert!(turn.length() < 1e-4, "{moved:?} against {built_moved:?}");
    // It slid and turned (friction 0.6 stops it within the second).
    assert!(moved.position.x > 5.2, "{moved:?}");
    assert!(moved.rotation.to_axis_angle().1 > 0.3, "{moved:?}");
}

#[test]
fn a_settling_heap_keeps_its_rows_where_a_manifold_gains_or_loses_a_point() {
    // `pile_1000` settling: now and then a manifold gains or loses a point while the
    // heap keeps its manifolds. Such a step keeps the rows (the manifold's lanes laid
    // anew, its unit built again) and moves the bodies as a step that builds them
    // from the same state does, to the order of the kept rows' own error on this
    // heap (up to 7 mm/s and 10 mrad/s, as on its steps that keep rows with no count
    // changed). Lanes left reading the points they read before the count changed
    // (the later manifolds' points one place off) were 12 mm/s and 37 mrad/s off here.
    let scene = thud_scene::standard("pile_1000").expect("standard scene");
    let world = || scene_world::world(&scene, cold()).0;
    let (mut kept, mut fresh) = (world(), world());
    let mut relaid = None;
    for k in 0..600 {
        kept.step().unwrap();
        let s = kept.stats();
        if s.rows_kept && s.rows_relaid > 0 {
            relaid = Some((k, s.rows_relaid));
            break;
        }
        fresh.step().unwrap();
    }
    let (k, n) = relaid.expect("a step that kept its rows through a changed point count");
    // The other world, in the state the kept step started from, builds every row.
    fresh.settings_mut().reuse_rows_within = 0.0;
    fresh.step().unwrap();
    assert!(!fresh.stats().rows_kept);
    for ((_, a), (_, b)) in kept.bodies().zip(fresh.bodies()) {
        let (dv, dw) = (
            (a.linear_velocity() - b.linear_velocity()).length(),
            (a.angular_velocity() - b.angular_velocity()).length(),
        );
        assert!(
            dv < 1e-2 && dw < 2e-2 && (a.position() - b.position()).length() < 2e-4,
            "step {k} ({n} manifolds laid anew): {dv} m/s, {dw} rad/s apart"
        );
    }
}
