//! enumerate (being built).

use crate::problem::Problem;
use crate::report::Report;
use crate::solver::{Options, SolveError, Solver};

/// enumerate.
#[derive(Clone, Copy, Debug, Default)]
pub struct Enumerate;

impl Solver for Enumerate {
    fn name(&self) -> &'static str {
        "enumerate"
    }

    fn solve(&self, _problem: &Problem, _options: &Options) -> Result<Report, SolveError> {
        Err(SolveError::NotApplicable { method: "enumerate", reason: "not built yet" })
    }
}
