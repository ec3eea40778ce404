//! The broadphase: which pairs of colliders have overlapping bounding boxes.
//!
//! (First version: a full sort-and-sweep each call. Replaced by the
//! incremental tree-based broadphase.)

use crate::{Aabb, CollisionFilter};

#[derive(Clone, Copy, Debug)]
struct Proxy {
    aabb: Aabb,
    moving: bool,
    filter: CollisionFilter,
}

/// Finds overlapping pairs of colliders, keyed by the caller's slots.
#[derive(Clone, Debug, Default)]
pub struct BroadPhase {
    proxies: Vec<Option<Proxy>>,
    order: Vec<u32>,
}

impl BroadPhase {
    /// An empty broadphase.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds (or replaces) collider `key` with its box (margin included).
    pub fn insert(&mut self, key: u32, aabb: Aabb, moving: bool, filter: CollisionFilter) {
        let k = key as usize;
        if self.proxies.len() <= k {
            self.proxies.resize(k + 1, None);
        }
        self.proxies[k] = Some(Proxy {
            aabb,
            moving,
            filter,
        });
    }

    /// Sets the box of `key`; returns false if the key is unknown.
    pub fn update(&mut self, key: u32, aabb: Aabb) -> bool {
        match self.proxies.get_mut(key as usize) {
            Some(Some(p)) => {
                p.aabb = aabb;
                true
            }
            _ => false,
        }
    }

    /// Moves `key` between the moving and static sets; returns false if unknown.
    pub fn set_moving(&mut self, key: u32, moving: bool) -> bool {
        match self.proxies.get_mut(key as usize) {
            Some(Some(p)) => {
                p.moving = moving;
                true
            }
            _ => false,
        }
    }

    /// Removes `key`; returns false if unknown.
    pub fn remove(&mut self, key: u32) -> bool {
        match self.proxies.get_mut(key as usize) {
            Some(slot @ Some(_)) => {
                *slot = None;
                true
            }
            _ => false,
        }
    }

    /// Replaces the contents of `out` by all overlapping pairs `(a, b)`, `a < b`,
    /// ascending; static–static pairs and filtered pairs are left out.
    pub fn find_pairs(&mut self, out: &mut Vec<(u32, u32)>) {
        out.clear();
        self.order.clear();
        self.order.extend(
            self.proxies
                .iter()
                .enumerate()
                .filter(|(_, p)| p.is_some())
                .map(|(k, _)| k as u32),
        );
        let px = &self.proxies;
        let get = |k: u32| px[k as usize].as_ref().map_or(Aabb::EMPTY, |p| p.aabb);
        self.order
            .sort_by(|&a, &b| get(a).min.x.total_cmp(&get(b).min.x).then(a.cmp(&b)));
        for (i, &ka) in self.order.iter().enumerate() {
            let Some(pa) = px[ka as usize].as_ref() else {
                continue;
            };
            for &kb in &self.order[i + 1..] {
                let Some(pb) = px[kb as usize].as_ref() else {
                    continue;
                };
                if pb.aabb.min.x > pa.aabb.max.x {
                    break;
                }
                if (pa.moving || pb.moving)
                    && pa.filter.test(&pb.filter)
                    && pa.aabb.overlaps(&pb.aabb)
                {
                    out.push((ka.min(kb), ka.max(kb)));
                }
            }
        }
        out.sort_unstable();
    }
}
