//! Per-stage timings and counters of the last step.
//!
//! The [`Stage`] names are the pipeline of `World::step` and are used alike in the code,
//! `docs/architecture.md`, the command line's summary and (later) the ECS system sets.
//! With substepping the timings and counters add up over the substeps (`rows` and
//! `contacts` are those of the last substep).

use std::time::Duration;

/// One stage of the step, in pipeline order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Stage {
    /// Update fattened AABBs of moving colliders and find overlapping pairs.
    BroadPhase,
    /// Contact manifolds of the pairs, matched to the last step's points (warm start).
    NarrowPhase,
    /// Union-find islands over contacts; waking.
    Islands,
    /// Rows: J blocks, T = M⁻¹Jᵀ, D, b̃ = b/D, J̃ = J/D, bounds.
    BuildJacobians,
    /// dV = T·λ from last step's impulses.
    WarmStart,
    /// PGS sweeps (or the exact solve), restitution, split-impulse position pass.
    Solve,
    /// u(t+1) = Vnc + dV, poses, impulses back to the contact cache.
    Integrate,
    /// Sleep timers, islands falling asleep.
    Sleep,
}

impl Stage {
    /// All stages in pipeline order.
    pub const ALL: [Stage; 8] = [
        Stage::BroadPhase,
        Stage::NarrowPhase,
        Stage::Islands,
        Stage::BuildJacobians,
        Stage::WarmStart,
        Stage::Solve,
        Stage::Integrate,
        Stage::Sleep,
    ];

    /// The stage's name as printed (`"BroadPhase"`, ...).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Stage::BroadPhase => "BroadPhase",
            Stage::NarrowPhase => "NarrowPhase",
            Stage::Islands => "Islands",
            Stage::BuildJacobians => "BuildJacobians",
            Stage::WarmStart => "WarmStart",
            Stage::Solve => "Solve",
            Stage::Integrate => "Integrate",
            Stage::Sleep => "Sleep",
        }
    }
}

impl std::fmt::Display for Stage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Timings and counters of the last step, read with `World::stats()`.
#[derive(Debug, Clone, PartialEq)]
pub struct StepStats {
    /// Wall time of each stage in pipeline order.
    pub stages: [(Stage, Duration); 8],
    /// Live bodies of every kind.
    pub bodies: usize,
    /// Bodies the solver moved (awake dynamic and kinematic).
    pub awake_bodies: usize,
    /// Contact points in the solver.
    pub contacts: usize,
    /// Contact manifolds in the solver.
    pub manifolds: usize,
    /// Collider pairs the broadphase listed (their fat boxes overlap), summed over
    /// substeps.
    pub pairs: usize,
    /// Of those, the pairs the narrowphase computed afresh; the others kept their
    /// manifolds, moved with their bodies, or stayed apart (`NarrowPhase` reuse).
    pub pairs_computed: usize,
    /// Constraint rows in the solver (3 per contact point).
    pub rows: usize,
    /// PGS sweeps done (summed over substeps).
    pub iterations: u32,
    /// Contact row updates of those sweeps (summed over substeps): every row in a sweep
    /// with friction rows, the normal rows alone in one without
    /// (`Settings::friction_stride`). With friction in every sweep, `rows × iterations`.
    pub row_updates: u64,
    /// Contact points that started from a warm (matched, non-zero) impulse.
    pub warm_started: usize,
    /// Colours (levels in sequential order) of the last substep's contact sweep.
    pub colors: usize,
    /// Manifolds swept one by one from the scalar rows: those that found no colour, and
    /// those of the islands the exact mode takes.
    pub overflow: usize,
    /// Islands found (awake ones).
    pub islands: usize,
    /// Islands solved exactly (exact and auto modes).
    pub exact_islands: usize,
    /// Of those, islands whose pattern search failed for the second time in a row and
    /// that thud-lcp's interior-point method solved instead (`docs/dynamics.md`, *Exact
    /// mode*).
    pub exact_rescued: usize,
    /// Joint rows built (summed over substeps).
    pub joint_rows: usize,
    /// Joints that broke this step.
    pub joints_broken: usize,
    /// The last (sub)step kept the rows of an earlier one instead of building them
    /// (`Settings::reuse_rows_within`).
    pub rows_kept: bool,
    /// On such a step, the units (one or two groups of four manifolds) whose points
    /// had moved and whose rows it built again.
    pub rows_rebuilt: usize,
    /// On such a step, those units were built again on the pool's threads, in the
    /// sweeps' dependency order (a step whose sweeps run there).
    pub rows_rebuilt_on_threads: bool,
    /// On such a step, the manifolds whose point counts had changed since the step
    /// before, laid into their groups' lanes anew (their units among those built
    /// again).
    pub rows_relaid: usize,
    /// The sequential sweep ran in two regions and a seam (large sweeps that stand,
    /// `docs/performance.md`, *Threads*).
    pub regions: bool,
    /// The regions took the block order: all of a solve's sweeps, then the seam's (cut
    /// sweeps of at least 8 192 manifolds; `docs/performance-log.md`, *The block order
    /// for the largest sweeps*).
    pub blocks: bool,
    /// Solves whose velocity sweeps ran on the pool's threads.
    pub threaded_solves: u32,
}

impl Default for StepStats {
    fn default() -> Self {
        Self {
            stages: Stage::ALL.map(|s| (s, Duration::ZERO)),
            bodies: 0,
            awake_bodies: 0,
            contacts: 0,
            manifolds: 0,
            pairs: 0,
            pairs_computed: 0,
            rows: 0,
            iterations: 0,
            row_updates: 0,
            warm_started: 0,
            colors: 0,
            overflow: 0,
            islands: 0,
            exact_islands: 0,
            exact_rescued: 0,
            joint_rows: 0,
            joints_broken: 0,
            rows_kept: false,
            rows_rebuilt: 0,
            rows_rebuilt_on_threads: false,
            rows_relaid: 0,
            regions: false,
            blocks: false,
            threaded_solves: 0,
        }
    }
}

impl StepStats {
    /// Time spent in one stage.
    #[must_use]
    pub fn stage(&self, stage: Stage) -> Duration {
        self.stages[stage as usize].1
    }

    /// Sum of all stage times.
    #[must_use]
    pub fn total(&self) -> Duration {
        self.stages.iter().map(|s| s.1).sum()
    }

    pub(crate) fn add_time(&mut self, stage: Stage, d: Duration) {
        self.stages[stage as usize].1 += d;
    }

    /// Count `d` of the time stage `from` took as `to`'s (work one stage did for
    /// another, such as the solve refreshing rows as it sweeps them).
    pub(crate) fn move_time(&mut self, from: Stage, to: Stage, d: Duration) {
        let d = d.min(self.stages[from as usize].1);
        self.stages[from as usize].1 -= d;
        self.stages[to as usize].1 += d;
    }
}
