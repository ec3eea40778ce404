//! Helpers shared by the examples, tests and benches.
pub mod scene_world;
