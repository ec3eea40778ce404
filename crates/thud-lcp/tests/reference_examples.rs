//! The worked examples of the reference note §6, for every method that applies.

use thud_lcp::{BoxedLcp, Lcp, Method, Options, Problem, Status};

const PIVOTING: [Method; 7] = [
    Method::Auto,
    Method::Lemke,
    Method::Dantzig,
    Method::DantzigSimple,
    Method::BoxedPivot,
    Method::Kolesnikov,
    Method::Enumerate,
];

fn check(p: &Lcp, methods: &[Method], z: &[f64], w: &[f64], tol: f64) {
    let problem = Problem::from(p.clone());
    let opts = Options {
        tolerance: 1e-12,
        ..Options::default()
    };
    for &m in methods {
        let r = m
            .solve(&problem, &opts)
            .unwrap_or_else(|e| panic!("{m}: {e}"));
        assert_eq!(r.status, Status::Solved, "{m}: {r:?}");
        for i in 0..z.len() {
            assert!((r.z[i] - z[i]).abs() < tol, "{m}: z = {:?}", r.z);
            assert!((r.w[i] - w[i]).abs() < tol, "{m}: w = {:?}", r.w);
        }
        assert!(r.residual <= 1e-10, "{m}: residual {}", r.residual);
    }
}

/// `002_…`: M = [[2,1],[1,3]], q = (−4, −9) → z = (0.6, 2.8), w = 0. Symmetric PD, so
/// the iterative methods apply too.
#[test]
fn example_1_spd_two_by_two() {
    let p = Lcp::from_rows(&[[2.0, 1.0], [1.0, 3.0]], &[-4.0, -9.0]).unwrap();
    check(&p, &PIVOTING, &[0.6, 2.8], &[0.0, 0.0], 1e-12);
    check(
        &p,
        &[Method::Pgs, Method::Sor, Method::Jacobi],
        &[0.6, 2.8],
        &[0.0, 0.0],
        1e-9,
    );
}

/// `001_…` example 1: one energy step gives z = (0, 1, 0), w = (3, 0, 2).
#[test]
fn example_2_one_energy_step() {
    let p = Lcp::from_rows(
        &[[1.0, 2.0, 1.0], [1.0, 1.0, 2.0], [2.0, 1.0, 1.0]],
        &[1.0, -1.0, 1.0],
    )
    .unwrap();
    check(&p, &PIVOTING, &[0.0, 1.0, 0.0], &[3.0, 0.0, 2.0], 1e-12);
    let r = Method::Kolesnikov
        .solve(&p.into(), &Options::default())
        .unwrap();
    assert_eq!(r.iterations, 1, "the paper's claim: one step");
}

/// `001_…` example 2: degenerate; plain Lemke is reported to cycle. Lexicographic Lemke
/// and the other pivoting methods give z = (1/3, 1/3, 1/3), w = 0.
#[test]
fn example_3_degenerate() {
    let p = Lcp::from_rows(
        &[[1.0, 2.0, 0.0], [0.0, 1.0, 2.0], [2.0, 0.0, 1.0]],
        &[-1.0; 3],
    )
    .unwrap();
    let third = 1.0 / 3.0;
    check(&p, &PIVOTING, &[third; 3], &[0.0; 3], 1e-12);
    let r = Method::Kolesnikov
        .solve(&p.into(), &Options::default())
        .unwrap();
    assert!(
        r.iterations <= 5,
        "the paper: five steps, got {}",
        r.iterations
    );
}

/// The iterative methods do not apply to example 3 (M is not symmetric, and PGS
/// does not converge on it): they must say so honestly, never claim a solution.
#[test]
fn example_3_iterative_methods_do_not_claim_success() {
    let p = Lcp::from_rows(
        &[[1.0, 2.0, 0.0], [0.0, 1.0, 2.0], [2.0, 0.0, 1.0]],
        &[-1.0; 3],
    )
    .unwrap();
    for m in [Method::Jacobi, Method::Pgs, Method::Sor] {
        let opts = Options {
            max_iterations: Some(500),
            ..Options::default()
        };
        let r = m.solve(&p.clone().into(), &opts).unwrap();
        if r.status == Status::Solved {
            assert!(r.residual < 1e-8);
        } else {
            assert_eq!(r.status, Status::IterationLimit, "{m}");
        }
    }
}

/// Any M with q ≥ 0: z = 0, w = q, for every method.
#[test]
fn example_4_trivial_start() {
    let p = Lcp::from_rows(
        &[[1.0, -3.0, 2.0], [4.0, 0.5, 1.0], [-2.0, 1.0, 0.0]],
        &[1.0, 0.0, 2.5],
    )
    .unwrap();
    for m in Method::ALL {
        let r = m.solve(&p.clone().into(), &Options::default()).unwrap();
        assert_eq!(r.status, Status::Solved, "{m}");
        assert_eq!(r.z, vec![0.0; 3], "{m}");
        assert_eq!(r.w, vec![1.0, 0.0, 2.5], "{m}");
    }
}

/// Example 1 posed as a boxed problem with `lo = 0, hi = ∞` is a plain LCP: every
/// method sees through it.
#[test]
fn example_1_as_a_boxed_problem() {
    let inf = f64::INFINITY;
    let p = BoxedLcp::from_rows(
        &[[2.0, 1.0], [1.0, 3.0]],
        &[-4.0, -9.0],
        &[0.0, 0.0],
        &[inf, inf],
    )
    .unwrap();
    for m in Method::ALL {
        let r = m.solve(&p.clone().into(), &Options::default()).unwrap();
        assert_eq!(r.status, Status::Solved, "{m}");
        assert!(
            (r.z[0] - 0.6).abs() < 1e-8 && (r.z[1] - 2.8).abs() < 1e-8,
            "{m}: {:?}",
            r.z
        );
    }
}

/// A box that binds: example 1 with λ₁ ≤ 1. Then λ₁ = 1, λ₀ = 1.5 (w₀ = 0),
/// w₁ = 1.5 + 3 − 9 = −4.5 ≤ 0.
#[test]
fn example_1_with_an_upper_bound() {
    let inf = f64::INFINITY;
    let p = BoxedLcp::from_rows(
        &[[2.0, 1.0], [1.0, 3.0]],
        &[-4.0, -9.0],
        &[0.0, 0.0],
        &[inf, 1.0],
    )
    .unwrap();
    for m in [
        Method::Auto,
        Method::BoxedPivot,
        Method::Enumerate,
        Method::Pgs,
        Method::Sor,
        Method::Jacobi,
    ] {
        let r = m.solve(&p.clone().into(), &Options::default()).unwrap();
        assert_eq!(r.status, Status::Solved, "{m}");
        assert!(
            (r.z[0] - 1.5).abs() < 1e-8 && (r.z[1] - 1.0).abs() < 1e-8,
            "{m}: {:?}",
            r.z
        );
        assert!((r.w[1] + 4.5).abs() < 1e-8);
    }
    for m in [
        Method::Lemke,
        Method::Dantzig,
        Method::DantzigSimple,
        Method::Kolesnikov,
    ] {
        assert!(
            m.solve(&p.clone().into(), &Options::default()).is_err(),
            "{m} must refuse a boxed problem"
        );
    }
}
