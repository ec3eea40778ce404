//! A dense, row-major `f64` matrix — the only matrix type of this crate.
//!
//! Contact problems handed to the exact solvers are small (tens to a few hundred
//! rows) and dense after `A = J M⁻¹ Jᵀ` has been formed, so a plain `Vec<f64>` in
//! row-major order is the right representation: row `i` is the contiguous slice
//! `data[i·cols .. (i+1)·cols]`, which is exactly what a Gauss-Seidel row visit
//! (`w_i = A_i·λ + b_i`) and a tableau row operation read.
//!
//! Construction validates shape (`from_rows` rejects ragged input, naming the row);
//! finiteness is checked by the problem constructors in [`crate::problem`], which
//! know what the matrix means.

use crate::problem::ProblemError;

/// A dense row-major matrix of `f64`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Matrix {
    rows: usize,
    cols: usize,
    data: Vec<f64>,
}

impl Matrix {
    /// The `rows × cols` zero matrix.
    #[must_use]
    pub fn zeros(rows: usize, cols: usize) -> Self {
        Self {
            rows,
            cols,
            data: vec![0.0; rows * cols],
        }
    }

    /// Make this a `rows × cols` zero matrix in its own buffer (grown only where it is
    /// too small).
    pub fn reset_zeros(&mut self, rows: usize, cols: usize) {
        self.rows = rows;
        self.cols = cols;
        self.data.clear();
        self.data.resize(rows * cols, 0.0);
    }

    /// The `n × n` identity.
    #[must_use]
    pub fn identity(n: usize) -> Self {
        let mut m = Self::zeros(n, n);
        for i in 0..n {
            m.data[i * n + i] = 1.0;
        }
        m
    }

    /// Builds a matrix from row-major data; `data.len()` must be `rows · cols`.
    pub fn from_row_major(rows: usize, cols: usize, data: Vec<f64>) -> Result<Self, ProblemError> {
        if rows.checked_mul(cols) != Some(data.len()) {
            return Err(ProblemError::DataLength {
                len: data.len(),
                rows,
                cols,
            });
        }
        Ok(Self { rows, cols, data })
    }

    /// Builds a matrix from a list of rows; every row must have the first row's length.
    pub fn from_rows<R: AsRef<[f64]>>(rows: &[R]) -> Result<Self, ProblemError> {
        let cols = rows.first().map_or(0, |r| r.as_ref().len());
        let mut data = Vec::with_capacity(rows.len() * cols);
        for (i, r) in rows.iter().enumerate() {
            let r = r.as_ref();
            if r.len() != cols {
                return Err(ProblemError::RaggedRow {
                    row: i,
                    len: r.len(),
                    expected: cols,
                });
            }
            data.extend_from_slice(r);
        }
        Ok(Self {
            rows: rows.len(),
            cols,
            data,
        })
    }

    /// Number of rows.
    #[must_use]
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    #[must_use]
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Whether the matrix is square.
    #[must_use]
    pub fn is_square(&self) -> bool {
        self.rows == self.cols
    }

    /// The entry at `(i, j)`, or `None` out of range.
    #[must_use]
    pub fn get(&self, i: usize, j: usize) -> Option<f64> {
        if i < self.rows && j < self.cols {
            Some(self.data[i * self.cols + j])
        } else {
            None
        }
    }

    /// Row `i` as a slice. Panics if `i ≥ rows` (an internal index, never user data).
    #[must_use]
    pub fn row(&self, i: usize) -> &[f64] {
        &self.data[i * self.cols..(i + 1) * self.cols]
    }

    /// Row `i` as a mutable slice. Panics if `i ≥ rows`.
    pub fn row_mut(&mut self, i: usize) -> &mut [f64] {
        &mut self.data[i * self.cols..(i + 1) * self.cols]
    }

    /// All entries in row-major order.
    #[must_use]
    pub fn as_slice(&self) -> &[f64] {
        &self.data
    }

    /// The rows as nested vectors (for JSON output and tests).
    #[must_use]
    pub fn to_rows(&self) -> Vec<Vec<f64>> {
        (0..self.rows).map(|i| self.row(i).to_vec()).collect()
    }

    /// The diagonal (length `min(rows, cols)`).
    #[must_use]
    pub fn diagonal(&self) -> Vec<f64> {
        (0..self.rows.min(self.cols))
            .map(|i| self.data[i * self.cols + i])
            .collect()
    }

    /// The largest absolute entry (0 for an empty matrix).
    #[must_use]
    pub fn max_abs(&self) -> f64 {
        // Eight running maxima (one chain of `max` a matrix long was the cost of the
        // exact solves' scale tests); `max` is exact and ignores NaN in any order, so
        // the same answer as one fold.
        let mut m = [0.0f64; 8];
        let mut chunks = self.data.chunks_exact(8);
        for c in &mut chunks {
            for k in 0..8 {
                m[k] = m[k].max(c[k].abs());
            }
        }
        let rest = chunks
            .remainder()
            .iter()
            .fold(0.0f64, |a, v| a.max(v.abs()));
        m.iter().fold(rest, |a, &v| a.max(v))
    }

    /// [`max_abs`](Self::max_abs) where every entry is finite (`None` otherwise), in
    /// one pass: a problem's check and its scale together.
    #[must_use]
    pub(crate) fn max_abs_if_finite(&self) -> Option<f64> {
        // (`|x| ≤ MAX` is false for an infinite or NaN `x`.)
        let (mut m, mut ok) = ([0.0f64; 8], [true; 8]);
        let mut chunks = self.data.chunks_exact(8);
        for c in &mut chunks {
            for k in 0..8 {
                m[k] = m[k].max(c[k].abs());
                ok[k] &= c[k].abs() <= f64::MAX;
            }
        }
        let rest = chunks.remainder();
        let finite = ok.iter().all(|&v| v) && rest.iter().all(|v| v.is_finite());
        let rest = rest.iter().fold(0.0f64, |a, v| a.max(v.abs()));
        finite.then(|| m.iter().fold(rest, |a, &v| a.max(v)))
    }

    /// `out = self · x`. Panics on mismatched lengths (internal use).
    pub fn mul_vec_into(&self, x: &[f64], out: &mut [f64]) {
        assert_eq!(x.len(), self.cols);
        assert_eq!(out.len(), self.rows);
        for (i, o) in out.iter_mut().enumerate() {
            *o = dot(self.row(i), x);
        }
    }

    /// [`Self::mul_vec_into`] with the rows' nonzero runs known ([`Spans`]): the same
    /// bits.
    pub(crate) fn mul_vec_spans(&self, x: &[f64], spans: &Spans, out: &mut [f64]) {
        assert_eq!(x.len(), self.cols);
        assert_eq!(out.len(), self.rows);
        for (i, o) in out.iter_mut().enumerate() {
            *o = dot_span(self.row(i), x, spans.of_row(i));
        }
    }

    /// `self · x` as a new vector. Panics on mismatched lengths (internal use).
    #[must_use]
    pub fn mul_vec(&self, x: &[f64]) -> Vec<f64> {
        let mut out = vec![0.0; self.rows];
        self.mul_vec_into(x, &mut out);
        out
    }

    /// Whether `|a_ij − a_ji| ≤ rel · max|a|` for all entries.
    #[must_use]
    pub fn is_symmetric(&self, rel: f64) -> bool {
        if !self.is_square() {
            return false;
        }
        let tol = rel * self.max_abs();
        let n = self.rows;
        (0..n)
            .all(|i| (i + 1..n).all(|j| (self.data[i * n + j] - self.data[j * n + i]).abs() <= tol))
    }

    /// The transpose.
    #[must_use]
    pub fn transpose(&self) -> Self {
        let mut t = Self::zeros(self.cols, self.rows);
        for i in 0..self.rows {
            for j in 0..self.cols {
                t.data[j * self.rows + i] = self.data[i * self.cols + j];
            }
        }
        t
    }

    /// Sets entry `(i, j)`. Panics out of range (internal use).
    pub fn set(&mut self, i: usize, j: usize, v: f64) {
        assert!(i < self.rows && j < self.cols);
        self.data[i * self.cols + j] = v;
    }
}

impl std::ops::Index<(usize, usize)> for Matrix {
    type Output = f64;
    fn index(&self, (i, j): (usize, usize)) -> &f64 {
        assert!(i < self.rows && j < self.cols, "matrix index out of range");
        &self.data[i * self.cols + j]
    }
}

impl std::ops::IndexMut<(usize, usize)> for Matrix {
    fn index_mut(&mut self, (i, j): (usize, usize)) -> &mut f64 {
        assert!(i < self.rows && j < self.cols, "matrix index out of range");
        &mut self.data[i * self.cols + j]
    }
}

/// Dot product with eight independent accumulators, so the compiler can vectorize it
/// (a single running sum is a serial dependency chain): `dot_span` over the whole
/// slice. Lengths must match.
#[inline]
#[must_use]
pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    debug_assert_eq!(a.len(), b.len());
    dot_span(a, b, 0..a.len().min(b.len()))
}

/// Where each row of a matrix holds its nonzeros: `[first, end)` columns (`(0, 0)` for
/// a zero row). Contact problems are banded — a stack's rows couple only neighbouring
/// contacts — so the exact solvers' products over a row ([`dot_span`]) and their
/// gathers of a block touch only this run, a fraction of a dense row.
#[derive(Clone, Debug, Default)]
pub(crate) struct Spans(Vec<(usize, usize)>);

impl Spans {
    /// The spans of `m`'s rows (one pass over the matrix).
    pub(crate) fn of(m: &Matrix) -> Self {
        let mut s = Self::default();
        s.fill(m);
        s
    }

    /// [`Self::of`] into this one's buffer.
    pub(crate) fn fill(&mut self, m: &Matrix) {
        self.0.clear();
        self.0.extend((0..m.rows()).map(|i| {
            let row = m.row(i);
            match first_where(row, |v| v != 0.0) {
                Some(first) => {
                    let last = last_nonzero(&row[first..]).map_or(first, |k| first + k);
                    (first, last + 1)
                }
                None => (0, 0),
            }
        }));
    }

    /// Whether the runs cover at most half the matrix: a banded contact problem's do,
    /// a dense one's do not, and reading the runs would then only add bookkeeping.
    pub(crate) fn narrow(&self) -> bool {
        let n = self.0.len();
        2 * self
            .0
            .iter()
            .map(|&(first, end)| end - first)
            .sum::<usize>()
            <= n * n
    }

    /// Whether `m` (whose spans these are) is symmetric bit for bit: `m_ij = m_ji` for
    /// every `j` in each row's run (an entry outside both runs is zero on both sides, and
    /// a nonzero `m_ji` outside row `i`'s run is compared from row `j`'s). `−0` and `+0`
    /// count as equal; a NaN makes it not symmetric.
    pub(crate) fn symmetric_in(&self, m: &Matrix) -> bool {
        let n = m.rows();
        m.cols() == n
            && self.0.len() == n
            && (0..n).all(|i| {
                let row = m.row(i);
                self.of_row(i).all(|j| row[j] == m[(j, i)])
            })
    }

    /// Row `i`'s nonzero columns.
    #[inline]
    pub(crate) fn of_row(&self, i: usize) -> std::ops::Range<usize> {
        let (first, end) = self.0[i];
        first..end
    }
}

/// The first index of `v` whose entry passes `test`, looked for eight entries at a time
/// (each block tested as a whole, without a branch an entry, so the compiler tests it
/// in vector registers), then entry by entry in the block that holds it.
#[inline]
fn first_where(v: &[f64], test: impl Fn(f64) -> bool + Copy) -> Option<usize> {
    let chunks = v.chunks_exact(8);
    let tail = chunks.remainder();
    for (c, chunk) in chunks.enumerate() {
        if chunk.iter().fold(false, |any, &x| any | test(x)) {
            return chunk.iter().position(|&x| test(x)).map(|k| 8 * c + k);
        }
    }
    let base = v.len() - tail.len();
    tail.iter().position(|&x| test(x)).map(|k| base + k)
}

/// The last index of `v` whose entry is not zero, looked for as [`first_where`] does,
/// from the end.
#[inline]
fn last_nonzero(v: &[f64]) -> Option<usize> {
    let chunks = v.rchunks_exact(8);
    let head = chunks.remainder();
    for (c, chunk) in chunks.enumerate() {
        if chunk.iter().fold(false, |any, &x| any | (x != 0.0)) {
            let start = v.len() - 8 * (c + 1);
            return chunk.iter().rposition(|&x| x != 0.0).map(|k| start + k);
        }
    }
    head.iter().rposition(|&x| x != 0.0)
}

/// [`dot`] of `a` with `b` where `a` is zero outside `span`: the same accumulators
/// over the same eight-wide chunks, skipping the chunks that are zero in `a` (a zero
/// product leaves an accumulator as it is: they start at `+0` and never become `−0`),
/// so the same bits as [`dot`].
#[inline]
#[must_use]
pub(crate) fn dot_span(a: &[f64], b: &[f64], span: std::ops::Range<usize>) -> f64 {
    debug_assert_eq!(a.len(), b.len());
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut acc = [0.0f64; 8];
    let chunks = n / 8;
    for c in span.start / 8..span.end.div_ceil(8).min(chunks) {
        let (x, y) = (&a[c * 8..c * 8 + 8], &b[c * 8..c * 8 + 8]);
        for k in 0..8 {
            acc[k] += x[k] * y[k];
        }
    }
    let mut s = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
    for k in chunks * 8..n {
        s += a[k] * b[k];
    }
    s
}

/// `‖v‖∞` (0 for an empty slice; NaN entries are ignored by `f64::max`).
#[must_use]
pub fn norm_inf(v: &[f64]) -> f64 {
    v.iter().fold(0.0, |m, x| m.max(x.abs()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-pass check and scale: `max_abs` where all is finite, `None` for an
    /// infinity or a NaN in the eight-wide chunks or in the remainder.
    #[test]
    fn the_largest_entry_only_where_every_entry_is_finite() {
        let n = 5; // 25 entries: three chunks of eight and one left over
        let data: Vec<f64> = (0..n * n).map(|k| (k as f64 * 0.37).sin() * 3.0).collect();
        let m = Matrix {
            rows: n,
            cols: n,
            data: data.clone(),
        };
        assert_eq!(m.max_abs_if_finite(), Some(m.max_abs()));
        for at in [0, 9, 23, 24] {
            for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
                let mut d = data.clone();
                d[at] = bad;
                let m = Matrix {
                    rows: n,
                    cols: n,
                    data: d,
                };
                assert_eq!(m.max_abs_if_finite(), None, "{bad} at {at}");
            }
        }
    }

    /// The runs found eight entries at a time are those of an entry-by-entry search,
    /// for rows of every length around the blocks' and nonzeros (a NaN among them;
    /// `−0` is zero) anywhere; and so is the first entry a test picks out.
    #[test]
    fn blockwise_searches_find_what_entrywise_ones_do() {
        let mut rng = crate::generate::Rng::new(11);
        for n in [1, 2, 7, 8, 9, 15, 16, 17, 24, 31, 64, 65, 241] {
            for trial in 0..40 {
                let data: Vec<f64> = (0..n * n)
                    .map(|_| match rng.next_u64() % 16 {
                        0 => rng.uniform(-1.0, 1.0),
                        1 if trial % 4 == 0 => f64::NAN,
                        2 => -0.0,
                        _ => 0.0,
                    })
                    .collect();
                let m = Matrix {
                    rows: n,
                    cols: n,
                    data: data.clone(),
                };
                let spans = Spans::of(&m);
                for i in 0..n {
                    let row = m.row(i);
                    let want = match row.iter().position(|&v| v != 0.0) {
                        Some(first) => (first, row.iter().rposition(|&v| v != 0.0).unwrap() + 1),
                        None => (0, 0),
                    };
                    assert_eq!(spans.0[i], want, "n {n}, row {i}");
                }
                let bad = |v: f64| !v.is_finite();
                assert_eq!(first_where(&data, bad), data.iter().position(|&v| bad(v)));
            }
        }
    }

    /// A product over a row's nonzero run gives the whole row's bits.
    #[test]
    fn a_product_over_the_nonzero_run_is_the_whole_rows_bits() {
        let mut rng = crate::generate::Rng::new(3);
        for n in [1, 7, 8, 9, 23, 64, 100, 241] {
            for _ in 0..20 {
                let x: Vec<f64> = (0..n).map(|_| rng.uniform(-2.0, 2.0)).collect();
                let first = (rng.next_u64() as usize) % n;
                let end = first + 1 + (rng.next_u64() as usize) % (n - first);
                let row: Vec<f64> = (0..n)
                    .map(|j| {
                        if (first..end).contains(&j) && !rng.next_u64().is_multiple_of(3) {
                            rng.uniform(-1.0, 1.0)
                        } else {
                            0.0
                        }
                    })
                    .collect();
                let m = Matrix::from_row_major(1, n, row.clone()).unwrap();
                let spans = Spans::of(&m);
                assert_eq!(
                    dot_span(&row, &x, spans.of_row(0)).to_bits(),
                    dot(&row, &x).to_bits()
                );
            }
        }
    }

    #[test]
    fn ragged_rows_name_the_row() {
        let e = Matrix::from_rows(&[vec![1.0, 2.0], vec![3.0]]).unwrap_err();
        assert_eq!(
            e,
            ProblemError::RaggedRow {
                row: 1,
                len: 1,
                expected: 2
            }
        );
    }

    #[test]
    fn dot_matches_naive() {
        let a: Vec<f64> = (0..37).map(|i| i as f64 * 0.5).collect();
        let b: Vec<f64> = (0..37).map(|i| 1.0 - i as f64).collect();
        let naive: f64 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
        assert!((dot(&a, &b) - naive).abs() < 1e-9);
    }

    /// The runs' symmetry test: a banded symmetric matrix passes (with `−0` against
    /// `+0`); one entry off its mirror by an ulp, a nonzero whose mirror is zero (on
    /// either side of the diagonal), or a NaN fails it.
    #[test]
    fn symmetry_read_from_the_runs() {
        let n = 9;
        let mut m = Matrix::zeros(n, n);
        for i in 0..n {
            for j in i.saturating_sub(2)..=i {
                let v = 1.0 / (1.0 + (i * n + j) as f64);
                m[(i, j)] = v;
                m[(j, i)] = v;
            }
        }
        // (A zero pair inside both rows' runs, `+0` against `−0`.)
        m[(5, 4)] = 0.0;
        m[(4, 5)] = -0.0;
        let check = |m: &Matrix| Spans::of(m).symmetric_in(m);
        assert!(Spans::of(&m).of_row(4).contains(&5));
        assert!(check(&m));
        let mut off = m.clone();
        off[(3, 2)] = f64::from_bits(off[(3, 2)].to_bits() + 1);
        assert!(!check(&off));
        for (i, j) in [(0, 7), (7, 0)] {
            let mut lone = m.clone();
            lone[(i, j)] = 0.5;
            assert!(!check(&lone));
        }
        let mut nan = m.clone();
        nan[(3, 3)] = f64::NAN;
        assert!(!check(&nan));
    }

    #[test]
    fn mul_and_transpose() {
        let m = Matrix::from_rows(&[[1.0, 2.0], [3.0, 4.0]]).unwrap();
        assert_eq!(m.mul_vec(&[1.0, 1.0]), vec![3.0, 7.0]);
        assert_eq!(m.transpose()[(0, 1)], 3.0);
        assert!(!m.is_symmetric(1e-12));
        assert!(Matrix::identity(3).is_symmetric(0.0));
    }
}
