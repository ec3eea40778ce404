//! Four of a kind in SIMD lanes: the arithmetic of the packed solver (`wide.rs`) and its
//! row builder (`wide_build.rs`).
//!
//! [`V3`] is four `Vec3`s as `x`, `y`, `z` lanes (`glam::Vec4` each: SSE2 on x86-64,
//! NEON on aarch64, plain `f32` elsewhere); [`M3`] is four `Mat3`s as three `V3`
//! columns. Every operation does, lane by lane, exactly the `f32` operations of glam's
//! `Vec3` / `Mat3` method of the same name, in the same order — `dot` is
//! `(x·x + y·y) + z·z`, `cross` is glam's, `M3 * V3` is `c₀·v.x + c₁·v.y + c₂·v.z` —
//! so a lane computes the very bits the scalar code computes (no fused multiply-add:
//! IEEE `f32` operations round the same in a lane as in a scalar register). That is
//! what lets the packed builder and solver reproduce the scalar ones bit for bit
//! (`tests/pinned_state.rs`).

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

use glam::{BVec4A, Mat3, Vec3, Vec4};

use crate::solver_body::Velocity;

/// `r`, as a pointer the compiler cannot see through. The sweeps read a row's blocks
/// twice — for `J·dV`, then for the impulse `T·δ` — and load them from the row both
/// times: kept in registers from the first load, the blocks would not fit beside the
/// bodies' twelve velocity registers and go to the stack (a store more per field;
/// `docs/performance-log.md`, *Blocks read twice, rows stored as made*). The loads after
/// `fresh` cannot be merged with the ones before it. Values and bits are unchanged.
#[inline(always)]
pub(crate) fn fresh<T>(r: &T) -> &T {
    std::hint::black_box(r)
}

/// Four `Vec3`s, one per lane, as `x`, `y`, `z` lanes (48 bytes).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct V3 {
    pub x: Vec4,
    pub y: Vec4,
    pub z: Vec4,
}

impl V3 {
    /// `glam::Vec3::dot` in each lane.
    #[inline(always)]
    pub fn dot(self, o: V3) -> Vec4 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }

    /// `glam::Vec3::cross` in each lane.
    #[inline(always)]
    pub fn cross(self, o: V3) -> V3 {
        V3 {
            x: self.y * o.z - o.y * self.z,
            y: self.z * o.x - o.z * self.x,
            z: self.x * o.y - o.x * self.y,
        }
    }

    /// `glam::Vec3::normalize` in each lane: `v · (1 / √(v·v))`.
    #[inline(always)]
    pub fn normalize(self) -> V3 {
        self * (Vec4::ONE / self.dot(self).sqrt())
    }

    /// Lane `l` set to `v`.
    #[inline(always)]
    pub fn set(&mut self, l: usize, v: Vec3) {
        self.x[l] = v.x;
        self.y[l] = v.y;
        self.z[l] = v.z;
    }

    /// Lane `l`.
    #[inline(always)]
    pub fn lane(&self, l: usize) -> Vec3 {
        Vec3::new(self.x[l], self.y[l], self.z[l])
    }

    /// `if_true` in the lanes where `mask` is set, `if_false` elsewhere.
    #[inline(always)]
    pub fn select(mask: BVec4A, if_true: V3, if_false: V3) -> V3 {
        V3 {
            x: Vec4::select(mask, if_true.x, if_false.x),
            y: Vec4::select(mask, if_true.y, if_false.y),
            z: Vec4::select(mask, if_true.z, if_false.z),
        }
    }

    /// Zero in the lanes where `mask` is set.
    #[inline(always)]
    pub fn zero_where(self, mask: BVec4A) -> V3 {
        V3::select(mask, V3::default(), self)
    }
}

impl Add for V3 {
    type Output = V3;
    #[inline(always)]
    fn add(self, o: V3) -> V3 {
        V3 {
            x: self.x + o.x,
            y: self.y + o.y,
            z: self.z + o.z,
        }
    }
}

impl Sub for V3 {
    type Output = V3;
    #[inline(always)]
    fn sub(self, o: V3) -> V3 {
        V3 {
            x: self.x - o.x,
            y: self.y - o.y,
            z: self.z - o.z,
        }
    }
}

impl Neg for V3 {
    type Output = V3;
    #[inline(always)]
    fn neg(self) -> V3 {
        V3 {
            x: -self.x,
            y: -self.y,
            z: -self.z,
        }
    }
}

impl Mul<Vec4> for V3 {
    type Output = V3;
    #[inline(always)]
    fn mul(self, s: Vec4) -> V3 {
        V3 {
            x: self.x * s,
            y: self.y * s,
            z: self.z * s,
        }
    }
}

impl AddAssign for V3 {
    #[inline(always)]
    fn add_assign(&mut self, o: V3) {
        *self = *self + o;
    }
}

impl SubAssign for V3 {
    #[inline(always)]
    fn sub_assign(&mut self, o: V3) {
        *self = *self - o;
    }
}

/// Four `Mat3`s, one per lane, as three [`V3`] columns (144 bytes).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct M3 {
    pub cols: [V3; 3],
}

impl M3 {
    /// Lane `l` set to `m`.
    #[inline(always)]
    pub fn set(&mut self, l: usize, m: &Mat3) {
        self.cols[0].set(l, m.x_axis);
        self.cols[1].set(l, m.y_axis);
        self.cols[2].set(l, m.z_axis);
    }
}

impl Mul<V3> for M3 {
    type Output = V3;
    /// `glam::Mat3::mul_vec3` in each lane.
    #[inline(always)]
    fn mul(self, v: V3) -> V3 {
        let [c0, c1, c2] = self.cols;
        c0 * v.x + c1 * v.y + c2 * v.z
    }
}

/// The columns of the rows `r`: `out[j]` holds `r[0][j], r[1][j], r[2][j], r[3][j]` (a
/// 4 × 4 transpose: eight shuffles on x86-64). Moves values, so the bits stay.
#[inline(always)]
#[allow(unsafe_code)]
pub(crate) fn transpose(r: [Vec4; 4]) -> [Vec4; 4] {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            __m128, _mm_movehl_ps, _mm_movelh_ps, _mm_unpackhi_ps, _mm_unpacklo_ps,
        };
        let [a, b, c, d] = r.map(__m128::from);
        // SAFETY: SSE is part of x86-64's baseline, so the CPU has it.
        unsafe {
            let (t0, t1) = (_mm_unpacklo_ps(a, b), _mm_unpacklo_ps(c, d));
            let (t2, t3) = (_mm_unpackhi_ps(a, b), _mm_unpackhi_ps(c, d));
            [
                _mm_movelh_ps(t0, t1),
                _mm_movehl_ps(t1, t0),
                _mm_movelh_ps(t2, t3),
                _mm_movehl_ps(t3, t2),
            ]
        }
        .map(Vec4::from)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        std::array::from_fn(|j| Vec4::new(r[0][j], r[1][j], r[2][j], r[3][j]))
    }
}

/// `*v = (lin: head.xyz, ang: (head.w, tail.x, tail.y))`, written as one 16-byte and
/// one 8-byte store: the pieces the sweeps' gathers load (`wide::gather`). Left to the
/// compiler, some of these writes became two 4-byte stores for `ang.y`, `ang.z`, and the
/// next group's 8-byte load of that body could not be forwarded from them: it waited
/// for both stores to reach the cache, at the head of that group's chain of updates
/// (`docs/performance-log.md`, *Velocities stored as they are loaded*). Moves values, so the
/// bits stay.
#[inline(always)]
#[allow(unsafe_code)]
pub(crate) fn store_velocity(v: &mut Velocity, head: Vec4, tail: Vec4) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{__m128, _mm_castps_pd, _mm_storel_pd, _mm_storeu_ps};
        let p: *mut f32 = (v as *mut Velocity).cast();
        // SAFETY: `Velocity` is `repr(C)`, six `f32`s (`lin` then `ang`, 24 bytes, no
        // padding), so the 16 bytes at `p` and the 8 at `p + 4` lie within `*v`, which
        // we hold mutably; unaligned stores; SSE2 is part of x86-64's baseline.
        unsafe {
            _mm_storeu_ps(p, __m128::from(head));
            _mm_storel_pd(p.add(4).cast(), _mm_castps_pd(__m128::from(tail)));
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        *v = Velocity {
            lin: head.truncate(),
            ang: Vec3::new(head.w, tail.x, tail.y),
        };
    }
}

/// `f32::clamp` in each lane (a lane at `−0.0` stays `−0.0`, as in the scalar code,
/// where `Vec4::clamp` would give `+0.0`).
#[inline(always)]
pub(crate) fn clamp(v: Vec4, lo: Vec4, hi: Vec4) -> Vec4 {
    Vec4::select(v.cmplt(lo), lo, Vec4::select(v.cmpgt(hi), hi, v))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lanes(v: [Vec3; 4]) -> V3 {
        let mut out = V3::default();
        for (l, v) in v.into_iter().enumerate() {
            out.set(l, v);
        }
        out
    }

    fn bits(v: Vec3) -> [u32; 3] {
        v.to_array().map(f32::to_bits)
    }

    #[test]
    fn lanes_compute_the_scalar_bits() {
        let a = [
            Vec3::new(0.1, -0.7, 2.3),
            Vec3::new(1e-3, 5.0, -0.3),
            Vec3::new(-4.1, 0.2, 0.9),
            Vec3::new(0.33, 0.66, -0.99),
        ];
        let b = [
            Vec3::new(-1.3, 0.7, 0.01),
            Vec3::new(2.0, -0.5, 0.25),
            Vec3::new(0.7, 0.7, -0.1),
            Vec3::new(-0.2, 3.1, 1.7),
        ];
        let m: [Mat3; 4] = std::array::from_fn(|l| {
            Mat3::from_quat(glam::Quat::from_rotation_arc(Vec3::Y, b[l].normalize()))
                * Mat3::from_diagonal(Vec3::new(6.0, 3.0, 1.5 + l as f32))
        });
        let (va, vb) = (lanes(a), lanes(b));
        let mut vm = M3::default();
        for (l, m) in m.iter().enumerate() {
            vm.set(l, m);
        }
        let (dot, cross, norm, prod) = (va.dot(vb), va.cross(vb), va.normalize(), vm * va);
        for l in 0..4 {
            assert_eq!(dot[l].to_bits(), a[l].dot(b[l]).to_bits());
            assert_eq!(bits(cross.lane(l)), bits(a[l].cross(b[l])));
            assert_eq!(bits(norm.lane(l)), bits(a[l].normalize()));
            assert_eq!(bits(prod.lane(l)), bits(m[l] * a[l]));
        }
        let rows =
            [0, 1, 2, 3].map(|i| Vec4::from_array(std::array::from_fn(|j| (4 * i + j) as f32)));
        let cols = transpose(rows);
        for (i, row) in rows.iter().enumerate() {
            for (j, col) in cols.iter().enumerate() {
                assert_eq!(col[i], row[j]);
            }
        }
        let v = Vec4::new(-0.0, -2.0, 0.5, 9.0);
        let c = clamp(v, Vec4::ZERO, Vec4::splat(1.0));
        for l in 0..4 {
            assert_eq!(c[l].to_bits(), v[l].clamp(0.0, 1.0).to_bits());
        }
    }
}
