//! `auto`: choose a method by size and structure, and never report a wrong status.
//!
//! The rule:
//!
//! **Plain LCP** (or a boxed problem with `lo = 0`, `hi = ∞`, no coupling):
//!
//! 1. If `M` is symmetric positive definite (a Cholesky test on `M` itself), use
//!    [`super::boxed_pivot`]: a handful of factorizations, exact, and the solution is
//!    unique. If it reports solved, done.
//! 2. Otherwise (or if 1 failed) use [`super::lemke`], which solves every
//!    copositive-plus problem (PSD, P-matrices, …) or proves it infeasible. Solved:
//!    done.
//! 3. Lemke ended on a ray, cycled, or hit a singular pivot. If `n ≤ 20` the problem
//!    is settled by [`super::enumerate`], whose status is exact (up to singular
//!    patterns, reported as such) — except that Lemke's ray on a PSD matrix (a
//!    proof of infeasibility) is kept when enumeration only says "singular". For
//!    larger `n` Lemke's report stands: a proof for PSD matrices; on other matrices
//!    `no_solution` then means "Lemke's ray", as documented there.
//!
//! **Boxed problem** (finite bounds, free rows or friction coupling):
//! [`super::boxed_pivot`] (coupling inside its pattern search); if it does not report
//! solved and the problem is small enough for [`super::enumerate`] (`n ≤ 20`,
//! at most `2²⁰` patterns), enumeration decides.
//!
//! `iterations` of the final report counts the work of every method tried.

use crate::linalg::symmetric_part_is_pd;
use crate::problem::Problem;
use crate::report::{Report, Status};
use crate::solver::{Options, SolveError, Solver};

use super::{boxed_pivot, enumerate, lemke};

/// Whether `M` is numerically positive semi-definite (`xᵀMx ≥ 0`): its symmetric part
/// plus `10⁻¹⁰·scale·I` has a Cholesky factorization.
fn is_psd(p: &crate::problem::Lcp) -> bool {
    let s = p.m().max_abs();
    if s == 0.0 {
        return true;
    }
    symmetric_part_is_pd(p.m(), 1e-10 * s, 1e-14 * s)
}

/// The chooser (applies to every problem).
#[derive(Clone, Copy, Debug, Default)]
pub struct Auto;

impl Solver for Auto {
    fn name(&self) -> &'static str {
        "auto"
    }

    fn solve(&self, problem: &Problem, options: &Options) -> Result<Report, SolveError> {
        options.validate(problem.n())?;
        let mut work = 0;
        if let Some(p) = problem.as_lcp() {
            let n = p.n();
            let spd =
                p.m().is_symmetric(1e-12) && symmetric_part_is_pd(p.m(), 0.0, 1e-12 * p.scale());
            if spd {
                let r = boxed_pivot::solve_boxed(&p.to_boxed(), options)?;
                work += r.iterations;
                if r.is_solved() {
                    return Ok(Report::for_lcp(
                        &p,
                        r.z,
                        work,
                        Status::Solved,
                        options.tolerance,
                    ));
                }
            }
            let mut r = lemke::solve_lcp(&p, options)?;
            work += r.iterations;
            if !r.is_solved() && n <= enumerate::MAX_N {
                let e = enumerate::solve_lcp(&p, options)?;
                work += e.iterations;
                // Lemke's ray on a PSD (copositive-plus) matrix is a proof of
                // infeasibility, stronger than enumeration's "singular patterns remain".
                let proof = r.status == Status::NoSolution && is_psd(&p);
                if e.is_solved() || !proof {
                    r = e;
                }
            }
            r.iterations = work;
            return Ok(r);
        }
        let p = problem.to_boxed();
        let mut r = boxed_pivot::solve_boxed(&p, options)?;
        work += r.iterations;
        if !r.is_solved()
            && let Ok(e) = enumerate::solve_boxed(&p, options)
        {
            work += e.iterations;
            r = e;
        }
        r.iterations = work;
        Ok(r)
    }
}
