//! Boxed block principal pivoting — the exact solver for contact islands.
//!
//! **Active sets.** Every row is in one of three sets: `L` (`λ_i = lo_i`), `U`
//! (`λ_i = hi_i`) or `F` (free, `w_i = 0`). A guess of the sets fixes everything:
//!
//! ```text
//! A_FF λ_F = −(b_F + A_FL lo_L + A_FU hi_U),    w = A λ + b.
//! ```
//!
//! The guess is right when `lo ≤ λ_F ≤ hi`, `w_L ≥ 0` and `w_U ≤ 0`. Otherwise the
//! infeasible rows swap: a free row outside its box goes to the bound it crossed, a
//! bound row whose `w` has the wrong sign becomes free. Moving *all* infeasible rows
//! at once (Júdice & Pires' block principal pivoting, after Kostreva) usually needs
//! only a handful of solves; when the number of infeasible rows fails to drop for
//! three block steps in a row, the solver falls back to moving only the highest-index
//! infeasible row (Murty's single principal pivoting), which is finite for
//! P-matrices, and returns to block steps once the count improves.
//!
//! **Singular (PSD) matrices.** Redundant contact points make `A = J M⁻¹ Jᵀ` only
//! positive semi-definite, so `A_FF` may be singular. When a factorization meets a
//! pivot below `10⁻¹³ · scale`, or the final answer fails the residual test, the
//! solver switches to *proximal-point passes*: it solves
//!
//! ```text
//! BLCP(A + εI, b − ε c),   ε = 10⁻¹⁰ · max(max_i A_ii, scale),
//! ```
//!
//! whose matrix is positive definite, then moves the centre `c` to the answer and
//! repeats. A fixed point (`λ = c`) solves the original problem exactly, so ε does not
//! bias the answer; each pass shrinks the error in the range of `A` by `ε/(σ + ε)`
//! per eigenvalue σ, so one or two passes usually meet the tolerance. Components
//! along the null space of `A` do not affect `w` and are simply left where the
//! regularized solve puts them (the minimum-change answer).
//!
//! **Friction coupling.** A coupled friction row `t` at a bound is *linked* to its
//! normal row, `λ_t = ±μ·λ_n`, and the link is substituted into the linear system
//! ([`super::pattern`]), so one pattern search handles friction exactly. The sign
//! tests use the bounds in force at the current `λ`. Coupled problems are not
//! P-matrix problems, and the single-pivot fallback can then revisit a pattern (for
//! a P-matrix it never does): a repeat stops the search ([`Status::Cycling`]), and the solver
//! moves to **hybrid rounds** — 16, 32, 64, … projected Gauss-Seidel sweeps from the
//! last point, then a short pattern search warm-started there (near the answer the
//! sets PGS suggests are nearly right, and the search finishes exactly). As a last
//! resort the bounds are reached by damped outer fixed-point passes
//! ([`super::coupling`]). On the random contact problems of [`crate::generate`]
//! (n = 6…60, 1200 instances) every instance is solved, in 5–16 solves on average.
//!
//! **Warm start.** `Options::warm_start` (last step's `λ`) gives the initial sets;
//! from the right sets the solve takes one factorization.
//!
//! **Symmetric problems.** Where `A` is symmetric to the bit (a Gram matrix built
//! symmetrically, `A = Aᵀ` read from a file) and `Options::symmetric_factors` is on,
//! the patterns without friction links — every pattern of a problem without coupling
//! — are factored as `L D Lᵀ` instead of by the LU (`linalg.rs`): on
//! `generate::spd` the whole solve took 0.64 → 0.47 ms at n = 200 and 34.0 → 31.1 µs
//! at n = 50 (`cargo bench --bench lcp -- pivoting_spd/boxed-pivot`).
//!
//! **Cost.** One LU of the free block per step (`⅔|F|³` dense, far less banded:
//! `linalg.rs`) plus `n²` for `w`; typically 2–10 steps from a cold start. Where the
//! rows' nonzero runs cover at most half of `A` (`matrix::Spans`: a contact island in
//! store order), `w`, the block's gather, the pass test and the report read only the
//! runs, and the LU takes each block row's band from them: the same bits, a fraction
//! of the work. Pivot and sign tolerances are relative to `max(‖A‖max, ‖b‖∞)`
//! (`‖A‖max` found once, when the problem is made).
//!
//! **For `thud-dynamics`' exact step mode** call [`solve_boxed`] with a
//! [`BoxedLcp`] built by [`BoxedLcp::new`] and
//! [`BoxedLcp::with_friction`], and last step's impulses in
//! [`Options::warm_start`].

use super::pattern::{Outcome, Set, solve_pattern_in};
use crate::matrix::norm_inf;
use crate::problem::{BoxedLcp, Problem};
use crate::report::{Report, Status};
use crate::solver::{Options, SolveError, Solver};
use crate::workspace::Workspace;

/// Boxed block principal pivoting (handles PSD/singular matrices and friction coupling).
#[derive(Clone, Copy, Debug, Default)]
pub struct BoxedPivot;

impl Solver for BoxedPivot {
    fn name(&self) -> &'static str {
        "boxed-pivot"
    }

    fn solve(&self, problem: &Problem, options: &Options) -> Result<Report, SolveError> {
        solve_boxed(&problem.to_boxed(), options)
    }
}

/// Solves the boxed problem `p` exactly, friction coupling included.
///
/// `options.warm_start` (length `n`) seeds the active sets; `options.max_iterations`
/// caps the number of block steps (linear solves) of the whole solve, over all its
/// phases, so it bounds the time; `options.tolerance` is the relative residual
/// tolerance. The report's `iterations` counts linear solves (over all passes).
pub fn solve_boxed(p: &BoxedLcp, options: &Options) -> Result<Report, SolveError> {
    solve_boxed_in(p, options, &mut Workspace::new())
}

/// [`solve_boxed`] in the buffers of `ws`, kept by a caller that solves again and
/// again: the same report, and, once the buffers have grown and the caller hands each
/// report back ([`Workspace::recycle`]), no allocation on the way of a problem without
/// friction coupling (the exact step mode's fixed-bound passes). A coupled problem
/// whose search and hybrid rounds fail still allocates in its last-resort outer
/// passes.
pub fn solve_boxed_in(
    p: &BoxedLcp,
    options: &Options,
    ws: &mut Workspace,
) -> Result<Report, SolveError> {
    options.validate(p.n())?;
    let n = p.n();
    let mut warm = std::mem::take(&mut ws.warm);
    warm.clear();
    match &options.warm_start {
        Some(w) => warm.extend_from_slice(w),
        None => warm.resize(n, 0.0),
    }
    let first = solve_linked_in(p, &warm, options, options.pivot_limit(n), ws);
    if first.is_solved() || !matches!(first.status, Status::Cycling | Status::IterationLimit) {
        ws.warm = warm;
        return Ok(first);
    }
    let mut spent = first.iterations;
    let cap = options.max_iterations.unwrap_or(usize::MAX);
    // Hybrid rounds: projected Gauss-Seidel sweeps bring λ close to the answer, where
    // the active sets they suggest are (nearly) right; a short pattern search from
    // there finishes exactly. More sweeps each round.
    let mut lambda = warm;
    let mut sweeps = 16;
    for _ in 0..HYBRID_ROUNDS {
        if spent >= cap {
            ws.warm = lambda;
            return Ok(Report {
                iterations: spent,
                ..first
            });
        }
        for _ in 0..sweeps {
            // (`ws.coupled` is `p`'s table: `solve_linked_in` made it.)
            super::sor::sweep_with(p, &ws.coupled, &mut lambda, 1.0);
        }
        if !lambda.iter().all(|v| v.is_finite()) {
            break;
        }
        let r = solve_linked_in(p, &lambda, options, (4 * n + 20).min(cap - spent), ws);
        spent += r.iterations;
        if r.is_solved() {
            ws.warm = lambda;
            ws.recycle(first);
            return Ok(Report {
                iterations: spent,
                ..r
            });
        }
        ws.recycle(r);
        sweeps *= 2;
    }
    if p.coupling().is_empty() || spent >= cap {
        ws.warm = lambda;
        return Ok(Report {
            iterations: spent,
            ..first
        });
    }
    // Last resort for coupled bounds: outer passes over fixed-bound problems.
    let mut o = options.clone();
    o.warm_start = Some(lambda).filter(|l| l.iter().all(|v| v.is_finite()));
    let left = std::cell::Cell::new(cap - spent);
    let ws = std::cell::RefCell::new(ws);
    let mut r = super::coupling::solve_coupled(p, &o, |fixed, start| {
        let r = solve_linked_in(
            fixed,
            start,
            options,
            options.pivot_limit(n).min(left.get()),
            &mut ws.borrow_mut(),
        );
        left.set(left.get().saturating_sub(r.iterations));
        Ok(r)
    })?;
    r.iterations += spent;
    Ok(r)
}

/// Patterns of single pivots the workspace has room for before its list grows.
const SEEN_ROOM: usize = 64;

/// Rounds of the PGS + pattern-search hybrid before outer passes (sweeps 16, 32, …).
const HYBRID_ROUNDS: usize = 8;

/// The sets a starting point suggests, with the bounds in force there, into `sets`.
fn initial_sets(lo: &[f64], hi: &[f64], start: &[f64], sets: &mut Vec<Set>) {
    sets.clear();
    sets.extend((0..lo.len()).map(|i| {
        if lo[i] == hi[i] || (lo[i].is_finite() && start[i] <= lo[i]) {
            Set::Lo
        } else if hi[i].is_finite() && start[i] >= hi[i] {
            Set::Hi
        } else {
            Set::Free
        }
    }));
}

/// Block principal pivoting over linked patterns ([`super::pattern`]).
#[cfg(test)]
pub(crate) fn solve_linked(p: &BoxedLcp, warm: &[f64], options: &Options, limit: usize) -> Report {
    solve_linked_in(p, warm, options, limit, &mut Workspace::new())
}

/// Block principal pivoting over linked patterns ([`super::pattern`]), in the buffers
/// of `ws` (the report's vectors from those it was handed back).
fn solve_linked_in(
    p: &BoxedLcp,
    warm: &[f64],
    options: &Options,
    limit: usize,
    ws: &mut Workspace,
) -> Report {
    let n = p.n();
    let a = p.a();
    let tol = options.tolerance;
    let scale = p.scale();
    if n == 0 {
        return Report::for_boxed(p, Vec::new(), 0, Status::Solved, tol);
    }
    let mut lambda = ws.vector();
    let w_out = ws.vector();
    let Workspace {
        coupled,
        spans,
        sets,
        centre,
        moves,
        seen,
        checks,
        pattern,
        ..
    } = ws;
    super::sor::coupling_table_into(p, coupled);
    let pivot_tol = 1e-13 * scale;
    let max_diag = (0..n).fold(0.0f64, |m, i| m.max(a[(i, i)]));
    let eps0 = 1e-10 * max_diag.max(scale);
    // Sign tests are relative to the problem's scale: a `w` or a bound crossing smaller
    // than this is rounding noise, not an infeasibility.
    let sign_tol = 1e-12 * scale;

    // A's rows' nonzero runs and the data scale, once: where the runs are narrow (a
    // banded contact problem: a stack's rows couple only neighbouring contacts) every
    // step's products, block gathers and pass tests read only them.
    spans.fill(a);
    let spans = &*spans;
    let runs = spans
        .narrow()
        .then(|| (spans, p.data_scale_in(&mut checks.flags)));
    p.effective_bounds_into(warm, &mut checks.lo, &mut checks.hi);
    initial_sets(&checks.lo, &checks.hi, warm, sets);
    lambda.extend_from_slice(warm);
    let mut eps = 0.0;
    centre.clone_from(&lambda);
    let mut steps = 0;
    let (mut best, mut tries) = (usize::MAX, 3);
    // Patterns met in single-pivot mode since it was entered: for a P-matrix Murty's
    // rule never meets one twice, so a repeat means the rule cannot finish here.
    // (Room for `SEEN_ROOM` of them from the start: a run of single pivots longer than
    // any before does not grow the list.)
    seen.clear();
    seen.reserve(n, SEEN_ROOM);
    // A symmetric `A` (bit for bit) lets the patterns without friction links be
    // factored as `L D Lᵀ`.
    let symmetric = options.symmetric_factors && spans.symmetric_in(a);
    let report = |lambda: Vec<f64>, steps, status, checks: &mut crate::workspace::Checks| {
        Report::for_boxed_with(p, lambda, (steps, status, tol), runs, (w_out, checks))
    };

    while steps < limit {
        steps += 1;
        let linked = (runs.map(|r| r.0), &coupled[..], symmetric);
        if solve_pattern_in(
            p,
            linked,
            (sets, eps, centre),
            (pivot_tol, false),
            &mut lambda,
            pattern,
        ) == Outcome::Failed
        {
            if eps == 0.0 {
                eps = eps0;
                seen.clear();
                centre.clone_from(&lambda);
                if !centre.iter().all(|v| v.is_finite()) {
                    centre.clear();
                    centre.resize(n, 0.0);
                }
                continue;
            }
            return report(lambda, steps, Status::Singular, checks);
        }
        // w of the (possibly regularized) sub-problem, and the bounds in force.
        let w = &mut checks.w;
        p.w_into(&lambda, runs.map(|r| r.0), w);
        for i in 0..n {
            w[i] += eps * (lambda[i] - centre[i]);
        }
        let (lo, hi) = (&mut checks.lo, &mut checks.hi);
        p.effective_bounds_into(&lambda, lo, hi);
        let wtol = sign_tol.max(1e-12 * norm_inf(w));
        let ltol = 1e-12 * norm_inf(&lambda).max(f64::MIN_POSITIVE);
        moves.clear();
        moves.reserve(n);
        moves.extend((0..n).filter_map(|i| {
            let to = match sets[i] {
                Set::Free if lambda[i] < lo[i] - ltol => Set::Lo,
                Set::Free if lambda[i] > hi[i] + ltol => Set::Hi,
                Set::Lo if lo[i] < hi[i] && w[i] < -wtol => Set::Free,
                Set::Hi if lo[i] < hi[i] && w[i] > wtol => Set::Free,
                _ => return None,
            };
            Some((i, to))
        }));
        if moves.is_empty() {
            if p.passes_in(&lambda, tol, runs, checks) {
                return report(lambda, steps, Status::Solved, checks);
            }
            // Not accurate enough: (re)centre the proximal term and go on.
            if eps == 0.0 {
                eps = eps0;
            }
            centre.clone_from(&lambda);
            best = usize::MAX;
            seen.clear();
            continue;
        }
        let block = if moves.len() < best {
            best = moves.len();
            tries = 3;
            true
        } else if tries > 0 {
            tries -= 1;
            true
        } else {
            false
        };
        if block {
            seen.clear();
            for &(i, s) in moves.iter() {
                sets[i] = s;
            }
        } else if let Some(&(i, s)) = moves.last() {
            if !seen.insert(sets) {
                return report(lambda, steps, Status::Cycling, checks);
            }
            sets[i] = s;
        }
    }
    report(lambda, steps, Status::IterationLimit, checks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::Lcp;

    #[test]
    fn reference_example_one() {
        let p = Lcp::from_rows(&[[2.0, 1.0], [1.0, 3.0]], &[-4.0, -9.0]).unwrap();
        let r = solve_boxed(&p.to_boxed(), &Options::default()).unwrap();
        assert!(r.is_solved());
        assert!((r.z[0] - 0.6).abs() < 1e-12 && (r.z[1] - 2.8).abs() < 1e-12);
    }

    #[test]
    fn redundant_contacts_are_singular_but_solve() {
        // Two identical normal rows: A = [[1,1],[1,1]] is singular PSD.
        let p = BoxedLcp::from_rows(
            &[[1.0, 1.0], [1.0, 1.0]],
            &[-1.0, -1.0],
            &[0.0, 0.0],
            &[f64::INFINITY; 2],
        )
        .unwrap();
        let r = solve_boxed(&p, &Options::default()).unwrap();
        assert!(r.is_solved(), "{r:?}");
        assert!((r.z[0] + r.z[1] - 1.0).abs() < 1e-8);
    }

    /// On problems whose `A` is symmetric to the bit (positive definite, and singular
    /// positive semi-definite with an answer) the `L D Lᵀ` patterns find the answers the
    /// LU patterns find.
    #[test]
    fn symmetric_factors_solve_what_the_lu_solves() {
        use crate::generate::{psd, spd};
        let lu = Options {
            symmetric_factors: false,
            ..Options::default()
        };
        let mut compared = 0;
        for seed in 0..12 {
            for p in [
                spd(8 + 4 * seed as usize, seed),
                psd(6 + 3 * seed as usize, seed),
            ] {
                let b = p.to_boxed();
                assert!(b.a().is_symmetric(0.0));
                let (x, y) = (
                    solve_boxed(&b, &Options::default()).unwrap(),
                    solve_boxed(&b, &lu).unwrap(),
                );
                assert!(x.is_solved() && y.is_solved(), "seed {seed}: {x:?} {y:?}");
                // (A singular problem's answers may differ along the null space, not
                // in `w`.)
                let (wx, wy) = (b.a().mul_vec(&x.z), b.a().mul_vec(&y.z));
                for (u, v) in wx.iter().zip(&wy) {
                    assert!((u - v).abs() < 1e-7, "seed {seed}: {u} against {v}");
                }
                compared += 1;
            }
        }
        assert_eq!(compared, 24);
    }

    #[test]
    fn box_and_free_rows() {
        // 1-D: a λ + b with a = 2, b = −10, box [−1, 3] → λ = 3, w = −4 ≤ 0.
        let p = BoxedLcp::from_rows(
            &[[2.0, 0.0], [0.0, 1.0]],
            &[-10.0, 5.0],
            &[-1.0, f64::NEG_INFINITY],
            &[3.0, f64::INFINITY],
        )
        .unwrap();
        let r = solve_boxed(&p, &Options::default()).unwrap();
        assert!(r.is_solved());
        assert_eq!(r.z[0], 3.0);
        assert!((r.z[1] + 5.0).abs() < 1e-12);
    }
}

#[cfg(test)]
mod fallback_tests {
    use super::*;
    use crate::generate::contact;

    /// The last-resort path: damped outer passes over fixed-bound problems. Alone they
    /// settle about three contact problems in four (29/40 when written) and never
    /// claim a wrong answer; the linked search settles all of them.
    #[test]
    fn outer_passes_reach_coupled_answers() {
        let opts = Options::default();
        let mut solved = 0;
        for seed in 0..40 {
            let p = contact(12, seed);
            let r = super::super::coupling::solve_coupled(&p, &opts, |fixed, start| {
                Ok(solve_linked(fixed, start, &opts, 1000))
            })
            .unwrap();
            if r.is_solved() {
                solved += 1;
                assert!(p.residual(&r.z).unwrap() < 1e-8);
            } else {
                assert_eq!(r.status, Status::IterationLimit);
            }
        }
        assert!(solved >= 25, "damped outer passes solved only {solved}/40");
    }
}
