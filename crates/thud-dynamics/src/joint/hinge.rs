//! Hinge (revolute) joint: a ball joint whose B may turn about one axis only, with an
//! optional angle range and a velocity motor.
//!
//! With `a` the axis fixed in A, `b` the axis fixed in B, `p₁, p₂ ⟂ a`, the angle `θ`
//! between reference vectors `u_a`, `u_b ⟂` the axis (zero at creation):
//!
//! ```text
//!   point:   C = p_b − p_a                                  3 bilateral rows (ball.rs)
//!   axis:    C_k = p_k·(a × b),  J = [0 −p_kᵀ | 0 p_kᵀ]       2 bilateral rows
//!   θ = atan2(a·(u_a × u_b), u_a·u_b),  θ̇ = a·(ω_b − ω_a)
//!   lower:   C = θ − θ_min ≥ 0,  J = [0 −aᵀ | 0 aᵀ],  λ ≥ 0
//!   upper:   C = θ_max − θ ≥ 0,  J = [0 aᵀ | 0 −aᵀ],  λ ≥ 0
//!   motor:   J·v = ω_target,     J = [0 −aᵀ | 0 aᵀ],  |λ| ≤ τ_max·dt
//! ```
//!
//! Limit rows are added when the joint is within π/4 of a limit (so the angle's wrap at
//! ±π never reaches a row); being speculative, they act only when the limit is reached
//! this step.

use super::rows::{Frames, FreeAxis, RowBuilder, RowKind};
use super::{Joint, Motor};
use crate::jacobian::tangents;

/// Window (rad) within which a limit row is built.
const LIMIT_WINDOW: f32 = std::f32::consts::FRAC_PI_4;

/// The hinge angle θ (rad) of B against A.
pub(crate) fn angle(j: &Joint, f: &Frames) -> f32 {
    let ua = f.sa.rotation * j.ref_a;
    let ub = f.sb.rotation * j.ref_b;
    f.axis_a.dot(ua.cross(ub)).atan2(ua.dot(ub))
}

pub(super) fn rows(
    j: &Joint,
    f: &Frames,
    limits: Option<(f32, f32)>,
    motor: Option<Motor>,
    rb: &mut RowBuilder,
) {
    super::ball::rows(f, rb);
    let a = f.axis_a;
    let (p1, p2) = tangents(a);
    let mis = a.cross(f.axis_b);
    rb.angular(3, p1, p1.dot(mis), RowKind::Bilateral);
    rb.angular(4, p2, p2.dot(mis), RowKind::Bilateral);
    rb.stops_and_motor(
        FreeAxis::Angular(a),
        angle(j, f),
        LIMIT_WINDOW,
        limits,
        motor,
    );
}
