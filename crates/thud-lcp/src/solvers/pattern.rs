//! Solving one active-set pattern of a boxed problem, friction coupling included.
//!
//! A pattern puts every row in `Lo`, `Hi` or `Free`. Free rows satisfy `w_i = 0`;
//! a row at a bound has its value fixed — a number (`lo_i` or `hi_i`) for an
//! ordinary row, and for a coupled friction row `t` with normal row `n`
//!
//! ```text
//! λ_t = s_t · μ · λ_n,     s_t = −1 (Lo) or +1 (Hi),
//! ```
//!
//! which is a constant when `n` is at a bound and a *linear link* when `n` is free.
//! Substituting the links, the free rows give one square linear system
//!
//! ```text
//! (A_FF + ε I + C) λ_F = −(b_F + A_{F,const} λ_const) + ε c_F,
//! C_{i,n} = Σ_{t linked to n} A_{i,t} · s_t · μ,
//! ```
//!
//! (non-symmetric once links are present; solved by LU with partial pivoting), with
//! `ε ≥ 0` and centre `c` the proximal regularization of [`super::boxed_pivot`].
//! Treating the coupling inside the pattern makes the coupled problem a finite
//! pattern search like the uncoupled one: the boxed pivoting solver and
//! enumeration handle friction exactly, without relying on outer passes to converge.

use crate::linalg::Lu;
use crate::problem::BoxedLcp;

/// Where a row sits in a pattern.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Set {
    /// At its lower bound.
    Lo,
    /// At its upper bound.
    Hi,
    /// Free: `w_i = 0`.
    Free,
}

/// Solves pattern `sets` of `p` into `lambda` (coupling from `coupled`, see
/// [`super::sor`]'s table). Returns `false` if the system is numerically singular.
pub(crate) fn solve_pattern(
    p: &BoxedLcp,
    coupled: &[Option<(usize, f64)>],
    sets: &[Set],
    eps: f64,
    centre: &[f64],
    pivot_tol: f64,
    lambda: &mut [f64],
) -> bool {
    let n = p.n();
    let (a, b, lo, hi) = (p.a(), p.b(), p.lo(), p.hi());
    let sign = |s: Set| if s == Set::Hi { 1.0 } else { -1.0 };
    // Constants first: ordinary bound rows, then coupled rows whose normal is bound.
    for i in 0..n {
        if coupled[i].is_none() {
            match sets[i] {
                Set::Lo => lambda[i] = lo[i],
                Set::Hi => lambda[i] = hi[i],
                Set::Free => {}
            }
        }
    }
    let mut index = vec![usize::MAX; n];
    let free: Vec<usize> = (0..n).filter(|&i| sets[i] == Set::Free).collect();
    for (k, &i) in free.iter().enumerate() {
        index[i] = k;
    }
    let mut links: Vec<(usize, usize, f64)> = Vec::new(); // (t, column of n, s·μ)
    for t in 0..n {
        if let (Some((nrm, mu)), false) = (coupled[t], sets[t] == Set::Free) {
            if sets[nrm] == Set::Free {
                links.push((t, index[nrm], sign(sets[t]) * mu));
                lambda[t] = 0.0;
            } else {
                lambda[t] = sign(sets[t]) * mu * lambda[nrm].max(0.0);
            }
        }
    }
    let mut constant: Vec<bool> = sets.iter().map(|&s| s != Set::Free).collect();
    for l in &links {
        constant[l.0] = false;
    }
    let k = free.len();
    let mut mat = Vec::with_capacity(k * k);
    let mut rhs = Vec::with_capacity(k);
    for &i in &free {
        let row = a.row(i);
        let start = mat.len();
        mat.extend(free.iter().map(|&j| row[j]));
        for &(t, col, smu) in &links {
            mat[start + col] += row[t] * smu;
        }
        mat[start + index[i]] += eps;
        let mut s = b[i] - eps * centre[i];
        for j in 0..n {
            if constant[j] {
                s += row[j] * lambda[j];
            }
        }
        rhs.push(-s);
    }
    let Some(lu) = Lu::factor(mat, k, pivot_tol) else {
        return false;
    };
    let x = lu.solve(&rhs);
    for (kk, &i) in free.iter().enumerate() {
        lambda[i] = x[kk];
    }
    for &(t, col, smu) in &links {
        lambda[t] = smu * x[col];
    }
    lambda.iter().all(|v| v.is_finite())
}
