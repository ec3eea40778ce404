//! thud-scene (being built).
