//! The solver family, one method per file, all behind [`crate::Solver`].
//!
//! Iterative (boxed, cost `n²` per sweep): [`jacobi`], [`pgs`], [`sor`].
//! Pivoting (exact): [`lemke`], [`dantzig`], [`dantzig_simple`], [`boxed_pivot`],
//! [`kolesnikov`]; exhaustive: [`enumerate`]; the chooser: [`auto`].
//! Shared machinery: [`coupling`] (outer passes for friction bounds) and the
//! condensed pivoting tableau in [`tableau`] (Jordan exchanges) and the
//! linked active-set solve in [`pattern`]; both are internal (documented here for
//! their math).

pub mod auto;
pub mod boxed_pivot;
pub mod coupling;
pub mod dantzig;
pub mod dantzig_simple;
pub mod enumerate;
pub mod interior;
pub mod jacobi;
pub mod kolesnikov;
pub mod lemke;
pub mod pattern;
pub mod pgs;
mod polish;
pub mod sor;
pub mod tableau;
