//! thud: real-time rigid-body contact physics for games (facade; being built).
