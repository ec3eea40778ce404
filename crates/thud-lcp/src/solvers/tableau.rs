//! The condensed pivoting tableau and its Jordan exchange, shared by Lemke,
//! Dantzig–Cottle, the simple principal pivoting method and Kolesnikov's stepping.
//!
//! The tableau holds the basic variables as affine functions of the nonbasic ones,
//!
//! ```text
//! x_B = c + T x_N,      initially  w = q + M z  (x_B = w, x_N = z, T = M, c = q),
//! ```
//!
//! so `c` is the value of the basic variables at the vertex where every nonbasic one
//! is zero. A **Jordan exchange** on `(r, s)` swaps the basic variable of row `r` with
//! the nonbasic variable of column `s` (pivot `p = T_rs ≠ 0`):
//!
//! ```text
//! row r:   T_rs ← 1/p,  T_rj ← −T_rj/p (j ≠ s),  c_r ← −c_r/p
//! row i:   T_ij ← T_ij + T_is·T'_rj (j ≠ s),  T_is ← T_is/p,  c_i ← c_i + T_is·c'_r
//! ```
//!
//! at a cost of one pass over the tableau (`rows × cols` multiply-adds). A principal
//! exchange `(i, i)` on a complementary tableau swaps `z_i` and `w_i` — the step of
//! the principal pivoting methods. Lemke adds one column for the artificial `z₀`.
//!
//! Since `T = −B⁻¹N` for the basis matrix `B` of the original system
//! `[I, −M, −d]·x = q`, the columns of `B⁻¹` needed by the lexicographic ratio test
//! can be read back: column `j` of `B⁻¹` is `−T_{·,col(w_j)}` when `w_j` is nonbasic,
//! and the unit vector of `w_j`'s row when it is basic (`Tableau::binv`).

use crate::matrix::Matrix;

/// Where a variable sits in the tableau.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pos {
    /// Basic, in this row.
    Row(usize),
    /// Nonbasic, in this column.
    Col(usize),
}

/// A condensed tableau over `2n (+1)` variables: `w_i` is variable `i`, `z_i` is
/// `n + i`, Lemke's `z₀` is `2n`.
pub(crate) struct Tableau {
    pub(crate) n: usize,
    pub(crate) cols: usize,
    pub(crate) t: Vec<f64>,
    pub(crate) c: Vec<f64>,
    pub(crate) row_var: Vec<usize>,
    pub(crate) col_var: Vec<usize>,
    pub(crate) pos: Vec<Pos>,
    scratch: Vec<f64>,
}

impl Tableau {
    /// `w = q + M z`, with an extra column `d` for `z₀` if given.
    pub(crate) fn new(m: &Matrix, q: &[f64], extra: Option<&[f64]>) -> Self {
        let n = q.len();
        let cols = n + usize::from(extra.is_some());
        let mut t = Vec::with_capacity(n * cols);
        for i in 0..n {
            t.extend_from_slice(m.row(i));
            if let Some(d) = extra {
                t.push(d[i]);
            }
        }
        let nvars = 2 * n + usize::from(extra.is_some());
        let mut pos = vec![Pos::Row(0); nvars];
        for i in 0..n {
            pos[i] = Pos::Row(i);
            pos[n + i] = Pos::Col(i);
        }
        if extra.is_some() {
            pos[2 * n] = Pos::Col(n);
        }
        let mut col_var: Vec<usize> = (n..2 * n).collect();
        if extra.is_some() {
            col_var.push(2 * n);
        }
        Self {
            n,
            cols,
            t,
            c: q.to_vec(),
            row_var: (0..n).collect(),
            col_var,
            pos,
            scratch: vec![0.0; cols],
        }
    }

    /// Entry `T_ij`.
    #[inline]
    pub(crate) fn at(&self, i: usize, j: usize) -> f64 {
        self.t[i * self.cols + j]
    }

    /// The complement of variable `v` (`w_i ↔ z_i`; `z₀` has none and maps to itself).
    pub(crate) fn complement(&self, v: usize) -> usize {
        if v < self.n {
            v + self.n
        } else if v < 2 * self.n {
            v - self.n
        } else {
            v
        }
    }

    /// The Jordan exchange on `(r, s)`; the caller guarantees `T_rs ≠ 0`.
    pub(crate) fn exchange(&mut self, r: usize, s: usize) {
        let cols = self.cols;
        let p = self.t[r * cols + s];
        let inv = 1.0 / p;
        let pr = &mut self.scratch;
        pr.copy_from_slice(&self.t[r * cols..(r + 1) * cols]);
        for v in pr.iter_mut() {
            *v *= -inv;
        }
        pr[s] = inv;
        let cr = -self.c[r] * inv;
        for i in 0..self.n {
            if i == r {
                continue;
            }
            let row = &mut self.t[i * cols..(i + 1) * cols];
            let f = row[s];
            if f == 0.0 {
                continue;
            }
            row[s] = 0.0;
            for (x, y) in row.iter_mut().zip(pr.iter()) {
                *x += f * y;
            }
            self.c[i] += f * cr;
        }
        self.t[r * cols..(r + 1) * cols].copy_from_slice(pr);
        self.c[r] = cr;
        let (vr, vs) = (self.row_var[r], self.col_var[s]);
        self.row_var[r] = vs;
        self.col_var[s] = vr;
        self.pos[vs] = Pos::Row(r);
        self.pos[vr] = Pos::Col(s);
    }

    /// Entry `(i, j)` of `B⁻¹` (see the module docs).
    pub(crate) fn binv(&self, i: usize, j: usize) -> f64 {
        match self.pos[j] {
            Pos::Col(k) => -self.at(i, k),
            Pos::Row(r) => f64::from(u8::from(r == i)),
        }
    }

    /// The current `z` (basic `z_j` take their row's `c`, nonbasic ones are 0).
    pub(crate) fn z(&self) -> Vec<f64> {
        let n = self.n;
        let mut z = vec![0.0; n];
        for (r, &v) in self.row_var.iter().enumerate() {
            if (n..2 * n).contains(&v) {
                z[v - n] = self.c[r].max(0.0);
            }
        }
        z
    }

    /// A compact signature of the basis (which variables are basic), for repeat detection.
    pub(crate) fn signature(&self) -> Vec<u64> {
        let mut sig = vec![0u64; self.pos.len().div_ceil(64)];
        for &v in &self.row_var {
            sig[v / 64] |= 1 << (v % 64);
        }
        sig
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn principal_exchange_inverts_a_block() {
        // w = q + M z; exchanging (0,0) then (1,1) gives z = −M⁻¹ q in c.
        let m = Matrix::from_rows(&[[2.0, 1.0], [1.0, 3.0]]).unwrap();
        let mut t = Tableau::new(&m, &[-4.0, -9.0], None);
        t.exchange(0, 0);
        t.exchange(1, 1);
        let z = t.z();
        assert!((z[0] - 0.6).abs() < 1e-12 && (z[1] - 2.8).abs() < 1e-12);
        // B⁻¹ for basis {z_0, z_1} of [I, −M]: B = −M, so B⁻¹ = −M⁻¹.
        let minv = [[0.6, -0.2], [-0.2, 0.4]];
        for i in 0..2 {
            for j in 0..2 {
                assert!((t.binv(i, j) + minv[i][j]).abs() < 1e-12);
            }
        }
    }
}
