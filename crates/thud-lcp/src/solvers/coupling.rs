//! Outer fixed-point passes for coupled friction bounds (ODE's `findex`).
//!
//! With pairs `(t, n, μ)` the box of row `t` is `±μ·max(λ_n, 0)`, which depends on
//! the answer. One way to reach a consistent answer is the fixed-point iteration
//!
//! ```text
//! λ⁰ = warm start (or 0)
//! repeat:  lo, hi ← effective bounds at λᵏ;   λᵏ⁺¹ ← solve BLCP(A, b, lo, hi)
//! until    the residual of λᵏ⁺¹ with the bounds *at λᵏ⁺¹* passes the tolerance.
//! ```
//!
//! Each pass is an exact box solve warm-started from the previous answer, so a pass
//! after the first usually costs one factorization. Plain passes oscillate on
//! sliding contacts (on random contact problems they left 20–90 % unsolved), so the
//! point the bounds are read from is *damped*: it moves towards each pass's answer by
//! a factor `β`, halved (down to 1/64) whenever the residual fails to halve. After
//! [`MAX_PASSES`] passes the result is reported as `iteration_limit` — never as
//! solved.
//!
//! This is [`super::boxed_pivot`]'s last resort: its linked pattern search
//! ([`super::pattern`]) and PGS hybrid rounds handle coupling directly and settle
//! every generated contact problem before it gets here.

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
    // The point the bounds are read from, moved towards each pass's answer by `beta`.
    let mut anchor = lambda.clone();
    let mut beta = 1.0;
    let mut last = f64::INFINITY;
    for _ in 0..MAX_PASSES {
        let (lo, hi) = p.effective_bounds(&anchor);
        let fixed = p.with_fixed_bounds(lo, hi);
        let r = inner(&fixed, &lambda)?;
        total += r.iterations;
        if r.status != Status::Solved {
            return Ok(Report::for_boxed(
                p,
                r.z,
                total,
                r.status,
                options.tolerance,
            ));
        }
        lambda = r.z;
        let w = p.w(&lambda);
        let (lo, hi) = p.effective_bounds(&lambda);
        let res = quality::boxed_residual(&lambda, &w, &lo, &hi);
        if p.passes_unchecked(&lambda, options.tolerance) {
            return Ok(Report::for_boxed(
                p,
                lambda,
                total,
                Status::Solved,
                options.tolerance,
            ));
        }
        // Oscillating bounds: damp the update of the point they are read from.
        if res > 0.5 * last {
            beta = (beta * 0.5f64).max(1.0 / 64.0);
        }
        last = res;
        for (a, l) in anchor.iter_mut().zip(&lambda) {
            *a += beta * (l - *a);
        }
    }
    Ok(Report::for_boxed(
        p,
        lambda,
        total,
        Status::IterationLimit,
        options.tolerance,
    ))
}
