//! Regression tests, named after what broke or what must never break.

use thud_lcp::generate::contact;
use thud_lcp::{Lcp, Method, Options, Problem, Status};

/// PSD and infeasible: enumeration can only say "singular" (the full pattern has a
/// singular block), but Lemke's ray on a PSD matrix is a proof, and `auto` keeps it.
#[test]
fn auto_keeps_lemkes_infeasibility_proof_on_psd() {
    let p: Problem = Lcp::from_rows(&[[1.0, -1.0], [-1.0, 1.0]], &[-1.0, -1.0])
        .unwrap()
        .into();
    assert_eq!(
        Method::Enumerate
            .solve(&p, &Options::default())
            .unwrap()
            .status,
        Status::Singular
    );
    assert_eq!(
        Method::Lemke.solve(&p, &Options::default()).unwrap().status,
        Status::NoSolution
    );
    assert_eq!(
        Method::Auto.solve(&p, &Options::default()).unwrap().status,
        Status::NoSolution
    );
}

/// The zero matrix is PSD (its scale is 0: the PSD test once failed on it).
#[test]
fn zero_matrix_infeasible_is_no_solution() {
    let p: Problem = Lcp::from_rows(&[[0.0]], &[-1.0]).unwrap().into();
    assert_eq!(
        Method::Auto.solve(&p, &Options::default()).unwrap().status,
        Status::NoSolution
    );
}

/// Random contact problems with coupled friction once left boxed-pivot at the
/// iteration limit (outer fixed-point passes oscillated); the linked pattern search and
/// hybrid rounds solve them.
#[test]
fn contact_problems_with_friction_solve() {
    for seed in 1000..1040 {
        for n in [6, 12, 30] {
            let p: Problem = contact(n, seed).into();
            let r = Method::BoxedPivot.solve(&p, &Options::default()).unwrap();
            assert_eq!(r.status, Status::Solved, "n = {n}, seed = {seed}");
        }
    }
}

/// A scaled copy of a problem passes or fails exactly like the original: tolerances
/// are relative.
#[test]
fn tolerances_are_relative_to_scale() {
    let base = thud_lcp::generate::spd(12, 3);
    for s in [1e-6, 1.0, 1e6] {
        let rows: Vec<Vec<f64>> = (0..12)
            .map(|i| base.m().row(i).iter().map(|v| v * s).collect())
            .collect();
        let q: Vec<f64> = base.q().iter().map(|v| v * s).collect();
        let p: Problem = Lcp::from_rows(&rows, &q).unwrap().into();
        for m in [Method::Lemke, Method::BoxedPivot, Method::Pgs, Method::Auto] {
            let r = m.solve(&p, &Options::default()).unwrap();
            assert_eq!(r.status, Status::Solved, "{m} at scale {s}");
        }
    }
}

/// An exported problem reads back bit for bit (serde_json's `float_roundtrip`), so a
/// problem dumped by the engine solves exactly as it did in memory.
#[test]
fn json_round_trip_is_exact() {
    use thud_lcp::generate::{Class, instance};
    use thud_lcp::json::{parse_problems, problem_json};
    for class in [Class::Spd, Class::Psd, Class::PMatrix, Class::Contact] {
        for seed in 0..5 {
            let p = instance(class, 9, seed);
            let text = serde_json::to_string(&problem_json(Some("x"), &p)).unwrap();
            let (back, _) = parse_problems(&text).unwrap();
            assert_eq!(back[0].problem, p, "{class:?} seed {seed}");
        }
    }
}
