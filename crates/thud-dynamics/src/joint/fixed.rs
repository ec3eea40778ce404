//! Fixed (weld) joint: no relative motion.
//!
//! With `q_e = q_b·(q_a·q_rest)⁻¹` the orientation error and `e = 2·vec(q_e)` its
//! rotation vector (`ė ≈ ω_b − ω_a`):
//!
//! ```text
//!   point:        C = p_b − p_a                              3 bilateral rows (ball.rs)
//!   orientation:  C_k = e_k,  J = [0 −kᵀ | 0 kᵀ], k = x, y, z  3 bilateral rows
//! ```

use glam::Vec3;

use super::Joint;
use super::rows::{Frames, RowBuilder, RowKind, orientation_error};

/// The three orientation rows (slots 3–5); shared with the slider.
pub(super) fn orientation_rows(j: &Joint, f: &Frames, rb: &mut RowBuilder) {
    let e = orientation_error(j, f);
    for (k, axis) in [Vec3::X, Vec3::Y, Vec3::Z].into_iter().enumerate() {
        rb.angular(3 + k, axis, axis.dot(e), RowKind::Bilateral);
    }
}

pub(super) fn rows(j: &Joint, f: &Frames, rb: &mut RowBuilder) {
    super::ball::rows(f, rb);
    orientation_rows(j, f, rb);
}
