//! thud-dynamics (being built).
