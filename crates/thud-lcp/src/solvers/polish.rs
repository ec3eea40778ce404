//! One refinement step for a pivoting answer that failed the residual test.
//!
//! A pivoting method ends with a complementary pattern: the support `F = {i : z_i > 0}`
//! and `w_F = 0`. Long pivot sequences accumulate rounding in the tableau, so the
//! final `z` may miss the tolerance even though the pattern is right. Re-solving
//! `M_FF z_F = −q_F` from the original data (LU with partial pivoting) recovers full
//! accuracy; the polished answer is kept only if its residual is smaller.

use crate::linalg::Lu;
use crate::problem::Lcp;
use crate::report::{Report, Status};

/// Re-solves on the support of `report.z` if the report was downgraded from a claimed
/// `Solved` to `Singular` by the residual check; otherwise returns it unchanged.
pub(crate) fn polish_lcp(p: &Lcp, report: Report, tol: f64) -> Report {
    if report.status != Status::Singular {
        return report;
    }
    let free: Vec<usize> = (0..p.n()).filter(|&i| report.z[i] > 0.0).collect();
    let Some(lu) = Lu::factor_block(p.m(), &free, 0.0, 1e-14 * p.scale()) else {
        return report;
    };
    let rhs: Vec<f64> = free.iter().map(|&i| -p.q()[i]).collect();
    let x = lu.solve(&rhs);
    let mut z = vec![0.0; p.n()];
    for (k, &i) in free.iter().enumerate() {
        z[i] = x[k].max(0.0);
    }
    let polished = Report::for_lcp(p, z, report.iterations, Status::Solved, tol);
    if polished.residual < report.residual {
        polished
    } else {
        report
    }
}
