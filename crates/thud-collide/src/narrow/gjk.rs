//! GJK distance and EPA penetration depth between two convex sets.
//!
//! Both work on the Minkowski difference `D = A − B = {a − b}`, whose support
//! point is `s_D(d) = s_A(d) − s_B(−d)`. The shapes are disjoint iff `0 ∉ D`,
//! and then the point `v` of `D` closest to the origin gives the distance
//! `|v|` and the witness points `a − b = v`.
//!
//! **GJK** (Gilbert–Johnson–Keerthi) keeps a simplex of at most 4 points of
//! `D`, replaces it each iteration by the smallest sub-simplex containing its
//! point closest to the origin (Voronoi-region tests on points, segments,
//! triangles and tetrahedra, carrying barycentric weights so the witnesses on
//! `A` and `B` follow), and adds the support point `w = s_D(−v)`. It stops when
//! `|v|² − v·w ≤ ε·|v|²` (no more progress: `v` is within relative tolerance of
//! the true distance), when the simplex encloses the origin, or when `|v|`
//! vanishes (touching or overlapping).
//!
//! **EPA** (expanding polytope) starts from a tetrahedron of `D` around the
//! origin (GJK's last simplex, completed by support points along axes and
//! normals if it is degenerate) and repeatedly pushes out the face nearest
//! the origin by the support point along its normal, re-triangulating the
//! horizon, until the support point gains less than `10⁻⁵·scale`. The nearest
//! face's normal `n` and distance `δ` are the minimum translation: moving A by
//! `−δ·n` separates the shapes, so `n` is the contact normal from A to B and
//! `−δ` the separation. Iteration and face counts are capped; on any numerical
//! trouble the routine returns `None` and the caller falls back to a
//! centre-to-centre normal.

use glam::Vec3;
use smallvec::SmallVec;

use super::support::Convex;

#[derive(Clone, Copy, Debug)]
struct SupportPoint {
    w: Vec3,
    a: Vec3,
    b: Vec3,
}

fn support(a: &Convex, b: &Convex, d: Vec3) -> SupportPoint {
    let pa = a.support(d);
    let pb = b.support(-d);
    SupportPoint {
        w: pa - pb,
        a: pa,
        b: pb,
    }
}

/// Result of GJK.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Gjk {
    /// Disjoint: witness points on A and B and their distance.
    Separated { pa: Vec3, pb: Vec3, distance: f32 },
    /// Touching or overlapping.
    Overlapping,
}

type Simplex = SmallVec<[(SupportPoint, f32); 4]>;

/// Closest point of the simplex to the origin; shrinks the simplex to the
/// supporting sub-simplex and stores barycentric weights. Returns `None` if the
/// origin is inside a tetrahedron.
fn closest(s: &mut Simplex) -> Option<Vec3> {
    match s.len() {
        1 => {
            s[0].1 = 1.0;
            Some(s[0].0.w)
        }
        2 => Some(segment(s)),
        3 => Some(triangle(s)),
        _ => tetra(s),
    }
}

fn segment(s: &mut Simplex) -> Vec3 {
    let (a, b) = (s[0].0.w, s[1].0.w);
    let ab = b - a;
    let denom = ab.length_squared();
    let t = if denom > 0.0 {
        (-a.dot(ab) / denom).clamp(0.0, 1.0)
    } else {
        0.0
    };
    if t <= 0.0 {
        s.truncate(1);
        s[0].1 = 1.0;
        return a;
    }
    if t >= 1.0 {
        s.swap(0, 1);
        s.truncate(1);
        s[0].1 = 1.0;
        return b;
    }
    s[0].1 = 1.0 - t;
    s[1].1 = t;
    a + ab * t
}

/// Ericson's closest point on triangle to the origin, by Voronoi regions.
fn triangle(s: &mut Simplex) -> Vec3 {
    let (a, b, c) = (s[0].0.w, s[1].0.w, s[2].0.w);
    let (ab, ac, ap) = (b - a, c - a, -a);
    let d1 = ab.dot(ap);
    let d2 = ac.dot(ap);
    let keep = |s: &mut Simplex, idx: &[usize], w: &[f32]| {
        let pts: Simplex = idx.iter().zip(w).map(|(&i, &wi)| (s[i].0, wi)).collect();
        *s = pts;
    };
    if d1 <= 0.0 && d2 <= 0.0 {
        keep(s, &[0], &[1.0]);
        return a;
    }
    let bp = -b;
    let d3 = ab.dot(bp);
    let d4 = ac.dot(bp);
    if d3 >= 0.0 && d4 <= d3 {
        keep(s, &[1], &[1.0]);
        return b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        let v = d1 / (d1 - d3);
        keep(s, &[0, 1], &[1.0 - v, v]);
        return a + ab * v;
    }
    let cp = -c;
    let d5 = ab.dot(cp);
    let d6 = ac.dot(cp);
    if d6 >= 0.0 && d5 <= d6 {
        keep(s, &[2], &[1.0]);
        return c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        let w = d2 / (d2 - d6);
        keep(s, &[0, 2], &[1.0 - w, w]);
        return a + ac * w;
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        let w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        keep(s, &[1, 2], &[1.0 - w, w]);
        return b + (c - b) * w;
    }
    let sum = va + vb + vc;
    if sum.is_nan() || sum == 0.0 {
        keep(s, &[0], &[1.0]);
        return a;
    }
    let denom = 1.0 / sum;
    let v = vb * denom;
    let w = vc * denom;
    s[0].1 = 1.0 - v - w;
    s[1].1 = v;
    s[2].1 = w;
    a + ab * v + ac * w
}

fn tetra(s: &mut Simplex) -> Option<Vec3> {
    let p: [Vec3; 4] = [s[0].0.w, s[1].0.w, s[2].0.w, s[3].0.w];
    let faces = [[0usize, 1, 2, 3], [0, 3, 1, 2], [0, 2, 3, 1], [1, 3, 2, 0]];
    let mut best: Option<(f32, Simplex, Vec3)> = None;
    let mut inside = true;
    let scale = p
        .iter()
        .map(|q| q.length_squared())
        .fold(0.0f32, f32::max)
        .max(1e-12);
    let vol = (p[1] - p[0]).cross(p[2] - p[0]).dot(p[3] - p[0]);
    // A flat tetrahedron encloses nothing: test every face.
    let flat = vol.abs() <= 1e-6 * scale * scale.sqrt();
    for f in faces {
        let n = (p[f[1]] - p[f[0]]).cross(p[f[2]] - p[f[0]]);
        let side_origin = n.dot(-p[f[0]]);
        let side_other = n.dot(p[f[3]] - p[f[0]]);
        // Origin on the far side of this face from the fourth vertex?
        if flat || side_origin * side_other < 0.0 {
            inside = false;
            let mut sub: Simplex = [f[0], f[1], f[2]].iter().map(|&i| (s[i].0, 0.0)).collect();
            let q = triangle(&mut sub);
            let d = q.length_squared();
            if best.as_ref().is_none_or(|b| d < b.0) {
                best = Some((d, sub, q));
            }
        }
    }
    if inside {
        return None;
    }
    let (_, sub, q) = best?;
    *s = sub;
    Some(q)
}

/// GJK distance between two convex sets.
pub(crate) fn gjk(a: &Convex, b: &Convex) -> Gjk {
    let mut v = a.center() - b.center();
    if v.length_squared() < 1e-12 {
        v = Vec3::X;
    }
    let mut s: Simplex = SmallVec::new();
    let first = support(a, b, -v);
    s.push((first, 1.0));
    v = first.w;
    for _ in 0..64 {
        let vv = v.length_squared();
        if vv < 1e-14 {
            return Gjk::Overlapping;
        }
        let w = support(a, b, -v);
        if vv - v.dot(w.w) <= 1e-6 * vv.max(1e-8) {
            break;
        }
        if s.iter().any(|(p, _)| (p.w - w.w).length_squared() < 1e-14) {
            // No new support point: converged, unless the simplex logic lost its
            // way, in which case let EPA (or its fallback) decide.
            if vv - v.dot(w.w) > 1e-3 * vv {
                return Gjk::Overlapping;
            }
            break;
        }
        s.push((w, 0.0));
        match closest(&mut s) {
            Some(q) => v = q,
            None => return Gjk::Overlapping,
        }
    }
    if s.len() == 1 {
        s[0].1 = 1.0;
    }
    let pa: Vec3 = s.iter().map(|(p, l)| p.a * *l).sum();
    let pb: Vec3 = s.iter().map(|(p, l)| p.b * *l).sum();
    let distance = v.length();
    if distance < 1e-7 {
        return Gjk::Overlapping;
    }
    Gjk::Separated { pa, pb, distance }
}

/// EPA's answer: unit normal from A to B, depth ≥ 0 and witness points on A and B.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Epa {
    pub normal: Vec3,
    #[allow(dead_code)]
    pub depth: f32,
    pub pa: Vec3,
    pub pb: Vec3,
}

/// Witness points: the origin's projection `d·n` onto the face, in barycentric
/// coordinates of the face's support points, applied to their A and B parts.
fn witness(pts: &[SupportPoint], f: &Face) -> Epa {
    let (p0, p1, p2) = (pts[f.v[0]], pts[f.v[1]], pts[f.v[2]]);
    let q = f.n * f.d;
    let (e0, e1, e2) = (p1.w - p0.w, p2.w - p0.w, q - p0.w);
    let (d00, d01, d11) = (e0.dot(e0), e0.dot(e1), e1.dot(e1));
    let (d20, d21) = (e2.dot(e0), e2.dot(e1));
    let den = d00 * d11 - d01 * d01;
    let (mut v, mut w) = if den.abs() > 1e-20 {
        ((d11 * d20 - d01 * d21) / den, (d00 * d21 - d01 * d20) / den)
    } else {
        (0.0, 0.0)
    };
    if !(v.is_finite() && w.is_finite()) {
        v = 0.0;
        w = 0.0;
    }
    let u = 1.0 - v - w;
    Epa {
        normal: f.n,
        depth: f.d.max(0.0),
        pa: p0.a * u + p1.a * v + p2.a * w,
        pb: p0.b * u + p1.b * v + p2.b * w,
    }
}

#[derive(Clone, Copy)]
struct Face {
    v: [usize; 3],
    n: Vec3,
    d: f32,
}

fn make_face(pts: &[SupportPoint], i: usize, j: usize, k: usize) -> Option<Face> {
    let n = (pts[j].w - pts[i].w).cross(pts[k].w - pts[i].w);
    let len = n.length();
    if len.is_nan() || len <= 1e-12 {
        return None;
    }
    let n = n / len;
    Some(Face {
        v: [i, j, k],
        n,
        d: n.dot(pts[i].w),
    })
}

/// EPA: penetration normal (from A to B) and depth (≥ 0) of two overlapping convex sets.
pub(crate) fn epa(a: &Convex, b: &Convex) -> Option<Epa> {
    // Initial tetrahedron: supports along ±axes and a few diagonals, pick a
    // non-degenerate, origin-enclosing set greedily.
    let dirs = [
        Vec3::X,
        Vec3::NEG_X,
        Vec3::Y,
        Vec3::NEG_Y,
        Vec3::Z,
        Vec3::NEG_Z,
        Vec3::new(1.0, 1.0, 1.0),
        Vec3::new(-1.0, -1.0, 1.0),
        Vec3::new(1.0, -1.0, -1.0),
        Vec3::new(-1.0, 1.0, -1.0),
    ];
    let raw: SmallVec<[SupportPoint; 10]> = dirs.iter().map(|&d| support(a, b, d)).collect();
    let size = raw
        .iter()
        .map(|p| p.w.length())
        .fold(0.0f32, f32::max)
        .max(1e-6);
    // Polytope supports repeat and curved ones crowd: keep points at least
    // 10⁻³·size apart, or the first faces get noise for normals.
    let mut cand: SmallVec<[SupportPoint; 10]> = SmallVec::new();
    for p in raw {
        if cand
            .iter()
            .all(|q: &SupportPoint| (q.w - p.w).length() > 1e-3 * size)
        {
            cand.push(p);
        }
    }
    let scale = cand
        .iter()
        .map(|p| p.w.length())
        .fold(0.0f32, f32::max)
        .max(1e-6);
    let tol = 1e-6 * scale;
    // Pick the tetrahedron of largest volume that encloses the origin (any
    // 4 of the 10 support points), else the largest one.
    let mut best = None;
    let mut best_in = None;
    let min_vol = 1e-6 * scale * scale * scale;
    let (mut best_vol, mut best_in_vol) = (min_vol, min_vol);
    let encloses = |p: [Vec3; 4]| {
        [[0, 1, 2, 3], [0, 1, 3, 2], [0, 2, 3, 1], [1, 2, 3, 0]]
            .iter()
            .all(|f| {
                let n = (p[f[1]] - p[f[0]]).cross(p[f[2]] - p[f[0]]);
                let so = n.dot(-p[f[0]]);
                let sv = n.dot(p[f[3]] - p[f[0]]);
                so * sv >= 0.0
            })
    };
    let nc = cand.len();
    for i in 0..nc {
        for j in i + 1..nc {
            for k in j + 1..nc {
                for l in k + 1..nc {
                    let p = [cand[i].w, cand[j].w, cand[k].w, cand[l].w];
                    let vol = (p[1] - p[0]).cross(p[2] - p[0]).dot(p[3] - p[0]).abs();
                    if vol > best_vol {
                        best_vol = vol;
                        best = Some([i, j, k, l]);
                    }
                    if vol > best_in_vol && encloses(p) {
                        best_in_vol = vol;
                        best_in = Some([i, j, k, l]);
                    }
                }
            }
        }
    }
    let best = best_in.or(best);
    let c = best?;
    let mut pts: Vec<SupportPoint> = c.iter().map(|&i| cand[i]).collect();
    let mut faces: Vec<Face> = Vec::new();
    let centroid = (pts[0].w + pts[1].w + pts[2].w + pts[3].w) * 0.25;
    for [i, j, k] in [[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]] {
        let mut f = make_face(&pts, i, j, k)?;
        if f.n.dot(centroid) > f.d {
            f = make_face(&pts, i, k, j)?;
        }
        faces.push(f);
    }
    // The origin must be inside (or on) the initial polytope; else grow towards it.
    let mut edges: Vec<(usize, usize)> = Vec::new();
    for _ in 0..128 {
        // Nearest face.
        let (fi, f) = faces
            .iter()
            .enumerate()
            .min_by(|x, y| x.1.d.total_cmp(&y.1.d))
            .map(|(i, f)| (i, *f))?;
        let _ = fi;
        let w = support(a, b, f.n);
        let gain = w.w.dot(f.n) - f.d;
        if gain <= tol || faces.len() > 512 {
            if !f.n.is_finite() || !f.d.is_finite() {
                return None;
            }
            return Some(witness(&pts, &f));
        }
        // A support point (nearly) at an existing vertex adds only slivers whose
        // noisy normals would corrupt the polytope: stop at the current face.
        if pts.iter().any(|p| (p.w - w.w).length() <= 1e-4 * scale) {
            return Some(witness(&pts, &f));
        }
        let wi = pts.len();
        pts.push(w);
        edges.clear();
        let mut k = 0;
        while k < faces.len() {
            let g = faces[k];
            if g.n.dot(w.w) - g.d > 1e-6 * scale {
                for e in 0..3 {
                    let (u, v) = (g.v[e], g.v[(e + 1) % 3]);
                    if let Some(pos) = edges.iter().position(|&(x, y)| x == v && y == u) {
                        edges.swap_remove(pos);
                    } else {
                        edges.push((u, v));
                    }
                }
                faces.swap_remove(k);
            } else {
                k += 1;
            }
        }
        for &(u, v) in &edges {
            if let Some(f) = make_face(&pts, u, v, wi) {
                faces.push(f);
            }
        }
        if faces.is_empty() {
            return None;
        }
    }
    let f = faces.iter().min_by(|x, y| x.d.total_cmp(&y.d))?;
    Some(witness(&pts, f))
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Mat3;

    #[test]
    fn boxes_distance_and_depth() {
        let a = Convex::Cuboid {
            c: Vec3::ZERO,
            rot: Mat3::IDENTITY,
            h: Vec3::splat(0.5),
        };
        let b = Convex::Cuboid {
            c: Vec3::new(0.3, 1.2, 0.1),
            rot: Mat3::IDENTITY,
            h: Vec3::splat(0.5),
        };
        match gjk(&a, &b) {
            Gjk::Separated { distance, .. } => assert!((distance - 0.2).abs() < 1e-4),
            Gjk::Overlapping => panic!("should be separated"),
        }
        let b = Convex::Cuboid {
            c: Vec3::new(0.3, 0.9, 0.1),
            rot: Mat3::IDENTITY,
            h: Vec3::splat(0.5),
        };
        assert!(matches!(gjk(&a, &b), Gjk::Overlapping));
        let e = epa(&a, &b).unwrap();
        assert!((e.normal - Vec3::Y).length() < 1e-3, "{}", e.normal);
        assert!((e.depth - 0.1).abs() < 1e-3);
        assert!(((e.pa - e.pb).dot(e.normal) - 0.1).abs() < 1e-3);
    }

    #[test]
    fn sphere_capsule_distance() {
        let a = Convex::Sphere {
            c: Vec3::ZERO,
            r: 0.5,
        };
        let b = Convex::Capsule {
            p: Vec3::new(-1.0, 1.0, 0.0),
            q: Vec3::new(1.0, 1.0, 0.0),
            r: 0.25,
        };
        match gjk(&a, &b) {
            Gjk::Separated { distance, pa, .. } => {
                assert!((distance - 0.25).abs() < 1e-3, "{distance}");
                assert!((pa - Vec3::new(0.0, 0.5, 0.0)).length() < 1e-2);
            }
            Gjk::Overlapping => panic!(),
        }
    }
}

#[cfg(test)]
mod epa_check {
    use super::*;
    use glam::{Mat3, Quat};

    fn sat_depth(ha: Vec3, ra: Mat3, hb: Vec3, rb: Mat3, t: Vec3) -> f32 {
        let aa = [ra.x_axis, ra.y_axis, ra.z_axis];
        let ab = [rb.x_axis, rb.y_axis, rb.z_axis];
        let mut axes: Vec<Vec3> = aa.iter().chain(&ab).copied().collect();
        for a in aa {
            for b in ab {
                let c = a.cross(b);
                if c.length() > 1e-3 {
                    axes.push(c.normalize());
                }
            }
        }
        axes.iter()
            .map(|n| {
                let x: f32 = (0..3).map(|k| ha[k] * n.dot(aa[k]).abs()).sum();
                let y: f32 = (0..3).map(|k| hb[k] * n.dot(ab[k]).abs()).sum();
                x + y - t.dot(*n).abs()
            })
            .fold(f32::MAX, f32::min)
    }

    #[test]
    fn epa_depth_matches_sat_for_boxes() {
        let mut s = 7u64;
        let mut r = move || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 40) as f32) / (1u64 << 24) as f32
        };
        let mut bad = 0;
        for _ in 0..500 {
            let ha = Vec3::new(0.2 + r(), 0.2 + r(), 0.2 + r());
            let hb = Vec3::new(0.2 + r(), 0.2 + r(), 0.2 + r());
            let qa = Quat::from_euler(glam::EulerRot::YXZ, r() * 6.0, r() * 6.0, r() * 6.0);
            let qb = Quat::from_euler(glam::EulerRot::YXZ, r() * 6.0, r() * 6.0, r() * 6.0);
            let t = Vec3::new(r() - 0.5, r() - 0.5, r() - 0.5) * 2.0;
            let (ra, rb) = (Mat3::from_quat(qa), Mat3::from_quat(qb));
            let d = sat_depth(ha, ra, hb, rb, t);
            if d <= 0.0 {
                continue;
            }
            let a = Convex::Cuboid {
                c: Vec3::ZERO,
                rot: ra,
                h: ha,
            };
            let b = Convex::Cuboid {
                c: t,
                rot: rb,
                h: hb,
            };
            match epa(&a, &b) {
                Some(e) if (e.depth - d).abs() < 1e-3 => {}
                other => {
                    bad += 1;
                    if bad < 5 {
                        eprintln!("sat {d} epa {other:?}");
                    }
                }
            }
        }
        assert_eq!(bad, 0);
    }
}
