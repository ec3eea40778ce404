//! Every validation error, typed and naming the offending row; never a panic.

use thud_lcp::json::parse_problems;
use thud_lcp::{
    BoxedLcp, FrictionPair, Lcp, Matrix, Method, Options, Problem, ProblemError, SolveError,
};

const INF: f64 = f64::INFINITY;

#[test]
fn lcp_constructor_errors() {
    let e = Lcp::new(Matrix::zeros(2, 3), vec![0.0; 2]).unwrap_err();
    assert_eq!(e, ProblemError::NotSquare { rows: 2, cols: 3 });
    let e = Lcp::from_rows(&[vec![1.0, 2.0], vec![3.0]], &[0.0, 0.0]).unwrap_err();
    assert_eq!(
        e,
        ProblemError::RaggedRow {
            row: 1,
            len: 1,
            expected: 2
        }
    );
    let e = Lcp::from_rows(&[[1.0, 0.0], [0.0, 1.0]], &[0.0]).unwrap_err();
    assert_eq!(
        e,
        ProblemError::SizeMismatch {
            what: "q",
            len: 1,
            expected: 2
        }
    );
    let e = Lcp::from_rows(&[[1.0, 0.0], [f64::NAN, 1.0]], &[0.0, 0.0]).unwrap_err();
    assert!(matches!(
        e,
        ProblemError::NonFiniteMatrix { row: 1, col: 0, .. }
    ));
    let e = Lcp::from_rows(&[[1.0, INF], [0.0, 1.0]], &[0.0, 0.0]).unwrap_err();
    assert!(matches!(
        e,
        ProblemError::NonFiniteMatrix { row: 0, col: 1, .. }
    ));
    let e = Lcp::from_rows(&[[1.0, 0.0], [0.0, 1.0]], &[0.0, -INF]).unwrap_err();
    assert!(matches!(
        e,
        ProblemError::NonFiniteVector {
            what: "q",
            row: 1,
            ..
        }
    ));
    assert!(e.to_string().contains("q[1]"));
    let e = Matrix::from_row_major(2, 2, vec![1.0; 3]).unwrap_err();
    assert!(matches!(e, ProblemError::DataLength { len: 3, .. }));
}

#[test]
fn boxed_constructor_errors() {
    let a = [[1.0, 0.0], [0.0, 1.0]];
    let e = BoxedLcp::from_rows(&a, &[0.0, f64::NAN], &[0.0; 2], &[1.0; 2]).unwrap_err();
    assert!(matches!(
        e,
        ProblemError::NonFiniteVector {
            what: "b",
            row: 1,
            ..
        }
    ));
    let e = BoxedLcp::from_rows(&a, &[0.0; 2], &[0.0], &[1.0; 2]).unwrap_err();
    assert_eq!(
        e,
        ProblemError::SizeMismatch {
            what: "lo",
            len: 1,
            expected: 2
        }
    );
    let e = BoxedLcp::from_rows(&a, &[0.0; 2], &[0.0; 2], &[1.0, f64::NAN]).unwrap_err();
    assert_eq!(e, ProblemError::NanBound { what: "hi", row: 1 });
    let e = BoxedLcp::from_rows(&a, &[0.0; 2], &[0.0, 2.0], &[1.0, 1.0]).unwrap_err();
    assert_eq!(
        e,
        ProblemError::InvertedBounds {
            row: 1,
            lo: 2.0,
            hi: 1.0
        }
    );
    assert!(e.to_string().contains("row 1"));
    // Infinite bounds are fine, and lo ≤ 0 ≤ hi is not required.
    assert!(BoxedLcp::from_rows(&a, &[0.0; 2], &[-INF, 1.0], &[INF, 2.0]).is_ok());
}

#[test]
fn coupling_errors() {
    let a = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    let p = BoxedLcp::from_rows(&a, &[0.0; 3], &[0.0; 3], &[INF; 3]).unwrap();
    let bad = |pairs: Vec<(usize, usize, f64)>| p.clone().with_friction(pairs).unwrap_err();
    for (pairs, pair, reason) in [
        (vec![(3, 0, 0.5)], 0, "out of range"),
        (vec![(1, 1, 0.5)], 0, "itself"),
        (vec![(1, 0, -0.5)], 0, "non-negative"),
        (vec![(1, 0, f64::NAN)], 0, "finite"),
        (vec![(1, 0, 0.5), (1, 2, 0.5)], 1, "already coupled"),
        (vec![(1, 0, 0.5), (2, 1, 0.5)], 1, "normal row"),
    ] {
        match bad(pairs) {
            ProblemError::BadCoupling {
                pair: k, reason: r, ..
            } => {
                assert_eq!(k, pair);
                assert!(r.contains(reason), "{r}");
            }
            e => panic!("unexpected {e:?}"),
        }
    }
    let ok = p.with_friction([
        FrictionPair {
            t: 1,
            n: 0,
            mu: 0.5,
        },
        FrictionPair {
            t: 2,
            n: 0,
            mu: 0.5,
        },
    ]);
    assert!(ok.is_ok());
}

#[test]
fn solve_errors() {
    let lcp = Lcp::from_rows(&[[2.0, 1.0], [1.0, 3.0]], &[-4.0, -9.0]).unwrap();
    let problem: Problem = lcp.clone().into();
    let boxed: Problem = BoxedLcp::from_rows(&[[1.0]], &[-1.0], &[-1.0], &[1.0])
        .unwrap()
        .into();
    for m in [
        Method::Lemke,
        Method::Dantzig,
        Method::DantzigSimple,
        Method::Kolesnikov,
    ] {
        assert!(
            matches!(
                m.solve(&boxed, &Options::default()),
                Err(SolveError::NotApplicable { .. })
            ),
            "{m}"
        );
    }
    let big: Problem = thud_lcp::generate::spd(21, 0).into();
    assert_eq!(
        Method::Enumerate.solve(&big, &Options::default()),
        Err(SolveError::TooLarge {
            method: "enumerate",
            n: 21,
            max: 20
        })
    );
    for (opts, option) in [
        (
            Options {
                omega: Some(2.0),
                ..Options::default()
            },
            "omega",
        ),
        (
            Options {
                omega: Some(0.0),
                ..Options::default()
            },
            "omega",
        ),
        (
            Options {
                tolerance: f64::NAN,
                ..Options::default()
            },
            "tolerance",
        ),
        (
            Options {
                tolerance: -1.0,
                ..Options::default()
            },
            "tolerance",
        ),
        (
            Options {
                warm_start: Some(vec![0.0]),
                ..Options::default()
            },
            "warm_start",
        ),
        (
            Options {
                warm_start: Some(vec![0.0, f64::NAN]),
                ..Options::default()
            },
            "warm_start",
        ),
        (
            Options {
                covering: Some(vec![1.0, 0.0]),
                ..Options::default()
            },
            "covering",
        ),
        (
            Options {
                covering: Some(vec![1.0]),
                ..Options::default()
            },
            "covering",
        ),
    ] {
        for m in Method::ALL {
            match m.solve(&problem, &opts) {
                Err(SolveError::BadOption { option: o, .. }) => assert_eq!(o, option, "{m}"),
                r => panic!("{m}: {option} accepted: {r:?}"),
            }
        }
    }
    assert!("lemke".parse::<Method>().is_ok());
    assert!(
        "simplex"
            .parse::<Method>()
            .unwrap_err()
            .to_string()
            .contains("simplex")
    );
    assert!(lcp.residual(&[1.0]).is_err());
}

fn json_err(text: &str) -> String {
    parse_problems(text).unwrap_err().to_string()
}

#[test]
fn json_errors_name_the_problem_and_the_field() {
    let cases: &[(&str, &[&str])] = &[
        ("{", &["input", "not valid JSON"]),
        ("[1]", &["problem 0", "(problem)"]),
        (r#"{"q": [1]}"#, &["problem 0", "\"M\"", "missing"]),
        (
            r#"[{"M": [[1]], "q": [1]}, {"name": "b", "M": [[1]]}]"#,
            &["problem 1 (\"b\")", "\"q\"", "missing"],
        ),
        (r#"{"M": [[1, 2], [3]], "q": [1, 1]}"#, &["\"M[1]\""]),
        (
            r#"{"M": [[1, "x"], [3, 4]], "q": [1, 1]}"#,
            &["\"M[0][1]\"", "expected a number"],
        ),
        (r#"{"M": 3, "q": [1]}"#, &["\"M\""]),
        (
            r#"{"M": [[1, 2], [3, 4]], "q": [1]}"#,
            &["\"q\"", "1 entries, expected 2"],
        ),
        (r#"{"M": [[1, 2]], "q": [1]}"#, &["\"M\"", "not square"]),
        (r#"{"M": [[1]], "q": ["inf"]}"#, &["\"q[0]\""]),
        (r#"{"name": 4, "M": [[1]], "q": [1]}"#, &["\"name\""]),
        (r#"{"M": [[1]], "A": [[1]], "q": [1]}"#, &["both"]),
        (
            r#"{"A": [[1]], "b": [1], "lo": ["up"], "hi": [1]}"#,
            &["\"lo[0]\"", "\"inf\""],
        ),
        (
            r#"{"A": [[1]], "b": [1], "lo": [2], "hi": [1]}"#,
            &["\"lo[0]\"", "exceeds"],
        ),
        (
            r#"{"A": [[1]], "b": [1], "lo": [0]}"#,
            &["\"hi\"", "missing"],
        ),
        (
            r#"{"A": [[1, 0], [0, 1]], "b": [1, 1], "lo": [0, 0], "hi": [1, 1], "friction_coupling": {"mu": 0.5, "pairs": [[1, 5]]}}"#,
            &["friction_coupling.pairs[0]", "out of range"],
        ),
        (
            r#"{"A": [[1, 0], [0, 1]], "b": [1, 1], "lo": [0, 0], "hi": [1, 1], "friction_coupling": {"mu": [0.5, 1], "pairs": [[1, 0]]}}"#,
            &["friction_coupling.mu", "2 entries for 1 pairs"],
        ),
        (
            r#"{"A": [[1, 0], [0, 1]], "b": [1, 1], "lo": [0, 0], "hi": [1, 1], "friction_coupling": {"mu": 0.5, "pairs": [[1, -1]]}}"#,
            &["friction_coupling.pairs[0]", "non-negative integers"],
        ),
        (
            r#"{"A": [[1, 0], [0, 1]], "b": [1, 1], "lo": [0, 0], "hi": [1, 1], "friction_coupling": {"pairs": [[1, 0]]}}"#,
            &["friction_coupling.mu", "missing"],
        ),
        (
            r#"{"A": [[1, 0], [0, 1]], "b": [1, 1], "lo": [0, 0], "hi": [1, 1], "friction_coupling": {"mu": 0.5, "pairs": [1]}}"#,
            &["friction_coupling.pairs[0]", "pair"],
        ),
        (r#"{"M": [[1e400]], "q": [1]}"#, &["input"]),
    ];
    for (text, needles) in cases {
        let msg = json_err(text);
        for needle in *needles {
            assert!(
                msg.contains(needle),
                "{text}: message {msg:?} lacks {needle:?}"
            );
        }
    }
}

#[test]
fn json_accepts_infinite_bounds_and_ignores_unknown_fields() {
    let text = r#"{"name": "x", "extra": true, "A": [[2, 0], [0, 1]], "b": [-1, 1], "lo": ["-inf", 0], "hi": ["inf", "inf"]}"#;
    let (ps, array) = parse_problems(text).unwrap();
    assert!(!array);
    assert_eq!(ps[0].name.as_deref(), Some("x"));
    let Problem::Boxed(b) = &ps[0].problem else {
        panic!()
    };
    assert_eq!(b.lo()[0], f64::NEG_INFINITY);
}
