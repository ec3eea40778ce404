//! dantzig (being built).

use crate::problem::Problem;
use crate::report::Report;
use crate::solver::{Options, SolveError, Solver};

/// dantzig.
#[derive(Clone, Copy, Debug, Default)]
pub struct Dantzig;

impl Solver for Dantzig {
    fn name(&self) -> &'static str {
        "dantzig"
    }

    fn solve(&self, _problem: &Problem, _options: &Options) -> Result<Report, SolveError> {
        Err(SolveError::NotApplicable { method: "dantzig", reason: "not built yet" })
    }
}
