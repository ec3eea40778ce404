//! The narrowphase with its persistent manifold cache.
//!
//! Each step the caller hands [`NarrowPhase::update`] the broadphase pairs and
//! the world shapes and poses indexed by collider slot. For every pair the
//! manifolds are computed afresh ([`crate::contact_manifolds`]); then each new
//! manifold is matched to last step's manifold with the same key
//! `(a, b, sub_a, sub_b)`, and each new point to an old point:
//!
//! 1. by equal [`crate::FeatureId`] (the same features still touch), else
//! 2. by proximity: the unused old point whose `local_a` anchor is nearest,
//!    if within `match_distance` and the normals agree (cos > 0.7).
//!
//! A matched point inherits the old point's `user` data (the solver's
//! accumulated impulses: warm starting); a new point starts at zero. Pairs not
//! listed this step, or listed but no longer touching, are forgotten.
//!
//! **Determinism and threads.** Pairs are processed in chunks on the rayon pool;
//! each pair's manifolds depend only on that pair's inputs and the chunks are
//! concatenated in pair order, so the output — order and every bit of every
//! value — is the same for any number of threads. The output is sorted by
//! `(a, b, sub_a, sub_b)` (already the case when the pairs come sorted, as the
//! broadphase gives them).

use rayon::prelude::*;

use crate::{Manifold, Pose, Shape, contact_manifolds};

/// A manifold tagged with the collider slots and sub-shape indices it belongs to.
#[derive(Clone, Debug, PartialEq)]
pub struct PairManifold {
    /// Collider slot of shape A.
    pub a: u32,
    /// Collider slot of shape B.
    pub b: u32,
    /// Compound child / mesh triangle index in A (0 otherwise).
    pub sub_a: u32,
    /// Compound child / mesh triangle index in B (0 otherwise).
    pub sub_b: u32,
    /// The contact.
    pub manifold: Manifold,
}

impl PairManifold {
    fn key(&self) -> (u32, u32, u32, u32) {
        (self.a, self.b, self.sub_a, self.sub_b)
    }
}

/// Pairs per parallel task.
const CHUNK: usize = 128;

/// Narrowphase with persistent manifolds (see the module notes).
#[derive(Clone, Debug)]
pub struct NarrowPhase {
    manifolds: Vec<PairManifold>,
    previous: Vec<PairManifold>,
    match_distance: f32,
    parallel: bool,
}

impl Default for NarrowPhase {
    fn default() -> Self {
        Self::new()
    }
}

impl NarrowPhase {
    /// An empty narrowphase (proximity matching within 5 cm, parallel).
    #[must_use]
    pub fn new() -> Self {
        Self {
            manifolds: Vec::new(),
            previous: Vec::new(),
            match_distance: 0.05,
            parallel: true,
        }
    }

    /// Sets the proximity-matching distance (metres) for points whose feature changed.
    #[must_use]
    pub fn with_match_distance(mut self, d: f32) -> Self {
        self.match_distance = if d.is_finite() { d.max(0.0) } else { 0.0 };
        self
    }

    /// Enables or disables the rayon path (results are identical either way).
    pub fn set_parallel(&mut self, parallel: bool) {
        self.parallel = parallel;
    }

    /// Computes the manifolds of `pairs`, carrying `user` data over from the last step.
    ///
    /// `shapes[k]` and `poses[k]` are the world shape and pose of collider slot `k`;
    /// pairs naming a slot out of range, or a slot with itself, are skipped.
    pub fn update(&mut self, pairs: &[(u32, u32)], shapes: &[Shape], poses: &[Pose], margin: f32) {
        std::mem::swap(&mut self.manifolds, &mut self.previous);
        self.manifolds.clear();
        let run = |chunk: &[(u32, u32)], out: &mut Vec<PairManifold>| {
            let mut tmp = Vec::new();
            for &(a, b) in chunk {
                let (ia, ib) = (a as usize, b as usize);
                if a == b
                    || ia >= shapes.len()
                    || ib >= shapes.len()
                    || ia >= poses.len()
                    || ib >= poses.len()
                {
                    continue;
                }
                tmp.clear();
                contact_manifolds(
                    &shapes[ia],
                    &poses[ia],
                    &shapes[ib],
                    &poses[ib],
                    margin,
                    &mut tmp,
                );
                out.extend(tmp.drain(..).map(|(sub_a, sub_b, manifold)| PairManifold {
                    a,
                    b,
                    sub_a,
                    sub_b,
                    manifold,
                }));
            }
        };
        if self.parallel && pairs.len() > CHUNK && rayon::current_num_threads() > 1 {
            let parts: Vec<Vec<PairManifold>> = pairs
                .par_chunks(CHUNK)
                .map(|chunk| {
                    let mut v = Vec::with_capacity(chunk.len());
                    run(chunk, &mut v);
                    v
                })
                .collect();
            for mut p in parts {
                self.manifolds.append(&mut p);
            }
        } else {
            let mut out = std::mem::take(&mut self.manifolds);
            run(pairs, &mut out);
            self.manifolds = out;
        }
        if !self.manifolds.is_sorted_by_key(PairManifold::key) {
            self.manifolds.sort_by_key(PairManifold::key);
        }
        self.match_previous();
    }

    fn match_previous(&mut self) {
        let old = &self.previous;
        let mut j = 0;
        let tol2 = self.match_distance * self.match_distance;
        for m in &mut self.manifolds {
            let key = m.key();
            while j < old.len() && old[j].key() < key {
                j += 1;
            }
            if j >= old.len() {
                break;
            }
            if old[j].key() != key {
                continue;
            }
            let om = &old[j].manifold;
            let mut used = [false; 8];
            // Pass 1: feature ids.
            let mut matched = [false; 8];
            for (pi, p) in m.manifold.points.iter_mut().enumerate().take(8) {
                for (k, q) in om.points.iter().enumerate().take(8) {
                    if !used[k] && q.feature == p.feature {
                        used[k] = true;
                        matched[pi] = true;
                        p.user = q.user;
                        break;
                    }
                }
            }
            // Pass 2: proximity.
            if m.manifold.normal.dot(om.normal) > 0.7 {
                for (pi, p) in m.manifold.points.iter_mut().enumerate().take(8) {
                    if matched[pi] {
                        continue;
                    }
                    let mut best = None;
                    let mut bd = tol2;
                    for (k, q) in om.points.iter().enumerate().take(8) {
                        let d = (q.local_a - p.local_a).length_squared();
                        if !used[k] && d <= bd {
                            bd = d;
                            best = Some(k);
                        }
                    }
                    if let Some(k) = best {
                        used[k] = true;
                        p.user = om.points[k].user;
                    }
                }
            }
        }
        self.previous.clear();
    }

    /// This step's manifolds in ascending `(a, b, sub_a, sub_b)` order.
    #[must_use]
    pub fn manifolds(&self) -> &[PairManifold] {
        &self.manifolds
    }

    /// Mutable access (for the solver to store its impulses in `user`).
    pub fn manifolds_mut(&mut self) -> &mut [PairManifold] {
        &mut self.manifolds
    }

    /// Forgets every manifold.
    pub fn clear(&mut self) {
        self.manifolds.clear();
        self.previous.clear();
    }
}
