//! A workspace kept from solve to solve (`boxed_pivot::solve_boxed_in`) gives the
//! reports a fresh solve gives, to the bit, whatever it solved before; a problem's
//! bounds replaced in place are checked as a new problem's are.

use thud_lcp::generate::contact;
use thud_lcp::solvers::boxed_pivot::{solve_boxed, solve_boxed_in};
use thud_lcp::{BoxedLcp, Matrix, Options, ProblemError, Report, Workspace};

/// A report's every value as bits (NaN and signed zeros told apart).
fn bits(r: &Report) -> (Vec<u64>, Vec<u64>, thud_lcp::Status, usize, u64) {
    let b = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    (
        b(&r.z),
        b(&r.w),
        r.status,
        r.iterations,
        r.residual.to_bits(),
    )
}

/// The same contact problem with its friction rows' bounds fixed from a guess of the
/// normal impulses, as the exact step mode's outer passes pose them.
fn fixed_bounds(p: &BoxedLcp, guess: f64) -> BoxedLcp {
    let (mut lo, mut hi) = (p.lo().to_vec(), p.hi().to_vec());
    for c in p.coupling() {
        lo[c.t] = -c.mu * guess;
        hi[c.t] = c.mu * guess;
    }
    BoxedLcp::new(p.a().clone(), p.b().to_vec(), lo, hi).unwrap()
}

#[test]
fn a_kept_workspace_gives_a_fresh_solves_bits_over_problems_of_every_size() {
    let mut ws = Workspace::new();
    let (mut solved, mut capped) = (0, 0);
    // Sizes up and down, so that every buffer is met both larger and smaller than
    // the problem; coupled problems and fixed-bound ones; cold and warm starts.
    for (k, n) in [30, 90, 12, 120, 45, 3, 60].into_iter().enumerate() {
        for seed in 0..2 {
            let coupled = contact(n, 100 * k as u64 + seed);
            for p in [fixed_bounds(&coupled, 1.0), coupled] {
                // (A cap of two linear solves ends most searches early: the hybrid
                // rounds and the reports of unfinished searches.)
                for (warm, cap) in [
                    (None, None),
                    (Some(vec![0.5; p.n()]), None),
                    (None, Some(2)),
                ] {
                    let opts = Options {
                        warm_start: warm,
                        max_iterations: cap,
                        ..Options::default()
                    };
                    let fresh = solve_boxed(&p, &opts).unwrap();
                    let kept = solve_boxed_in(&p, &opts, &mut ws).unwrap();
                    assert_eq!(bits(&kept), bits(&fresh), "n {n}, seed {seed}");
                    if cap.is_none() {
                        solved += usize::from(fresh.is_solved());
                    } else {
                        capped += usize::from(!fresh.is_solved());
                    }
                    ws.recycle(kept);
                }
            }
        }
    }
    assert_eq!(solved, 56, "every problem solved");
    assert!(
        capped > 10,
        "only {capped} of 28 capped searches unfinished"
    );
}

#[test]
fn bounds_set_in_place_are_checked_and_a_refused_set_changes_nothing() {
    let a = Matrix::from_row_major(2, 2, vec![2.0, 0.5, 0.5, 1.0]).unwrap();
    let inf = f64::INFINITY;
    let mut p = BoxedLcp::new(a, vec![-1.0, 0.3], vec![0.0, -1.0], vec![inf, 1.0]).unwrap();
    let before = p.clone();
    assert!(matches!(
        p.set_bounds(&[0.0, f64::NAN], &[inf, 1.0]),
        Err(ProblemError::NanBound { what: "lo", row: 1 })
    ));
    assert!(matches!(
        p.set_bounds(&[0.0, 2.0], &[inf, 1.0]),
        Err(ProblemError::InvertedBounds { row: 1, .. })
    ));
    assert!(matches!(
        p.set_bounds(&[0.0], &[inf]),
        Err(ProblemError::SizeMismatch { what: "lo", .. })
    ));
    assert_eq!(p, before, "refused bounds leave the problem as it was");
    p.set_bounds(&[0.0, -0.2], &[inf, 0.2]).unwrap();
    assert_eq!((p.lo(), p.hi()), (&[0.0, -0.2][..], &[inf, 0.2][..]));
    // The same answer as a problem made with those bounds.
    let made = BoxedLcp::new(
        p.a().clone(),
        p.b().to_vec(),
        p.lo().to_vec(),
        p.hi().to_vec(),
    );
    let opts = Options::default();
    assert_eq!(
        bits(&solve_boxed(&p, &opts).unwrap()),
        bits(&solve_boxed(&made.unwrap(), &opts).unwrap())
    );
    // Its parts back, for the next problem's buffers.
    let (a, b, lo, hi) = p.into_parts();
    assert_eq!((a.rows(), b.len(), lo.len(), hi.len()), (2, 2, 2, 2));
}
