//! Ball-and-socket (spherical) joint: the two anchors coincide.
//!
//! ```text
//!   C = p_b − p_a ∈ ℝ³                       (3 bilateral rows, d = x, y, z)
//!   J_d = [ −dᵀ  −(r_a×d)ᵀ | dᵀ  (r_b×d)ᵀ ],  λ_d ∈ ℝ
//! ```

use glam::Vec3;

use super::rows::{Frames, RowBuilder, RowKind};

/// The three point rows (slots 0–2); also the first rows of the hinge and weld.
pub(super) fn rows(f: &Frames, rb: &mut RowBuilder) {
    let c = f.pb - f.pa;
    for (k, d) in [Vec3::X, Vec3::Y, Vec3::Z].into_iter().enumerate() {
        rb.linear(k, d, f.pa, f.pb, d.dot(c), RowKind::Bilateral);
    }
}
