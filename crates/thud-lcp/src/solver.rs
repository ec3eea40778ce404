//! The one interface every solver sits behind: [`Solver`], [`Method`], [`Options`].
//!
//! A solver takes a [`Problem`] (plain or boxed) and [`Options`] and returns a
//! [`Report`], or a [`SolveError`] when it cannot be applied at all (wrong problem
//! kind, too large for enumeration, bad options). Failing to *solve* an applicable
//! problem is not an error: it is a report with a status other than `Solved`.
//!
//! | method | applies to | class it is exact for |
//! |---|---|---|
//! | `jacobi`, `pgs`, `sor` | LCP and boxed (coupling refreshed per row) | convergent for SPD (Jacobi: diagonally dominant) |
//! | `lemke` | LCP | copositive-plus (PSD, P-matrices, …) |
//! | `dantzig` | LCP | PSD and P-matrices |
//! | `dantzig-simple` | LCP | P-matrices (incl. SPD) |
//! | `boxed-pivot` | LCP and boxed (coupling linked into the pattern search) | PSD (incl. singular) and P |
//! | `kolesnikov` | LCP | SPD in practice; no proof (repeat detection) |
//! | `enumerate` | LCP and boxed (coupling too), n ≤ 20 | any (exhaustive) |
//! | `auto` | both | see [`crate::solvers::auto`] |

use crate::problem::Problem;
use crate::report::Report;
use crate::solvers;

/// Solver settings shared by all methods; each method reads what it uses.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Sweep limit (iterative) or pivot limit (pivoting); `None` = the method's default
    /// (10 000 sweeps; `max(1000, 50·n)` pivots).
    pub max_iterations: Option<usize>,
    /// Relative tolerance of the row-wise residual test ([`crate::quality::passes`]).
    pub tolerance: f64,
    /// Relaxation factor for `sor` (default 1.3) and damping for `jacobi` (default 1);
    /// must lie in `(0, 2)`. `pgs` always uses 1.
    pub omega: Option<f64>,
    /// Starting point for the iterative methods and the active-set guess of
    /// `boxed-pivot` (length `n`); `None` starts from zero.
    pub warm_start: Option<Vec<f64>>,
    /// Lemke's covering vector `d > 0` (length `n`); `None` = all ones.
    pub covering: Option<Vec<f64>>,
    /// Whether `boxed-pivot` factors the free blocks of a problem whose `A` is
    /// symmetric to the bit as `L D Lᵀ` (`linalg.rs`: half the LU's work on a dense
    /// block, a quarter on a banded one) instead of by the LU with partial pivoting.
    /// The two round differently, so a degenerate problem's search may take another
    /// path; default `true`.
    pub symmetric_factors: bool,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            max_iterations: None,
            tolerance: 1e-9,
            omega: None,
            warm_start: None,
            covering: None,
            symmetric_factors: true,
        }
    }
}

impl Options {
    /// The iteration limit for an iterative method.
    #[must_use]
    pub fn sweep_limit(&self) -> usize {
        self.max_iterations.unwrap_or(10_000)
    }

    /// The pivot limit for a pivoting method on a problem of size `n`.
    #[must_use]
    pub fn pivot_limit(&self, n: usize) -> usize {
        self.max_iterations.unwrap_or_else(|| (50 * n).max(1000))
    }

    /// Checks the options against a problem of size `n`.
    pub fn validate(&self, n: usize) -> Result<(), SolveError> {
        if !(self.tolerance.is_finite() && self.tolerance >= 0.0) {
            return Err(SolveError::BadOption {
                option: "tolerance",
                reason: "must be finite and non-negative".into(),
            });
        }
        if let Some(w) = self.omega
            && !(w > 0.0 && w < 2.0)
        {
            return Err(SolveError::BadOption {
                option: "omega",
                reason: format!("{w} is not in (0, 2)"),
            });
        }
        for (option, v) in [
            ("warm_start", &self.warm_start),
            ("covering", &self.covering),
        ] {
            if let Some(v) = v {
                if v.len() != n {
                    return Err(SolveError::BadOption {
                        option,
                        reason: format!("has {} entries, the problem has {n} rows", v.len()),
                    });
                }
                if let Some(i) = v.iter().position(|x| !x.is_finite()) {
                    return Err(SolveError::BadOption {
                        option,
                        reason: format!("entry {i} is not finite"),
                    });
                }
            }
        }
        if let Some(d) = &self.covering
            && let Some(i) = d.iter().position(|&x| x <= 0.0)
        {
            return Err(SolveError::BadOption {
                option: "covering",
                reason: format!("entry {i} is not positive"),
            });
        }
        Ok(())
    }
}

/// Why a method could not be applied.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SolveError {
    /// The method does not handle this kind of problem (e.g. Lemke on a boxed problem).
    #[error("{method} does not apply: {reason}")]
    NotApplicable {
        /// The method's name.
        method: &'static str,
        /// Why.
        reason: &'static str,
    },
    /// Enumeration refuses problems this large.
    #[error("{method} refuses n = {n} (at most {max})")]
    TooLarge {
        /// The method's name.
        method: &'static str,
        /// The problem size.
        n: usize,
        /// The largest size accepted.
        max: usize,
    },
    /// An option is invalid for this problem.
    #[error("option {option}: {reason}")]
    BadOption {
        /// The option's name.
        option: &'static str,
        /// What is wrong.
        reason: String,
    },
}

/// A method of solving LCPs and boxed LCPs.
pub trait Solver {
    /// The method's command-line name.
    fn name(&self) -> &'static str;

    /// Solves `problem`, or says why the method does not apply.
    fn solve(&self, problem: &Problem, options: &Options) -> Result<Report, SolveError>;
}

/// The methods by command-line name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// Chooses by size and structure ([`crate::solvers::auto`]).
    Auto,
    /// Projected Jacobi.
    Jacobi,
    /// Projected Gauss-Seidel.
    Pgs,
    /// Projected SOR(ω).
    Sor,
    /// Lemke's complementary pivoting.
    Lemke,
    /// General Dantzig–Cottle principal pivoting.
    Dantzig,
    /// Simple principal pivoting (most negative first).
    DantzigSimple,
    /// Boxed block principal pivoting.
    BoxedPivot,
    /// Primal-dual interior point (symmetric problems with fixed bounds).
    InteriorPoint,
    /// Kolesnikov–Rakovskaya energy-criterion stepping.
    Kolesnikov,
    /// Exhaustive enumeration of complementary patterns.
    Enumerate,
}

impl Method {
    /// Every method, in the order `compare` prints them.
    pub const ALL: [Method; 11] = [
        Method::Auto,
        Method::Jacobi,
        Method::Pgs,
        Method::Sor,
        Method::Lemke,
        Method::Dantzig,
        Method::DantzigSimple,
        Method::BoxedPivot,
        Method::InteriorPoint,
        Method::Kolesnikov,
        Method::Enumerate,
    ];

    /// The command-line name.
    #[must_use]
    pub fn name(self) -> &'static str {
        self.solver().name()
    }

    /// The solver implementing this method.
    #[must_use]
    pub fn solver(self) -> &'static dyn Solver {
        match self {
            Method::Auto => &solvers::auto::Auto,
            Method::Jacobi => &solvers::jacobi::Jacobi,
            Method::Pgs => &solvers::pgs::Pgs,
            Method::Sor => &solvers::sor::Sor,
            Method::Lemke => &solvers::lemke::Lemke,
            Method::Dantzig => &solvers::dantzig::Dantzig,
            Method::DantzigSimple => &solvers::dantzig_simple::DantzigSimple,
            Method::BoxedPivot => &solvers::boxed_pivot::BoxedPivot,
            Method::InteriorPoint => &solvers::interior::InteriorPoint,
            Method::Kolesnikov => &solvers::kolesnikov::Kolesnikov,
            Method::Enumerate => &solvers::enumerate::Enumerate,
        }
    }

    /// Solves `problem` with this method.
    pub fn solve(self, problem: &Problem, options: &Options) -> Result<Report, SolveError> {
        options.validate(problem.n())?;
        self.solver().solve(problem, options)
    }
}

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The name given to [`Method::from_str`](std::str::FromStr::from_str) is not a method.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown method {0:?} (expected one of auto, jacobi, pgs, sor, lemke, dantzig, dantzig-simple, boxed-pivot, interior-point, kolesnikov, enumerate)"
)]
pub struct UnknownMethod(pub String);

impl std::str::FromStr for Method {
    type Err = UnknownMethod;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Method::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| UnknownMethod(s.to_string()))
    }
}
