//! Property tests: on random SPD and P-matrix problems (n ≤ 10) every method that
//! claims the class agrees with enumeration to 1e-8; on PSD and contact problems the
//! exact methods solve.

use proptest::prelude::*;
use thud_lcp::generate::{contact, p_matrix, psd, spd};
use thud_lcp::{Lcp, Method, Options, Problem, SolveError, Status};

fn tight() -> Options {
    Options {
        tolerance: 1e-12,
        max_iterations: None,
        ..Options::default()
    }
}

fn agree_with_enumeration(p: &Lcp, methods: &[Method]) -> Result<(), TestCaseError> {
    let problem = Problem::from(p.clone());
    let truth = Method::Enumerate.solve(&problem, &tight()).unwrap();
    prop_assert_eq!(truth.status, Status::Solved);
    for &m in methods {
        let r = m.solve(&problem, &tight()).unwrap();
        prop_assert_eq!(r.status, Status::Solved, "{} on {:?}", m, p);
        for i in 0..p.n() {
            prop_assert!(
                (r.z[i] - truth.z[i]).abs() <= 1e-8,
                "{}: z = {:?}, truth {:?}",
                m,
                r.z,
                truth.z
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, .. ProptestConfig::default() })]

    #[test]
    fn spd_methods_agree_with_enumeration(n in 1usize..=10, seed in any::<u64>()) {
        let p = spd(n, seed);
        agree_with_enumeration(&p, &[
            Method::Auto, Method::Lemke, Method::Dantzig, Method::DantzigSimple,
            Method::BoxedPivot, Method::Kolesnikov, Method::Pgs, Method::Sor,
        ])?;
    }

    #[test]
    fn p_matrix_methods_agree_with_enumeration(n in 1usize..=10, seed in any::<u64>()) {
        let p = p_matrix(n, seed);
        agree_with_enumeration(&p, &[
            Method::Auto, Method::Lemke, Method::Dantzig, Method::DantzigSimple, Method::BoxedPivot,
        ])?;
    }

    #[test]
    fn psd_exact_methods_solve(n in 1usize..=10, seed in any::<u64>()) {
        let p = psd(n, seed);
        let problem = Problem::from(p.clone());
        let truth = Method::Enumerate.solve(&problem, &tight()).unwrap();
        for m in [Method::Auto, Method::Lemke, Method::Dantzig, Method::BoxedPivot] {
            let r = m.solve(&problem, &tight()).unwrap();
            prop_assert_eq!(r.status, Status::Solved, "{} on {:?}", m, p);
            // For symmetric PSD M, w is the same at every solution.
            if truth.status == Status::Solved {
                for i in 0..n {
                    prop_assert!((r.w[i] - truth.w[i]).abs() <= 1e-7, "{}: w = {:?} vs {:?}", m, r.w, truth.w);
                }
            }
        }
    }

    #[test]
    fn contact_problems_solve(contacts in 1usize..=3, seed in any::<u64>()) {
        let p: Problem = contact(3 * contacts, seed).into();
        for m in [Method::Auto, Method::BoxedPivot, Method::Enumerate] {
            let r = m.solve(&p, &Options::default()).unwrap();
            prop_assert_eq!(r.status, Status::Solved, "{}", m);
            prop_assert!(r.residual <= 1e-8, "{}: residual {}", m, r.residual);
        }
        // PGS has no convergence guarantee with coupled friction on a singular matrix:
        // it must solve or say it ran out of sweeps, never claim a wrong answer.
        let r = Method::Pgs.solve(&p, &Options::default()).unwrap();
        prop_assert!(matches!(r.status, Status::Solved | Status::IterationLimit));
    }

    /// Any answer a method reports as solved passes the residual test, whatever the
    /// matrix (random, indefinite): statuses are never wrong.
    #[test]
    fn solved_means_solved_on_random_matrices(n in 1usize..=6, entries in proptest::collection::vec(-2.0f64..2.0, 42)) {
        let m: Vec<Vec<f64>> = (0..n).map(|i| entries[i * n..i * n + n].to_vec()).collect();
        let q = entries[36..36 + n].to_vec();
        let p = Lcp::from_rows(&m, &q).unwrap();
        let problem = Problem::from(p.clone());
        let truth = Method::Enumerate.solve(&problem, &Options::default()).unwrap();
        for method in Method::ALL {
            let r = match method.solve(&problem, &Options::default()) {
                Ok(r) => r,
                // (The interior-point method takes symmetric matrices only.)
                Err(SolveError::NotApplicable { .. }) if method == Method::InteriorPoint => continue,
                Err(e) => panic!("{method}: {e}"),
            };
            if r.status == Status::Solved {
                prop_assert!(p.passes(&r.z, 1e-9).unwrap(), "{}: {:?}", method, r);
                let scale = p.q().iter().chain(&r.z).fold(1.0f64, |a, b| a.max(b.abs()));
                prop_assert!(p.quality(&r.z).unwrap().violation <= 1e-8 * scale, "{}: {:?}", method, r);
            }
        }
        let auto = Method::Auto.solve(&problem, &Options::default()).unwrap();
        if truth.status == Status::NoSolution {
            prop_assert_eq!(auto.status, Status::NoSolution);
        }
        if truth.status == Status::Solved {
            prop_assert_eq!(auto.status, Status::Solved);
        }
    }

    /// Boxed SPD problems (unique solution) with random finite and infinite bounds:
    /// boxed-pivot, PGS, SOR and auto agree with enumeration over bound patterns, and
    /// the interior point to its looser tolerance.
    #[test]
    fn boxed_spd_methods_agree_with_enumeration(
        n in 1usize..=7,
        seed in any::<u64>(),
        kinds in proptest::collection::vec(0u8..4, 7),
        widths in proptest::collection::vec(0.0f64..2.0, 7),
    ) {
        let base = spd(n, seed);
        let (mut lo, mut hi) = (vec![0.0; n], vec![f64::INFINITY; n]);
        for i in 0..n {
            match kinds[i] {
                0 => {}
                1 => { lo[i] = -widths[i]; hi[i] = widths[i]; }
                2 => { lo[i] = f64::NEG_INFINITY; }
                _ => { lo[i] = 0.1; hi[i] = 0.1 + widths[i]; }
            }
        }
        let p: Problem = thud_lcp::BoxedLcp::new(base.m().clone(), base.q().to_vec(), lo, hi).unwrap().into();
        let truth = Method::Enumerate.solve(&p, &tight()).unwrap();
        prop_assert_eq!(truth.status, Status::Solved);
        for m in [Method::BoxedPivot, Method::Auto, Method::Pgs, Method::Sor] {
            let r = m.solve(&p, &tight()).unwrap();
            prop_assert_eq!(r.status, Status::Solved, "{}", m);
            for i in 0..n {
                prop_assert!((r.z[i] - truth.z[i]).abs() <= 1e-8, "{}: {:?} vs {:?}", m, r.z, truth.z);
            }
        }
        // The interior point approaches a weakly held bound only as fast as its barrier
        // lets it: its answers are held to 10⁻¹⁰, not 10⁻¹².
        let r = Method::InteriorPoint.solve(&p, &Options { tolerance: 1e-10, ..tight() }).unwrap();
        prop_assert_eq!(r.status, Status::Solved);
        for i in 0..n {
            prop_assert!((r.z[i] - truth.z[i]).abs() <= 1e-7, "interior-point: {:?} vs {:?}", r.z, truth.z);
        }
    }
}
