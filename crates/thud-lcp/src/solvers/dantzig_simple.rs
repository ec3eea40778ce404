//! dantzig-simple (being built).

use crate::problem::Problem;
use crate::report::Report;
use crate::solver::{Options, SolveError, Solver};

/// dantzig-simple.
#[derive(Clone, Copy, Debug, Default)]
pub struct DantzigSimple;

impl Solver for DantzigSimple {
    fn name(&self) -> &'static str {
        "dantzig-simple"
    }

    fn solve(&self, _problem: &Problem, _options: &Options) -> Result<Report, SolveError> {
        Err(SolveError::NotApplicable { method: "dantzig-simple", reason: "not built yet" })
    }
}
