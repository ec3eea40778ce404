//! Cuboid–cuboid contact by separating axes, face clipping and reduction.
//!
//! Work in A's frame: `R = R_aᵀ·R_b` (column j is B's axis j), `t = R_aᵀ·(c_b − c_a)`.
//! Two convex polyhedra are disjoint iff some axis separates them; for boxes
//! the candidates are A's 3 face normals, B's 3 face normals and the 9 cross
//! products `eᵢ × R_j` of edge directions. Along a unit axis `n` the gap is
//!
//! `s(n) = |t·n| − Σₖ h_a,k·|n·eₖ| − Σₖ h_b,k·|n·R_k|`,
//!
//! and for intersecting boxes the largest `s` over the 15 axes is minus the
//! penetration depth along the best axis. If any `s` exceeds the margin there is
//! no contact. Edge axes with `|eᵢ × R_j| < 10⁻³` are skipped: nearly parallel
//! edges are already covered by the face axes, and the division would amplify
//! rounding.
//!
//! **Choosing the axis.** Face axes are preferred to edge axes unless an edge axis
//! is better by 1 mm, and A's faces to B's unless B's is better by 0.5 mm
//! (the tie of two boxes resting face to face must always resolve the same way,
//! or the feature ids would flicker).
//!
//! **Face contact.** The reference face is the chosen face; the incident face is
//! the face of the other box most anti-parallel to it. Its four corners are
//! clipped against the reference face's four side planes (`clip`);
//! survivors with height above the reference plane at most the margin become
//! contacts (incident point, and its projection onto the reference face), and
//! at most 4 are kept by area. Feature id: bit 30 set, bit 29 when B holds the
//! reference face, reference face `0..6` in bits 24–26, incident face in bits
//! 20–22, and the clip-line pair code in bits 0–15.
//!
//! **Edge contact.** The supporting edge of each box along the axis (the edge of
//! direction `eᵢ` farthest along `n` on A, along `−n` on B) gives one point: the
//! closest points of the two edges, clamped to their lengths. Feature id: bit 31,
//! edge axes and the edges' corner signs.

use glam::{Mat3, Vec3};

use super::clip::{
    Candidate, Candidates, ClipVertex, PLANE_LINE, Poly, clip_polygon, lines_code, reduce,
};
use crate::{Manifold, Pose};

const FACE_TOL: f32 = 5e-4;
const EDGE_TOL: f32 = 1e-3;

#[inline]
fn sgn(x: f32) -> f32 {
    if x < 0.0 { -1.0 } else { 1.0 }
}

/// Contacts between box `ha` at `pose_a` and box `hb` at `pose_b` within `margin`.
pub(crate) fn cuboid_cuboid(
    ha: Vec3,
    pose_a: &Pose,
    hb: Vec3,
    pose_b: &Pose,
    margin: f32,
) -> Option<Manifold> {
    let ra = pose_a.rotation_matrix();
    let rb = pose_b.rotation_matrix();
    let r = ra.transpose() * rb;
    let t = ra.transpose() * (pose_b.position - pose_a.position);
    let rc = [r.x_axis, r.y_axis, r.z_axis];
    let abs = [rc[0].abs(), rc[1].abs(), rc[2].abs()];

    // A's faces.
    let mut sep_a = f32::MIN;
    let mut ia = 0;
    for i in 0..3 {
        let s = t[i].abs() - ha[i] - (abs[0][i] * hb.x + abs[1][i] * hb.y + abs[2][i] * hb.z);
        if s > margin {
            return None;
        }
        if s > sep_a {
            sep_a = s;
            ia = i;
        }
    }
    // B's faces.
    let mut sep_b = f32::MIN;
    let mut jb = 0;
    for j in 0..3 {
        let s = t.dot(rc[j]).abs() - abs[j].dot(ha) - hb[j];
        if s > margin {
            return None;
        }
        if s > sep_b {
            sep_b = s;
            jb = j;
        }
    }
    // Edge pairs, from the entries of `R` (derived at `edge_gap`): for `L = eᵢ × R_j`,
    // `L·e_u = −R_vj`, `L·e_v = R_uj` and `L·R_k = ±R_im` (`m` the third index), so
    // the gap times `|L|` costs a few products; `L` is normalized for the best axis only.
    let mut sep_e = f32::MIN;
    let mut best = None;
    for i in 0..3 {
        for j in 0..3 {
            let Some(s) = edge_gap(i, j, &rc, &abs, t, ha, hb) else {
                continue;
            };
            if s > margin {
                return None;
            }
            if s > sep_e {
                sep_e = s;
                best = Some((i, j));
            }
        }
    }

    let face_max = sep_a.max(sep_b);
    if let Some((i, j)) = best.filter(|_| sep_e > face_max + EDGE_TOL) {
        let n = [Vec3::X, Vec3::Y, Vec3::Z][i].cross(rc[j]);
        let edge = (i, j, n / n.length());
        return Some(edge_contact(ha, hb, pose_a, pose_b, &r, t, edge));
    }
    if sep_b > sep_a + FACE_TOL {
        // B holds the reference face: express A in B's frame.
        let rt = r.transpose();
        let tt = -(rt * t);
        let mut m = face_contact(hb, ha, &rt, tt, jb, margin, pose_b, pose_a, true);
        // The reference box was B: flip so the normal points from A to B.
        m.flip();
        Some(m)
    } else {
        Some(face_contact(
            ha, hb, &r, t, ia, margin, pose_a, pose_b, false,
        ))
    }
}

/// The gap `s(L)` along the unit edge axis `L = eᵢ × R_j / |eᵢ × R_j|` of A's edge
/// direction `i` and B's `j` (`rc` the columns of `R`, `abs` their absolute values),
/// or `None` where the edges are nearly parallel (`|eᵢ × R_j| < 10⁻³`).
///
/// With `(u, v)` the two indices after `i` and `(p, q)` the two after `j`, the
/// components of `eᵢ × R_j` are `L_u = −R_vj`, `L_v = R_uj` (and `L_i = 0`), and for
/// a rotation `(eᵢ × R_j)·R_p = eᵢ·(R_j × R_p) = R_iq`, `(eᵢ × R_j)·R_q = −R_ip`. So
///
/// `|L|·s = |t_v R_uj − t_u R_vj| − (h_a,u |R_vj| + h_a,v |R_uj|) − (h_b,p |R_iq| + h_b,q |R_ip|)`:
/// a few products from `R`'s entries instead of a normalized axis dotted with
/// both boxes' axes.
#[inline(always)]
fn edge_gap(
    i: usize,
    j: usize,
    rc: &[Vec3; 3],
    abs: &[Vec3; 3],
    t: Vec3,
    ha: Vec3,
    hb: Vec3,
) -> Option<f32> {
    let (u, v) = ((i + 1) % 3, (i + 2) % 3);
    let (p, q) = ((j + 1) % 3, (j + 2) % 3);
    let c = rc[j];
    let len = (c[u] * c[u] + c[v] * c[v]).sqrt();
    if len < 1e-3 {
        return None;
    }
    let s = (t[v] * c[u] - t[u] * c[v]).abs()
        - (ha[u] * abs[j][v] + ha[v] * abs[j][u])
        - (hb[p] * abs[q][i] + hb[q] * abs[p][i]);
    Some(s / len)
}

/// Face contact with reference box `hr` (frame of `ref_pose`) and incident box `hi`
/// whose axes are the columns of `r` and centre `t` in the reference frame. The
/// manifold returned has its normal pointing from the reference box to the
/// incident one and `local_a` on the reference box.
#[allow(clippy::too_many_arguments)]
fn face_contact(
    hr: Vec3,
    hi: Vec3,
    r: &Mat3,
    t: Vec3,
    axis: usize,
    margin: f32,
    ref_pose: &Pose,
    inc_pose: &Pose,
    flip: bool,
) -> Manifold {
    let s = sgn(t[axis]);
    let mut n = Vec3::ZERO;
    n[axis] = s;
    // Incident face: most anti-parallel to n, in the incident frame.
    let ni = r.transpose() * n;
    let k = if ni.x.abs() >= ni.y.abs() && ni.x.abs() >= ni.z.abs() {
        0
    } else if ni.y.abs() >= ni.z.abs() {
        1
    } else {
        2
    };
    let sk = -sgn(ni[k]);
    let (u, v) = ((k + 1) % 3, (k + 2) % 3);
    let mut poly = Poly::new();
    for (m, (su, sv)) in [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)]
        .into_iter()
        .enumerate()
    {
        let mut local = Vec3::ZERO;
        local[k] = sk * hi[k];
        local[u] = su * hi[u];
        local[v] = sv * hi[v];
        poly.push(ClipVertex {
            p: *r * local + t,
            lines: [((m + 3) % 4) as u8, m as u8],
        });
    }
    let (a1, a2) = ((axis + 1) % 3, (axis + 2) % 3);
    let mut planes = [
        (Vec3::ZERO, hr[a1]),
        (Vec3::ZERO, hr[a1]),
        (Vec3::ZERO, hr[a2]),
        (Vec3::ZERO, hr[a2]),
    ];
    planes[0].0[a1] = 1.0;
    planes[1].0[a1] = -1.0;
    planes[2].0[a2] = 1.0;
    planes[3].0[a2] = -1.0;
    let mut tmp = Poly::new();
    for (q, (pn, d)) in planes.iter().enumerate() {
        clip_polygon(&poly, *pn, *d, PLANE_LINE + q as u8, &mut tmp);
        std::mem::swap(&mut poly, &mut tmp);
        if poly.is_empty() {
            break;
        }
    }
    let ref_face = (axis * 2 + usize::from(s < 0.0)) as u32;
    let inc_face = (k * 2 + usize::from(sk < 0.0)) as u32;
    let base = (1u32 << 30) | (u32::from(flip) << 29) | (ref_face << 24) | (inc_face << 20);
    let mut cands = Candidates::new();
    for cv in &poly {
        let sep = s * cv.p[axis] - hr[axis];
        if sep <= margin {
            cands.push(Candidate {
                pa: cv.p - n * sep,
                pb: cv.p,
                sep,
                id: base | lines_code(cv.lines),
            });
        }
    }
    reduce(&mut cands, n);
    let mut m = Manifold::new(ref_pose.transform_vector(n));
    for c in &cands {
        m.push_world(
            ref_pose,
            inc_pose,
            ref_pose.transform_point(c.pa),
            ref_pose.transform_point(c.pb),
            c.id,
        );
    }
    m
}

#[allow(clippy::too_many_arguments)]
fn edge_contact(
    ha: Vec3,
    hb: Vec3,
    pose_a: &Pose,
    pose_b: &Pose,
    r: &Mat3,
    t: Vec3,
    edge: (usize, usize, Vec3),
) -> Manifold {
    let (i, j, mut n) = edge;
    if n.dot(t) < 0.0 {
        n = -n;
    }
    // A's supporting edge along e_i.
    let mut ca = Vec3::ZERO;
    let mut code_a = 0u32;
    for k in 0..3 {
        if k != i {
            let s = sgn(n[k]);
            ca[k] = s * ha[k];
            code_a = code_a * 2 + u32::from(s < 0.0);
        }
    }
    let mut da = Vec3::ZERO;
    da[i] = 1.0;
    // B's supporting edge along its axis j, in B's frame then A's.
    let nb = r.transpose() * n;
    let mut cb_local = Vec3::ZERO;
    let mut code_b = 0u32;
    for k in 0..3 {
        if k != j {
            let s = -sgn(nb[k]);
            cb_local[k] = s * hb[k];
            code_b = code_b * 2 + u32::from(s < 0.0);
        }
    }
    let cb = *r * cb_local + t;
    let db = r.col(j);
    // Closest points of the two lines, clamped to the edges.
    let b = da.dot(db);
    let w = ca - cb;
    let (d, e) = (da.dot(w), db.dot(w));
    let denom = (1.0 - b * b).max(1e-12);
    let sa = ((b * e - d) / denom).clamp(-ha[i], ha[i]);
    let sb = ((e - b * d) / denom).clamp(-hb[j], hb[j]);
    let pa = ca + da * sa;
    let pb = cb + db * sb;
    let id = (1u32 << 31) | ((i as u32) << 12) | (code_a << 8) | ((j as u32) << 4) | code_b;
    let mut m = Manifold::new(pose_a.transform_vector(n));
    m.push_world(
        pose_a,
        pose_b,
        pose_a.transform_point(pa),
        pose_a.transform_point(pb),
        id,
    );
    m
}

#[cfg(test)]
mod tests {
    use glam::Quat;
    use proptest::prelude::*;

    use super::*;

    /// The gap along an edge axis as the separating-axis theorem states it: the
    /// normalized axis dotted with the offset and with every half-extent vector.
    fn gap_by_definition(i: usize, j: usize, rc: &[Vec3; 3], t: Vec3, ha: Vec3, hb: Vec3) -> f32 {
        let n = [Vec3::X, Vec3::Y, Vec3::Z][i].cross(rc[j]);
        let n = n / n.length();
        t.dot(n).abs()
            - n.abs().dot(ha)
            - (n.dot(rc[0]).abs() * hb.x + n.dot(rc[1]).abs() * hb.y + n.dot(rc[2]).abs() * hb.z)
    }

    proptest! {
        #[test]
        fn edge_gaps_from_the_entries_of_r_match_the_definition(
            q in (-1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0),
            t in (-3.0f32..3.0, -3.0f32..3.0, -3.0f32..3.0),
            ha in (0.05f32..2.0, 0.05f32..2.0, 0.05f32..2.0),
            hb in (0.05f32..2.0, 0.05f32..2.0, 0.05f32..2.0),
        ) {
            let q = Quat::from_xyzw(q.0, q.1, q.2, q.3);
            prop_assume!(q.length() > 0.1);
            let r = Mat3::from_quat(q.normalize());
            let rc = [r.x_axis, r.y_axis, r.z_axis];
            let abs = rc.map(Vec3::abs);
            let (t, ha, hb) = (Vec3::from(t), Vec3::from(ha), Vec3::from(hb));
            for i in 0..3 {
                for j in 0..3 {
                    let Some(s) = edge_gap(i, j, &rc, &abs, t, ha, hb) else {
                        continue;
                    };
                    let d = gap_by_definition(i, j, &rc, t, ha, hb);
                    let scale = 1.0 + t.length() + ha.length() + hb.length();
                    prop_assert!((s - d).abs() <= 1e-4 * scale, "axis {i}×{j}: {s} against {d}");
                }
            }
        }
    }

    /// Two boxes crossed edge to edge touch along the edges' common normal.
    #[test]
    fn crossed_boxes_meet_edge_to_edge() {
        let h = Vec3::splat(0.5);
        let quarter = std::f32::consts::FRAC_PI_4;
        let a = Pose::new(Vec3::ZERO, Quat::from_rotation_x(quarter));
        let b = Pose::new(
            Vec3::new(0.0, 2.0f32.sqrt() - 0.01, 0.0),
            Quat::from_rotation_z(quarter),
        );
        let m = cuboid_cuboid(h, &a, h, &b, 0.02).expect("the edges overlap by 1 cm");
        assert_eq!(m.points.len(), 1);
        assert!((m.normal - Vec3::Y).length() < 1e-4, "normal {}", m.normal);
        assert!((m.points[0].separation + 0.01).abs() < 1e-4);
    }
}
