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
/// [`super::sor`]'s table). A numerically singular block fails, unless
/// `singular_fallback` asks for a proximal least-change solve instead.
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_pattern(
    p: &BoxedLcp,
    coupled: &[Option<(usize, f64)>],
    sets: &[Set],
    eps: f64,
    centre: &[f64],
    pivot_tol: f64,
    singular_fallback: bool,
    lambda: &mut [f64],
) -> Outcome {
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
    // The rows whose value is a number, in ascending order (each free row's sum below
    // adds their terms in that order).
    let constants: Vec<usize> = (0..n).filter(|&j| constant[j]).collect();
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
        for &j in &constants {
            s += row[j] * lambda[j];
        }
        rhs.push(-s);
    }
    let backup = singular_fallback.then(|| mat.clone());
    let (x, regular) = match Lu::factor(mat, k, pivot_tol) {
        Some(lu) => (lu.solve(&rhs), true),
        None => match backup.and_then(|m| least_change_solve(m, k, &rhs, pivot_tol)) {
            Some(x) => (x, false),
            None => return Outcome::Failed,
        },
    };
    for (kk, &i) in free.iter().enumerate() {
        lambda[i] = x[kk];
    }
    for &(t, col, smu) in &links {
        lambda[t] = smu * x[col];
    }
    if !lambda.iter().all(|v| v.is_finite()) {
        Outcome::Failed
    } else if regular {
        Outcome::Regular
    } else {
        Outcome::Singular
    }
}

/// How a pattern solve went.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Outcome {
    /// The block was regular: the pattern's unique point.
    Regular,
    /// The block was singular; the point is one solution of a consistent system (or
    /// a least-change point of an inconsistent one) — other points may exist.
    Singular,
    /// Numerically singular (and no fallback asked for), or non-finite.
    Failed,
}

/// For a singular block `K x = r`: proximal iterations `(K + δI) x⁺ = r + δ x` from
/// `x = 0`, which converge to a solution when the system is consistent.
fn least_change_solve(mut m: Vec<f64>, k: usize, rhs: &[f64], pivot_tol: f64) -> Option<Vec<f64>> {
    let delta = 1e-8 * m.iter().fold(0.0f64, |a, v| a.max(v.abs())).max(pivot_tol);
    for d in 0..k {
        m[d * k + d] += delta;
    }
    let lu = Lu::factor(m, k, pivot_tol * 1e-3)?;
    let mut x = vec![0.0; k];
    let mut r = vec![0.0; k];
    for _ in 0..200 {
        for i in 0..k {
            r[i] = rhs[i] + delta * x[i];
        }
        let next = lu.solve(&r);
        let change = next
            .iter()
            .zip(&x)
            .fold(0.0f64, |a, (p, q)| a.max((p - q).abs()));
        let size = next.iter().fold(0.0f64, |a, v| a.max(v.abs()));
        x = next;
        if change <= 1e-14 * size.max(f64::MIN_POSITIVE) {
            break;
        }
    }
    Some(x)
}
