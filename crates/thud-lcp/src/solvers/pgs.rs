//! Projected Gauss-Seidel: projected SOR with ω = 1 ([`super::sor`] holds the sweep).
//!
//! `λ_i ← clamp(λ_i − w_i / A_ii, lo_i, hi_i)` row by row, every new clamped value used
//! at once. The real-time engine runs a block-structured version of exactly this
//! iteration over Jacobian rows; this dense one is its reference. Converges for SPD
//! `A`; on PSD contact matrices it converges in `w` even where `λ` is not unique.
//! Cost `n²` per sweep.

use crate::problem::{BoxedLcp, Problem};
use crate::report::Report;
use crate::solver::{Options, SolveError, Solver};

/// Projected Gauss-Seidel (ignores [`Options::omega`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Pgs;

impl Solver for Pgs {
    fn name(&self) -> &'static str {
        "pgs"
    }

    fn solve(&self, problem: &Problem, options: &Options) -> Result<Report, SolveError> {
        solve_boxed(&problem.to_boxed(), options)
    }
}

/// Runs projected Gauss-Seidel on `p`.
pub fn solve_boxed(p: &BoxedLcp, options: &Options) -> Result<Report, SolveError> {
    super::sor::solve_boxed(p, 1.0, options)
}
