//! Two groups of a level in one sweep kernel, eight lanes wide (x86-64 with AVX).
//!
//! The packed sweep (`wide.rs`) is bound by how many instructions it issues, not by
//! memory or by its dependency chains: a wide point (three rows in four lanes) was
//! about 280 instructions, and neither interleaving two groups nor smaller rows made it
//! faster. With AVX a register holds eight `f32`s, so two groups of the same level —
//! which share no movable body, so their order does not matter — run side by side, group
//! one in lanes 0–3 and group two in lanes 4–7: the same rows, read from their own
//! wide points, with half the arithmetic and velocity-state instructions. (With the
//! manifold's linear velocity carried in its own basis, `pgs::solve_manifold`, the
//! kernel's loop is about 150 instructions a pair of wide points.)
//!
//! Every lane computes exactly the `f32` operations of `wide::solve_group` in the same
//! order (`(x·x + y·y) + z·z` dot products, `max` and `min` with the same operand order,
//! negation as a sign flip), and AVX rounds as SSE does, so a pair gives the single
//! kernel's bits (`tests::pairs_give_the_single_kernels_bits` in `wide.rs`). Pairs are
//! taken only for groups of isotropic bodies (their `T_ang = J_ang·c` made in the
//! kernel, no `WideT` blocks), in Gauss-Seidel sweeps (ω = 1) on one thread;
//! [`PairKernel::detect`] picks the kernel the CPU runs.
//!
//! The two groups share their rows' slots (`wide::WideSlot`, one group in each half of
//! every field), so each field of the eight lanes is one 32-byte load: joining two
//! 16-byte halves from two wide points cost 27 extra instructions a pair of wide points
//! and the registers that held them (a sixth of the kernel's time on the Zen 3 host).
//! The bodies' `dV` come in the same way: each lane's two bodies (one per group) are
//! loaded side by side and one 8-lane transpose makes both groups' lanes
//! (`gather8!`, `scatter8!`), 4.6 % fewer instructions in the kernel than a transpose
//! per group and a join.
//!
//! The two groups may have different numbers of wide points (a *ragged* pair): over
//! the longer one's last points the shorter one's lanes run on whatever its half of
//! those slots holds, and its velocity state is put back afterwards with a blend, so
//! its bits are its own kernel's. A lone group costs about twice a paired one per point
//! (its four-lane loop, and gathers for half the lanes); before ragged pairs
//! `pile_1000`, whose manifolds have one to four points, ran 182 of its 590 groups
//! alone, now 10.
//!
//! The row build takes two groups at a time the same way ([`PairKernel::build`]): a
//! pair of the same length, its rows made lane by lane with `wide_build::build_group`'s
//! operations and each field of both halves stored at once, each point's warm impulses
//! added as soon as its rows are stored (a pair's rows cost about 0.74 of two groups
//! built one at a time, before the warm impulses joined them).
//!
//! The substep refresh of such a pair runs as one kernel as well ([`PairKernel::refresh`]).
//!
//! A sweep without friction rows (`Settings::friction_stride`) is the other way round:
//! a point's normal row alone is a short computation on a long chain (the bodies'
//! angular `dV` → `J̃·dV` → clamp → impulse → the next point), so there two pair units
//! that share no movable body — consecutive in the sweep order, both even and as long
//! as each other — run side by side, point `k` of one then point `k` of the other
//! ([`PairKernel::solve_couple`]): two chains to overlap, each unit's operations its
//! own kernel's, so the same bits (`tests::units_side_by_side_give_the_single_units_bits`
//! in `wide.rs`). In a sweep with friction rows two units side by side were slower (their
//! state does not fit the registers; `docs/performance-log.md`).
//!
//! [`PairKernel::run`] compiles other passes (the serial sweep around the pairs, the
//! builds and refreshes of the other groups) for the same instruction set: the same
//! operations with three-operand encodings and, with AVX-512, 32 registers.
//!
//! The kernel is an `unsafe fn` because it is compiled for AVX (`#[target_feature]`):
//! calling it on a CPU without AVX would be undefined, so its callers
//! ([`PairKernel::solve`] and its kin) run it only where [`PairKernel::detect`] found
//! the features. And it reads and writes the sixteen bodies' `dV` of a unit through
//! `kernel::Entries`, which checks every body index of the unit's groups against the
//! entries' count once, before the call, instead of once an index: the sixteen
//! checks, each index kept in a register or on the stack for the scatter beside them,
//! were 1–2 % of the pyramids' sweeps and 4–5 % of the heap's, whose units hold fewer
//! points (`World::sweep_again`, the fastest of six runs of each build in turns). A
//! unit whose indices do not check runs the four-lane kernels instead. Everything
//! else inside is safe code on values.

#![allow(unsafe_code)]

use crate::jacobian::{BuildParams, PointInput};
use crate::solver_body::{SolverBodies, Velocity};
use crate::wide::{GaussSeidel, Group, Velocities, WideSide, WideSlot, solve_group};

/// The eight-lane kernel this CPU runs, if any: found by [`PairKernel::detect`], the
/// only way to make one that runs, so [`PairKernel::solve`] is safe to call.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct PairKernel(Isa);

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Isa {
    /// No pairs: one group at a time.
    #[default]
    None,
    /// AVX: 16 registers of eight lanes.
    #[cfg(target_arch = "x86_64")]
    Avx,
    /// AVX-512 (VL): the same eight-lane code with 32 registers, which saves most of
    /// the velocity state's spills.
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

impl PairKernel {
    /// The best kernel this CPU runs.
    pub(crate) fn detect() -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx512vl") {
                return PairKernel(Isa::Avx512);
            }
            if std::is_x86_feature_detected!("avx") {
                return PairKernel(Isa::Avx);
            }
        }
        PairKernel(Isa::None)
    }

    /// Every kernel this CPU runs (for the tests that compare them).
    #[cfg(test)]
    pub(crate) fn available() -> Vec<Self> {
        #[cfg(target_arch = "x86_64")]
        {
            let mut out = Vec::new();
            if std::is_x86_feature_detected!("avx512vl") {
                out.push(PairKernel(Isa::Avx512));
            }
            if std::is_x86_feature_detected!("avx") {
                out.push(PairKernel(Isa::Avx));
            }
            out
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            Vec::new()
        }
    }

    /// No pair kernel.
    #[cfg(test)]
    pub(crate) fn none() -> Self {
        PairKernel(Isa::None)
    }

    /// Whether pairs run as one kernel.
    pub(crate) fn pairs(self) -> bool {
        self.0 != Isa::None
    }

    /// `f()`, compiled for this kernel's instruction set: the code `f` inlines (the
    /// four-lane kernels, the row build) takes the three-operand encodings and, with
    /// AVX-512, 32 registers, so fewer copies and spills — the same `f32` operations in
    /// the same order (Rust never fuses a multiply and an add), so the same bits.
    #[inline(always)]
    pub(crate) fn run<R>(self, f: impl FnOnce() -> R) -> R {
        match self.0 {
            // SAFETY: `detect` found the features on this CPU.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => unsafe { kernel::with_avx512(f) },
            // SAFETY: as above.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx => unsafe { kernel::with_avx(f) },
            Isa::None => f(),
        }
    }

    /// One Gauss-Seidel sweep of two groups that may run side by side (no movable body
    /// in common) and share `slots` (`g[0]` in half 0, `g[1]` in half 1; as many as the
    /// longer group has wide points): `wide::solve_group` for each, with the same bits
    /// (without `friction`, the normal rows only: `pgs::friction_sweep`). With `measure`
    /// (and `friction`) it returns the largest change of a row's velocity,
    /// `|Δλ|·(1/m_a + 1/m_b)` (`wide::solve_group`), and 0 otherwise.
    #[inline(always)]
    pub(crate) fn solve<V: Velocities + ?Sized>(
        self,
        g: [&Group; 2],
        slots: &mut [WideSlot],
        dv: &mut V,
        back: bool,
        (friction, measure): (bool, bool),
    ) -> f32 {
        debug_assert_eq!((g[0].half(), g[1].half()), (0, 1));
        debug_assert_eq!(g[0].slots().start, g[1].slots().start);
        debug_assert_eq!(slots.len(), g[0].slots().len().max(g[1].slots().len()));
        #[cfg(target_arch = "x86_64")]
        if self.pairs()
            && let Some(e) = Entries::of(dv, &g)
        {
            return match (self.0, friction, measure) {
                // SAFETY: `detect` found the kernel's features on this CPU, and `e`
                // checked the groups' body indices.
                (Isa::Avx512, true, true) => unsafe {
                    solve_pair_avx512::<true, true>(g, slots, e, back)
                },
                // SAFETY: as above.
                (Isa::Avx512, true, false) => unsafe {
                    solve_pair_avx512::<true, false>(g, slots, e, back)
                },
                // SAFETY: as above.
                (Isa::Avx512, false, _) => unsafe {
                    solve_pair_avx512::<false, false>(g, slots, e, back)
                },
                // SAFETY: as above.
                (Isa::Avx, true, true) => unsafe {
                    solve_pair_avx::<true, true>(g, slots, e, back)
                },
                // SAFETY: as above.
                (Isa::Avx, true, false) => unsafe {
                    solve_pair_avx::<true, false>(g, slots, e, back)
                },
                // SAFETY: as above.
                (Isa::Avx, false, _) => unsafe {
                    solve_pair_avx::<false, false>(g, slots, e, back)
                },
                (Isa::None, ..) => 0.0,
            };
        }
        let (c0, c1) = (g[0].slots().len(), g[1].slots().len());
        let w = GaussSeidel;
        let pass = (friction, measure);
        let a = solve_group(g[0], &mut slots[..c0], &[], dv, w, back, pass);
        let b = solve_group(g[1], &mut slots[..c1], &[], dv, w, back, pass);
        crate::wide::most(a, b)
    }

    /// Two pair units (each as [`solve`](Self::solve) takes them) that share no movable
    /// body, in a forward sweep without friction rows, side by side: the two units'
    /// dependency chains overlap, and each unit's operations are its own `solve`'s, in
    /// the same order, so the bits are the same. Each unit's groups have as many wide
    /// points, and both units as many.
    #[inline(always)]
    pub(crate) fn solve_couple<V: Velocities + ?Sized>(
        self,
        units: [[&Group; 2]; 2],
        slots: [&mut [WideSlot]; 2],
        dv: &mut V,
    ) {
        debug_assert!(
            units
                .iter()
                .all(|g| g[0].slots().len() == g[1].slots().len())
        );
        debug_assert_eq!(slots[0].len(), slots[1].len());
        #[cfg(target_arch = "x86_64")]
        {
            let groups = [units[0][0], units[0][1], units[1][0], units[1][1]];
            if self.pairs()
                && let Some(e) = Entries::of(dv, &groups)
            {
                match self.0 {
                    // SAFETY: `detect` found the kernel's features on this CPU, and `e`
                    // checked the units' body indices.
                    Isa::Avx512 => unsafe { solve_couple_avx512(units, slots, e) },
                    // SAFETY: as above.
                    Isa::Avx => unsafe { solve_couple_avx(units, slots, e) },
                    Isa::None => {}
                }
                return;
            }
        }
        let [s0, s1] = slots;
        self.solve(units[0], s0, dv, false, (false, false));
        self.solve(units[1], s1, dv, false, (false, false));
    }

    /// The solve-substep refresh of two groups that share their `slots` (`g[0]` in half
    /// 0, `g[1]` in half 1) and have as many wide points each, with their `side` data:
    /// `wide::refresh_group` of each, with the same bits, eight lanes at a time
    /// (`moved`: the motion and whether the separations advance by it).
    /// Returns false, refreshing nothing, where the CPU has no eight-lane kernel.
    pub(crate) fn refresh(
        self,
        g: [&Group; 2],
        slots: &mut [WideSlot],
        side: [&mut [WideSide]; 2],
        moved: Option<(&[Velocity], bool)>,
        h: f32,
        params: &BuildParams,
    ) -> bool {
        debug_assert_eq!((g[0].half(), g[1].half()), (0, 1));
        debug_assert_eq!(g[0].slots(), g[1].slots());
        debug_assert!(slots.len() == side[0].len() && slots.len() == side[1].len());
        match self.0 {
            // SAFETY: `detect` found the kernel's features on this CPU.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => unsafe {
                match moved {
                    Some((m, a)) => refresh_pair_avx512::<false>(g, slots, side, m, h, params, a),
                    None => refresh_pair_avx512::<true>(g, slots, side, &[], h, params, true),
                }
            },
            // SAFETY: as above.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx => unsafe {
                match moved {
                    Some((m, a)) => refresh_pair_avx::<false>(g, slots, side, m, h, params, a),
                    None => refresh_pair_avx::<true>(g, slots, side, &[], h, params, true),
                }
            },
            Isa::None => {
                // Nothing to refresh with (and, off x86-64, nothing that reads these).
                let _ = (g, slots, side, moved, h, params);
                return false;
            }
        }
        true
    }

    /// The rows of two groups of isotropic bodies that share their `slots` (`g[0]` in
    /// half 0, `g[1]` in half 1) and have as many wide points each, with their `side`
    /// data and `lanes`, after `wide_build::prepare_group` of each:
    /// `wide_build::build_group` of each, with the same bits, eight lanes at a time.
    /// Each point's warm impulses go into `dv` right after its rows, as
    /// `wide::warm_group` of each group would add them. Returns false, building
    /// nothing, where the CPU has no eight-lane kernel.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn build<V: Velocities + ?Sized>(
        self,
        g: [&Group; 2],
        slots: &mut [WideSlot],
        side: [&mut [WideSide]; 2],
        lanes: [&[[u32; 4]]; 2],
        inputs: &[PointInput],
        bodies: &SolverBodies,
        params: &BuildParams,
        dv: &mut V,
    ) -> bool {
        debug_assert_eq!((g[0].half(), g[1].half()), (0, 1));
        debug_assert_eq!(g[0].slots(), g[1].slots());
        debug_assert!(!g[0].t_blocks() && !g[1].t_blocks());
        debug_assert!(slots.len() == side[0].len() && slots.len() == side[1].len());
        #[cfg(target_arch = "x86_64")]
        if self.pairs()
            && let Some(e) = Entries::of(dv, &g)
        {
            match self.0 {
                // SAFETY: `detect` found the kernel's features on this CPU, and `e`
                // checked the groups' body indices.
                Isa::Avx512 => unsafe {
                    build_pair_avx512(g, slots, side, lanes, inputs, bodies, params, e);
                },
                // SAFETY: as above.
                Isa::Avx => unsafe {
                    build_pair_avx(g, slots, side, lanes, inputs, bodies, params, e);
                },
                Isa::None => return false,
            }
            return true;
        }
        // Nothing to build with (and, off x86-64, nothing that reads these).
        let _ = (g, slots, side, lanes, inputs, bodies, params, dv);
        false
    }
}

#[cfg(target_arch = "x86_64")]
use kernel::{
    Entries, build_pair_avx, build_pair_avx512, refresh_pair_avx, refresh_pair_avx512,
    solve_couple_avx, solve_couple_avx512, solve_pair_avx, solve_pair_avx512,
};

/// The eight-lane types and the kernel (x86-64).
#[cfg(target_arch = "x86_64")]
mod kernel {
    use std::arch::x86_64::{
        __m128, __m256, _CMP_GT_OQ, _CMP_LT_OQ, _mm256_add_ps, _mm256_and_ps, _mm256_andnot_ps,
        _mm256_blendv_ps, _mm256_castps256_ps128, _mm256_cmp_ps, _mm256_div_ps,
        _mm256_extractf128_ps, _mm256_loadu_ps, _mm256_max_ps, _mm256_min_ps, _mm256_mul_ps,
        _mm256_set_m128, _mm256_set1_ps, _mm256_setzero_ps, _mm256_shuffle_ps, _mm256_storeu_ps,
        _mm256_sub_ps, _mm256_unpackhi_ps, _mm256_unpacklo_ps, _mm256_xor_ps,
    };

    use glam::{BVec4A, Vec4};

    use crate::jacobian::{BuildParams, PointInput};
    use crate::lanes::{V3, fresh};
    use crate::solver_body::{SolverBodies, Velocity};
    use crate::wide::{Group, SlotRow, Velocities, WideSide, WideSlot};
    use crate::wide_build::{GroupBodies, PointLanes};

    /// A byte on a cache line of its own, kept on the stack of each kernel
    /// ([`align_frame`]).
    #[repr(align(64))]
    struct Line(#[allow(dead_code)] u8);

    /// Makes the calling kernel's stack frame start on a cache line: its spilled
    /// eight-lane values then never straddle two lines, wherever the caller's stack
    /// happens to end. (Without it, a kernel's speed depended on its callers' frame
    /// sizes: a change elsewhere in the step moved `build_pair_avx512`'s spills across
    /// line boundaries, and one reload of its stack cost a quarter of its time.)
    #[inline(always)]
    fn align_frame() {
        let mut line = Line(0);
        std::hint::black_box(&mut line);
    }

    /// The `dV` entries of one call of a kernel, once every body index of its groups is
    /// checked against their count ([`Entries::of`]): the kernel reads and writes a
    /// body's entry at its index without a check of its own (the module docs: what the
    /// sixteen checks a unit cost).
    #[derive(Clone, Copy)]
    pub(crate) struct Entries<'a> {
        base: *mut Velocity,
        dv: std::marker::PhantomData<&'a mut [Velocity]>,
    }

    impl<'a> Entries<'a> {
        /// `dv`'s entries for the groups `g`, where each of their lanes' body indices
        /// lies below `dv`'s count (`None` otherwise).
        #[inline(always)]
        pub(crate) fn of<V: Velocities + ?Sized>(dv: &'a mut V, g: &[&Group]) -> Option<Self> {
            let (base, len) = dv.base_and_len();
            let last4 = |x: [u32; 4]| x[0].max(x[1]).max(x[2].max(x[3]));
            let last = g.iter().fold(0, |m, g| m.max(last4(g.a)).max(last4(g.b)));
            ((last as usize) < len).then_some(Entries {
                base,
                dv: std::marker::PhantomData,
            })
        }

        /// Entry `i`.
        ///
        /// # Safety
        ///
        /// `i` is a body index of the groups [`of`](Self::of) checked.
        #[inline(always)]
        unsafe fn get(self, i: u32) -> Velocity {
            // SAFETY: below the count (the caller's contract). The entries are the
            // caller's alone, or, on the sweep's threads, the unit's bodies' are its own
            // while it runs (`parallel.rs`, `SharedVelocities`).
            unsafe { self.base.add(i as usize).read() }
        }

        /// Overwrite entry `i`, as [`Velocities::set_parts`] does.
        ///
        /// # Safety
        ///
        /// As [`get`](Self::get).
        #[inline(always)]
        unsafe fn set_parts(self, i: u32, head: Vec4, tail: Vec4) {
            // SAFETY: as in `get`.
            crate::lanes::store_velocity(unsafe { &mut *self.base.add(i as usize) }, head, tail);
        }
    }

    /// `self ∘ o` in every lane, one intrinsic per method.
    macro_rules! lane_ops {
        ($($(#[$doc:meta])* $name:ident => $op:ident,)*) => {
            $(
                $(#[$doc])*
                #[target_feature(enable = "avx")]
                #[inline]
                fn $name(self, o: F8) -> F8 {
                    F8($op(self.0, o.0))
                }
            )*
        };
    }

    /// Eight lanes: the first group's four, then the second's.
    #[derive(Clone, Copy)]
    struct F8(__m256);

    impl F8 {
        #[target_feature(enable = "avx")]
        #[inline]
        fn join(lo: Vec4, hi: Vec4) -> F8 {
            F8(_mm256_set_m128(hi.into(), lo.into()))
        }

        /// Both halves of a slot's field: one 32-byte load.
        #[target_feature(enable = "avx")]
        #[inline]
        fn load(p: &[Vec4; 2]) -> F8 {
            // SAFETY: `p` is 32 readable bytes (two `Vec4`s), and `loadu` needs no
            // alignment.
            F8(unsafe { _mm256_loadu_ps(p.as_ptr().cast()) })
        }

        /// Into both halves of a slot's field.
        #[target_feature(enable = "avx")]
        #[inline]
        fn store(self, p: &mut [Vec4; 2]) {
            // SAFETY: `p` is 32 writable bytes, and `storeu` needs no alignment.
            unsafe { _mm256_storeu_ps(p.as_mut_ptr().cast(), self.0) }
        }

        #[target_feature(enable = "avx")]
        #[inline]
        fn lo(self) -> Vec4 {
            _mm256_castps256_ps128(self.0).into()
        }

        #[target_feature(enable = "avx")]
        #[inline]
        fn hi(self) -> Vec4 {
            _mm256_extractf128_ps::<1>(self.0).into()
        }

        #[target_feature(enable = "avx")]
        #[inline]
        fn splat(v: f32) -> F8 {
            F8(_mm256_set1_ps(v))
        }

        lane_ops! {
            add => _mm256_add_ps,
            sub => _mm256_sub_ps,
            mul => _mm256_mul_ps,
            /// `Vec4::max` (`maxps self, o`).
            max => _mm256_max_ps,
            /// `Vec4::min` (`minps self, o`).
            min => _mm256_min_ps,
            div => _mm256_div_ps,
            /// A mask's `&` (`BVec4A`'s).
            and => _mm256_and_ps,
        }

        /// `Vec4::abs`: the sign bit cleared.
        #[target_feature(enable = "avx")]
        #[inline]
        fn abs(self) -> F8 {
            F8(_mm256_andnot_ps(_mm256_set1_ps(-0.0), self.0))
        }

        /// Both halves' masks (`BVec4A`: every bit of a lane set or clear).
        #[target_feature(enable = "avx")]
        #[inline]
        fn mask(lo: BVec4A, hi: BVec4A) -> F8 {
            F8(_mm256_set_m128(__m128::from(hi), __m128::from(lo)))
        }

        /// `Vec4::cmpgt`: every bit set where `self > o`.
        #[target_feature(enable = "avx")]
        #[inline]
        fn gt(self, o: F8) -> F8 {
            F8(_mm256_cmp_ps::<_CMP_GT_OQ>(self.0, o.0))
        }

        /// `Vec4::cmplt`: every bit set where `self < o`.
        #[target_feature(enable = "avx")]
        #[inline]
        fn lt(self, o: F8) -> F8 {
            F8(_mm256_cmp_ps::<_CMP_LT_OQ>(self.0, o.0))
        }

        #[target_feature(enable = "avx")]
        #[inline]
        fn zero() -> F8 {
            F8(_mm256_setzero_ps())
        }

        /// `self` in the lanes where `mask`'s sign bit is set, `other` elsewhere.
        #[target_feature(enable = "avx")]
        #[inline]
        fn select(self, mask: F8, other: F8) -> F8 {
            F8(_mm256_blendv_ps(other.0, self.0, mask.0))
        }

        /// `-self` as glam negates: a sign flip.
        #[target_feature(enable = "avx")]
        #[inline]
        fn neg(self) -> F8 {
            F8(_mm256_xor_ps(_mm256_set1_ps(-0.0), self.0))
        }
    }

    /// Eight `Vec3`s as `x`, `y`, `z` lanes.
    #[derive(Clone, Copy)]
    struct V8 {
        x: F8,
        y: F8,
        z: F8,
    }

    impl V8 {
        #[target_feature(enable = "avx")]
        #[inline]
        fn join(lo: &V3, hi: &V3) -> V8 {
            V8 {
                x: F8::join(lo.x, hi.x),
                y: F8::join(lo.y, hi.y),
                z: F8::join(lo.z, hi.z),
            }
        }

        /// `self` in the lanes where `mask`'s sign bit is set, `other` elsewhere.
        #[target_feature(enable = "avx")]
        #[inline]
        fn select(self, mask: F8, other: V8) -> V8 {
            V8 {
                x: self.x.select(mask, other.x),
                y: self.y.select(mask, other.y),
                z: self.z.select(mask, other.z),
            }
        }

        /// `V3::dot`: `(x·x + y·y) + z·z`.
        #[target_feature(enable = "avx")]
        #[inline]
        fn dot(self, o: V8) -> F8 {
            self.x.mul(o.x).add(self.y.mul(o.y)).add(self.z.mul(o.z))
        }

        #[target_feature(enable = "avx")]
        #[inline]
        fn add(self, o: V8) -> V8 {
            V8 {
                x: self.x.add(o.x),
                y: self.y.add(o.y),
                z: self.z.add(o.z),
            }
        }

        #[target_feature(enable = "avx")]
        #[inline]
        fn sub(self, o: V8) -> V8 {
            V8 {
                x: self.x.sub(o.x),
                y: self.y.sub(o.y),
                z: self.z.sub(o.z),
            }
        }

        #[target_feature(enable = "avx")]
        #[inline]
        fn scale(self, s: F8) -> V8 {
            V8 {
                x: self.x.mul(s),
                y: self.y.mul(s),
                z: self.z.mul(s),
            }
        }

        /// `V3::cross`, term for term.
        #[target_feature(enable = "avx")]
        #[inline]
        fn cross(self, o: V8) -> V8 {
            V8 {
                x: self.y.mul(o.z).sub(o.y.mul(self.z)),
                y: self.z.mul(o.x).sub(o.z.mul(self.x)),
                z: self.x.mul(o.y).sub(o.x.mul(self.y)),
            }
        }

        /// `-self` as glam negates, component by component.
        #[target_feature(enable = "avx")]
        #[inline]
        fn neg(self) -> V8 {
            V8 {
                x: self.x.neg(),
                y: self.y.neg(),
                z: self.z.neg(),
            }
        }

        /// Both halves of a slot's vector field: a 32-byte load a component.
        #[target_feature(enable = "avx")]
        #[inline]
        fn load(p: &[[Vec4; 2]; 3]) -> V8 {
            V8 {
                x: F8::load(&p[0]),
                y: F8::load(&p[1]),
                z: F8::load(&p[2]),
            }
        }

        /// Into both halves of a slot's vector field.
        #[target_feature(enable = "avx")]
        #[inline]
        fn store(self, p: &mut [[Vec4; 2]; 3]) {
            self.x.store(&mut p[0]);
            self.y.store(&mut p[1]);
            self.z.store(&mut p[2]);
        }
    }

    /// Two groups' `(Δv, Δω)` of bodies a or b.
    #[derive(Clone, Copy)]
    struct Vel8 {
        lin: V8,
        ang: V8,
    }

    /// The 4 × 4 transpose of `lanes::transpose` in each 128-bit half: `out[j]` holds
    /// column `j` of the rows `r`, the first group's in the low half, the second's in
    /// the high half. Moves values, so the bits stay.
    #[target_feature(enable = "avx")]
    #[inline]
    fn transpose8(r: [F8; 4]) -> [F8; 4] {
        let [a, b, c, d] = r.map(|v| v.0);
        let (t0, t1) = (_mm256_unpacklo_ps(a, b), _mm256_unpacklo_ps(c, d));
        let (t2, t3) = (_mm256_unpackhi_ps(a, b), _mm256_unpackhi_ps(c, d));
        [
            F8(_mm256_shuffle_ps::<0x44>(t0, t1)),
            F8(_mm256_shuffle_ps::<0xEE>(t0, t1)),
            F8(_mm256_shuffle_ps::<0x44>(t2, t3)),
            F8(_mm256_shuffle_ps::<0xEE>(t2, t3)),
        ]
    }

    /// `Vel8::join(&gather(dv, i0), &gather(dv, i1))` in one pass: each lane pair's two
    /// bodies loaded side by side (the pieces `wide::gather` loads), then one transpose
    /// for both groups instead of one each and a join. (A macro, not a function: as a
    /// function of its own the compiler kept it out of line, and the call passed the
    /// result through the stack.)
    macro_rules! gather8 {
        // The kernels' `dV`, its indices checked once a unit (`Entries`) ...
        (@get entries $e:expr, $i:expr) => {
            // SAFETY: `$i` is a body index of the unit's groups, which `Entries::of`
            // checked (every kernel's contract).
            unsafe { $e.get($i) }
        };
        // ... or a plain slice, checked at each index.
        (@get slice $s:expr, $i:expr) => {
            $s[$i as usize]
        };
        ($kind:ident $src:expr, $i0:expr, $i1:expr) => {{
            let (src, i0, i1): (_, [u32; 4], [u32; 4]) = ($src, $i0, $i1);
            let head = |v: Velocity| Vec4::new(v.lin.x, v.lin.y, v.lin.z, v.ang.x);
            let tail = |v: Velocity| Vec4::new(v.ang.y, v.ang.z, 0.0, 0.0);
            let (v0, v1, v2, v3) = (
                (gather8!(@get $kind src, i0[0]), gather8!(@get $kind src, i1[0])),
                (gather8!(@get $kind src, i0[1]), gather8!(@get $kind src, i1[1])),
                (gather8!(@get $kind src, i0[2]), gather8!(@get $kind src, i1[2])),
                (gather8!(@get $kind src, i0[3]), gather8!(@get $kind src, i1[3])),
            );
            let h = |v: (Velocity, Velocity)| F8::join(head(v.0), head(v.1));
            let t = |v: (Velocity, Velocity)| F8::join(tail(v.0), tail(v.1));
            let [lx, ly, lz, ax] = transpose8([h(v0), h(v1), h(v2), h(v3)]);
            let [ay, az, _, _] = transpose8([t(v0), t(v1), t(v2), t(v3)]);
            Vel8 {
                lin: V8 {
                    x: lx,
                    y: ly,
                    z: lz,
                },
                ang: V8 {
                    x: ax,
                    y: ay,
                    z: az,
                },
            }
        }};
    }

    /// `wide::scatter` of both groups' lanes (`movable`: bits 0–3 of each) into the
    /// kernel's `dV` (`Entries`), with one transpose for both (a macro for the reason
    /// `gather8!` is).
    macro_rules! scatter8 {
        ($e:expr, $idx:expr, $movable:expr, $w:expr) => {{
            let (e, idx, movable, w): (Entries<'_>, [[u32; 4]; 2], [u8; 2], &Vel8) =
                ($e, $idx, $movable, $w);
            let zero = F8::splat(0.0);
            let head = transpose8([w.lin.x, w.lin.y, w.lin.z, w.ang.x]);
            let tail = transpose8([w.ang.y, w.ang.z, zero, zero]);
            let halves = |k: usize| [(head[k].lo(), tail[k].lo()), (head[k].hi(), tail[k].hi())];
            let lanes = [halves(0), halves(1), halves(2), halves(3)];
            for h in 0..2 {
                for l in 0..4 {
                    if movable[h] & (1 << l) != 0 {
                        let (hd, tl) = lanes[l][h];
                        // SAFETY: a body index of the unit's groups, which
                        // `Entries::of` checked (every kernel's contract).
                        unsafe { e.set_parts(idx[h][l], hd, tl) };
                    }
                }
            }
        }};
    }

    /// One row of both groups, as the sweep reads it: the blocks as built, `1/D`.
    struct Row8 {
        j_ang_a: V8,
        j_ang_b: V8,
        t_ang_a: V8,
        t_ang_b: V8,
        b: F8,
        lambda: F8,
        inv_d: F8,
    }

    impl Row8 {
        /// The row of both groups, with `T_ang = J_ang·c`: each field one load.
        #[target_feature(enable = "avx")]
        #[inline]
        fn load(r: &SlotRow, (ca, cb): (F8, F8)) -> Row8 {
            let (ja, jb) = (V8::load(&r.ang_a), V8::load(&r.ang_b));
            Row8 {
                j_ang_a: ja,
                j_ang_b: jb,
                t_ang_a: ja.scale(ca),
                t_ang_b: jb.scale(cb),
                b: F8::load(&r.b),
                lambda: F8::load(&r.lambda),
                inv_d: F8::load(&r.inv_d),
            }
        }

        /// `J̃·dV = (J·dV)·(1/D)` for the row's direction `dir` (`wide::row_velocity`).
        #[target_feature(enable = "avx")]
        #[inline]
        fn velocity(&self, lin: F8, va: &Vel8, vb: &Vel8) -> F8 {
            self.velocity_at(lin, (va.ang, vb.ang))
        }

        /// `J̃·dV` with the angular terms on `(wa, wb)`: a normal row's from `ω` before
        /// its point's friction impulses, whose couplings' term the caller subtracts
        /// after (`wide::new_normal_lambda`).
        #[target_feature(enable = "avx")]
        #[inline]
        fn velocity_at(&self, lin: F8, (wa, wb): (V8, V8)) -> F8 {
            let ang = self.j_ang_a.dot(wa).add(self.j_ang_b.dot(wb));
            ang.add(lin).mul(self.inv_d)
        }

        /// `dV += T·δ` for the row's direction `dir` (`wide::apply_impulse`).
        #[target_feature(enable = "avx")]
        #[inline]
        fn apply(&self, delta: F8, va: &mut Vel8, vb: &mut Vel8) {
            va.ang = va.ang.add(self.t_ang_a.scale(delta));
            vb.ang = vb.ang.add(self.t_ang_b.scale(delta));
        }

        /// Gauss-Seidel's unclamped `(λ − b̃) − J̃·dV` (`wide::GaussSeidel`).
        #[target_feature(enable = "avx")]
        #[inline]
        fn unclamped(&self, jdv: F8) -> F8 {
            self.lambda.sub(self.b).sub(jdv)
        }
    }

    /// A pair unit's start in the sweep kernels: both groups' bodies' `dV`, the isotropic
    /// inverse inertias, the rows' directions, `w₀` (the lanes' relative linear velocity
    /// in the manifold's basis, `wide::basis_velocity`), `1/m_a + 1/m_b` and the friction
    /// coefficients.
    macro_rules! unit_start {
        ($e:expr, $g:expr) => {{
            let (e, g): (Entries<'_>, [&Group; 2]) = ($e, $g);
            let va = gather8!(entries e, g[0].a, g[1].a);
            let vb = gather8!(entries e, g[0].b, g[1].b);
            let ima = F8::join(g[0].inv_mass_a, g[1].inv_mass_a);
            let imb = F8::join(g[0].inv_mass_b, g[1].inv_mass_b);
            let friction = F8::join(g[0].friction(), g[1].friction());
            let (i0, i1) = (g[0].isotropic(), g[1].isotropic());
            let inv_i = (F8::join(i0.0, i1.0), F8::join(i0.1, i1.1));
            // The rows' directions, joined once for all the points.
            let dir = |r: usize| V8::join(&g[0].dir[r], &g[1].dir[r]);
            let dirs = [dir(0), dir(1), dir(2)];
            let rel = vb.lin.sub(va.lin);
            let w0 = [dirs[0].dot(rel), dirs[1].dot(rel), dirs[2].dot(rel)];
            (va, vb, inv_i, dirs, w0, ima.add(imb), friction)
        }};
    }

    /// A point's normal row alone, on `dV` as it is (`wide::new_normal_only_lambda`): a
    /// sweep without friction rows.
    macro_rules! normal_only {
        ($s:expr, $inv_i:expr, $va:ident, $vb:ident, $w:ident, $m:expr) => {{
            let s: &mut WideSlot = $s;
            let rn = Row8::load(&s.rows[0], $inv_i);
            let vn = rn.velocity($w[0], &$va, &$vb);
            let nn = rn.unclamped(vn).max(F8::splat(0.0));
            let en = nn.sub(rn.lambda);
            rn.apply(en, &mut $va, &mut $vb);
            $w[0] = $w[0].add(en.mul($m));
            nn.store(&mut s.rows[0].lambda);
        }};
    }

    /// A pair unit's end: the change of `w` back to the bodies' linear velocities in
    /// proportion to their inverse masses, then the scatter of the movable lanes.
    macro_rules! unit_finish {
        ($e:expr, $g:expr, $va:ident, $vb:ident, $dirs:expr, $w0:expr, $w:expr) => {{
            let (e, g): (Entries<'_>, [&Group; 2]) = ($e, $g);
            let ([dn, d1, d2], w0, w) = ($dirs, $w0, $w);
            let dw = [w[0].sub(w0[0]), w[1].sub(w0[1]), w[2].sub(w0[2])];
            let rel = dn.scale(dw[0]).add(d1.scale(dw[1])).add(d2.scale(dw[2]));
            $va.lin = $va.lin.sub(rel.scale(F8::join(g[0].share_a, g[1].share_a)));
            $vb.lin = $vb.lin.add(rel.scale(F8::join(g[0].share_b, g[1].share_b)));
            let movable = [g[0].movable(), g[1].movable()];
            scatter8!(e, [g[0].a, g[1].a], movable, &$va);
            scatter8!(e, [g[0].b, g[1].b], movable.map(|m| m >> 4), &$vb);
        }};
    }

    /// The kernel, compiled once per instruction set: `$name` for `$feature`.
    macro_rules! pair_kernel {
        ($name:ident, $feature:literal) => {
            /// One Gauss-Seidel sweep of two groups (see `PairKernel::solve`), with the
            /// friction rows or (`FRICTION` false) the normal rows alone; with `MEASURE`
            /// (and `FRICTION`) it returns the largest `|Δλ|·(1/m_a + 1/m_b)` of its
            /// rows, and 0 otherwise.
            ///
            /// # Safety
            ///
            /// The CPU must have the kernel's features (`PairKernel::detect`), and `e`
            /// must hold `dV` for the groups `g` (`Entries::of`).
            #[target_feature(enable = $feature)]
            pub(super) unsafe fn $name<const FRICTION: bool, const MEASURE: bool>(
                g: [&Group; 2],
                slots: &mut [WideSlot],
                e: Entries<'_>,
                back: bool,
            ) -> f32 {
                align_frame();
                let (mut va, mut vb, inv_i, dirs, w0, m, friction) = unit_start!(e, g);
                let mut w = w0;
                let zero = F8::splat(0.0);
                // The lanes' largest `|Δλ|` (`MEASURE`).
                let mut change = zero;
                // One point `k` of both groups.
                macro_rules! point {
                    ($k:expr) => {{
                        let s = &mut slots[$k];
                        if !FRICTION {
                            normal_only!(s, inv_i, va, vb, w, m);
                            continue;
                        }
                        // The friction rows from the same `dV`, bounded by ±μλₙ (`pgs::solve_manifold`).
                        let (r1, r2) = (Row8::load(&s.rows[1], inv_i), Row8::load(&s.rows[2], inv_i));
                        let bound = friction.mul(F8::load(&s.rows[0].lambda)).max(zero);
                        let (v1, v2) = (r1.velocity(w[1], &va, &vb), r2.velocity(w[2], &va, &vb));
                        let (u1, u2) = (r1.unclamped(v1), r2.unclamped(v2));
                        let n1 = u1.max(bound.neg()).min(bound);
                        let n2 = u2.max(bound.neg()).min(bound);
                        let (e1, e2) = (n1.sub(r1.lambda), n2.sub(r2.lambda));
                        // What the friction rows want, unclamped (`MEASURE`): a sliding
                        // point held at its bound is not at rest (`wide::solve_group`).
                        let wants = [u1.sub(r1.lambda).abs(), u2.sub(r2.lambda).abs()];
                        // The blocks again from the slot, not kept in registers (`lanes::fresh`).
                        let rows = fresh(&s.rows);
                        let (r1, r2) = (Row8::load(&rows[1], inv_i), Row8::load(&rows[2], inv_i));
                        let at = (va.ang, vb.ang);
                        r1.apply(e1, &mut va, &mut vb);
                        w[1] = w[1].add(e1.mul(m));
                        r2.apply(e2, &mut va, &mut vb);
                        w[2] = w[2].add(e2.mul(m));
                        // The normal row (`pgs::solve_manifold`, λ ∈ [0, ∞)): `dV` from
                        // before the friction impulses, those through the couplings.
                        let rn = Row8::load(&rows[0], inv_i);
                        let [c1, c2] = [F8::load(&s.couple[0]), F8::load(&s.couple[1])];
                        let ahead = c1.mul(e1).add(c2.mul(e2));
                        let vn = rn.velocity_at(w[0], at);
                        let nn = rn.unclamped(vn).sub(ahead).max(zero);
                        let en = nn.sub(rn.lambda);
                        let rn = Row8::load(&fresh(&s.rows)[0], inv_i);
                        rn.apply(en, &mut va, &mut vb);
                        w[0] = w[0].add(en.mul(m));
                        let [qn, q1, q2] = &mut s.rows;
                        n1.store(&mut q1.lambda);
                        n2.store(&mut q2.lambda);
                        nn.store(&mut qn.lambda);
                        if MEASURE {
                            change = change.max(wants[0]).max(wants[1]).max(en.abs());
                        }
                    }};
                }
                // The points both groups have, then (a ragged pair) the longer one's
                // last points — in reverse on a backward sweep. Over those the shorter
                // group's lanes run on whatever its half of the slots holds, and its
                // state is put back afterwards: its bits are its own kernel's.
                let (c0, c1) = (g[0].slots().len(), g[1].slots().len());
                let (common, n) = (c0.min(c1), slots.len());
                let short = if c0 < c1 {
                    F8::join(Vec4::splat(-0.0), Vec4::ZERO)
                } else {
                    F8::join(Vec4::ZERO, Vec4::splat(-0.0))
                };
                let rest = |va: &mut Vel8,
                            vb: &mut Vel8,
                            w: &mut [F8; 3],
                            change: &mut F8,
                            kept: (V8, V8, [F8; 3], F8)| {
                    va.ang = kept.0.select(short, va.ang);
                    vb.ang = kept.1.select(short, vb.ang);
                    *w = [0, 1, 2].map(|k| kept.2[k].select(short, w[k]));
                    *change = kept.3.select(short, *change);
                };
                if !back {
                    for k in 0..common {
                        point!(k);
                    }
                    if common < n {
                        let kept = (va.ang, vb.ang, w, change);
                        for k in common..n {
                            point!(k);
                        }
                        rest(&mut va, &mut vb, &mut w, &mut change, kept);
                    }
                } else {
                    if common < n {
                        let kept = (va.ang, vb.ang, w, change);
                        for k in (common..n).rev() {
                            point!(k);
                        }
                        rest(&mut va, &mut vb, &mut w, &mut change, kept);
                    }
                    for k in (0..common).rev() {
                        point!(k);
                    }
                }
                unit_finish!(e, g, va, vb, dirs, w0, w);
                if MEASURE {
                    let c = change.mul(m);
                    c.lo().max(c.hi()).max_element()
                } else {
                    0.0
                }
            }
        };
    }

    /// Two groups' `GroupBodies`, side by side (isotropic bodies only).
    struct Bodies8 {
        com_a: V8,
        com_b: V8,
        c_a: F8,
        c_b: F8,
        /// The bodies' `Vnc` angular velocities (the linear ones enter once per row
        /// direction, `GroupBodies::linear`).
        vnc_a: V8,
        vnc_b: V8,
        lin_mass: F8,
    }

    impl Bodies8 {
        #[target_feature(enable = "avx")]
        #[inline]
        fn join(g0: &GroupBodies, g1: &GroupBodies) -> Bodies8 {
            Bodies8 {
                com_a: V8::join(&g0.com_a, &g1.com_a),
                com_b: V8::join(&g0.com_b, &g1.com_b),
                c_a: F8::join(g0.c_a, g1.c_a),
                c_b: F8::join(g0.c_b, g1.c_b),
                vnc_a: V8::join(&g0.vnc_a.ang, &g1.vnc_a.ang),
                vnc_b: V8::join(&g0.vnc_b.ang, &g1.vnc_b.ang),
                lin_mass: F8::join(g0.lin_mass, g1.lin_mass),
            }
        }

        /// `GroupBodies::row` in eight lanes: `(J_ang,a, J_ang,b, b̃, 1/D)`; `lin` is
        /// `d·(Vnc_b − Vnc_a)` of the linear velocities.
        #[target_feature(enable = "avx")]
        #[inline]
        fn row(&self, d: V8, lin: F8, r_a: V8, r_b: V8) -> (V8, V8, F8, F8) {
            let ja = r_a.cross(d).neg();
            let jb = r_b.cross(d);
            let (ta, tb) = (ja.scale(self.c_a), jb.scale(self.c_b));
            let diag = self.lin_mass.add(ja.dot(ta)).add(jb.dot(tb));
            let inv_d = F8::splat(1.0)
                .div(diag)
                .select(diag.gt(F8::zero()), F8::zero());
            let jv = lin.add(ja.dot(self.vnc_a)).add(jb.dot(self.vnc_b));
            (ja, jb, jv.mul(inv_d), inv_d)
        }
    }

    macro_rules! build_kernel {
        ($name:ident, $feature:literal) => {
            /// The rows of two groups that share their slots and have as many wide
            /// points each (see `PairKernel::build`): `wide_build::build_group` of
            /// each, eight lanes at a time, with the same bits — and each point's warm
            /// impulses into `dv` as soon as its rows are stored (`wide::warm_group`'s
            /// operations on the rows as stored, in its order).
            ///
            /// # Safety
            ///
            /// The CPU must have the kernel's features (`PairKernel::detect`), and `e`
            /// must hold `dV` for the groups `g` (`Entries::of`).
            #[target_feature(enable = $feature)]
            #[allow(clippy::too_many_arguments)]
            pub(super) unsafe fn $name(
                g: [&Group; 2],
                slots: &mut [WideSlot],
                side: [&mut [WideSide]; 2],
                lanes: [&[[u32; 4]]; 2],
                inputs: &[PointInput],
                bodies: &SolverBodies,
                s: &BuildParams,
                e: Entries<'_>,
            ) {
                align_frame();
                let mut va = gather8!(entries e, g[0].a, g[1].a);
                let mut vb = gather8!(entries e, g[0].b, g[1].b);
                let ima = F8::join(g[0].inv_mass_a, g[1].inv_mass_a);
                let imb = F8::join(g[0].inv_mass_b, g[1].inv_mass_b);
                let (gb0, gb1) = (
                    GroupBodies::gather(g[0], bodies),
                    GroupBodies::gather(g[1], bodies),
                );
                let (l0, l1) = (gb0.linear(&g[0].dir), gb1.linear(&g[1].dir));
                let [lin_n, lin_1, lin_2] = [0, 1, 2].map(|r| F8::join(l0[r], l1[r]));
                let gb = Bodies8::join(&gb0, &gb1);
                let (inv_dt, erp, slop) =
                    (F8::splat(s.inv_dt), F8::splat(s.erp), F8::splat(s.slop));
                let (zero, max_correction) = (F8::zero(), F8::splat(s.max_correction));
                let gap = F8::join(g[0].gap(s.gap), g[1].gap(s.gap));
                let friction = F8::join(g[0].friction(), g[1].friction());
                let warm_start = F8::splat(s.warm_start);
                let dir = |r: usize| V8::join(&g[0].dir[r], &g[1].dir[r]);
                let [n, t1, t2] = [dir(0), dir(1), dir(2)];
                let [side0, side1] = side;
                for (k, slot) in slots.iter_mut().enumerate() {
                    let (p0, p1) = (
                        PointLanes::gather(&lanes[0][k], inputs),
                        PointLanes::gather(&lanes[1][k], inputs),
                    );
                    let live = F8::mask(p0.live, p1.live);
                    let p = V8::join(&p0.p, &p1.p);
                    let sep = F8::join(p0.sep, p1.sep);
                    let warm = [0, 1, 2].map(|r| F8::join(p0.warm[r], p1.warm[r]));
                    let r_a = p.sub(gb.com_a);
                    let r_b = p.sub(gb.com_b);
                    // `WideRow::zero_where(dead)` and `SlotRow::set` of both halves.
                    let put =
                        |row: &mut SlotRow, (ja, jb, b, inv_d): (V8, V8, F8, F8), warm: F8| {
                            let z = V8 {
                                x: zero,
                                y: zero,
                                z: zero,
                            };
                            ja.select(live, z).store(&mut row.ang_a);
                            jb.select(live, z).store(&mut row.ang_b);
                            b.select(live, zero).store(&mut row.b);
                            warm_start
                                .mul(warm)
                                .select(live, zero)
                                .store(&mut row.lambda);
                            inv_d.select(live, zero).store(&mut row.inv_d);
                        };
                    let row1 = gb.row(t1, lin_1, r_a, r_b);
                    put(&mut slot.rows[1], row1, warm[1]);
                    let row2 = gb.row(t2, lin_2, r_a, r_b);
                    put(&mut slot.rows[2], row2, warm[2]);
                    let (ja, jb, b, inv_dn) = gb.row(n, lin_n, r_a, r_b);
                    // The normal row's couplings with the friction rows
                    // (`wide::couplings`, zero in the lanes without a point).
                    let couple = |(ka, kb, _, _): (V8, V8, F8, F8)| {
                        let (ta, tb) = (ka.scale(gb.c_a), kb.scale(gb.c_b));
                        ja.dot(ta).add(jb.dot(tb)).mul(inv_dn).select(live, zero)
                    };
                    couple(row1).store(&mut slot.couple[0]);
                    couple(row2).store(&mut slot.couple[1]);
                    let b_vel = b;
                    // `jacobian::stabilize` on the normal row (`lanes::clamp`).
                    let v = erp.mul(sep.neg().sub(slop)).mul(inv_dt);
                    let below_max = max_correction.select(v.gt(max_correction), v);
                    let correction = zero.select(v.lt(zero), below_max);
                    let open = sep.gt(zero);
                    // (`jacobian::touching` of the warm λ; without a touching gap the
                    // open lanes' gap as it is, the same bits.)
                    let open_gap = if s.gap > 0.0 {
                        let bound = friction.mul(warm_start.mul(warm[0]));
                        let [l1, l2] = [1, 2].map(|r| warm_start.mul(warm[r]).abs());
                        let stick = l1.lt(bound).and(l2.lt(bound));
                        sep.sub(gap.select(stick, zero)).max(zero)
                    } else {
                        sep
                    };
                    let closing = b.add(open_gap.mul(inv_dt).mul(inv_dn));
                    let push = correction.neg().mul(inv_dn);
                    let (b, split_b) = if s.split {
                        (closing.select(open, b), zero.select(open, push))
                    } else {
                        (closing.select(open, b.sub(correction.mul(inv_dn))), zero)
                    };
                    put(&mut slot.rows[0], (ja, jb, b, inv_dn), warm[0]);
                    let (split_b, sep, b_vel) = (
                        split_b.select(live, zero),
                        sep.select(live, zero),
                        b_vel.select(live, zero),
                    );
                    side0[k] = WideSide {
                        split_b: split_b.lo(),
                        sep: sep.lo(),
                        b_vel: b_vel.lo(),
                    };
                    side1[k] = WideSide {
                        split_b: split_b.hi(),
                        sep: sep.hi(),
                        b_vel: b_vel.hi(),
                    };
                    // The warm impulses `T·λ` of the point's rows as stored (zero in
                    // the lanes without a point), normal row first.
                    for (row, d) in slot.rows.iter().zip([n, t1, t2]) {
                        let r = Row8::load(row, (gb.c_a, gb.c_b));
                        va.lin = va.lin.sub(d.scale(r.lambda.mul(ima)));
                        r.apply(r.lambda, &mut va, &mut vb);
                        vb.lin = vb.lin.add(d.scale(r.lambda.mul(imb)));
                    }
                }
                let movable = [g[0].movable(), g[1].movable()];
                scatter8!(e, [g[0].a, g[1].a], movable, &va);
                scatter8!(e, [g[0].b, g[1].b], movable.map(|m| m >> 4), &vb);
            }
        };
    }

    macro_rules! refresh_kernel {
        ($name:ident, $feature:literal) => {
            /// The solve-substep refresh of two groups that share their slots and have
            /// as many wide points each (see `PairKernel::refresh`): `wide::refresh_group`
            /// of each, eight lanes at a time, with the same bits. `STILL`: no motion
            /// (`moved` is not read), only the rows' `b̃` from the separations;
            /// `advance`: the separations move to where `moved` leaves them.
            ///
            /// # Safety
            ///
            /// The CPU must have the kernel's features (`PairKernel::detect`).
            #[target_feature(enable = $feature)]
            pub(super) unsafe fn $name<const STILL: bool>(
                g: [&Group; 2],
                slots: &mut [WideSlot],
                side: [&mut [WideSide]; 2],
                moved: &[Velocity],
                h: f32,
                s: &BuildParams,
                advance: bool,
            ) {
                align_frame();
                let motion = (!STILL).then(|| {
                    let ma = gather8!(slice moved, g[0].a, g[1].a);
                    let mb = gather8!(slice moved, g[0].b, g[1].b);
                    let dn = V8::join(&g[0].dir[0], &g[1].dir[0]);
                    let lin = dn.dot(mb.lin.sub(ma.lin));
                    (ma, mb, lin)
                });
                let (h, inv_dt, zero) = (F8::splat(h), F8::splat(s.inv_dt), F8::zero());
                let (erp, slop) = (F8::splat(s.erp), F8::splat(s.slop));
                let gap = F8::join(g[0].gap(s.gap), g[1].gap(s.gap));
                let max_correction = F8::splat(s.max_correction);
                let friction = F8::join(g[0].friction(), g[1].friction());
                let [side0, side1] = side;
                for ((slot, s0), s1) in slots.iter_mut().zip(side0.iter_mut()).zip(side1) {
                    // (The friction rows' λ, for `jacobian::touching` below, where there is
                    // a touching gap.)
                    let frictions =
                        (s.gap > 0.0).then(|| [1, 2].map(|r| F8::load(&slot.rows[r].lambda).abs()));
                    let row = &mut slot.rows[0];
                    let inv_dn = F8::load(&row.inv_d);
                    let sep = F8::join(s0.sep, s1.sep);
                    let sep = match &motion {
                        Some((ma, mb, lin)) => {
                            let (ja, jb) = (V8::load(&row.ang_a), V8::load(&row.ang_b));
                            // `wide::row_velocity_raw` of the moved velocities.
                            let raw = ja.dot(ma.ang).add(jb.dot(mb.ang)).add(*lin);
                            sep.add(h.mul(raw))
                        }
                        None => sep,
                    };
                    let b_vel = F8::join(s0.b_vel, s1.b_vel);
                    // `Vec4::clamp`: `max` then `min`.
                    let correction = erp
                        .mul(sep.neg().sub(slop))
                        .mul(inv_dt)
                        .max(zero)
                        .min(max_correction);
                    let open = sep.gt(zero);
                    // (`jacobian::touching` of the rows' λ as they stand; without a
                    // touching gap the open lanes' gap as it is, the same bits.)
                    let open_gap = match frictions {
                        Some([l1, l2]) => {
                            let bound = friction.mul(F8::load(&row.lambda));
                            let stick = l1.lt(bound).and(l2.lt(bound));
                            sep.sub(gap.select(stick, zero)).max(zero)
                        }
                        None => sep,
                    };
                    let speculative = open_gap.mul(inv_dt).mul(inv_dn).select(open, zero);
                    let push = zero.select(open, correction.mul(inv_dn));
                    let split_b = if s.split {
                        b_vel.add(speculative).store(&mut row.b);
                        Some(push.neg())
                    } else {
                        b_vel.add(speculative.sub(push)).store(&mut row.b);
                        None
                    };
                    if !STILL && advance {
                        (s0.sep, s1.sep) = (sep.lo(), sep.hi());
                    }
                    if let Some(split_b) = split_b {
                        (s0.split_b, s1.split_b) = (split_b.lo(), split_b.hi());
                    }
                }
            }
        };
    }

    refresh_kernel!(refresh_pair_avx, "avx");
    refresh_kernel!(refresh_pair_avx512, "avx512vl");

    build_kernel!(build_pair_avx, "avx");
    build_kernel!(build_pair_avx512, "avx512vl");

    /// `f()` compiled with AVX-512 VL.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX-512 VL.
    #[target_feature(enable = "avx512vl")]
    pub(super) unsafe fn with_avx512<R>(f: impl FnOnce() -> R) -> R {
        align_frame();
        f()
    }

    /// `f()` compiled with AVX.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX.
    #[target_feature(enable = "avx")]
    pub(super) unsafe fn with_avx<R>(f: impl FnOnce() -> R) -> R {
        align_frame();
        f()
    }

    pair_kernel!(solve_pair_avx, "avx");
    pair_kernel!(solve_pair_avx512, "avx512vl");

    /// Two pair units side by side in a sweep without friction rows (see
    /// `PairKernel::solve_couple`): the pair kernel's setup, normal rows and finish for
    /// each unit, point `k` of one then point `k` of the other.
    macro_rules! couple_kernel {
        ($name:ident, $feature:literal) => {
            /// Two pair units side by side (see `PairKernel::solve_couple`).
            ///
            /// # Safety
            ///
            /// The CPU must have the kernel's features (`PairKernel::detect`), and `e`
            /// must hold `dV` for the units' groups (`Entries::of`).
            #[target_feature(enable = $feature)]
            pub(super) unsafe fn $name(
                units: [[&Group; 2]; 2],
                slots: [&mut [WideSlot]; 2],
                e: Entries<'_>,
            ) {
                align_frame();
                let (mut va0, mut vb0, inv_i0, dirs0, w00, m0, _) = unit_start!(e, units[0]);
                let (mut va1, mut vb1, inv_i1, dirs1, w01, m1, _) = unit_start!(e, units[1]);
                let (mut w_0, mut w_1) = (w00, w01);
                let [s0, s1] = slots;
                for (p0, p1) in s0.iter_mut().zip(s1.iter_mut()) {
                    normal_only!(p0, inv_i0, va0, vb0, w_0, m0);
                    normal_only!(p1, inv_i1, va1, vb1, w_1, m1);
                }
                unit_finish!(e, units[0], va0, vb0, dirs0, w00, w_0);
                unit_finish!(e, units[1], va1, vb1, dirs1, w01, w_1);
            }
        };
    }

    couple_kernel!(solve_couple_avx, "avx");
    couple_kernel!(solve_couple_avx512, "avx512vl");
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;

    /// A unit's entries are handed to the kernel only where every body index of its
    /// groups lies below `dV`'s count: the last index in bounds passes, one past it (in
    /// any lane of either group, on either side) does not.
    #[test]
    fn entries_check_every_body_index_of_the_unit() {
        let mut dv = vec![Velocity::default(); 9];
        let mut g = [Group::default(), Group::default()];
        g[0].a = [1, 2, 3, 8];
        g[1].b = [8, 0, 4, 5];
        assert!(Entries::of(&mut dv[..], &[&g[0], &g[1]]).is_some());
        for (k, side) in [(0, 0), (1, 1), (0, 1), (1, 0)] {
            for lane in 0..4 {
                let mut h = g;
                let ids = if side == 0 { &mut h[k].a } else { &mut h[k].b };
                ids[lane] = 9;
                assert!(
                    Entries::of(&mut dv[..], &[&h[0], &h[1]]).is_none(),
                    "group {k}, side {side}, lane {lane}"
                );
            }
        }
    }
}
