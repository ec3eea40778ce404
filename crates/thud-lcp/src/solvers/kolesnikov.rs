//! kolesnikov (being built).

use crate::problem::Problem;
use crate::report::Report;
use crate::solver::{Options, SolveError, Solver};

/// kolesnikov.
#[derive(Clone, Copy, Debug, Default)]
pub struct Kolesnikov;

impl Solver for Kolesnikov {
    fn name(&self) -> &'static str {
        "kolesnikov"
    }

    fn solve(&self, _problem: &Problem, _options: &Options) -> Result<Report, SolveError> {
        Err(SolveError::NotApplicable { method: "kolesnikov", reason: "not built yet" })
    }
}
