//! Lemke's complementary pivoting with a lexicographic ratio test.
//!
//! Augment the problem with an artificial variable `z₀ ≥ 0` and a covering vector
//! `d > 0` (default all ones, [`Options::covering`]):
//!
//! ```text
//! w = M z + q + d z₀.
//! ```
//!
//! With `z = 0` and `z₀ = max_i(−q_i/d_i)` every `w ≥ 0`: an *almost complementary*
//! basic solution where the row attaining the maximum has `w_r = 0` and left the basis.
//! Then repeat: the **entering** variable is the complement of the one that just left;
//! the **ratio test** picks the basic variable that hits zero first as it grows;
//! exchange them. Stop when `z₀` leaves (a solution of the original LCP) or when the
//! entering column never blocks (a **secondary ray**, reported as
//! [`Status::NoSolution`]; for copositive-plus `M` — PSD included — this proves the
//! LCP infeasible, for other matrices it only says Lemke found nothing).
//!
//! **Anti-cycling.** Degenerate problems (ties in the ratio test) can make naive
//! Lemke cycle; reference example 3, `M = [[1,2,0],[0,1,2],[2,0,1]]`, `q = −1`, ties
//! at the very first step. Ties are broken lexicographically: among the tied rows,
//! pick the one minimizing `(B⁻¹)_{i·} / col_i` lexicographically, which keeps every
//! row of `[β, B⁻¹]` lexicographically positive and so never revisits a basis. If
//! `z₀`'s row is among the tied rows it leaves at once (termination). The initial
//! pivot breaks ties by the largest index, which keeps the rows lexico-positive.
//!
//! **Cost.** `O(n²)` per pivot (one Jordan exchange over the `n × (n+1)` condensed
//! tableau, [`super::tableau`]); typically `O(n)` pivots on contact-like problems,
//! exponential in the worst case. Pivot tolerances are relative to the entering
//! column's magnitude.

use super::tableau::{Pos, Tableau};
use crate::problem::{Lcp, Problem};
use crate::report::{Report, Status};
use crate::solver::{Options, SolveError, Solver};

/// Lemke's method (applies to plain LCPs only).
#[derive(Clone, Copy, Debug, Default)]
pub struct Lemke;

impl Solver for Lemke {
    fn name(&self) -> &'static str {
        "lemke"
    }

    fn solve(&self, problem: &Problem, options: &Options) -> Result<Report, SolveError> {
        match problem.as_lcp() {
            Some(p) => solve_lcp(&p, options),
            None => Err(SolveError::NotApplicable {
                method: "lemke",
                reason: "boxed problems need boxed-pivot, the iterative methods or enumerate",
            }),
        }
    }
}

/// Runs Lemke's method on `p`.
pub fn solve_lcp(p: &Lcp, options: &Options) -> Result<Report, SolveError> {
    let n = p.n();
    options.validate(n)?;
    let tol = options.tolerance;
    let q = p.q();
    if q.iter().all(|&v| v >= 0.0) {
        return Ok(Report::for_lcp(p, vec![0.0; n], 0, Status::Solved, tol));
    }
    let ones = vec![1.0; n];
    let d = options.covering.as_deref().unwrap_or(&ones);
    let mut tab = Tableau::new(p.m(), q, Some(d));
    let z0 = 2 * n;
    let limit = options.pivot_limit(n);

    // Initial pivot: z₀ enters at max(−q_i/d_i); ties → the largest index.
    let mut r = 0;
    let mut best = f64::NEG_INFINITY;
    for i in 0..n {
        let v = -q[i] / d[i];
        if v >= best {
            (r, best) = (i, v);
        }
    }
    tab.exchange(r, n);
    let mut pivots = 1;
    let mut entering = tab.complement(tab.col_var[n]);

    loop {
        if pivots >= limit {
            let z = tab.z();
            return Ok(Report::for_lcp(p, z, pivots, Status::IterationLimit, tol));
        }
        let Pos::Col(s) = tab.pos[entering] else {
            // The complement of a nonbasic variable is always basic: cannot happen.
            return Ok(Report::for_lcp(p, tab.z(), pivots, Status::Singular, tol));
        };
        let Some(row) = ratio_test(&tab, s, z0) else {
            return Ok(Report::for_lcp(p, tab.z(), pivots, Status::NoSolution, tol));
        };
        tab.exchange(row, s);
        pivots += 1;
        let leaving = tab.col_var[s];
        if leaving == z0 {
            let z = tab.z();
            let report = Report::for_lcp(p, z, pivots, Status::Solved, tol);
            return Ok(super::polish::polish_lcp(p, report, tol));
        }
        entering = tab.complement(leaving);
    }
}

/// The leaving row for entering column `s`, lexicographic among ties; `None` on a ray.
fn ratio_test(tab: &Tableau, s: usize, z0: usize) -> Option<usize> {
    let n = tab.n;
    // x_B = c + T_{·s}·t: rows with T_is < 0 block, at t = c_i / (−T_is).
    let cmax = (0..n).fold(0.0f64, |m, i| m.max(tab.at(i, s).abs()));
    let ptol = 1e-11 * cmax;
    if cmax == 0.0 {
        return None;
    }
    let mut ties: Vec<usize> = Vec::new();
    let mut theta = f64::INFINITY;
    let cscale = (0..n).fold(0.0f64, |m, i| m.max(tab.c[i].abs()));
    let tie_tol = 1e-12 * cscale.max(f64::MIN_POSITIVE);
    for i in 0..n {
        let a = -tab.at(i, s);
        if a <= ptol {
            continue;
        }
        let ratio = tab.c[i].max(0.0) / a;
        if ratio < theta - tie_tol / a {
            theta = ratio;
            ties.clear();
            ties.push(i);
        } else if ratio <= theta + tie_tol / a {
            ties.push(i);
        }
    }
    if ties.is_empty() {
        return None;
    }
    // The tolerance window can admit rows slightly above the true minimum found later.
    ties.retain(|&i| tab.c[i].max(0.0) / -tab.at(i, s) <= theta + tie_tol / -tab.at(i, s));
    if ties.len() == 1 {
        return Some(ties[0]);
    }
    if let Some(&i) = ties.iter().find(|&&i| tab.row_var[i] == z0) {
        return Some(i);
    }
    // Lexicographic: minimize (B⁻¹)_{i,j} / a_i column by column.
    for j in 0..n {
        let vals: Vec<f64> = ties
            .iter()
            .map(|&i| tab.binv(i, j) / -tab.at(i, s))
            .collect();
        let vmin = vals.iter().copied().fold(f64::INFINITY, f64::min);
        let vtol = 1e-12
            * vals
                .iter()
                .fold(0.0f64, |m, v| m.max(v.abs()))
                .max(f64::MIN_POSITIVE);
        let kept: Vec<usize> = ties
            .iter()
            .zip(&vals)
            .filter(|&(_, &v)| v <= vmin + vtol)
            .map(|(&i, _)| i)
            .collect();
        ties = kept;
        if ties.len() == 1 {
            break;
        }
    }
    ties.first().copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn degenerate_example_three() {
        let p = Lcp::from_rows(
            &[[1.0, 2.0, 0.0], [0.0, 1.0, 2.0], [2.0, 0.0, 1.0]],
            &[-1.0; 3],
        )
        .unwrap();
        let r = solve_lcp(&p, &Options::default()).unwrap();
        assert_eq!(r.status, Status::Solved, "{r:?}");
        for z in &r.z {
            assert!((z - 1.0 / 3.0).abs() < 1e-12);
        }
    }

    #[test]
    fn ray_is_no_solution() {
        // w = −z − 1 can never be ≥ 0 with z ≥ 0.
        let p = Lcp::from_rows(&[[-1.0]], &[-1.0]).unwrap();
        assert_eq!(
            solve_lcp(&p, &Options::default()).unwrap().status,
            Status::NoSolution
        );
    }
}
