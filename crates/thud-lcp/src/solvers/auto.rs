//! auto (being built).

use crate::problem::Problem;
use crate::report::Report;
use crate::solver::{Options, SolveError, Solver};

/// auto.
#[derive(Clone, Copy, Debug, Default)]
pub struct Auto;

impl Solver for Auto {
    fn name(&self) -> &'static str {
        "auto"
    }

    fn solve(&self, _problem: &Problem, _options: &Options) -> Result<Report, SolveError> {
        Err(SolveError::NotApplicable { method: "auto", reason: "not built yet" })
    }
}
