//! Rows kept from one step to the next (`Settings::reuse_rows_within`).
//!
//! A step's rows are functions of the bodies' centres of mass and mass properties, the
//! manifolds' points and normals and the materials: `J_ang = r × d` with the lever arm
//! `r = p − c`, `T = M⁻¹Jᵀ`, `D = J·M⁻¹·Jᵀ`, the normal row's couplings with its friction
//! rows, the friction directions from the normal. Only their `b̃` also reads the
//! velocities and the separations. Between the solve substeps of one step thud already
//! keeps everything but `b̃` (`docs/dynamics.md`, *Solve substeps*): each body's
//! velocity without contact `Vnc` moves into its `dV` (`dV += Vnc_{k+1} − Vnc_k`), so
//! the rows' `b̃ = J̃·Vnc₀` stay right,
//!
//! ```text
//! b̃ + J̃·(Vnc_k − Vnc₀ + T·λ) = J̃·Vnc_k + J̃·T·λ,
//! ```
//!
//! and the normal rows' stabilization is made again from the new separations.
//!
//! A step boundary is the same move with the separations taken fresh from the
//! narrowphase, so a step may keep the rows where what they were made from has not
//! moved. Globally (else the step builds every row): the same settings, `h` and thread
//! count; the same awake and kinematic bodies in the same order with the same inverse
//! masses and inertias; the same manifolds (narrowphase index, bodies, friction,
//! restitution), each with as many points as at the build or with a count that still
//! fits its group's wide points (below) — taken as they are, without a look, while the
//! store keeps the number its last gather drew (`ContactStore::keys_still`: it has not
//! gathered since, only taken its points and normals again); no point bouncing, and no
//! overflow set or exact island but the exact mode's islands of the build in the
//! sequential order (what reads the store's scalar rows or sets velocities; those
//! islands' scalar rows are built anew every step, their bodies starting `dV` at zero
//! with their velocity without contact as it is now, as a build does); a warm-start
//! factor of 1 (the lanes' λ are the warm impulses as they are); at most [`MAX_AGE`] steps since
//! every row was built. (Joint rows are made anew every step, their old impulses
//! taken out of `dV` and their warm ones put in. A kinematic body's velocity of the
//! step goes into its `dV` as a dynamic body's velocity without contact does: no sweep
//! writes it there, and its rows read it.) Then, with `ε = reuse_rows_within`, a
//! manifold *moved* when its normal or a point's lever arm `p − c` on either body
//! changed by more than `ε` in any coordinate since its rows were built — what the rows
//! are made of: a stack that moves as one, points and bodies together, keeps them (a
//! first version compared the points and the centres themselves, and `pyramid_40`,
//! whose bodies move tens of micrometres a step, built its rows on every step; with the
//! lever arms it keeps them on 567 of 600). A manifold whose point count changed (a
//! point came or went, as in a settling heap) has new lever arms: its points take its
//! lane's first wide points (`WideContacts::lay_points`), it counts as moved, and the
//! others' recorded arms follow their points to their new places in the store
//! ([`RowReuse::relay`]); until the twenty-fifth session such a step built every row,
//! and `pile_1000` kept its rows on 40 of its 600 steps (68 since). The units (the
//! sweep's one or two groups of four manifolds) holding a manifold that moved — and
//! every unit with `T` blocks, which a body of another inertia than `c·1` turns as it
//! turns — are built again. The step:
//!
//! - takes each body's new `Vnc` into its `dV` (`dV` still holds `T·λ` of the last
//!   solve, the warm start, plus `Vnc_last − Vnc₀`): the rows then see
//!   `Vnc_new + T·λ_warm`, exactly what a fresh build with its warm start gives;
//! - for each unit built again, takes its old rows' `T·λ` out of `dV`, then builds its
//!   rows from the store and puts their warm impulses in, as the build does;
//! - writes each point's new separation into its lane and remakes the normal rows' `b̃`
//!   (`WideContacts::refresh` with no motion); starts the step's impulse sums and split
//!   λ at zero.
//!
//! Where more than half the units moved the step builds every row instead (a unit
//! built again costs more than one built with the others); then, and where the
//! manifolds changed, the next [`BACK_OFF`] steps build without looking, so a scene
//! that keeps moving pays for the look on one step in nine. The default `ε = 0.1 mm`
//! is a fifth of the narrowphase's own reuse distance (a pair keeps its manifold's
//! points while its relative pose moves less than 0.5 mm). Measured in
//! `docs/dynamics.md`, *Rows kept across steps*.

use glam::{Mat3, Quat, Vec3, Vec3A, Vec4};

use crate::contact::ContactStore;
use crate::jacobian::ManifoldInput;
use crate::settings::Settings;

/// Most steps the rows are kept before they are all built again.
pub(crate) const MAX_AGE: u32 = 64;

/// Steps that build all their rows, without looking, after one that found its
/// manifolds changed or too many of them moved to keep the rows.
pub(crate) const BACK_OFF: u32 = 8;

/// What the rows were last built from.
#[derive(Debug, Default)]
pub(crate) struct RowReuse {
    /// The settings, solve-substep `h` and thread count of the build, where its rows
    /// may be kept (`None`: the next step builds).
    built: Option<(Settings, f32, usize)>,
    /// Steps the rows have been kept since they were all built.
    age: u32,
    /// Steps still to build without looking ([`BACK_OFF`]).
    wait: u32,
    /// Each solver body's local inverse inertia at the build (index 0, the dummy,
    /// unused).
    inertia: Vec<Mat3>,
    /// Each solver body's orientation at the build (what a body in its own angular
    /// frame, `solver_body.rs`, made its frame from).
    rotations: Vec<Quat>,
    /// Each store manifold's narrowphase index, solver bodies and materials at the
    /// build.
    manifolds: Vec<(u32, u32, u32, f32, f32)>,
    /// The store's `keys_at` when `manifolds` last matched it (0: never): while the
    /// store keeps that number its manifolds are those ([`same_manifolds`](Self::same_manifolds)).
    keys_at: u64,
    /// The store's `keys_at` at the build (0: not known): while the store keeps it, its
    /// manifolds have the build's points and the exact mode takes the build's islands
    /// ([`same_exact`](Self::same_exact)).
    built_at: u64,
    /// Each store manifold's normal when its rows were built, and whether it then lay
    /// flat for a touching gap ([`flat`]).
    normals: Vec<(Vec3, bool)>,
    /// Each store point's lever arms `p − c` on its manifold's two bodies when its rows
    /// were built.
    arms: Vec<[Vec3A; 2]>,
    /// The store points of the islands the exact mode took at the build
    /// (`ContactStore::taken`).
    taken: Vec<bool>,
    /// Each store manifold's (first point, count) that `arms` and `taken` are laid out
    /// by: the build's, or a later step's that kept the rows through a changed count
    /// ([`relay`](Self::relay)).
    points: Vec<(u32, u32)>,
    /// Scratch for [`relay`](Self::relay).
    spare_arms: Vec<[Vec3A; 2]>,
    spare_taken: Vec<bool>,
}

impl RowReuse {
    /// Whether a step with these settings, `h` and threads may keep the rows, as far
    /// as the build tells: the bodies and manifolds are checked by
    /// [`same_inertia`](Self::same_inertia), [`same_manifolds`](Self::same_manifolds)
    /// and, one by one, [`moved`](Self::moved).
    pub(crate) fn may_keep(&mut self, s: &Settings, h: f32, threads: usize) -> bool {
        if self.wait > 0 {
            self.wait -= 1;
            return false;
        }
        self.age < MAX_AGE
            && self
                .built
                .as_ref()
                .is_some_and(|(bs, bh, bt)| *bh == h && *bt == threads && bs == s)
    }

    /// Whether solver body `i` has the local inverse inertia it had at the build.
    pub(crate) fn same_inertia(&self, i: usize, inv_inertia: Mat3) -> bool {
        self.inertia.get(i) == Some(&inv_inertia)
    }

    /// Whether solver body `i`'s orientation is within `eps` (in every component of
    /// its quaternion) of the build's: a body in its own angular frame keeps the
    /// build's frame, and its rows, while it turns less than that.
    pub(crate) fn same_rotation(&self, i: usize, q: Quat, eps: f32) -> bool {
        self.rotations.get(i).is_some_and(|&q0| {
            (Vec4::from(q) - Vec4::from(q0))
                .abs()
                .cmple(Vec4::splat(eps))
                .all()
        })
    }

    /// Whether the store's manifolds (narrowphase index, solver bodies, friction and
    /// restitution of each) are those of the build. A store whose `keys_at` is the one
    /// they were last found equal at has not gathered since (its points and normals
    /// taken again at most, `ContactStore::regather`): the same, without a look.
    pub(crate) fn same_manifolds(&mut self, store: &ContactStore) -> bool {
        if store.keys_still(self.keys_at) {
            return true;
        }
        let keys = keys(store);
        let same =
            keys.len() == self.manifolds.len() && keys.zip(&self.manifolds).all(|(k, m)| k == *m);
        self.keys_at = if same { store.keys_at } else { 0 };
        same
    }

    /// Whether the exact mode takes the islands it took at the build: the same
    /// manifolds (an island's points are all taken or none, so each manifold's first
    /// point tells, where point counts changed since).
    pub(crate) fn same_exact(&self, store: &ContactStore) -> bool {
        if store.keys_still(self.built_at) {
            return true;
        }
        if store.manifold_points == self.points {
            return store.taken == self.taken;
        }
        let taken = |t: &[bool], s: u32| t.get(s as usize).copied().unwrap_or(false);
        store.manifold_points.len() == self.points.len()
            && store
                .manifold_points
                .iter()
                .zip(&self.points)
                .all(|(&(s, _), &(s0, _))| taken(&store.taken, s) == taken(&self.taken, s0))
    }

    /// Lay `arms` and `taken` out by the store's points, where some manifolds' point
    /// counts changed since (the same manifolds, [`same_manifolds`](Self::same_manifolds)):
    /// a manifold of as many points keeps its arms, one of another count gets infinite
    /// ones, so that [`moved`](Self::moved) finds it moved and its rows are built again.
    /// Returns how many manifolds' counts changed.
    pub(crate) fn relay(&mut self, store: &ContactStore) -> usize {
        let mp = &store.manifold_points;
        if store.keys_still(self.built_at) || *mp == self.points {
            return 0;
        }
        let mut changed = 0;
        let mut arms = std::mem::take(&mut self.spare_arms);
        let mut taken = std::mem::take(&mut self.spare_taken);
        arms.clear();
        arms.resize(store.inputs.len(), [Vec3A::INFINITY; 2]);
        taken.clear();
        taken.resize(store.taken.len(), false);
        for (&(s, n), &(s0, n0)) in mp.iter().zip(&self.points) {
            let (s, s0) = (s as usize, s0 as usize);
            if n == n0 {
                let n = n as usize;
                arms[s..s + n].copy_from_slice(&self.arms[s0..s0 + n]);
            } else {
                changed += 1;
            }
            let t = self.taken.get(s0).copied().unwrap_or(false);
            if let Some(out) = taken.get_mut(s..s + n as usize) {
                out.fill(t);
            }
        }
        self.spare_arms = std::mem::replace(&mut self.arms, arms);
        self.spare_taken = std::mem::replace(&mut self.taken, taken);
        self.points.clear();
        self.points.extend_from_slice(mp);
        changed
    }

    /// Which of the store's manifolds moved more than `eps` (in any coordinate) since
    /// their rows were built (`out`, by manifold): the normal, or a point's lever arm
    /// on either body (`com`: the bodies' centres of mass now, by solver index) — what
    /// the rows are made of, so a stack that moves as one keeps them. The store has the
    /// build's manifolds and points ([`same_manifolds`](Self::same_manifolds)). With
    /// `halves`, on the step's two threads (`parallel::both`), each half of the
    /// manifolds on one.
    pub(crate) fn moved(
        &self,
        store: &ContactStore,
        com: &[Vec3],
        eps: f32,
        (out, halves): (&mut Vec<bool>, bool),
    ) {
        // Branch-free over a manifold's points, in SIMD registers: the largest change
        // of any coordinate (`maxps` of the absolute differences) against `eps`. An
        // early exit per point cost 3 % of a `pyramid_40` step, `f32::max` (which
        // minds NaN) 2 %.
        let slop = self.flat_within();
        /// A manifold's input and points, and its normal and flatness at the build.
        type Built<'a> = ((&'a ManifoldInput, &'a (u32, u32)), &'a (Vec3, bool));
        let moved = |((mi, &(first, n)), &(n0, flat0)): Built<'_>| {
            let r = first as usize..(first + n) as usize;
            let ca = Vec3A::from(com[mi.a as usize]);
            let cb = Vec3A::from(com[mi.b as usize]);
            let mut worst = (Vec3A::from(mi.normal) - Vec3A::from(n0)).abs();
            for (p, [a0, b0]) in store.inputs[r.clone()].iter().zip(&self.arms[r]) {
                let p = Vec3A::from(p.point);
                worst = worst
                    .max(((p - ca) - *a0).abs())
                    .max(((p - cb) - *b0).abs());
            }
            // (NaN cannot reach here: the bodies and points are finite.) A manifold
            // that came to lie flat, or ceased to, takes its touching gap anew.
            worst.cmpgt(Vec3A::splat(eps)).any() || flat(mi, slop) != flat0
        };
        let manifolds = || {
            store
                .manifold_inputs
                .iter()
                .zip(&store.manifold_points)
                .zip(&self.normals)
        };
        out.clear();
        if !halves {
            out.extend(manifolds().map(moved));
            return;
        }
        // Each manifold's answer is its own: two threads take half each.
        out.resize(store.manifold_inputs.len(), false);
        let mid = out.len() / 2;
        let (low, high) = out.split_at_mut(mid);
        crate::parallel::both(
            (low, 0),
            (high, mid),
            |(part, from): (&mut [bool], usize)| {
                for (o, m) in part.iter_mut().zip(manifolds().skip(from)) {
                    *o = moved(m);
                }
            },
        );
    }

    /// The store manifolds marked in `rebuilt` have just had their rows built again
    /// from the store, with the bodies' centres of mass `com`: their normals and lever
    /// arms as built (with `halves`, on the step's two threads).
    pub(crate) fn rebuilt(
        &mut self,
        store: &ContactStore,
        com: &[Vec3],
        rebuilt: &[bool],
        halves: bool,
    ) {
        self.take_arms(store, com, Some(rebuilt), halves);
    }

    /// The slop within which a manifold lies flat ([`flat`]), where the build has a
    /// touching gap.
    fn flat_within(&self) -> Option<f32> {
        self.built
            .as_ref()
            .filter(|(s, ..)| s.touching_gap > 0.0)
            .map(|(s, ..)| s.slop)
    }

    /// The normals and lever arms of the store's manifolds (`only`: those marked) as
    /// they are, with the bodies' centres of mass `com`. Each manifold's are its own:
    /// with `halves`, two threads take the manifolds of each half of the store
    /// (`parallel::both`), whose points lie apart.
    fn take_arms(
        &mut self,
        store: &ContactStore,
        com: &[Vec3],
        only: Option<&[bool]>,
        halves: bool,
    ) {
        let (mins, points) = (&store.manifold_inputs, &store.manifold_points);
        let slop = self.flat_within();
        type Part<'a> = (&'a mut [[Vec3A; 2]], &'a mut [(Vec3, bool)], usize, usize);
        let run = |(out, normals, from, to): Part<'_>| {
            let base = points.get(from).map_or(0, |&(first, _)| first as usize);
            let ms = mins[from..to].iter().zip(&points[from..to]).zip(normals);
            for (k, ((m, &(first, n)), normal)) in ms.enumerate() {
                if only.is_some_and(|o| !o.get(from + k).copied().unwrap_or(false)) {
                    continue;
                }
                *normal = (m.normal, flat(m, slop));
                let (ca, cb) = (com[m.a as usize], com[m.b as usize]);
                let r = first as usize..(first + n) as usize;
                let at = r.start - base..r.end - base;
                for (a, p) in out[at].iter_mut().zip(&store.inputs[r]) {
                    *a = arms(p.point, ca, cb);
                }
            }
        };
        let mid = points.len() / 2;
        match points.get(mid).filter(|_| halves) {
            Some(&(cut, _)) => {
                let (low, high) = self.arms.split_at_mut(cut as usize);
                let (nl, nh) = self.normals.split_at_mut(mid);
                let parts = ((low, nl, 0, mid), (high, nh, mid, points.len()));
                crate::parallel::both(parts.0, parts.1, run);
            }
            None => run((&mut self.arms[..], &mut self.normals[..], 0, points.len())),
        }
    }

    /// Solver body `i` took a new angular frame at orientation `q`.
    pub(crate) fn turned(&mut self, i: usize, q: Quat) {
        if let Some(r) = self.rotations.get_mut(i) {
            *r = q;
        }
    }

    /// The manifolds changed, or too many had moved to keep the rows: the next
    /// [`BACK_OFF`] steps build without looking.
    pub(crate) fn back_off(&mut self) {
        self.wait = BACK_OFF;
    }

    /// The rows were kept (some perhaps built again) for one more step.
    pub(crate) fn kept(&mut self) {
        self.age += 1;
    }

    /// The rows were all just built with these settings, `h` and threads, for bodies
    /// of these local inverse inertias and centres of mass `com` (by solver index) and
    /// the store's manifolds; `keepable` says whether a later step may keep them. With
    /// `halves`, on the step's two threads.
    pub(crate) fn record(
        &mut self,
        keepable: Option<(&Settings, f32, usize)>,
        inertia: impl Iterator<Item = (Mat3, Quat)>,
        com: &[Vec3],
        store: &ContactStore,
        halves: bool,
    ) {
        self.age = 0;
        self.inertia.clear();
        self.rotations.clear();
        self.manifolds.clear();
        (self.keys_at, self.built_at) = (0, 0);
        self.normals.clear();
        self.taken.clear();
        self.points.clear();
        // (A step that will not look needs nothing: only the step after a back-off's
        // last one copies.)
        let Some((s, h, threads)) = keepable.filter(|_| self.wait == 0) else {
            self.built = None;
            return;
        };
        match &mut self.built {
            // (The settings are cloned only when they changed: no allocation a step.)
            Some((bs, bh, bt)) if bs == s => (*bh, *bt) = (h, threads),
            built => *built = Some((s.clone(), h, threads)),
        }
        for (m, q) in inertia {
            self.inertia.push(m);
            self.rotations.push(q);
        }
        self.manifolds.extend(keys(store));
        (self.keys_at, self.built_at) = (store.keys_at, store.keys_at);
        self.normals
            .resize(store.manifold_inputs.len(), (Vec3::ZERO, false));
        self.arms.resize(store.inputs.len(), [Vec3A::ZERO; 2]);
        self.take_arms(store, com, None, halves);
        self.taken.extend(&store.taken);
        self.points.extend_from_slice(&store.manifold_points);
    }
}

/// Whether manifold `m` lies flat for a touching gap (`jacobian::flat_gap`): within
/// `slop`, where the build has a touching gap (`None`: it has none, and no manifold
/// counts as flat).
#[inline(always)]
fn flat(m: &ManifoldInput, slop: Option<f32>) -> bool {
    slop.is_some_and(|slop| crate::jacobian::lies_flat(m.spread, slop))
}

/// A point's lever arms on two bodies with these centres of mass.
#[inline]
fn arms(p: Vec3, ca: Vec3, cb: Vec3) -> [Vec3A; 2] {
    [Vec3A::from(p - ca), Vec3A::from(p - cb)]
}

/// Each store manifold's narrowphase index, solver bodies and materials.
fn keys(store: &ContactStore) -> impl ExactSizeIterator<Item = (u32, u32, u32, f32, f32)> + '_ {
    store
        .manifold_source
        .iter()
        .zip(&store.manifold_inputs)
        .map(|(&src, m)| (src, m.a, m.b, m.friction, m.restitution))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jacobian::{ManifoldInput, PointInput};

    /// A store of one manifold (solver bodies 1 and 2, normal `Y`) of two points.
    fn store() -> ContactStore {
        let mut store = ContactStore::default();
        store.manifold_inputs.push(ManifoldInput {
            a: 1,
            b: 2,
            normal: Vec3::Y,
            friction: 0.6,
            restitution: 0.0,
            spread: 0.0,
        });
        store.manifold_points.push((0, 2));
        store.manifold_source.push(7);
        for x in [-0.5, 0.5] {
            store.inputs.push(PointInput {
                point: Vec3::new(x, 0.0, 0.5),
                separation: 0.0,
                warm: [0.0; 3],
                manifold: 0,
            });
        }
        store
    }

    const COM: [Vec3; 3] = [
        Vec3::ZERO,
        Vec3::new(0.0, -0.5, 0.0),
        Vec3::new(0.0, 0.5, 0.0),
    ];

    fn built(store: &ContactStore) -> (RowReuse, Settings) {
        built_with(store, Settings::default())
    }

    fn built_with(store: &ContactStore, s: Settings) -> (RowReuse, Settings) {
        let mut r = RowReuse::default();
        let inertia = [Mat3::ZERO, Mat3::IDENTITY, Mat3::IDENTITY];
        r.record(
            Some((&s, 0.25, 1)),
            inertia.into_iter().map(|m| (m, Quat::IDENTITY)),
            &COM,
            store,
            false,
        );
        (r, s)
    }

    /// Whether the store's one manifold moved, asked whole and in two halves (the
    /// same answer either way).
    fn moved(r: &RowReuse, store: &ContactStore, com: &[Vec3]) -> bool {
        let (mut whole, mut halves) = (Vec::new(), Vec::new());
        r.moved(store, com, 1e-4, (&mut whole, false));
        r.moved(store, com, 1e-4, (&mut halves, true));
        assert_eq!(whole.len(), 1);
        assert_eq!(whole, halves, "whole and in halves alike");
        whole[0]
    }

    #[test]
    fn a_manifold_moved_when_a_lever_arm_or_its_normal_moved_beyond_the_distance() {
        let mut s = store();
        let (mut r, _) = built(&s);
        assert!(!moved(&r, &s, &COM));
        s.inputs[1].point.x += 0.9e-4;
        assert!(!moved(&r, &s, &COM));
        s.inputs[1].point.x += 0.2e-4;
        assert!(moved(&r, &s, &COM), "a point");
        s.inputs[1].point.x -= 0.2e-4;
        s.manifold_inputs[0].normal = (Vec3::Y + Vec3::X * 1.1e-4).normalize();
        assert!(moved(&r, &s, &COM), "the normal");
        s.manifold_inputs[0].normal = Vec3::Y;
        let mut com = COM;
        com[2].z += 1.1e-4;
        assert!(moved(&r, &s, &com), "a body under its points");
        // The points and both bodies moved together: the same lever arms, the same rows.
        let shift = Vec3::new(0.3, -0.2, 0.1);
        let mut shifted = s.clone();
        for p in &mut shifted.inputs {
            p.point += shift;
        }
        let together = [COM[0], COM[1] + shift, COM[2] + shift];
        assert!(!moved(&r, &shifted, &together));
        // Built again where it is now, it has not moved from there.
        r.rebuilt(&s, &com, &[true], false);
        assert!(!moved(&r, &s, &com));
    }

    #[test]
    fn a_manifold_that_comes_to_lie_flat_or_ceases_to_moved_where_there_is_a_touching_gap() {
        // Its points' separations within the slop of each other, the touching gap
        // holds its sticking points (`jacobian::flat_gap`): the build's lanes know it,
        // so a change either way builds them again.
        let mut s = store();
        let ungapped = Settings {
            touching_gap: 0.0,
            ..Settings::default()
        };
        for (settings, counts) in [(ungapped, false), (Settings::default(), true)] {
            s.manifold_inputs[0].spread = 0.0;
            let (mut r, settings) = built_with(&s, settings);
            s.manifold_inputs[0].spread = settings.slop;
            assert!(!moved(&r, &s, &COM), "still flat");
            s.manifold_inputs[0].spread = 1.01 * settings.slop;
            assert_eq!(moved(&r, &s, &COM), counts, "tilted past the slop");
            r.rebuilt(&s, &COM, &[true], false);
            assert!(!moved(&r, &s, &COM), "built again tilted");
            s.manifold_inputs[0].spread = 0.5 * settings.slop;
            assert_eq!(moved(&r, &s, &COM), counts, "flat again");
        }
    }

    #[test]
    fn the_rows_are_kept_only_for_the_build_settings_and_not_too_long() {
        let store = store();
        let (mut r, s) = built(&store);
        assert!(r.may_keep(&s, 0.25, 1));
        assert!(!r.may_keep(&s, 0.125, 1), "another h");
        assert!(!r.may_keep(&s, 0.25, 2), "another thread count");
        let other = Settings {
            erp: 0.2,
            ..s.clone()
        };
        assert!(!r.may_keep(&other, 0.25, 1), "other settings");
        for _ in 0..MAX_AGE {
            assert!(r.may_keep(&s, 0.25, 1));
            r.kept();
        }
        assert!(!r.may_keep(&s, 0.25, 1), "too old");
        r.record(None, std::iter::empty(), &[], &store, false);
        assert!(!r.may_keep(&s, 0.25, 1), "not keepable");
    }

    #[test]
    fn after_too_many_moved_the_next_steps_build_without_looking() {
        let store = store();
        let (mut r, s) = built(&store);
        r.back_off();
        let inertia = [Mat3::ZERO, Mat3::IDENTITY, Mat3::IDENTITY];
        for _ in 0..BACK_OFF {
            assert!(!r.may_keep(&s, 0.25, 1));
            r.record(
                Some((&s, 0.25, 1)),
                inertia.into_iter().map(|m| (m, Quat::IDENTITY)),
                &COM,
                &store,
                false,
            );
        }
        assert!(r.may_keep(&s, 0.25, 1));
    }

    #[test]
    fn the_bodies_and_manifolds_must_be_those_of_the_build() {
        let mut store = store();
        let (mut r, _) = built(&store);
        assert!(r.same_inertia(1, Mat3::IDENTITY));
        assert!(!r.same_inertia(1, Mat3::IDENTITY * 2.0));
        assert!(!r.same_inertia(3, Mat3::IDENTITY));
        assert!(r.same_manifolds(&store));
        store.manifold_inputs[0].friction = 0.5;
        assert!(!r.same_manifolds(&store), "another friction");
        store.manifold_inputs[0].friction = 0.6;
        store.manifold_source[0] = 8;
        assert!(!r.same_manifolds(&store), "another narrowphase manifold");
    }

    /// A store that has not gathered since the build (the same `keys_at`) has its
    /// manifolds and points without a look; one that gathered is compared, and where it
    /// gathered the same manifolds, the next look at that number is free again.
    #[test]
    fn a_store_that_kept_its_keys_number_keeps_its_manifolds() {
        let mut store = store();
        store.keys_at = crate::contact::next_keys();
        let (mut r, _) = built(&store);
        assert!(r.same_manifolds(&store) && r.same_exact(&store));
        assert_eq!(r.relay(&store), 0);
        // Gathered again, the same manifolds: compared, and found the same.
        store.keys_at = crate::contact::next_keys();
        assert!(r.same_manifolds(&store) && r.same_exact(&store));
        // Gathered again with another friction: compared, and found changed.
        store.keys_at = crate::contact::next_keys();
        store.manifold_inputs[0].friction = 0.5;
        assert!(!r.same_manifolds(&store));
        assert!(!r.same_manifolds(&store), "no number vouches for it");
    }

    #[test]
    fn a_manifold_whose_point_count_changed_moved_and_the_others_keep_their_arms() {
        // Two manifolds of two points each, the second's taken by the exact mode.
        let mut s = store();
        s.manifold_inputs.push(s.manifold_inputs[0]);
        s.manifold_source.push(8);
        s.manifold_points.push((2, 2));
        for x in [-0.5, 0.5] {
            s.inputs.push(PointInput {
                point: Vec3::new(x, 0.0, -0.5),
                separation: 0.0,
                warm: [0.0; 3],
                manifold: 1,
            });
        }
        s.taken = vec![false, false, true, true];
        let (mut r, _) = built(&s);
        let moved = |r: &RowReuse, s: &ContactStore| {
            let (mut whole, mut halves) = (Vec::new(), Vec::new());
            r.moved(s, &COM, 1e-4, (&mut whole, false));
            r.moved(s, &COM, 1e-4, (&mut halves, true));
            assert_eq!(whole, halves, "whole and in halves alike");
            whole
        };
        assert_eq!(r.relay(&s), 0);
        assert_eq!(moved(&r, &s), [false, false]);
        // The first loses a point: the second's points move up the store.
        s.inputs.remove(1);
        s.manifold_points = vec![(0, 1), (1, 2)];
        s.taken = vec![false, true, true];
        assert!(r.same_manifolds(&s));
        assert!(
            r.same_exact(&s),
            "the same manifolds taken, by their points"
        );
        s.taken = vec![true, false, false];
        assert!(!r.same_exact(&s), "other manifolds taken");
        s.taken = vec![false, true, true];
        assert_eq!(r.relay(&s), 1);
        assert_eq!(moved(&r, &s), [true, false], "the one whose count changed");
        // The second's arms followed its points: a point moved beyond the distance is
        // seen, at its new place in the store.
        s.inputs[2].point.x += 1.1e-4;
        assert_eq!(moved(&r, &s), [true, true]);
        s.inputs[2].point.x -= 1.1e-4;
        // Built again, the first has not moved; a second relay changes nothing.
        r.rebuilt(&s, &COM, &[true, false], false);
        assert_eq!(r.relay(&s), 0);
        assert_eq!(moved(&r, &s), [false, false]);
        assert!(r.same_exact(&s));
    }

    #[test]
    fn the_arms_recorded_in_two_halves_are_those_recorded_whole() {
        // Three manifolds of 2, 3 and 1 points on bodies 1 and 2, then 2 and 1.
        let mut store = ContactStore::default();
        for (m, (a, b, n)) in [(1, 2, 2), (2, 1, 3), (1, 2, 1)].into_iter().enumerate() {
            let first = store.inputs.len() as u32;
            store.manifold_inputs.push(ManifoldInput {
                a,
                b,
                normal: Vec3::Y,
                friction: 0.6,
                restitution: 0.0,
                spread: 0.0,
            });
            store.manifold_points.push((first, n));
            store.manifold_source.push(m as u32);
            for k in 0..n {
                store.inputs.push(PointInput {
                    point: Vec3::new(k as f32, m as f32, 0.5),
                    separation: 0.0,
                    warm: [0.0; 3],
                    manifold: m as u32,
                });
            }
        }
        let s = Settings::default();
        let inertia = [Mat3::ZERO, Mat3::IDENTITY, Mat3::IDENTITY];
        let mut r = RowReuse::default();
        let mut arms = Vec::new();
        for halves in [false, true, false] {
            r.record(
                Some((&s, 0.25, 1)),
                inertia.into_iter().map(|m| (m, Quat::IDENTITY)),
                &COM,
                &store,
                halves,
            );
            arms.push(r.arms.clone());
        }
        assert_eq!(arms[0].len(), 6);
        // (Point 3: the second of manifold 1, at (1, 1, 0.5), on bodies 2 then 1.)
        assert_eq!(
            arms[0][3],
            [Vec3A::new(1.0, 0.5, 0.5), Vec3A::new(1.0, 1.5, 0.5)]
        );
        assert_eq!(arms[1], arms[0], "halves against whole");
        assert_eq!(arms[2], arms[0], "whole again over the halves' array");
        // The bodies moved and manifolds 0 and 2 were built again: their points' arms
        // and normals follow, whole or in halves, and manifold 1's stay.
        let com = [COM[0], COM[1] + Vec3::X, COM[2] - Vec3::Z];
        let mut moved = store.clone();
        for m in &mut moved.manifold_inputs {
            m.normal = Vec3::X;
        }
        let mut after = Vec::new();
        for halves in [false, true] {
            let (mut r, _) = built(&store);
            r.rebuilt(&moved, &com, &[true, false, true], halves);
            after.push((r.arms.clone(), r.normals.clone()));
        }
        let (arms_after, normals) = &after[0];
        // (Their points' separations alike, each lies flat, which the rows note where
        // there is a touching gap, as at the defaults.)
        let flat = Settings::default().touching_gap > 0.0;
        assert_eq!(
            normals,
            &[(Vec3::X, flat), (Vec3::Y, flat), (Vec3::X, flat)]
        );
        assert_eq!(arms_after[2..5], arms[0][2..5], "manifold 1 untouched");
        assert_eq!(
            arms_after[0][0],
            Vec3A::from(store.inputs[0].point - com[1])
        );
        assert_eq!(
            arms_after[5][1],
            Vec3A::from(store.inputs[5].point - com[2])
        );
        assert_eq!(after[1], after[0], "halves against whole");
    }
}
