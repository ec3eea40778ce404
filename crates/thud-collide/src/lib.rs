//! thud-collide (being built).
