//! `thud-lcp`: solve, compare and generate LCP / boxed-LCP problems in JSON.
//!
//! ```text
//! thud-lcp solve [--method NAME] [--max-iter N] [--tol T] [--omega W] FILE|-
//! thud-lcp compare [--max-iter N] [--tol T] [--omega W] FILE|-
//! thud-lcp gen --class spd|psd|p-matrix|contact --n N --seed S [--count K]
//! ```
//!
//! Exit status 0 when every problem was processed (whatever its status), 2 on
//! unreadable input or bad arguments. The format is documented in `thud_lcp::json`
//! and `docs/lcp.md`.

use std::io::Read;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, Parser, Subcommand};
use serde_json::Value;
use thud_lcp::generate::{Class, instance};
use thud_lcp::json::{NamedProblem, parse_problems, problem_json, result_json};
use thud_lcp::{Method, Options};

#[derive(Parser)]
#[command(
    name = "thud-lcp",
    version,
    about = "Dense LCP and boxed-LCP solvers with JSON input and output"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve every problem in FILE with one method; JSON results on stdout.
    Solve {
        /// auto, jacobi, pgs, sor, lemke, dantzig, dantzig-simple, boxed-pivot, interior-point, kolesnikov, enumerate.
        #[arg(long, default_value = "auto")]
        method: Method,
        #[command(flatten)]
        settings: Settings,
        /// Problem file (JSON), or `-` for stdin.
        file: String,
    },
    /// Run every method on every problem in FILE and print a table.
    Compare {
        #[command(flatten)]
        settings: Settings,
        /// Problem file (JSON), or `-` for stdin.
        file: String,
    },
    /// Write random instances (JSON) to stdout.
    Gen {
        /// spd, psd, p-matrix or contact.
        #[arg(long)]
        class: Class,
        /// Problem size (contact: rows, rounded down to a multiple of 3).
        #[arg(long)]
        n: usize,
        /// Random seed.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Number of instances (seeds S, S+1, …); more than one writes an array.
        #[arg(long, default_value_t = 1)]
        count: u64,
    },
}

#[derive(Args)]
struct Settings {
    /// Iteration (sweep or pivot) limit; default depends on the method.
    #[arg(long = "max-iter")]
    max_iter: Option<usize>,
    /// Relative residual tolerance.
    #[arg(long, default_value_t = 1e-9)]
    tol: f64,
    /// Relaxation factor for sor (default 1.3) / damping for jacobi (default 1), in (0, 2).
    #[arg(long)]
    omega: Option<f64>,
}

impl Settings {
    fn options(&self) -> Result<Options, String> {
        let o = Options {
            max_iterations: self.max_iter,
            tolerance: self.tol,
            omega: self.omega,
            ..Options::default()
        };
        o.validate(0).map_err(|e| e.to_string())?;
        Ok(o)
    }
}

fn read_input(file: &str) -> Result<(Vec<NamedProblem>, bool), String> {
    let mut text = String::new();
    if file == "-" {
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| format!("cannot read stdin: {e}"))?;
    } else {
        text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}"))?;
    }
    parse_problems(&text).map_err(|e| e.to_string())
}

fn run(problem: &NamedProblem, method: Method, options: &Options) -> Value {
    let start = Instant::now();
    let outcome = method.solve(&problem.problem, options);
    result_json(
        problem.name.as_deref(),
        method,
        &outcome,
        start.elapsed().as_secs_f64(),
    )
}

fn solve(method: Method, settings: &Settings, file: &str) -> Result<(), String> {
    let options = settings.options()?;
    let (problems, array) = read_input(file)?;
    let results: Vec<Value> = problems.iter().map(|p| run(p, method, &options)).collect();
    let out = if array {
        Value::Array(results)
    } else {
        results.into_iter().next().unwrap_or(Value::Null)
    };
    println!(
        "{}",
        serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?
    );
    Ok(())
}

fn compare(settings: &Settings, file: &str) -> Result<(), String> {
    let options = settings.options()?;
    let (problems, _) = read_input(file)?;
    println!(
        "{:<20} {:<15} {:<16} {:>10} {:>12} {:>12}",
        "problem", "method", "status", "iterations", "residual", "time [ms]"
    );
    for (i, p) in problems.iter().enumerate() {
        let label = p.name.clone().unwrap_or_else(|| format!("#{i}"));
        for m in Method::ALL {
            let r = run(p, m, &options);
            let field = |k: &str| match &r[k] {
                Value::Null => "-".to_string(),
                Value::Number(x) if k == "residual" => {
                    format!("{:.3e}", x.as_f64().unwrap_or(f64::NAN))
                }
                Value::Number(x) if k == "seconds" => {
                    format!("{:.3}", x.as_f64().unwrap_or(f64::NAN) * 1e3)
                }
                v => v.as_str().map_or_else(|| v.to_string(), str::to_string),
            };
            println!(
                "{:<20} {:<15} {:<16} {:>10} {:>12} {:>12}",
                label,
                m.name(),
                field("status"),
                field("iterations"),
                field("residual"),
                field("seconds")
            );
        }
    }
    Ok(())
}

fn generate(class: Class, n: usize, seed: u64, count: u64) -> Result<(), String> {
    let items: Vec<Value> = (0..count)
        .map(|k| {
            let s = seed.wrapping_add(k);
            let name = format!("{}-n{n}-seed{s}", class_name(class));
            problem_json(Some(&name), &instance(class, n, s))
        })
        .collect();
    let out = if count == 1 {
        items.into_iter().next().unwrap_or(Value::Null)
    } else {
        Value::Array(items)
    };
    println!(
        "{}",
        serde_json::to_string(&out).map_err(|e| e.to_string())?
    );
    Ok(())
}

fn class_name(c: Class) -> &'static str {
    match c {
        Class::Spd => "spd",
        Class::Psd => "psd",
        Class::PMatrix => "p-matrix",
        Class::Contact => "contact",
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Solve {
            method,
            settings,
            file,
        } => solve(*method, settings, file),
        Command::Compare { settings, file } => compare(settings, file),
        Command::Gen {
            class,
            n,
            seed,
            count,
        } => generate(*class, *n, *seed, *count),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("thud-lcp: {msg}");
            ExitCode::from(2)
        }
    }
}
