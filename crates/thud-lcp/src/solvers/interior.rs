//! Primal-dual interior point for symmetric boxed problems — the sure-footed exact
//! solver for singular contact islands.
//!
//! **The problem as a minimum.** When `A` is symmetric positive semi-definite (a
//! contact island's `J M⁻¹ Jᵀ`), the boxed problem with fixed bounds is the
//! optimality condition of a convex quadratic program over a box:
//!
//! ```text
//! minimise ½ λᵀAλ + bᵀλ   subject to lo ≤ λ ≤ hi,
//! Aλ + b − z_l + z_u = 0,   (λ − lo)·z_l = 0,   (hi − λ)·z_u = 0,   z_l, z_u ≥ 0,
//! ```
//!
//! so `w = Aλ + b = z_l − z_u`: a row at its lower bound pushes (`w ≥ 0`), at its upper
//! bound pulls, and a row inside has `w = 0`. A pattern search
//! ([`super::boxed_pivot`]) guesses which rows sit on which bound; on a tall column of
//! boxes, whose four corner points per face make `A` singular in about half its
//! directions, its guesses can wander for hundreds of steps without meeting the answer.
//! An interior-point method does not guess: it follows the *central path*
//! `(λ − lo)·z_l = (hi − λ)·z_u = μ` from inside the box towards `μ = 0`, and its step
//! count hardly depends on the problem (20–40 here).
//!
//! **One step** (Mehrotra's predictor-corrector). With the slacks `s_l = λ − lo`,
//! `s_u = hi − λ` and the dual residual `r = Aλ + b − z_l + z_u`, the Newton step of the
//! perturbed conditions reduces to one symmetric positive definite system,
//!
//! ```text
//! (A + diag(z_l/s_l + z_u/s_u) + δI) Δλ = −r + c_l/s_l − c_u/s_u,
//! Δz_l = (c_l − z_l Δλ)/s_l,   Δz_u = (c_u + z_u Δλ)/s_u,
//! ```
//!
//! whose barrier diagonal makes it regular even where `A` is singular (`δ = 10⁻¹²·scale`
//! only guards rows without a bound). The predictor solves it with `c = −s·z` (aiming
//! at `μ = 0`); its progress sets the centring `σ = (μ_aff/μ)³`, and the corrector
//! solves it again, same factors, with `c = σμ − s·z − Δs_aff·Δz_aff`. The step is 99.5 %
//! of the longest that keeps slacks and multipliers positive, halved while any product
//! `s·z` would fall below 10⁻³ of their mean (an iterate far off the central path takes
//! huge, useless steps: a row in a box `[0.1, 1.04]` whose answer lies inside jumped
//! from one bound to the other for 100 steps), and a corrector cut below 0.1 gives way
//! to a plain centring step (`σ = ½`) where that goes further. The multipliers start
//! on the central path (`z = μ₀/s`, every product alike). Rows with `lo = hi` are fixed
//! and leave the system; a row's missing bound has no slack nor multiplier.
//!
//! **The answer nearest the start.** A singular problem has a whole face of answers;
//! they share `w` and, for a contact island, the velocities they give, but not how the
//! impulse is spread over a face's four corners. Left to itself the method ends near
//! the middle of that face, which can be far from where the step started: the friction
//! bounds `±μλₙ` the engine fixed from the starting normal impulses then no longer fit
//! the new ones, and a tower given such answers gained energy and fell. So the method
//! solves proximal problems `BLCP(A + εI, b − εc)` (`ε = 10⁻⁸·max(max_i A_ii, scale)`),
//! whose one answer tends, as `ε → 0`, to the answer nearest the centre `c`: first
//! about the warm start, then about the last answer, until the original problem's
//! residual test passes (one or two passes). Each pass stops at its own residual test,
//! which the weak pull along the face hardly moves, so the answer lies near that
//! nearest one rather than on it (from `(1, 0.4)` on the face `λ₀ + λ₁ = 1`: `(0.76,
//! 0.24)` for the nearest `(0.8, 0.2)`). That was enough: `tower_20` stood where the
//! unpulled answers had toppled it.
//!
//! **Where it stops.** After each step the original pass test (`‖λ − mid(lo, λ − w,
//! hi)‖` against each row's scale, as every solver's report) decides; the answer lies
//! inside its box to within that tolerance rather than on a vertex. A finish by
//! pivoting from the pattern the slacks show (the usual *crossover*) was tried and
//! dropped: on these islands the snapped pattern's block is singular and the search
//! wandered as before.
//!
//! **Cost.** One factorization of the whole block a step (banded where the rows'
//! nonzero runs are narrow, `linalg.rs`) and two triangular solves. A warm start helps
//! it little (an interior method starts inside the box whatever the last answer was),
//! so it is a fallback, not the first try. On the eleven problems of `tower_20` (240
//! rows) where the pattern search ran out of its 48 steps (2–4 ms), it passed the
//! test on nine within 21–31 steps (3.9–4.9 ms, proximal passes included), and after
//! 48 steps the other two stood at residuals of 7·10⁻⁸ and 1.3·10⁻⁴.
//!
//! **Fixed bounds only.** Friction bounds coupled to normal rows (`±μλₙ`) make the
//! problem a nonlinear complementarity problem, not a quadratic program; outer passes
//! over fixed bounds ([`super::coupling`]) settled only 12 of 60 random contact problems
//! within 1 000 factorizations, so such problems are refused, as is a matrix that is not
//! symmetric (to [`SYMMETRY`]). The engine's exact mode fixes the friction bounds from
//! the current normal answer before it solves, so its problems are all of this kind.

use crate::linalg::Lu;
use crate::matrix::Spans;
use crate::problem::{BoxedLcp, Problem};
use crate::report::{Report, Status};
use crate::solver::{Options, SolveError, Solver};

/// The interior-point method for symmetric boxed problems.
#[derive(Clone, Copy, Debug, Default)]
pub struct InteriorPoint;

impl Solver for InteriorPoint {
    fn name(&self) -> &'static str {
        "interior-point"
    }

    fn solve(&self, problem: &Problem, options: &Options) -> Result<Report, SolveError> {
        solve_interior(&problem.to_boxed(), options)
    }
}

/// How far from symmetric `A` may be, relative to its largest entry: an engine's
/// island assembled from single-precision rows is symmetric to about 10⁻⁷.
pub const SYMMETRY: f64 = 1e-6;

/// Interior-point steps when `options.max_iterations` does not say.
const DEFAULT_STEPS: usize = 100;

/// Each slack-multiplier product stays at least this fraction of their mean.
const NEIGHBOURHOOD: f64 = 1e-3;

/// Halvings of a step that would leave that neighbourhood.
const NEIGHBOURHOOD_CUTS: usize = 12;

/// A corrector step shorter than this is replaced by a centring step where that goes
/// further.
const SHORT_STEP: f64 = 0.1;

/// The fraction of the longest feasible step taken.
const STEP_FRACTION: f64 = 0.995;

/// Solves `p` by the interior-point method (see the module docs).
///
/// `options.max_iterations` caps the interior steps over all proximal passes (100
/// when unset); `options.warm_start` is the first proximal centre and shapes the
/// starting point. The report's `iterations` counts linear solves (factorizations).
///
/// # Errors
///
/// [`SolveError::NotApplicable`] when `A` is not symmetric or the problem couples
/// friction bounds to normal rows (unless the start already solves it), and the
/// option errors of [`Options::validate`].
pub fn solve_interior(p: &BoxedLcp, options: &Options) -> Result<Report, SolveError> {
    options.validate(p.n())?;
    let n = p.n();
    let tol = options.tolerance;
    // A start that already solves the problem (a warm start at rest, or `λ = 0` for
    // `b ≥ 0`) is the answer, whatever the matrix.
    let start = options.warm_start.clone().unwrap_or_else(|| vec![0.0; n]);
    let inside = (0..n).all(|i| start[i] >= p.lo()[i] && start[i] <= p.hi()[i]);
    if inside && p.passes_unchecked(&start, tol) {
        return Ok(Report::for_boxed(p, start, 0, Status::Solved, tol));
    }
    if !p.a().is_symmetric(SYMMETRY) {
        return Err(SolveError::NotApplicable {
            method: "interior-point",
            reason: "the matrix is not symmetric",
        });
    }
    if !p.coupling().is_empty() {
        return Err(SolveError::NotApplicable {
            method: "interior-point",
            reason: "friction-coupled bounds (boxed-pivot solves those)",
        });
    }
    let limit = options.max_iterations.unwrap_or(DEFAULT_STEPS);
    // (`validate` refused a non-finite warm start.)
    let mut centre = start;
    // Proximal passes: BLCP(A + εI, b − εc) has one answer, the one nearest `c` as
    // ε → 0; each pass moves `c` to it, and a fixed point solves `p` itself.
    let max_diag = p.a().diagonal().iter().fold(0.0f64, |m, d| m.max(*d));
    let eps = PROX_REL * max_diag.max(p.scale());
    let mut a = p.a().clone();
    for i in 0..n {
        a.row_mut(i)[i] += eps;
    }
    let (lo, hi) = (p.lo().to_vec(), p.hi().to_vec());
    let mut steps = 0;
    let mut last = f64::INFINITY;
    loop {
        let b = (0..n).map(|i| p.b()[i] - eps * centre[i]).collect();
        let Ok(pass) = BoxedLcp::new(a.clone(), b, lo.clone(), hi.clone()) else {
            // (Only an answer far outside any sensible range overflows here.)
            return Ok(Report::for_boxed(p, centre, steps, Status::Singular, tol));
        };
        let r = interior(&pass, &centre, tol, limit - steps);
        steps += r.iterations;
        let own = snapped(
            p,
            Report::for_boxed(p, r.z, steps, Status::Solved, tol),
            tol,
        );
        // Another pass while this one got somewhere (a pass that ends at rounding
        // level, short of its own test, may still have halved the residual).
        let progress = own.residual < 0.5 * last;
        if own.is_solved() || !progress || steps >= limit {
            let status = if own.is_solved() {
                Status::Solved
            } else {
                Status::IterationLimit
            };
            return Ok(Report { status, ..own });
        }
        last = own.residual;
        centre.clone_from(&own.z);
    }
}

/// `r` with every row within [`SNAP`] of a bound put on it, where that passes the
/// residual test better: an interior answer approaches a weakly held bound (a small
/// multiplier) only as fast as the barrier lets it, at rounding level by the end.
fn snapped(p: &BoxedLcp, r: Report, tol: f64) -> Report {
    let (lo, hi) = (p.lo(), p.hi());
    let near = |x: f64, b: f64| (x - b).abs() <= SNAP * (1.0 + b.abs());
    let z: Vec<f64> = (0..p.n())
        .map(|i| {
            let x = r.z[i];
            if lo[i].is_finite() && near(x, lo[i]) {
                lo[i]
            } else if hi[i].is_finite() && near(x, hi[i]) {
                hi[i]
            } else {
                x
            }
        })
        .collect();
    if z == r.z {
        return r;
    }
    let s = Report::for_boxed(p, z, r.iterations, Status::Solved, tol);
    if s.residual < r.residual { s } else { r }
}

/// How near a bound (relative to `1 + |bound|`) an answer is put on it.
const SNAP: f64 = 1e-9;

/// The proximal weight relative to the problem's scale (`max(max_i A_ii, scale)`):
/// small enough that one or two passes meet the tolerance, large enough to make the
/// answer unique and the one nearest the warm start.
const PROX_REL: f64 = 1e-8;

/// The interior-point method over fixed bounds (one proximal pass), at most `limit`
/// factorizations.
pub(crate) fn interior(p: &BoxedLcp, warm: &[f64], tol: f64, limit: usize) -> Report {
    let n = p.n();
    let (lo, hi) = (p.lo(), p.hi());
    let scale = p.scale();
    let spans = Spans::of(p.a());
    let runs = spans.narrow().then(|| (&spans, p.data_scale()));
    let w_of = |l: &[f64]| match runs {
        Some((s, _)) => p.w_spans(l, s),
        None => p.w(l),
    };
    // The rows that move, and each one's place among them.
    let vars: Vec<usize> = (0..n).filter(|&i| lo[i] < hi[i]).collect();
    let mut index = vec![usize::MAX; n];
    for (k, &i) in vars.iter().enumerate() {
        index[i] = k;
    }
    let (has_lo, has_hi) = (|i: usize| lo[i].is_finite(), |i: usize| hi[i].is_finite());
    let bounds = vars
        .iter()
        .map(|&i| usize::from(has_lo(i)) + usize::from(has_hi(i)))
        .sum::<usize>()
        .max(1) as f64;
    // The start: the warm answer pulled inside the box.
    let size = warm
        .iter()
        .filter(|v| v.is_finite())
        .fold(0.0f64, |m, v| m.max(v.abs()))
        .max(1e-3 * scale.max(f64::MIN_POSITIVE));
    let mut lambda: Vec<f64> = (0..n)
        .map(|i| {
            let v = if warm[i].is_finite() { warm[i] } else { 0.0 };
            match (has_lo(i), has_hi(i)) {
                _ if lo[i] == hi[i] => lo[i],
                (true, true) => {
                    let m = 0.1 * (hi[i] - lo[i]);
                    v.clamp(lo[i] + m, hi[i] - m)
                }
                (true, false) => v.max(lo[i] + 0.1 * size),
                (false, true) => v.min(hi[i] - 0.1 * size),
                (false, false) => v,
            }
        })
        .collect();
    // Multipliers on the central path from the start: every product `s·z` the same
    // `μ₀`, of the size of `w` times a slack.
    let w = w_of(&lambda);
    let w_size = w
        .iter()
        .fold(0.0f64, |m, v| m.max(v.abs()))
        .max(scale * 1e-6);
    let mu0 = w_size * size;
    let mut zl: Vec<f64> = (0..n)
        .map(|i| {
            if has_lo(i) && lo[i] < hi[i] {
                mu0 / (lambda[i] - lo[i])
            } else {
                0.0
            }
        })
        .collect();
    let mut zu: Vec<f64> = (0..n)
        .map(|i| {
            if has_hi(i) && lo[i] < hi[i] {
                mu0 / (hi[i] - lambda[i])
            } else {
                0.0
            }
        })
        .collect();
    let delta = 1e-12 * scale.max(f64::MIN_POSITIVE);
    let pivot_tol = 1e-15 * scale.max(f64::MIN_POSITIVE);

    let k = vars.len();
    let mut mat = Vec::with_capacity(k * k);
    let mut bands: Vec<(usize, usize)> = Vec::with_capacity(k);
    let mut steps = 0;
    while steps < limit {
        let w = w_of(&lambda);
        let sl = |i: usize| lambda[i] - lo[i];
        let su = |i: usize| hi[i] - lambda[i];
        let mut mu = 0.0;
        for &i in &vars {
            if has_lo(i) {
                mu += sl(i) * zl[i];
            }
            if has_hi(i) {
                mu += su(i) * zu[i];
            }
        }
        mu /= bounds;
        let passed = match runs {
            Some(runs) => p.passes_spans(&lambda, tol, runs),
            None => p.passes_unchecked(&lambda, tol),
        };
        if passed {
            return Report::for_boxed_in(p, lambda, (steps, Status::Solved, tol), runs);
        }
        // The Newton matrix over the moving rows: A's block plus the barrier diagonal.
        mat.clear();
        mat.resize(k * k, 0.0);
        bands.clear();
        for (r, &i) in vars.iter().enumerate() {
            let row = p.a().row(i);
            let run = runs.map_or(0..n, |(s, _)| s.of_row(i));
            let mut band = (r, r + 1);
            for (j, &v) in run.clone().zip(&row[run]) {
                let c = index[j];
                if c != usize::MAX {
                    mat[r * k + c] = v;
                    band = (band.0.min(c), band.1.max(c + 1));
                }
            }
            let mut d = delta;
            if has_lo(i) {
                d += zl[i] / sl(i);
            }
            if has_hi(i) {
                d += zu[i] / su(i);
            }
            mat[r * k + r] += d;
            bands.push(band);
        }
        steps += 1;
        let band_hint = runs.is_some().then_some(&bands[..]);
        let Some(lu) = Lu::factor_in(std::mem::take(&mut mat), k, pivot_tol, band_hint) else {
            break;
        };
        // Right-hand side for complementarity targets `cl`, `cu` (per row).
        let newton = |cl: &dyn Fn(usize) -> f64, cu: &dyn Fn(usize) -> f64| {
            let rhs: Vec<f64> = vars
                .iter()
                .map(|&i| {
                    let mut v = -(w[i] - zl[i] + zu[i]);
                    if has_lo(i) {
                        v += cl(i) / sl(i);
                    }
                    if has_hi(i) {
                        v -= cu(i) / su(i);
                    }
                    v
                })
                .collect();
            lu.solve(&rhs)
        };
        let dz = |dx: &[f64], cl: &dyn Fn(usize) -> f64, cu: &dyn Fn(usize) -> f64| {
            let mut dzl = vec![0.0; n];
            let mut dzu = vec![0.0; n];
            for (r, &i) in vars.iter().enumerate() {
                if has_lo(i) {
                    dzl[i] = (cl(i) - zl[i] * dx[r]) / sl(i);
                }
                if has_hi(i) {
                    dzu[i] = (cu(i) + zu[i] * dx[r]) / su(i);
                }
            }
            (dzl, dzu)
        };
        // The longest step in (0, 1] that keeps slacks and multipliers positive.
        let longest = |dx: &[f64], dzl: &[f64], dzu: &[f64]| {
            let mut a = 1.0f64;
            let mut limit_by = |x: f64, dx: f64| {
                if dx < 0.0 {
                    a = a.min(-x / dx);
                }
            };
            for (r, &i) in vars.iter().enumerate() {
                if has_lo(i) {
                    limit_by(sl(i), dx[r]);
                    limit_by(zl[i], dzl[i]);
                }
                if has_hi(i) {
                    limit_by(su(i), -dx[r]);
                    limit_by(zu[i], dzu[i]);
                }
            }
            a
        };
        // Predictor.
        let cl0 = |i: usize| -sl(i) * zl[i];
        let cu0 = |i: usize| -su(i) * zu[i];
        let dxa = newton(&cl0, &cu0);
        let (dzla, dzua) = dz(&dxa, &cl0, &cu0);
        let aa = longest(&dxa, &dzla, &dzua);
        let mut mu_aff = 0.0;
        for (r, &i) in vars.iter().enumerate() {
            if has_lo(i) {
                mu_aff += (sl(i) + aa * dxa[r]) * (zl[i] + aa * dzla[i]);
            }
            if has_hi(i) {
                mu_aff += (su(i) - aa * dxa[r]) * (zu[i] + aa * dzua[i]);
            }
        }
        mu_aff /= bounds;
        let sigma = if mu > 0.0 {
            (mu_aff / mu).clamp(0.0, 1.0).powi(3)
        } else {
            0.0
        };
        // Corrector; where the neighbourhood below cuts its step short, a plain
        // centring step instead (`σ = ½`, no second-order term).
        let step_of = |(dx, dzl, dzu): (&[f64], &[f64], &[f64])| {
            let whole = (STEP_FRACTION * longest(dx, dzl, dzu)).min(1.0);
            let mut a = whole;
            // Stay near the central path: no slack-multiplier product below a
            // fraction of the new mean (an iterate far off the path takes huge,
            // useless steps). Where no cut satisfies it (products at rounding level,
            // at the very end) the whole step is taken.
            for _ in 0..NEIGHBOURHOOD_CUTS {
                let (mut least, mut sum) = (f64::INFINITY, 0.0);
                for (r, &i) in vars.iter().enumerate() {
                    if has_lo(i) {
                        let v = (sl(i) + a * dx[r]) * (zl[i] + a * dzl[i]);
                        (least, sum) = (least.min(v), sum + v);
                    }
                    if has_hi(i) {
                        let v = (su(i) - a * dx[r]) * (zu[i] + a * dzu[i]);
                        (least, sum) = (least.min(v), sum + v);
                    }
                }
                if least >= NEIGHBOURHOOD * sum / bounds {
                    return a;
                }
                a *= 0.5;
            }
            whole
        };
        let cl1 = |i: usize| sigma * mu - sl(i) * zl[i] - dxa[index[i]] * dzla[i];
        let cu1 = |i: usize| sigma * mu - su(i) * zu[i] + dxa[index[i]] * dzua[i];
        let mut dx = newton(&cl1, &cu1);
        let (mut dzl, mut dzu) = dz(&dx, &cl1, &cu1);
        let mut a = step_of((&dx, &dzl, &dzu));
        if a < SHORT_STEP {
            let cl2 = |i: usize| 0.5 * mu - sl(i) * zl[i];
            let cu2 = |i: usize| 0.5 * mu - su(i) * zu[i];
            let centring = newton(&cl2, &cu2);
            let (l, u) = dz(&centring, &cl2, &cu2);
            let b = step_of((&centring, &l, &u));
            if b > a {
                (dx, dzl, dzu, a) = (centring, l, u, b);
            }
        }
        if a.is_nan() || a <= 0.0 || !dx.iter().all(|v| v.is_finite()) {
            break;
        }
        for (r, &i) in vars.iter().enumerate() {
            lambda[i] += a * dx[r];
            zl[i] += a * dzl[i];
            zu[i] += a * dzu[i];
        }
        mat = Vec::with_capacity(k * k);
    }
    Report::for_boxed_in(p, lambda, (steps, Status::IterationLimit, tol), runs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::contact;
    use crate::problem::Lcp;

    #[test]
    fn a_small_lcp_is_solved_exactly() {
        let p = Lcp::from_rows(&[[2.0, 1.0], [1.0, 3.0]], &[-4.0, -9.0]).unwrap();
        let r = solve_interior(&p.to_boxed(), &Options::default()).unwrap();
        assert!(r.is_solved(), "{r:?}");
        assert!((r.z[0] - 0.6).abs() < 1e-8 && (r.z[1] - 2.8).abs() < 1e-8);
    }

    #[test]
    fn rows_without_bounds_are_solved() {
        let inf = f64::INFINITY;
        let p = BoxedLcp::from_rows(
            &[[2.0, 1.0], [1.0, 3.0]],
            &[-4.0, -9.0],
            &[-inf, -inf],
            &[inf, inf],
        )
        .unwrap();
        let r = solve_interior(&p, &Options::default()).unwrap();
        assert!(r.is_solved(), "{r:?}");
        assert!(
            (r.z[0] - 0.6).abs() < 1e-8 && (r.z[1] - 2.8).abs() < 1e-8,
            "{:?}",
            r.z
        );
    }

    #[test]
    fn an_empty_problem_and_a_bad_warm_start() {
        let empty = BoxedLcp::from_rows::<[f64; 0]>(&[], &[], &[], &[]).unwrap();
        assert!(
            solve_interior(&empty, &Options::default())
                .unwrap()
                .is_solved()
        );
        let o = Options {
            warm_start: Some(vec![f64::NAN, f64::INFINITY]),
            ..Options::default()
        };
        let e = solve_interior(&redundant(), &o).unwrap_err();
        assert!(matches!(e, SolveError::BadOption { .. }), "{e:?}");
    }

    /// `A = [[1,1],[1,1]]`, `b = (−1, −1)`, `λ ≥ 0`: singular; any `λ` with
    /// `λ₀ + λ₁ = 1`, `λ ≥ 0` solves it.
    fn redundant() -> BoxedLcp {
        BoxedLcp::from_rows(
            &[[1.0, 1.0], [1.0, 1.0]],
            &[-1.0, -1.0],
            &[0.0, 0.0],
            &[f64::INFINITY; 2],
        )
        .unwrap()
    }

    #[test]
    fn redundant_rows_are_solved() {
        let p = redundant();
        let r = solve_interior(&p, &Options::default()).unwrap();
        assert!(r.is_solved(), "{r:?}");
        assert!((r.z[0] + r.z[1] - 1.0).abs() < 1e-8);
    }

    /// Of a singular problem's many answers (here the segment `λ₀ + λ₁ = 1`, `λ ≥ 0`)
    /// it returns one near the warm start's projection onto them, not the middle of
    /// the segment.
    #[test]
    fn of_many_answers_one_near_the_start() {
        let p = redundant();
        for (start, nearest) in [([0.9, 0.1], [0.9, 0.1]), ([1.0, 0.4], [0.8, 0.2])] {
            let o = Options {
                warm_start: Some(start.to_vec()),
                ..Options::default()
            };
            let r = solve_interior(&p, &o).unwrap();
            assert!(r.is_solved(), "{r:?}");
            let off = (r.z[0] - nearest[0]).hypot(r.z[1] - nearest[1]);
            assert!(off < 0.1, "from {start:?}: {:?}", r.z);
        }
    }

    #[test]
    fn rows_end_on_both_bounds_inside_and_fixed() {
        // Diagonal: each row alone, λ_i = clamp(−b_i / a_i, lo_i, hi_i); the last row
        // is fixed by lo = hi.
        let p = BoxedLcp::from_rows(
            &[
                [2.0, 0.0, 0.0, 0.0],
                [0.0, 1.0, 0.0, 0.0],
                [0.0, 0.0, 4.0, 0.0],
                [0.0, 0.0, 0.0, 1.0],
            ],
            &[-10.0, 5.0, -2.0, 3.0],
            &[-1.0, -1.0, -1.0, 0.5],
            &[3.0, 3.0, 3.0, 0.5],
        )
        .unwrap();
        let r = solve_interior(&p, &Options::default()).unwrap();
        assert!(r.is_solved(), "{r:?}");
        let want = [3.0, -1.0, 0.5, 0.5];
        for (z, w) in r.z.iter().zip(want) {
            assert!((z - w).abs() < 1e-8, "{:?}", r.z);
        }
        assert_eq!(r.z[3], 0.5, "a fixed row stays where it is fixed");
    }

    #[test]
    fn a_matrix_that_is_not_symmetric_is_refused() {
        let p = Lcp::from_rows(&[[2.0, 1.0], [0.0, 3.0]], &[-4.0, -9.0]).unwrap();
        let e = solve_interior(&p.to_boxed(), &Options::default()).unwrap_err();
        assert!(matches!(e, SolveError::NotApplicable { .. }), "{e:?}");
    }

    #[test]
    fn friction_coupled_bounds_are_refused() {
        let c = contact(12, 3);
        assert!(!c.coupling().is_empty());
        let e = solve_interior(&c, &Options::default()).unwrap_err();
        assert!(matches!(e, SolveError::NotApplicable { .. }), "{e:?}");
    }

    /// Random contact problems (symmetric PSD; friction rows in fixed boxes, as the
    /// engine's exact mode poses them): every one solved from cold, within 50
    /// factorizations, and never more than `tol` from its answer's conditions.
    #[test]
    fn fixed_bound_contact_problems_are_solved() {
        let mut most = 0;
        for seed in 0..60 {
            let c = contact(6 + 6 * (seed as usize % 10), seed);
            let n = c.n();
            let coupled = super::super::sor::coupling_table(&c);
            let (lo, hi): (Vec<f64>, Vec<f64>) = (0..n)
                .map(|i| match coupled[i] {
                    Some((_, mu)) => (-mu * 0.5, mu * 0.5),
                    None => (c.lo()[i], c.hi()[i]),
                })
                .unzip();
            let p = BoxedLcp::new(c.a().clone(), c.b().to_vec(), lo, hi).unwrap();
            let r = solve_interior(&p, &Options::default()).unwrap();
            assert!(r.is_solved(), "seed {seed}: {:?} {}", r.status, r.residual);
            assert!(p.residual(&r.z).unwrap() < 1e-6, "seed {seed}");
            most = most.max(r.iterations);
        }
        // (Measured: at most 44.)
        assert!(most <= 50, "up to {most} factorizations");
    }
}
