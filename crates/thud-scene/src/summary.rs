//! What a run reports: the [`Summary`] figures (written as `summary.json`) and the
//! outcome of every expectation.
//!
//! `summary.json` has exactly these keys: `scene`, `steps`, `dt`, `threads`, `bodies`,
//! `contacts`, `step_ms_median`, `step_ms_p90`, `stages` (stage name → median ms),
//! `max_penetration`, `drift`, `sag` (`null` unless the scene is resting),
//! `still_moving`, `energy_rise`, `energy_rebound`, `expectations_passed`,
//! `expectations_failed`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

/// The figures of a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Scene name.
    pub scene: String,
    /// Steps taken.
    pub steps: u64,
    /// Time step, s.
    pub dt: f32,
    /// Worker threads.
    pub threads: usize,
    /// Live bodies at the end (every kind).
    pub bodies: usize,
    /// Contact points in the solver at the last step.
    pub contacts: usize,
    /// Median wall time of a step after the first, ms.
    pub step_ms_median: f64,
    /// 90th percentile of the same, ms.
    pub step_ms_p90: f64,
    /// Median time per stage, ms, by stage name.
    pub stages: BTreeMap<String, f64>,
    /// Deepest overlap of two shapes in the final poses, m.
    pub max_penetration: f32,
    /// Largest horizontal displacement of a dynamic body from its start, m (resting
    /// scenes).
    pub drift: Option<f32>,
    /// Ideal top height minus the top box's height, m (resting scenes).
    pub sag: Option<f32>,
    /// Dynamic bodies faster than 0.1 m/s at the end.
    pub still_moving: usize,
    /// Max over steps of E(t) − E(0), J (scripted energy input excluded).
    pub energy_rise: f64,
    /// Max over t of E(t) − min over s ≤ t of E(s), J.
    pub energy_rebound: f64,
    /// Expectations that held.
    pub expectations_passed: usize,
    /// Expectations that failed.
    pub expectations_failed: usize,
}

/// How one expectation came out.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Not checked yet.
    Pending,
    /// Held at time `at` (s); `detail` gives the measured value.
    Passed {
        /// When it was checked, s.
        at: f64,
        /// The measured value.
        detail: String,
    },
    /// Failed at time `at`; `detail` says by how much.
    Failed {
        /// When it was checked, s.
        at: f64,
        /// What and by how much.
        detail: String,
    },
    /// Its time was not reached.
    Skipped {
        /// Why.
        detail: String,
    },
}

/// An expectation and its outcome.
#[derive(Debug, Clone, PartialEq)]
pub struct ExpectationResult {
    /// The check, in words.
    pub check: String,
    /// Its time, `None` for the end of the run.
    pub at: Option<f32>,
    /// How it came out.
    pub outcome: Outcome,
}

/// Everything a finished run reports.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The figures.
    pub summary: Summary,
    /// The expectations, in file order.
    pub expectations: Vec<ExpectationResult>,
    /// E(0), J.
    pub initial_energy: f64,
}

impl Report {
    /// Whether no expectation failed.
    #[must_use]
    pub fn passed(&self) -> bool {
        self.summary.expectations_failed == 0
    }

    /// `summary.json`, pretty-printed.
    #[must_use]
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(&self.summary)
            .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }

    /// The failed expectations, one line each: which, when, by how much.
    #[must_use]
    pub fn failures(&self) -> Vec<String> {
        self.expectations
            .iter()
            .filter_map(|e| match &e.outcome {
                Outcome::Failed { at, detail } => {
                    Some(format!("{} at t = {at:.3} s: {detail}", e.check))
                }
                _ => None,
            })
            .collect()
    }

    /// The human-readable summary the command line prints.
    #[must_use]
    pub fn text(&self) -> String {
        let s = &self.summary;
        let mut o = String::new();
        let _ = writeln!(o, "scene            {}", s.scene);
        let _ = writeln!(
            o,
            "steps            {} × dt {:.5} s = {:.2} s simulated, {} thread{}",
            s.steps,
            s.dt,
            s.steps as f64 * f64::from(s.dt),
            s.threads,
            if s.threads == 1 { "" } else { "s" }
        );
        let _ = writeln!(
            o,
            "bodies           {}    contacts {}",
            s.bodies, s.contacts
        );
        let _ = writeln!(
            o,
            "step time        median {:.3} ms, p90 {:.3} ms",
            s.step_ms_median, s.step_ms_p90
        );
        let stages: Vec<String> = thud_dynamics::Stage::ALL
            .iter()
            .filter_map(|st| {
                s.stages
                    .get(st.name())
                    .map(|v| format!("{} {v:.3}", st.name()))
            })
            .collect();
        let _ = writeln!(o, "  per stage (ms)  {}", stages.join(", "));
        let _ = writeln!(o, "max penetration  {:.5} m", s.max_penetration);
        if let Some(d) = s.drift {
            let _ = writeln!(o, "drift            {d:.5} m");
        }
        if let Some(g) = s.sag {
            let _ = writeln!(o, "sag              {g:.5} m");
        }
        let _ = writeln!(
            o,
            "still moving     {} (faster than 0.1 m/s)",
            s.still_moving
        );
        let _ = writeln!(
            o,
            "energy           E(0) {:.3} J, rise {:.4} J, rebound {:.4} J",
            self.initial_energy, s.energy_rise, s.energy_rebound
        );
        let skipped = self
            .expectations
            .iter()
            .filter(|e| matches!(e.outcome, Outcome::Skipped { .. }))
            .count();
        let _ = writeln!(
            o,
            "expectations     {} passed, {} failed{}",
            s.expectations_passed,
            s.expectations_failed,
            if skipped > 0 {
                format!(", {skipped} skipped")
            } else {
                String::new()
            }
        );
        for e in &self.expectations {
            let when = e.at.map_or("end".to_string(), |t| format!("{t} s"));
            let line = match &e.outcome {
                Outcome::Passed { detail, .. } => format!("  ok    [{when}] {}: {detail}", e.check),
                Outcome::Failed { at, detail } => {
                    format!("  FAIL  [{when}] {} at t = {at:.3} s: {detail}", e.check)
                }
                Outcome::Skipped { detail } => format!("  skip  [{when}] {}: {detail}", e.check),
                Outcome::Pending => format!("  ?     [{when}] {}", e.check),
            };
            let _ = writeln!(o, "{line}");
        }
        o
    }
}
