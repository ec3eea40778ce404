//! A cold step's warm start from statics (`Settings::statics_warm_start`,
//! `cold_start.rs`): a structure built resting carries its weight from its first step.

use glam::Vec3;
use thud_dynamics::{BodyBuilder, BodyHandle, Collider, Settings, SolverMode, World};

const G: f32 = 9.81;
const DT: f32 = 1.0 / 60.0;

fn ground(w: &mut World) -> BodyHandle {
    w.add_body(
        BodyBuilder::fixed()
            .position(Vec3::new(0.0, -0.5, 0.0))
            .collider(Collider::cuboid(Vec3::new(100.0, 0.5, 100.0))),
    )
    .unwrap()
}

fn cube(w: &mut World, p: Vec3) -> BodyHandle {
    w.add_body(
        BodyBuilder::dynamic()
            .position(p)
            .collider(Collider::cuboid(Vec3::splat(0.5))),
    )
    .unwrap()
}

/// A world at the defaults but for PGS alone: the exact mode would take so small an
/// island and solve it exactly, without the warm start.
fn pgs_world() -> World {
    World::new(Settings {
        solver_mode: SolverMode::Pgs,
        ..Settings::without_sleeping()
    })
}

/// A one-box-deep pyramid of unit cubes, `rows` rows, exactly resting on the ground;
/// the ground's handle and the cubes' (the top one last).
fn pyramid(statics: bool, rows: usize) -> (World, BodyHandle, Vec<BodyHandle>) {
    let mut w = World::new(Settings {
        statics_warm_start: statics,
        ..Settings::without_sleeping()
    });
    let g = ground(&mut w);
    let cubes = build_pyramid(&mut w, rows, 0.0);
    (w, g, cubes)
}

/// A one-box-deep pyramid of `rows` rows of unit cubes centred at `x`, exactly resting
/// on the ground; the cubes' handles (the top one last).
fn build_pyramid(w: &mut World, rows: usize, x: f32) -> Vec<BodyHandle> {
    let mut cubes = Vec::new();
    for r in 0..rows {
        for c in 0..rows - r {
            let cx = x + c as f32 - (rows - r - 1) as f32 / 2.0;
            cubes.push(cube(w, Vec3::new(cx, 0.5 + r as f32, 0.0)));
        }
    }
    cubes
}

/// The normal impulse the ground gave the bodies `on` picks over the last step.
fn ground_impulse_on(w: &World, ground: BodyHandle, on: impl Fn(BodyHandle) -> bool) -> f32 {
    w.contacts()
        .filter(|c| (c.a == ground && on(c.b)) || (c.b == ground && on(c.a)))
        .map(|c| c.total_normal_impulse())
        .sum()
}

/// A second of `w` from now: the share of the weight of the pyramid `cubes` (top one
/// last) the ground gave it over the first step, and how far its top sank.
fn first_second(w: &mut World, ground: BodyHandle, cubes: &[BodyHandle]) -> (f32, f32) {
    let weight: f32 = cubes
        .iter()
        .map(|&h| w.body(h).unwrap().mass())
        .sum::<f32>()
        * G;
    let top = *cubes.last().unwrap();
    let y0 = w.body(top).unwrap().position().y;
    w.step().unwrap();
    let share = ground_impulse_on(w, ground, |h| cubes.contains(&h)) / (weight * DT);
    for _ in 0..59 {
        w.step().unwrap();
    }
    (share, y0 - w.body(top).unwrap().position().y)
}

/// `run(statics)`'s share of the weight the ground carried on the first step and how
/// far the top sank in a second ([`first_second`]): from its statics, all of it and
/// not at all; cold, the sweeps carry the weight down a dozen rows a step, so the
/// ground carries a part of it at first and the top sinks into the rows below before
/// the base carries it.
fn assert_carried_from_the_start(run: impl Fn(bool) -> (f32, f32)) {
    let (share, sunk) = run(true);
    assert!(
        (share - 1.0).abs() < 1e-3,
        "the ground carried {share} of the weight"
    );
    assert!(sunk.abs() < 1e-5, "the top sank {sunk} m in a second");
    let (share, sunk) = run(false);
    assert!(
        share < 0.5,
        "cold, the ground carried {share} of the weight"
    );
    assert!(sunk > 1e-3, "cold, the top sank {sunk} m");
}

#[test]
fn a_pyramid_built_at_rest_carries_its_weight_from_its_first_step() {
    assert_carried_from_the_start(|statics| {
        let (mut w, g, cubes) = pyramid(statics, 30);
        first_second(&mut w, g, &cubes)
    });
}

#[test]
fn a_box_on_two_others_rests_evenly_on_both() {
    let mut w = pgs_world();
    ground(&mut w);
    cube(&mut w, Vec3::new(-0.5, 0.5, 0.0));
    cube(&mut w, Vec3::new(0.5, 0.5, 0.0));
    let top = cube(&mut w, Vec3::new(0.0, 1.5, 0.0));
    let weight = w.body(top).unwrap().mass() * G * DT;
    w.step().unwrap();
    let under: Vec<_> = w.contacts().filter(|c| c.a == top || c.b == top).collect();
    assert_eq!(under.len(), 2);
    for c in &under {
        // Half the weight on each, spread evenly over the manifold's depth (z): the
        // points' impulses in front and behind alike.
        let total = c.total_normal_impulse();
        assert!(
            (total - weight / 2.0).abs() < 1e-3 * weight,
            "{total} of {weight}"
        );
        let side = |front: bool| -> f32 {
            c.points
                .iter()
                .filter(|p| (p.position.z > 0.0) == front)
                .map(|p| p.normal_impulse)
                .sum()
        };
        let (front, back) = (side(true), side(false));
        assert!(
            (front - back).abs() < 1e-3 * weight,
            "{front} in front, {back} behind"
        );
    }
    // At rest from the start: nothing moves.
    for _ in 0..60 {
        w.step().unwrap();
    }
    let p = w.body(top).unwrap().position();
    assert!((p - Vec3::new(0.0, 1.5, 0.0)).length() < 1e-5, "{p}");
}

#[test]
fn a_stack_in_free_fall_is_not_held_up() {
    // Two boxes falling together touch, but neither carries the other: nothing under
    // them stands on the ground, so nothing is guessed and both fall freely.
    let mut w = pgs_world();
    ground(&mut w);
    let low = cube(&mut w, Vec3::new(0.0, 5.5, 0.0));
    let high = cube(&mut w, Vec3::new(0.0, 6.5, 0.0));
    w.step().unwrap();
    for h in [low, high] {
        let v = w.body(h).unwrap().linear_velocity();
        assert!((v - Vec3::new(0.0, -G * DT, 0.0)).length() < 1e-5, "{v}");
    }
}

#[test]
fn a_pyramid_built_into_a_running_world_carries_its_weight_from_its_first_step() {
    // A 10-row pyramid stands for a second, so that its contacts are warm; then a
    // 30-row one is built beside it. Its points are nine in ten of the world's, all
    // cold, in an island of their own: it starts from its statics as it would alone.
    assert_carried_from_the_start(|statics| {
        let (mut w, g, _) = pyramid(statics, 10);
        for _ in 0..60 {
            w.step().unwrap();
        }
        let cubes = build_pyramid(&mut w, 30, 50.0);
        let (share, sunk) = first_second(&mut w, g, &cubes);
        eprintln!("statics {statics}: the ground carried {share} of it, its top sank {sunk} m");
        (share, sunk)
    });
}

#[test]
fn a_pyramid_finished_on_a_standing_base_carries_its_weight_from_its_first_step() {
    // The five bottom rows of a 30-row pyramid stand for a second, so that their
    // contacts are warm; then its 25 upper rows are built on them. The island is one,
    // a third of its points warm: it starts from its statics, the base's warm
    // impulses taking the new weight, as the whole pyramid built at once would.
    assert_carried_from_the_start(|statics| {
        let mut w = World::new(Settings {
            statics_warm_start: statics,
            ..Settings::without_sleeping()
        });
        let g = ground(&mut w);
        let rows = 30;
        let mut cubes = Vec::new();
        let mut add_rows = |w: &mut World, from: usize, to: usize| {
            for r in from..to {
                for c in 0..rows - r {
                    let cx = c as f32 - (rows - r - 1) as f32 / 2.0;
                    cubes.push(cube(w, Vec3::new(cx, 0.5 + r as f32, 0.0)));
                }
            }
        };
        add_rows(&mut w, 0, 5);
        for _ in 0..60 {
            w.step().unwrap();
        }
        add_rows(&mut w, 5, rows);
        let (share, sunk) = first_second(&mut w, g, &cubes);
        eprintln!("statics {statics}: the ground carried {share} of it, its top sank {sunk} m");
        (share, sunk)
    });
}
