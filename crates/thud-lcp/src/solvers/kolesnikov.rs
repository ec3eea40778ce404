//! Kolesnikov–Rakovskaya energy-criterion stepping (reference note §5, `seeds/001_…`).
//!
//! A principal pivoting method whose pivot rule comes from an energy argument: on the
//! complementary tableau `x_B = c + T x_N`, activating the single variable of row `i`
//! (when `c_i < 0`) lowers the energy `½ zᵀMz + qᵀz` by `c_i² / (2 T_ii)` — the paper
//! writes the change as `−c_i²/(4 M_ii)` in its scaling; the ordering is the same. Each
//! step therefore
//!
//! 1. among rows with `c_i < 0` and `T_ii > 0` picks the one maximizing `c_i² / T_ii`,
//! 2. makes one Jordan exchange on the diagonal element `T_ii` (swapping `z_i`, `w_i`),
//!
//! until every `c ≥ 0`; then the basic variables read off the solution. The paper
//! solves its example 1 in one step (Lemke needs two) and its example 2 — reference
//! example 3, on which plain Lemke cycles — in a few.
//!
//! Convergence is not proven in general, so the solver remembers every basis it has
//! visited and reports [`Status::Cycling`](crate::Status::Cycling) on a repeat; it reports
//! [`Status::NoSolution`](crate::Status::NoSolution) only with a proof (a negative row with no positive entry)
//! and [`Status::Singular`](crate::Status::Singular) when no usable diagonal pivot remains. Cost `n²` per step.

use super::dantzig_simple::{Rule, principal_pivoting};
use crate::problem::{Lcp, Problem};
use crate::report::Report;
use crate::solver::{Options, SolveError, Solver};

/// Energy-criterion stepping (plain LCPs only).
#[derive(Clone, Copy, Debug, Default)]
pub struct Kolesnikov;

impl Solver for Kolesnikov {
    fn name(&self) -> &'static str {
        "kolesnikov"
    }

    fn solve(&self, problem: &Problem, options: &Options) -> Result<Report, SolveError> {
        match problem.as_lcp() {
            Some(p) => solve_lcp(&p, options),
            None => Err(SolveError::NotApplicable {
                method: "kolesnikov",
                reason: "boxed problems need boxed-pivot, the iterative methods or enumerate",
            }),
        }
    }
}

/// Runs energy-criterion stepping on `p`.
pub fn solve_lcp(p: &Lcp, options: &Options) -> Result<Report, SolveError> {
    principal_pivoting(p, options, Rule::Energy, false)
}
