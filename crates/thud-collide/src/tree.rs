//! A dynamic AABB tree: the broadphase's spatial index.
//!
//! A binary tree whose leaves hold one (enlarged, "fat") box each and whose
//! inner nodes hold the union of their children. It supports insertion,
//! removal and box queries in O(log n) expected time, and is kept shallow by
//! two rules:
//!
//! - **Insertion by surface-area cost.** A new leaf `L` descends from the
//!   root; at node `N` it may become `N`'s sibling (cost `2·A(N ∪ L)`, `A` = half
//!   surface area) or go down into the child `C` that is cheaper
//!   (`A(C ∪ L)` for a leaf child, `A(C ∪ L) − A(C)` for an inner one, plus the
//!   `2·(A(N ∪ L) − A(N))` every ancestor pays for growing). This is the
//!   greedy surface-area heuristic of Goldsmith and Salmon as used by Box2D.
//! - **AVL rotations.** Walking back up from a changed leaf, a node whose
//!   children's heights differ by more than one is rotated: the taller child
//!   takes its place and the parent adopts the taller grandchild's sibling,
//!   which keeps the height O(log n) even for sorted insertion orders.
//!
//! Nodes live in a `Vec` with a free list; indices are stable while a leaf
//! exists, so the broadphase stores each proxy's leaf index.

use crate::Aabb;

const NULL: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Node {
    aabb: Aabb,
    parent: u32,
    left: u32,
    right: u32,
    /// Leaf payload (the caller's key).
    key: u32,
    /// 0 for a leaf; −1 for a free node.
    height: i32,
}

impl Node {
    fn is_leaf(&self) -> bool {
        self.left == NULL
    }
}

/// A dynamic bounding-volume tree keyed by `u32`.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tree {
    nodes: Vec<Node>,
    root: Option<u32>,
    free: Vec<u32>,
}

/// Nodes a query keeps waiting without the heap (few in the unit tests, so that they
/// take the heap path too).
const QUERY_STACK: usize = if cfg!(test) { 4 } else { 64 };

impl Tree {
    /// Room for `leaves` more leaves (and their inner nodes) without reallocating.
    pub(crate) fn reserve(&mut self, leaves: usize) {
        self.nodes.reserve(2 * leaves);
    }

    fn alloc(&mut self, aabb: Aabb, key: u32) -> u32 {
        let node = Node {
            aabb,
            parent: NULL,
            left: NULL,
            right: NULL,
            key,
            height: 0,
        };
        if let Some(i) = self.free.pop() {
            self.nodes[i as usize] = node;
            i
        } else {
            self.nodes.push(node);
            (self.nodes.len() - 1) as u32
        }
    }

    fn release(&mut self, i: u32) {
        self.nodes[i as usize].height = -1;
        self.free.push(i);
    }

    fn n(&self, i: u32) -> &Node {
        &self.nodes[i as usize]
    }

    fn nm(&mut self, i: u32) -> &mut Node {
        &mut self.nodes[i as usize]
    }

    /// Inserts a leaf with `key` and box `aabb`; returns its node index.
    pub fn insert(&mut self, key: u32, aabb: Aabb) -> u32 {
        let leaf = self.alloc(aabb, key);
        self.insert_leaf(leaf);
        leaf
    }

    /// Removes the leaf `leaf`.
    pub fn remove(&mut self, leaf: u32) {
        self.remove_leaf(leaf);
        self.release(leaf);
    }

    /// Changes the box of `leaf` (re-inserting it).
    pub fn update(&mut self, leaf: u32, aabb: Aabb) {
        self.remove_leaf(leaf);
        self.nm(leaf).aabb = aabb;
        self.insert_leaf(leaf);
    }

    /// Calls `f(key)` for every leaf whose box overlaps `aabb`.
    ///
    /// Depth first, the nodes waiting in a fixed array of [`QUERY_STACK`] (a balanced
    /// tree of a million leaves is about 30 deep, and each level leaves at most one node
    /// waiting), in a heap list only past it.
    pub fn query(&self, aabb: &Aabb, mut f: impl FnMut(u32)) {
        let Some(root) = self.root else { return };
        // (A small-vector checks where it lives on every push and pop: a fifth of the
        // query's time.)
        let mut stack = [0u32; QUERY_STACK];
        let mut len = 1;
        stack[0] = root;
        let mut deeper: Vec<u32> = Vec::new();
        loop {
            let i = match deeper.pop() {
                Some(i) => i,
                None if len > 0 => {
                    len -= 1;
                    stack[len]
                }
                None => break,
            };
            let node = self.n(i);
            if !node.aabb.overlaps(aabb) {
                continue;
            }
            if node.is_leaf() {
                f(node.key);
                continue;
            }
            for child in [node.left, node.right] {
                match stack.get_mut(len) {
                    Some(slot) if deeper.is_empty() => {
                        *slot = child;
                        len += 1;
                    }
                    _ => deeper.push(child),
                }
            }
        }
    }

    /// How many leaves the tree holds.
    pub(crate) fn leaves(&self) -> usize {
        (self.nodes.len() - self.free.len()).div_ceil(2)
    }

    /// Builds the tree anew from `items` (box and key of each leaf; reordered), top
    /// down: each node splits its leaves at the median of their centres along the
    /// longest side of the centres' bounds. `O(n log n)`, against a removal and an
    /// insertion per leaf when most of the leaves have moved; the two halves of a large
    /// node are built side by side on the rayon pool when `parallel`. A subtree of `m`
    /// leaves takes `2m − 1` consecutive nodes (itself, then its left subtree, then its
    /// right), so each half writes its own part of the node array and the tree is the
    /// same on any number of threads. `leaf(key, node)` is called for every leaf.
    pub(crate) fn rebuild(
        &mut self,
        items: &mut [(Aabb, u32)],
        parallel: bool,
        mut leaf: impl FnMut(u32, u32),
    ) {
        self.free.clear();
        self.nodes.clear();
        if items.is_empty() {
            self.root = None;
            return;
        }
        let blank = Node {
            aabb: items[0].0,
            parent: NULL,
            left: NULL,
            right: NULL,
            key: NULL,
            height: 0,
        };
        self.nodes.resize(2 * items.len() - 1, blank);
        build(&mut self.nodes, 0, NULL, items, parallel);
        self.root = Some(0);
        for (i, n) in self.nodes.iter().enumerate() {
            if n.is_leaf() {
                leaf(n.key, i as u32);
            }
        }
    }

    /// Height of the tree (0 for a single leaf or an empty tree).
    #[cfg(test)]
    pub fn height(&self) -> i32 {
        self.root.map_or(0, |r| self.n(r).height)
    }

    fn insert_leaf(&mut self, leaf: u32) {
        let Some(root) = self.root else {
            self.root = Some(leaf);
            self.nm(leaf).parent = NULL;
            return;
        };
        let lb = self.n(leaf).aabb;
        let mut idx = root;
        while !self.n(idx).is_leaf() {
            let node = *self.n(idx);
            let area = node.aabb.half_area();
            let combined = node.aabb.union(&lb).half_area();
            let cost = 2.0 * combined;
            let inherit = 2.0 * (combined - area);
            let child_cost = |c: u32| {
                let cn = self.n(c);
                let u = cn.aabb.union(&lb).half_area();
                if cn.is_leaf() {
                    u + inherit
                } else {
                    u - cn.aabb.half_area() + inherit
                }
            };
            let (cl, cr) = (child_cost(node.left), child_cost(node.right));
            if cost < cl && cost < cr {
                break;
            }
            idx = if cl < cr { node.left } else { node.right };
        }
        let sibling = idx;
        let old_parent = self.n(sibling).parent;
        let sb = self.n(sibling).aabb;
        let sh = self.n(sibling).height;
        let parent = self.alloc(sb.union(&lb), NULL);
        {
            let p = self.nm(parent);
            p.parent = old_parent;
            p.left = sibling;
            p.right = leaf;
            p.height = sh + 1;
        }
        self.nm(sibling).parent = parent;
        self.nm(leaf).parent = parent;
        if old_parent == NULL {
            self.root = Some(parent);
        } else if self.n(old_parent).left == sibling {
            self.nm(old_parent).left = parent;
        } else {
            self.nm(old_parent).right = parent;
        }
        self.refit_from(parent);
    }

    fn remove_leaf(&mut self, leaf: u32) {
        if self.root == Some(leaf) {
            self.root = None;
            return;
        }
        let parent = self.n(leaf).parent;
        let grand = self.n(parent).parent;
        let sibling = if self.n(parent).left == leaf {
            self.n(parent).right
        } else {
            self.n(parent).left
        };
        if grand == NULL {
            self.root = Some(sibling);
            self.nm(sibling).parent = NULL;
            self.release(parent);
        } else {
            if self.n(grand).left == parent {
                self.nm(grand).left = sibling;
            } else {
                self.nm(grand).right = sibling;
            }
            self.nm(sibling).parent = grand;
            self.release(parent);
            self.refit_from(grand);
        }
    }

    /// Walks from `i` to the root, rebalancing and refitting.
    fn refit_from(&mut self, mut i: u32) {
        while i != NULL {
            i = self.balance(i);
            let (l, r) = (self.n(i).left, self.n(i).right);
            let aabb = self.n(l).aabb.union(&self.n(r).aabb);
            let h = 1 + self.n(l).height.max(self.n(r).height);
            let node = self.nm(i);
            node.aabb = aabb;
            node.height = h;
            i = node.parent;
        }
    }

    fn replace_child(&mut self, parent: u32, old: u32, new: u32) {
        if parent == NULL {
            self.root = Some(new);
        } else if self.n(parent).left == old {
            self.nm(parent).left = new;
        } else {
            self.nm(parent).right = new;
        }
    }

    /// AVL rotation at `a` if its children's heights differ by more than 1;
    /// returns the root of the (possibly new) subtree.
    fn balance(&mut self, a: u32) -> u32 {
        if self.n(a).is_leaf() || self.n(a).height < 2 {
            return a;
        }
        let (b, c) = (self.n(a).left, self.n(a).right);
        let diff = self.n(c).height - self.n(b).height;
        if diff > 1 {
            self.rotate_up(a, c, b, false)
        } else if diff < -1 {
            self.rotate_up(a, b, c, true)
        } else {
            a
        }
    }

    /// Lifts the tall child `t` of `a` into `a`'s place; `s` is `a`'s other child.
    /// `t_is_left` says on which side of `a` the tall child was.
    fn rotate_up(&mut self, a: u32, t: u32, s: u32, t_is_left: bool) -> u32 {
        let (f, g) = (self.n(t).left, self.n(t).right);
        let a_parent = self.n(a).parent;
        // t takes a's place.
        self.nm(t).parent = a_parent;
        self.replace_child(a_parent, a, t);
        self.nm(a).parent = t;
        // The taller grandchild stays under t; the shorter one goes to a.
        let (keep, give) = if self.n(f).height > self.n(g).height {
            (f, g)
        } else {
            (g, f)
        };
        self.nm(t).left = a;
        self.nm(t).right = keep;
        if t_is_left {
            self.nm(a).left = give;
        } else {
            self.nm(a).right = give;
        }
        self.nm(give).parent = a;
        let a_box = self.n(s).aabb.union(&self.n(give).aabb);
        let a_h = 1 + self.n(s).height.max(self.n(give).height);
        {
            let an = self.nm(a);
            an.aabb = a_box;
            an.height = a_h;
        }
        let t_box = a_box.union(&self.n(keep).aabb);
        let t_h = 1 + a_h.max(self.n(keep).height);
        let tn = self.nm(t);
        tn.aabb = t_box;
        tn.height = t_h;
        t
    }
}

/// Leaves from which [`Tree::rebuild`] builds a node's two halves on two threads.
const PAR_BUILD: usize = 2048;

/// Builds the subtree of `items` into `nodes` (its `2·items.len() − 1` nodes, the first
/// at index `base` of the whole array) under `parent`; returns its height.
fn build(
    nodes: &mut [Node],
    base: u32,
    parent: u32,
    items: &mut [(Aabb, u32)],
    parallel: bool,
) -> i32 {
    let n = items.len();
    let Some((root, rest)) = nodes.split_first_mut() else {
        return 0;
    };
    if n == 1 {
        let (aabb, key) = items[0];
        *root = Node {
            aabb,
            parent,
            left: NULL,
            right: NULL,
            key,
            height: 0,
        };
        return 0;
    }
    let centre = |it: &(Aabb, u32)| it.0.min + it.0.max;
    let (lo, hi) = items.iter().fold(
        (glam::Vec3::INFINITY, glam::Vec3::NEG_INFINITY),
        |(lo, hi), it| (lo.min(centre(it)), hi.max(centre(it))),
    );
    let size = hi - lo;
    let axis = if size.x >= size.y && size.x >= size.z {
        0
    } else if size.y >= size.z {
        1
    } else {
        2
    };
    let mid = n / 2;
    items.select_nth_unstable_by(mid, |a, b| centre(a)[axis].total_cmp(&centre(b)[axis]));
    let (li, ri) = items.split_at_mut(mid);
    let (ln, rn) = rest.split_at_mut(2 * mid - 1);
    let (l, r) = (base + 1, base + 2 * mid as u32);
    let (hl, hr) = if parallel && n >= PAR_BUILD {
        rayon::join(
            || crate::flushed(|| build(ln, l, base, li, true)),
            || crate::flushed(|| build(rn, r, base, ri, true)),
        )
    } else {
        (build(ln, l, base, li, false), build(rn, r, base, ri, false))
    };
    *root = Node {
        aabb: ln[0].aabb.union(&rn[0].aabb),
        parent,
        left: l,
        right: r,
        key: NULL,
        height: 1 + hl.max(hr),
    };
    1 + hl.max(hr)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    /// A tree built anew (one thread and on a pool of two) is as shallow as a median
    /// split makes it, answers queries as a brute force does, tells every leaf's node,
    /// and takes later updates and removals.
    #[test]
    fn rebuilt_trees_are_balanced_and_answer_queries() {
        let boxes: Vec<Aabb> = (0..5000)
            .map(|i| {
                let x = (i * 7919 % 5000) as f32 * 0.37;
                Aabb::from_center_half_extents(
                    Vec3::new(x, (i % 13) as f32, (i % 5) as f32),
                    Vec3::splat(0.4),
                )
            })
            .collect();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        for parallel in [false, true] {
            let mut t = Tree::default();
            let mut items: Vec<(Aabb, u32)> = boxes
                .iter()
                .enumerate()
                .map(|(i, b)| (*b, i as u32))
                .collect();
            let mut leaf = vec![u32::MAX; boxes.len()];
            pool.install(|| t.rebuild(&mut items, parallel, |k, n| leaf[k as usize] = n));
            assert!(leaf.iter().all(|&n| n != u32::MAX));
            assert_eq!(t.leaves(), boxes.len());
            assert!(t.height() <= 13, "height {}", t.height());
            let mut current = boxes.clone();
            for k in (0..boxes.len()).step_by(7) {
                current[k] = current[k].expanded(0.5);
                t.update(leaf[k], current[k]);
            }
            for k in (3..boxes.len()).step_by(11) {
                t.remove(leaf[k]);
            }
            let q = Aabb::new(Vec3::new(200.0, 2.0, -1.0), Vec3::new(400.0, 9.0, 2.0));
            let mut got = Vec::new();
            t.query(&q, |k| got.push(k));
            got.sort_unstable();
            let want: Vec<u32> = (0..boxes.len() as u32)
                .filter(|&k| k < 3 || (k - 3) % 11 != 0)
                .filter(|&k| current[k as usize].overlaps(&q))
                .collect();
            assert!(!want.is_empty());
            assert_eq!(got, want, "parallel {parallel}");
        }
    }

    #[test]
    fn sorted_inserts_stay_balanced_and_queries_match_brute_force() {
        let mut t = Tree::default();
        let boxes: Vec<Aabb> = (0..1000)
            .map(|i| {
                Aabb::from_center_half_extents(
                    Vec3::new(i as f32 * 0.7, (i % 7) as f32, 0.0),
                    Vec3::splat(0.5),
                )
            })
            .collect();
        let leaves: Vec<u32> = boxes
            .iter()
            .enumerate()
            .map(|(i, b)| t.insert(i as u32, *b))
            .collect();
        assert!(t.height() <= 20, "height {}", t.height());
        for (i, &l) in leaves.iter().enumerate().step_by(3) {
            t.update(l, boxes[i].expanded(0.1));
        }
        for &l in leaves.iter().skip(1).step_by(5) {
            t.remove(l);
        }
        let q = Aabb::new(Vec3::new(100.0, 0.0, -1.0), Vec3::new(130.0, 3.0, 1.0));
        let mut got = Vec::new();
        t.query(&q, |k| got.push(k));
        got.sort_unstable();
        let want: Vec<u32> = (0..1000u32)
            .filter(|&i| (i as usize) % 5 != 1 || i == 0)
            .filter(|&i| {
                let b = if i % 3 == 0 {
                    boxes[i as usize].expanded(0.1)
                } else {
                    boxes[i as usize]
                };
                b.overlaps(&q)
            })
            .collect();
        assert_eq!(got, want);
    }
}
