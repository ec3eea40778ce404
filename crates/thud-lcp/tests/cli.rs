//! End-to-end tests of the `thud-lcp` binary.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_thud-lcp"))
}

fn run(args: &[&str], stdin: Option<&str>) -> Output {
    let mut cmd = bin();
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn thud-lcp");
    if let Some(text) = stdin {
        // A process that rejects its arguments exits without reading: ignore EPIPE.
        let _ = child.stdin.take().unwrap().write_all(text.as_bytes());
    } else {
        drop(child.stdin.take());
    }
    child.wait_with_output().unwrap()
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

const EXAMPLES: &str = r#"[
  {"name": "ex1", "M": [[2, 1], [1, 3]], "q": [-4, -9]},
  {"name": "ex3", "M": [[1, 2, 0], [0, 1, 2], [2, 0, 1]], "q": [-1, -1, -1]},
  {"A": [[2, 1], [1, 3]], "b": [-4, -9], "lo": [0, "-inf"], "hi": ["inf", 1]}
]"#;

#[test]
fn solve_an_array_from_stdin() {
    let out = run(&["solve", "--method", "lemke", "-"], Some(EXAMPLES));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json(&out);
    let arr = v.as_array().unwrap();
    assert_eq!(arr.len(), 3);
    assert_eq!(arr[0]["name"], "ex1");
    assert_eq!(arr[0]["method"], "lemke");
    assert_eq!(arr[0]["status"], "solved");
    assert!((arr[0]["z"][1].as_f64().unwrap() - 2.8).abs() < 1e-12);
    for key in [
        "name",
        "method",
        "status",
        "z",
        "w",
        "iterations",
        "residual",
        "seconds",
    ] {
        assert!(arr[0].get(key).is_some(), "missing {key}");
    }
    assert!((arr[1]["z"][0].as_f64().unwrap() - 1.0 / 3.0).abs() < 1e-12);
    // Lemke does not apply to a boxed problem: reported, and the run goes on.
    assert_eq!(arr[2]["status"], "not_applicable");
    assert_eq!(arr[2]["name"], Value::Null);
}

#[test]
fn solve_a_single_object_from_a_file_gives_an_object() {
    let dir = std::env::temp_dir().join(format!("thud-lcp-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("one.json");
    std::fs::write(
        &file,
        r#"{"name": "one", "M": [[2, 1], [1, 3]], "q": [-4, -9]}"#,
    )
    .unwrap();
    for method in [
        "auto",
        "jacobi",
        "pgs",
        "sor",
        "lemke",
        "dantzig",
        "dantzig-simple",
        "boxed-pivot",
        "kolesnikov",
        "enumerate",
    ] {
        let out = run(
            &[
                "solve",
                "--method",
                method,
                "--tol",
                "1e-10",
                file.to_str().unwrap(),
            ],
            None,
        );
        assert!(out.status.success(), "{method}");
        let v = json(&out);
        assert!(v.is_object());
        assert_eq!(v["method"], method);
        assert_eq!(v["status"], "solved", "{method}");
    }
    let out = run(
        &[
            "solve",
            "--method",
            "sor",
            "--omega",
            "1.5",
            "--max-iter",
            "3",
            file.to_str().unwrap(),
        ],
        None,
    );
    let v = json(&out);
    assert_eq!(v["status"], "iteration_limit");
    assert_eq!(v["iterations"], 3);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn statuses_for_infeasible_problems() {
    let text = r#"{"name": "ray", "M": [[-1]], "q": [-1]}"#;
    for (method, status) in [
        ("lemke", "no_solution"),
        ("enumerate", "no_solution"),
        ("auto", "no_solution"),
    ] {
        let v = json(&run(&["solve", "--method", method, "-"], Some(text)));
        assert_eq!(v["status"], status, "{method}");
    }
    let big = run(&["gen", "--class", "spd", "--n", "21", "--seed", "1"], None);
    let v = json(&run(
        &["solve", "--method", "enumerate", "-"],
        Some(&String::from_utf8_lossy(&big.stdout)),
    ));
    assert_eq!(v["status"], "not_applicable");
}

#[test]
fn unreadable_input_exits_2_naming_problem_and_field() {
    let out = run(
        &["solve", "-"],
        Some(
            r#"[{"M": [[1]], "q": [1]}, {"name": "bad", "A": [[1]], "b": [1], "lo": [0], "hi": ["x"]}]"#,
        ),
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("problem 1 (\"bad\")") && err.contains("hi[0]"),
        "{err}"
    );
    assert!(out.stdout.is_empty());

    let out = run(&["solve", "/nonexistent/thud.json"], None);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["solve", "-"], Some("not json"));
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["solve", "--method", "simplex", "-"], Some("{}"));
    assert_eq!(out.status.code(), Some(2));
    let out = run(
        &["solve", "--omega", "2.5", "-"],
        Some(r#"{"M": [[1]], "q": [1]}"#),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("omega"));
}

#[test]
fn gen_then_solve_every_class() {
    for class in ["spd", "psd", "p-matrix", "contact"] {
        let out = run(
            &[
                "gen", "--class", class, "--n", "9", "--seed", "4", "--count", "2",
            ],
            None,
        );
        assert!(out.status.success(), "{class}");
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let generated: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(generated.as_array().unwrap().len(), 2);
        let solved = json(&run(&["solve", "--method", "auto", "-"], Some(&text)));
        for r in solved.as_array().unwrap() {
            assert_eq!(r["status"], "solved", "{class}: {r}");
        }
    }
    // Deterministic.
    let a = run(
        &["gen", "--class", "contact", "--n", "12", "--seed", "9"],
        None,
    );
    let b = run(
        &["gen", "--class", "contact", "--n", "12", "--seed", "9"],
        None,
    );
    assert_eq!(a.stdout, b.stdout);
    let v: Value = serde_json::from_slice(&a.stdout).unwrap();
    assert_eq!(
        v["friction_coupling"]["pairs"][0],
        serde_json::json!([1, 0])
    );
}

#[test]
fn compare_prints_a_table() {
    let out = run(&["compare", "-"], Some(EXAMPLES));
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].contains("method") && lines[0].contains("status") && lines[0].contains("residual")
    );
    assert_eq!(lines.len(), 1 + 3 * 11, "{text}");
    assert!(text.contains("ex3") && text.contains("kolesnikov") && text.contains("not_applicable"));
}
