//! Polygon clipping and manifold reduction, shared by the polyhedral pairs.
//!
//! **Clipping.** A face contact has a *reference* face (its plane's normal is
//! the contact normal) and an *incident* face on the other shape (the face
//! most anti-parallel to it). The incident polygon is clipped against the
//! reference face's side planes, `nₖ·x ≤ dₖ`, one plane at a time
//! (Sutherland–Hodgman); the survivors lie over the reference face, and each
//! one's separation is its height above the reference plane.
//!
//! **Feature ids.** Every polygon vertex is the intersection of two *lines*:
//! an original incident vertex lies on its two incident edges; a vertex made
//! by clipping lies on the segment's supporting line and on the clip plane.
//! Incident edges are lines `0..128`, reference side planes `128..256`. A
//! segment between two consecutive vertices lies on the line they share, so a
//! new vertex's pair is `(shared line, clip plane)`. The unordered pair of
//! lines names the point independently of how far the polygons have moved,
//! which is exactly the stability the solver's warm start needs.
//!
//! **Reduction.** Up to 8 (box) or more (hull) points survive; we keep 4:
//! the deepest point `p₀`, the point `p₁` farthest from it, then the points
//! `p₂`, `p₃` with the largest positive and negative signed triangle area
//! `((p₁ − p₀) × (pᵢ − p₀))·n` — together the quadrilateral of (nearly)
//! largest area containing the deepest point. The survivors keep their
//! original order, so a given polygon always reduces the same way.

use glam::Vec3;
use smallvec::SmallVec;

/// Line id offset of reference side planes.
pub(crate) const PLANE_LINE: u8 = 128;

/// A polygon vertex with the two lines it lies on.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ClipVertex {
    pub p: Vec3,
    pub lines: [u8; 2],
}

pub(crate) type Poly = SmallVec<[ClipVertex; 8]>;

/// A candidate contact: surface points on A and B (any common frame), separation, id.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Candidate {
    pub pa: Vec3,
    pub pb: Vec3,
    pub sep: f32,
    pub id: u32,
}

pub(crate) type Candidates = SmallVec<[Candidate; 8]>;

#[inline]
fn shared(a: [u8; 2], b: [u8; 2]) -> u8 {
    if a[0] == b[0] || a[0] == b[1] {
        a[0]
    } else {
        a[1]
    }
}

/// The feature code (16 bits) of a clip vertex: its two line ids, sorted.
#[inline]
pub(crate) fn lines_code(lines: [u8; 2]) -> u32 {
    let (lo, hi) = if lines[0] <= lines[1] {
        (lines[0], lines[1])
    } else {
        (lines[1], lines[0])
    };
    u32::from(lo) | (u32::from(hi) << 8)
}

/// Clips the closed polygon `input` to the half-space `n·x ≤ d` (plane line id `line`).
pub(crate) fn clip_polygon(input: &Poly, n: Vec3, d: f32, line: u8, out: &mut Poly) {
    out.clear();
    clip_with(input, |p| n.dot(p) - d, line, |v| out.push(v));
}

/// Sutherland–Hodgman against one plane, `dist(p)` the signed height over it (inside
/// where `≤ 0`): a closed polygon of three or more vertices edge by edge, a segment or a
/// point as they are (no closing edge). The survivors go to `push` in order.
#[inline(always)]
fn clip_with(
    v: &[ClipVertex],
    dist: impl Fn(Vec3) -> f32,
    line: u8,
    mut push: impl FnMut(ClipVertex),
) {
    match v.len() {
        0 => {}
        1 => {
            if dist(v[0].p) <= 0.0 {
                push(v[0]);
            }
        }
        2 => {
            let (a, b) = (v[0], v[1]);
            let (da, db) = (dist(a.p), dist(b.p));
            if da <= 0.0 {
                push(a);
            }
            if (da <= 0.0) != (db <= 0.0) {
                push(cut(a, b, da, db, line));
            }
            if db <= 0.0 {
                push(b);
            }
        }
        k => {
            let mut prev = v[k - 1];
            let mut dp = dist(prev.p);
            for &cur in v {
                let dc = dist(cur.p);
                if (dp <= 0.0) != (dc <= 0.0) {
                    push(cut(prev, cur, dp, dc, line));
                }
                if dc <= 0.0 {
                    push(cur);
                }
                prev = cur;
                dp = dc;
            }
        }
    }
}

/// A polygon of at most [`Quad8::CAP`] vertices in a fixed array: a box face (four
/// corners) clipped by a box face's four side planes gains at most one vertex per
/// plane. No heap and no spill check on every push, which the box pair's clipping
/// paid for with [`Poly`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Quad8 {
    v: [ClipVertex; Self::CAP],
    len: usize,
}

impl Quad8 {
    /// The room: 4 corners and one vertex per clip plane.
    pub(crate) const CAP: usize = 8;

    pub(crate) fn new() -> Self {
        Self {
            v: [ClipVertex {
                p: Vec3::ZERO,
                lines: [0, 0],
            }; Self::CAP],
            len: 0,
        }
    }

    /// Appends `v`; a vertex past the room is dropped (only a polygon that rounding
    /// made non-convex can get there, and its first eight vertices still bound it).
    #[inline(always)]
    pub(crate) fn push(&mut self, v: ClipVertex) {
        if let Some(slot) = self.v.get_mut(self.len) {
            *slot = v;
            self.len += 1;
        }
    }

    pub(crate) fn as_slice(&self) -> &[ClipVertex] {
        &self.v[..self.len]
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Clips `input` to the half-space `sign·x[axis] ≤ d` (plane line id `line`): what
/// [`clip_polygon`] does with the plane normal `sign·e_axis`, the same vertices bit for
/// bit (`n·x` of a signed unit axis is `±x[axis]` exactly), without the dot products.
pub(crate) fn clip_axis(input: &Quad8, axis: usize, sign: f32, d: f32, line: u8, out: &mut Quad8) {
    out.len = 0;
    let dist = |p: Vec3| sign * p.to_array()[axis] - d;
    clip_with(input.as_slice(), dist, line, |v| out.push(v));
}

/// The point where the segment `from → to` (heights `df`, `dt` over a clip plane of
/// line id `line`) crosses the plane.
#[inline(always)]
fn cut(from: ClipVertex, to: ClipVertex, df: f32, dt: f32, line: u8) -> ClipVertex {
    let t = df / (df - dt);
    ClipVertex {
        p: from.p + (to.p - from.p) * t,
        lines: [shared(from.lines, to.lines), line],
    }
}

/// Keeps at most 4 candidates spanning the largest area (see the module notes).
pub(crate) fn reduce(c: &mut Candidates, normal: Vec3) {
    if c.len() <= 4 {
        return;
    }
    let pos = |k: usize| (c[k].pa + c[k].pb) * 0.5;
    let mut i0 = 0;
    for k in 1..c.len() {
        if c[k].sep < c[i0].sep - 1e-6 {
            i0 = k;
        }
    }
    let p0 = pos(i0);
    let mut i1 = i0;
    let mut best = -1.0;
    for k in 0..c.len() {
        let d = (pos(k) - p0).length_squared();
        if d > best + 1e-9 {
            best = d;
            i1 = k;
        }
    }
    let e = pos(i1) - p0;
    let (mut i2, mut i3) = (usize::MAX, usize::MAX);
    let (mut amax, mut amin) = (1e-9f32, -1e-9f32);
    for k in 0..c.len() {
        let a = e.cross(pos(k) - p0).dot(normal);
        if a > amax {
            amax = a;
            i2 = k;
        }
        if a < amin {
            amin = a;
            i3 = k;
        }
    }
    let mut keep: SmallVec<[usize; 4]> = SmallVec::new();
    for k in [i0, i1, i2, i3] {
        if k != usize::MAX && !keep.contains(&k) {
            keep.push(k);
        }
    }
    keep.sort_unstable();
    let kept: Candidates = keep.iter().map(|&k| c[k]).collect();
    *c = kept;
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// Clipping against a signed axis gives `clip_polygon`'s vertices with that
        /// axis as the normal, bit for bit, whatever the polygon (points, segments,
        /// triangles and quads, convex or not: at most eight vertices come out).
        #[test]
        fn clip_axis_is_clip_polygon_on_an_axis(
            pts in proptest::collection::vec((-2.0f32..2.0, -2.0f32..2.0, -2.0f32..2.0), 1..=4),
            axis in 0usize..3,
            negative in proptest::bool::ANY,
            d in -1.5f32..1.5,
        ) {
            let sign = if negative { -1.0 } else { 1.0 };
            let mut quad = Quad8::new();
            let mut poly = Poly::new();
            for (i, &(x, y, z)) in pts.iter().enumerate() {
                let v = ClipVertex { p: Vec3::new(x, y, z), lines: [i as u8, i as u8 + 1] };
                quad.push(v);
                poly.push(v);
            }
            let mut n = Vec3::ZERO;
            n[axis] = sign;
            let (mut a, mut b) = (Quad8::new(), Poly::new());
            clip_axis(&quad, axis, sign, d, PLANE_LINE, &mut a);
            clip_polygon(&poly, n, d, PLANE_LINE, &mut b);
            let bits = |v: &[ClipVertex]| -> Vec<([u32; 3], [u8; 2])> {
                v.iter().map(|c| (c.p.to_array().map(f32::to_bits), c.lines)).collect()
            };
            proptest::prop_assert_eq!(bits(a.as_slice()), bits(&b));
        }
    }

    #[test]
    fn square_clipped_by_rotated_square_gives_octagon() {
        let s = 0.5f32;
        let r = std::f32::consts::FRAC_1_SQRT_2;
        let mut poly: Poly = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
            .iter()
            .enumerate()
            .map(|(i, &(x, z))| ClipVertex {
                p: Vec3::new((x - z) * r * s, 0.0, (x + z) * r * s),
                lines: [((i + 3) % 4) as u8, i as u8],
            })
            .collect();
        let planes = [
            (Vec3::X, s),
            (Vec3::NEG_X, s),
            (Vec3::Z, s),
            (Vec3::NEG_Z, s),
        ];
        let mut out = Poly::new();
        for (k, (n, d)) in planes.iter().enumerate() {
            clip_polygon(&poly, *n, *d, PLANE_LINE + k as u8, &mut out);
            std::mem::swap(&mut poly, &mut out);
        }
        assert_eq!(poly.len(), 8);
        let mut codes: Vec<u32> = poly.iter().map(|v| lines_code(v.lines)).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), 8);
        let mut c: Candidates = poly
            .iter()
            .map(|v| Candidate {
                pa: v.p,
                pb: v.p,
                sep: 0.0,
                id: lines_code(v.lines),
            })
            .collect();
        reduce(&mut c, Vec3::Y);
        assert_eq!(c.len(), 4);
    }
}
