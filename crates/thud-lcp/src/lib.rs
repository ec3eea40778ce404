//! thud-lcp (being built).
