//! A cold step's warm start from statics: the weight carried down a resting stack
//! before the first sweep.
//!
//! A scene built resting (a stack, a pyramid) starts with no impulses to warm-start
//! from. Each sweep then carries its weight about one row further down, so for its
//! first steps the upper rows sink into the ones below before the base carries them,
//! and the split pass lifts them back out afterwards: `pyramid_40` regained 112 J after
//! that first dip (Rapier 13 J), though it came to rest stiffer.
//!
//! In an island at least a tenth of whose supports are new ([`COLD_PART`]: they
//! carried nothing last step) — a scene's first step, a stack built into a world
//! already running, or onto a structure already standing there — this pass guesses
//! each resting contact's normal impulse from the top down, as the statics
//! of the structure give it: bodies in order of height (`com·up`, `up = −ĝ`),
//! each body `u` stopped on its supports — the manifolds where it lies on another body
//! `l` (the push on `u`, `d = ±n`, within 45° of `up`) — with `l` held still:
//!
//! ```text
//!   v_u, ω_u  = u's velocity at the step's start, + h·g, + the loads of the bodies above
//!   repeat:   for each support point (lever arm r = p − c_u):
//!               v_n = d·(v_u + ω_u × r)        k = 1/m_u + (r × d)·I_u⁻¹(r × d)
//!               λ  ← max(0, λ + (v_min − v_n)/k),   v_min = −max(s, 0)/h
//!               v_u += d·Δλ/m_u,   ω_u += I_u⁻¹(r × d)·Δλ
//!   then      each λ pushes l down: v_l −= d·λ/m_l,  ω_l −= I_l⁻¹(r_l × d)·λ
//! ```
//!
//! Each body's impulses are then spread as evenly over its supports as the same push
//! allows ([`ColdStart::spread`]), and the body stopped again from there. Only what
//! stands on something fixed is guessed (a body on a fixed or kinematic body, or on a
//! body that stands itself), and only manifolds whose bodies meet no faster than
//! gravity brings them together over one step (`−v_n ≤ |g|·dt` at the step's
//! velocities): a falling or spinning body's impact keeps its cold start.
//!
//! Once every body has been stopped on its supports, every body is at rest: the
//! impulses are a solution of the step's normal rows (without friction), which the
//! sweeps then start from. In an island that was partly standing, its warm supports
//! take their statics' impulses too, so the base carries the new weight from the
//! first step: a 30-row pyramid whose upper 25 rows are built on five that have
//! stood a second carries its whole weight at once and its top does not sink (cold
//! above a warm base, the ground carried 0.36 of it at first and its top sank 11 mm
//! in a second). The pass is serial, in the order of the heights and the
//! store, so the bits are the same on any pool. It costs its step 0.4 ms on
//! `pyramid_20`, 1.5 ms on `pyramid_40` and `pyramid3d_10`, and 9 ms on `pyramid_100`
//! (the Intel Xeon host), once.

use glam::{Mat3, Vec3};

use crate::body::{BodyKind, BodySet, com_at};
use crate::contact::ContactStore;
use crate::solver_body::SolverBodies;

/// A step's points are nearly all cold where fewer than one in this many starts warm
/// (a scene's first step): then the islands are looked at whatever the arming.
pub(crate) const COLD_SHARE: usize = 100;

/// An island is guessed where at least one of its supports (manifolds whose normal is
/// within 45° of the vertical) in this many carried nothing last step: new contacts.
const COLD_PART: usize = 10;

/// For this many steps after colliders were added or removed, or sleeping islands
/// woke, the islands are looked at one by one ([`ColdStart::cold_islands`]); else only
/// a step whose points are nearly all cold is. (Counting a settling heap's warm points
/// island by island on every step cost it 13–17 µs a step: its 4 400 points' inputs
/// are read back from beyond the core's cache.)
const ARMED_STEPS: u32 = 2;

/// At most this many passes over a body's supports.
const PASSES: usize = 500;

/// A body's passes end once no impulse changed by more than this share of their sum.
/// A body near the base of a tall structure carries the weight of those above it, and
/// the share is of that: at 10⁻⁵ the base of `pyramid_100` kept about a millimetre a
/// second and the wall sank 3 mm in its first half second (and `pyramid_40` gained
/// 0.01 J at 10⁻⁴); at 10⁻⁷ it stands still for two seconds.
const TOLERANCE: f32 = 1e-7;

/// At most this many sweeps of the projections that spread a body's push, and how
/// close (a share of its largest component) they must come to it.
const SPREAD_PASSES: usize = 200;
const SPREAD_TOLERANCE: f32 = 1e-5;

/// One body in the pass: its velocity, inverse mass and world inverse inertia (zero
/// for a body that does not move), and its centre of mass.
#[derive(Debug, Clone, Copy)]
struct State {
    v: Vec3,
    w: Vec3,
    inv_mass: f32,
    inv_inertia: Mat3,
    com: Vec3,
}

/// A support point's normal row on its upper body alone.
#[derive(Debug, Clone, Copy)]
struct Support {
    /// The store's point.
    point: usize,
    /// The push's direction on the upper body (`±n`).
    d: Vec3,
    /// `r × d` and `I⁻¹·(r × d)` of the upper body.
    rd: Vec3,
    t: Vec3,
    /// The least normal velocity, `−max(s, 0)/h`: a gap may close over the substep,
    /// no more.
    v_min: f32,
    inv_k: f32,
}

/// The pass's scratch, kept by the world so that a cold step allocates only while it
/// grows.
#[derive(Debug, Default, Clone)]
pub(crate) struct ColdStart {
    state: Vec<State>,
    /// (−height, upper body, manifold, sign of the push along the normal).
    supports: Vec<(f32, u32, u32, f32)>,
    points: Vec<Support>,
    lambda: Vec<f32>,
    /// Scratch of [`spread`](Self::spread).
    even: Vec<f32>,
    /// Each body stands on something fixed, through its supports.
    grounded: Vec<bool>,
    /// Per island root (a body slot): its points, and of them the warm ones; then
    /// whether it is cold and stands still ([`ColdStart::cold_islands`]).
    counts: Vec<(u32, u32)>,
    /// The colliders' generation and the world's count of wakes last seen, and the
    /// steps left to look at the islands one by one ([`ARMED_STEPS`]).
    generation: Option<(u64, u64)>,
    armed: u32,
}

impl ColdStart {
    /// Marks the store's islands that are cold and stand still for
    /// [`guess`](Self::guess), and says whether there is one. An island is cold where
    /// at least one of its supports in [`COLD_PART`] is new: all its points carried
    /// nothing last step. (Supports only: the side contacts of a resting row carry
    /// nothing, and so do the rising points of a wall that rocks, whose supports still
    /// carry it on their other points.) `slots` bounds the island roots (body slots);
    /// `gravity` gives the vertical, and with `dt`, the step's, the speed below which
    /// the island stands. It looks island by island only for [`ARMED_STEPS`] steps
    /// after the colliders' generation or the world's count of wakes changed
    /// (`generation`: bodies built into the world, sleeping islands woken), or on a
    /// step whose points are nearly all cold (a scene's first step); otherwise, and
    /// where no point is cold, it costs no pass over the points.
    ///
    /// An island stands still where at none of its points do its bodies move faster
    /// than `|g|·dt` (what gravity gives over a step) against each other
    /// at the step's start velocities. A structure built resting does; boxes tumbling
    /// into fresh contacts in a settling heap do not, and their statics would be a poor
    /// guess (guessed, `pile_1000` ended its 10 s with 5 bodies moving and regained
    /// 0.37 J instead of 0.03; its pinned hash holds it). Impacts aside: a manifold
    /// where a body meets the island faster than that keeps its cold start
    /// (`supports`), and the rest may stand (a box dropped on a sleeping pyramid wakes
    /// it, and the pyramid is guessed).
    pub(crate) fn cold_islands(
        &mut self,
        store: &ContactStore,
        solver: &SolverBodies,
        (slots, (gravity, dt), generation): (usize, (Vec3, f32), (u64, u64)),
    ) -> bool {
        if self.generation != Some(generation) {
            (self.generation, self.armed) = (Some(generation), ARMED_STEPS);
        }
        let armed = self.armed > 0;
        self.armed = self.armed.saturating_sub(1);
        let points = store.inputs.len();
        let all_cold = store.warm_started * COLD_SHARE < points;
        let g = gravity.length();
        if store.warm_started >= points || !(armed || all_cold) || g <= 0.0 {
            return false;
        }
        let (up, threshold) = (-gravity / g, g * dt);
        self.counts.clear();
        self.counts.resize(slots, (0, 0));
        let manifolds = || store.manifold_points.iter().zip(&store.manifold_island);
        for ((&(first, n), &root), mi) in manifolds().zip(&store.manifold_inputs) {
            // (Only supports count: a side contact in a resting row carries nothing.)
            if mi.normal.dot(up).abs() < std::f32::consts::FRAC_1_SQRT_2 {
                continue;
            }
            let points = &store.inputs[first as usize..(first + n) as usize];
            let new = points.iter().all(|p| p.warm[0] == 0.0);
            if let Some(c) = self.counts.get_mut(root as usize) {
                *c = (c.0 + 1, c.1 + u32::from(new));
            }
        }
        let mut any = false;
        for c in &mut self.counts {
            // (From here `c.1` says whether the island is cold and, below, still.)
            let cold = c.0 > 0 && (c.1 as usize) * COLD_PART >= c.0 as usize;
            c.1 = u32::from(cold);
            any |= cold;
        }
        if !any {
            return false;
        }
        let velocity = |k: u32, p: Vec3| {
            let (u, c) = (solver.v0[k as usize], solver.com[k as usize]);
            u.lin + u.ang.cross(p - c)
        };
        for ((&(first, n), &root), mi) in manifolds().zip(&store.manifold_inputs) {
            let Some(c) = self.counts.get_mut(root as usize) else {
                continue;
            };
            if c.1 != 1 {
                continue;
            }
            let points = &store.inputs[first as usize..(first + n) as usize];
            let relative =
                |p: &crate::jacobian::PointInput| velocity(mi.b, p.point) - velocity(mi.a, p.point);
            // (An impact, a body meeting the island faster than gravity brings it, is
            // left out: the guess keeps its cold start, and the rest may stand.)
            let impact = points
                .iter()
                .any(|p| mi.normal.dot(relative(p)) < -threshold);
            let fast = points.iter().any(|p| relative(p).length() > threshold);
            if fast && !impact {
                c.1 = 0;
            }
        }
        self.counts.iter().any(|c| c.1 == 1)
    }

    /// Whether the island with this root is cold and stands still
    /// ([`cold_islands`](Self::cold_islands)).
    fn island_is_cold(&self, root: u32) -> bool {
        self.counts.get(root as usize).is_some_and(|c| c.1 == 1)
    }

    /// Writes the statics' normal impulses into the warm start of the cold resting
    /// points of the store's cold islands ([`cold_islands`](Self::cold_islands), called
    /// first; module notes), but for the manifolds the exact mode takes (`store.taken`),
    /// which it solves exactly. `h` is the first solve substep's,
    /// `dt` the step's: manifolds whose bodies meet faster than gravity brings them
    /// over a step (`|g|·dt`) keep their cold start.
    pub(crate) fn guess(
        &mut self,
        store: &mut ContactStore,
        solver: &SolverBodies,
        bodies: &BodySet,
        (gravity, h, dt): (Vec3, f32, f32),
    ) {
        let g = gravity.length();
        if !(g > 0.0 && h > 0.0) {
            return;
        }
        let up = -gravity / g;
        self.bodies(solver, bodies);
        self.supports(store, up, g * dt);
        if self.supports.is_empty() {
            return;
        }
        // Gravity over the first solve substep.
        for (s, &slot) in self.state.iter_mut().zip(&solver.body) {
            if s.inv_mass > 0.0 {
                s.v += gravity * (bodies.slot(slot).gravity_scale * h);
            }
        }
        let mut i = 0;
        while i < self.supports.len() {
            let u = self.supports[i].1 as usize;
            let end = i + self.supports[i..]
                .iter()
                .take_while(|x| x.1 as usize == u)
                .count();
            self.rows(store, u, i..end, h);
            let start = (self.state[u].v, self.state[u].w);
            self.lambda.clear();
            self.lambda.resize(self.points.len(), 0.0);
            self.stop(u, start);
            if self.spread() {
                // (Stopped again from the spread impulses: the projections meet the
                // push only to `SPREAD_TOLERANCE`.)
                self.stop(u, start);
            }
            // The loads onto the bodies below, and the guesses into the warm start.
            for (q, &l) in self.points.iter().zip(&self.lambda) {
                let input = &mut store.inputs[q.point];
                let mi = &store.manifold_inputs[input.manifold as usize];
                let lower = if mi.b as usize == u { mi.a } else { mi.b } as usize;
                let sl = &mut self.state[lower];
                if sl.inv_mass > 0.0 {
                    let r = input.point - sl.com;
                    sl.v -= q.d * (l * sl.inv_mass);
                    sl.w -= sl.inv_inertia * r.cross(q.d) * l;
                }
                input.warm[0] = l;
            }
            i = end;
        }
    }

    /// Each solver body's state at the step's start (the dummy 0 and kinematic bodies
    /// do not move).
    fn bodies(&mut self, solver: &SolverBodies, bodies: &BodySet) {
        self.state.clear();
        self.state.extend(solver.body.iter().map(|&slot| {
            let still = State {
                v: Vec3::ZERO,
                w: Vec3::ZERO,
                inv_mass: 0.0,
                inv_inertia: Mat3::ZERO,
                com: Vec3::ZERO,
            };
            if slot == u32::MAX {
                return still;
            }
            let b = bodies.slot(slot);
            let com = com_at(&b.pose, b.local_com);
            let (v, w) = (b.linear_velocity, b.angular_velocity);
            if b.kind != BodyKind::Dynamic || b.inv_mass <= 0.0 {
                return State { v, w, com, ..still };
            }
            let rot = Mat3::from_quat(b.pose.rotation);
            State {
                v,
                w,
                inv_mass: b.inv_mass,
                inv_inertia: crate::integrate::to_world(rot, b.inv_inertia_local),
                com,
            }
        }));
    }

    /// The manifolds of the cold islands on which a movable body lies (the push on it
    /// within 45° of `up`), new or warm, whose points meet no faster than `threshold`,
    /// highest body first, a body's together in store order.
    fn supports(&mut self, store: &ContactStore, up: Vec3, threshold: f32) {
        self.supports.clear();
        let state = &self.state;
        for (m, mi) in store.manifold_inputs.iter().enumerate() {
            let along = mi.normal.dot(up);
            let (upper, lower, sign) = if along >= std::f32::consts::FRAC_1_SQRT_2 {
                (mi.b, mi.a, 1.0)
            } else if along <= -std::f32::consts::FRAC_1_SQRT_2 {
                (mi.a, mi.b, -1.0)
            } else {
                continue;
            };
            let (su, sl) = (&state[upper as usize], &state[lower as usize]);
            let (first, n) = store.manifold_points[m];
            let taken = store.taken.get(first as usize).copied().unwrap_or(false);
            let cold = store
                .manifold_island
                .get(m)
                .is_some_and(|&root| self.island_is_cold(root));
            if su.inv_mass == 0.0 || taken || !cold {
                continue;
            }
            let d = mi.normal * sign;
            let slow = store.inputs[first as usize..(first + n) as usize]
                .iter()
                .all(|p| {
                    let (ru, rl) = (p.point - su.com, p.point - sl.com);
                    let vn = d.dot(su.v + su.w.cross(ru) - sl.v - sl.w.cross(rl));
                    vn >= -threshold
                });
            if slow {
                self.supports.push((-su.com.dot(up), upper, m as u32, sign));
            }
        }
        self.supports
            .sort_unstable_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)).then(x.2.cmp(&y.2)));
        // Only what stands on something that does not fall: from the lowest body up,
        // a support counts where its lower body is fixed (or kinematic) or stands
        // itself. (Two boxes falling together touch, but neither carries the other.)
        self.grounded.clear();
        self.grounded.resize(self.state.len(), false);
        for x in self.supports.iter_mut().rev() {
            let (upper, m) = (x.1 as usize, x.2 as usize);
            let mi = &store.manifold_inputs[m];
            let lower = if mi.b as usize == upper { mi.a } else { mi.b } as usize;
            if self.state[lower].inv_mass == 0.0 || self.grounded[lower] {
                self.grounded[upper] = true;
            } else {
                x.2 = u32::MAX;
            }
        }
        self.supports.retain(|x| x.2 != u32::MAX);
    }

    /// Body `u`'s support rows (`supports[range]`), each on `u` alone.
    fn rows(&mut self, store: &ContactStore, u: usize, range: std::ops::Range<usize>, h: f32) {
        let su = self.state[u];
        self.points.clear();
        for &(_, _, m, sign) in &self.supports[range] {
            let mi = &store.manifold_inputs[m as usize];
            let d = mi.normal * sign;
            let lower = if mi.b as usize == u { mi.a } else { mi.b } as usize;
            // (A kinematic body below carries `u` along; one that moves is held to its
            // velocity, not to rest.)
            let sl = self.state[lower];
            let fixed = sl.inv_mass == 0.0;
            let (first, n) = store.manifold_points[m as usize];
            let points = first as usize..(first + n) as usize;
            for (k, p) in points.clone().zip(&store.inputs[points]) {
                let carried = if fixed {
                    d.dot(sl.v + sl.w.cross(p.point - sl.com))
                } else {
                    0.0
                };
                let rd = (p.point - su.com).cross(d);
                let t = su.inv_inertia * rd;
                let kk = su.inv_mass + rd.dot(t);
                if kk > 0.0 {
                    self.points.push(Support {
                        point: k,
                        d,
                        rd,
                        t,
                        v_min: carried - p.separation.max(0.0) / h,
                        inv_k: 1.0 / kk,
                    });
                }
            }
        }
    }

    /// Body `u` stopped on its support rows, its lower bodies held still: projected
    /// Gauss-Seidel over `u`'s rows alone, from the impulses in `lambda` and the
    /// velocity `start` plus what they push, until the impulses settle.
    fn stop(&mut self, u: usize, start: (Vec3, Vec3)) {
        let s = &mut self.state[u];
        let (mut v, mut w) = start;
        for (q, &l) in self.points.iter().zip(&self.lambda) {
            v += q.d * (l * s.inv_mass);
            w += q.t * l;
        }
        for _ in 0..PASSES {
            let (mut change, mut total) = (0.0f32, 0.0f32);
            for (q, l) in self.points.iter().zip(self.lambda.iter_mut()) {
                let vn = q.d.dot(v) + q.rd.dot(w);
                let new = (*l + (q.v_min - vn) * q.inv_k).max(0.0);
                let dl = new - *l;
                *l = new;
                change = change.max(dl.abs());
                total += new;
                v += q.d * (dl * s.inv_mass);
                w += q.t * dl;
            }
            if change <= TOLERANCE * total {
                break;
            }
        }
        (s.v, s.w) = (v, w);
    }

    /// The same push on the body spread as evenly as its supports allow: of the
    /// impulses `λ ≥ 0` with the same net push `A·λ = f` (`A`'s columns `(dᵢ, rᵢ × dᵢ)`,
    /// six rows), the one of least norm, found by Kaczmarz's row projections from zero
    /// (each sweep ending on `λ ≥ 0`). Gauss-Seidel's own answer leans on the points
    /// it meets first: a box on two others took more on one side of each support than
    /// on the other, a twist the rigid rows cannot see, which the boxes below carried
    /// down and which set the stack moving once a box above it went. Kept where the
    /// projections do not meet `f`; says whether it spread them.
    fn spread(&mut self) -> bool {
        let n = self.points.len();
        if n < 2 {
            return false;
        }
        let row = |q: &Support, j: usize| {
            if j < 3 { q.d[j] } else { q.rd[j - 3] }
        };
        let mut f = [0.0f32; 6];
        for (q, &l) in self.points.iter().zip(&self.lambda) {
            for (j, fj) in f.iter_mut().enumerate() {
                *fj += row(q, j) * l;
            }
        }
        let norms: [f32; 6] =
            std::array::from_fn(|j| self.points.iter().map(|q| row(q, j) * row(q, j)).sum());
        let scale = f.iter().map(|x| x.abs()).fold(0.0, f32::max);
        if scale <= 0.0 || !scale.is_finite() {
            return false;
        }
        let even = &mut self.even;
        even.clear();
        even.resize(n, 0.0);
        let points = &self.points;
        // How far the push of `even` falls short of `f` in row `j`.
        let residual = |even: &[f32], j: usize| -> f32 {
            let dot: f32 = points.iter().zip(even).map(|(q, &l)| row(q, j) * l).sum();
            f[j] - dot
        };
        for _ in 0..SPREAD_PASSES {
            for (j, &norm) in norms.iter().enumerate() {
                if norm <= f32::EPSILON * scale {
                    continue;
                }
                let step = residual(even, j) / norm;
                for (q, l) in points.iter().zip(even.iter_mut()) {
                    *l += step * row(q, j);
                }
            }
            even.iter_mut().for_each(|l| *l = l.max(0.0));
            let worst = (0..6).map(|j| residual(even, j).abs()).fold(0.0, f32::max);
            if worst <= SPREAD_TOLERANCE * scale {
                std::mem::swap(&mut self.lambda, even);
                return true;
            }
        }
        false
    }
}
