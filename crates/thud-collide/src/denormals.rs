//! Subnormal floats flushed to zero while a step runs.
//!
//! A structure at rest leaves numbers far below anything physical in the arithmetic of a
//! step: turns of 10⁻¹⁵ rad, their products in rotation matrices and lever arms, impulse
//! corrections that halve sweep after sweep. Products of two such numbers fall below
//! `f32::MIN_POSITIVE` (1.2·10⁻³⁸), and x86 cores take a microcode assist for every
//! operation on such a subnormal operand or result: a `pyramid3d_10` warm-started from its
//! statics, which stands perfectly still, stepped in 0.85 ms instead of 0.74 (the Solve
//! 0.61 against 0.51 ms, the broadphase 0.041 against 0.023) until they were flushed.
//!
//! [`FlushDenormals`] sets the thread's floating-point control to flush subnormal results
//! and inputs to zero (x86-64 MXCSR FTZ and DAZ; AArch64 FPCR FZ) and puts the old
//! control back when dropped, as Jolt's `FPFlushDenormals` does around its update. Every
//! thread that computes a part of a step must hold one, or one thread count would round
//! where another flushes: the stepping thread holds one for the whole step, and each job
//! handed to the pool takes one ([`flushed`]). Elsewhere (other targets) it does nothing.

/// Flushes subnormal floats to zero on this thread while it lives (module notes).
#[must_use = "the mode lasts only while the guard lives"]
#[derive(Debug)]
pub struct FlushDenormals {
    #[cfg_attr(
        not(any(target_arch = "x86_64", target_arch = "aarch64")),
        allow(dead_code)
    )]
    saved: u64,
}

impl FlushDenormals {
    /// Flush subnormals to zero on this thread until the guard is dropped.
    pub fn new() -> Self {
        let saved = control::get();
        control::set(saved | control::FLUSH);
        FlushDenormals { saved }
    }
}

impl Default for FlushDenormals {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for FlushDenormals {
    fn drop(&mut self) {
        control::set(self.saved);
    }
}

/// Runs `f` with subnormals flushed to zero on this thread (a job handed to the pool).
#[inline]
pub fn flushed<R>(f: impl FnOnce() -> R) -> R {
    let _flush = FlushDenormals::new();
    f()
}

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod control {
    /// MXCSR: flush to zero (bit 15) and denormals are zero (bit 6).
    pub const FLUSH: u64 = 0x8040;

    pub fn get() -> u64 {
        let mut csr: u32 = 0;
        // SAFETY: `stmxcsr` stores the 32-bit control register to the address given,
        // a live local.
        unsafe {
            core::arch::asm!("stmxcsr [{}]", in(reg) &mut csr, options(nostack, preserves_flags));
        }
        u64::from(csr)
    }

    pub fn set(value: u64) {
        let csr = value as u32;
        // SAFETY: `ldmxcsr` loads the control register from a live local; the value is
        // one read by `get`, with only the flush bits added.
        unsafe {
            core::arch::asm!("ldmxcsr [{}]", in(reg) &csr, options(nostack, readonly, preserves_flags));
        }
    }
}

#[cfg(target_arch = "aarch64")]
#[allow(unsafe_code)]
mod control {
    /// FPCR: flush to zero (bit 24).
    pub const FLUSH: u64 = 1 << 24;

    pub fn get() -> u64 {
        let value: u64;
        // SAFETY: reading the floating-point control register has no other effect.
        unsafe {
            core::arch::asm!("mrs {}, fpcr", out(reg) value, options(nomem, nostack, preserves_flags));
        }
        value
    }

    pub fn set(value: u64) {
        // SAFETY: writes back a value read by `get`, with only the flush bit added.
        unsafe {
            core::arch::asm!("msr fpcr, {}", in(reg) value, options(nomem, nostack, preserves_flags));
        }
    }
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
mod control {
    pub const FLUSH: u64 = 0;

    pub fn get() -> u64 {
        0
    }

    pub fn set(_: u64) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hint::black_box;

    /// Half the smallest normal float, made at run time.
    fn half_smallest() -> f32 {
        black_box(f32::MIN_POSITIVE) * black_box(0.5)
    }

    #[test]
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    fn subnormals_are_flushed_while_the_guard_lives_and_not_after() {
        assert!(half_smallest().is_subnormal());
        {
            let _flush = FlushDenormals::new();
            assert_eq!(half_smallest(), 0.0);
            // Nested guards put back what they found.
            flushed(|| assert_eq!(half_smallest(), 0.0));
            assert_eq!(half_smallest(), 0.0);
        }
        assert!(half_smallest().is_subnormal());
        assert_eq!(flushed(half_smallest), 0.0);
        assert!(half_smallest().is_subnormal());
    }
}
