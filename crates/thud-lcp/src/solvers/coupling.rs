//! Outer fixed-point passes for coupled friction bounds (ODE's `findex`).
//!
//! With pairs `(t, n, μ)` the box of row `t` is `±μ·max(λ_n, 0)`, which depends on
//! the answer. The exact solvers reach a consistent answer by the fixed-point
//! iteration
//!
//! ```text
//! λ⁰ = warm start (or 0)
//! repeat:  lo, hi ← effective bounds at λᵏ;   λᵏ⁺¹ ← solve BLCP(A, b, lo, hi)
//! until    the residual of λᵏ⁺¹ with the bounds *at λᵏ⁺¹* passes the tolerance.
//! ```
//!
//! Each pass is an exact box solve warm-started from the previous answer, so a pass
//! after the first usually costs one factorization. The iteration is a contraction
//! for the moderate μ of real contacts; for large μ it can oscillate, and after
//! [`MAX_PASSES`] passes the result is reported as `iteration_limit` — never as
//! solved. Without coupling the inner solver is called once.

use crate::problem::BoxedLcp;
use crate::quality;
use crate::report::{Report, Status};
use crate::solver::{Options, SolveError};

/// The most outer passes before giving up with [`Status::IterationLimit`].
pub const MAX_PASSES: usize = 100;

/// Runs `inner(problem with fixed bounds, start)` in outer passes until the coupled
/// bounds and the answer agree. `iterations` in the result is summed over passes.
pub(crate) fn solve_coupled(
    p: &BoxedLcp,
    options: &Options,
    mut inner: impl FnMut(&BoxedLcp, &[f64]) -> Result<Report, SolveError>,
) -> Result<Report, SolveError> {
    let n = p.n();
    let mut lambda = options.warm_start.clone().unwrap_or_else(|| vec![0.0; n]);
    if p.coupling().is_empty() {
        return inner(p, &lambda);
    }
    let mut total = 0;
    for _ in 0..MAX_PASSES {
        let (lo, hi) = p.effective_bounds(&lambda);
        let fixed = p.with_fixed_bounds(lo, hi);
        let r = inner(&fixed, &lambda)?;
        total += r.iterations;
        if r.status != Status::Solved {
            return Ok(Report::for_boxed(p, r.z, total, r.status, options.tolerance));
        }
        lambda = r.z;
        let w = p.w(&lambda);
        let (lo, hi) = p.effective_bounds(&lambda);
        if quality::boxed_residual(&lambda, &w, &lo, &hi) <= quality::threshold(options.tolerance, p.b(), &w) {
            return Ok(Report::for_boxed(p, lambda, total, Status::Solved, options.tolerance));
        }
    }
    Ok(Report::for_boxed(p, lambda, total, Status::IterationLimit, options.tolerance))
}
