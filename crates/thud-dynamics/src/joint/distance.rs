//! Distance joint: the anchors' distance `L = |p_b − p_a|` kept in `[min, max]` (a rod
//! when `min = max`, a rope when `min = 0`), optionally with a spring.
//!
//! With `u = (p_b − p_a)/L`:
//!
//! ```text
//!   rod (min = max, no spring):  C = L − L₀,    direction u,  λ ∈ ℝ
//!   min:                         C = L − min ≥ 0, direction u,  λ ≥ 0
//!   max (rope):                  C = max − L ≥ 0, direction −u, λ ≥ 0
//!   spring:                      C = L − L_rest, direction u, soft (rows.rs)
//! ```
//!
//! When the anchors coincide (`L ≈ 0`) the direction is undefined; `u = +y` is used so
//! the rows stay finite.

use glam::Vec3;

use super::Spring;
use super::rows::{Frames, RowBuilder, RowKind};

pub(super) fn rows(f: &Frames, min: f32, max: f32, spring: Option<Spring>, rb: &mut RowBuilder) {
    let delta = f.pb - f.pa;
    let len = delta.length();
    let u = if len > 1e-6 { delta / len } else { Vec3::Y };
    if min == max && spring.is_none() {
        rb.linear(0, u, f.pa, f.pb, len - min, RowKind::Bilateral);
        return;
    }
    if min > 0.0 {
        rb.linear(6, u, f.pa, f.pb, len - min, RowKind::Limit);
    }
    rb.linear(7, -u, f.pa, f.pb, max - len, RowKind::Limit);
    if let Some(s) = spring {
        rb.linear(
            0,
            u,
            f.pa,
            f.pb,
            len - s.rest_length,
            RowKind::Soft {
                frequency: s.frequency,
                damping_ratio: s.damping_ratio,
            },
        );
    }
}
