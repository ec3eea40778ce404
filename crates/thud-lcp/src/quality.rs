//! Quality measures any caller can apply to any candidate answer.
//!
//! For `LCP(M, q)` and a candidate `z` with `w = Mz + q`:
//!
//! - the **natural-map residual** `‖min(z, w)‖∞` — zero exactly at a solution, and the
//!   measure every solver's "solved" test uses;
//! - the **complementarity** `|zᵀw|`;
//! - the **bound violation** `max(0, −zᵢ, −wᵢ)`.
//!
//! For the boxed problem, the natural map is the projection residual
//! `‖λ − clamp(λ − w, lo, hi)‖∞` (zero iff every row satisfies its case of §2 of the
//! reference note), and the violation is how far `λ` is outside its box.
//!
//! **The pass test is relative and row by row.** Row `i` of `w` is made of the terms
//! `q_i` and `M_ij z_j`; its scale is `s_i = max(|q_i|, Σ_j |M_ij z_j|)`, capped by the
//! scale of the data `S` — `‖q‖∞` for a plain LCP, `max(‖b‖∞, ‖A‖max · B)` for a
//! boxed one, `B` the largest finite stored bound ([`Lcp::data_scale`],
//! [`BoxedLcp::data_scale`]). A candidate passes when every row's residual is at most
//! `tol · min(s_i, S)` ([`row_scales`], [`passes`]).
//!
//! Why both: scaling the problem (or a row of it) by a constant changes nothing; a row
//! of zeros in `M` keeps the scale `|q_i|`, so a huge wrong `z` cannot pass by
//! inflating the scale of *other* rows; and the cap stops a huge `z` from inflating
//! its own rows — on an inconsistent singular system (no solution) a `z` of size
//! 10¹⁰ makes `Σ|M_ij z_j|` enormous while `w` stays wrong by `O(‖q‖)`, and is
//! rejected. A non-finite entry never passes.

use crate::matrix::{Matrix, norm_inf};
use crate::problem::{BoxedLcp, Lcp, ProblemError};
use crate::workspace::Checks;

/// All three plain-LCP measures of one candidate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Quality {
    /// `‖min(z, w)‖∞`.
    pub natural: f64,
    /// `|zᵀw|`.
    pub complementarity: f64,
    /// `max(0, −zᵢ, −wᵢ)`.
    pub violation: f64,
}

/// `‖min(z, w)‖∞` over the common length; `+∞` if any entry is not finite (a
/// diverged iterate never passes).
#[must_use]
pub fn natural_residual(z: &[f64], w: &[f64]) -> f64 {
    if !all_finite(z) || !all_finite(w) {
        return f64::INFINITY;
    }
    z.iter()
        .zip(w)
        .fold(0.0, |m, (a, b)| m.max(a.min(*b).abs()))
}

fn all_finite(v: &[f64]) -> bool {
    v.iter().all(|x| x.is_finite())
}

/// `|zᵀw|`.
#[must_use]
pub fn complementarity(z: &[f64], w: &[f64]) -> f64 {
    z.iter().zip(w).map(|(a, b)| a * b).sum::<f64>().abs()
}

/// `max(0, −zᵢ, −wᵢ)`.
#[must_use]
pub fn bound_violation(z: &[f64], w: &[f64]) -> f64 {
    z.iter().chain(w).fold(0.0, |m, v| m.max(-v))
}

/// Row `i`'s projection residual `λ_i − clamp(λ_i − w_i, lo_i, hi_i)`, computed by
/// cases so a huge `λ_i` cannot absorb a small `w_i` in rounding.
#[inline]
#[must_use]
pub fn boxed_row_residual(lambda: f64, w: f64, lo: f64, hi: f64) -> f64 {
    let (d_lo, d_hi) = (lambda - lo, lambda - hi);
    if w >= d_lo {
        d_lo // clamp at lo
    } else if w <= d_hi {
        d_hi // clamp at hi
    } else {
        w
    }
}

/// `‖λ − clamp(λ − w, lo, hi)‖∞` over the common length; `+∞` if any entry of `λ`
/// or `w` is not finite.
#[must_use]
pub fn boxed_residual(lambda: &[f64], w: &[f64], lo: &[f64], hi: &[f64]) -> f64 {
    if !all_finite(lambda) || !all_finite(w) {
        return f64::INFINITY;
    }
    let mut r = 0.0f64;
    for i in 0..lambda.len().min(w.len()).min(lo.len()).min(hi.len()) {
        r = r.max(boxed_row_residual(lambda[i], w[i], lo[i], hi[i]).abs());
    }
    r
}

/// The row scales `min(max(|q_i|, Σ_j |M_ij z_j|), cap)` of the pass test (`cap` is
/// the data scale, see the module docs). Panics on mismatched lengths (internal use;
/// the problem methods check).
#[must_use]
pub fn row_scales(m: &Matrix, q: &[f64], z: &[f64], cap: f64) -> Vec<f64> {
    let mut out = Vec::new();
    row_scales_into(m, q, z, cap, &mut out);
    out
}

/// [`row_scales`] into `out`'s buffer.
pub(crate) fn row_scales_into(m: &Matrix, q: &[f64], z: &[f64], cap: f64, out: &mut Vec<f64>) {
    out.clear();
    out.extend((0..q.len()).map(|i| row_scale(m.row(i), z, q[i], cap)));
}

/// One row's scale `min(max(|q_i|, Σ_j |M_ij z_j|), cap)`, from the row's entries and
/// `z` over the same columns (a row's nonzero run and its part of `z` give the same
/// number: the left-out terms are zero).
fn row_scale(row: &[f64], z: &[f64], q_i: f64, cap: f64) -> f64 {
    let s: f64 = row.iter().zip(z).map(|(a, x)| (a * x).abs()).sum();
    s.max(q_i.abs()).min(cap)
}

/// Whether every row's projection residual is at most `tol · scales[i]` (and every
/// entry is finite). With `lo = 0, hi = ∞` this is the plain LCP test.
#[must_use]
pub fn passes(tol: f64, lambda: &[f64], w: &[f64], lo: &[f64], hi: &[f64], scales: &[f64]) -> bool {
    if !all_finite(lambda) || !all_finite(w) {
        return false;
    }
    // An overflowing scale (a diverged iterate) must not make every residual pass.
    (0..lambda.len()).all(|i| {
        let mark = tol * scales[i];
        mark.is_finite() && boxed_row_residual(lambda[i], w[i], lo[i], hi[i]).abs() <= mark
    })
}

/// How far `λ` is outside `[lo, hi]`: `max(0, loᵢ − λᵢ, λᵢ − hiᵢ)`.
#[must_use]
pub fn box_violation(lambda: &[f64], lo: &[f64], hi: &[f64]) -> f64 {
    let mut v = 0.0f64;
    for i in 0..lambda.len().min(lo.len()).min(hi.len()) {
        v = v.max(lo[i] - lambda[i]).max(lambda[i] - hi[i]);
    }
    v
}

impl Lcp {
    /// The data scale `S = ‖q‖∞` that caps the row scales of the pass test.
    #[must_use]
    pub fn data_scale(&self) -> f64 {
        norm_inf(self.q())
    }

    /// The three measures of candidate `z` (length-checked).
    pub fn quality(&self, z: &[f64]) -> Result<Quality, ProblemError> {
        check_len(z, self.n())?;
        let w = self.w(z);
        Ok(Quality {
            natural: natural_residual(z, &w),
            complementarity: complementarity(z, &w),
            violation: bound_violation(z, &w),
        })
    }

    /// Whether candidate `z` passes the row-wise relative test with tolerance `tol`
    /// (length-checked; see the module docs).
    pub fn passes(&self, z: &[f64], tol: f64) -> Result<bool, ProblemError> {
        check_len(z, self.n())?;
        let w = self.w(z);
        let n = self.n();
        let scales = row_scales(self.m(), self.q(), z, self.data_scale());
        Ok(passes(
            tol,
            z,
            &w,
            &vec![0.0; n],
            &vec![f64::INFINITY; n],
            &scales,
        ))
    }

    /// `‖min(z, Mz + q)‖∞` of candidate `z` (length-checked).
    pub fn residual(&self, z: &[f64]) -> Result<f64, ProblemError> {
        Ok(self.quality(z)?.natural)
    }
}

impl BoxedLcp {
    /// The data scale `S = max(‖b‖∞, ‖A‖max · B)`, `B` the largest finite stored bound
    /// of an uncoupled row, that caps the row scales of the pass test.
    #[must_use]
    pub fn data_scale(&self) -> f64 {
        self.data_scale_in(&mut Vec::new())
    }

    /// [`Self::data_scale`] with `coupled` as its scratch of the coupled rows.
    pub(crate) fn data_scale_in(&self, coupled: &mut Vec<bool>) -> f64 {
        coupled.clear();
        coupled.resize(self.n(), false);
        for c in self.coupling() {
            coupled[c.t] = true;
        }
        let bound = (0..self.n())
            .filter(|&i| !coupled[i])
            .flat_map(|i| [self.lo()[i], self.hi()[i]])
            .filter(|v| v.is_finite())
            .fold(0.0f64, |m, v| m.max(v.abs()));
        norm_inf(self.b()).max(self.a_max() * bound)
    }

    /// `‖λ − clamp(λ − (Aλ + b), lo, hi)‖∞` of candidate `λ`, with the effective
    /// (coupled) bounds at `λ` (length-checked).
    pub fn residual(&self, lambda: &[f64]) -> Result<f64, ProblemError> {
        check_len(lambda, self.n())?;
        let w = self.w(lambda);
        let (lo, hi) = self.effective_bounds(lambda);
        Ok(boxed_residual(lambda, &w, &lo, &hi))
    }

    /// Whether candidate `λ` passes the row-wise relative test with tolerance `tol`,
    /// with the effective (coupled) bounds at `λ` (length-checked).
    pub fn passes(&self, lambda: &[f64], tol: f64) -> Result<bool, ProblemError> {
        check_len(lambda, self.n())?;
        Ok(self.passes_unchecked(lambda, tol))
    }

    /// [`Self::passes_unchecked`] with `A`'s rows' nonzero runs and the data scale
    /// ([`Self::data_scale`]) known: the same answer, without the two passes over the
    /// whole matrix.
    pub(crate) fn passes_spans(
        &self,
        lambda: &[f64],
        tol: f64,
        runs: (&crate::matrix::Spans, f64),
    ) -> bool {
        self.passes_in(lambda, tol, Some(runs), &mut Checks::default())
    }

    /// [`Self::passes_unchecked`] (with `runs`, [`Self::passes_spans`]) in the buffers
    /// of `checks`.
    pub(crate) fn passes_in(
        &self,
        lambda: &[f64],
        tol: f64,
        runs: Option<(&crate::matrix::Spans, f64)>,
        checks: &mut Checks,
    ) -> bool {
        let mut w = std::mem::take(&mut checks.w);
        self.fill_checks(lambda, runs, &mut w, checks);
        let ok = passes(tol, lambda, &w, &checks.lo, &checks.hi, &checks.scales);
        checks.w = w;
        ok
    }

    /// What the tests of candidate `lambda` read: `w = Aλ + b` into `w`, the bounds in
    /// force and the row scales into `checks` (with `runs`, from `A`'s rows' nonzero
    /// runs and the data scale: the same numbers).
    pub(crate) fn fill_checks(
        &self,
        lambda: &[f64],
        runs: Option<(&crate::matrix::Spans, f64)>,
        w: &mut Vec<f64>,
        checks: &mut Checks,
    ) {
        self.w_into(lambda, runs.map(|r| r.0), w);
        self.effective_bounds_into(lambda, &mut checks.lo, &mut checks.hi);
        match runs {
            Some(runs) => self.row_scales_spans_into(lambda, runs, &mut checks.scales),
            None => {
                let cap = self.data_scale_in(&mut checks.flags);
                row_scales_into(self.a(), self.b(), lambda, cap, &mut checks.scales);
            }
        }
    }

    /// Each row's scale ([`row_scales`]) from its nonzero run only (the same numbers),
    /// into `out`'s buffer.
    pub(crate) fn row_scales_spans_into(
        &self,
        lambda: &[f64],
        (spans, data_scale): (&crate::matrix::Spans, f64),
        out: &mut Vec<f64>,
    ) {
        let a = self.a();
        out.clear();
        out.extend((0..lambda.len()).map(|i| {
            let r = spans.of_row(i);
            row_scale(&a.row(i)[r.clone()], &lambda[r], self.b()[i], data_scale)
        }));
    }

    /// [`Self::passes`] without the length check (internal use).
    pub(crate) fn passes_unchecked(&self, lambda: &[f64], tol: f64) -> bool {
        self.passes_in(lambda, tol, None, &mut Checks::default())
    }

    /// How far `λ` is outside its effective box (length-checked).
    pub fn violation(&self, lambda: &[f64]) -> Result<f64, ProblemError> {
        check_len(lambda, self.n())?;
        let (lo, hi) = self.effective_bounds(lambda);
        Ok(box_violation(lambda, &lo, &hi))
    }
}

fn check_len(z: &[f64], n: usize) -> Result<(), ProblemError> {
    if z.len() == n {
        Ok(())
    } else {
        Err(ProblemError::SizeMismatch {
            what: "candidate",
            len: z.len(),
            expected: n,
        })
    }
}
