//! Enumeration: try every complementary pattern — the ground truth for small problems.
//!
//! For a plain LCP each row is either *at its bound* (`z_i = 0`) or *free*
//! (`w_i = 0`); for a boxed problem a row may also sit at its upper bound (`λ_i = hi_i`,
//! `w_i ≤ 0`), and a row with `lo = hi` is always at its bound. A pattern fixes the
//! free set `F` and the values of the others, and
//!
//! ```text
//! A_FF λ_F = −(b_F + A_{F,bound} λ_bound)
//! ```
//!
//! gives the rest; the pattern is a solution when the answer passes the residual test.
//! Patterns are tried in increasing order of the free set (free sets of the low rows
//! first, as a binary/ternary counter); the first solution found is returned.
//!
//! A pattern whose block `A_FF` is numerically singular is tried with a proximal
//! least-change solve (`(A_FF + δI) x⁺ = r + δx`, which finds a point of a consistent
//! singular system), but failing it excludes nothing. If no pattern solves, the status is [`Status::NoSolution`] when no pattern was skipped (a proof:
//! every solution lies in some pattern) and [`Status::Singular`] otherwise (a solution
//! on a singular pattern cannot be excluded). Cost `O(2ⁿ n³)` (boxed `O(3ⁿ n³)`); the
//! method refuses `n > 20` and boxed problems with more than `2²⁰` patterns.
//! Coupled friction rows take three states, `λ_t = −μλ_n`, free, `λ_t = +μλ_n`
//! ([`super::pattern`]), so enumeration is exact for coupled problems too.

use super::pattern::{Outcome, Set, solve_pattern};
use crate::problem::{BoxedLcp, Lcp, Problem};
use crate::report::{Report, Status};
use crate::solver::{Options, SolveError, Solver};

/// Exhaustive enumeration of complementary patterns (n ≤ 20).
#[derive(Clone, Copy, Debug, Default)]
pub struct Enumerate;

/// The largest problem enumeration accepts.
pub const MAX_N: usize = 20;

/// The most patterns enumeration will try (`2²⁰`).
pub const MAX_PATTERNS: u64 = 1 << 20;

impl Solver for Enumerate {
    fn name(&self) -> &'static str {
        "enumerate"
    }

    fn solve(&self, problem: &Problem, options: &Options) -> Result<Report, SolveError> {
        match problem.as_lcp() {
            Some(p) => solve_lcp(&p, options),
            None => solve_boxed(&problem.to_boxed(), options),
        }
    }
}

/// The states row `i` can take: a coupled friction row has a box `±μλₙ` (three
/// states), a row with `lo = hi` only its bound, others what their finite bounds allow.
fn states(p: &BoxedLcp, coupled: &[Option<(usize, f64)>], i: usize) -> Vec<Set> {
    let (lo, hi) = (p.lo()[i], p.hi()[i]);
    if coupled[i].is_some() {
        return vec![Set::Lo, Set::Free, Set::Hi];
    }
    if lo == hi {
        return vec![Set::Lo];
    }
    let mut s = Vec::with_capacity(3);
    if lo.is_finite() {
        s.push(Set::Lo);
    }
    s.push(Set::Free);
    if hi.is_finite() {
        s.push(Set::Hi);
    }
    s
}

fn check_size(n: usize, patterns: Option<u64>) -> Result<(), SolveError> {
    if n > MAX_N {
        return Err(SolveError::TooLarge {
            method: "enumerate",
            n,
            max: MAX_N,
        });
    }
    if patterns.is_none_or(|c| c > MAX_PATTERNS) {
        return Err(SolveError::NotApplicable {
            method: "enumerate",
            reason: "more than 2^20 bound patterns",
        });
    }
    Ok(())
}

/// Enumerates the `2ⁿ` patterns of the plain LCP `p` (refuses `n > 20`).
pub fn solve_lcp(p: &Lcp, options: &Options) -> Result<Report, SolveError> {
    options.validate(p.n())?;
    check_size(p.n(), Some(1u64 << p.n().min(63)))?;
    let r = enumerate_patterns(&p.to_boxed(), options);
    Ok(Report::for_lcp(
        p,
        r.z,
        r.iterations,
        r.status,
        options.tolerance,
    ))
}

/// Enumerates the bound patterns of the boxed problem `p`, coupled friction rows
/// included (three states each, see [`super::pattern`]).
pub fn solve_boxed(p: &BoxedLcp, options: &Options) -> Result<Report, SolveError> {
    options.validate(p.n())?;
    let coupled = super::sor::coupling_table(p);
    let count = (0..p.n()).try_fold(1u64, |acc, i| {
        acc.checked_mul(states(p, &coupled, i).len() as u64)
    });
    check_size(p.n(), count)?;
    Ok(enumerate_patterns(p, options))
}

fn enumerate_patterns(p: &BoxedLcp, options: &Options) -> Report {
    let n = p.n();
    let tol = options.tolerance;
    let coupled = super::sor::coupling_table(p);
    let choices: Vec<Vec<Set>> = (0..n).map(|i| states(p, &coupled, i)).collect();
    let mut digit = vec![0usize; n];
    let mut sets: Vec<Set> = choices.iter().map(|c| c[0]).collect();
    let pivot_tol = 1e-13 * p.scale();
    let mut tried = 0;
    let mut skipped = false;
    let mut best: Option<Report> = None;
    let mut lambda = vec![0.0; n];
    let zeros = vec![0.0; n];
    loop {
        tried += 1;
        let outcome = solve_pattern(
            p,
            None,
            &coupled,
            &sets,
            0.0,
            &zeros,
            pivot_tol,
            true,
            &mut lambda,
        );
        // A singular block's point is one of many: failing it excludes nothing.
        skipped |= outcome != Outcome::Regular;
        if outcome != Outcome::Failed {
            let r = Report::for_boxed(p, lambda.clone(), tried, Status::Solved, tol);
            if r.is_solved() {
                return r;
            }
            if best.as_ref().is_none_or(|b| r.residual < b.residual) {
                best = Some(r);
            }
        }
        // Next pattern (mixed-radix counter).
        let mut k = 0;
        loop {
            if k == n {
                let status = if skipped {
                    Status::Singular
                } else {
                    Status::NoSolution
                };
                let z = best.map_or_else(|| vec![0.0; n], |b| b.z);
                return Report::for_boxed(p, z, tried, status, tol);
            }
            digit[k] += 1;
            if digit[k] < choices[k].len() {
                sets[k] = choices[k][digit[k]];
                break;
            }
            digit[k] = 0;
            sets[k] = choices[k][0];
            k += 1;
        }
    }
}
