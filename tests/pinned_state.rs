//! Pinned state hashes: four standard scenes after 2 s (120 steps) at the default
//! settings must end in exactly these states. The packed solver (`wide.rs`) was checked
//! this way to give bit for bit the states of the scalar sweep it replaced; any change
//! that moves a bit of the simulation shows here. (`tower_20` moved once since, on
//! purpose: the auto mode now keeps PGS's answer when it already satisfies the island's
//! LCP to `Settings::exact_tolerance`; the parallel sweeps moved nothing. All three
//! moved when the defaults became four solve substeps of three sweeps each,
//! `Settings::solve_substeps`; with `solve_substeps = 1`, 16 sweeps and 4 split sweeps
//! the old hashes are reproduced. `tower_20` and `pile_1000` moved again when steps
//! following one with an island for the exact mode went back to a single solve. All three
//! moved when the row update was reordered to shorten its dependency chain:
//! `(λ − b̃) − J̃·dV` at ω = 1, the angular terms of `J̃·dV` summed before the linear one,
//! and `δ·(D/m)` for the linear impulse; same values to rounding, same figures. And
//! again when a point's two friction rows became one Jacobi step from the same `dV`,
//! `pgs::friction_pair`. And when isotropic bodies (the scenes' cubes) stopped paying
//! for, and taking the rounding noise of, the gyroscopic solve and `R I⁻¹ Rᵀ`. And
//! when solve substeps after the first kept the rows' `b̃ = J̃·Vnc₀` and moved
//! `Vnc_k − Vnc₀` into the bodies' `dV` instead of rewriting every row's `b̃`. And when
//! the rows kept their blocks as built and the update took `J̃·dV` as `(J·dV)·(1/D)`,
//! with the linear impulse `∓d·(δ/m)`: nine multiplies a row fewer, same values to
//! rounding. `pyramid_20` and `pile_1000` moved when the split-impulse position pass
//! began to run once a step, after the last solve substep, removing what a pass per
//! substep would have (`Settings::split_every_substep`); `tower_20`, whose island the
//! exact mode solves in one solve a step, did not. All three moved when a manifold's
//! linear velocity was carried in its own basis through the sweep,
//! `pgs::solve_manifold`: same values to rounding, same figures. And when the normal row
//! began to read its point's friction impulses through its couplings with them,
//! `J_ang·ω + c₁δ₁ + c₂δ₂`, instead of from `dV` (`pgs::solve_manifold`): same values
//! to rounding, same figures. `pyramid_20` and `pile_1000` moved when slowly turning
//! bodies' orientations began to be renormalized by one Newton step
//! (`integrate::renormalize`); `tower_20`, whose boxes do not turn, did not. All five
//! moved when the couplings were kept divided by the normal row's `D` and the normal
//! row took its friction impulses last, `((λ − b̃) − J̃·dV) − (c̃₁δ₁ + c̃₂δ₂)`
//! (`pgs::unclamped_ahead`): same values to rounding, same figures. `pyramid_20` and
//! `pile_1000` (both orders) moved when the middle one of each solve substep's three
//! sweeps began to run only the normal rows (`Settings::friction_stride` = 2; at 1
//! every old hash is reproduced); `tower_20`, whose island the scalar rows sweep with
//! friction in every sweep, did not. `pyramid_20` and `pile_1000` (both orders) moved
//! when steps began to keep the rows of an earlier step while their bodies and points
//! stay within `Settings::reuse_rows_within` of where they were built (`reuse.rs`;
//! `pyramid_20` again when that became the points' lever arms instead of the points
//! and the centres of mass, when a step began to keep them with up to half its units
//! built again instead of a quarter, and when the change came to be measured in the
//! largest coordinate instead of the length):
//! the same figures to a tenth of a millimetre; with it at 0 every old hash is
//! reproduced, and `PINNED_BUILT` keeps them; `tower_20`, whose island the exact mode
//! takes, builds every step. `pyramid_20` and `pile_1000`, in every order and with the
//! rows built every step, moved when the box pair began to write its contact points
//! from the reference box's frame — `local_a` as clipped, `local_b` and the world point
//! through the rotation matrices, the separation as clipped — instead of through four
//! quaternion rotations (`narrow/box_box.rs`): same values to rounding, same figures;
//! `tower_20`, whose boxes stand square, did not. `pile_1000`, in every order, moved
//! when the exact mode stopped taking islands with a body faster than
//! `Settings::exact_max_speed` at the start of the step (which its solve skips anyway)
//! out of the lanes into the scalar sweep: their manifolds are swept with the others'.
//! `pyramid_20` moved when a list-scheduled level became one unit of the sweep, two
//! groups of like point counts (`color.rs`): the units hold other manifolds, so a
//! step keeps other units' rows (`reuse.rs` builds a unit again when one of its
//! manifolds moved); `PINNED_BUILT` did not move. `pyramid_20` and `pile_1000`, in both
//! orders, moved when the refresh between solve substeps began to leave the rows of
//! units whose bodies stood (moved less than `Settings::reuse_rows_within`) and to make
//! the separations from where the step's rows left them with the motion summed since,
//! instead of advancing them substep by substep (`World::refresh_rows`): same figures;
//! `PINNED_BUILT`, which refreshes every row, did not move.)
//!
//! `tower_20` moved (in both orders and with the rows built every step) when each
//! exactly solved island's next exact solve began to start from its last exact answer
//! (`exact::Starts`) instead of from PGS's: the solve, and its friction bounds, start
//! elsewhere, and the island is solved less often (drift 0.023 mm and sag 0.013 mm
//! after 20 s against 0.011 and 0.019).
//!
//! `pyramid_20` and `pyramid_40` (in both orders) moved when a mostly cold step began
//! to warm-start its resting contacts from the statics of their structure (`Settings::statics_warm_start`, `cold_start.rs`): the
//! pyramids no longer sink for their first steps and are lifted back, and stand
//! stiffer (`pyramid_40` drift and sag after 10 s 0.13 and 0.48 mm against 6.3 and
//! 17.0); `tower_20`, whose island the exact mode takes, and `pile_1000`, whose first
//! contacts are impacts, did not; nor did `PINNED_BUILT`, whose steps build every row,
//! where the warm start is off (`World::build_jacobians`).
//!
//! `pyramid_40` joined the pins when a large sweep that stands began to run in two
//! regions and a seam (`color.rs`, `Coloring::regions`), an order none of the other
//! three reaches (`pile_1000`'s colourings in its first 2 s change every step and keep
//! their earliest levels, uncut).
//!
//! `pile_1000` (in both orders and with the rows built every step) and `PINNED_BUILT`'s
//! `pyramid_20` moved when a body that the contacts' position pass lifts began to pay
//! for the lift from its kinetic energy (`integrate.rs`, `pay_for_lift`): the heap's
//! falling boxes, and that pyramid's, which starts cold and sinks, are lifted while
//! they move. The resting pyramids and `tower_20`, never lifted past the slop in
//! their first 2 s, did not move.
//!
//! `pile_1000` (in both orders and with the rows built every step) moved when a step
//! whose deepest contact penetrates more than `Settings::deep_penetration` (5 mm) began
//! to run `Settings::deep_split_iterations` (4) position sweeps instead of one: the
//! heap's landing boxes sink into each other by up to a third of a metre, and are
//! lifted out within its first seconds instead of over ten (the deepest overlap at 10 s
//! 1.3 mm against 10.1). The pyramids and `tower_20`, whose contacts never sink that
//! deep, did not move. `pile_1000` moved again (but in the colouring order, whose heap
//! has no island the exact mode took in its first 2 s) when the auto mode began to leave islands
//! with a contact that deep to PGS: the heap's landing clusters, which it had solved
//! exactly on nine of its first 180 steps.
//!
//! All of them moved when `Settings::touching_gap` became 10 µm by default (0 before):
//! a resting point that sticks on a manifold lying flat counts gaps up to it as
//! touching, so resting contacts no longer chase the rounding of their gaps. The
//! pyramids moved again when a solve substep after one whose last sweep moved no
//! contact's bodies by more than `Settings::sweep_tolerance` (10⁻⁶ m/s), its bodies
//! moving no faster than ten times that, began to run a single sweep; `pile_1000`,
//! still settling, `tower_20`, whose island the exact mode takes, and `PINNED_BUILT`'s
//! `pyramid_20`, which starts cold and still moves in its first 2 s, did not. With both at 0 every hash before them is reproduced
//! (`PINNED_UNGAPPED`).
//!
//! Updating: when a change is *meant* to change the simulation, run
//! `cargo test -p thud --test pinned_state -- --nocapture`, check the new figures of the scenes
//! (`thud run NAME`, `tests/stacking.rs`), and paste the printed hashes below with a
//! line in the commit message saying why they moved. The hashes are of x86-64 Linux
//! builds; another platform's libm (`atan2`, `sin`, `cos`) may round differently.

#[path = "../crates/thud-dynamics/examples/support/scene_world.rs"]
mod scene_world;

use thud_dynamics::{Settings, SweepOrder};

const PINNED: [(&str, u64); 4] = [
    ("pyramid_20", 0x217e_c0d0_765d_f0e8),
    ("pile_1000", 0x3873_52d2_b2b9_bea0),
    ("tower_20", 0xe85d_b3ec_4d1b_d1a8),
    ("pyramid_40", 0x3819_6a3b_5b63_b9cd),
];

/// Without a touching gap and with every sweep run (`Settings::touching_gap` and
/// `sweep_tolerance` 0, the defaults until 2026-12-08): `PINNED` as it stood then. The
/// flatness of a manifold is read only where there is a gap, and the sweeps' change
/// only where there is a tolerance, so these keep every bit of the engine's path
/// without them.
const PINNED_UNGAPPED: [(&str, u64); 4] = [
    ("pyramid_20", 0xb99a_7d2c_1d09_0375),
    ("pile_1000", 0xeb39_cc4a_857e_9243),
    ("tower_20", 0x31ce_9718_9cef_1c55),
    ("pyramid_40", 0xa707_b3b3_9b77_f178),
];

/// The same in the colouring order (`SweepOrder::Colored`), whose sweep meets a body's
/// manifolds colour by colour: a change that holds the sequential sweep's bits need
/// not hold these (sending the exact mode's islands to the scalar sweep in store order
/// did not, and now stays with the sequential order).
const PINNED_COLORED: [(&str, u64); 2] = [
    ("pyramid_20", 0x6570_9308_645f_bf3f),
    ("pile_1000", 0xc18a_7df6_4159_2e69),
];

/// With every step building its rows (`Settings::reuse_rows_within` = 0): the hashes
/// of `PINNED` before steps began to keep their rows (moved since with them, when the
/// box pair's contacts changed their rounding).
const PINNED_BUILT: [(&str, u64); 3] = [
    ("pyramid_20", 0x3221_9a06_1b85_d135),
    ("pile_1000", 0x8e3f_b2e7_e0f4_cb69),
    ("tower_20", 0xe85d_b3ec_4d1b_d1a8),
];

#[test]
fn standard_scenes_end_in_their_pinned_states() {
    check(&PINNED, Settings::default());
}

#[test]
fn without_a_touching_gap_the_scenes_end_in_their_earlier_states() {
    let ungapped = Settings {
        touching_gap: 0.0,
        sweep_tolerance: 0.0,
        ..Settings::default()
    };
    check(&PINNED_UNGAPPED, ungapped);
}

#[test]
fn steps_that_build_every_row_end_in_their_pinned_states() {
    let built = Settings {
        reuse_rows_within: 0.0,
        ..Settings::default()
    };
    check(&PINNED_BUILT, built);
}

#[test]
fn the_colouring_order_ends_in_its_pinned_states() {
    let colored = Settings {
        sweep_order: SweepOrder::Colored,
        ..Settings::default()
    };
    check(&PINNED_COLORED, colored);
}

fn check(pins: &[(&str, u64)], settings: Settings) {
    let mut wrong = Vec::new();
    for &(name, pinned) in pins {
        let scene = thud_scene::standard(name).expect("standard scene");
        let (mut world, handles) = scene_world::world(&scene, settings.clone());
        for _ in 0..120 {
            world.step().expect("step");
        }
        let h = scene_world::state_hash(&world, &handles);
        println!("(\"{name}\", {h:#018x}),");
        if h != pinned {
            wrong.push(name);
        }
    }
    assert!(
        wrong.is_empty(),
        "states moved: {wrong:?} (see the module docs)"
    );
}
