//! Random instances (being built).
