//! Projected SOR(ω) on the boxed LCP — and, with ω = 1, projected Gauss-Seidel.
//!
//! Split `A = L + D/ω + (D − D/ω + U)` (reference note §4): each row visit solves its
//! own 1×1 boxed problem with the other rows frozen at their newest values,
//!
//! ```text
//! w_i  = b_i + A_i · λ                 (uses the rows already updated this sweep)
//! λ_i ← clamp(λ_i − ω · w_i / A_ii, lo_i, hi_i)
//! ```
//!
//! so an already clamped value is used at once by the rows after it. For symmetric
//! positive definite `A` this converges for `0 < ω < 2`; for the PSD matrices of
//! redundant contacts it still reduces the energy but may converge slowly. A coupled
//! friction row `t` reads its box `±μ·max(λ_n, 0)` from the current `λ_n` at every
//! visit.
//!
//! Cost: one sweep is one pass over `A` (`n²` multiply-adds, dense). The stopping
//! test is cheap: during the sweep the row residual `|λ_i − clamp(λ_i − w_i, lo, hi)|`
//! is tracked; only when its maximum falls below the tolerance is the exact residual
//! of the final iterate computed (`n²` more), and iteration goes on if it fails.
//! Rows with `A_ii ≤ 0` cannot be relaxed and are left at their starting value.

use crate::matrix::dot;
use crate::problem::{BoxedLcp, Problem};
use crate::quality::boxed_row_residual;
use crate::report::{Report, Status};
use crate::solver::{Options, SolveError, Solver};

/// Projected SOR with ω from [`Options::omega`] (default 1.3).
#[derive(Clone, Copy, Debug, Default)]
pub struct Sor;

/// The default relaxation factor of `sor`.
pub const DEFAULT_OMEGA: f64 = 1.3;

impl Solver for Sor {
    fn name(&self) -> &'static str {
        "sor"
    }

    fn solve(&self, problem: &Problem, options: &Options) -> Result<Report, SolveError> {
        solve_boxed(
            &problem.to_boxed(),
            options.omega.unwrap_or(DEFAULT_OMEGA),
            options,
        )
    }
}

/// For every row, `Some((n, μ))` if its bounds are coupled to row `n`.
pub(crate) fn coupling_table(p: &BoxedLcp) -> Vec<Option<(usize, f64)>> {
    let mut t = Vec::new();
    coupling_table_into(p, &mut t);
    t
}

/// [`coupling_table`] into `t`'s buffer.
pub(crate) fn coupling_table_into(p: &BoxedLcp, t: &mut Vec<Option<(usize, f64)>>) {
    t.clear();
    t.resize(p.n(), None);
    for c in p.coupling() {
        t[c.t] = Some((c.n, c.mu));
    }
}

/// The bounds of row `i` at the current `λ`.
#[inline]
pub(crate) fn row_bounds(
    p: &BoxedLcp,
    coupled: &[Option<(usize, f64)>],
    lambda: &[f64],
    i: usize,
) -> (f64, f64) {
    match coupled[i] {
        Some((n, mu)) => {
            let h = mu * lambda[n].max(0.0);
            (-h, h)
        }
        None => (p.lo()[i], p.hi()[i]),
    }
}

/// One projected SOR sweep over all rows, in place. Returns the largest *relative*
/// row residual seen during the sweep, `|λ_i − clamp(λ_i − w_i, lo_i, hi_i)| /
/// max(|b_i|, |A_i·λ|)` — a cheap convergence estimate, stricter than the final
/// row-wise test ([`crate::quality::passes`]) since `|A_i·λ| ≤ Σ_j |A_ij λ_j|`.
/// Panics if `lambda.len() ≠ p.n()`.
pub fn sweep(p: &BoxedLcp, lambda: &mut [f64], omega: f64) -> f64 {
    sweep_with(p, &coupling_table(p), lambda, omega)
}

pub(crate) fn sweep_with(
    p: &BoxedLcp,
    coupled: &[Option<(usize, f64)>],
    lambda: &mut [f64],
    omega: f64,
) -> f64 {
    assert_eq!(lambda.len(), p.n());
    let (a, b) = (p.a(), p.b());
    let mut rel = 0.0f64;
    for i in 0..lambda.len() {
        let row = a.row(i);
        let aw = dot(row, lambda);
        let w = b[i] + aw;
        let (lo, hi) = row_bounds(p, coupled, lambda, i);
        let old = lambda[i];
        let r = boxed_row_residual(old, w, lo, hi).abs();
        if r > 0.0 {
            rel = rel.max(r / b[i].abs().max(aw.abs()));
        }
        let d = row[i];
        if d > 0.0 {
            lambda[i] = (old - omega * w / d).max(lo).min(hi);
        }
    }
    rel
}

/// Runs projected SOR(`omega`) on `p` from `options.warm_start` (clamped into the box)
/// or zero, until the residual passes or `options.sweep_limit()` sweeps.
pub fn solve_boxed(p: &BoxedLcp, omega: f64, options: &Options) -> Result<Report, SolveError> {
    options.validate(p.n())?;
    let coupled = coupling_table(p);
    let n = p.n();
    let mut lambda = options.warm_start.clone().unwrap_or_else(|| vec![0.0; n]);
    for i in 0..n {
        let (lo, hi) = row_bounds(p, &coupled, &lambda, i);
        lambda[i] = lambda[i].max(lo).min(hi);
    }
    let tol = options.tolerance;
    let limit = options.sweep_limit();
    let mut sweeps = 0;
    while sweeps < limit {
        let rel = sweep_with(p, &coupled, &mut lambda, omega);
        sweeps += 1;
        if !lambda.iter().all(|v| v.is_finite()) {
            break;
        }
        // The estimate mixes old and new rows; confirm on the final iterate.
        if rel <= tol && p.passes_unchecked(&lambda, tol) {
            return Ok(Report::for_boxed(p, lambda, sweeps, Status::Solved, tol));
        }
    }
    Ok(Report::for_boxed(
        p,
        lambda,
        sweeps,
        Status::IterationLimit,
        options.tolerance,
    ))
}
