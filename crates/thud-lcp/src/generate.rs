//! Random instances for experiments, tests and benches (`thud-lcp gen`).
//!
//! Deterministic for a given `(class, n, seed)` on every platform: a SplitMix64
//! generator, no dependency.
//!
//! | class | matrix | `q` / `b` |
//! |---|---|---|
//! | `spd` | `G Gᵀ/n + 0.1·I`, `G` uniform in `[−1, 1]` | uniform in `[−1, 1]` |
//! | `psd` | `G Gᵀ/r`, `G` is `n × r`, `r = ⌈n/2⌉` (singular) | `w* − M z*` for a random complementary pair, so a solution exists |
//! | `p-matrix` | `G Gᵀ/n + 0.1·I + K`, `K` skew-symmetric (non-symmetric, positive definite, hence P) | uniform in `[−1, 1]` |
//! | `contact` | `A = J M⁻¹ Jᵀ` of `⌊n/3⌋` (at least 1) contacts of a few bodies with the ground or each other: normal row `[0, ∞)`, two friction rows coupled with `μ = 0.5`; PSD and singular once contacts outnumber the bodies' degrees of freedom | approach velocity on normals, sliding on tangents |

use crate::matrix::Matrix;
use crate::problem::{BoxedLcp, FrictionPair, Lcp, Problem};

/// A SplitMix64 pseudo-random generator.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// Seeds the generator.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        Self(seed ^ 0x9E37_79B9_7F4A_7C15)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[lo, hi)`.
    pub fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        let u = (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        lo + (hi - lo) * u
    }
}

/// The instance classes of `thud-lcp gen`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// Symmetric positive definite.
    Spd,
    /// Symmetric positive semi-definite, singular, with a solution.
    Psd,
    /// Non-symmetric P-matrix.
    PMatrix,
    /// A boxed contact problem with coupled friction.
    Contact,
}

impl std::str::FromStr for Class {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "spd" => Ok(Class::Spd),
            "psd" => Ok(Class::Psd),
            "p-matrix" => Ok(Class::PMatrix),
            "contact" => Ok(Class::Contact),
            _ => Err(format!(
                "unknown class {s:?} (expected spd, psd, p-matrix or contact)"
            )),
        }
    }
}

/// An instance of `class` of size `n` (contact: `3·max(1, ⌊n/3⌋)` rows).
#[must_use]
pub fn instance(class: Class, n: usize, seed: u64) -> Problem {
    match class {
        Class::Spd => spd(n, seed).into(),
        Class::Psd => psd(n, seed).into(),
        Class::PMatrix => p_matrix(n, seed).into(),
        Class::Contact => contact(n, seed).into(),
    }
}

fn gram(rng: &mut Rng, n: usize, r: usize, shift: f64) -> Matrix {
    let g: Vec<f64> = (0..n * r).map(|_| rng.uniform(-1.0, 1.0)).collect();
    let mut m = Matrix::zeros(n, n);
    let scale = 1.0 / r.max(1) as f64;
    for i in 0..n {
        for j in 0..=i {
            let s: f64 = (0..r).map(|k| g[i * r + k] * g[j * r + k]).sum::<f64>() * scale;
            m[(i, j)] = s;
            m[(j, i)] = s;
        }
        m[(i, i)] += shift;
    }
    m
}

fn lcp(m: Matrix, q: Vec<f64>) -> Lcp {
    // Generated data are finite and square by construction.
    Lcp::new(m, q).unwrap_or_else(|e| unreachable!("generator built an invalid problem: {e}"))
}

/// A random symmetric positive definite LCP.
#[must_use]
pub fn spd(n: usize, seed: u64) -> Lcp {
    let mut rng = Rng::new(seed);
    let m = gram(&mut rng, n, n, 0.1);
    let q = (0..n).map(|_| rng.uniform(-1.0, 1.0)).collect();
    lcp(m, q)
}

/// A random singular PSD LCP that has a solution.
#[must_use]
pub fn psd(n: usize, seed: u64) -> Lcp {
    let mut rng = Rng::new(seed ^ 0x5053_4400);
    let m = gram(&mut rng, n, n.div_ceil(2), 0.0);
    let mut z = vec![0.0; n];
    let mut w = vec![0.0; n];
    for i in 0..n {
        if rng.uniform(0.0, 1.0) < 0.5 {
            z[i] = rng.uniform(0.0, 1.0);
        } else {
            w[i] = rng.uniform(0.0, 1.0);
        }
    }
    let mz = m.mul_vec(&z);
    let q = (0..n).map(|i| w[i] - mz[i]).collect();
    lcp(m, q)
}

/// A random non-symmetric P-matrix LCP (positive definite plus skew-symmetric).
#[must_use]
pub fn p_matrix(n: usize, seed: u64) -> Lcp {
    let mut rng = Rng::new(seed ^ 0x504d_4154);
    let mut m = gram(&mut rng, n, n, 0.1);
    for i in 0..n {
        for j in 0..i {
            let k = rng.uniform(-1.0, 1.0);
            m[(i, j)] += k;
            m[(j, i)] -= k;
        }
    }
    let q = (0..n).map(|_| rng.uniform(-1.0, 1.0)).collect();
    lcp(m, q)
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn normalize(v: [f64; 3]) -> [f64; 3] {
    let l = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt().max(1e-12);
    [v[0] / l, v[1] / l, v[2] / l]
}

/// A random contact problem: `⌊n/3⌋` (at least 1) contacts of `⌈contacts/4⌉`
/// boxes, resting on static ground or (every third contact) on the next box; rows `3c, 3c+1, 3c+2` are contact `c`'s normal and
/// two tangents, the tangents coupled to the normal with `μ = 0.5`.
#[must_use]
pub fn contact(n: usize, seed: u64) -> BoxedLcp {
    let mut rng = Rng::new(seed ^ 0x434f_4e54);
    let k = (n / 3).max(1);
    let bodies = k.div_ceil(4);
    let inv_mass: Vec<f64> = (0..bodies).map(|_| 1.0 / rng.uniform(1.0, 5.0)).collect();
    let inv_inertia: Vec<[f64; 3]> = (0..bodies)
        .map(|_| [0; 3].map(|_: i32| 1.0 / rng.uniform(0.2, 2.0)))
        .collect();
    // Each row: up to two (body, linear part, angular part) entries. Every third
    // contact (with more than one body) is between two bodies — body `c mod B` on top
    // of the next one — which couples the bodies' blocks of A.
    type Part = (usize, [f64; 3], [f64; 3]);
    let mut rows: Vec<(Part, Option<Part>)> = Vec::with_capacity(3 * k);
    for c in 0..k {
        let body = c % bodies;
        let below = (c % 3 == 2 && bodies > 1).then_some((body + 1) % bodies);
        let nrm = normalize([rng.uniform(-0.2, 0.2), 1.0, rng.uniform(-0.2, 0.2)]);
        let t1 = normalize(cross(nrm, [1.0, 0.0, 0.0]));
        let t2 = cross(nrm, t1);
        let r = [rng.uniform(-0.5, 0.5), -0.5, rng.uniform(-0.5, 0.5)];
        let r_below = [rng.uniform(-0.5, 0.5), 0.5, rng.uniform(-0.5, 0.5)];
        for d in [nrm, t1, t2] {
            let other = below.map(|o| {
                let neg = [-d[0], -d[1], -d[2]];
                (o, neg, cross(r_below, neg))
            });
            rows.push(((body, d, cross(r, d)), other));
        }
    }
    let m = rows.len();
    let mut a = Matrix::zeros(m, m);
    let term = |(bi, li, ai): Part, (bj, lj, aj): Part| -> f64 {
        if bi != bj {
            return 0.0;
        }
        let ii = inv_inertia[bi];
        let lin: f64 = (0..3).map(|x| li[x] * lj[x]).sum::<f64>() * inv_mass[bi];
        let ang: f64 = (0..3).map(|x| ai[x] * ii[x] * aj[x]).sum();
        lin + ang
    };
    for i in 0..m {
        for j in 0..m {
            let (pi, qi) = rows[i];
            let (pj, qj) = rows[j];
            let mut v = term(pi, pj);
            if let Some(qj) = qj {
                v += term(pi, qj);
            }
            if let Some(qi) = qi {
                v += term(qi, pj);
                if let Some(qj) = qj {
                    v += term(qi, qj);
                }
            }
            a[(i, j)] = v;
        }
    }
    let mut b = vec![0.0; m];
    let (mut lo, mut hi) = (vec![0.0; m], vec![f64::INFINITY; m]);
    let mut pairs = Vec::with_capacity(2 * k);
    for c in 0..k {
        b[3 * c] = -rng.uniform(0.05, 0.5);
        for t in 1..3 {
            b[3 * c + t] = rng.uniform(-0.3, 0.3);
            lo[3 * c + t] = f64::NEG_INFINITY;
            hi[3 * c + t] = f64::INFINITY;
            pairs.push(FrictionPair {
                t: 3 * c + t,
                n: 3 * c,
                mu: 0.5,
            });
        }
    }
    BoxedLcp::new(a, b, lo, hi)
        .and_then(|p| p.with_friction(pairs))
        .unwrap_or_else(|e| unreachable!("generator built an invalid problem: {e}"))
}
