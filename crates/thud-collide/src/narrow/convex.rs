//! General convex pairs: GJK/EPA for the normal, clipping for the manifold.
//!
//! Any two convex sets (see [`super::support`]) are handled in two stages.
//!
//! 1. **Normal and depth.** GJK gives the distance and witness points when the
//!    shapes are apart (`n = (p_b − p_a)/|p_b − p_a|`, separation = distance);
//!    beyond the margin there is no contact. When they overlap, EPA gives the
//!    penetration normal `n` and depth `δ`. Should EPA fail (degenerate
//!    polytope), the centre-to-centre direction is used and the depth measured
//!    from the support points along it.
//!
//! 2. **Manifold.** The support feature of A along `n` and of B along `−n`
//!    (face, segment or point) are intersected. If either is a polygon, the one
//!    whose face normal is closer to `±n` is the reference: the other feature is
//!    clipped against its side planes (`(v_{k+1} − v_k) × n_f`, oriented away
//!    from the polygon centre), and each surviving point `x` is projected onto the
//!    reference plane *along the contact normal*,
//!    `t = n_f·(x − v₀)/(n_f·n)`, which gives the partner point and the signed
//!    separation; points beyond the margin are dropped and at most 4 are kept by
//!    area. Two segments give their closest points (two points over the overlap
//!    when nearly parallel). A point feature, or a clip that leaves nothing, gives
//!    the single witness contact.
//!
//! Feature ids: bit 31 when B's feature is the reference, the reference feature
//! id in bits 24–30, the incident feature id in bits 16–23 and the clip-line code
//! in bits 0–15; the single witness point uses `0xFFFF`.

use glam::Vec3;

use super::clip::{
    Candidate, Candidates, ClipVertex, PLANE_LINE, Poly, clip_polygon, lines_code, reduce,
};
use super::gjk::{Gjk, epa, gjk};
use super::rounded::closest_segments;
use super::support::{Convex, Feature};
use crate::{Manifold, Pose};

const WITNESS_ID: u32 = 0xFFFF;

/// Minimum cosine between a reference face normal and the contact normal (≈ 5.7°).
const REF_COS: f32 = 0.995;

/// The core (radius 0) of a rounded convex and its radius.
fn core<'a>(c: &Convex<'a>) -> (Convex<'a>, f32) {
    match *c {
        Convex::Sphere { c, r } => (Convex::Sphere { c, r: 0.0 }, r),
        Convex::Capsule { p, q, r } => (Convex::Capsule { p, q, r: 0.0 }, r),
        other => (other, 0.0),
    }
}

/// Contact between two convex sets within `margin`.
pub(crate) fn convex_convex(
    a: &Convex,
    pose_a: &Pose,
    b: &Convex,
    pose_b: &Pose,
    margin: f32,
) -> Option<Manifold> {
    // Work about A's centre: far from the world origin, f32 differences of
    // large coordinates would otherwise stall EPA's convergence test.
    let o = a.center();
    let (a, b) = (&a.translated(-o), &b.translated(-o));
    // Rounded shapes: GJK between the cores is exact (no curved support); only a
    // core that penetrates the other shape needs EPA on the full shapes.
    let ((ca, ra), (cb, rb)) = (core(a), core(b));
    if (ra > 0.0 || rb > 0.0)
        && let Gjk::Separated { pa, pb, distance } = gjk(&ca, &cb)
        && distance > 1e-5
    {
        if distance - ra - rb > margin {
            return None;
        }
        let n = (pb - pa) / distance;
        return Some(from_normal(
            a,
            pose_a,
            b,
            pose_b,
            n,
            pa + n * ra,
            pb - n * rb,
            margin,
            o,
        ));
    }
    let g = gjk(a, b);
    let (n, wa, wb) = match g {
        Gjk::Separated { pa, pb, distance } => {
            if distance > margin {
                return None;
            }
            let n = (pb - pa)
                .try_normalize()
                .unwrap_or_else(|| (b.center() - a.center()).normalize_or(Vec3::Y));
            (n, pa, pb)
        }
        Gjk::Overlapping => match epa(a, b) {
            Some(e) if e.normal.is_finite() && e.pa.is_finite() && e.pb.is_finite() => {
                (e.normal, e.pa, e.pb)
            }
            _ => {
                let n = (b.center() - a.center()).try_normalize().unwrap_or(Vec3::Y);
                (n, a.support(n), b.support(-n))
            }
        },
    };
    let m = from_normal(a, pose_a, b, pose_b, n, wa, wb, margin, o);
    if m.is_empty() && matches!(g, Gjk::Overlapping) {
        // Overlapping but EPA's face gave nothing usable: centre-to-centre.
        let n = (b.center() - a.center()).try_normalize().unwrap_or(Vec3::Y);
        let m = from_normal(
            a,
            pose_a,
            b,
            pose_b,
            n,
            a.support(n),
            b.support(-n),
            margin,
            o,
        );
        return (!m.is_empty()).then_some(m);
    }
    (!m.is_empty()).then_some(m)
}

/// The manifold for contact normal `n` with witness points `wa`, `wb`; the
/// convexes are given moved by `−o` from the world.
#[allow(clippy::too_many_arguments)]
fn from_normal(
    a: &Convex,
    pose_a: &Pose,
    b: &Convex,
    pose_b: &Pose,
    n: Vec3,
    wa: Vec3,
    wb: Vec3,
    margin: f32,
    o: Vec3,
) -> Manifold {
    let fa = a.feature(n);
    let fb = b.feature(-n);
    let mut cands = Candidates::new();
    clip_features(&fa, &fb, n, margin, None, &mut cands);
    if cands.is_empty() {
        let sep = n.dot(wb - wa);
        if sep <= margin {
            cands.push(Candidate {
                pa: wa,
                pb: wb,
                sep,
                id: WITNESS_ID,
            });
        }
    }
    reduce(&mut cands, n);
    let mut m = Manifold::new(n);
    for c in &cands {
        m.push_world(pose_a, pose_b, c.pa + o, c.pb + o, c.id);
    }
    m
}

/// Intersects support features `fa` (of A along `n`) and `fb` (of B along `−n`).
/// `force_ref_a` makes A's polygon the reference regardless of alignment.
pub(crate) fn clip_features(
    fa: &Feature,
    fb: &Feature,
    n: Vec3,
    margin: f32,
    force_ref_a: Option<bool>,
    out: &mut Candidates,
) {
    let (la, lb) = (fa.pts.len(), fb.pts.len());
    // A face is a valid reference only if (nearly) perpendicular to the normal:
    // otherwise the closest features are an edge or vertex of it, and projecting
    // onto its plane would overstate the separation.
    let ok_a = la >= 3 && fa.normal.dot(n) >= REF_COS;
    let ok_b = lb >= 3 && -fb.normal.dot(n) >= REF_COS;
    let ref_a = match force_ref_a {
        Some(r) => Some(r),
        None if ok_a && (!ok_b || fa.normal.dot(n) >= -fb.normal.dot(n) - 1e-3) => Some(true),
        None if ok_b => Some(false),
        None => None,
    };
    if let Some(ref_is_a) = ref_a {
        let (rf, inc) = if ref_is_a { (fa, fb) } else { (fb, fa) };
        let nf = rf.normal;
        let denom = nf.dot(n);
        if denom.abs() < 0.1 || rf.pts.len() < 3 {
            return;
        }
        let mut poly: Poly = Poly::new();
        let k = inc.pts.len();
        for (i, &p) in inc.pts.iter().enumerate() {
            let lines = if k >= 3 {
                [((i + k - 1) % k) as u8, i as u8]
            } else {
                [0, 1 + i as u8]
            };
            poly.push(ClipVertex { p, lines });
        }
        let centre = rf.pts.iter().copied().sum::<Vec3>() / rf.pts.len() as f32;
        let mut tmp = Poly::new();
        let kr = rf.pts.len();
        for e in 0..kr {
            let (v0, v1) = (rf.pts[e], rf.pts[(e + 1) % kr]);
            let mut pn = (v1 - v0).cross(nf);
            if pn.dot(centre - v0) > 0.0 {
                pn = -pn;
            }
            let len = pn.length();
            if len < 1e-9 {
                continue;
            }
            pn /= len;
            clip_polygon(
                &poly,
                pn,
                pn.dot(v0),
                PLANE_LINE + (e as u8 & 0x7F),
                &mut tmp,
            );
            std::mem::swap(&mut poly, &mut tmp);
            if poly.is_empty() {
                return;
            }
        }
        let v0 = rf.pts[0];
        let base = (u32::from(!ref_is_a) << 31) | ((rf.id & 0x7F) << 24) | ((inc.id & 0xFF) << 16);
        for cv in &poly {
            let t = nf.dot(cv.p - v0) / denom;
            let y = cv.p - n * t;
            let (xa, xb, sep) = if ref_is_a {
                (y, cv.p, t)
            } else {
                (cv.p, y, -t)
            };
            if sep <= margin {
                out.push(Candidate {
                    pa: xa,
                    pb: xb,
                    sep,
                    id: base | lines_code(cv.lines),
                });
            }
        }
        return;
    }
    if la == 2 && lb == 2 {
        let (a0, a1, b0, b1) = (fa.pts[0], fa.pts[1], fb.pts[0], fb.pts[1]);
        let (da, db) = ((a1 - a0).normalize_or_zero(), (b1 - b0).normalize_or_zero());
        let base = ((fa.id & 0x7F) << 24) | ((fb.id & 0xFF) << 16);
        if da.dot(db).abs() > 0.995 {
            // Parallel: B's segment clipped to A's extent, two points.
            let (lo, hi) = (da.dot(a0).min(da.dot(a1)), da.dot(a0).max(da.dot(a1)));
            let (tb0, tb1) = (da.dot(b0), da.dot(b1));
            for (k, tt) in [(1u32, tb0.clamp(lo, hi)), (2u32, tb1.clamp(lo, hi))] {
                let s = if (tb1 - tb0).abs() > 1e-9 {
                    ((tt - tb0) / (tb1 - tb0)).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                let xb = b0 + (b1 - b0) * s;
                let (xa, _) = closest_segments(a0, a1, xb, xb);
                let sep = n.dot(xb - xa);
                if sep <= margin {
                    out.push(Candidate {
                        pa: xa,
                        pb: xb,
                        sep,
                        id: base | k,
                    });
                }
            }
            if out.len() == 2 && (out[0].pb - out[1].pb).length_squared() < 1e-10 {
                out.pop();
            }
        } else {
            let (xa, xb) = closest_segments(a0, a1, b0, b1);
            let sep = n.dot(xb - xa);
            if sep <= margin {
                out.push(Candidate {
                    pa: xa,
                    pb: xb,
                    sep,
                    id: base | 3,
                });
            }
        }
    }
}
