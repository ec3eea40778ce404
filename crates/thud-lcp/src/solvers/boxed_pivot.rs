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
//! **Friction coupling** is reached by outer fixed-point passes
//! ([`super::coupling`]): the bounds `±μ·λ_n` are frozen, the box problem is solved,
//! the bounds are refreshed from the new `λ_n`, until bounds and answer agree.
//! A warm start (last step's `λ`) gives the initial sets and usually means one solve.
//!
//! **Cost.** One LU of the free block per step (`⅔|F|³`) plus `n²` for `w`;
//! typically 2–10 steps from a cold start. Pivot and sign tolerances are relative to
//! `max(‖A‖max, ‖b‖∞)`.
//!
//! **For `thud-dynamics`' exact step mode** call [`solve_boxed`] with a
//! [`BoxedLcp`] built by [`BoxedLcp::new`] and
//! [`BoxedLcp::with_friction`], and last step's impulses in
//! [`Options::warm_start`].

use crate::linalg::Lu;
use crate::matrix::norm_inf;
use crate::problem::{BoxedLcp, Problem};
use crate::quality;
use crate::report::{Report, Status};
use crate::solver::{Options, SolveError, Solver};

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

/// Solves the boxed problem `p` exactly (friction coupling by outer passes).
///
/// `options.warm_start` (length `n`) seeds the active sets; `options.max_iterations`
/// caps the total number of block steps; `options.tolerance` is the relative residual
/// tolerance. The report's `iterations` counts linear solves over all passes.
pub fn solve_boxed(p: &BoxedLcp, options: &Options) -> Result<Report, SolveError> {
    options.validate(p.n())?;
    super::coupling::solve_coupled(p, options, |fixed, warm| Ok(solve_fixed(fixed, warm, options)))
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Set {
    Lo,
    Hi,
    Free,
}

/// The sets a starting point suggests.
fn initial_sets(lo: &[f64], hi: &[f64], start: &[f64]) -> Vec<Set> {
    (0..lo.len())
        .map(|i| {
            if lo[i] == hi[i] || (lo[i].is_finite() && start[i] <= lo[i]) {
                Set::Lo
            } else if hi[i].is_finite() && start[i] >= hi[i] {
                Set::Hi
            } else {
                Set::Free
            }
        })
        .collect()
}

/// Block principal pivoting on a problem with fixed bounds (no coupling).
pub(crate) fn solve_fixed(p: &BoxedLcp, warm: &[f64], options: &Options) -> Report {
    let n = p.n();
    let (a, b, lo, hi) = (p.a(), p.b(), p.lo(), p.hi());
    let tol = options.tolerance;
    let limit = options.pivot_limit(n);
    let scale = p.scale();
    if n == 0 {
        return Report::for_boxed(p, Vec::new(), 0, Status::Solved, tol);
    }
    let pivot_tol = 1e-13 * scale;
    let max_diag = a.diagonal().iter().fold(0.0f64, |m, d| m.max(*d));
    let eps0 = 1e-10 * max_diag.max(scale);
    // Sign tests are relative to the problem's scale: a `w` or a bound crossing smaller
    // than this is rounding noise, not an infeasibility.
    let sign_tol = 1e-12 * scale;

    let mut sets = initial_sets(lo, hi, warm);
    let mut lambda: Vec<f64> = (0..n)
        .map(|i| match sets[i] {
            Set::Lo => lo[i],
            Set::Hi => hi[i],
            Set::Free => warm[i],
        })
        .collect();
    let mut eps = 0.0;
    let mut centre = lambda.clone();
    let mut steps = 0;
    let (mut best, mut tries) = (usize::MAX, 3);
    let mut free = Vec::with_capacity(n);
    let mut rhs = Vec::with_capacity(n);

    while steps < limit {
        steps += 1;
        free.clear();
        free.extend((0..n).filter(|&i| sets[i] == Set::Free));
        for i in 0..n {
            match sets[i] {
                Set::Lo => lambda[i] = lo[i],
                Set::Hi => lambda[i] = hi[i],
                Set::Free => {}
            }
        }
        // rhs_F = −(b_F + A_{F,bound} λ_bound) + ε c_F
        rhs.clear();
        for &i in &free {
            let row = a.row(i);
            let mut s = b[i] - eps * centre[i];
            for j in 0..n {
                if sets[j] != Set::Free {
                    s += row[j] * lambda[j];
                }
            }
            rhs.push(-s);
        }
        match Lu::factor_block(a, &free, eps, pivot_tol) {
            Some(lu) => {
                let x = lu.solve(&rhs);
                for (k, &i) in free.iter().enumerate() {
                    lambda[i] = x[k];
                }
            }
            None if eps == 0.0 => {
                eps = eps0;
                centre.clone_from(&lambda);
                continue;
            }
            None => return Report::for_boxed(p, lambda, steps, Status::Singular, tol),
        }
        if !lambda.iter().all(|v| v.is_finite()) {
            return Report::for_boxed(p, lambda, steps, Status::Singular, tol);
        }
        // w of the (possibly regularized) sub-problem.
        let mut w = p.w(&lambda);
        for i in 0..n {
            w[i] += eps * (lambda[i] - centre[i]);
        }
        let wtol = sign_tol.max(1e-12 * norm_inf(&w));
        let ltol = 1e-12 * norm_inf(&lambda).max(f64::MIN_POSITIVE);
        let infeasible = |i: usize, sets: &[Set]| -> Option<Set> {
            match sets[i] {
                Set::Free if lambda[i] < lo[i] - ltol => Some(Set::Lo),
                Set::Free if lambda[i] > hi[i] + ltol => Some(Set::Hi),
                Set::Lo if lo[i] < hi[i] && w[i] < -wtol => Some(Set::Free),
                Set::Hi if lo[i] < hi[i] && w[i] > wtol => Some(Set::Free),
                _ => None,
            }
        };
        let moves: Vec<(usize, Set)> = (0..n).filter_map(|i| infeasible(i, &sets).map(|s| (i, s))).collect();
        if moves.is_empty() {
            let wt = p.w(&lambda);
            let r = quality::boxed_residual(&lambda, &wt, lo, hi);
            if r <= quality::threshold(tol, b, &wt) {
                return Report::for_boxed(p, lambda, steps, Status::Solved, tol);
            }
            // Not accurate enough: (re)centre the proximal term and go on.
            if eps == 0.0 {
                eps = eps0;
            }
            centre.clone_from(&lambda);
            best = usize::MAX;
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
            for &(i, s) in &moves {
                sets[i] = s;
            }
        } else if let Some(&(i, s)) = moves.last() {
            sets[i] = s;
        }
    }
    Report::for_boxed(p, lambda, steps, Status::IterationLimit, tol)
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
        let p = BoxedLcp::from_rows(&[[1.0, 1.0], [1.0, 1.0]], &[-1.0, -1.0], &[0.0, 0.0], &[f64::INFINITY; 2]).unwrap();
        let r = solve_boxed(&p, &Options::default()).unwrap();
        assert!(r.is_solved(), "{r:?}");
        assert!((r.z[0] + r.z[1] - 1.0).abs() < 1e-8);
    }

    #[test]
    fn box_and_free_rows() {
        // 1-D: a λ + b with a = 2, b = −10, box [−1, 3] → λ = 3, w = −4 ≤ 0.
        let p = BoxedLcp::from_rows(&[[2.0, 0.0], [0.0, 1.0]], &[-10.0, 5.0], &[-1.0, f64::NEG_INFINITY], &[3.0, f64::INFINITY])
            .unwrap();
        let r = solve_boxed(&p, &Options::default()).unwrap();
        assert!(r.is_solved());
        assert_eq!(r.z[0], 3.0);
        assert!((r.z[1] + 5.0).abs() < 1e-12);
    }
}
