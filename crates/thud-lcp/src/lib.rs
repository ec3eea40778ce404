//! # thud-lcp — dense LCP and boxed-LCP solvers
//!
//! The general, dense solver library the engine's contact solver is checked against:
//! exact answers for tests, an exact step mode for small or hard islands, and a tool
//! for studying contact problems. It knows nothing of bodies or shapes.
//!
//! ## Contents
//!
//! - [`problem`]: [`Lcp`] (`z ≥ 0, w = Mz + q ≥ 0, zᵀw = 0`), [`BoxedLcp`]
//!   (`lo ≤ λ ≤ hi` with the three complementarity cases, friction coupling pairs),
//!   validating constructors with a typed [`ProblemError`]; [`Matrix`] in [`matrix`].
//! - [`solver`]: the [`Solver`] trait, [`Method`] (by command-line name), [`Options`].
//! - [`solvers`]: one file per method — `jacobi`, `pgs`, `sor`, `lemke`, `dantzig`,
//!   `dantzig_simple`, `boxed_pivot`, `kolesnikov`, `enumerate`, `auto`.
//! - [`report`]: [`Report`] `{ z, w, status, iterations, residual }` and [`Status`].
//! - [`quality`]: residual measures any caller can apply to any candidate.
//! - [`json`]: the problem/result JSON format of the `thud-lcp` binary.
//! - [`workspace`]: [`Workspace`], the buffers a caller keeps between boxed pivoting
//!   solves so that, once grown, a solve allocates nothing.
//! - [`generate`]: random instances (SPD, PSD, P-matrix, contact).
//!
//! ## Example
//!
//! ```
//! use thud_lcp::{Lcp, Method, Options, Status};
//!
//! let p = Lcp::from_rows(&[[2.0, 1.0], [1.0, 3.0]], &[-4.0, -9.0]).unwrap();
//! let r = Method::Lemke.solve(&p.into(), &Options::default()).unwrap();
//! assert_eq!(r.status, Status::Solved);
//! assert!((r.z[0] - 0.6).abs() < 1e-12 && (r.z[1] - 2.8).abs() < 1e-12);
//! ```
//!
//! ## Exact step mode (for `thud-dynamics`)
//!
//! ```
//! use thud_lcp::solvers::boxed_pivot;
//! use thud_lcp::{BoxedLcp, FrictionPair, Matrix, Options, Status};
//!
//! // One contact: normal row 0 in [0, ∞), two friction rows coupled with μ = 0.5.
//! let a = Matrix::from_row_major(3, 3, vec![2.0, 0.2, 0.1, 0.2, 1.5, 0.0, 0.1, 0.0, 1.5]).unwrap();
//! let inf = f64::INFINITY;
//! let p = BoxedLcp::new(a, vec![-1.0, 0.8, -0.1], vec![0.0, -inf, -inf], vec![inf; 3])
//!     .unwrap()
//!     .with_friction([FrictionPair { t: 1, n: 0, mu: 0.5 }, FrictionPair { t: 2, n: 0, mu: 0.5 }])
//!     .unwrap();
//! let opts = Options { warm_start: Some(vec![0.0; 3]), ..Options::default() };
//! let r = boxed_pivot::solve_boxed(&p, &opts).unwrap();
//! assert_eq!(r.status, Status::Solved);
//! assert!(r.z[1].abs() <= 0.5 * r.z[0] + 1e-12); // inside the friction box
//! ```
//!
//! The math behind every method is in its module's documentation and in
//! `docs/lcp.md`.

// Dense numerical kernels read best with explicit row/column indices (`a[i][j]`,
// `t[i * cols + j]`), as in the equations they implement.
#![allow(clippy::needless_range_loop)]

pub mod generate;
pub mod json;
mod linalg;
pub mod matrix;
pub mod problem;
pub mod quality;
pub mod report;
pub mod solver;
pub mod solvers;
pub mod workspace;

pub use matrix::Matrix;
pub use problem::{BoxedLcp, FrictionPair, Lcp, Problem, ProblemError};
pub use quality::Quality;
pub use report::{Report, Status};
pub use solver::{Method, Options, SolveError, Solver, UnknownMethod};
pub use workspace::Workspace;

/// Solves `problem` with `method`: shorthand for [`Method::solve`].
pub fn solve(problem: &Problem, method: Method, options: &Options) -> Result<Report, SolveError> {
    method.solve(problem, options)
}
