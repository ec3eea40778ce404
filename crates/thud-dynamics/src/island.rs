//! Islands and sleeping.
//!
//! An island is a set of dynamic bodies connected through contacts (joints, later);
//! static and kinematic bodies never connect islands (they are the dummy body to the
//! solver). Islands are rebuilt every step by union-find (path halving, union by size)
//! over the body slots: `O((bodies + contacts)·α)` — except where nothing they are made
//! from changed: the narrowphase's manifold layout, the colliders, the body slots, every
//! body's kind, and no joint, kinematic or sleeping body (then every island is awake and
//! nothing wakes); such a step takes the last step's islands as they are.
//!
//! **Sleeping.** A body's sleep timer grows while `|v| < sleep_linear_threshold` and
//! `|ω| < sleep_angular_threshold`, and resets otherwise. An island falls asleep when every
//! body in it may sleep and has been at rest for `time_to_sleep`: velocities are zeroed
//! and its colliders are marked non-moving in the broadphase, so sleeping pairs cost
//! nothing.
//!
//! **Waking.** An island is awake when any of its bodies is awake, so a sleeping body
//! that touches an awake one (or a moving kinematic body) is woken by the union. User
//! changes (velocity, force, pose, kind) wake the body directly; removing a body wakes
//! every body it touched. Pairs between two sleeping bodies are not reported by the
//! broadphase, so a body woken alone would wake its sleeping neighbours one contact layer
//! per step, resting on them as on static ground until then; instead an island falls
//! asleep as one sleep group and wakes whole (`World::wake_groups`, `docs/dynamics.md`,
//! *Sleeping islands wake whole*).

/// Union-find over body slots.
#[derive(Debug, Clone, Default)]
pub(crate) struct UnionFind {
    parent: Vec<u32>,
    size: Vec<u32>,
}

impl UnionFind {
    /// `n` singletons (reusing storage).
    pub fn reset(&mut self, n: usize) {
        self.parent.clear();
        self.parent.extend(0..n as u32);
        self.size.clear();
        self.size.resize(n, 1);
    }

    /// Root of `i` (path halving).
    pub fn find(&mut self, mut i: u32) -> u32 {
        while self.parent[i as usize] != i {
            let p = self.parent[i as usize];
            let gp = self.parent[p as usize];
            self.parent[i as usize] = gp;
            i = gp;
        }
        i
    }

    /// Merge the sets of `a` and `b`.
    pub fn union(&mut self, a: u32, b: u32) {
        let (mut ra, mut rb) = (self.find(a), self.find(b));
        if ra == rb {
            return;
        }
        if self.size[ra as usize] < self.size[rb as usize] {
            std::mem::swap(&mut ra, &mut rb);
        }
        self.parent[rb as usize] = ra;
        self.size[ra as usize] += self.size[rb as usize];
    }
}

/// Per-root flags and timers of one step.
#[derive(Debug, Clone, Default)]
pub(crate) struct Islands {
    pub uf: UnionFind,
    /// `root → some member is awake` (indexed by slot).
    pub awake: Vec<bool>,
    /// `root → min sleep timer of members` (`-1` = a member may never sleep).
    pub min_sleep: Vec<f32>,
    /// Island root of each body slot (valid for dynamic bodies, this step).
    pub root: Vec<u32>,
    /// Scratch of `World::sleep`: the sleep group of each root that falls asleep.
    pub group: Vec<u32>,
    /// Awake islands.
    pub count: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn union_find_groups() {
        let mut uf = UnionFind::default();
        uf.reset(6);
        uf.union(0, 1);
        uf.union(2, 3);
        uf.union(1, 3);
        assert_eq!(uf.find(0), uf.find(2));
        assert_ne!(uf.find(0), uf.find(4));
        assert_ne!(uf.find(4), uf.find(5));
    }
}
