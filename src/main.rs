//! The `thud` command-line tool: list the built-in demos, run a scene headless with a
//! progress bar and a summary (optionally writing `summary.json`, `trajectory.csv` and
//! renders), and check scene files' expectations. See `docs/cli.md`.
//!
//! Exit codes: 0 success; 1 an expectation failed; 2 bad command line; 3 a scene could
//! not be loaded (unknown name, unreadable or invalid file); 4 the engine refused the
//! scene while it ran; 5 an output file could not be written.

mod cli;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

/// thud: real-time rigid-body contact physics — scene runner.
#[derive(Debug, Parser)]
#[command(name = "thud", version, about, long_about = None)]
struct Args {
    #[command(subcommand)]
    command: Command,
}

/// What to render.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RenderKind {
    /// One PNG per rendered frame, in DIR/frames/.
    Png,
    /// One animated GIF, DIR/SCENE.gif.
    Gif,
}

/// Sleeping switch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OnOff {
    /// On.
    On,
    /// Off.
    Off,
}

/// Options of `thud run`.
#[derive(Debug, Clone, clap::Args)]
pub struct RunArgs {
    /// A built-in demo name (see `thud list`) or a .ron scene file.
    pub scene: String,
    /// Simulated seconds (default: the scene's `seconds`).
    #[arg(long)]
    pub seconds: Option<f32>,
    /// Number of steps (wins over --seconds).
    #[arg(long)]
    pub steps: Option<u64>,
    /// Time step in seconds (default: the scene's).
    #[arg(long)]
    pub dt: Option<f32>,
    /// Solver iterations per solve substep (the first, with --substep-iterations)
    #[arg(long)]
    pub iterations: Option<u32>,
    /// Solver iterations in each solve substep after the first (default: --iterations)
    #[arg(long)]
    pub substep_iterations: Option<u32>,
    /// Friction rows in the first sweep of a solve, every Nth after it and the last
    /// (default 2; 1: every sweep).
    #[arg(long)]
    pub friction_stride: Option<u32>,
    /// A step keeps the contact rows of an earlier one while their lever arms and
    /// normals stay within this distance, m (default 0.0001; 0: build every step).
    #[arg(long, allow_negative_numbers = true)]
    pub reuse_rows: Option<f32>,
    /// A resting contact's gap that counts as touching where its manifold lies flat,
    /// m (default 0.00001; 0: every gap at its value; `Settings::touching_gap`).
    #[arg(long, allow_negative_numbers = true)]
    pub touching_gap: Option<f32>,
    /// How far a sweep may still move a contact's bodies for its rows to count as
    /// settled, m/s: the next solve substep then runs one sweep (default 0.000001; 0:
    /// every sweep always; `Settings::sweep_tolerance`).
    #[arg(long, allow_negative_numbers = true)]
    pub sweep_tolerance: Option<f32>,
    /// Solve substeps per step.
    #[arg(long)]
    pub solve_substeps: Option<u32>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Sleeping on or off (default: the scene's).
    #[arg(long, value_enum)]
    pub sleep: Option<OnOff>,
    /// Directory for summary.json, trajectory.csv and renders.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Render PNG frames or an animated GIF (into --out, default `out/`).
    #[arg(long, value_enum)]
    pub render: Option<RenderKind>,
    /// Write every K-th frame to trajectory.csv (plus the last).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub every: u64,
    /// Render every K-th frame (default: 15 rendered frames per simulated second).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub render_every: Option<u64>,
    /// Render size WIDTHxHEIGHT (default: the scene camera's, 480x320).
    #[arg(long, value_parser = cli::parse_size)]
    pub size: Option<(u32, u32)>,
    /// No progress bar; a one-line result instead of the full summary.
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// List the built-in demos with one-line descriptions.
    List,
    /// Run a scene headless and print a summary.
    Run(RunArgs),
    /// Run scene files and fail (exit 1) if any expectation fails.
    Check {
        /// Scene files (or built-in demo names).
        #[arg(required = true)]
        files: Vec<String>,
        /// Simulated seconds for each (default: each scene's own).
        #[arg(long)]
        seconds: Option<f32>,
        /// Worker threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
    },
}

fn main() -> ExitCode {
    let args = Args::parse();
    let code = match args.command {
        Command::List => cli::list(),
        Command::Run(run) => cli::run::run(&run),
        Command::Check {
            files,
            seconds,
            threads,
        } => cli::check::check(&files, seconds, threads),
    };
    ExitCode::from(code)
}
