//! Expectations: checks a run must pass, at given times.
//!
//! An [`Expectation`] with `at: Some(t)` is checked once, after the first step that ends
//! at or after `t − dt/2`; with `at` absent, after the last step. One whose time the run
//! does not reach (a run cut short with `--seconds`) is reported as skipped, not failed.
//! `EnergyNotRising` looks back over every step up to its time; the other checks look
//! at the state at that time.

use glam::Vec3;
use serde::{Deserialize, Serialize};

/// A check at a time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expectation {
    /// When, seconds from the start; the end of the run when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<f32>,
    /// What must hold.
    pub check: Check,
}

/// What an [`Expectation`] checks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Check {
    /// A body's centre lies within the given ranges (axes left out are free).
    Position {
        /// Body name.
        body: String,
        /// Allowed `(min, max)` of x.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        x: Option<(f32, f32)>,
        /// Allowed `(min, max)` of y.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        y: Option<(f32, f32)>,
        /// Allowed `(min, max)` of z.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        z: Option<(f32, f32)>,
    },
    /// A body's speed (m/s) lies within `[min, max]`.
    Speed {
        /// Body name.
        body: String,
        /// Least speed.
        #[serde(default)]
        min: f32,
        /// Greatest speed.
        #[serde(default = "infinite")]
        max: f32,
    },
    /// A body's angular speed (rad/s) lies within `[min, max]`.
    AngularSpeed {
        /// Body name.
        body: String,
        /// Least angular speed.
        #[serde(default)]
        min: f32,
        /// Greatest angular speed.
        #[serde(default = "infinite")]
        max: f32,
    },
    /// Every dynamic body is asleep.
    AllAsleep,
    /// No dynamic body moves faster than `speed` (m/s).
    AllSlowerThan {
        /// Speed limit, m/s.
        speed: f32,
    },
    /// The deepest overlap of any two shapes, from the poses, is at most `max` metres.
    MaxPenetration {
        /// Allowed depth, metres.
        max: f32,
    },
    /// Total energy (kinetic + potential, minus what events put in) never rose more
    /// than `tolerance` joules above its value at time 0.
    EnergyNotRising {
        /// Allowed rise, joules.
        #[serde(default)]
        tolerance: f32,
    },
    /// No dynamic body's lowest point is below `y` (metres): nothing fell through.
    NoBodyBelow {
        /// The floor height with its tolerance.
        y: f32,
    },
}

fn infinite() -> f32 {
    f32::INFINITY
}

impl Check {
    /// The body the check refers to, if any.
    #[must_use]
    pub fn target(&self) -> Option<&str> {
        match self {
            Check::Position { body, .. }
            | Check::Speed { body, .. }
            | Check::AngularSpeed { body, .. } => Some(body),
            _ => None,
        }
    }

    /// A one-line description, for reports.
    #[must_use]
    pub fn describe(&self) -> String {
        fn range(axis: &str, r: Option<(f32, f32)>) -> Option<String> {
            r.map(|(a, b)| format!("{axis} in [{a}, {b}]"))
        }
        match self {
            Check::Position { body, x, y, z } => {
                let parts: Vec<String> = [range("x", *x), range("y", *y), range("z", *z)]
                    .into_iter()
                    .flatten()
                    .collect();
                format!("{body}: {}", parts.join(", "))
            }
            Check::Speed { body, min, max } => format!("{body}: speed in [{min}, {max}] m/s"),
            Check::AngularSpeed { body, min, max } => {
                format!("{body}: angular speed in [{min}, {max}] rad/s")
            }
            Check::AllAsleep => "all bodies asleep".to_string(),
            Check::AllSlowerThan { speed } => format!("all bodies slower than {speed} m/s"),
            Check::MaxPenetration { max } => format!("max penetration ≤ {max} m"),
            Check::EnergyNotRising { tolerance } => {
                format!("energy not rising (tolerance {tolerance} J)")
            }
            Check::NoBodyBelow { y } => format!("no body below y = {y} m"),
        }
    }

    /// Allowed deviation as a plain vector, for `Position` checks with every axis set.
    #[must_use]
    pub fn position_box(&self) -> Option<(Vec3, Vec3)> {
        match self {
            Check::Position {
                x: Some(x),
                y: Some(y),
                z: Some(z),
                ..
            } => Some((Vec3::new(x.0, y.0, z.0), Vec3::new(x.1, y.1, z.1))),
            _ => None,
        }
    }
}
