//! JSON format (being built).
