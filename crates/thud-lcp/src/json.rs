//! The JSON format of problems and results (the `thud-lcp` binary, `World::export_lcp`).
//!
//! **Input**: one problem object or an array of them. A problem is either
//!
//! ```json
//! {"name": "optional", "M": [[2, 1], [1, 3]], "q": [-4, -9]}
//! ```
//!
//! or a boxed problem, bounds being numbers or the strings `"inf"` / `"-inf"`:
//!
//! ```json
//! {"name": "box", "A": [[2, 1], [1, 3]], "b": [-4, -9], "lo": [0, "-inf"], "hi": ["inf", 1],
//!  "friction_coupling": {"mu": 0.5, "pairs": [[1, 0]]}}
//! ```
//!
//! `friction_coupling.mu` is one number for every pair or an array with one per
//! pair; each pair `[t, n]` (0-based rows) makes row `t`'s bounds `±μ·λ_n`. Unknown
//! fields are ignored. Every error names the problem (its index, and its name when it
//! has one) and the field, e.g. `problem 1 ("stack"): field "lo[3]": expected a number
//! or "inf"/"-inf"`.
//!
//! **Output**: per problem and method
//! `{"name", "method", "status", "z", "w", "iterations", "residual", "seconds"}` with
//! `status` one of `"solved"`, `"no_solution"`, `"iteration_limit"`, `"cycling"`,
//! `"singular"`, `"not_applicable"` (then `z`, `w`, `iterations`, `residual` are
//! `null` and a `"reason"` is added). Non-finite numbers are written as `null`.

use serde_json::{Map, Value, json};

use crate::matrix::Matrix;
use crate::problem::{BoxedLcp, FrictionPair, Lcp, Problem, ProblemError};
use crate::report::Report;
use crate::solver::{Method, SolveError};

/// A problem with its optional name, as read from JSON.
#[derive(Clone, Debug, PartialEq)]
pub struct NamedProblem {
    /// The `"name"` field, if any.
    pub name: Option<String>,
    /// The problem.
    pub problem: Problem,
}

/// Unreadable input: which problem, which field, what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{problem}: field {field:?}: {message}")]
pub struct JsonError {
    /// `problem 3` or `problem 3 ("name")`, or `input` for a syntax error.
    pub problem: String,
    /// The field, with indices: `M[2][1]`, `lo[3]`, `friction_coupling.pairs[0]`.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

/// Parses problems from JSON text. Returns the problems and whether the input was an
/// array (so output can mirror it).
pub fn parse_problems(text: &str) -> Result<(Vec<NamedProblem>, bool), JsonError> {
    let value: Value = serde_json::from_str(text).map_err(|e| JsonError {
        problem: "input".into(),
        field: "(document)".into(),
        message: format!("not valid JSON: {e}"),
    })?;
    match value {
        Value::Array(items) => {
            let problems = items
                .iter()
                .enumerate()
                .map(|(i, v)| parse_problem(i, v))
                .collect::<Result<_, _>>()?;
            Ok((problems, true))
        }
        v => Ok((vec![parse_problem(0, &v)?], false)),
    }
}

struct Ctx {
    who: String,
}

impl Ctx {
    fn err(&self, field: impl Into<String>, message: impl Into<String>) -> JsonError {
        JsonError {
            problem: self.who.clone(),
            field: field.into(),
            message: message.into(),
        }
    }
}

/// Parses problem number `index` from a JSON value.
pub fn parse_problem(index: usize, v: &Value) -> Result<NamedProblem, JsonError> {
    let mut ctx = Ctx {
        who: format!("problem {index}"),
    };
    let Some(obj) = v.as_object() else {
        return Err(ctx.err(
            "(problem)",
            "expected an object with \"M\", \"q\" or \"A\", \"b\", \"lo\", \"hi\"",
        ));
    };
    let name = match obj.get("name") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => {
            ctx.who = format!("problem {index} ({s:?})");
            Some(s.clone())
        }
        Some(_) => return Err(ctx.err("name", "expected a string")),
    };
    let problem = match (obj.get("M"), obj.get("A")) {
        (Some(_), Some(_)) => {
            return Err(ctx.err(
                "M",
                "a problem has either \"M\" (LCP) or \"A\" (boxed), not both",
            ));
        }
        (Some(m), None) => {
            let m = matrix(&ctx, "M", m)?;
            let q = vector(&ctx, "q", req(&ctx, obj, "q")?, false)?;
            Problem::Lcp(Lcp::new(m, q).map_err(|e| problem_error(&ctx, &e, "M", "q"))?)
        }
        (None, Some(a)) => {
            let a = matrix(&ctx, "A", a)?;
            let b = vector(&ctx, "b", req(&ctx, obj, "b")?, false)?;
            let lo = vector(&ctx, "lo", req(&ctx, obj, "lo")?, true)?;
            let hi = vector(&ctx, "hi", req(&ctx, obj, "hi")?, true)?;
            let mut p =
                BoxedLcp::new(a, b, lo, hi).map_err(|e| problem_error(&ctx, &e, "A", "b"))?;
            if let Some(fc) = obj.get("friction_coupling").filter(|v| !v.is_null()) {
                let pairs = coupling(&ctx, fc)?;
                p = p
                    .with_friction(pairs)
                    .map_err(|e| problem_error(&ctx, &e, "A", "b"))?;
            }
            Problem::Boxed(p)
        }
        (None, None) => {
            return Err(ctx.err(
                "M",
                "missing: a problem needs \"M\" and \"q\", or \"A\", \"b\", \"lo\" and \"hi\"",
            ));
        }
    };
    Ok(NamedProblem { name, problem })
}

fn req<'a>(ctx: &Ctx, obj: &'a Map<String, Value>, key: &str) -> Result<&'a Value, JsonError> {
    obj.get(key).ok_or_else(|| ctx.err(key, "missing"))
}

fn number(ctx: &Ctx, field: &str, v: &Value, allow_inf: bool) -> Result<f64, JsonError> {
    match v {
        Value::Number(x) => x
            .as_f64()
            .filter(|f| f.is_finite())
            .ok_or_else(|| ctx.err(field, "number out of range")),
        Value::String(s) if allow_inf => match s.as_str() {
            "inf" | "+inf" | "Infinity" | "infinity" => Ok(f64::INFINITY),
            "-inf" | "-Infinity" | "-infinity" => Ok(f64::NEG_INFINITY),
            _ => Err(ctx.err(
                field,
                format!("expected a number or \"inf\"/\"-inf\", found {s:?}"),
            )),
        },
        _ if allow_inf => Err(ctx.err(field, "expected a number or \"inf\"/\"-inf\"")),
        _ => Err(ctx.err(field, "expected a number")),
    }
}

fn vector(ctx: &Ctx, field: &str, v: &Value, allow_inf: bool) -> Result<Vec<f64>, JsonError> {
    let arr = v
        .as_array()
        .ok_or_else(|| ctx.err(field, "expected an array of numbers"))?;
    arr.iter()
        .enumerate()
        .map(|(i, x)| number(ctx, &format!("{field}[{i}]"), x, allow_inf))
        .collect()
}

fn matrix(ctx: &Ctx, field: &str, v: &Value) -> Result<Matrix, JsonError> {
    let rows = v
        .as_array()
        .ok_or_else(|| ctx.err(field, "expected an array of rows"))?;
    let rows: Vec<Vec<f64>> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let f = format!("{field}[{i}]");
            let r = r
                .as_array()
                .ok_or_else(|| ctx.err(&f, "expected an array of numbers"))?;
            r.iter()
                .enumerate()
                .map(|(j, x)| number(ctx, &format!("{f}[{j}]"), x, false))
                .collect()
        })
        .collect::<Result<_, _>>()?;
    Matrix::from_rows(&rows).map_err(|e| problem_error(ctx, &e, field, ""))
}

fn coupling(ctx: &Ctx, v: &Value) -> Result<Vec<FrictionPair>, JsonError> {
    let f = "friction_coupling";
    let obj = v
        .as_object()
        .ok_or_else(|| ctx.err(f, "expected an object {\"mu\", \"pairs\"}"))?;
    let pairs = obj
        .get("pairs")
        .ok_or_else(|| ctx.err("friction_coupling.pairs", "missing"))?
        .as_array()
        .ok_or_else(|| {
            ctx.err(
                "friction_coupling.pairs",
                "expected an array of [t, n] pairs",
            )
        })?;
    let mu_v = obj
        .get("mu")
        .ok_or_else(|| ctx.err("friction_coupling.mu", "missing"))?;
    let mus: Vec<f64> = match mu_v {
        Value::Array(_) => {
            let m = vector(ctx, "friction_coupling.mu", mu_v, false)?;
            if m.len() != pairs.len() {
                return Err(ctx.err(
                    "friction_coupling.mu",
                    format!("has {} entries for {} pairs", m.len(), pairs.len()),
                ));
            }
            m
        }
        _ => vec![number(ctx, "friction_coupling.mu", mu_v, false)?; pairs.len()],
    };
    pairs
        .iter()
        .enumerate()
        .map(|(k, p)| {
            let field = format!("friction_coupling.pairs[{k}]");
            let idx = |x: &Value| x.as_u64().and_then(|u| usize::try_from(u).ok());
            match p.as_array().map(Vec::as_slice) {
                Some([t, n]) => match (idx(t), idx(n)) {
                    (Some(t), Some(n)) => Ok(FrictionPair { t, n, mu: mus[k] }),
                    _ => Err(ctx.err(field, "rows must be non-negative integers")),
                },
                _ => Err(ctx.err(field, "expected a pair [t, n]")),
            }
        })
        .collect()
}

/// Maps a validation error to the JSON field it concerns.
fn problem_error(ctx: &Ctx, e: &ProblemError, mat: &str, vec: &str) -> JsonError {
    let field = match e {
        ProblemError::NotSquare { .. } | ProblemError::DataLength { .. } => mat.to_string(),
        ProblemError::RaggedRow { row, .. } => format!("{mat}[{row}]"),
        ProblemError::NonFiniteMatrix { row, col, .. } => format!("{mat}[{row}][{col}]"),
        ProblemError::SizeMismatch { what, .. } => {
            if *what == "q" || *what == "b" {
                vec.to_string()
            } else {
                what.to_string()
            }
        }
        ProblemError::NonFiniteVector { row, .. } => format!("{vec}[{row}]"),
        ProblemError::NanBound { what, row } => format!("{what}[{row}]"),
        ProblemError::InvertedBounds { row, .. } => format!("lo[{row}]"),
        ProblemError::BadCoupling { pair, .. } => format!("friction_coupling.pairs[{pair}]"),
    };
    ctx.err(field, e.to_string())
}

fn num(x: f64) -> Value {
    serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number)
}

fn nums(v: &[f64]) -> Value {
    Value::Array(v.iter().map(|&x| num(x)).collect())
}

fn bound(x: f64) -> Value {
    if x == f64::INFINITY {
        json!("inf")
    } else if x == f64::NEG_INFINITY {
        json!("-inf")
    } else {
        num(x)
    }
}

/// The result object of one method on one problem.
#[must_use]
pub fn result_json(
    name: Option<&str>,
    method: Method,
    outcome: &Result<Report, SolveError>,
    seconds: f64,
) -> Value {
    match outcome {
        Ok(r) => json!({
            "name": name,
            "method": method.name(),
            "status": r.status.name(),
            "z": nums(&r.z),
            "w": nums(&r.w),
            "iterations": r.iterations,
            "residual": num(r.residual),
            "seconds": num(seconds),
        }),
        Err(e) => json!({
            "name": name,
            "method": method.name(),
            "status": "not_applicable",
            "z": null,
            "w": null,
            "iterations": null,
            "residual": null,
            "seconds": num(seconds),
            "reason": e.to_string(),
        }),
    }
}

/// The JSON object of a problem (the input format; `gen` writes these).
#[must_use]
pub fn problem_json(name: Option<&str>, p: &Problem) -> Value {
    let rows = |m: &Matrix| Value::Array((0..m.rows()).map(|i| nums(m.row(i))).collect());
    match p {
        Problem::Lcp(p) => json!({ "name": name, "M": rows(p.m()), "q": nums(p.q()) }),
        Problem::Boxed(p) => {
            let mut v = json!({
                "name": name,
                "A": rows(p.a()),
                "b": nums(p.b()),
                "lo": p.lo().iter().map(|&x| bound(x)).collect::<Vec<_>>(),
                "hi": p.hi().iter().map(|&x| bound(x)).collect::<Vec<_>>(),
            });
            if !p.coupling().is_empty() {
                v["friction_coupling"] = json!({
                    "mu": p.coupling().iter().map(|c| num(c.mu)).collect::<Vec<_>>(),
                    "pairs": p.coupling().iter().map(|c| json!([c.t, c.n])).collect::<Vec<_>>(),
                });
            }
            v
        }
    }
}
