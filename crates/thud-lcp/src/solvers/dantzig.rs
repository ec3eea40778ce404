//! The general Dantzig–Cottle principal pivoting method (PSD and P-matrices).
//!
//! No artificial variable: the method moves between complementary bases of
//! `x_B = c + T x_N` (initially `w = q + M z`), each *major cycle* making one more
//! basic variable non-negative without spoiling the non-negative ones.
//!
//! **Major cycle.** Pick the basic variable with the most negative value, the
//! *distinguished* variable `v` (row `r`). Its complement, nonbasic, is the *driving*
//! variable; increase it. Basic variables that are already `≥ 0` must stay so; `v`
//! itself rises towards zero (for PSD and P-matrices its rate `T_rs ≥ 0`).
//!
//! **Ratio test.** The driving variable stops at the first of: `v` reaching 0, or a
//! non-negative basic variable reaching 0 (a *blocking* variable). Ties prefer `v`.
//!
//! - `v` blocks: exchange, the basis is complementary again with `v` nonbasic at 0;
//!   the major cycle ends.
//! - another variable `x` blocks: exchange it out. The basis is now *almost*
//!   complementary (both `v` and its complement basic, both `x` and its complement
//!   nonbasic); the complement of `x` becomes the new driving variable — a *minor
//!   cycle* — and the ratio test repeats with the same distinguished `v`.
//! - nothing blocks: a ray. For PSD matrices this proves the LCP infeasible
//!   ([`Status::NoSolution`]); outside PSD/P the status means only that the method
//!   found nothing.
//!
//! Unlike the simple variant ([`super::dantzig_simple`]) the exchanges in minor cycles
//! need not be principal, so the method copes with the zero diagonal pivots of
//! singular PSD matrices. Degenerate steps can repeat a basis; bases are remembered
//! and a repeat is reported as [`Status::Cycling`]. Cost `n²` per exchange; each major
//! cycle removes one negative variable, so for PSD/P at most `n` major cycles, each
//! of at most `n` minor steps in practice.

use std::collections::HashSet;

use super::tableau::{Pos, Tableau};
use crate::problem::{Lcp, Problem};
use crate::report::{Report, Status};
use crate::solver::{Options, SolveError, Solver};

/// General Dantzig–Cottle principal pivoting (plain LCPs only).
#[derive(Clone, Copy, Debug, Default)]
pub struct Dantzig;

impl Solver for Dantzig {
    fn name(&self) -> &'static str {
        "dantzig"
    }

    fn solve(&self, problem: &Problem, options: &Options) -> Result<Report, SolveError> {
        match problem.as_lcp() {
            Some(p) => solve_lcp(&p, options),
            None => Err(SolveError::NotApplicable {
                method: "dantzig",
                reason: "boxed problems need boxed-pivot, the iterative methods or enumerate",
            }),
        }
    }
}

/// Runs the general Dantzig–Cottle method on `p`.
pub fn solve_lcp(p: &Lcp, options: &Options) -> Result<Report, SolveError> {
    let n = p.n();
    options.validate(n)?;
    let tol = options.tolerance;
    let limit = options.pivot_limit(n);
    let mut tab = Tableau::new(p.m(), p.q(), None);
    let mut seen: HashSet<(Vec<u64>, usize)> = HashSet::new();
    let mut pivots = 0;
    let finish = |tab: &Tableau, pivots, status| Report::for_lcp(p, tab.z(), pivots, status, tol);

    loop {
        // Major cycle: the most negative basic variable is distinguished.
        let cmax = tab.c.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let ctol = 1e-12 * cmax;
        let Some(r) = (0..n)
            .filter(|&i| tab.c[i] < -ctol)
            .min_by(|&a, &b| tab.c[a].total_cmp(&tab.c[b]))
        else {
            let rep = finish(&tab, pivots, Status::Solved);
            return Ok(super::polish::polish_lcp(p, rep, tol));
        };
        let distinguished = tab.row_var[r];
        let mut driving = tab.complement(distinguished);
        loop {
            if pivots >= limit {
                return Ok(finish(&tab, pivots, Status::IterationLimit));
            }
            let (Pos::Col(s), Pos::Row(rd)) = (tab.pos[driving], tab.pos[distinguished]) else {
                return Ok(finish(&tab, pivots, Status::Singular));
            };
            let Some(block) = blocking_row(&tab, s, rd, ctol) else {
                return Ok(finish(&tab, pivots, Status::NoSolution));
            };
            tab.exchange(block, s);
            pivots += 1;
            if !seen.insert((tab.signature(), distinguished)) {
                return Ok(finish(&tab, pivots, Status::Cycling));
            }
            let leaving = tab.col_var[s];
            let comp = tab.complement(leaving);
            if matches!(tab.pos[comp], Pos::Row(_)) {
                break; // complementary again: the major cycle is over
            }
            driving = comp;
        }
    }
}

/// The ratio test for driving column `s` with the distinguished variable in row `rd`.
fn blocking_row(tab: &Tableau, s: usize, rd: usize, ctol: f64) -> Option<usize> {
    let n = tab.n;
    let cmax = (0..n).fold(0.0f64, |m, i| m.max(tab.at(i, s).abs()));
    if cmax == 0.0 {
        return None;
    }
    let ptol = 1e-11 * cmax;
    let mut best: Option<(usize, f64)> = None;
    let rate_d = tab.at(rd, s);
    if rate_d > ptol {
        best = Some((rd, (-tab.c[rd]).max(0.0) / rate_d));
    }
    for i in 0..n {
        if i == rd || tab.c[i] < -ctol {
            continue;
        }
        let a = -tab.at(i, s);
        if a <= ptol {
            continue;
        }
        let ratio = tab.c[i].max(0.0) / a;
        // Strictly smaller (beyond rounding) to displace the current choice, so ties
        // keep the distinguished variable and then the smallest index.
        let better = match best {
            None => true,
            Some((_, t)) => ratio < t - 1e-12 * t.abs().max(ctol),
        };
        if better {
            best = Some((i, ratio));
        }
    }
    best.map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn psd_singular_problem() {
        // M = [[1,1],[1,1]] (PSD, singular), q = (−1, −1): any z ≥ 0 with z₀+z₁ = 1.
        let p = Lcp::from_rows(&[[1.0, 1.0], [1.0, 1.0]], &[-1.0, -1.0]).unwrap();
        let r = solve_lcp(&p, &Options::default()).unwrap();
        assert_eq!(r.status, Status::Solved, "{r:?}");
        assert!((r.z[0] + r.z[1] - 1.0).abs() < 1e-12);
    }

    #[test]
    fn psd_infeasible_is_a_ray() {
        // w₀ = z₀ − z₁ − 1 ... with M = [[0,1],[-1,0]] skew (PSD), q = (−1, −1) infeasible.
        let p = Lcp::from_rows(&[[0.0, -1.0], [1.0, 0.0]], &[-1.0, -1.0]).unwrap();
        let r = solve_lcp(&p, &Options::default()).unwrap();
        assert_eq!(r.status, Status::NoSolution, "{r:?}");
    }
}
