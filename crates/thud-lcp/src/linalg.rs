//! Small dense linear algebra the pivoting solvers share: LU with partial pivoting
//! on a principal sub-block, its symmetric sibling `LDLᵀ`, and a Cholesky test for
//! (semi-)definiteness.
//!
//! `Lu::factor` refuses a pivot smaller than `pivot_tol` (an absolute number the
//! caller derives from the problem's scale), so "numerically singular" is decided in
//! one place. Costs: factor `⅔k³` for a dense `k × k` block, about `k·kl·(kl + ku)`
//! for a banded one (lower and upper bandwidths `kl`, `ku`: contact islands in store
//! order, see `Lu::factor`), solve `2k²` dense and about `2k·(kl + ku)` banded (each
//! row's sums over its recorded extent).
//!
//! **Symmetric blocks** ([`Lu::refactor_symmetric`]). A contact island's block without
//! friction links is `A_FF + εI` with `A = J M⁻¹ Jᵀ` (plus the soft rows' `γ` on the
//! diagonal): symmetric and positive semi-definite, positive definite once `ε > 0`. It
//! is factored as
//!
//! ```text
//!   B = L D Lᵀ,   L unit lower,  D = diag(d),
//!   d_c = B_cc − Σ_{j<c} L_cj² d_j,   L_rc = (B_rc − Σ_{j<c} L_rj d_j L_cj) / d_c
//! ```
//!
//! from `B`'s lower triangle alone, without row interchanges: a positive definite
//! matrix needs none (every `d_c > 0`, and `|B_rc|² ≤ B_rr·B_cc` keeps the entries
//! bounded), and a pivot `d_c ≤ pivot_tol` — a singular or indefinite block — stops it
//! as a small pivot stops the LU. Fill-in stays inside each row's band (`L_rc ≠ 0` only
//! for `c ≥` the row's first nonzero), so a banded block costs about `k·kl²/2`
//! multiply-adds against the LU's `k·kl·(kl + ku)` with its pivot searches and swaps:
//! a quarter or less where `ku = kl`, as in a stack of contacts.

use crate::matrix::Matrix;

/// An LU factorization `P·B = L·U` of a square block, row-major, unit lower `L`. Its
/// buffers may be kept for the next factorization ([`Lu::refactor`]).
#[derive(Debug, Clone, Default)]
pub(crate) struct Lu {
    n: usize,
    /// The block to factor (row-major `n × n`), then its factors.
    pub(crate) lu: Vec<f64>,
    perm: Vec<usize>,
    /// Per row: the first column of its nonzero multipliers in `L` (the row's own index
    /// where it has none) and the end of its nonzeros in `U` — the substitutions of
    /// [`Lu::solve`] run between them (a banded block's rows are short).
    extent: Vec<(usize, usize)>,
    /// Scratch of a factorization with the rows' extents known: each row's end.
    ends: Vec<usize>,
    /// The factors are `L D Lᵀ` ([`Lu::refactor_symmetric`]): `L` strictly below the
    /// diagonal, `D` on it, nothing above it read.
    symmetric: bool,
    /// Scratch of the symmetric factorization: the column being eliminated, before it
    /// is divided by its pivot.
    column: Vec<f64>,
}

impl Lu {
    /// Factors the principal sub-block `m[idx, idx]` (`idx` lists the rows/columns).
    /// `None` if a pivot is at most `pivot_tol` in magnitude.
    pub(crate) fn factor_block(
        m: &Matrix,
        idx: &[usize],
        shift: f64,
        pivot_tol: f64,
    ) -> Option<Self> {
        let k = idx.len();
        let mut lu = Vec::with_capacity(k * k);
        for &i in idx {
            let row = m.row(i);
            lu.extend(idx.iter().map(|&j| row[j]));
        }
        for d in 0..k {
            lu[d * k + d] += shift;
        }
        Self::factor(lu, k, pivot_tol)
    }

    /// Factors the `n × n` row-major matrix `lu` in place.
    pub(crate) fn factor(lu: Vec<f64>, n: usize, pivot_tol: f64) -> Option<Self> {
        Self::factor_in(lu, n, pivot_tol, None)
    }

    /// [`Self::factor`] with each row's nonzeros known to lie in `rows[i]` (`[first,
    /// end)` columns, or wider): the bandwidth and the pivot rows' ends are then read
    /// from them, and from the fill-in they receive, instead of from scans of the rows.
    /// A bound wider than the row only adds zero terms, so the factors are the same (to
    /// the sign of a zero).
    pub(crate) fn factor_in(
        lu: Vec<f64>,
        n: usize,
        pivot_tol: f64,
        rows: Option<&[(usize, usize)]>,
    ) -> Option<Self> {
        let mut f = Self {
            lu,
            ..Self::default()
        };
        f.refactor(n, pivot_tol, rows).then_some(f)
    }

    /// A factorization of an `n × n` block begins: no row interchanges yet.
    fn start(&mut self, n: usize, symmetric: bool) {
        self.n = n;
        self.symmetric = symmetric;
        self.perm.clear();
        self.perm.extend(0..n);
    }

    /// Room for the factorization of blocks of up to `n` rows in the buffers beside
    /// the block.
    pub(crate) fn reserve(&mut self, n: usize) {
        self.perm.reserve(n);
        self.extent.reserve(n);
        self.ends.reserve(n);
        self.column.reserve(n);
    }

    /// The `L D Lᵀ` factorization (module docs) of the symmetric `n × n` block the caller
    /// wrote into `self.lu` — its lower triangle is read, its upper one neither read nor
    /// written — with each row's nonzeros in `rows[i]` where given (only their first
    /// columns are read), else found by a scan. Returns `false` at a pivot `d_c ≤
    /// pivot_tol` (or NaN), the factors then not to be used; [`Self::solve_into`] and
    /// [`Self::written_into`] read these factors as they read the LU's.
    pub(crate) fn refactor_symmetric(
        &mut self,
        n: usize,
        pivot_tol: f64,
        rows: Option<&[(usize, usize)]>,
    ) -> bool {
        self.start(n, true);
        self.ends.clear();
        let (lu, extent, column) = (&mut self.lu, &mut self.extent, &mut self.column);
        // Each row's first nonzero: `L`'s row starts there (the elimination of a column
        // before it finds a zero in the row and leaves the row alone), and so do the
        // substitutions' sums.
        extent.clear();
        extent.extend((0..n).map(|i| (first_nonzero(lu, n, i, rows), i + 1)));
        let kl = extent.iter().enumerate().map(|(i, e)| i - e.0).max();
        let kl = kl.unwrap_or(0);
        for c in 0..n {
            let d = lu[c * n + c];
            if d.is_nan() || d <= pivot_tol {
                return false;
            }
            let last = (c + kl).min(n - 1);
            // The column below the pivot as it stands (`L_rc·d_c`), then divided.
            column.clear();
            column.extend((c + 1..=last).map(|r| lu[r * n + c]));
            let (_, below) = lu.split_at_mut((c + 1) * n);
            for (r, &b) in column.iter().enumerate() {
                if b == 0.0 {
                    continue;
                }
                let l = b / d;
                let row = &mut below[r * n..r * n + n];
                row[c] = l;
                // Row `c + 1 + r` from column `c + 1` to its diagonal: `− L_rc·(L_jc·d_c)`.
                for (x, &y) in row[c + 1..c + 2 + r].iter_mut().zip(&column[..=r]) {
                    *x -= l * y;
                }
            }
        }
        true
    }

    /// [`Self::factor_in`] of the `n × n` block the caller wrote into `self.lu`, in
    /// the buffers of the last factorization (none grown once they are large enough).
    /// Returns `false` where a pivot is at most `pivot_tol` (the factors are then not
    /// to be used).
    pub(crate) fn refactor(
        &mut self,
        n: usize,
        pivot_tol: f64,
        rows: Option<&[(usize, usize)]>,
    ) -> bool {
        self.start(n, false);
        let (lu, perm, extent, ends) = (
            &mut self.lu,
            &mut self.perm,
            &mut self.extent,
            &mut self.ends,
        );
        extent.clear();
        extent.extend((0..n).map(|i| (i, i + 1)));
        // The lower bandwidth `kl`: no nonzero lies more than `kl` rows below the
        // diagonal. Partial pivoting keeps it for the block still to be eliminated (a
        // pivot comes from rows `c..=c + kl`, fill-in only reaches rows that already
        // had a nonzero in the column, as in LAPACK's banded `gbtrf`), so the pivot
        // search and the elimination of column `c` stop at row `c + kl`.
        let kl = (0..n)
            .map(|i| i - first_nonzero(lu, n, i, rows))
            .max()
            .unwrap_or(0);
        // Each row's end bound, kept through the swaps and the fill-in.
        ends.clear();
        if let Some(r) = rows {
            ends.extend(r.iter().map(|&(_, e)| e));
        }
        for c in 0..n {
            let last = (c + kl).min(n - 1);
            let (mut p, mut best) = (c, lu[c * n + c].abs());
            for r in c + 1..=last {
                let v = lu[r * n + c].abs();
                if v > best {
                    (p, best) = (r, v);
                }
            }
            if best.is_nan() || best <= pivot_tol {
                return false;
            }
            if p != c {
                // With the rows' ends known, only the columns something will read are
                // swapped: from the first multiplier of either row (`extent`, what
                // `solve` reads of the L part) to the larger end (zeros beyond it in
                // both rows, the U part's reads stopping there).
                let (from, to) = if ends.is_empty() {
                    (0, n)
                } else {
                    let from = extent[c].0.min(extent[p].0);
                    (from, ends[c].max(ends[p]).max(c + 1).min(n))
                };
                for j in from..to {
                    lu.swap(c * n + j, p * n + j);
                }
                perm.swap(c, p);
                extent.swap(c, p);
                if !ends.is_empty() {
                    ends.swap(c, p);
                }
            }
            let piv = lu[c * n + c];
            let (top, bottom) = lu.split_at_mut((c + 1) * n);
            let prow = &top[c * n..c * n + n];
            // The pivot row's entries past its last nonzero change nothing: the
            // elimination stops there (contact problems are banded — a stack's rows
            // couple only neighbouring contacts — so this is most of the row).
            let end = if ends.is_empty() {
                prow[c + 1..]
                    .iter()
                    .rposition(|&v| v != 0.0)
                    .map_or(c + 1, |k| c + 2 + k)
            } else {
                ends[c].max(c + 1)
            };
            let prow = &prow[c + 1..end];
            extent[c].1 = end;
            for r in 0..last - c {
                let row = &mut bottom[r * n..r * n + n];
                let f = row[c] / piv;
                row[c] = f;
                if f != 0.0 {
                    let first = &mut extent[c + 1 + r].0;
                    *first = (*first).min(c);
                    if let Some(e) = ends.get_mut(c + 1 + r) {
                        *e = (*e).max(end);
                    }
                    for (x, &p) in row[c + 1..end].iter_mut().zip(prow) {
                        *x -= f * p;
                    }
                }
            }
        }
        true
    }

    /// After [`Self::refactor`] of an `n × n` block whose rows' nonzeros lay in
    /// `rows[i]` (whether it finished or stopped at a small pivot): for each row, the
    /// range of `self.lu` (flat indices) outside of which that row is still all zeros —
    /// its original run (followed through the row swaps) widened by its fill-in, its
    /// multipliers and its diagonal. A caller that zeroes only these ranges before
    /// writing its next block into the buffer finds every other entry zero.
    pub(crate) fn written_into(&self, rows: &[(usize, usize)], out: &mut Vec<(usize, usize)>) {
        let n = self.n;
        out.clear();
        out.extend((0..n).map(|i| {
            let (first, end) = rows[self.perm[i]];
            let lo = first.min(self.extent[i].0).min(i);
            let hi = end
                .max(self.extent[i].1)
                .max(self.ends.get(i).copied().unwrap_or(0))
                .max(i + 1)
                .min(n);
            (i * n + lo, i * n + hi)
        }));
    }

    /// Solves `B x = rhs`, returning `x`. Each row's sums run over its nonzeros only
    /// (`extent`): the terms left out are products with exact zeros.
    pub(crate) fn solve(&self, rhs: &[f64]) -> Vec<f64> {
        let mut x = Vec::new();
        self.solve_into(rhs, &mut x);
        x
    }

    /// [`Self::solve`] into `x` (its buffer kept).
    pub(crate) fn solve_into(&self, rhs: &[f64], x: &mut Vec<f64>) {
        let n = self.n;
        x.clear();
        x.extend(self.perm.iter().map(|&p| rhs[p]));
        // `L y = rhs` row by row (`L` unit lower in both factorizations).
        for i in 0..n {
            let row = &self.lu[i * n..i * n + n];
            let mut s = x[i];
            for j in self.extent[i].0..i {
                s -= row[j] * x[j];
            }
            x[i] = s;
        }
        if self.symmetric {
            // `z = D⁻¹ y`, then `Lᵀ x = z` from the last row up, each row of `L` (a
            // column of `Lᵀ`) taken out of the rows above it.
            for i in 0..n {
                x[i] /= self.lu[i * n + i];
            }
            for i in (0..n).rev() {
                let row = &self.lu[i * n..i * n + n];
                let xi = x[i];
                for j in self.extent[i].0..i {
                    x[j] -= row[j] * xi;
                }
            }
            return;
        }
        for i in (0..n).rev() {
            let row = &self.lu[i * n..i * n + n];
            let mut s = x[i];
            for j in i + 1..self.extent[i].1 {
                s -= row[j] * x[j];
            }
            x[i] = s / row[i];
        }
    }
}

/// The first nonzero column of row `i` of the `n × n` row-major block `lu` at or left
/// of its diagonal (`i` where there is none): from the row's known run `rows[i]` where
/// given (its first column, or wider), else by a scan.
#[inline]
fn first_nonzero(lu: &[f64], n: usize, i: usize, rows: Option<&[(usize, usize)]>) -> usize {
    match rows {
        Some(rows) => rows[i].0.min(i),
        None => lu[i * n..i * n + i]
            .iter()
            .position(|&v| v != 0.0)
            .unwrap_or(i),
    }
}

/// Whether the symmetric part `(M + Mᵀ)/2 + shift·I` has a Cholesky factorization
/// with every pivot above `pivot_tol` (i.e. is numerically positive definite).
pub(crate) fn symmetric_part_is_pd(m: &Matrix, shift: f64, pivot_tol: f64) -> bool {
    let n = m.rows();
    let mut l = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..=i {
            let mut s = 0.5 * (m[(i, j)] + m[(j, i)]);
            if i == j {
                s += shift;
            }
            for k in 0..j {
                s -= l[i * n + k] * l[j * n + k];
            }
            if i == j {
                if s.is_nan() || s <= pivot_tol {
                    return false;
                }
                l[i * n + i] = s.sqrt();
            } else {
                l[i * n + j] = s / l[j * n + j];
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// After a banded factorization, finished or stopped at a small pivot partway, every
    /// nonzero of the buffer lies in the ranges `written_into` reports.
    #[test]
    fn every_nonzero_lies_in_the_written_ranges() {
        let mut rng = crate::generate::Rng::new(5);
        let (mut stopped, mut finished) = (0, 0);
        for trial in 0..400 {
            let n = 6 + (rng.next_u64() % 30) as usize;
            let (kl, ku) = (
                1 + (rng.next_u64() % 5) as usize,
                1 + (rng.next_u64() % 5) as usize,
            );
            let mut m = vec![0.0; n * n];
            let mut rows = Vec::with_capacity(n);
            for i in 0..n {
                let (first, end) = (i.saturating_sub(kl), (i + ku + 1).min(n));
                for j in first..end {
                    // Sparse within the band, the diagonal often small: swaps and fill.
                    if j == i || rng.uniform(0.0, 1.0) < 0.7 {
                        m[i * n + j] = rng.uniform(-1.0, 1.0);
                    }
                }
                rows.push((first, end));
            }
            if trial % 3 == 0 {
                // A column of zeros from some row down: the factorization stops there.
                let c = (rng.next_u64() % n as u64) as usize;
                for r in c..n {
                    m[r * n + c] = 0.0;
                }
            }
            let mut lu = Lu {
                lu: m,
                ..Lu::default()
            };
            if lu.refactor(n, 1e-12, Some(&rows)) {
                finished += 1;
            } else {
                stopped += 1;
            }
            let mut ranges = Vec::new();
            lu.written_into(&rows, &mut ranges);
            for (k, &v) in lu.lu.iter().enumerate() {
                if v != 0.0 {
                    assert!(
                        ranges.iter().any(|&(a, b)| (a..b).contains(&k)),
                        "trial {trial}: entry ({}, {}) outside the written ranges",
                        k / n,
                        k % n
                    );
                }
            }
        }
        assert!(
            stopped > 25 && finished > 100,
            "{stopped} stopped, {finished} finished"
        );
    }

    #[test]
    fn lu_solves_and_detects_singular() {
        let m = Matrix::from_rows(&[[0.0, 2.0, 1.0], [1.0, 1.0, 0.0], [3.0, 0.0, 1.0]]).unwrap();
        let lu = Lu::factor_block(&m, &[0, 1, 2], 0.0, 1e-12).unwrap();
        let x = lu.solve(&[3.0, 2.0, 4.0]);
        let r = m.mul_vec(&x);
        for (a, b) in r.iter().zip([3.0, 2.0, 4.0]) {
            assert!((a - b).abs() < 1e-12);
        }
        let s = Matrix::from_rows(&[[1.0, 2.0], [2.0, 4.0]]).unwrap();
        assert!(Lu::factor_block(&s, &[0, 1], 0.0, 1e-12).is_none());
        assert!(Lu::factor_block(&s, &[1], 0.0, 1e-12).is_some());
    }

    /// Numbers in `[−0.5, 0.5)` from a xorshift sequence started at `state`.
    fn xorshift(mut state: u64) -> impl FnMut() -> f64 {
        move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        }
    }

    #[test]
    fn banded_factors_with_pivoting_solve() {
        // Random banded matrices (lower bandwidth 3, upper 5) whose small diagonals force
        // row interchanges: the band-limited elimination must still solve them.
        let mut next = xorshift(0x2545_f491_4f6c_dd1d);
        for _ in 0..20 {
            let n = 30;
            let mut rows = vec![vec![0.0; n]; n];
            for (i, row) in rows.iter_mut().enumerate() {
                for (j, v) in row.iter_mut().enumerate() {
                    if j + 3 >= i && j <= i + 5 {
                        *v = if i == j { 0.01 * next() } else { next() };
                    }
                }
            }
            let m = Matrix::from_rows(&rows).unwrap();
            let idx: Vec<usize> = (0..n).collect();
            let lu = Lu::factor_block(&m, &idx, 0.0, 1e-14).unwrap();
            let rhs: Vec<f64> = (0..n).map(|_| next()).collect();
            let x = lu.solve(&rhs);
            let r = m.mul_vec(&x);
            let err = r
                .iter()
                .zip(&rhs)
                .fold(0.0f64, |e, (a, b)| e.max((a - b).abs()));
            assert!(err < 1e-9, "residual {err}");
        }
    }

    /// The substitutions over each row's extent give what the full-width ones give
    /// from the same factors (the terms left out are products with zeros), on banded
    /// blocks with row interchanges and on a dense one.
    #[test]
    fn solves_over_the_extents_match_full_substitutions() {
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        for (kl, ku) in [(2, 3), (5, 1), (11, 11), (40, 40)] {
            let n = 40;
            let mut rows = vec![vec![0.0; n]; n];
            for (i, row) in rows.iter_mut().enumerate() {
                for (j, v) in row.iter_mut().enumerate() {
                    if j + kl >= i && j <= i + ku {
                        *v = if i == j { 0.05 * next() } else { next() };
                    }
                }
            }
            let m = Matrix::from_rows(&rows).unwrap();
            let idx: Vec<usize> = (0..n).collect();
            let lu = Lu::factor_block(&m, &idx, 0.0, 1e-14).unwrap();
            let rhs: Vec<f64> = (0..n).map(|_| next()).collect();
            let mut full: Vec<f64> = lu.perm.iter().map(|&p| rhs[p]).collect();
            for i in 0..n {
                let s = (0..i).fold(full[i], |s, j| s - lu.lu[i * n + j] * full[j]);
                full[i] = s;
            }
            for i in (0..n).rev() {
                let s = (i + 1..n).fold(full[i], |s, j| s - lu.lu[i * n + j] * full[j]);
                full[i] = s / lu.lu[i * n + i];
            }
            assert_eq!(lu.solve(&rhs), full, "bandwidths {kl}, {ku}");
            assert!(lu.extent.iter().any(|&(lo, hi)| hi - lo < n) || kl == n);
        }
    }

    /// A random symmetric positive definite block of `n` rows, banded (`kl` below and
    /// above the diagonal, sparse within the band), as `G Gᵀ + shift·I` of a banded `G`,
    /// and each row's `[first, end)` nonzero columns.
    fn banded_spd(
        n: usize,
        kl: usize,
        shift: f64,
        next: &mut impl FnMut() -> f64,
    ) -> (Vec<f64>, Vec<(usize, usize)>) {
        let w = kl / 2 + 1;
        let mut g = vec![0.0; n * n];
        for i in 0..n {
            for j in i.saturating_sub(w - 1)..=i {
                if j == i || next() > -0.2 {
                    g[i * n + j] = next();
                }
            }
        }
        let mut m = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..n {
                let s: f64 = (0..n).map(|q| g[i * n + q] * g[j * n + q]).sum();
                m[i * n + j] = s + if i == j { shift } else { 0.0 };
            }
        }
        let rows = (0..n)
            .map(|i| {
                let row = &m[i * n..i * n + n];
                let first = row.iter().position(|&v| v != 0.0).unwrap_or(i).min(i);
                let end = row.iter().rposition(|&v| v != 0.0).map_or(i + 1, |k| k + 1);
                (first, end.max(i + 1))
            })
            .collect();
        (m, rows)
    }

    /// `L D Lᵀ` of symmetric positive definite blocks, banded and dense, with and
    /// without the rows' runs, solves them as the LU does (to rounding), and leaves
    /// every nonzero of the buffer inside the ranges `written_into` reports.
    #[test]
    fn symmetric_factors_solve_what_the_lu_solves() {
        let mut next = xorshift(0x0123_4567_89ab_cdef);
        for (n, kl, shift) in [(30, 5, 1e-3), (60, 23, 1e-6), (12, 11, 0.5), (45, 1, 1e-2)] {
            let (m, rows) = banded_spd(n, kl, shift, &mut next);
            let rhs: Vec<f64> = (0..n).map(|_| next()).collect();
            let mut lu = Lu {
                lu: m.clone(),
                ..Lu::default()
            };
            assert!(lu.refactor(n, 1e-14, Some(&rows)));
            let by_lu = lu.solve(&rhs);
            for runs in [Some(&rows[..]), None] {
                let mut ldl = Lu {
                    lu: m.clone(),
                    ..Lu::default()
                };
                assert!(ldl.refactor_symmetric(n, 1e-14, runs));
                let x = ldl.solve(&rhs);
                let scale = by_lu.iter().fold(1.0f64, |a, v| a.max(v.abs()));
                for (a, b) in x.iter().zip(&by_lu) {
                    assert!((a - b).abs() < 1e-8 * scale, "n {n}: {a} against {b}");
                }
                let mut ranges = Vec::new();
                ldl.written_into(&rows, &mut ranges);
                for (k, &v) in ldl.lu.iter().enumerate() {
                    let (i, j) = (k / n, k % n);
                    if v != 0.0 && j <= i {
                        assert!(
                            ranges.iter().any(|&(a, b)| (a..b).contains(&k)),
                            "entry ({i}, {j}) outside the written ranges"
                        );
                    }
                }
            }
        }
    }

    /// A singular positive semi-definite block (two equal rows) or an indefinite one
    /// stops the symmetric factorization at a small or negative pivot.
    #[test]
    fn symmetric_factors_refuse_singular_and_indefinite_blocks() {
        for m in [
            vec![1.0, 1.0, 1.0, 1.0],
            vec![1.0, 2.0, 2.0, 1.0],
            vec![-1.0, 0.0, 0.0, 1.0],
        ] {
            let mut ldl = Lu {
                lu: m,
                ..Lu::default()
            };
            assert!(!ldl.refactor_symmetric(2, 1e-12, None));
        }
    }

    #[test]
    fn definiteness() {
        let spd = Matrix::from_rows(&[[2.0, 1.0], [1.0, 3.0]]).unwrap();
        assert!(symmetric_part_is_pd(&spd, 0.0, 1e-12));
        let psd = Matrix::from_rows(&[[1.0, 1.0], [1.0, 1.0]]).unwrap();
        assert!(!symmetric_part_is_pd(&psd, 0.0, 1e-12));
        assert!(symmetric_part_is_pd(&psd, 1e-9, 1e-12));
    }
}
