//! Prismatic (slider) joint: B keeps its orientation relative to A and its anchor moves
//! along A's axis only, with optional travel limits and a velocity motor.
//!
//! With `a` the axis fixed in A, `t₁, t₂ ⟂ a`, `Δ = p_b − p_a`, travel `s = a·Δ`, and the
//! rows' material point on both bodies at `p_b` (`r_a = p_b − c_a`):
//!
//! ```text
//!   orientation:  3 bilateral rows as the weld (fixed.rs)
//!   line:         C_k = t_k·Δ,  J = [ −t_kᵀ −(r_a×t_k)ᵀ | t_kᵀ (r_b×t_k)ᵀ ]  2 bilateral rows
//!   lower:        C = s − s_min ≥ 0, direction a,  λ ≥ 0
//!   upper:        C = s_max − s ≥ 0, direction −a, λ ≥ 0
//!   motor:        J·v = v_target along a,  |λ| ≤ F_max·dt
//! ```

use super::rows::{Frames, FreeAxis, RowBuilder, RowKind};
use super::{Joint, Motor};
use crate::jacobian::tangents;

/// Travel (m) within which a limit row is built.
const LIMIT_WINDOW: f32 = 0.25;

/// The slider's travel `s` (m) along A's axis.
pub(crate) fn travel(f: &Frames) -> f32 {
    f.axis_a.dot(f.pb - f.pa)
}

pub(super) fn rows(
    j: &Joint,
    f: &Frames,
    limits: Option<(f32, f32)>,
    motor: Option<Motor>,
    rb: &mut RowBuilder,
) {
    let a = f.axis_a;
    let delta = f.pb - f.pa;
    let (t1, t2) = tangents(a);
    rb.linear(0, t1, f.pb, f.pb, t1.dot(delta), RowKind::Bilateral);
    rb.linear(1, t2, f.pb, f.pb, t2.dot(delta), RowKind::Bilateral);
    super::fixed::orientation_rows(j, f, rb);
    rb.stops_and_motor(
        FreeAxis::Linear(a, f.pb),
        travel(f),
        LIMIT_WINDOW,
        limits,
        motor,
    );
}
