//! Projected Jacobi: every row from the *old* iterate (reference note §4, `B = D`).
//!
//! ```text
//! w    = A λ[k] + b
//! λ[k+1]_i = clamp(λ[k]_i − ω · w_i / A_ii, lo_i, hi_i)
//! ```
//!
//! All rows are independent within a sweep (parallel in principle). Converges for
//! (weakly, irreducibly) diagonally dominant `A`; on general SPD matrices plain
//! Jacobi (ω = 1) can diverge — use ω < 1 as damping ([`Options::omega`]). Coupled
//! friction bounds are taken from the old iterate's normal rows. Cost `n²` per sweep;
//! the exact residual comes for free with each sweep's `w`.

use crate::problem::{BoxedLcp, Problem};
use crate::report::{Report, Status};
use crate::solver::{Options, SolveError, Solver};

use super::sor::{coupling_table, row_bounds};

/// Projected (damped) Jacobi, ω from [`Options::omega`] (default 1).
#[derive(Clone, Copy, Debug, Default)]
pub struct Jacobi;

impl Solver for Jacobi {
    fn name(&self) -> &'static str {
        "jacobi"
    }

    fn solve(&self, problem: &Problem, options: &Options) -> Result<Report, SolveError> {
        solve_boxed(&problem.to_boxed(), options)
    }
}

/// Runs projected Jacobi on `p`.
pub fn solve_boxed(p: &BoxedLcp, options: &Options) -> Result<Report, SolveError> {
    options.validate(p.n())?;
    let omega = options.omega.unwrap_or(1.0);
    let coupled = coupling_table(p);
    let n = p.n();
    let mut lambda = options.warm_start.clone().unwrap_or_else(|| vec![0.0; n]);
    for i in 0..n {
        let (lo, hi) = row_bounds(p, &coupled, &lambda, i);
        lambda[i] = lambda[i].max(lo).min(hi);
    }
    let mut next = lambda.clone();
    let limit = options.sweep_limit();
    for sweep in 0..=limit {
        let w = p.w(&lambda);
        let (lo, hi) = p.effective_bounds(&lambda);
        if p.passes_unchecked(&lambda, options.tolerance) {
            return Ok(Report::for_boxed(
                p,
                lambda,
                sweep,
                Status::Solved,
                options.tolerance,
            ));
        }
        if sweep == limit || !lambda.iter().all(|v| v.is_finite()) {
            return Ok(Report::for_boxed(
                p,
                lambda,
                sweep,
                Status::IterationLimit,
                options.tolerance,
            ));
        }
        for i in 0..n {
            let d = p.a()[(i, i)];
            next[i] = if d > 0.0 {
                (lambda[i] - omega * w[i] / d).max(lo[i]).min(hi[i])
            } else {
                lambda[i]
            };
        }
        std::mem::swap(&mut lambda, &mut next);
    }
    Ok(Report::for_boxed(
        p,
        lambda,
        limit,
        Status::IterationLimit,
        options.tolerance,
    ))
}
