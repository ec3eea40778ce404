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
//! Patterns whose block `A_FF` is numerically singular are skipped. If no pattern
//! solves, the status is [`Status::NoSolution`] when no pattern was skipped (a proof:
//! every solution lies in some pattern) and [`Status::Singular`] otherwise (a solution
//! on a singular pattern cannot be excluded). Cost `O(2ⁿ n³)` (boxed `O(3ⁿ n³)`); the
//! method refuses `n > 20` and boxed problems with more than `2²⁰` patterns.
//! Friction coupling is reached by the outer passes of [`super::coupling`].

use crate::linalg::Lu;
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

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Lo,
    Free,
    Hi,
}

fn states(lo: f64, hi: f64) -> Vec<State> {
    if lo == hi {
        return vec![State::Lo];
    }
    let mut s = Vec::with_capacity(3);
    if lo.is_finite() {
        s.push(State::Lo);
    }
    s.push(State::Free);
    if hi.is_finite() {
        s.push(State::Hi);
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

fn pattern_count(p: &BoxedLcp) -> Option<u64> {
    (0..p.n()).try_fold(1u64, |acc, i| acc.checked_mul(states(p.lo()[i], p.hi()[i]).len() as u64))
}

/// Enumerates the `2ⁿ` patterns of the plain LCP `p` (refuses `n > 20`).
pub fn solve_lcp(p: &Lcp, options: &Options) -> Result<Report, SolveError> {
    options.validate(p.n())?;
    check_size(p.n(), Some(1u64 << p.n().min(63)))?;
    let r = enumerate_fixed(&p.to_boxed(), options);
    Ok(Report::for_lcp(p, r.z, r.iterations, r.status, options.tolerance))
}

/// Enumerates the bound patterns of the boxed problem `p` (coupling by outer passes).
pub fn solve_boxed(p: &BoxedLcp, options: &Options) -> Result<Report, SolveError> {
    options.validate(p.n())?;
    // Coupled rows get a finite box (±μλₙ) in every pass: count them as three-state.
    let count = (0..p.n()).try_fold(1u64, |acc, i| {
        let k = if p.coupling().iter().any(|c| c.t == i) {
            3
        } else {
            states(p.lo()[i], p.hi()[i]).len() as u64
        };
        acc.checked_mul(k)
    });
    check_size(p.n(), count)?;
    super::coupling::solve_coupled(p, options, |fixed, _| {
        check_size(fixed.n(), pattern_count(fixed))?;
        Ok(enumerate_fixed(fixed, options))
    })
}

fn enumerate_fixed(p: &BoxedLcp, options: &Options) -> Report {
    let n = p.n();
    let tol = options.tolerance;
    let (a, b, lo, hi) = (p.a(), p.b(), p.lo(), p.hi());
    let choices: Vec<Vec<State>> = (0..n).map(|i| states(lo[i], hi[i])).collect();
    let mut digit = vec![0usize; n];
    let pivot_tol = 1e-13 * p.scale();
    let mut tried = 0;
    let mut skipped = false;
    let mut best: Option<Report> = None;
    let mut lambda = vec![0.0; n];
    let mut free = Vec::with_capacity(n);
    loop {
        tried += 1;
        free.clear();
        for i in 0..n {
            match choices[i][digit[i]] {
                State::Lo => lambda[i] = lo[i],
                State::Hi => lambda[i] = hi[i],
                State::Free => free.push(i),
            }
        }
        let rhs: Vec<f64> = free
            .iter()
            .map(|&i| {
                let row = a.row(i);
                let s: f64 = (0..n).filter(|j| !free.contains(j)).map(|j| row[j] * lambda[j]).sum();
                -(b[i] + s)
            })
            .collect();
        match Lu::factor_block(a, &free, 0.0, pivot_tol) {
            Some(lu) => {
                let x = lu.solve(&rhs);
                for (k, &i) in free.iter().enumerate() {
                    lambda[i] = x[k];
                }
                let r = Report::for_boxed(p, lambda.clone(), tried, Status::Solved, tol);
                if r.is_solved() {
                    return r;
                }
                if best.as_ref().is_none_or(|b| r.residual < b.residual) {
                    best = Some(r);
                }
            }
            None => skipped = true,
        }
        // Next pattern (mixed-radix counter).
        let mut k = 0;
        loop {
            if k == n {
                let status = if skipped { Status::Singular } else { Status::NoSolution };
                let z = best.map_or_else(|| vec![0.0; n], |b| b.z);
                return Report::for_boxed(p, z, tried, status, tol);
            }
            digit[k] += 1;
            if digit[k] < choices[k].len() {
                break;
            }
            digit[k] = 0;
            k += 1;
        }
    }
}
