//! Repeated layouts — grids, stacks, pyramids — with optional seeded jitter, so a
//! scene of a thousand boxes stays a few lines long.
//!
//! A pattern expands into [`BodyDef`]s named `{prefix}_{n}` (n from 0, in generation
//! order), each a copy of the pattern's `body` template whose `position` is added to
//! the generated centre. Generation orders are part of the format (names and random
//! draws depend on them):
//!
//! - `Grid`: x index outermost, then y, then z innermost; centre
//!   `origin + (i, j, k) * spacing`.
//! - `Stack`: bottom to top; centre `origin + n * step`.
//! - `Pyramid`: one box deep in the x–y plane, row r (from the bottom) holds
//!   `base − r` boxes at x = `origin.x + (c − (base − r − 1)/2)·spacing.x`,
//!   y = `origin.y + r·spacing.y`.
//! - `Pyramid3d`: layer k holds `(base − k)²` boxes, x index outer, z index inner.
//!
//! **Jitter** draws uniforms from [`SplitMix64`] seeded with `seed`, per body in
//! generation order: one draw per axis x, y, z whose `position` amplitude is non-zero
//! (offset `−A + 2A·u`), then, when `rotation` is true, three draws a, b, c giving
//! `Quat::from_euler(EulerRot::YXZ, 2πa, 2πb, 2πc)`. With amplitude (0.1, 0, 0.1) this
//! is exactly the `pile_1000` recipe of the standard scenes.

use glam::{EulerRot, Quat, Vec3};
use serde::{Deserialize, Serialize};

use crate::schema::BodyDef;

/// A repeated layout of copies of one body template.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Pattern {
    /// A 3-D lattice.
    Grid {
        /// Name prefix.
        prefix: String,
        /// Number of bodies along x, y, z.
        counts: (u32, u32, u32),
        /// Centre of the first body.
        origin: Vec3,
        /// Distance between neighbouring centres along x, y, z.
        spacing: Vec3,
        /// The template copied at each site.
        body: BodyDef,
        /// Optional seeded random offsets and orientations.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        jitter: Option<Jitter>,
    },
    /// A straight column (or any straight line) of bodies.
    Stack {
        /// Name prefix.
        prefix: String,
        /// Number of bodies.
        count: u32,
        /// Centre of the first body.
        origin: Vec3,
        /// Offset from one body to the next.
        #[serde(default = "default_step")]
        step: Vec3,
        /// The template.
        body: BodyDef,
        /// Optional seeded random offsets and orientations.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        jitter: Option<Jitter>,
    },
    /// A one-body-deep pyramid in the x–y plane.
    Pyramid {
        /// Name prefix.
        prefix: String,
        /// Bodies in the bottom row (and number of rows).
        base: u32,
        /// Centre of the bottom row (x, z) at the height of its centres (y).
        origin: Vec3,
        /// Centre-to-centre distance along x and y (z unused).
        #[serde(default = "default_spacing")]
        spacing: Vec3,
        /// The template.
        body: BodyDef,
    },
    /// A square pyramid.
    Pyramid3d {
        /// Name prefix.
        prefix: String,
        /// Bodies along each side of the bottom layer (and number of layers).
        base: u32,
        /// Centre of the bottom layer at the height of its centres.
        origin: Vec3,
        /// Centre-to-centre distance along x, y, z.
        #[serde(default = "default_spacing")]
        spacing: Vec3,
        /// The template.
        body: BodyDef,
    },
}

fn default_step() -> Vec3 {
    Vec3::Y
}
fn default_spacing() -> Vec3 {
    Vec3::ONE
}

/// Seeded random offsets and orientations for a pattern.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Jitter {
    /// SplitMix64 seed.
    pub seed: u64,
    /// Largest offset along each axis (uniform in `[−A, A)`).
    #[serde(default)]
    pub position: Vec3,
    /// Whether each body gets a random orientation.
    #[serde(default)]
    pub rotation: bool,
}

/// The SplitMix64 generator (Steele, Lea, Flood 2014), as the standard scenes define it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator with the given seed.
    #[must_use]
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform in `[0, 1)` from the top 53 bits.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / 9_007_199_254_740_992.0
    }
}

/// The offset and orientation one jittered body gets.
fn jitter_one(rng: &mut SplitMix64, jitter: &Jitter) -> (Vec3, Option<Quat>) {
    let a = jitter.position;
    let mut offset = Vec3::ZERO;
    for axis in 0..3 {
        let amp = f64::from(a[axis]);
        if amp != 0.0 {
            offset[axis] = (-amp + 2.0 * amp * rng.next_f64()) as f32;
        }
    }
    let rotation = jitter.rotation.then(|| {
        let tau = std::f64::consts::TAU;
        let ya = (tau * rng.next_f64()) as f32;
        let xb = (tau * rng.next_f64()) as f32;
        let zc = (tau * rng.next_f64()) as f32;
        Quat::from_euler(EulerRot::YXZ, ya, xb, zc)
    });
    (offset, rotation)
}

impl Pattern {
    /// The name prefix.
    #[must_use]
    pub fn prefix(&self) -> &str {
        match self {
            Pattern::Grid { prefix, .. }
            | Pattern::Stack { prefix, .. }
            | Pattern::Pyramid { prefix, .. }
            | Pattern::Pyramid3d { prefix, .. } => prefix,
        }
    }

    /// The number of bodies the pattern makes.
    #[must_use]
    pub fn len(&self) -> u64 {
        match self {
            // Saturating: a file may ask for absurd counts; the loader rejects them.
            Pattern::Grid { counts, .. } => u64::from(counts.0)
                .saturating_mul(u64::from(counts.1))
                .saturating_mul(u64::from(counts.2)),
            Pattern::Stack { count, .. } => u64::from(*count),
            Pattern::Pyramid { base, .. } => u64::from(*base) * (u64::from(*base) + 1) / 2,
            Pattern::Pyramid3d { base, .. } => {
                let n = u64::from(*base);
                n.saturating_mul(n + 1).saturating_mul(2 * n + 1) / 6
            }
        }
    }

    /// Whether the pattern makes no body.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bodies of the pattern, in generation order.
    #[must_use]
    pub fn expand(&self) -> Vec<BodyDef> {
        let mut sites: Vec<(Vec3, Option<Quat>)> = Vec::new();
        match self {
            Pattern::Grid {
                counts,
                origin,
                spacing,
                jitter,
                ..
            } => {
                let mut rng = jitter.map(|j| (SplitMix64::new(j.seed), j));
                for i in 0..counts.0 {
                    for j in 0..counts.1 {
                        for k in 0..counts.2 {
                            let idx = Vec3::new(i as f32, j as f32, k as f32);
                            let mut p = *origin + idx * *spacing;
                            let mut q = None;
                            if let Some((rng, jit)) = rng.as_mut() {
                                let (d, r) = jitter_one(rng, jit);
                                p += d;
                                q = r;
                            }
                            sites.push((p, q));
                        }
                    }
                }
            }
            Pattern::Stack {
                count,
                origin,
                step,
                jitter,
                ..
            } => {
                let mut rng = jitter.map(|j| (SplitMix64::new(j.seed), j));
                for n in 0..*count {
                    let mut p = *origin + n as f32 * *step;
                    let mut q = None;
                    if let Some((rng, jit)) = rng.as_mut() {
                        let (d, r) = jitter_one(rng, jit);
                        p += d;
                        q = r;
                    }
                    sites.push((p, q));
                }
            }
            Pattern::Pyramid {
                base,
                origin,
                spacing,
                ..
            } => {
                for r in 0..*base {
                    let row = base - r;
                    for c in 0..row {
                        let x = (c as f32 - (row - 1) as f32 / 2.0) * spacing.x;
                        let y = r as f32 * spacing.y;
                        sites.push((*origin + Vec3::new(x, y, 0.0), None));
                    }
                }
            }
            Pattern::Pyramid3d {
                base,
                origin,
                spacing,
                ..
            } => {
                for k in 0..*base {
                    let side = base - k;
                    let half = (side - 1) as f32 / 2.0;
                    for i in 0..side {
                        for j in 0..side {
                            let x = (i as f32 - half) * spacing.x;
                            let z = (j as f32 - half) * spacing.z;
                            let y = k as f32 * spacing.y;
                            sites.push((*origin + Vec3::new(x, y, z), None));
                        }
                    }
                }
            }
        }
        let (prefix, template) = match self {
            Pattern::Grid { prefix, body, .. }
            | Pattern::Stack { prefix, body, .. }
            | Pattern::Pyramid { prefix, body, .. }
            | Pattern::Pyramid3d { prefix, body, .. } => (prefix, body),
        };
        sites
            .into_iter()
            .enumerate()
            .map(|(n, (p, q))| {
                let mut b = template.clone();
                b.name = format!("{prefix}_{n}");
                b.position += p;
                if let Some(q) = q {
                    b.rotation = q;
                    b.euler_deg = None;
                }
                b
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_matches_reference_values() {
        // Reference outputs of SplitMix64 seeded with 0 (Vigna's splitmix64.c).
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn pattern_lengths_match_expansion() {
        let body = BodyDef::new(
            "",
            crate::schema::ShapeDef::cuboid(Vec3::splat(0.5)),
            Vec3::ZERO,
        );
        let p = Pattern::Pyramid3d {
            prefix: "b".into(),
            base: 4,
            origin: Vec3::ZERO,
            spacing: Vec3::ONE,
            body: body.clone(),
        };
        assert_eq!(p.len(), 30);
        assert_eq!(p.expand().len(), 30);
        let p = Pattern::Pyramid {
            prefix: "b".into(),
            base: 5,
            origin: Vec3::ZERO,
            spacing: Vec3::ONE,
            body,
        };
        assert_eq!(p.len(), 15);
        assert_eq!(p.expand()[14].name, "b_14");
    }
}
