//! PGS and SOR on SPD n = 100 converge to Lemke's answer; warm starts help.

use thud_lcp::generate::{contact, spd};
use thud_lcp::{Method, Options, Problem, Status};

#[test]
fn pgs_and_sor_converge_to_lemke_on_spd_100() {
    for seed in [1, 2, 3] {
        let p: Problem = spd(100, seed).into();
        let exact = Method::Lemke.solve(&p, &Options::default()).unwrap();
        assert_eq!(exact.status, Status::Solved);
        for (m, omega) in [
            (Method::Pgs, None),
            (Method::Sor, Some(1.3)),
            (Method::Sor, Some(0.8)),
        ] {
            let opts = Options {
                tolerance: 1e-12,
                max_iterations: Some(100_000),
                omega,
                ..Options::default()
            };
            let r = m.solve(&p, &opts).unwrap();
            assert_eq!(r.status, Status::Solved, "{m} ω={omega:?} seed {seed}");
            let err =
                r.z.iter()
                    .zip(&exact.z)
                    .fold(0.0f64, |e, (a, b)| e.max((a - b).abs()));
            assert!(err < 1e-8, "{m} ω={omega:?}: max |z − z_lemke| = {err}");
        }
    }
}

#[test]
fn every_exact_method_agrees_on_spd_100() {
    let p: Problem = spd(100, 7).into();
    let lemke = Method::Lemke.solve(&p, &Options::default()).unwrap();
    for m in [
        Method::Auto,
        Method::Dantzig,
        Method::DantzigSimple,
        Method::BoxedPivot,
        Method::Kolesnikov,
    ] {
        let r = m.solve(&p, &Options::default()).unwrap();
        assert_eq!(r.status, Status::Solved, "{m}");
        let err =
            r.z.iter()
                .zip(&lemke.z)
                .fold(0.0f64, |e, (a, b)| e.max((a - b).abs()));
        assert!(err < 1e-8, "{m}: {err}");
    }
}

#[test]
fn warm_start_from_the_answer_takes_one_step() {
    let p = contact(60, 11);
    let cold = Method::BoxedPivot
        .solve(&p.clone().into(), &Options::default())
        .unwrap();
    assert_eq!(cold.status, Status::Solved);
    let opts = Options {
        warm_start: Some(cold.z.clone()),
        ..Options::default()
    };
    let warm = Method::BoxedPivot.solve(&p.clone().into(), &opts).unwrap();
    assert_eq!(warm.status, Status::Solved);
    assert!(
        warm.iterations <= 2,
        "warm start took {} solves",
        warm.iterations
    );
    let pgs = Method::Pgs.solve(&p.into(), &opts).unwrap();
    assert_eq!(pgs.status, Status::Solved);
    assert!(pgs.iterations <= 2);
}

#[test]
fn jacobi_converges_on_a_diagonally_dominant_matrix() {
    let n = 30;
    let mut m = vec![vec![0.0; n]; n];
    for (i, row) in m.iter_mut().enumerate() {
        for (j, v) in row.iter_mut().enumerate() {
            *v = if i == j {
                4.0
            } else {
                1.0 / (1 + i + j) as f64
            };
        }
    }
    let q: Vec<f64> = (0..n)
        .map(|i| if i % 2 == 0 { -1.0 } else { 0.5 })
        .collect();
    let p: Problem = thud_lcp::Lcp::from_rows(&m, &q).unwrap().into();
    let exact = Method::Lemke.solve(&p, &Options::default()).unwrap();
    let r = Method::Jacobi
        .solve(
            &p,
            &Options {
                tolerance: 1e-12,
                ..Options::default()
            },
        )
        .unwrap();
    assert_eq!(r.status, Status::Solved);
    for (a, b) in r.z.iter().zip(&exact.z) {
        assert!((a - b).abs() < 1e-8);
    }
}

/// Regression: plain Jacobi diverges on a dense SPD matrix (not diagonally dominant);
/// its NaN/∞ iterate was once reported as solved because `f64::max` skips NaN.
#[test]
fn diverging_jacobi_is_not_solved() {
    let p: Problem = spd(200, 42).into();
    let r = Method::Jacobi
        .solve(
            &p,
            &Options {
                max_iterations: Some(5000),
                ..Options::default()
            },
        )
        .unwrap();
    assert_eq!(r.status, Status::IterationLimit);
    assert!(!r.residual.is_finite() || r.residual > 1e-6);
}
