//! World settings: the time step, gravity and every solver knob, with the defaults that
//! the standard scenes (`shared/scenes.md`) run at.
//!
//! The defaults are not guesses: each solver default was picked by measuring `tower_20`,
//! `pyramid_20` and `pyramid_40` (drift, sag, energy, step time); `docs/dynamics.md`
//! records the measurements and how to choose other values.

use glam::Vec3;

use crate::error::{DynamicsError, finite1, finite3, non_negative};
use crate::material::CombineRule;

/// How the velocity solver removes penetration that is already there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum PenetrationMode {
    /// Baumgarte / ERP: the normal rows' bias `b` asks for a separating velocity
    /// `erp · (depth − slop) / dt`. Cheap; the bias velocity stays in the bodies as
    /// kinetic energy (a small "pop"). Give it a slop of millimetres: at the default
    /// 0.2 mm resting stacks stay beyond the slop and jitter apart (`docs/dynamics.md`).
    Baumgarte,
    /// Split impulse (pseudo-velocities): penetration is removed by a second, normal-rows
    /// only PGS on separate velocities that move the poses and are then thrown away, so
    /// position correction adds no kinetic energy. The default.
    #[default]
    SplitImpulse,
}

/// Which solver computes the contact impulses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum SolverMode {
    /// Projected Gauss-Seidel / SOR sweeps only (the real-time workhorse).
    Pgs,
    /// PGS everywhere, then the exact solve of [`SolverMode::Exact`] for the islands
    /// where PGS is known to fall short: at least `exact_min_bodies` bodies (towers,
    /// chains: PGS resolves their sway or stretch in `O(n²)` sweeps) or a mass ratio of
    /// `exact_mass_ratio` (heavy on light), at most `exact_max_rows` rows (a dense solve
    /// stays cheap), and, with contacts, no body faster than `exact_max_speed`. The
    /// default.
    #[default]
    Auto,
    /// Per island: assemble the boxed LCP `(A, b, lo, hi)` explicitly and solve it with
    /// thud-lcp's boxed principal pivoting (friction bounds fixed from the previous λₙ
    /// and refined by `exact_outer_passes`). Islands with more than `exact_max_rows`
    /// rows fall back to PGS. For small scenes and for checking PGS.
    Exact,
}

/// In which order a PGS sweep meets the contact manifolds (both are solved four
/// manifolds at a time; see `docs/performance.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum SweepOrder {
    /// Store order (collider pairs ascending), scheduled in levels of independent
    /// manifolds: the same answer as a one-at-a-time sweep, and the stiffest stacks.
    /// The default.
    #[default]
    Sequential,
    /// Greedy graph colouring (at most 16 colours, then an overflow set): fewer, fuller
    /// batches, but a correction crosses only a few contacts per sweep, so tall stacks
    /// need more iterations. For piles and many small islands.
    Colored,
}

/// Every setting of a [`World`](crate::World).
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// Time step of [`World::step`](crate::World::step) in seconds.
    pub dt: f32,
    /// Gravity acceleration in m/s².
    pub gravity: Vec3,
    /// PGS sweeps over all rows per solve substep (see `solve_substeps`); with
    /// `substep_iterations`, in the first solve substep only.
    pub iterations: u32,
    /// How far a sweep may still move a contact's bodies for the rows to count as
    /// settled, m/s (default 10⁻⁶): where the last sweep of a solve substep changed no
    /// contact row's impulse by more than this in velocity, `|Δλ|·(1/m_a + 1/m_b)`, the
    /// next solve substep over the same rows sweeps them once instead of `iterations`
    /// times, and that sweep measures again; the rows' bodies must also be at rest, no
    /// component of their velocities above ten times this (a wall rocking slowly out of
    /// its plane changes its rows by less than this from sweep to sweep). A structure
    /// at rest sits at its solve's fixed point (with the default `touching_gap`, a
    /// resting `pyramid_100`'s sweeps move no body by more than 10⁻⁵ m/s), so its later
    /// sweeps only round: at rest `pyramid_40` sweeps about 5 times a step instead of 12
    /// and `pyramid_100` about 8, and their steps are a quarter shorter. Rows built (or some built again), a body
    /// the caller moved or pushed, or a bounce make every sweep run; rows outside the
    /// groups (joints, the overflow set) take all their sweeps, and a solve whose groups
    /// share a body with them never settles. 0 runs every sweep always
    /// (`docs/dynamics.md`, *Settled solves*).
    pub sweep_tolerance: f32,
    /// PGS sweeps in each solve substep after the first (`None`: `iterations`). The
    /// later substeps start from the λ of the one before, over the same contacts, so
    /// they converge from a closer start: 3 then 2 (9 sweeps a step instead of 12) is
    /// about 10 % faster on `pyramid_40` and still stands every standard scene, with
    /// drift 17.9 instead of 7.7 mm on `pyramid_40` after 10 s (Rapier: 45.6 mm;
    /// `docs/dynamics.md`).
    pub substep_iterations: Option<u32>,
    /// Which sweeps of a solve run the friction rows: the first, every
    /// `friction_stride`-th after it and the last; the sweeps between run only the
    /// normal rows (≥ 1; 1: every sweep). Manifolds swept from the scalar rows (the
    /// exact mode's islands, the colouring's overflow) run them in every sweep. At 2
    /// the middle one of each solve substep's three sweeps runs the normal rows alone,
    /// at about two thirds of a full sweep's cost: `pyramid_40` steps about 5–6 % faster
    /// than at 1, with drift 7.7 instead of 5.2 mm after 10 s and 25 instead of 11 mm
    /// after 20 s (Rapier: 45.6 and 47.8 mm; `docs/dynamics.md`).
    pub friction_stride: u32,
    /// The whole step is run `substeps` times at `dt / substeps` (≥ 1).
    pub substeps: u32,
    /// The contact solve of each (sub)step runs `solve_substeps` times at
    /// `dt / solve_substeps` (≥ 1), reusing that step's manifolds and Jacobians: between
    /// solve substeps the bodies move, each point's separation advances by its normal
    /// velocity and the rows' `b̃` are refreshed (`docs/dynamics.md`). Each solve
    /// substep runs `iterations` PGS sweeps and `split_iterations` position sweeps.
    /// Islands for the exact mode are not substepped: beside other contacts they are
    /// swept once over the whole step while the others take their substeps; a step
    /// after one whose only contacts were such islands runs one solve of
    /// `solve_substeps` times the sweeps (`docs/dynamics.md`).
    pub solve_substeps: u32,
    /// SOR relaxation factor ω of the row update (1 = Gauss-Seidel; `0 < ω < 2`).
    pub omega: f32,
    /// Scale of last step's impulses used as the warm start (0 = cold, 1 = full).
    pub warm_start: f32,
    /// In an island of which at least a tenth of the supports are new and whose bodies
    /// stand still (a scene built resting, its first step; a stack built at rest into a
    /// running world, or onto a structure standing there), guess the resting contacts'
    /// normal impulses from the statics of the structure, top down, and warm-start
    /// from them: a stack built at rest then starts carrying its weight instead of
    /// sinking for its first steps and being lifted back (on by default; not with
    /// `reuse_rows_within` 0; `docs/dynamics.md`,
    /// *A cold step's warm start*).
    pub statics_warm_start: bool,
    /// Whether islands at rest fall asleep.
    pub sleeping: bool,
    /// PGS or exact (thud-lcp) solve.
    pub solver_mode: SolverMode,
    /// Order of the contact manifolds in a sweep.
    pub sweep_order: SweepOrder,
    /// How existing penetration is removed.
    pub penetration: PenetrationMode,
    /// Fraction of the penetration beyond `slop` removed per solve substep (ERP,
    /// `0..=1`): by each split-impulse pass when there is one per substep, together
    /// (`1 − (1 − erp)ⁿ`) by the default single pass a step; Baumgarte rows take it in
    /// every substep.
    pub erp: f32,
    /// Penetration depth in metres that is tolerated and never corrected (keeps contacts
    /// alive and stacks quiet).
    pub slop: f32,
    /// A gap in metres that counts as touching for a contact point that rests: it
    /// sticks (it carries load and its friction impulses lie inside `±μ·λₙ` as its
    /// row's target is made) and its manifold lies flat (its points' separations within
    /// `slop` of each other). Its bodies may approach within a solve substep by their
    /// gap less this, `(gap − touching_gap)/h`, and not at all below it; any other
    /// point closes its whole gap, so a body closing in still lands and one rocking on
    /// an edge settles. Resting contacts hover around zero gap, and a gap of a tenth of
    /// a micron lets them approach at 24 µm/s in a 240 Hz substep, more than
    /// `exact_tolerance`: their targets flicker with the rounding of the poses. At 1e-5
    /// (the default) a resting tower leaves the exact mode's tolerance on a few steps
    /// instead of one in eleven (its mean step 0.10 → 0.03 ms), and `pyramid_100` does
    /// not sink (sag 31 → 0 mm), stands in every order of its manifolds' points where
    /// it fell in one of eight without the gap, and steps about 12 % faster; a column
    /// leans a little more (each box may tilt within the gap: `tower_20` 1.2 mm at the
    /// top after 10 s), and a settling heap's regained energy and late movers over many
    /// draws are as without it, though any one draw differs. 0 takes every gap at its
    /// value, as before 2026-12-08 (`docs/dynamics.md`, *Touching gaps*).
    pub touching_gap: f32,
    /// Upper bound on the correction speed in m/s.
    pub max_correction_velocity: f32,
    /// Alternate the sweep direction (forward, backward, ...): symmetric Gauss-Seidel.
    pub symmetric_sweeps: bool,
    /// PGS sweeps of the split-impulse position pass per solve substep.
    pub split_iterations: u32,
    /// Sweeps of the position pass on a step whose deepest contact penetrates more than
    /// `deep_penetration` (when more than `split_iterations`): bodies dropped into a
    /// heap at speed sink into each other by centimetres, and one sweep a step lifts a
    /// stack out of that a layer a step, while the heap settles and after (inflating it
    /// at rest); a few sweeps carry the lift up the stack at once (`docs/dynamics.md`,
    /// *Deep contacts*). Default 4; `split_iterations` or less: never more.
    pub deep_split_iterations: u32,
    /// The penetration (m) from which a step's position pass runs
    /// `deep_split_iterations` sweeps. Default 5 mm: resting stacks, whose contacts
    /// the pass keeps within a fraction of that, never take them. The auto mode leaves
    /// an island with a contact this deep to PGS: it is still landing, not resting.
    pub deep_penetration: f32,
    /// Run the split-impulse position pass after every solve substep, each removing
    /// `erp` of the penetration beyond the slop. Off (the default), the pass runs once,
    /// after the step's last solve substep, and removes what `n` of them would have
    /// together (`1 − (1 − erp)ⁿ` for `n` solve substeps, at up to `n` times
    /// `max_correction_velocity`): the same stacks for a quarter of the position sweeps
    /// (`docs/dynamics.md`). Joints' position rows take a pass of their own in every
    /// solve substep either way (`joint_erp` is per substep).
    pub split_every_substep: bool,
    /// Speculative margin in metres: contact points up to this far apart are solved
    /// (they let bodies close the gap in one step but not more), and AABBs are fattened
    /// by it.
    pub contact_margin: f32,
    /// Approach speed in m/s below which restitution is ignored (resting contacts).
    pub restitution_threshold: f32,
    /// Implicit gyroscopic term (one Newton step of Euler's equation), on by default.
    pub gyroscopic: bool,
    /// Largest linear speed in m/s a body may have after a step.
    pub max_linear_velocity: f32,
    /// Largest angular speed in rad/s a body may have after a step.
    pub max_angular_velocity: f32,
    /// A body is "at rest" below this linear speed (m/s).
    pub sleep_linear_threshold: f32,
    /// A body is "at rest" below this angular speed (rad/s).
    pub sleep_angular_threshold: f32,
    /// An island sleeps when all its bodies have been at rest this long (s).
    pub time_to_sleep: f32,
    /// How two colliders' frictions combine (default: geometric mean √(μa·μb)).
    pub friction_combine: CombineRule,
    /// How two colliders' restitutions combine (default: max).
    pub restitution_combine: CombineRule,
    /// Exact and auto modes: islands with more rows than this are solved by PGS.
    pub exact_max_rows: usize,
    /// Exact and auto modes: the islands a step takes for the exact mode hold at most
    /// this many rows together, the islands of the most bodies first (but for islands
    /// of ten bodies or more, which PGS alone would let fall: those are always taken,
    /// and solved whenever they need it); the others stay with PGS in the packed lanes,
    /// and the smaller islands solved exactly in a step hold at most this many rows. So
    /// a scene of many small islands — a collapsed pile, rows of crate stacks — cannot
    /// make its steps slow: a taken island is swept from the scalar rows every step and
    /// checked against its problem, at about five times the cost of its sweeps in the
    /// lanes (`docs/dynamics.md`, *Exact mode*).
    pub exact_rows_per_step: usize,
    /// Auto mode: islands with fewer bodies than this are solved by PGS (it converges
    /// quickly on shallow islands, and the exact solve costs more) unless their mass
    /// ratio reaches `exact_mass_ratio`.
    pub exact_min_bodies: usize,
    /// Auto mode: islands whose heaviest body is at least this many times heavier than
    /// their lightest are solved exactly (heavy-on-light: PGS converges slowest there).
    pub exact_mass_ratio: f32,
    /// Auto mode: islands with a body faster than this (m/s; rad/s counted at 1 m) are
    /// left to PGS — exact answers matter for resting structures, and moving contacts
    /// make the pivoting search long.
    pub exact_max_speed: f32,
    /// Auto mode: an island whose PGS answer already satisfies its LCP to this velocity
    /// (m/s, the natural-map residual) keeps it and skips the exact solve. A resting
    /// tower warm-started from last step's exact answer stays within it, so it pays for
    /// the dense solve only when it has wandered off. It is also a drift rate: keep it
    /// small (1e-4 let `tower_20` creep 0.06 mm/s). Zero: solve every step.
    pub exact_tolerance: f32,
    /// Fraction of a joint's position error removed per step (`0..=1`).
    pub joint_erp: f32,
    /// Exact mode: outer passes refreshing the friction bounds ±μλₙ.
    pub exact_outer_passes: u32,
    /// On a rayon pool of several threads, a step uses the pool — runs on a pool thread
    /// and splits its narrowphase over the threads — only when there is enough to
    /// share: a large sweep that stands, cut into two regions (whose sweeps then run
    /// on two threads at any number of sweeps), solves of at least 8 sweeps, or at
    /// least this many broadphase pairs (the last step's count). Otherwise it runs on the
    /// caller's thread as on one thread: on the project's two-core machine the
    /// hand-overs and the traffic between the cores' caches cost more than the second
    /// thread gave on the smaller standard scenes (`docs/performance.md`, *Threads*);
    /// a settling heap of 1 000 boxes (4 800 pairs) gains from its narrowphase on two
    /// threads and the last step's manifolds refreshed beside its pair search. The
    /// answer is the same bits either way. Default 4 096; 0 uses the pool always.
    pub parallel_min_pairs: usize,
    /// On a rayon pool of several threads, a step also uses the pool when the last
    /// step's narrowphase computed at least this many pairs afresh (pairs whose
    /// manifolds it could not keep: a heap of tumbling boxes, a collapse), whatever the
    /// count of pairs: the box pair's clipping is then most of the step and splits
    /// well, while a resting scene, whose pairs mostly keep their manifolds, stays on
    /// one thread (`docs/performance.md`, *Threads*). The same bits either way.
    /// Default 1 024; `usize::MAX` never.
    pub parallel_min_recomputed: usize,
    /// A step keeps the rows of an earlier one (`J`, `T`, `D`, their couplings) where
    /// what they were made from has not moved: the same awake bodies, manifolds and
    /// materials, no exact island (but the exact mode's own), overflow set or bounce,
    /// and for each manifold its points' lever arms on both bodies within this distance
    /// (m; the normal within as many radians) of what they were when its rows were
    /// built — the rows of the manifolds that moved are built
    /// again, every row where more than half did, and all of them at least every
    /// 64 steps. The rows' `b̃` are made again from the new separations and velocities
    /// as between solve substeps. Between solve substeps (but before the last), the
    /// rows of units whose bodies cannot have moved a contact point by more than this
    /// distance since the separations last advanced stay as they are (`docs/dynamics.md`,
    /// *Solve substeps*). Default 0.1 mm; 0 builds every row every step and refreshes
    /// every row between solve substeps (`docs/dynamics.md`, *Rows kept across steps*).
    pub reuse_rows_within: f32,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            dt: 1.0 / 60.0,
            gravity: Vec3::new(0.0, -9.81, 0.0),
            iterations: 3,
            substep_iterations: None,
            friction_stride: 2,
            substeps: 1,
            solve_substeps: 4,
            omega: 1.0,
            warm_start: 1.0,
            statics_warm_start: true,
            sleeping: true,
            solver_mode: SolverMode::Auto,
            sweep_order: SweepOrder::Sequential,
            penetration: PenetrationMode::SplitImpulse,
            erp: 0.1,
            slop: 0.0002,
            touching_gap: 1e-5,
            sweep_tolerance: 1e-6,
            max_correction_velocity: 2.0,
            split_iterations: 1,
            deep_split_iterations: 4,
            deep_penetration: 0.005,
            split_every_substep: false,
            symmetric_sweeps: false,
            contact_margin: 0.02,
            restitution_threshold: 1.0,
            gyroscopic: true,
            max_linear_velocity: 400.0,
            max_angular_velocity: 200.0,
            sleep_linear_threshold: 0.05,
            sleep_angular_threshold: 0.05,
            time_to_sleep: 0.5,
            friction_combine: CombineRule::GeometricMean,
            restitution_combine: CombineRule::Max,
            exact_max_rows: 256,
            exact_rows_per_step: 1024,
            exact_min_bodies: 4,
            exact_mass_ratio: 10.0,
            exact_max_speed: 0.5,
            exact_tolerance: 1e-5,
            joint_erp: 0.5,
            exact_outer_passes: 1,
            parallel_min_pairs: 4_096,
            parallel_min_recomputed: 1024,
            reuse_rows_within: 1e-4,
        }
    }
}

impl Settings {
    /// The defaults with sleeping off (timing runs: every step simulates every body).
    #[must_use]
    pub fn without_sleeping() -> Self {
        Self {
            sleeping: false,
            ..Self::default()
        }
    }

    /// Check every field; the world refuses to step with invalid settings.
    pub fn validate(&self) -> Result<(), DynamicsError> {
        if !(self.dt.is_finite() && self.dt > 0.0) {
            return Err(DynamicsError::InvalidTimeStep { dt: self.dt });
        }
        finite3(self.gravity, "gravity")?;
        finite1(self.omega, "omega")?;
        if !(self.omega > 0.0 && self.omega < 2.0) {
            return Err(DynamicsError::OutOfRange {
                what: "omega",
                value: self.omega,
            });
        }
        for (n, what) in [
            (self.substeps, "substeps"),
            (self.solve_substeps, "solve_substeps"),
            (self.friction_stride, "friction_stride"),
        ] {
            if n == 0 {
                return Err(DynamicsError::OutOfRange { what, value: 0.0 });
            }
        }
        for (v, what) in [
            (self.warm_start, "warm_start"),
            (self.erp, "erp"),
            (self.slop, "slop"),
            (self.touching_gap, "touching_gap"),
            (self.sweep_tolerance, "sweep_tolerance"),
            (self.max_correction_velocity, "max_correction_velocity"),
            (self.contact_margin, "contact_margin"),
            (self.restitution_threshold, "restitution_threshold"),
            (self.max_linear_velocity, "max_linear_velocity"),
            (self.max_angular_velocity, "max_angular_velocity"),
            (self.sleep_linear_threshold, "sleep_linear_threshold"),
            (self.sleep_angular_threshold, "sleep_angular_threshold"),
            (self.time_to_sleep, "time_to_sleep"),
            (self.exact_mass_ratio, "exact_mass_ratio"),
            (self.exact_max_speed, "exact_max_speed"),
            (self.exact_tolerance, "exact_tolerance"),
            (self.joint_erp, "joint_erp"),
            (self.reuse_rows_within, "reuse_rows_within"),
            (self.deep_penetration, "deep_penetration"),
        ] {
            non_negative(v, what)?;
        }
        for (v, what) in [(self.erp, "erp"), (self.joint_erp, "joint_erp")] {
            if v > 1.0 {
                return Err(DynamicsError::OutOfRange { what, value: v });
            }
        }
        Ok(())
    }
}
