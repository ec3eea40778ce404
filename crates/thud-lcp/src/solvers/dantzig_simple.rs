//! Simple principal pivoting ("simple Dantzig–Cottle"): most negative first.
//!
//! Work on the complementary tableau `x_B = c + T x_N` (initially `w = q + M z`):
//!
//! 1. if every `c_i ≥ 0`, the basic variables read off the solution;
//! 2. otherwise take the row `r` with the most negative `c_r` (the *distinguished*
//!    variable) and make a principal exchange on `T_rr`, swapping `w_r` and `z_r`;
//! 3. repeat.
//!
//! For a P-matrix (symmetric positive definite included) every principal pivot
//! transform is again a P-matrix, so `T_rr > 0` always and the exchange exists; but
//! the most-negative rule alone can revisit a basis. The solver keeps the set of
//! bases seen and, on the first repeat, switches to Murty's least-index rule (pivot on
//! the smallest `r` with `c_r < 0`), which is finite for every P-matrix; a repeat
//! under that rule is reported as [`Status::Cycling`] (the matrix is not a P-matrix).
//!
//! Outside the P class a needed diagonal pivot can be zero or negative: then rows are
//! tried in order of the rule among those with `T_ii > 0`; if there are none the
//! answer is [`Status::NoSolution`] when some negative row has no positive entry (that
//! row can never be raised: a proof of infeasibility) and [`Status::Singular`]
//! otherwise. Cost: `n²` per exchange, at most `2ⁿ` exchanges, usually about `n`.

use std::collections::HashSet;

use super::tableau::Tableau;
use crate::problem::{Lcp, Problem};
use crate::report::{Report, Status};
use crate::solver::{Options, SolveError, Solver};

/// Simple principal pivoting for P-matrices (plain LCPs only).
#[derive(Clone, Copy, Debug, Default)]
pub struct DantzigSimple;

impl Solver for DantzigSimple {
    fn name(&self) -> &'static str {
        "dantzig-simple"
    }

    fn solve(&self, problem: &Problem, options: &Options) -> Result<Report, SolveError> {
        match problem.as_lcp() {
            Some(p) => solve_lcp(&p, options),
            None => Err(SolveError::NotApplicable {
                method: "dantzig-simple",
                reason: "boxed problems need boxed-pivot, the iterative methods or enumerate",
            }),
        }
    }
}

/// How the next principal pivot is chosen among rows with `c_i < 0` and `T_ii > 0`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Rule {
    /// Most negative `c_i`.
    MostNegative,
    /// Smallest index (Murty).
    LeastIndex,
    /// Largest `c_i² / T_ii` (Kolesnikov–Rakovskaya's energy drop).
    Energy,
}

/// Outcome of one selection on a complementary tableau.
pub(crate) enum Pick {
    /// All `c ≥ 0`: solved.
    Done,
    /// Pivot on this row.
    Row(usize),
    /// A negative row that can never be raised.
    Infeasible,
    /// Negative rows exist but none has a usable diagonal pivot.
    Stuck,
}

/// Chooses the next principal pivot by `rule`.
pub(crate) fn pick(tab: &Tableau, rule: Rule) -> Pick {
    let n = tab.n;
    let cmax = tab.c.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let ctol = 1e-12 * cmax;
    let mut best: Option<(usize, f64)> = None;
    let mut any_negative = false;
    for i in 0..n {
        let ci = tab.c[i];
        if ci >= -ctol {
            continue;
        }
        any_negative = true;
        let row = &tab.t[i * tab.cols..(i + 1) * tab.cols];
        let rmax = row.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        if row.iter().all(|&v| v <= 1e-13 * rmax) {
            return Pick::Infeasible;
        }
        let d = row[i];
        if d <= 1e-13 * rmax {
            continue;
        }
        let key = match rule {
            Rule::MostNegative => -ci,
            Rule::LeastIndex => -(i as f64),
            Rule::Energy => ci * ci / d,
        };
        if best.is_none_or(|(_, k)| key > k) {
            best = Some((i, key));
        }
    }
    match (best, any_negative) {
        (Some((i, _)), _) => Pick::Row(i),
        (None, false) => Pick::Done,
        (None, true) => Pick::Stuck,
    }
}

/// Principal pivoting with `rule`; with `fallback`, a repeated basis switches to the
/// least-index rule once before [`Status::Cycling`] is reported.
pub(crate) fn principal_pivoting(
    p: &Lcp,
    options: &Options,
    rule: Rule,
    fallback: bool,
) -> Result<Report, SolveError> {
    let n = p.n();
    options.validate(n)?;
    let tol = options.tolerance;
    let limit = options.pivot_limit(n);
    let mut tab = Tableau::new(p.m(), p.q(), None);
    let mut seen = HashSet::new();
    seen.insert(tab.signature());
    let mut rule = rule;
    let mut pivots = 0;
    loop {
        let status = match pick(&tab, rule) {
            Pick::Done => {
                let r = Report::for_lcp(p, tab.z(), pivots, Status::Solved, tol);
                return Ok(super::polish::polish_lcp(p, r, tol));
            }
            Pick::Infeasible => Status::NoSolution,
            Pick::Stuck => Status::Singular,
            Pick::Row(_) if pivots >= limit => Status::IterationLimit,
            Pick::Row(r) => {
                tab.exchange(r, r);
                pivots += 1;
                if seen.insert(tab.signature()) {
                    continue;
                }
                if fallback && rule != Rule::LeastIndex {
                    rule = Rule::LeastIndex;
                    seen.clear();
                    seen.insert(tab.signature());
                    continue;
                }
                Status::Cycling
            }
        };
        return Ok(Report::for_lcp(p, tab.z(), pivots, status, tol));
    }
}

/// Runs simple principal pivoting (most negative, least-index fallback) on `p`.
pub fn solve_lcp(p: &Lcp, options: &Options) -> Result<Report, SolveError> {
    principal_pivoting(p, options, Rule::MostNegative, true)
}
