//! Problem types: the plain LCP and the boxed LCP with coupled friction bounds.
//!
//! **LCP(M, q).** Given `M ∈ ℝⁿˣⁿ`, `q ∈ ℝⁿ`, find `z` with
//!
//! ```text
//! z ≥ 0,   w = M z + q ≥ 0,   zᵀ w = 0.
//! ```
//!
//! **BLCP(A, b, lo, hi)** (reference note §2). Find `λ` with `w = A λ + b` and, per row,
//!
//! ```text
//! λ_i = lo_i         ⇒ w_i ≥ 0
//! λ_i = hi_i         ⇒ w_i ≤ 0
//! lo_i < λ_i < hi_i  ⇒ w_i = 0
//! ```
//!
//! Bounds may be `±∞` (a bilateral joint row is `(−∞, ∞)`); `lo ≤ 0 ≤ hi` is not
//! required, only `lo ≤ hi`. With `lo = 0, hi = ∞` everywhere it is `LCP(A, b)`.
//!
//! **Friction coupling** (ODE's `findex`). A pair `(t, n, μ)` says that row `t`'s
//! bounds are not the stored `lo_t, hi_t` but `±μ·max(λ_n, 0)`: a friction row takes
//! its box from the normal impulse of its contact. The bounds then depend on the
//! answer; iterative solvers refresh them at every row visit, the boxed pivoting
//! solver and enumeration link `λ_t = ±μλ_n` into their active-set patterns
//! ([`crate::solvers::pattern`]), with outer fixed-point passes
//! ([`crate::solvers::coupling`]) as the last resort. [`BoxedLcp::effective_bounds`]
//! evaluates them.
//!
//! Constructors validate everything a caller (or a JSON file) can get wrong and
//! return a [`ProblemError`] naming the offending row; nothing here panics on input.

use crate::matrix::{Matrix, norm_inf};

/// Why a problem was rejected. Row and column indices are 0-based.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ProblemError {
    /// The matrix is not square.
    #[error("matrix is {rows}×{cols}, not square")]
    NotSquare {
        /// Number of rows.
        rows: usize,
        /// Number of columns.
        cols: usize,
    },
    /// A row of a nested-rows matrix has the wrong length.
    #[error("matrix row {row} has {len} entries, expected {expected}")]
    RaggedRow {
        /// The offending row.
        row: usize,
        /// Its length.
        len: usize,
        /// The first row's length.
        expected: usize,
    },
    /// Row-major data of the wrong length.
    #[error("{len} matrix entries do not make a {rows}×{cols} matrix")]
    DataLength {
        /// Number of entries supplied.
        len: usize,
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
    },
    /// A vector's length differs from the matrix size.
    #[error("{what} has {len} entries, expected {expected}")]
    SizeMismatch {
        /// Which vector (`"q"`, `"b"`, `"lo"`, `"hi"`, `"warm start"`).
        what: &'static str,
        /// Its length.
        len: usize,
        /// The matrix size.
        expected: usize,
    },
    /// A matrix entry is NaN or infinite.
    #[error("matrix entry ({row}, {col}) is not finite ({value})")]
    NonFiniteMatrix {
        /// Row of the entry.
        row: usize,
        /// Column of the entry.
        col: usize,
        /// The value.
        value: f64,
    },
    /// A vector entry (`q` or `b`) is NaN or infinite.
    #[error("{what}[{row}] is not finite ({value})")]
    NonFiniteVector {
        /// Which vector.
        what: &'static str,
        /// The offending row.
        row: usize,
        /// The value.
        value: f64,
    },
    /// A bound is NaN (infinite bounds are allowed).
    #[error("{what}[{row}] is NaN")]
    NanBound {
        /// `"lo"` or `"hi"`.
        what: &'static str,
        /// The offending row.
        row: usize,
    },
    /// `lo > hi` in some row.
    #[error("row {row}: lower bound {lo} exceeds upper bound {hi}")]
    InvertedBounds {
        /// The offending row.
        row: usize,
        /// Its lower bound.
        lo: f64,
        /// Its upper bound.
        hi: f64,
    },
    /// A friction coupling pair is invalid.
    #[error("friction pair {pair} (row {t} ← row {n}): {reason}")]
    BadCoupling {
        /// Index of the pair in the list.
        pair: usize,
        /// Its friction row.
        t: usize,
        /// Its normal row.
        n: usize,
        /// What is wrong with it.
        reason: &'static str,
    },
}

/// A plain linear complementarity problem `LCP(M, q)`; see the module docs.
#[derive(Clone, Debug, PartialEq)]
pub struct Lcp {
    m: Matrix,
    q: Vec<f64>,
}

impl Lcp {
    /// Validates and builds `LCP(m, q)`: `m` square, `q` of matching length, all finite.
    pub fn new(m: Matrix, q: Vec<f64>) -> Result<Self, ProblemError> {
        check_matrix(&m)?;
        check_vector("q", &q, m.rows())?;
        Ok(Self { m, q })
    }

    /// Convenience constructor from nested rows.
    pub fn from_rows<R: AsRef<[f64]>>(m: &[R], q: &[f64]) -> Result<Self, ProblemError> {
        Self::new(Matrix::from_rows(m)?, q.to_vec())
    }

    /// The problem size `n`.
    #[must_use]
    pub fn n(&self) -> usize {
        self.q.len()
    }

    /// The matrix `M`.
    #[must_use]
    pub fn m(&self) -> &Matrix {
        &self.m
    }

    /// The vector `q`.
    #[must_use]
    pub fn q(&self) -> &[f64] {
        &self.q
    }

    /// `w = M z + q`. Panics if `z.len() ≠ n` (internal use; check lengths first).
    #[must_use]
    pub fn w(&self, z: &[f64]) -> Vec<f64> {
        let mut w = self.m.mul_vec(z);
        for (wi, qi) in w.iter_mut().zip(&self.q) {
            *wi += qi;
        }
        w
    }

    /// The same problem as a boxed LCP with `lo = 0`, `hi = +∞`.
    #[must_use]
    pub fn to_boxed(&self) -> BoxedLcp {
        let n = self.n();
        BoxedLcp {
            a: self.m.clone(),
            b: self.q.clone(),
            lo: vec![0.0; n],
            hi: vec![f64::INFINITY; n],
            coupling: Vec::new(),
            a_max: self.m.max_abs(),
        }
    }

    /// The scale pivot tolerances and the "solved" test are measured against:
    /// `max(‖M‖max, ‖q‖∞)`, never 0 for a nonzero problem.
    #[must_use]
    pub fn scale(&self) -> f64 {
        self.m.max_abs().max(norm_inf(&self.q))
    }
}

/// One friction coupling `(t, n, μ)`: row `t`'s bounds are `±μ·max(λ_n, 0)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrictionPair {
    /// The friction (tangent) row whose bounds are coupled.
    pub t: usize,
    /// The normal row whose impulse sets the box.
    pub n: usize,
    /// The friction coefficient `μ ≥ 0`.
    pub mu: f64,
}

impl From<(usize, usize, f64)> for FrictionPair {
    fn from((t, n, mu): (usize, usize, f64)) -> Self {
        Self { t, n, mu }
    }
}

/// A boxed LCP `BLCP(A, b, lo, hi)` with optional friction coupling; see the module docs.
#[derive(Clone, Debug, PartialEq)]
pub struct BoxedLcp {
    a: Matrix,
    b: Vec<f64>,
    lo: Vec<f64>,
    hi: Vec<f64>,
    coupling: Vec<FrictionPair>,
    /// `‖A‖max`, found once when the problem is made (`A` never changes after): the
    /// scales of the tolerances read it on every solve, and a scan of a dense `A` is
    /// most of what they cost.
    a_max: f64,
}

impl BoxedLcp {
    /// Validates and builds `BLCP(a, b, lo, hi)`: `a` square and finite, `b` finite,
    /// bounds not NaN (±∞ allowed), `lo ≤ hi` in every row.
    pub fn new(a: Matrix, b: Vec<f64>, lo: Vec<f64>, hi: Vec<f64>) -> Result<Self, ProblemError> {
        // The check and the scale in one pass; where it fails, the check says why.
        let a_max = match a.max_abs_if_finite() {
            Some(m) if a.is_square() => m,
            _ => {
                check_matrix(&a)?;
                a.max_abs()
            }
        };
        let n = a.rows();
        check_vector("b", &b, n)?;
        check_bounds(&lo, &hi, n)?;
        Ok(Self {
            a,
            b,
            lo,
            hi,
            coupling: Vec::new(),
            a_max,
        })
    }

    /// Convenience constructor from nested rows.
    pub fn from_rows<R: AsRef<[f64]>>(
        a: &[R],
        b: &[f64],
        lo: &[f64],
        hi: &[f64],
    ) -> Result<Self, ProblemError> {
        Self::new(Matrix::from_rows(a)?, b.to_vec(), lo.to_vec(), hi.to_vec())
    }

    /// Adds friction coupling pairs (replacing any previous ones). Each pair needs
    /// `t, n < size`, `t ≠ n`, `μ` finite and `≥ 0`; no row may be the friction
    /// row of two pairs, and a normal row may not itself be a coupled friction row. Row `t`'s stored `lo/hi` are then ignored.
    pub fn with_friction<P: Into<FrictionPair>>(
        mut self,
        pairs: impl IntoIterator<Item = P>,
    ) -> Result<Self, ProblemError> {
        let n = self.n();
        let pairs: Vec<FrictionPair> = pairs.into_iter().map(Into::into).collect();
        let mut seen = vec![false; n];
        for (k, p) in pairs.iter().enumerate() {
            let bad = |reason| ProblemError::BadCoupling {
                pair: k,
                t: p.t,
                n: p.n,
                reason,
            };
            if p.t >= n || p.n >= n {
                return Err(bad("row index out of range"));
            }
            if p.t == p.n {
                return Err(bad("a row cannot be coupled to itself"));
            }
            if !p.mu.is_finite() || p.mu < 0.0 {
                return Err(bad("mu must be finite and non-negative"));
            }
            if seen[p.t] {
                return Err(bad("friction row already coupled by an earlier pair"));
            }
            seen[p.t] = true;
        }
        for (k, p) in pairs.iter().enumerate() {
            if seen[p.n] {
                return Err(ProblemError::BadCoupling {
                    pair: k,
                    t: p.t,
                    n: p.n,
                    reason: "the normal row is itself a coupled friction row",
                });
            }
        }
        self.coupling = pairs;
        Ok(self)
    }

    /// The problem size `n`.
    #[must_use]
    pub fn n(&self) -> usize {
        self.b.len()
    }

    /// The matrix `A`.
    #[must_use]
    pub fn a(&self) -> &Matrix {
        &self.a
    }

    /// The vector `b`.
    #[must_use]
    pub fn b(&self) -> &[f64] {
        &self.b
    }

    /// The stored lower bounds (coupled rows use [`Self::effective_bounds`] instead).
    #[must_use]
    pub fn lo(&self) -> &[f64] {
        &self.lo
    }

    /// The stored upper bounds.
    #[must_use]
    pub fn hi(&self) -> &[f64] {
        &self.hi
    }

    /// The friction coupling pairs (empty if none).
    #[must_use]
    pub fn coupling(&self) -> &[FrictionPair] {
        &self.coupling
    }

    /// `w = A λ + b`. Panics if `lambda.len() ≠ n` (internal use).
    #[must_use]
    pub fn w(&self, lambda: &[f64]) -> Vec<f64> {
        let mut w = self.a.mul_vec(lambda);
        for (wi, bi) in w.iter_mut().zip(&self.b) {
            *wi += bi;
        }
        w
    }

    /// [`Self::w`] with `A`'s rows' nonzero runs known (the same bits).
    pub(crate) fn w_spans(&self, lambda: &[f64], spans: &crate::matrix::Spans) -> Vec<f64> {
        let mut w = Vec::new();
        self.w_into(lambda, Some(spans), &mut w);
        w
    }

    /// [`Self::w`] (with `spans`, [`Self::w_spans`]) into `w`'s buffer: the same bits.
    pub(crate) fn w_into(
        &self,
        lambda: &[f64],
        spans: Option<&crate::matrix::Spans>,
        w: &mut Vec<f64>,
    ) {
        w.clear();
        w.resize(self.n(), 0.0);
        match spans {
            Some(spans) => self.a.mul_vec_spans(lambda, spans, w),
            None => self.a.mul_vec_into(lambda, w),
        }
        for (wi, bi) in w.iter_mut().zip(&self.b) {
            *wi += bi;
        }
    }

    /// The bounds in force at `lambda`: the stored ones, with every coupled row `t`
    /// replaced by `±μ·max(λ_n, 0)`. Panics if `lambda.len() ≠ n` (internal use).
    #[must_use]
    pub fn effective_bounds(&self, lambda: &[f64]) -> (Vec<f64>, Vec<f64>) {
        let (mut lo, mut hi) = (Vec::new(), Vec::new());
        self.effective_bounds_into(lambda, &mut lo, &mut hi);
        (lo, hi)
    }

    /// [`Self::effective_bounds`] into `lo` and `hi`'s buffers.
    pub(crate) fn effective_bounds_into(
        &self,
        lambda: &[f64],
        lo: &mut Vec<f64>,
        hi: &mut Vec<f64>,
    ) {
        lo.clone_from(&self.lo);
        hi.clone_from(&self.hi);
        for p in &self.coupling {
            let h = p.mu * lambda[p.n].max(0.0);
            lo[p.t] = -h;
            hi[p.t] = h;
        }
    }

    /// Replace the bounds by `lo` and `hi` (copied into the problem's own buffers),
    /// checked as [`Self::new`] checks them: each of length `n`, no NaN, `lo ≤ hi`. On
    /// an error the problem is unchanged.
    pub fn set_bounds(&mut self, lo: &[f64], hi: &[f64]) -> Result<(), ProblemError> {
        let n = self.n();
        check_bounds(lo, hi, n)?;
        self.lo.clear();
        self.lo.extend_from_slice(lo);
        self.hi.clear();
        self.hi.extend_from_slice(hi);
        Ok(())
    }

    /// The problem's parts `(A, b, lo, hi)`, for a caller that builds its next problem
    /// in their buffers.
    #[must_use]
    pub fn into_parts(self) -> (Matrix, Vec<f64>, Vec<f64>, Vec<f64>) {
        (self.a, self.b, self.lo, self.hi)
    }

    /// The same problem with fixed bounds (coupling dropped) `lo`, `hi`; used by the
    /// outer coupling passes. The bounds must be valid (internal use).
    #[must_use]
    pub fn with_fixed_bounds(&self, lo: Vec<f64>, hi: Vec<f64>) -> Self {
        Self {
            a: self.a.clone(),
            b: self.b.clone(),
            lo,
            hi,
            coupling: Vec::new(),
            a_max: self.a_max,
        }
    }

    /// If this is a plain LCP in disguise (`lo = 0`, `hi = +∞`, no coupling), that LCP.
    #[must_use]
    pub fn as_lcp(&self) -> Option<Lcp> {
        let plain = self.coupling.is_empty()
            && self.lo.iter().all(|&l| l == 0.0)
            && self.hi.iter().all(|&h| h == f64::INFINITY);
        plain.then(|| Lcp {
            m: self.a.clone(),
            q: self.b.clone(),
        })
    }

    /// `max(‖A‖max, ‖b‖∞)`, the scale tolerances are relative to.
    #[must_use]
    pub fn scale(&self) -> f64 {
        self.a_max.max(norm_inf(&self.b))
    }

    /// `‖A‖max`.
    #[must_use]
    pub(crate) fn a_max(&self) -> f64 {
        self.a_max
    }
}

/// Either kind of problem, as read from JSON or handed to [`crate::solve`].
#[derive(Clone, Debug, PartialEq)]
pub enum Problem {
    /// A plain LCP.
    Lcp(Lcp),
    /// A boxed LCP.
    Boxed(BoxedLcp),
}

impl Problem {
    /// The problem size.
    #[must_use]
    pub fn n(&self) -> usize {
        match self {
            Problem::Lcp(p) => p.n(),
            Problem::Boxed(p) => p.n(),
        }
    }

    /// The plain LCP, if this is one (directly or as a boxed problem with `lo = 0, hi = ∞`).
    #[must_use]
    pub fn as_lcp(&self) -> Option<Lcp> {
        match self {
            Problem::Lcp(p) => Some(p.clone()),
            Problem::Boxed(p) => p.as_lcp(),
        }
    }

    /// The problem as a boxed LCP (plain LCPs get `lo = 0, hi = ∞`).
    #[must_use]
    pub fn to_boxed(&self) -> BoxedLcp {
        match self {
            Problem::Lcp(p) => p.to_boxed(),
            Problem::Boxed(p) => p.clone(),
        }
    }
}

impl From<Lcp> for Problem {
    fn from(p: Lcp) -> Self {
        Problem::Lcp(p)
    }
}

impl From<BoxedLcp> for Problem {
    fn from(p: BoxedLcp) -> Self {
        Problem::Boxed(p)
    }
}

fn check_matrix(m: &Matrix) -> Result<(), ProblemError> {
    if !m.is_square() {
        return Err(ProblemError::NotSquare {
            rows: m.rows(),
            cols: m.cols(),
        });
    }
    let n = m.cols().max(1);
    if let Some(k) = m.as_slice().iter().position(|v| !v.is_finite()) {
        return Err(ProblemError::NonFiniteMatrix {
            row: k / n,
            col: k % n,
            value: m.as_slice()[k],
        });
    }
    Ok(())
}

/// Bounds of `n` rows: each of length `n`, no NaN (±∞ allowed), `lo ≤ hi` in every
/// row.
fn check_bounds(lo: &[f64], hi: &[f64], n: usize) -> Result<(), ProblemError> {
    for (what, v) in [("lo", lo), ("hi", hi)] {
        if v.len() != n {
            return Err(ProblemError::SizeMismatch {
                what,
                len: v.len(),
                expected: n,
            });
        }
        if let Some(row) = v.iter().position(|x| x.is_nan()) {
            return Err(ProblemError::NanBound { what, row });
        }
    }
    if let Some(row) = (0..n).find(|&i| lo[i] > hi[i]) {
        return Err(ProblemError::InvertedBounds {
            row,
            lo: lo[row],
            hi: hi[row],
        });
    }
    Ok(())
}

fn check_vector(what: &'static str, v: &[f64], n: usize) -> Result<(), ProblemError> {
    if v.len() != n {
        return Err(ProblemError::SizeMismatch {
            what,
            len: v.len(),
            expected: n,
        });
    }
    if let Some(row) = v.iter().position(|x| !x.is_finite()) {
        return Err(ProblemError::NonFiniteVector {
            what,
            row,
            value: v[row],
        });
    }
    Ok(())
}
