//! Exact step mode: each island's boxed LCP assembled explicitly and solved by thud-lcp.
//!
//! For the rows `i, j` of an island — its joint rows, then 3 per contact point, in the
//! stores' order — the assembly forms, from the very blocks the PGS uses
//! (`jacobian.rs`, `joint/rows.rs`),
//!
//! ```text
//!   A_ij = Σ_{bodies k of both rows} J_i,k · T_j,k  (+ γ_i on the diagonal of soft rows)
//!   b_i  = D_i · b̃_i                                (J·Vnc + stabilization)
//!   normal rows: lo = 0, hi = ∞;   friction rows: lo = −μλₙ, hi = +μλₙ
//!   joint rows: their own bounds (ℝ bilateral, [0, ∞) limits, ±F·dt motors)
//! ```
//!
//! `A` is sparse (two rows couple only through a shared body), so it is summed body by
//! body: `O(Σ_k deg(k)²)` instead of `O(n²)`. The island's problem `BLCP(A, b, lo, hi)`
//! is solved with thud-lcp's boxed block principal pivoting
//! (`thud_lcp::solvers::boxed_pivot`). The friction bounds are fixed from the current
//! λₙ (PGS's answer, itself warm-started from the previous step) and refreshed by
//! `Settings::exact_outer_passes` outer passes, each a fixed-bounds solve warm-started
//! from the previous pass. The PGS sweeps run first over every row, so islands the rule
//! leaves out simply keep the PGS answer, and the exact solve starts from a good active
//! set. A failed solve also keeps the PGS answer.
//!
//! **Which islands** ([`SolverMode`](crate::SolverMode)): `Exact` takes every island of
//! at most `exact_max_rows` rows; `Auto` (the default) takes the islands of at most
//! `exact_max_rows` rows that are deep (`≥ exact_min_bodies` bodies: a tower, a chain)
//! or heavy-on-light (mass ratio `≥ exact_mass_ratio`) — where PGS converges slowest —
//! and, when they hold contacts, only while every body is slower than
//! `exact_max_speed` and no contact is deeper than `deep_penetration`: a resting
//! structure needs the stiffness, while on contacts that change every step (a falling
//! domino row) the pivoting search is long and PGS's answer is good enough, and an
//! island still landing (a cluster of a dropped heap, its boxes sunk into each other
//! while the position pass pushes them apart) has no rest to hold (such solves took
//! 4–7 ms a step in `pile_1000`'s second and third seconds). The islands a step takes
//! hold at most `exact_rows_per_step` rows together, those of the most bodies first,
//! but for islands of ten bodies or more, which are always taken and always solved
//! when they need it ([`ALWAYS_TAKEN`]): the others stay with PGS.
//!
//! **Where the search starts** ([`Starts`]). A resting island is solved again only
//! when PGS's answer has wandered past `exact_tolerance`, and then from where PGS left
//! it. With redundant points (four corners of a face) the problem is singular and its
//! answers many; started from PGS's, each solve lands on another one, the next step's
//! sweeps move away from it, and the solves came in bursts (`tower_20`: 124 in its
//! first 600 steps, 9.6 pivoting steps each). Each island's last exact answer is kept,
//! by its bodies, and the next solve of the same island starts there (its friction
//! bounds from that answer's λₙ): `tower_20` then solves 46 times, 6.1 steps each, with
//! the same stiffness (drift 0.023 mm and sag 0.013 mm after 20 s against 0.011 and
//! 0.019). An island whose searches keep failing waits before the next one (a back-off,
//! also in [`Starts`]).
//!
//! `World::export_lcp` writes the same assembly for the whole last step (with the
//! friction coupling pairs, i.e. the true coupled problem) in thud-lcp's JSON format.

use thud_lcp::{BoxedLcp, Matrix, Options};

use crate::contact::ContactStore;
use crate::jacobian::{ContactRows, Row};
use crate::joint::rows::{JointRow, JointRows};
use crate::pgs::{self, Vel};
use crate::settings::{Settings, SolverMode};
use crate::solver_body::{SolverBodies, Velocity};

/// Where a row of an island's problem comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
    /// Row `k` of contact point `p`.
    Point(u32, u8),
    /// Joint row `r`.
    Joint(u32),
}

/// One row of an island's problem.
#[derive(Debug, Clone, Copy)]
struct Item {
    a: u32,
    b: u32,
    ima: f32,
    imb: f32,
    row: Row,
    lo: f64,
    hi: f64,
    gamma: f64,
    /// Friction row: (index of its normal row in the island, μ).
    pair: Option<(usize, f64)>,
    source: Source,
}

/// A joint row's compliance `γ` in the island's problem (zero for a hard row).
fn joint_gamma(j: &JointRow) -> f64 {
    if j.impulse_scale > 0.0 {
        f64::from(j.row.d) * f64::from(j.impulse_scale) / f64::from(j.mass_scale)
    } else {
        0.0
    }
}

/// The rows of the given contact points and joint rows (joints first).
fn items(points: &[ContactRows], idx: &[u32], joints: &[JointRow], jidx: &[u32]) -> Vec<Item> {
    let mut out = Vec::with_capacity(jidx.len() + 3 * idx.len());
    items_into(points, idx, (joints, jidx), &mut out);
    out
}

/// [`items`] into `out`'s buffer.
fn items_into(
    points: &[ContactRows],
    idx: &[u32],
    (joints, jidx): (&[JointRow], &[u32]),
    out: &mut Vec<Item>,
) {
    out.clear();
    for &r in jidx {
        let j = &joints[r as usize];
        out.push(Item {
            a: j.a,
            b: j.b,
            ima: j.inv_mass_a,
            imb: j.inv_mass_b,
            row: j.row,
            lo: f64::from(j.lo),
            hi: f64::from(j.hi),
            gamma: joint_gamma(j),
            pair: None,
            source: Source::Joint(r),
        });
    }
    for &p in idx {
        let c = &points[p as usize];
        let normal = out.len();
        for k in 0..3 {
            out.push(Item {
                a: c.a,
                b: c.b,
                ima: c.inv_mass_a,
                imb: c.inv_mass_b,
                row: c.rows[k],
                lo: if k == 0 { 0.0 } else { f64::NEG_INFINITY },
                hi: f64::INFINITY,
                gamma: 0.0,
                pair: (k > 0).then_some((normal, f64::from(c.friction))),
                source: Source::Point(p, k as u8),
            });
        }
    }
}

/// The full per-body blocks `(body, J, T)` of an item, body a then body b.
fn blocks(it: &Item) -> [(u32, [f64; 6], [f64; 6]); 2] {
    let r = &it.row;
    let (jl, ja, jb) = (r.j_lin, r.j_ang_a, r.j_ang_b);
    let f = |l: glam::Vec3A, a: glam::Vec3A| [l.x, l.y, l.z, a.x, a.y, a.z].map(f64::from);
    [
        (it.a, f(-jl, ja), f(-jl * it.ima, r.t_ang_a)),
        (it.b, f(jl, jb), f(jl * it.imb, r.t_ang_b)),
    ]
}

/// `(A, b, λ)` of an island's rows.
fn assemble(items: &[Item]) -> (Matrix, Vec<f64>, Vec<f64>) {
    let mut sol = Solve::default();
    assemble_into(items, &mut sol);
    (sol.a, sol.b, sol.lambda)
}

/// [`assemble`] into the buffers of `sol` (`a`, `b`, `lambda`).
fn assemble_into(items: &[Item], sol: &mut Solve) {
    let n = items.len();
    let a = &mut sol.a;
    a.reset_zeros(n, n);
    sol.b.clear();
    sol.b.extend(
        items
            .iter()
            .map(|it| f64::from(it.row.b) * f64::from(it.row.d)),
    );
    sol.lambda.clear();
    sol.lambda
        .extend(items.iter().map(|it| f64::from(it.row.lambda)));
    // (body, row, J, T) for every movable body of every row, grouped by body.
    let entries = &mut sol.entries;
    entries.clear();
    for (i, it) in items.iter().enumerate() {
        for (body, j, t) in blocks(it) {
            if body != 0 {
                entries.push((body, i, j, t));
            }
        }
    }
    // (Each key is an entry's own: a row's two bodies differ. So the order is the
    // stable sort's, without its buffer.)
    entries.sort_unstable_by_key(|e| (e.0, e.1));
    let mut start = 0;
    while start < entries.len() {
        let mut end = start;
        while end < entries.len() && entries[end].0 == entries[start].0 {
            end += 1;
        }
        for ei in &entries[start..end] {
            for ej in &entries[start..end] {
                let s: f64 = (0..6).map(|q| ei.2[q] * ej.3[q]).sum();
                a.row_mut(ei.1)[ej.1] += s;
            }
        }
        start = end;
    }
    for (i, it) in items.iter().enumerate() {
        a.row_mut(i)[i] += it.gamma;
    }
}

/// The coupled problem of some rows (for export and tests).
fn boxed_problem(items: &[Item]) -> Result<BoxedLcp, String> {
    let (a, b, _) = assemble(items);
    let lo = items.iter().map(|it| it.lo).collect();
    let hi = items.iter().map(|it| it.hi).collect();
    let pairs: Vec<(usize, usize, f64)> = items
        .iter()
        .enumerate()
        .filter_map(|(i, it)| it.pair.map(|(nrow, mu)| (i, nrow, mu)))
        .collect();
    BoxedLcp::new(a, b, lo, hi)
        .and_then(|p| p.with_friction(pairs))
        .map_err(|e| e.to_string())
}

/// How many times larger than the PGS answer's largest impulse an exact impulse may be.
/// Measured on the demos: 20 refuses the right answer of `heavy_on_light` (PGS's there
/// is far too weak), 200 lets `rope_bridge`'s loop answer through (+1.9·10⁷ J); 50
/// passes both. A heuristic until singular islands are reduced before the solve.
const MAX_GROWTH: f64 = 50.0;

/// Largest residual (m/s) of an exact answer that is used although not "solved".
const ACCEPT_RESIDUAL: f64 = 1e-4;

/// [`solve_items_in`] in buffers of its own: the answer (tests).
#[cfg(test)]
fn solve_items(
    items: &[Item],
    passes: u32,
    bodies: Option<&SolverBodies>,
    start: Option<&[f64]>,
    rescue: bool,
) -> Result<Vec<f64>, String> {
    let mut sol = Solve::default();
    solve_items_in(items, passes, (bodies, start, rescue), &mut sol)
        .map_err(|f| format!("exact solve ended {f:?}"))?;
    Ok(sol.lambda)
}

/// Why an exact solve gave no answer.
#[derive(Debug, Clone, Copy)]
enum Failure {
    /// The island's problem was refused (a non-finite entry).
    Problem,
    /// The search ended without a usable answer.
    Ended,
}

/// The exact solve's buffers (`Scratch::solve`), kept from one island's solve to the
/// next.
#[derive(Debug, Clone, Default)]
struct Solve {
    items: Vec<Item>,
    /// The island's `A` and `b`, and its answer as it goes (the start, each pass's
    /// answer, the last one).
    a: Matrix,
    b: Vec<f64>,
    lambda: Vec<f64>,
    /// A pass's bounds, and the problem's own bounds' buffers.
    lo: Vec<f64>,
    hi: Vec<f64>,
    problem_lo: Vec<f64>,
    problem_hi: Vec<f64>,
    /// `assemble`'s `(body, row, J, T)` entries, `coupled_residual`'s `Aλ`.
    entries: Vec<(u32, usize, [f64; 6], [f64; 6])>,
    w: Vec<f64>,
    options: Options,
    lcp: thud_lcp::Workspace,
}

/// Solve the rows exactly with fixed-bound outer passes, the new λ into `sol.lambda`.
///
/// With the bodies (`bodies`), the problem's `b` is that of the velocities as they
/// are: the rows' `b̃ = J̃·Vnc₀` hold the velocity without contact of the step's first
/// solve substep, and a later substep's `dV` also holds how far it has moved since
/// (`World::refresh_rows`), so `b = D·b̃ + J·(Vnc_now − Vnc₀)` (as `World::export_lcp`
/// writes it) — exactly `D·b̃` where nothing moved.
///
/// With `rescue` (the island's last search failed), a pattern search that fails
/// again on an island whose every row has a bound (contacts, no joints) hands the
/// problem to thud-lcp's interior-point method (`solvers::interior`), whose answer is
/// taken where its residual is smaller.
///
/// Returns whether a pass ran out of steps and whether the interior-point method gave
/// the answer. In the buffers of `sol`: a resting island's solve allocates nothing once
/// they have grown (but for the interior-point rescue).
fn solve_items_in(
    items: &[Item],
    passes: u32,
    (bodies, start, rescue): (Option<&SolverBodies>, Option<&[f64]>, bool),
    sol: &mut Solve,
) -> Result<(bool, bool), Failure> {
    assemble_into(items, sol);
    let mut exhausted = false;
    let mut rescued = false;
    if let Some(start) = start.filter(|s| s.len() == sol.lambda.len()) {
        sol.lambda.copy_from_slice(start);
    }
    if let Some(sb) = bodies {
        let moved = |k: u32| {
            let (now, first) = (sb.vnc_now[k as usize], sb.vnc[k as usize]);
            Velocity {
                lin: now.lin - first.lin,
                ang: now.ang - first.ang,
            }
        };
        for (bi, it) in sol.b.iter_mut().zip(items) {
            *bi += f64::from(pgs::row_velocity_raw(&it.row, &moved(it.a), &moved(it.b)));
        }
    }
    // Islands over `OUTER_ROWS` rows take more passes while the answer does not fit
    // the friction bounds it was solved with.
    let most = if items.len() > OUTER_ROWS {
        passes.max(MAX_OUTER)
    } else {
        passes.max(1)
    };
    // The problem is made on the first pass, in the buffers of `sol`, and given each
    // later pass's bounds; its buffers go back into `sol` at the end.
    let mut problem: Option<BoxedLcp> = None;
    let mut pass = 0;
    let outcome = loop {
        if pass >= passes.max(1) {
            let (a, b) = match &problem {
                Some(p) => (p.a(), p.b()),
                None => (&sol.a, &sol.b[..]),
            };
            if pass >= most
                || coupled_residual(a, b, items, &sol.lambda, &mut sol.w) <= ACCEPT_RESIDUAL
            {
                break Ok(());
            }
        }
        pass += 1;
        let (lo, hi, lambda) = (&mut sol.lo, &mut sol.hi, &sol.lambda);
        lo.clear();
        lo.extend(items.iter().map(|it| it.lo));
        hi.clear();
        hi.extend(items.iter().map(|it| it.hi));
        for (i, it) in items.iter().enumerate() {
            if let Some((nrow, mu)) = it.pair {
                let m = mu * lambda[nrow].max(0.0);
                lo[i] = -m;
                hi[i] = m;
            }
        }
        let p = match &mut problem {
            Some(p) => match p.set_bounds(lo, hi) {
                Ok(()) => p,
                Err(_) => break Err(Failure::Problem),
            },
            None => {
                sol.problem_lo.clone_from(lo);
                sol.problem_hi.clone_from(hi);
                let parts = (
                    std::mem::take(&mut sol.a),
                    std::mem::take(&mut sol.b),
                    std::mem::take(&mut sol.problem_lo),
                    std::mem::take(&mut sol.problem_hi),
                );
                match BoxedLcp::new(parts.0, parts.1, parts.2, parts.3) {
                    Ok(p) => problem.insert(p),
                    Err(_) => break Err(Failure::Problem),
                }
            }
        };
        let opts = &mut sol.options;
        opts.tolerance = 1e-9;
        opts.max_iterations = Some(MAX_SOLVES);
        // An island's `A = J M⁻¹ Jᵀ` is symmetric, but its entries `J_i·T_j` and
        // `J_j·T_i` round apart by about 10⁻⁷ of the largest (`T` is kept in `f32`), and
        // they meet to the bit only by accident (a resting island's first step): the
        // island's problems are factored one way whatever the rounding (the LU). Made
        // symmetric to the bit and factored as `L D Lᵀ`, `tower_20`'s searches went
        // round in circles from its third solve on and the tower fell, a larger
        // proximal `ε` did not help, and the likely reason is that the rounding lifts
        // the null space that its redundant points give `A` to about 10⁻⁷, where `ε`
        // (10⁻¹⁰) alone leaves the searches' free blocks near singular
        // (`docs/performance-log.md`).
        opts.symmetric_factors = false;
        let warm = opts.warm_start.get_or_insert_with(Vec::new);
        warm.clear();
        warm.extend_from_slice(&sol.lambda);
        let mut r = match thud_lcp::solvers::boxed_pivot::solve_boxed_in(p, opts, &mut sol.lcp) {
            Ok(r) => r,
            Err(_) => break Err(Failure::Problem),
        };
        // Accept what thud-lcp calls solved, or an answer whose largest complementarity
        // residual (in m/s: rows are velocities) is below `ACCEPT_RESIDUAL` — a pivoting
        // search on a degenerate contact problem often stops just short of the strict
        // tolerance with an answer that is physically exact.
        let usable = |r: &thud_lcp::Report| r.is_solved() || r.residual <= ACCEPT_RESIDUAL;
        let bounded = || (0..p.n()).all(|i| p.lo()[i].is_finite() || p.hi()[i].is_finite());
        if rescue && !usable(&r) && bounded() {
            // The island's last search failed too: the interior-point method, whose
            // step count hardly depends on the problem, within the same bound. (Only
            // where every row has a bound: a joint's free rows leave its barrier
            // nothing to hold, and a resting ragdoll's searches ran to the bound in
            // vain, doubling its time.)
            if let Ok(ip) = thud_lcp::solvers::interior::solve_interior(p, opts)
                && ip.residual < r.residual
            {
                sol.lcp.recycle(std::mem::replace(&mut r, ip));
                rescued = true;
            }
        }
        let usable = usable(&r);
        if !usable || !r.z.iter().all(|z| z.is_finite()) {
            sol.lcp.recycle(r);
            break Err(Failure::Ended);
        }
        exhausted |= r.iterations >= MAX_SOLVES;
        sol.lambda.clear();
        sol.lambda.extend_from_slice(&r.z);
        sol.lcp.recycle(r);
    };
    if let Some(p) = problem {
        (sol.a, sol.b, sol.problem_lo, sol.problem_hi) = p.into_parts();
    }
    outcome.map(|()| (exhausted, rescued))
}

/// The largest island (in rows) whose solve's buffers are kept for the next solve:
/// about ten boxes stacked on faces of four points. A larger island's are kept only
/// while the next call solves such an island again (the step after, for an island
/// solved once a step), and freed at the first that does not
/// ([`Scratch::release_large`]). Kept, `tower_20`'s 240 rows held 1.1 MB of heap between
/// its solves (a dense `A` and pattern block of 460 KB each, the rows, the assembly's
/// entries), 3.1 KB a contact point against Rapier's 1.0 KB for that scene (0.7 KB
/// when they are not kept). Made afresh, they cost about a third of each solve: the
/// fresh pages' faults while the blocks are zeroed, and the heap's trim when they go.
/// Its solves come in runs on consecutive steps (75 of the 110 gaps between its
/// solves in 1 200 steps are one step), so keeping them through a run saves most of it.
const KEEP_ROWS: usize = 128;

/// The natural-map residual of `lambda` (m/s) for the coupled problem: friction
/// bounds `±μ·max(λₙ, 0)` at `lambda` itself, not at the start the pass fixed them
/// from.
fn coupled_residual(
    a: &Matrix,
    b: &[f64],
    items: &[Item],
    lambda: &[f64],
    w: &mut Vec<f64>,
) -> f64 {
    w.clear();
    w.resize(a.rows(), 0.0);
    a.mul_vec_into(lambda, w);
    items
        .iter()
        .enumerate()
        .map(|(i, it)| {
            let (lo, hi) = match it.pair {
                Some((nrow, mu)) => {
                    let m = mu * lambda[nrow].max(0.0);
                    (-m, m)
                }
                None => (it.lo, it.hi),
            };
            (lambda[i] - (lambda[i] - (w[i] + b[i])).clamp(lo, hi)).abs()
        })
        .fold(0.0, f64::max)
}

/// At most this many linear solves (pivoting steps) per island and outer pass: the
/// time bound of one exact solve (an island of 256 rows factors in about a
/// millisecond). A warm-started resting island needs a handful; a search that has not
/// finished by then keeps PGS's answer for the substep.
const MAX_SOLVES: usize = 48;

/// Islands of more rows than this take up to [`MAX_OUTER`] outer passes (at least
/// `Settings::exact_outer_passes`) while their answer does not fit the friction bounds
/// it was solved with (its coupled residual is over `ACCEPT_RESIDUAL`). A column's
/// one-pass answers seldom fit — on `tower_20` the friction of most exceeds the new
/// `μλₙ` by 10⁻³–10⁻¹ m/s — and `tower_20` stands either way, while more passes cost
/// it 30 % of its mean step. Columns of 40 to 60 boxes (`exact_max_rows` raised) gained
/// 2.6–41 J from such answers and fell; with the passes they stand (0.2–1.9 mm after
/// 20 s). The default `exact_max_rows` (256) takes no island this large, so the
/// default step is unchanged.
const OUTER_ROWS: usize = 256;

/// Most outer passes of an island over [`OUTER_ROWS`] rows.
const MAX_OUTER: u32 = 4;

/// Solve contact points `idx` alone exactly (tests).
#[cfg(test)]
pub(crate) fn solve_points(
    points: &[ContactRows],
    idx: &[u32],
    passes: u32,
) -> Result<Vec<f64>, String> {
    solve_items(&items(points, idx, &[], &[]), passes, None, None, false)
}

/// Islands kept in [`Starts`] at least; a step with more islands small enough for the
/// exact mode keeps one for each of them ([`Starts::tick`]). The one least recently
/// solved or failed goes first.
const MAX_STARTS: usize = 16;

/// Islands of this many bodies or more are taken for the exact mode whatever the step's
/// row budget ([`takes_any`]), and solved whenever their answers miss
/// ([`solve_islands`]). PGS alone holds a stack of up to ten boxes (towers of 4–10 drift
/// 0.3–4 mm in 30 s), but lets one of eleven or twelve lean 40–74 mm in 10 s (twelve:
/// 292 mm in 30 s, gaining 0.8 J): ten resting towers of twelve, taken only within the
/// budget (seven of them), leaned 62 mm and gained 2.7 J in 30 s. And a taken island the
/// budget leaves unsolved step after step is worse off than one left to PGS: while the
/// budget bound these islands' solves too, 16 towers of 16 gained 66 J and fell, and 64
/// of them 444 J. Solved whenever they need it, each of those rows stands to 0.1 mm for
/// 30 s, at 3 and 9.5 ms a step.
const ALWAYS_TAKEN: usize = 10;

/// Most solves of the exact mode an island whose searches keep failing waits before it
/// is tried again ([`Starts::failed`]).
const MAX_BACKOFF: u64 = 256;

/// Failures in a row before an island waits: a search that fails now and then (a
/// tower's, once in 600 steps) is tried again at once — two steps of PGS alone let
/// `tower_20` lean off its exact answer, and every later search from there failed.
const FAILS_BEFORE_WAIT: u32 = 3;

/// What the exact mode keeps of the islands it solved, by each island's bodies (their
/// slots, sorted):
///
/// - its last exact answer: the next exact solve of the same island (as many rows, the
///   same bodies) starts its pivoting search there (module docs, *Where the search
///   starts*). The start only steers the search; the answer is exact from any start.
/// - a back-off after failed searches: a search that ends without an answer keeps PGS's
///   answer, and an island whose searches keep failing (`ragdoll_stairs` at rest: 48
///   pivoting steps, 2 ms, and no answer, step after step) is tried again, from its
///   third failure in a row, only after 2, 4, 8, … up to [`MAX_BACKOFF`] of the exact
///   mode's solves; one success ends the wait. Its steps keep PGS's answer meanwhile,
///   as each failed search left it. A search that runs out of steps and whose answer is
///   taken for its small residual counts as a failure too (the resting ragdoll's
///   searches mostly end so: 2 ms each, in a tenth of its steps).
#[derive(Debug, Clone, Default)]
pub(crate) struct Starts {
    entries: Vec<Start>,
    /// Calls of `solve_islands`: the clock of the back-off and of the eviction.
    now: u64,
    /// Entries kept: [`MAX_STARTS`], or one for each small island of the last call.
    room: usize,
}

#[derive(Debug, Clone)]
struct Start {
    bodies: Vec<u32>,
    /// The last exact answer (empty while none).
    lambda: Vec<f64>,
    /// When the entry was last used, failures in a row, and until when the island is
    /// left to PGS.
    used: u64,
    fails: u32,
    until: u64,
}

impl Starts {
    /// Forgets the islands of body slot `slot` (removed: the slot may go to another
    /// body).
    pub(crate) fn forget(&mut self, slot: u32) {
        self.entries
            .retain(|e| e.bodies.binary_search(&slot).is_err());
    }

    /// One more call of `solve_islands`, on a step with `islands` islands small enough
    /// for the exact mode: room for an entry each (at least [`MAX_STARTS`]), the least
    /// recently used beyond it forgotten. With a fixed sixteen, 32 resting columns of
    /// eight boxes took turns evicting each other's answers, and each solve started
    /// from PGS's instead of the island's last: they were solved 37–41 times in their
    /// eighth and ninth seconds, and 0–10 times with an entry each.
    fn tick(&mut self, islands: usize) {
        self.now += 1;
        self.room = islands.max(MAX_STARTS);
        while self.entries.len() > self.room {
            self.evict();
        }
    }

    /// Forgets the least recently used entry.
    fn evict(&mut self) {
        if let Some(oldest) = (0..self.entries.len()).min_by_key(|&k| self.entries[k].used) {
            self.entries.swap_remove(oldest);
        }
    }

    /// The kept answer of the island of `bodies` with `rows` rows.
    fn of(&self, bodies: &[u32], rows: usize) -> Option<&[f64]> {
        self.entries
            .iter()
            .find(|e| e.bodies == bodies && e.lambda.len() == rows)
            .map(|e| &e.lambda[..])
    }

    /// Whether the island of `bodies`'s last search failed.
    fn failing(&self, bodies: &[u32]) -> bool {
        self.entries
            .iter()
            .any(|e| e.bodies == bodies && e.fails > 0)
    }

    /// Whether the island of `bodies` waits after failed searches.
    fn waits(&self, bodies: &[u32]) -> bool {
        self.entries
            .iter()
            .any(|e| e.bodies == bodies && self.now < e.until)
    }

    /// The island's entry, made (evicting the least recently used) where it has none.
    fn entry(&mut self, bodies: &[u32]) -> &mut Start {
        let now = self.now;
        let k = match self.entries.iter().position(|e| e.bodies == bodies) {
            Some(k) => k,
            None => {
                if self.entries.len() >= self.room.max(MAX_STARTS) {
                    self.evict();
                }
                self.entries.push(Start {
                    bodies: bodies.to_vec(),
                    lambda: Vec::new(),
                    used: now,
                    fails: 0,
                    until: 0,
                });
                self.entries.len() - 1
            }
        };
        let e = &mut self.entries[k];
        e.used = now;
        e
    }

    /// Keeps `lambda` as the island's answer and ends its back-off — unless the search
    /// `exhausted` its steps (its answer taken for a small residual): that counts as a
    /// failure too, for the wait.
    fn keep(&mut self, bodies: &[u32], lambda: &[f64], exhausted: bool) {
        let e = self.entry(bodies);
        e.lambda.clear();
        e.lambda.extend_from_slice(lambda);
        if exhausted {
            self.failed(bodies);
        } else {
            (e.fails, e.until) = (0, 0);
        }
    }

    /// The island's search failed. From the [`FAILS_BEFORE_WAIT`]-th failure in a row
    /// on it waits, twice as long as after the last one.
    fn failed(&mut self, bodies: &[u32]) {
        let now = self.now;
        let e = self.entry(bodies);
        e.fails = e.fails.saturating_add(1);
        if let Some(k) = e
            .fails
            .checked_sub(FAILS_BEFORE_WAIT - 1)
            .filter(|&k| k > 0)
        {
            e.until = now + (1u64 << k.min(8)).min(MAX_BACKOFF);
        }
    }
}

/// Apply new impulses to the rows and their bodies' `dV`. Normal and joint rows are
/// clamped onto their bounds (the pivoting answer meets them only to its tolerance);
/// friction rows are kept as solved, within the bounds of the solve (`±μλₙ` of the
/// PGS λₙ): clipping them to the new λₙ made the answer inconsistent and the next
/// steps' searches long. PGS's friction bound is `max(0, μλₙ)`, so a warm start is
/// always a valid box.
fn apply(
    items: &[Item],
    lambda: &[f64],
    points: &mut [ContactRows],
    joints: &mut [JointRow],
    dv: &mut [Velocity],
) {
    for (i, it) in items.iter().enumerate() {
        let l = lambda[i] as f32;
        let new = match it.pair {
            Some(_) => l,
            None => l.clamp(it.lo as f32, it.hi as f32),
        };
        let row = match it.source {
            Source::Point(p, k) => &mut points[p as usize].rows[k as usize],
            Source::Joint(r) => &mut joints[r as usize].row,
        };
        let delta = new - row.lambda;
        row.lambda = new;
        let (a, b) = (it.a as usize, it.b as usize);
        let (mut va, mut vb) = (dv[a], dv[b]);
        pgs::apply_impulse(row, delta, it.ima, it.imb, &mut va, &mut vb);
        dv[a] = va;
        dv[b] = vb;
    }
    dv[0] = Velocity::ZERO;
}

/// Movable bodies (solver indices) of an island's rows — the given joint rows and
/// contact points, as [`items`] takes them — into `out` with their `1/m`, in index
/// order, and the ratio of their largest to smallest mass.
fn body_stats(
    points: &[ContactRows],
    idx: &[u32],
    joints: &[JointRow],
    jidx: &[u32],
    out: &mut Vec<(u32, f32)>,
) -> f32 {
    let joints = jidx.iter().map(|&r| &joints[r as usize]);
    let points = idx.iter().map(|&p| &points[p as usize]);
    stats_of(
        joints
            .flat_map(|j| [(j.a, j.inv_mass_a), (j.b, j.inv_mass_b)])
            .chain(points.flat_map(|c| [(c.a, c.inv_mass_a), (c.b, c.inv_mass_b)])),
        out,
    )
}

/// The movable bodies of `(solver index, 1/m)` pairs into `ids`, in index order, each
/// with its `1/m`, and the ratio of their largest to smallest mass. (`ids` is the
/// caller's, kept from step to step: a resting island's look allocates nothing.)
fn stats_of(bodies: impl Iterator<Item = (u32, f32)>, ids: &mut Vec<(u32, f32)>) -> f32 {
    // A manifold's rows name its two bodies again and again: such repeats of the last
    // two are left out before the sort (the look at a 20-box tower's island sorted 480
    // entries a step for its 20 bodies, 6 µs of a 61 µs step).
    ids.clear();
    for (k, im) in bodies.filter(|&(k, im)| k != 0 && im > 0.0) {
        if !ids.iter().rev().take(2).any(|e| e.0 == k) {
            ids.push((k, im));
        }
    }
    ids.sort_unstable_by_key(|e| e.0);
    ids.dedup_by_key(|e| e.0);
    mass_ratio(ids)
}

/// The ratio of the largest to the smallest mass of `ids` (`(solver index, 1/m)`), 1
/// where there are none.
fn mass_ratio(ids: &[(u32, f32)]) -> f32 {
    let (lo, hi) = ids
        .iter()
        .fold((f32::INFINITY, 0.0f32), |(lo, hi), &(_, im)| {
            (lo.min(im), hi.max(im))
        });
    if ids.is_empty() { 1.0 } else { hi / lo }
}

/// The deepest penetration (m) among the island's contact points `idx`: the
/// narrowphase's separations where the step decides which islands to take, advanced
/// through the solve substeps by then for the solve (`ContactStore::advance`).
fn deepest(c: &ContactStore, idx: &[u32]) -> f32 {
    idx.iter()
        .map(|&p| c.inputs.get(p as usize).map_or(0.0, |i| -i.separation))
        .fold(0.0, f32::max)
}

/// Largest start-of-step speed `max(|v|, |ω|·1 m)` of the given bodies (as
/// [`stats_of`] lists them).
fn fastest(ids: &[(u32, f32)], bodies: &SolverBodies) -> f32 {
    ids.iter()
        .map(|&(k, _)| {
            let u = bodies.v0[k as usize];
            u.lin.length().max(u.ang.length())
        })
        .fold(0.0, f32::max)
}

/// Redundant rows (a closed joint loop, four corners of a face) make `A` singular; an
/// answer may then carry a huge impulse in its near-null space that the f32 rows turn
/// into energy. Such answers (an impulse over `MAX_GROWTH` times the PGS answer's
/// largest) are refused, and the PGS answer is kept.
fn plausible(items: &[Item], lambda: &[f64]) -> bool {
    let scale = items
        .iter()
        .fold(1e-3f64, |m, it| m.max(f64::from(it.row.lambda).abs()));
    lambda.iter().all(|l| l.abs() <= MAX_GROWTH * scale)
}

/// How far the current λ and `dV` are from solving the island's BLCP, as a velocity:
/// the largest `D_i·|mid(lo_i, λ_i − w_i/D_i, hi_i) − λ_i|` over the rows, with
/// `w = Aλ + b = D·(b̃ + J̃·dV) + γλ` (the natural-map residual: zero exactly at a
/// solution, and what one more PGS update would change, in m/s). Friction bounds are
/// `±μλₙ` of the current normal impulse. A resting structure warm-started from last
/// step's exact answer stays at that fixed point, so its island is skipped until
/// something changes. The rows are read where they lie — the given joint rows, then
/// each contact point's normal and friction rows, in the order of [`items`] — so an
/// island looked at on every step makes its items only for a solve.
fn residual(
    points: &[ContactRows],
    idx: &[u32],
    (joints, jidx): (&[JointRow], &[u32]),
    dv: &[Velocity],
) -> f32 {
    let mut worst = jidx
        .iter()
        .map(|&r| {
            let j = &joints[r as usize];
            let v = (Vel::of(dv[j.a as usize]), Vel::of(dv[j.b as usize]));
            row_residual(&j.row, v, (j.lo, j.hi), joint_gamma(j) as f32)
        })
        .fold(0.0, f32::max);
    // Point by point: its bodies' `dV` loaded once for its three rows.
    for &p in idx {
        let c = &points[p as usize];
        let v = (Vel::of(dv[c.a as usize]), Vel::of(dv[c.b as usize]));
        let friction = friction_bounds(f64::from(c.friction), &c.rows[0]);
        let [rn, r1, r2] = &c.rows;
        worst = worst.max(row_residual(rn, v, (0.0, f32::INFINITY), 0.0));
        worst = worst.max(row_residual(r1, v, friction, 0.0));
        worst = worst.max(row_residual(r2, v, friction, 0.0));
    }
    worst
}

/// A friction row's bounds `±μλₙ` from its normal row's current λ.
fn friction_bounds(mu: f64, normal: &Row) -> (f32, f32) {
    let bound = (mu as f32 * normal.lambda).max(0.0);
    (-bound, bound)
}

/// One row's term of [`residual`]: `D·|mid(lo, λ − w/D, hi) − λ|` with
/// `w/D = b̃ + J̃·dV + γλ/D` (`γ` the row's compliance, zero for a contact).
#[inline(always)]
fn row_residual(r: &Row, (va, vb): (Vel, Vel), (lo, hi): (f32, f32), gamma: f32) -> f32 {
    let jdv = pgs::vel_row_velocity(r, &va, &vb);
    let w_over_d = r.b + jdv + gamma * r.lambda / r.d.max(f32::MIN_POSITIVE);
    let new = (r.lambda - w_over_d).clamp(lo, hi);
    r.d * (new - r.lambda).abs()
}

/// Which islands the exact solve takes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rule {
    pub max_rows: usize,
    pub min_bodies: usize,
    pub mass_ratio: f32,
    /// Leave islands with a body faster than this (m/s, or rad/s × 1 m) at the start of
    /// the step to PGS: their contacts are changing, so the pivoting search is long,
    /// and the stiffness of an exact answer matters for resting structures.
    pub max_speed: f32,
    /// Leave islands with a contact deeper than this (m) to PGS: they are landing, and
    /// the position pass is still pushing them apart (`Settings::deep_penetration`).
    pub max_depth: f32,
    /// Keep the PGS answer of an island whose rows PGS already satisfies to this
    /// velocity (m/s): see [`residual`]. Zero: always solve.
    pub tolerance: f32,
    /// The rows the islands taken in a step may hold together
    /// (`Settings::exact_rows_per_step`): [`takes_any`] takes the islands of the most
    /// bodies first, and those of [`ALWAYS_TAKEN`] bodies or more beyond it (which
    /// [`solve_islands`] solves beyond it too).
    pub budget: usize,
}

impl Rule {
    /// The rule of the settings' solver mode (`None` for PGS alone): `Exact` takes every
    /// island of at most `exact_max_rows` rows, `Auto` only those where PGS falls short.
    pub fn of(s: &Settings) -> Option<Rule> {
        match s.solver_mode {
            SolverMode::Pgs => None,
            SolverMode::Exact => Some(Rule {
                max_rows: s.exact_max_rows,
                min_bodies: 0,
                mass_ratio: 0.0,
                max_speed: f32::INFINITY,
                max_depth: f32::INFINITY,
                tolerance: 0.0,
                budget: s.exact_rows_per_step,
            }),
            SolverMode::Auto => Some(Rule {
                max_rows: s.exact_max_rows,
                min_bodies: s.exact_min_bodies,
                mass_ratio: s.exact_mass_ratio,
                max_speed: s.exact_max_speed,
                max_depth: s.deep_penetration,
                tolerance: s.exact_tolerance,
                budget: s.exact_rows_per_step,
            }),
        }
    }
}

/// The islands of the last step: `(root, contact points, joint rows)` in root order.
pub(crate) fn islands_of(c: &ContactStore, j: &JointRows) -> Vec<(u32, Vec<u32>, Vec<u32>)> {
    let mut lists = IslandLists::default();
    islands_where(c, j, |_| true, &mut lists);
    lists
        .iter()
        .map(|(root, idx, jidx)| (root, idx.to_vec(), jidx.to_vec()))
        .collect()
}

/// Islands' contact points and joint rows, island by island in root order, each
/// island's in store order ([`islands_where`]); its buffers are kept from step to step.
#[derive(Debug, Clone, Default)]
pub(crate) struct IslandLists {
    /// Scratch: each point or joint row with its island's root.
    order: Vec<(u32, Source)>,
    /// Each island's root and the ends of its runs in `points` and `joints`.
    islands: Vec<(u32, u32, u32)>,
    points: Vec<u32>,
    joints: Vec<u32>,
    /// Each listed island's bodies without joint rows: the solver indices its contact
    /// points' manifolds name, but the dummy's, ascending, each once
    /// ([`small_islands`]; an island with joint rows has none here).
    bodies: Vec<u32>,
    /// The end of each island's run in `bodies`.
    body_ends: Vec<u32>,
    /// What [`small_islands`] made the lists from: the store's `keys_at` (0: not made
    /// by it), the row limit and the joint rows' islands.
    made_from: (u64, usize, Vec<u32>),
    /// How many times [`small_islands`] made the lists.
    #[cfg(test)]
    made: usize,
}

impl IslandLists {
    /// `(root, contact points, joint rows)` of each island.
    fn iter(&self) -> impl Iterator<Item = (u32, &[u32], &[u32])> {
        let mut from = (0, 0);
        self.islands.iter().map(move |&(root, p, j)| {
            let (p0, j0) = std::mem::replace(&mut from, (p as usize, j as usize));
            (
                root,
                &self.points[p0..p as usize],
                &self.joints[j0..j as usize],
            )
        })
    }

    /// Island `k`'s bodies (its position in [`iter`](Self::iter)), as
    /// [`small_islands`] listed them: `None` for an island with joint rows.
    fn bodies_of(&self, k: usize) -> Option<&[u32]> {
        let from = k.checked_sub(1).map_or(0, |b| self.body_ends[b] as usize);
        let to = self.body_ends[k] as usize;
        let has_joints = self.islands[k].2 > k.checked_sub(1).map_or(0, |b| self.islands[b].2);
        (!has_joints).then(|| &self.bodies[from..to])
    }
}

/// The small islands' lists ([`islands_where`], the islands `any_small_island` counted
/// as small; call it first), with each island's bodies ([`IslandLists::bodies_of`]).
/// Made again only where the store's keys, the row limit or the joint rows' islands
/// changed since they were last made: the lists and bodies depend on nothing else, so
/// a resting scene's look (`takes_any`, then `solve_islands`, step after step) reads
/// them as they stand. (On 64 towers of eight, both looks listed and sorted every
/// island's points and bodies each step, about a seventh of the step.)
fn small_islands(c: &ContactStore, j: &JointRows, max_rows: usize, lists: &mut IslandLists) {
    let (at, max, joints) = &lists.made_from;
    if c.keys_still(*at) && *max == max_rows && *joints == j.island {
        return;
    }
    let rows = &c.island_rows;
    let small = |root: u32| rows.is_empty() || rows[root as usize] as usize <= max_rows;
    islands_where(c, j, small, lists);
    let IslandLists {
        islands,
        points,
        bodies,
        body_ends,
        ..
    } = lists;
    bodies.clear();
    body_ends.clear();
    let (mut p0, mut j0) = (0, 0);
    for &(_, p, jr) in islands.iter() {
        let from = bodies.len();
        if jr == j0 {
            for &i in &points[p0..p as usize] {
                let m = &c.manifold_inputs[c.inputs[i as usize].manifold as usize];
                for k in [m.a, m.b] {
                    // (A manifold's points name its two bodies again and again.)
                    if k != 0 && !bodies[from..].iter().rev().take(2).any(|&e| e == k) {
                        bodies.push(k);
                    }
                }
            }
            bodies[from..].sort_unstable();
            let mut kept = from;
            for r in from..bodies.len() {
                if kept == from || bodies[kept - 1] != bodies[r] {
                    bodies[kept] = bodies[r];
                    kept += 1;
                }
            }
            bodies.truncate(kept);
        }
        body_ends.push(bodies.len() as u32);
        (p0, j0) = (p as usize, jr);
    }
    lists.made_from = (c.keys_at, max_rows, j.island.clone());
    #[cfg(test)]
    {
        lists.made += 1;
    }
}

/// [`stats_of`] for an island whose bodies [`small_islands`] listed (`list`): the same
/// movable bodies with their `1/m` now, in the same order, and the same ratio.
fn listed_stats(list: &[u32], inv_mass: &[f32], ids: &mut Vec<(u32, f32)>) -> f32 {
    ids.clear();
    ids.extend(
        list.iter()
            .map(|&k| (k, inv_mass[k as usize]))
            .filter(|&(_, im)| im > 0.0),
    );
    mass_ratio(ids)
}

/// The exact mode's buffers, kept from step to step (`ContactStore::exact_scratch`): a
/// resting island's look, and its solve once they have grown, allocate nothing.
#[derive(Debug, Clone, Default)]
pub(crate) struct Scratch {
    /// An island's movable bodies with their `1/m` ([`stats_of`]).
    bodies: Vec<(u32, f32)>,
    /// Their slots, sorted: the island's key in [`Starts`].
    key: Vec<u32>,
    /// The islands [`takes_any`] may take: (bodies, position in the list, rows).
    takes: Vec<(usize, usize, usize)>,
    /// An island's solve.
    solve: Solve,
    /// `solve`'s buffers were grown for an island of more than [`KEEP_ROWS`] rows: they
    /// go at the first [`solve_islands`] that solves no such island.
    large: bool,
}

impl Scratch {
    /// Called after each [`solve_islands`] with whether it solved an island of more
    /// than [`KEEP_ROWS`] rows: the solve's buffers grown for such an island are kept
    /// while every call solves one, and freed at the first that does not.
    fn release_large(&mut self, solved_large: bool) {
        if self.large && !solved_large {
            self.solve = Solve::default();
        }
        self.large = solved_large;
    }
}

/// [`islands_of`] into `lists`, only the islands whose root `keep` accepts (their
/// points and joint rows are the only ones sorted and collected).
fn islands_where(
    c: &ContactStore,
    j: &JointRows,
    keep: impl Fn(u32) -> bool,
    lists: &mut IslandLists,
) {
    let points = c.manifold_points.iter().zip(&c.manifold_island);
    // (Room for every point and joint row: a step whose islands gained a point finds
    // it there, and a settled scene's lists never grow again.)
    let (all_points, all_joints) = (c.inputs.len(), j.rows.len());
    let order = &mut lists.order;
    order.clear();
    order.reserve(all_points + all_joints);
    order.extend(
        points
            .flat_map(|(&(first, n), &root)| {
                (first..first + n).map(move |i| (root, Source::Point(i, 0)))
            })
            .chain((0..j.rows.len() as u32).map(|r| (j.island[r as usize], Source::Joint(r))))
            .filter(|e| keep(e.0)),
    );
    // (Stable: each island's points and joint rows stay in store order. A single
    // island, or islands already in root order, need no sort.)
    if !order.is_sorted_by_key(|e| e.0) {
        order.sort_by_key(|e| e.0);
    }
    lists.islands.clear();
    lists.islands.reserve(order.len());
    lists.points.clear();
    lists.points.reserve(all_points);
    lists.joints.clear();
    lists.joints.reserve(all_joints);
    for &(root, src) in order.iter() {
        if lists.islands.last().is_none_or(|l| l.0 != root) {
            lists.islands.push((root, 0, 0));
        }
        match src {
            Source::Point(p, _) => lists.points.push(p),
            Source::Joint(r) => lists.joints.push(r),
        }
        let last = lists.islands.last_mut().expect("pushed");
        (last.1, last.2) = (lists.points.len() as u32, lists.joints.len() as u32);
    }
}

/// Whether some island has at most `max_rows` rows: a count per island root in a
/// reused buffer, so the common case of large islands costs no allocation.
pub(crate) fn any_small_island(c: &mut ContactStore, j: &JointRows, max_rows: usize) -> bool {
    // The same manifolds and islands (the store's `keys_at`) and joint rows count the
    // same rows: the answer stands (on `pyramid_100`, 15 µs a step on one thread).
    let (at, max, joints, any) = &c.island_rows_of;
    if c.keys_still(*at) && *max == max_rows && *joints == j.island {
        return *any;
    }
    let any = count_island_rows(c, j, max_rows);
    let (at, max, joints, was) = &mut c.island_rows_of;
    (*at, *max, *was) = (c.keys_at, max_rows, any);
    joints.clone_from(&j.island);
    any
}

/// [`any_small_island`], counted.
fn count_island_rows(c: &mut ContactStore, j: &JointRows, max_rows: usize) -> bool {
    // Left empty where the rows are not counted (`takes_any` then looks at every island).
    c.island_rows.clear();
    if 3 * c.inputs.len() + j.rows.len() <= max_rows {
        return !c.inputs.is_empty() || !j.rows.is_empty();
    }
    // The largest root in one pass (`u32::MAX`, a point outside every island, is the
    // largest of all).
    let top = c
        .manifold_island
        .iter()
        .chain(&j.island)
        .fold(0, |m, &r| m.max(r));
    if top == u32::MAX {
        return true;
    }
    let count = &mut c.island_rows;
    count.resize(top as usize + 1, 0);
    // Runs of one root (often a whole island's manifolds) are added up in a register:
    // one counter bumped entry after entry waits on its own last store.
    let mut add = |roots: &mut dyn Iterator<Item = (u32, u32)>| {
        let Some((first, rows)) = roots.next() else {
            return;
        };
        let (mut root, mut run) = (first, rows);
        for (r, rows) in roots {
            if r != root {
                count[root as usize] += run;
                (root, run) = (r, 0);
            }
            run += rows;
        }
        count[root as usize] += run;
    };
    let manifolds = c.manifold_island.iter().zip(&c.manifold_points);
    add(&mut manifolds.map(|(&r, &(_, n))| (r, 3 * n)));
    add(&mut j.island.iter().map(|&r| (r, 1)));
    count.iter().any(|&k| k > 0 && k as usize <= max_rows)
}

/// An exact solve of each island the rule takes, after the PGS sweeps (whose answer an
/// island keeps when its exact solve fails or looks implausible). Returns the number of
/// islands solved exactly, and of those rescued by the interior-point method.
pub(crate) fn solve_islands(
    c: &mut ContactStore,
    j: &mut JointRows,
    bodies: &mut SolverBodies,
    s: &Settings,
    (rule, starts): (Rule, &mut Starts),
    budget: &mut usize,
) -> (usize, usize) {
    if *budget == 0 || !any_small_island(c, j, rule.max_rows) {
        c.exact_scratch.release_large(false);
        return (0, 0);
    }
    let (mut solved, mut rescues) = (0, 0);
    let mut large = false;
    // Only the islands `any_small_island` counted as small are collected (a large
    // island's points would otherwise be sorted every step for nothing).
    let mut lists = std::mem::take(&mut c.island_lists);
    let mut scratch = std::mem::take(&mut c.exact_scratch);
    small_islands(c, j, rule.max_rows, &mut lists);
    let fits = |(_, idx, jidx): &(u32, &[u32], &[u32])| 3 * idx.len() + jidx.len() <= rule.max_rows;
    starts.tick(lists.iter().filter(fits).count());
    for (k, (_, idx, jidx)) in lists.iter().enumerate() {
        let rows = 3 * idx.len() + jidx.len();
        if rows > rule.max_rows {
            continue;
        }
        // Where the step built scalar rows only for the islands `takes_any` marked, the
        // others' are not there to read (and the rule would not take them).
        if c.partial_rows() && idx.first().is_some_and(|&p| !c.taken[p as usize]) {
            continue;
        }
        // (The island's items are made only for a solve: the rule and the residual
        // read its rows where they lie.)
        // (Its rows' `1/m` are the solver bodies', as built.)
        let ids = &mut scratch.bodies;
        let ratio = match lists.bodies_of(k) {
            Some(list) => listed_stats(list, &bodies.inv_mass, ids),
            None => body_stats(&c.points, idx, &j.rows, jidx, ids),
        };
        // (An island of `ALWAYS_TAKEN` bodies or more is solved whatever is left of the
        // budget.)
        if rows > *budget && ids.len() < ALWAYS_TAKEN {
            continue;
        }
        if (ids.len() < rule.min_bodies && ratio < rule.mass_ratio)
            || (!idx.is_empty() && fastest(ids, bodies) > rule.max_speed)
            || deepest(c, idx) > rule.max_depth
        {
            continue;
        }
        let island = (&j.rows[..], jidx);
        if rule.tolerance > 0.0 && residual(&c.points, idx, island, &bodies.dv) <= rule.tolerance {
            continue;
        }
        let key = &mut scratch.key;
        key.clear();
        key.extend(ids.iter().map(|&(k, _)| bodies.body[k as usize]));
        key.sort_unstable();
        if starts.waits(key) {
            continue;
        }
        *budget = budget.saturating_sub(rows);
        let sol = &mut scratch.solve;
        let mut its = std::mem::take(&mut sol.items);
        items_into(&c.points, idx, (&j.rows, jidx), &mut its);
        let start = starts.of(key, its.len());
        let rescue = starts.failing(key);
        let how = (Some(&*bodies), start, rescue);
        match solve_items_in(&its, s.exact_outer_passes, how, sol) {
            Ok((exhausted, rescued)) if plausible(&its, &sol.lambda) => {
                apply(
                    &its,
                    &sol.lambda,
                    &mut c.points,
                    &mut j.rows,
                    &mut bodies.dv,
                );
                starts.keep(key, &sol.lambda, exhausted);
                solved += 1;
                rescues += usize::from(rescued);
            }
            _ => starts.failed(key),
        }
        sol.items = its;
        large |= rows > KEEP_ROWS;
    }
    scratch.release_large(large);
    c.island_lists = lists;
    c.exact_scratch = scratch;
    (solved, rescues)
}

/// Whether the rule takes any island of the step at its size and bodies (the speed
/// test aside, which changes from step to step). It reads the points' inputs, not
/// their rows: the step asks before it decides whether to build the scalar rows. The
/// points of the islands it takes are marked in `c.taken` (all `false` when none is):
/// in the sequential order their manifolds are swept from the store's scalar rows
/// (`color.rs`), which the exact solve reads anyway, instead of taking lanes of their
/// own.
pub(crate) fn takes_any(
    c: &mut ContactStore,
    j: &JointRows,
    bodies: &SolverBodies,
    rule: Rule,
) -> bool {
    // (Other islands taken than at the last call change the colouring's keys: a new
    // `keys_at`, below. With the same manifolds and islands, the same roots take the
    // same points. A store whose keys are not known keeps its 0.)
    std::mem::swap(&mut c.taken_roots, &mut c.taken_roots_before);
    c.taken.clear();
    c.taken.resize(c.inputs.len(), false);
    c.taken_joints = false;
    c.taken_roots.clear();
    let any = any_small_island(c, j, rule.max_rows) && take_islands(c, j, bodies, rule);
    if c.keys_at != 0 && c.taken_roots != c.taken_roots_before {
        c.keys_at = crate::contact::next_keys();
    }
    any
}

/// [`takes_any`]'s islands, from the small ones (`any_small_island` found some).
fn take_islands(c: &mut ContactStore, j: &JointRows, bodies: &SolverBodies, rule: Rule) -> bool {
    let im = |k: u32| (k, bodies.inv_mass[k as usize]);
    let mut any = false;
    // Only the islands `any_small_island` counted as small are collected (a resting
    // pile's large island would otherwise be sorted point by point every step).
    let mut lists = std::mem::take(&mut c.island_lists);
    let mut scratch = std::mem::take(&mut c.exact_scratch);
    small_islands(c, j, rule.max_rows, &mut lists);
    // (`takes_any` swaps the roots' lists step by step: each given room for all.)
    c.taken_roots.reserve(lists.islands.len());
    let takes = &mut scratch.takes;
    takes.clear();
    for (k, (_, idx, jidx)) in lists.iter().enumerate() {
        let rows = 3 * idx.len() + jidx.len();
        if rows > rule.max_rows {
            continue;
        }
        let ids = &mut scratch.bodies;
        let ratio = match lists.bodies_of(k) {
            Some(list) => listed_stats(list, &bodies.inv_mass, ids),
            None => {
                let points = idx
                    .iter()
                    .map(|&p| &c.manifold_inputs[c.inputs[p as usize].manifold as usize]);
                let joints = jidx.iter().map(|&r| &j.rows[r as usize]);
                stats_of(
                    points
                        .flat_map(|p| [im(p.a), im(p.b)])
                        .chain(joints.flat_map(|r| [(r.a, r.inv_mass_a), (r.b, r.inv_mass_b)])),
                    ids,
                )
            }
        };
        // An island with contacts and a body faster than `max_speed` at the start of
        // the step is left to PGS by `solve_islands` (the start-of-step speeds are
        // known here): it stays in the lanes, and needs no scalar rows.
        if !idx.is_empty() && fastest(ids, bodies) > rule.max_speed {
            continue;
        }
        if deepest(c, idx) > rule.max_depth {
            continue;
        }
        if ids.len() >= rule.min_bodies || ratio >= rule.mass_ratio {
            takes.push((ids.len(), k, rows));
        }
    }
    // The step's row budget for them, the islands of the most bodies first (a tall
    // stack before a short one, which PGS holds well): an island taken is swept from
    // the scalar rows, once over the whole step, and one the budget then leaves
    // unsolved keeps an answer less stiff than the lanes' substeps would have given
    // it. Taken beyond the budget, 64 resting towers of four boxes (48 rows each,
    // 1 024 rows a step) drifted 2.1 mm in 10 s where PGS alone leaves 0.4, and their
    // step cost three times PGS's. Islands of `ALWAYS_TAKEN` bodies or more are taken
    // beyond it: PGS alone would let them fall.
    takes.sort_unstable_by_key(|&(n, k, _)| (std::cmp::Reverse(n), k));
    let mut left = rule.budget;
    takes.retain(|&(n, _, rows)| {
        let taken = rows <= left || n >= ALWAYS_TAKEN;
        if taken {
            left = left.saturating_sub(rows);
        }
        taken
    });
    takes.sort_unstable_by_key(|&(_, k, _)| k);
    let mut chosen = takes.iter().map(|&(_, k, _)| k).peekable();
    for (k, (root, idx, jidx)) in lists.iter().enumerate() {
        if chosen.next_if_eq(&k).is_none() {
            continue;
        }
        // Swept from the scalar rows, apart from the lanes: a stack's manifolds chain
        // through its bodies and would fill one lane of each group, and beside other
        // contacts such an island is swept once over the whole step while the lanes take
        // their solve substeps (`World::apart_eligible`). (An island taken for its mass
        // ratio stayed in the lanes; beside a pyramid, substepped with them and solved
        // exactly in the last substep only, a 50:1 box on a light one slid off within
        // 10 s.)
        any = true;
        c.taken_joints |= !jidx.is_empty();
        c.taken_roots.push(root);
        for &p in idx {
            c.taken[p as usize] = true;
        }
    }
    c.island_lists = lists;
    c.exact_scratch = scratch;
    any
}

/// Write the last step's problems, one coupled boxed LCP per island of at most
/// `max_rows` rows, as a JSON array in thud-lcp's format. Returns how many were written.
pub(crate) fn export(
    c: &ContactStore,
    j: &JointRows,
    max_rows: usize,
    out: &mut dyn std::io::Write,
) -> Result<usize, String> {
    let mut problems = Vec::new();
    for (k, (_, idx, jidx)) in islands_of(c, j).iter().enumerate() {
        let n = 3 * idx.len() + jidx.len();
        if n > max_rows {
            continue;
        }
        let p = boxed_problem(&items(&c.points, idx, &j.rows, jidx))?;
        let name = format!(
            "island {k} ({} points, {} joint rows, {n} rows)",
            idx.len(),
            jidx.len()
        );
        problems.push(thud_lcp::json::problem_json(
            Some(&name),
            &thud_lcp::Problem::Boxed(p),
        ));
    }
    let n = problems.len();
    serde_json::to_writer_pretty(&mut *out, &serde_json::Value::Array(problems))
        .map_err(|e| e.to_string())?;
    writeln!(out).map_err(|e| e.to_string())?;
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An island's kept answer is found by its bodies and row count only, replaced when
    /// it is solved again, and the least recently used island goes first when the list
    /// is full; an island whose searches fail waits 2, 4, … solves, and one success
    /// ends the wait.
    #[test]
    fn an_islands_last_answer_and_its_back_off_are_kept_by_its_bodies() {
        let mut st = Starts::default();
        st.tick(0);
        st.keep(&[3, 4], &[1.0, 2.0, 3.0], false);
        assert_eq!(st.of(&[3, 4], 3), Some(&[1.0, 2.0, 3.0][..]));
        assert_eq!(st.of(&[3, 4], 6), None, "other rows");
        assert_eq!(st.of(&[3, 5], 3), None, "other bodies");
        st.keep(&[3, 4], &[4.0, 5.0, 6.0], false);
        assert_eq!(st.of(&[3, 4], 3), Some(&[4.0, 5.0, 6.0][..]));
        // Failures: none waits until the third in a row, which waits 2 solves, the
        // fourth 4; a success ends the wait.
        for _ in 1..FAILS_BEFORE_WAIT {
            st.failed(&[7]);
            assert!(
                !st.waits(&[7]),
                "a failure now and then is tried again at once"
            );
        }
        st.failed(&[7]);
        assert!(st.waits(&[7]) && !st.waits(&[3, 4]));
        st.tick(0);
        assert!(st.waits(&[7]));
        st.tick(0);
        assert!(!st.waits(&[7]), "waited two solves");
        st.failed(&[7]);
        for _ in 0..3 {
            st.tick(0);
            assert!(st.waits(&[7]));
        }
        st.tick(0);
        assert!(!st.waits(&[7]), "waited four solves");
        st.failed(&[7]);
        st.keep(&[7], &[1.0], false);
        assert!(!st.waits(&[7]), "a success ends the wait");
        // Answers of searches that ran out of steps are kept, and count as failures.
        for k in 0..FAILS_BEFORE_WAIT {
            st.keep(&[8], &[f64::from(k)], true);
        }
        assert!(st.waits(&[8]));
        assert_eq!(st.of(&[8], 1), Some(&[2.0][..]));
        for k in 0..MAX_STARTS as u32 {
            st.tick(0);
            st.keep(&[100 + k], &[f64::from(k)], false);
        }
        assert_eq!(st.entries.len(), MAX_STARTS);
        assert_eq!(
            st.of(&[3, 4], 3),
            None,
            "the least recently used went first"
        );
        assert_eq!(st.of(&[100], 1), Some(&[0.0][..]));
        // A removed body's islands are forgotten (its slot may go to another body).
        st.forget(100);
        assert_eq!(st.of(&[100], 1), None);
        assert_eq!(st.of(&[101], 1), Some(&[1.0][..]));
        // A step with more small islands keeps one entry for each of them, and a step
        // with fewer forgets the least recently used beyond them.
        let many = 2 * MAX_STARTS as u32;
        for k in 0..many {
            st.tick(many as usize);
            st.keep(&[200 + k], &[f64::from(k)], false);
        }
        assert_eq!(st.entries.len(), many as usize);
        assert_eq!(st.of(&[200], 1), Some(&[0.0][..]), "none evicted");
        st.tick(3);
        assert_eq!(st.entries.len(), MAX_STARTS);
        assert_eq!(st.of(&[200 + many - MAX_STARTS as u32 - 1], 1), None);
        assert_eq!(
            st.of(&[200 + many - 1], 1),
            Some(&[f64::from(many - 1)][..])
        );
    }
    use crate::jacobian::{BuildParams, ContactInput};
    use crate::solver_body::SolverBodies;
    use glam::{Mat3, Vec3};

    /// Two unit spheres (1 kg) stacked on the dummy ground, sliding and spinning: six
    /// rows of full rank, so the BLCP has one answer for PGS to approach.
    fn two_spheres() -> Vec<ContactRows> {
        two_spheres_store().points
    }

    /// [`two_spheres`] as a contact store: one island, two manifolds of one point.
    fn two_spheres_store() -> ContactStore {
        let dt = 1.0 / 60.0;
        let mut bodies = SolverBodies::default();
        bodies.reset();
        let inv_i = Mat3::from_diagonal(Vec3::splat(1.0 / 0.1));
        let g = Vec3::new(0.0, -9.81 * dt, 0.0);
        let u1 = Velocity {
            lin: Vec3::new(0.3, 0.0, -0.1) + g,
            ang: Vec3::new(0.0, 0.5, 1.0),
        };
        let u2 = Velocity {
            lin: Vec3::new(-0.2, -0.5, 0.05) + g,
            ang: Vec3::new(2.0, 0.0, -0.3),
        };
        bodies.push(0, u1, u1, 1.0, inv_i, Vec3::new(0.0, 0.5, 0.0));
        bodies.push(1, u2, u2, 1.0, inv_i, Vec3::new(0.0, 1.5, 0.0));
        let s = BuildParams {
            warm_start: 0.0,
            ..BuildParams::for_tests(dt)
        };
        let mut store = ContactStore::default();
        for (a, b, p) in [
            (0u32, 1u32, Vec3::new(0.0, 0.0, 0.0)),
            (1, 2, Vec3::new(0.0, 1.0, 0.0)),
        ] {
            let input = ContactInput {
                a,
                b,
                normal: Vec3::Y,
                point: p,
                separation: 0.0,
                friction: 0.4,
                restitution: 0.0,
                spread: 0.0,
                warm: [0.0; 3],
            };
            store.push_point(input, &bodies, &s, false);
        }
        store
    }

    #[test]
    fn pgs_approaches_the_exact_blcp_answer() {
        let exact = solve_points(&two_spheres(), &[0, 1], 20).unwrap();
        let mut errors = Vec::new();
        for iterations in [1, 4, 16, 64, 256] {
            let mut pts = two_spheres();
            let mut dv = vec![Velocity::ZERO; 3];
            pgs::solve(&mut [], &mut pts, &mut dv, iterations, 1.0, false);
            let err = pts
                .iter()
                .flat_map(|c| c.rows.iter().map(|r| r.lambda))
                .zip(&exact)
                .map(|(l, e)| (f64::from(l) - e).abs())
                .fold(0.0, f64::max);
            errors.push(err);
        }
        let scale = exact.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        assert!(scale > 0.1, "{exact:?}");
        for w in errors.windows(2) {
            assert!(w[1] <= w[0] + 1e-6, "not approaching: {errors:?}");
        }
        assert!(
            errors.last().unwrap() / scale < 1e-4,
            "{errors:?} vs {exact:?}"
        );
    }

    #[test]
    fn export_writes_thud_lcp_json() {
        let store = two_spheres_store();
        let mut out = Vec::new();
        assert_eq!(
            export(&store, &JointRows::default(), 100, &mut out).unwrap(),
            1
        );
        let text = String::from_utf8(out).unwrap();
        let (problems, _) = thud_lcp::json::parse_problems(&text).unwrap();
        assert_eq!(problems[0].problem.n(), 6);
    }

    /// The bodies of an island's rows, their repeats left out before the sort, are
    /// those of a sort of every entry: each once, in index order, fixed and kinematic
    /// ones (`1/m = 0`) and the dummy body left out.
    #[test]
    fn an_islands_bodies_are_each_listed_once() {
        // A chain's rows (each body twice in a row of pairs), a body met again much
        // later, a kinematic body and the dummy.
        let mut pairs = Vec::new();
        for k in 1..9u32 {
            for _ in 0..4 {
                pairs.push((k, 1.0 / k as f32));
                pairs.push((k + 1, 1.0 / (k + 1) as f32));
            }
        }
        pairs.extend([(3, 1.0 / 3.0), (0, 0.0), (12, 0.0), (1, 1.0), (11, 0.5)]);
        let mut listed = Vec::new();
        let ratio = stats_of(pairs.iter().copied(), &mut listed);
        let ids: Vec<u32> = listed.iter().map(|e| e.0).collect();
        let mut all: Vec<u32> = pairs
            .iter()
            .filter(|&&(k, im)| k != 0 && im > 0.0)
            .map(|&(k, _)| k)
            .collect();
        all.sort_unstable();
        all.dedup();
        assert_eq!(ids, all);
        assert_eq!(ids, vec![1, 2, 3, 4, 5, 6, 7, 8, 9, 11]);
        // Masses 1 to 9 kg.
        assert_eq!(ratio, 1.0 / (1.0 / 9.0));
    }

    /// A joint row on island `island` (a body of that slot against the dummy).
    fn push_joint_row(j: &mut JointRows, island: u32) {
        j.rows.push(JointRow {
            a: island,
            b: 0,
            inv_mass_a: 1.0,
            inv_mass_b: 0.0,
            lo: f32::NEG_INFINITY,
            hi: f32::INFINITY,
            mass_scale: 1.0,
            impulse_scale: 0.0,
            row: Row::default(),
            split_b: 0.0,
            split_lo: 0.0,
            split_active: false,
            joint: 0,
            slot: 0,
            angular: false,
            dir: Vec3::X,
        });
        j.island.push(island);
    }

    /// Whether any island is small is counted again where the store's keys, the limit
    /// or the joint rows changed, and kept otherwise.
    #[test]
    fn the_small_islands_answer_stands_while_its_inputs_do() {
        let mut c = ContactStore::default();
        // Islands 7 and 3, two points each: six rows each.
        c.manifold_points = vec![(0, 2), (2, 2)];
        c.manifold_island = vec![7, 3];
        let point = crate::jacobian::PointInput {
            point: Vec3::ZERO,
            separation: 0.0,
            warm: [0.0; 3],
            manifold: 0,
        };
        c.inputs = vec![point; 4];
        c.keys_at = crate::contact::next_keys();
        let mut j = JointRows::default();
        assert!(any_small_island(&mut c, &j, 6));
        assert!(!any_small_island(&mut c, &j, 5), "another limit");
        for island in [7, 3] {
            push_joint_row(&mut j, island);
        }
        assert!(!any_small_island(&mut c, &j, 6), "seven rows each");
        assert!(any_small_island(&mut c, &j, 7));
        // Other keys (a gather): island 3 lost a point.
        c.manifold_points = vec![(0, 2), (2, 1)];
        c.inputs.truncate(3);
        c.keys_at = crate::contact::next_keys();
        assert!(
            any_small_island(&mut c, &j, 6),
            "island 3 has four rows now"
        );
        // The count stands with the keys: a store whose points changed behind its
        // keys (no gather does that) keeps the answer.
        c.manifold_points = vec![(0, 2), (2, 2)];
        assert!(any_small_island(&mut c, &j, 6));
    }

    /// The small islands' lists and bodies are made again where the store's keys, the
    /// limit or the joint rows' islands changed, and kept otherwise; an island's bodies
    /// give the movable bodies and mass ratio of its points' own, and an island with
    /// joint rows lists none (its rows' bodies are read each time).
    #[test]
    fn the_small_islands_lists_stand_while_their_keys_do() {
        use crate::jacobian::{ManifoldInput, PointInput};
        let mut c = ContactStore::default();
        let manifold = |a, b| ManifoldInput {
            a,
            b,
            normal: Vec3::Y,
            friction: 0.5,
            restitution: 0.0,
            spread: 0.0,
        };
        // Island 7: bodies 1, 2 and 4 (a chain); island 3: body 3 on the ground.
        c.manifold_inputs = vec![manifold(2, 1), manifold(3, 0), manifold(4, 2)];
        c.manifold_points = vec![(0, 2), (2, 1), (3, 2)];
        c.manifold_island = vec![7, 3, 7];
        let point = |manifold| PointInput {
            point: Vec3::ZERO,
            separation: 0.0,
            warm: [0.0; 3],
            manifold,
        };
        c.inputs = [0, 0, 1, 2, 2].map(point).to_vec();
        c.keys_at = crate::contact::next_keys();
        let mut j = JointRows::default();
        push_joint_row(&mut j, 5);
        let inv_mass = [0.0, 1.0, 0.5, 0.25, 0.0];
        let mut lists = IslandLists::default();
        let look = |c: &mut ContactStore, j: &JointRows, lists: &mut IslandLists| {
            assert!(any_small_island(c, j, 12));
            small_islands(c, j, 12, lists);
            let listed: Vec<_> = lists
                .iter()
                .enumerate()
                .map(|(k, (root, _, _))| (root, lists.bodies_of(k).map(<[u32]>::to_vec)))
                .collect();
            // Each island's bodies and ratio, as read from its points.
            for (k, (_, idx, jidx)) in lists.iter().enumerate() {
                let Some(list) = lists.bodies_of(k) else {
                    assert!(!jidx.is_empty());
                    continue;
                };
                let (mut from_list, mut from_points) = (Vec::new(), Vec::new());
                let ratio = listed_stats(list, &inv_mass, &mut from_list);
                let im = |k: u32| (k, inv_mass[k as usize]);
                let bodies = idx.iter().flat_map(|&p| {
                    let m = &c.manifold_inputs[c.inputs[p as usize].manifold as usize];
                    [im(m.a), im(m.b)]
                });
                assert_eq!(ratio, stats_of(bodies, &mut from_points));
                assert_eq!(from_list, from_points);
            }
            listed
        };
        let first = look(&mut c, &j, &mut lists);
        assert_eq!(
            first,
            vec![(3, Some(vec![3])), (5, None), (7, Some(vec![1, 2, 4]))]
        );
        assert_eq!(lists.made, 1);
        assert_eq!(look(&mut c, &j, &mut lists), first, "the same keys");
        assert_eq!(lists.made, 1, "kept");
        // Other keys (a gather): body 4 now lies on body 3, in island 3.
        c.manifold_inputs[2] = manifold(4, 3);
        c.manifold_island = vec![7, 3, 3];
        c.keys_at = crate::contact::next_keys();
        let second = look(&mut c, &j, &mut lists);
        assert_eq!(
            second,
            vec![(3, Some(vec![3, 4])), (5, None), (7, Some(vec![1, 2]))]
        );
        assert_eq!(lists.made, 2);
        // Other joint rows' islands: made again.
        push_joint_row(&mut j, 7);
        let third = look(&mut c, &j, &mut lists);
        assert_eq!(third, vec![(3, Some(vec![3, 4])), (5, None), (7, None)]);
        assert_eq!(lists.made, 3);
    }

    /// The islands' lists: in root order, each island's points in store order, then
    /// its joint rows; only the islands `keep` accepts; the same after the buffers
    /// were used for other islands.
    #[test]
    fn islands_are_listed_by_root_in_store_order() {
        let mut c = ContactStore::default();
        // Five manifolds of 2, 1, 3, 1 and 2 points on islands 7, 3, 7, 9 and 3.
        c.manifold_points = vec![(0, 2), (2, 1), (3, 3), (6, 1), (7, 2)];
        c.manifold_island = vec![7, 3, 7, 9, 3];
        let mut j = JointRows::default();
        for island in [9, 7, 5] {
            push_joint_row(&mut j, island);
        }
        let mut lists = IslandLists::default();
        let listed = |lists: &IslandLists| {
            lists
                .iter()
                .map(|(r, p, q)| (r, p.to_vec(), q.to_vec()))
                .collect::<Vec<_>>()
        };
        islands_where(&c, &j, |r| r != 9, &mut lists);
        let want = vec![
            (3, vec![2, 7, 8], vec![]),
            (5, vec![], vec![2]),
            (7, vec![0, 1, 3, 4, 5], vec![1]),
        ];
        assert_eq!(listed(&lists), want);
        islands_where(&c, &j, |r| r == 9, &mut lists);
        assert_eq!(listed(&lists), vec![(9, vec![6], vec![0])]);
        islands_where(&c, &j, |r| r != 9, &mut lists);
        assert_eq!(listed(&lists), want, "the buffers reused");
        assert_eq!(islands_of(&c, &j).len(), 4);
    }

    #[test]
    fn residual_is_zero_at_the_exact_answer_and_large_away_from_it() {
        let mut pts = two_spheres();
        let mut dv = vec![Velocity::ZERO; 3];
        let its = items(&pts, &[0, 1], &[], &[]);
        // Nothing solved yet: the spheres approach at several m/s.
        let start = residual(&pts, &[0, 1], (&[], &[]), &dv);
        assert!(start > 0.1, "{start}");
        let lambda = solve_items(&its, 20, None, None, false).unwrap();
        apply(&its, &lambda, &mut pts, &mut [], &mut dv);
        let solved = residual(&pts, &[0, 1], (&[], &[]), &dv);
        assert!(solved < 1e-5, "{solved}");
        // PGS from the exact answer stays there: the auto mode's skip.
        pgs::solve(&mut [], &mut pts, &mut dv, 16, 1.0, false);
        let after = residual(&pts, &[0, 1], (&[], &[]), &dv);
        assert!(after < 1e-5, "{after}");
        // One sweep from zero is far from it.
        let mut p2 = two_spheres();
        let mut dv2 = vec![Velocity::ZERO; 3];
        pgs::solve(&mut [], &mut p2, &mut dv2, 1, 1.0, false);
        let one = residual(&p2, &[0, 1], (&[], &[]), &dv2);
        assert!(one > 100.0 * after.max(1e-7), "{one} vs {after}");
    }
}
