//! What every solver returns: the answer, its status, the work done and its residual.
//!
//! A solver's *claim* is checked before it is reported: [`Report::for_lcp`] and
//! [`Report::for_boxed`] recompute `w` from the original data and the natural-map
//! residual of the answer ([`crate::quality`]), and a claimed [`Status::Solved`] that
//! fails the row-wise relative test ([`crate::quality::passes`]) is downgraded to [`Status::Singular`] — the pivots
//! were too ill-conditioned to give an accurate answer. Conversely, an answer that
//! passes is reported `Solved` whatever the method concluded — a pivoting method may
//! stand on a solution and still take a rounding-noise negative for a pivot that
//! ends on a ray. So `Solved` means exactly: the returned `z` passes the test.

use crate::problem::{BoxedLcp, Lcp};
use crate::quality;
use crate::workspace::Checks;

/// How a solve ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The answer satisfies the complementarity conditions to the tolerance.
    Solved,
    /// The method proved (or, outside its class, reported) that no solution exists:
    /// Lemke / Dantzig–Cottle ray termination, enumeration without a feasible pattern.
    NoSolution,
    /// The iteration (or pivot) limit was reached first.
    IterationLimit,
    /// A pivoting sequence repeated a basis.
    Cycling,
    /// A pivot or linear solve was numerically singular, or the answer failed the
    /// residual test after pivoting claimed success.
    Singular,
}

impl Status {
    /// The JSON / command-line name: `solved`, `no_solution`, `iteration_limit`,
    /// `cycling`, `singular`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::NoSolution => "no_solution",
            Status::IterationLimit => "iteration_limit",
            Status::Cycling => "cycling",
            Status::Singular => "singular",
        }
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The result of one solve.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The answer `z` (for a boxed problem: `λ`).
    pub z: Vec<f64>,
    /// `w = M z + q` (boxed: `A λ + b`), recomputed from the original data.
    pub w: Vec<f64>,
    /// How the solve ended.
    pub status: Status,
    /// Sweeps for iterative methods, pivots for pivoting methods, patterns tried for
    /// enumeration, summed over outer coupling passes.
    pub iterations: usize,
    /// The natural-map residual of `z`: `‖min(z, w)‖∞` (boxed:
    /// `‖λ − clamp(λ − w, lo, hi)‖∞` with the effective bounds).
    pub residual: f64,
}

impl Report {
    /// Builds the report for a candidate `z` of `p` (see the module docs for the
    /// downgrade of an inaccurate `Solved`). Panics if `z.len() ≠ p.n()` (internal).
    #[must_use]
    pub fn for_lcp(
        p: &Lcp,
        z: Vec<f64>,
        iterations: usize,
        claimed: Status,
        tolerance: f64,
    ) -> Self {
        let w = p.w(&z);
        let residual = quality::natural_residual(&z, &w);
        let n = z.len();
        let scales = quality::row_scales(p.m(), p.q(), &z, p.data_scale());
        let ok = quality::passes(
            tolerance,
            &z,
            &w,
            &vec![0.0; n],
            &vec![f64::INFINITY; n],
            &scales,
        );
        Self::checked(z, w, iterations, claimed, residual, ok)
    }

    /// Builds the report for a candidate `λ` of the boxed problem `p`.
    #[must_use]
    pub fn for_boxed(
        p: &BoxedLcp,
        z: Vec<f64>,
        iterations: usize,
        claimed: Status,
        tolerance: f64,
    ) -> Self {
        Self::for_boxed_in(p, z, (iterations, claimed, tolerance), None)
    }

    /// [`Self::for_boxed`] with `A`'s rows' nonzero runs and the data scale known
    /// (`runs`, as the pivoting solver has them for a banded contact problem): `w` and
    /// the row scales read only the runs — the same report, without two passes over
    /// the whole matrix.
    #[must_use]
    pub(crate) fn for_boxed_in(
        p: &BoxedLcp,
        z: Vec<f64>,
        claim: (usize, Status, f64),
        runs: Option<(&crate::matrix::Spans, f64)>,
    ) -> Self {
        Self::for_boxed_with(p, z, claim, runs, (Vec::new(), &mut Checks::default()))
    }

    /// [`Self::for_boxed_in`] with `w` written into the given vector and the bounds
    /// and scales of the test into `checks`' buffers: the same report.
    pub(crate) fn for_boxed_with(
        p: &BoxedLcp,
        z: Vec<f64>,
        (iterations, claimed, tolerance): (usize, Status, f64),
        runs: Option<(&crate::matrix::Spans, f64)>,
        (mut w, checks): (Vec<f64>, &mut Checks),
    ) -> Self {
        p.fill_checks(&z, runs, &mut w, checks);
        let (lo, hi) = (&checks.lo, &checks.hi);
        let residual = quality::boxed_residual(&z, &w, lo, hi);
        let ok = quality::passes(tolerance, &z, &w, lo, hi, &checks.scales);
        Self::checked(z, w, iterations, claimed, residual, ok)
    }

    fn checked(
        z: Vec<f64>,
        w: Vec<f64>,
        iterations: usize,
        claimed: Status,
        residual: f64,
        ok: bool,
    ) -> Self {
        let status = match claimed {
            _ if ok => Status::Solved,
            Status::Solved => Status::Singular,
            s => s,
        };
        Self {
            z,
            w,
            status,
            iterations,
            residual,
        }
    }

    /// Whether the status is [`Status::Solved`].
    #[must_use]
    pub fn is_solved(&self) -> bool {
        self.status == Status::Solved
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matrix::{Matrix, Spans};

    /// A banded problem (a chain's rows couple only their neighbours) with a coupled
    /// friction row, and candidates in and out of their boxes: the report read from the
    /// rows' nonzero runs is the full one, to the bit.
    #[test]
    fn the_report_from_the_runs_is_the_full_report() {
        let n = 24;
        let mut rows = vec![vec![0.0; n]; n];
        for (i, row) in rows.iter_mut().enumerate() {
            row[i] = 4.0 + (i % 3) as f64;
            for j in [i.wrapping_sub(2), i.wrapping_sub(1), i + 1, i + 2] {
                if j < n {
                    row[j] = -0.5 + 0.1 * ((i + j) % 4) as f64;
                }
            }
        }
        let a = Matrix::from_rows(&rows).unwrap();
        let b: Vec<f64> = (0..n).map(|i| (i as f64 * 0.7).sin() - 0.3).collect();
        let lo: Vec<f64> = (0..n)
            .map(|i| if i % 3 == 0 { 0.0 } else { -1.0 })
            .collect();
        let hi = vec![f64::INFINITY; n];
        let p = BoxedLcp::new(a, b, lo, hi)
            .and_then(|p| p.with_friction([(1, 0, 0.5)]))
            .unwrap();
        let spans = Spans::of(p.a());
        for seed in 0..6 {
            let z: Vec<f64> = (0..n)
                .map(|i| ((i * 7 + seed * 13) % 11) as f64 * 0.2 - 0.6)
                .collect();
            let status = [Status::Solved, Status::Cycling][seed % 2];
            let full = Report::for_boxed(&p, z.clone(), 3, status, 1e-9);
            let runs =
                Report::for_boxed_in(&p, z, (3, status, 1e-9), Some((&spans, p.data_scale())));
            let bits = |r: &Report| {
                let v = r.z.iter().chain(&r.w).chain([&r.residual]);
                v.map(|x| x.to_bits()).collect::<Vec<_>>()
            };
            assert_eq!(bits(&runs), bits(&full), "candidate {seed}");
            assert_eq!(
                (runs.status, runs.iterations),
                (full.status, full.iterations)
            );
        }
    }
}
