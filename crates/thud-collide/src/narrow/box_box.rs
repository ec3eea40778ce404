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
//! no contact. All fifteen are computed at once (`gaps`), then tested together: per
//! axis branches, mispredicted in a heap of turned boxes, cost more. Edge axes with `|eᵢ × R_j| < 10⁻³` are skipped: nearly parallel
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
//!
//! **Points from the reference frame.** Both contacts are found in the reference
//! box's frame, where the point on the reference box *is* its local anchor; the other
//! box's anchor is `Rᵀ·(p − t)` and the world point the midpoint through the reference
//! box's rotation matrix (no round trip through the world, four quaternion rotations a
//! point).

use glam::{Mat3, Mat3A, Vec3, Vec3A, Vec3Swizzles};

use super::clip::{
    Candidate, Candidates, ClipVertex, PLANE_LINE, Quad8, clip_axis, lines_code, reduce,
};
use crate::{ContactPoint, FeatureId, Manifold, Pose};

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
    cuboid_pair(ha, pose_a, hb, pose_b, margin).ok()
}

/// [`cuboid_cuboid`], or, where an axis separates the boxes by more than `margin`, the
/// largest gap along the fifteen axes: each is the distance between the boxes'
/// projections on a unit axis, so no two points of the boxes are nearer than it.
pub(crate) fn cuboid_pair(
    ha: Vec3,
    pose_a: &Pose,
    hb: Vec3,
    pose_b: &Pose,
    margin: f32,
) -> Result<Manifold, f32> {
    let d = pose_b.position - pose_a.position;
    let ra = pose_a.rotation_matrix();
    let rb = pose_b.rotation_matrix();
    let r = ra.transpose() * rb;
    let t = ra.transpose() * d;
    let (sa, sb, edges) = gaps(&r, t, ha, hb);
    // Any separating axis: no contact.
    let over = Vec3A::splat(margin);
    let apart = sa.cmpgt(over) | sb.cmpgt(over) | edges[0].cmpgt(over);
    if (apart | edges[1].cmpgt(over) | edges[2].cmpgt(over)).any() {
        let widest = sa.max(sb).max(edges[0]).max(edges[1].max(edges[2]));
        return Err(widest.max_element());
    }
    // The best (largest) gap of each family, the first of equals.
    let (sep_a, ia) = first_max(&[sa]);
    let (sep_b, jb) = first_max(&[sb]);
    let (sep_e, e) = first_max(&edges);
    let best = (sep_e > f32::NEG_INFINITY).then_some((e / 3, e % 3));
    let face_max = sep_a.max(sep_b);
    if let Some((i, j)) = best.filter(|_| sep_e > face_max + EDGE_TOL) {
        let n = [Vec3::X, Vec3::Y, Vec3::Z][i].cross(r.col(j));
        let edge = (i, j, n / n.length());
        return Ok(edge_contact(ha, hb, (&ra, pose_a.position), &r, t, edge));
    }
    if sep_b > sep_a + FACE_TOL {
        // B holds the reference face: express A in B's frame.
        let rt = r.transpose();
        let tt = -(rt * t);
        let refb = (&rb, pose_b.position);
        let mut m = face_contact(hb, ha, &rt, tt, jb, margin, refb, true);
        // The reference box was B: flip so the normal points from A to B.
        m.flip();
        Ok(m)
    } else {
        let refa = (&ra, pose_a.position);
        Ok(face_contact(ha, hb, &r, t, ia, margin, refa, false))
    }
}

/// The gaps along the 15 candidate axes, computed all at once (no early exit: the
/// branches of a test per axis cost more, mispredicted, than the few vector operations
/// the axes left over take): A's faces `sa` (over `i`), B's faces `sb` (over `j`), and
/// the edge axes, `edges[i]` over `j`.
///
/// **Faces.** `sa_i = |t_i| − h_a,i − Σⱼ |R_ij| h_b,j`, `sb_j = |t·R_j| − Σᵢ |R_ij| h_a,i − h_b,j`.
///
/// **Edges.** For `L = eᵢ × R_j`, with `(u, v)` the two indices after `i` and `(p, q)`
/// the two after `j`, the components are `L_u = −R_vj`, `L_v = R_uj` (and `L_i = 0`),
/// and for a rotation `(eᵢ × R_j)·R_p = eᵢ·(R_j × R_p) = R_iq`, `(eᵢ × R_j)·R_q = −R_ip`. So
///
/// `|L|·s = |t_v R_uj − t_u R_vj| − (h_a,u |R_vj| + h_a,v |R_uj|) − (h_b,p |R_iq| + h_b,q |R_ip|)`:
/// a few products from `R`'s entries instead of a normalized axis dotted with both
/// boxes' axes. Over `j` at once these are rows of `R` (`R_u·`, `R_v·`) and row `i` of
/// `|R|` with its entries turned (`(p, q)` runs `(1, 2), (2, 0), (0, 1)`). Axes with
/// `|L| < 10⁻³` get `−∞`: nearly parallel edges are covered by the face axes, and the
/// division would amplify rounding.
#[inline(always)]
fn gaps(r: &Mat3, t: Vec3, ha: Vec3, hb: Vec3) -> (Vec3A, Vec3A, [Vec3A; 3]) {
    let r = Mat3A::from(*r);
    let (t, ha, hb) = (Vec3A::from(t), Vec3A::from(ha), Vec3A::from(hb));
    let cols = [r.x_axis.abs(), r.y_axis.abs(), r.z_axis.abs()];
    let rt = r.transpose();
    let rows = [rt.x_axis, rt.y_axis, rt.z_axis];
    let abs_rows = rows.map(Vec3A::abs);
    let sa = t.abs() - ha - (cols[0] * hb.x + cols[1] * hb.y + cols[2] * hb.z);
    let tb = rows[0] * t.x + rows[1] * t.y + rows[2] * t.z;
    let sb = tb.abs() - (abs_rows[0] * ha.x + abs_rows[1] * ha.y + abs_rows[2] * ha.z) - hb;
    let (ta, ha_a) = (t.to_array(), ha.to_array());
    let edges = std::array::from_fn(|i| {
        let (u, v) = ((i + 1) % 3, (i + 2) % 3);
        let (ru, rv) = (rows[u], rows[v]);
        let len = (ru * ru + rv * rv).sqrt();
        let ai = abs_rows[i];
        let s = (ta[v] * ru - ta[u] * rv).abs()
            - (ha_a[u] * abs_rows[v] + ha_a[v] * abs_rows[u])
            - (hb.yzx() * ai.zxy() + hb.zxy() * ai.yzx());
        Vec3A::select(len.cmpge(Vec3A::splat(1e-3)), s / len, Vec3A::NEG_INFINITY)
    });
    (sa, sb, edges)
}

/// The largest entry of `v` (lanes `0..3` of each, in order) and the index of its first
/// occurrence (`3·k + lane`).
#[inline(always)]
fn first_max(v: &[Vec3A]) -> (f32, usize) {
    let max = v
        .iter()
        .fold(f32::NEG_INFINITY, |m, x| m.max(x.max_element()));
    let at = Vec3A::splat(max);
    let mask = v
        .iter()
        .enumerate()
        .fold(0u32, |m, (k, x)| m | (x.cmpeq(at).bitmask() << (3 * k)));
    (max, (mask.trailing_zeros() as usize).min(3 * v.len() - 1))
}

/// A contact point from the reference box's frame, where the box pair works: `pa`
/// on the reference box (its local point as it is), `pb` on the other box (whose axes
/// are the columns of `r` and centre `t` there: local `rᵀ·(pb − t)`), the world point
/// their midpoint through the reference box's rotation `frame.0` and position
/// `frame.1`. Two matrix products instead of four quaternion rotations.
#[inline(always)]
fn push_point(
    m: &mut Manifold,
    frame: (&Mat3, Vec3),
    rt: &Mat3,
    t: Vec3,
    (pa, pb): (Vec3, Vec3),
    separation: f32,
    id: u32,
) {
    m.points.push(ContactPoint {
        local_a: pa,
        local_b: *rt * (pb - t),
        point: *frame.0 * ((pa + pb) * 0.5) + frame.1,
        separation,
        feature: FeatureId(id),
    });
}

/// Face contact with reference box `hr` (rotation and position `frame`) and incident
/// box `hi` whose axes are the columns of `r` and centre `t` in the reference frame.
/// The manifold returned has its normal pointing from the reference box to the
/// incident one and `local_a` on the reference box.
#[allow(clippy::too_many_arguments)]
fn face_contact(
    hr: Vec3,
    hi: Vec3,
    r: &Mat3,
    t: Vec3,
    axis: usize,
    margin: f32,
    frame: (&Mat3, Vec3),
    flip: bool,
) -> Manifold {
    let (hr, hi_a) = (hr.to_array(), hi.to_array());
    let s = sgn(t.to_array()[axis]);
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
    let sk = -sgn(ni.to_array()[k]);
    let (u, v) = ((k + 1) % 3, (k + 2) % 3);
    // Its corners: the face centre plus or minus the two half-edges.
    let centre = t + r.col(k) * (sk * hi_a[k]);
    let (eu, ev) = (r.col(u) * hi_a[u], r.col(v) * hi_a[v]);
    let mut poly = Quad8::new();
    for (m, (su, sv)) in [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)]
        .into_iter()
        .enumerate()
    {
        poly.push(ClipVertex {
            p: centre + eu * su + ev * sv,
            lines: [((m + 3) % 4) as u8, m as u8],
        });
    }
    // The reference face's four side planes, `±x[a1] ≤ h[a1]`, `±x[a2] ≤ h[a2]`.
    let (a1, a2) = ((axis + 1) % 3, (axis + 2) % 3);
    let planes = [(a1, 1.0), (a1, -1.0), (a2, 1.0), (a2, -1.0)];
    // Two polygons in turn, swapped by reference (swapping the 136-byte polygons
    // themselves was a fifth of this function's time).
    let mut tmp = Quad8::new();
    let (mut from, mut to) = (&mut poly, &mut tmp);
    for (q, &(a, sign)) in planes.iter().enumerate() {
        clip_axis(from, a, sign, hr[a], PLANE_LINE + q as u8, to);
        std::mem::swap(&mut from, &mut to);
        if from.is_empty() {
            break;
        }
    }
    let poly = from;
    let ref_face = (axis * 2 + usize::from(s < 0.0)) as u32;
    let inc_face = (k * 2 + usize::from(sk < 0.0)) as u32;
    let base = (1u32 << 30) | (u32::from(flip) << 29) | (ref_face << 24) | (inc_face << 20);
    let mut cands = Candidates::new();
    for cv in poly.as_slice() {
        let sep = s * cv.p.to_array()[axis] - hr[axis];
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
    let mut m = Manifold::new(frame.0.col(axis) * s);
    let rt = r.transpose();
    for c in &cands {
        push_point(&mut m, frame, &rt, t, (c.pa, c.pb), c.sep, c.id);
    }
    m
}

/// Edge contact of A's edge direction `i` and B's `j` along the unit axis `n` (A's
/// frame; B's axes the columns of `r`, its centre `t`); `frame` is A's world rotation
/// and position.
fn edge_contact(
    ha: Vec3,
    hb: Vec3,
    frame: (&Mat3, Vec3),
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
    let rt = r.transpose();
    let nb = rt * n;
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
    let mut m = Manifold::new(*frame.0 * n);
    push_point(&mut m, frame, &rt, t, (pa, pb), n.dot(pb - pa), id);
    m
}

#[cfg(test)]
mod tests {
    use glam::Quat;
    use proptest::prelude::*;

    use super::*;

    /// The gap along a unit axis `n` as the separating-axis theorem states it: the
    /// offset and every half-extent vector dotted with it.
    fn gap_by_definition(n: Vec3, rc: &[Vec3; 3], t: Vec3, ha: Vec3, hb: Vec3) -> f32 {
        t.dot(n).abs()
            - n.abs().dot(ha)
            - (n.dot(rc[0]).abs() * hb.x + n.dot(rc[1]).abs() * hb.y + n.dot(rc[2]).abs() * hb.z)
    }

    proptest! {
        #[test]
        fn the_fifteen_gaps_match_the_definition(
            q in (-1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0),
            t in (-3.0f32..3.0, -3.0f32..3.0, -3.0f32..3.0),
            ha in (0.05f32..2.0, 0.05f32..2.0, 0.05f32..2.0),
            hb in (0.05f32..2.0, 0.05f32..2.0, 0.05f32..2.0),
        ) {
            let q = Quat::from_xyzw(q.0, q.1, q.2, q.3);
            prop_assume!(q.length() > 0.1);
            let r = Mat3::from_quat(q.normalize());
            let rc = [r.x_axis, r.y_axis, r.z_axis];
            let (t, ha, hb) = (Vec3::from(t), Vec3::from(ha), Vec3::from(hb));
            let (sa, sb, edges) = gaps(&r, t, ha, hb);
            let scale = 1e-4 * (1.0 + t.length() + ha.length() + hb.length());
            let axes = [Vec3::X, Vec3::Y, Vec3::Z];
            for i in 0..3 {
                let d = gap_by_definition(axes[i], &rc, t, ha, hb);
                prop_assert!((sa[i] - d).abs() <= scale, "A's face {i}: {} against {d}", sa[i]);
                let d = gap_by_definition(rc[i], &rc, t, ha, hb);
                prop_assert!((sb[i] - d).abs() <= scale, "B's face {i}: {} against {d}", sb[i]);
                for j in 0..3 {
                    let n = axes[i].cross(rc[j]);
                    let s = edges[i][j];
                    if n.length() < 1e-3 {
                        prop_assert!(s == f32::NEG_INFINITY, "axis {i}×{j} is nearly parallel");
                        continue;
                    }
                    let d = gap_by_definition(n / n.length(), &rc, t, ha, hb);
                    prop_assert!((s - d).abs() <= scale, "axis {i}×{j}: {s} against {d}");
                }
            }
        }

        /// The largest entry and where it first occurs, as a plain scan finds them.
        #[test]
        fn first_max_is_the_first_largest(v in proptest::collection::vec(-2i8..3, 9)) {
            let x: Vec<f32> = v.iter().map(|&k| f32::from(k)).collect();
            let lanes = [0, 3, 6].map(|k| Vec3A::new(x[k], x[k + 1], x[k + 2]));
            let mut want = (f32::MIN, 0);
            for (k, &e) in x.iter().enumerate() {
                if e > want.0 {
                    want = (e, k);
                }
            }
            prop_assert_eq!(first_max(&lanes), want);
            prop_assert_eq!(first_max(&lanes[..1]), (x[0].max(x[1]).max(x[2]), {
                let m = x[0].max(x[1]).max(x[2]);
                x.iter().position(|&e| e == m).unwrap_or(0)
            }));
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
