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
use crate::matrix::Spans;
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
/// `singular_fallback` asks for a proximal least-change solve instead. With `spans`
/// (`A`'s rows' nonzero runs) the block is gathered from each row's run alone, and
/// each right-hand side sums only the constant rows in it: the same values, since the
/// other entries are zero.
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_pattern(
    p: &BoxedLcp,
    spans: Option<&Spans>,
    coupled: &[Option<(usize, f64)>],
    sets: &[Set],
    eps: f64,
    centre: &[f64],
    pivot_tol: f64,
    singular_fallback: bool,
    lambda: &mut [f64],
) -> Outcome {
    let mut scratch = PatternScratch::default();
    let pattern = (sets, eps, centre);
    let tolerances = (pivot_tol, singular_fallback);
    solve_pattern_in(
        p,
        (spans, coupled, false),
        pattern,
        tolerances,
        lambda,
        &mut scratch,
    )
}

/// The buffers of [`solve_pattern_in`], kept from one pattern to the next (a pivoting
/// search solves many): once grown, a pattern allocates nothing.
#[derive(Debug, Clone, Default)]
pub(crate) struct PatternScratch {
    index: Vec<usize>,
    free: Vec<usize>,
    /// (friction row `t`, the block column of its normal row, `s·μ`).
    links: Vec<(usize, usize, f64)>,
    constant: Vec<bool>,
    constants: Vec<usize>,
    rhs: Vec<f64>,
    bands: Vec<(usize, usize)>,
    /// The block, gathered into the factorization's own buffer.
    lu: Lu,
    x: Vec<f64>,
    /// The ranges of `lu`'s buffer that the last block and its factors may have left
    /// nonzero ([`Lu::written_into`]; the whole block after a dense gather): the next
    /// gather from the rows' runs zeroes only these (a contact island's block is
    /// banded: on `tower_20`, 240 rows of about 50 nonzeros, of a 460 KB buffer).
    dirty: Vec<(usize, usize)>,
}

/// Each row's friction coupling `(normal row, μ)` (`super::sor::coupling_table`).
pub(crate) type Coupled = [Option<(usize, f64)>];

/// [`solve_pattern`] in `scratch`'s buffers: `(spans, coupled, symmetric)` (the first
/// two as there), the pattern `(sets, eps, centre)` and `(pivot_tol,
/// singular_fallback)`. The same operations in the same order, so the same bits. With
/// `symmetric` (the caller found `A` symmetric bit for bit: `Spans::symmetric_in`) a
/// pattern without friction links — its block
/// `A_FF + εI` then symmetric too — is factored as `L D Lᵀ` instead of by the LU
/// (`Lu::refactor_symmetric`: about a quarter of the banded LU's work).
pub(crate) fn solve_pattern_in(
    p: &BoxedLcp,
    (spans, coupled, symmetric): (Option<&Spans>, &Coupled, bool),
    (sets, eps, centre): (&[Set], f64, &[f64]),
    (pivot_tol, singular_fallback): (f64, bool),
    lambda: &mut [f64],
    scratch: &mut PatternScratch,
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
    let PatternScratch {
        index,
        free,
        links,
        constant,
        constants,
        rhs,
        bands,
        lu,
        x,
        dirty,
    } = scratch;
    // (Every buffer whose length depends on the pattern is given room for the whole
    // problem, so that a later pattern with more free rows finds it there.)
    index.clear();
    index.resize(n, usize::MAX);
    free.clear();
    free.reserve(n);
    free.extend((0..n).filter(|&i| sets[i] == Set::Free));
    for (k, &i) in free.iter().enumerate() {
        index[i] = k;
    }
    links.clear();
    links.reserve(n);
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
    constant.clear();
    constant.extend(sets.iter().map(|&s| s != Set::Free));
    for l in links.iter() {
        constant[l.0] = false;
    }
    // The rows whose value is a number, in ascending order (each free row's sum below
    // adds their terms in that order).
    constants.clear();
    constants.reserve(n);
    constants.extend((0..n).filter(|&j| constant[j]));
    let k = free.len();
    lu.reserve(n);
    x.reserve(n);
    let mat = &mut lu.lu;
    if spans.is_some() {
        // Row `r` of the block at `r·k`, written from its run alone: the buffer is
        // zero but where the last block left entries.
        for &(from, to) in dirty.iter() {
            mat[from..to].fill(0.0);
        }
        // (One entry past the block: where a run's entries outside the block go.)
        if mat.len() < k * k + 1 {
            mat.resize(k * k + 1, 0.0);
        }
    } else {
        mat.clear();
        mat.reserve(n * n);
    }
    rhs.clear();
    rhs.reserve(n);
    // With spans, each block row's written columns `[first, end)` (for the LU).
    bands.clear();
    bands.reserve(n);
    for (kk, &i) in free.iter().enumerate() {
        let row = a.row(i);
        let start = kk * k;
        let run = match spans {
            Some(spans) => {
                let r = spans.of_row(i);
                let mut band = (index[i], index[i] + 1);
                // Every entry of the run is written, those of rows at a bound to the
                // entry past the block, and the band takes the free ones (`usize::MAX`
                // changes neither bound): no branch on which rows are free, which a
                // pattern mixes at random (the same block either way).
                let trash = k * k;
                for (j, &v) in r.clone().zip(&row[r.clone()]) {
                    let c = index[j];
                    mat[if c == usize::MAX { trash } else { start + c }] = v;
                    band = (band.0.min(c), band.1.max(c.wrapping_add(1)));
                }
                // (The links are in row order; those outside the run add zeros.)
                let from = links.partition_point(|l| l.0 < r.start);
                for &(t, col, smu) in links[from..].iter().take_while(|l| l.0 < r.end) {
                    mat[start + col] += row[t] * smu;
                    band = (band.0.min(col), band.1.max(col + 1));
                }
                bands.push(band);
                r
            }
            None => {
                mat.extend(free.iter().map(|&j| row[j]));
                for &(t, col, smu) in links.iter() {
                    mat[start + col] += row[t] * smu;
                }
                0..n
            }
        };
        mat[start + index[i]] += eps;
        let mut s = b[i] - eps * centre[i];
        let from = constants.partition_point(|&j| j < run.start);
        for &j in constants[from..].iter().take_while(|&&j| j < run.end) {
            s += row[j] * lambda[j];
        }
        rhs.push(-s);
    }
    let backup = singular_fallback.then(|| mat[..k * k].to_vec());
    let band_rows = (!bands.is_empty()).then_some(&bands[..]);
    let factored = if symmetric && links.is_empty() {
        lu.refactor_symmetric(k, pivot_tol, band_rows)
    } else {
        lu.refactor(k, pivot_tol, band_rows)
    };
    match band_rows {
        Some(rows) => {
            lu.written_into(rows, dirty);
            dirty.push((k * k, k * k + 1));
        }
        None => {
            dirty.clear();
            dirty.push((0, k * k));
        }
    }
    let regular = if factored {
        lu.solve_into(rhs, x);
        true
    } else {
        match backup.and_then(|m| least_change_solve(m, k, rhs, pivot_tol)) {
            Some(solved) => {
                *x = solved;
                false
            }
            None => return Outcome::Failed,
        }
    };
    for (kk, &i) in free.iter().enumerate() {
        lambda[i] = x[kk];
    }
    for &(t, col, smu) in links.iter() {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{Rng, contact};
    use crate::solvers::sor::coupling_table;

    /// A contact problem of about `size` rows (`generate::contact`) whose normal rows get
    /// finite boxes off zero, so that rows at a bound carry values into the right-hand
    /// sides, and its coupling table.
    fn boxed_contact(
        size: usize,
        seed: u64,
        rng: &mut Rng,
    ) -> (BoxedLcp, Vec<Option<(usize, f64)>>) {
        let c = contact(size, seed);
        let coupled = coupling_table(&c);
        let (lo, hi): (Vec<f64>, Vec<f64>) = (0..c.n())
            .map(|i| match coupled[i] {
                Some(_) => (c.lo()[i], c.hi()[i]),
                None => (rng.uniform(-0.5, -0.1), rng.uniform(0.2, 0.8)),
            })
            .unzip();
        let p = BoxedLcp::new(c.a().clone(), c.b().to_vec(), lo, hi)
            .and_then(|p| p.with_friction(c.coupling().iter().copied()))
            .unwrap();
        (p, coupled)
    }

    /// A pattern solved from the rows' nonzero runs (the exact mode's path: block
    /// gathered from the runs, right-hand sides over the constants in them, the LU
    /// told each row's band) gives the dense path's bits, friction links included.
    #[test]
    fn a_pattern_from_the_rows_runs_is_the_dense_patterns_bits() {
        let mut rng = Rng::new(7);
        let mut compared = 0;
        for seed in 0..30 {
            let (p, coupled) = boxed_contact(24 + 6 * (seed as usize % 8), seed, &mut rng);
            let n = p.n();
            let spans = Spans::of(p.a());
            let centre: Vec<f64> = (0..n).map(|_| rng.uniform(-0.1, 0.4)).collect();
            for _ in 0..4 {
                let sets: Vec<Set> = (0..n)
                    .map(|_| match rng.next_u64() % 4 {
                        0 => Set::Lo,
                        1 => Set::Hi,
                        _ => Set::Free,
                    })
                    .collect();
                let start: Vec<f64> = (0..n).map(|_| rng.uniform(0.0, 1.0)).collect();
                let eps = 1e-6;
                let (mut dense, mut runs) = (start.clone(), start.clone());
                let solve = |s: Option<&Spans>, l: &mut [f64]| {
                    solve_pattern(&p, s, &coupled, &sets, eps, &centre, 1e-13, false, l)
                };
                let (a, b) = (solve(None, &mut dense), solve(Some(&spans), &mut runs));
                assert_eq!(a, b, "seed {seed}");
                if a != Outcome::Failed {
                    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                    assert_eq!(bits(&dense), bits(&runs), "seed {seed}");
                    compared += 1;
                }
            }
        }
        assert!(compared > 60, "only {compared} patterns solved");
    }

    /// One scratch kept from pattern to pattern (the pivoting search's way: its block's
    /// buffer zeroed only where the last block and its factors wrote) gives the bits of
    /// a fresh scratch for each, through blocks that grow and shrink, factorizations
    /// that stop at a small pivot and row swaps.
    #[test]
    fn a_kept_scratch_gives_a_fresh_scratchs_bits() {
        let mut rng = Rng::new(11);
        let mut kept = PatternScratch::default();
        let (mut solved, mut failed) = (0, 0);
        for seed in 0..40 {
            // (Finite boxes for the normal rows: any pattern is finite.)
            let (p, coupled) = boxed_contact(18 + 6 * (seed as usize % 9), seed, &mut rng);
            let n = p.n();
            let spans = Spans::of(p.a());
            let centre: Vec<f64> = (0..n).map(|_| rng.uniform(0.0, 0.3)).collect();
            for round in 0..6 {
                let free_share = [0.9, 0.3, 0.6, 1.0, 0.5, 0.8][round];
                let sets: Vec<Set> = (0..n)
                    .map(|_| match rng.uniform(0.0, 1.0) {
                        u if u < free_share => Set::Free,
                        u if u < (1.0 + free_share) / 2.0 => Set::Lo,
                        _ => Set::Hi,
                    })
                    .collect();
                let start: Vec<f64> = (0..n).map(|_| rng.uniform(0.0, 1.0)).collect();
                // Unregularized patterns stop at small pivots now and then.
                let eps = if round % 3 == 0 { 0.0 } else { 1e-4 };
                let (mut fresh, mut reused) = (start.clone(), start.clone());
                let solve = |lambda: &mut [f64], scratch: &mut PatternScratch| {
                    let pattern = (&sets[..], eps, &centre[..]);
                    solve_pattern_in(
                        &p,
                        (Some(&spans), &coupled, false),
                        pattern,
                        (1e-13, false),
                        lambda,
                        scratch,
                    )
                };
                let a = solve(&mut fresh, &mut PatternScratch::default());
                let b = solve(&mut reused, &mut kept);
                assert_eq!(a, b, "seed {seed}, round {round}");
                let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                if a == Outcome::Failed {
                    failed += 1;
                } else {
                    assert_eq!(bits(&fresh), bits(&reused), "seed {seed}, round {round}");
                    solved += 1;
                }
            }
        }
        assert!(
            solved > 100 && failed > 0,
            "solved {solved}, failed {failed}"
        );
    }
}
