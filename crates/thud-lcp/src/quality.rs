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
//! **Scale.** Tolerances are relative: a residual passes when it is at most
//! `tol · max(‖q‖∞, ‖w − q‖∞)`, the size of the terms that make up `w`
//! ([`threshold`]). Multiplying the whole problem by a constant does not change
//! which answers pass.

use crate::matrix::norm_inf;
use crate::problem::{BoxedLcp, Lcp, ProblemError};

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

/// `‖λ − clamp(λ − w, lo, hi)‖∞` over the common length; `+∞` if any entry of `λ`
/// or `w` is not finite.
#[must_use]
pub fn boxed_residual(lambda: &[f64], w: &[f64], lo: &[f64], hi: &[f64]) -> f64 {
    if !all_finite(lambda) || !all_finite(w) {
        return f64::INFINITY;
    }
    let mut r = 0.0f64;
    for i in 0..lambda.len().min(w.len()).min(lo.len()).min(hi.len()) {
        let p = (lambda[i] - w[i]).max(lo[i]).min(hi[i]);
        r = r.max((lambda[i] - p).abs());
    }
    r
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

/// The pass mark for a residual: `tol · max(‖q‖∞, ‖w − q‖∞)` (`q` is `b` for a boxed
/// problem, `w − q` is `Mz`). Zero for the all-zero problem, where only an exact
/// answer passes, and for a non-finite `w`, which never passes.
#[must_use]
pub fn threshold(tol: f64, q: &[f64], w: &[f64]) -> f64 {
    let mz = q
        .iter()
        .zip(w)
        .fold(0.0f64, |m, (qi, wi)| m.max((wi - qi).abs()));
    let t = tol * norm_inf(q).max(mz);
    // A non-finite `w` (a diverged iterate) must never pass: its mark is 0.
    if t.is_finite() && all_finite(w) {
        t
    } else {
        0.0
    }
}

impl Lcp {
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

    /// `‖min(z, Mz + q)‖∞` of candidate `z` (length-checked).
    pub fn residual(&self, z: &[f64]) -> Result<f64, ProblemError> {
        Ok(self.quality(z)?.natural)
    }
}

impl BoxedLcp {
    /// `‖λ − clamp(λ − (Aλ + b), lo, hi)‖∞` of candidate `λ`, with the effective
    /// (coupled) bounds at `λ` (length-checked).
    pub fn residual(&self, lambda: &[f64]) -> Result<f64, ProblemError> {
        check_len(lambda, self.n())?;
        let w = self.w(lambda);
        let (lo, hi) = self.effective_bounds(lambda);
        Ok(boxed_residual(lambda, &w, &lo, &hi))
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
