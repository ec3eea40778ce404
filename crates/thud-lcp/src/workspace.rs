//! Buffers a caller keeps from one boxed pivoting solve to the next
//! ([`solvers::boxed_pivot::solve_boxed_in`](crate::solvers::boxed_pivot::solve_boxed_in)).
//!
//! A physics step that solves its small islands exactly calls the solver again and
//! again on problems of about the same size. Every buffer of the solve — the pattern
//! blocks and their factors, the active sets, the bounds in force, `w`, the row scales
//! of the pass test, the patterns met while cycling is watched for — lives here, so
//! that once they have grown to the problems' size a solve allocates nothing. The
//! report's `z` and `w` are taken from vectors the caller hands back with
//! [`Workspace::recycle`]. The arithmetic is the allocating solve's, operation for
//! operation: the same answers to the bit.

use crate::matrix::Spans;
use crate::report::Report;
use crate::solvers::pattern::{PatternScratch, Set};

/// The buffers of the boxed pivoting solve (see the module docs).
#[derive(Debug, Clone, Default)]
pub struct Workspace {
    /// Each row's coupling `(normal row, μ)` (`solvers::sor::coupling_table`).
    pub(crate) coupled: Vec<Option<(usize, f64)>>,
    /// `A`'s rows' nonzero runs.
    pub(crate) spans: Spans,
    /// The search's active sets, its proximal centre, its moves.
    pub(crate) sets: Vec<Set>,
    pub(crate) centre: Vec<f64>,
    pub(crate) moves: Vec<(usize, Set)>,
    /// The patterns met in the single-pivot mode ([`Seen`]).
    pub(crate) seen: Seen,
    /// `w`, the bounds in force and the row scales of the tests.
    pub(crate) checks: Checks,
    /// The warm start (or the hybrid rounds' iterate).
    pub(crate) warm: Vec<f64>,
    /// One pattern's block, factors and solution.
    pub(crate) pattern: PatternScratch,
    /// Vectors handed back by [`recycle`](Self::recycle), for the next reports.
    spare: Vec<Vec<f64>>,
}

impl Workspace {
    /// An empty workspace (its buffers grow with the first solves).
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Hand a report's vectors back for the next solves' reports (a caller that reads
    /// a report and then recycles it allocates nothing for the reports).
    pub fn recycle(&mut self, report: Report) {
        self.spare.push(report.z);
        self.spare.push(report.w);
    }

    /// An empty vector, from the ones handed back where there is one.
    pub(crate) fn vector(&mut self) -> Vec<f64> {
        let mut v = self.spare.pop().unwrap_or_default();
        v.clear();
        v
    }
}

/// `w`, the bounds in force at a candidate and the pass test's row scales, and the
/// coupled-row flags of the data scale.
#[derive(Debug, Clone, Default)]
pub(crate) struct Checks {
    pub(crate) w: Vec<f64>,
    pub(crate) lo: Vec<f64>,
    pub(crate) hi: Vec<f64>,
    pub(crate) scales: Vec<f64>,
    pub(crate) flags: Vec<bool>,
}

/// A set of patterns (each `n` rows' [`Set`]s), as a `HashSet<Vec<Set>>` answers
/// membership, without a vector a pattern: the patterns one after another, each with
/// a hash that is compared first.
#[derive(Debug, Clone, Default)]
pub(crate) struct Seen {
    patterns: Vec<Set>,
    hashes: Vec<u64>,
}

impl Seen {
    /// Forget every pattern.
    pub(crate) fn clear(&mut self) {
        self.patterns.clear();
        self.hashes.clear();
    }

    /// Room for `count` patterns of `n` rows (more still fit: the lists grow).
    pub(crate) fn reserve(&mut self, n: usize, count: usize) {
        self.hashes.reserve(count);
        self.patterns.reserve(n * count);
    }

    /// Add `sets`; `false` where it was there already.
    pub(crate) fn insert(&mut self, sets: &[Set]) -> bool {
        let n = sets.len();
        // FNV-1a over the sets.
        let hash = sets.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &s| {
            (h ^ s as u64).wrapping_mul(0x0000_0100_0000_01b3)
        });
        let met = self
            .hashes
            .iter()
            .enumerate()
            .any(|(k, &h)| h == hash && self.patterns[k * n..(k + 1) * n] == *sets);
        if !met {
            self.hashes.push(hash);
            self.patterns.extend_from_slice(sets);
        }
        !met
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seen_answers_as_a_set_of_patterns() {
        let mut seen = Seen::default();
        let mut set = std::collections::HashSet::new();
        let patterns = [
            [Set::Lo, Set::Free, Set::Hi],
            [Set::Free, Set::Free, Set::Hi],
            [Set::Lo, Set::Free, Set::Hi],
            [Set::Hi, Set::Lo, Set::Free],
            [Set::Free, Set::Free, Set::Hi],
        ];
        for p in &patterns {
            assert_eq!(seen.insert(p), set.insert(p.to_vec()), "{p:?}");
        }
        seen.clear();
        assert!(seen.insert(&patterns[0]), "cleared");
    }
}
