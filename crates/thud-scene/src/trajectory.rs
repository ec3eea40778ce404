//! `trajectory.csv`: every body's pose and velocity, frame by frame.
//!
//! Header `frame,time,body,name,px,py,pz,qx,qy,qz,qw,vx,vy,vz,wx,wy,wz`; one row per
//! live body (static ones included) per written frame, in body-number order. Frame 0 is
//! the initial state at time 0, before the first step; frame f is the state after f
//! steps. The caller writes every frame, or every K-th plus the last.

use std::io::{self, Write};

use crate::sim::Simulation;

/// The CSV header line (without the newline).
pub const HEADER: &str = "frame,time,body,name,px,py,pz,qx,qy,qz,qw,vx,vy,vz,wx,wy,wz";

/// Writes trajectory rows.
pub struct TrajectoryWriter<W: Write> {
    out: W,
    last_frame: Option<u64>,
}

impl<W: Write> TrajectoryWriter<W> {
    /// Writes the header.
    pub fn new(mut out: W) -> io::Result<TrajectoryWriter<W>> {
        writeln!(out, "{HEADER}")?;
        Ok(TrajectoryWriter {
            out,
            last_frame: None,
        })
    }

    /// Writes the current frame of `sim` (once per frame number; repeats are ignored).
    pub fn write_frame(&mut self, sim: &Simulation) -> io::Result<()> {
        let frame = sim.steps_done();
        if self.last_frame == Some(frame) {
            return Ok(());
        }
        self.last_frame = Some(frame);
        let time = sim.time();
        for (i, def, b) in sim.live() {
            let (p, q, v, w) = (
                b.position(),
                b.rotation(),
                b.linear_velocity(),
                b.angular_velocity(),
            );
            let name = csv_field(&def.name);
            writeln!(
                self.out,
                "{frame},{time:.6},{i},{name},{},{},{},{},{},{},{},{},{},{},{},{},{}",
                p.x, p.y, p.z, q.x, q.y, q.z, q.w, v.x, v.y, v.z, w.x, w.y, w.z
            )?;
        }
        Ok(())
    }

    /// Flushes and returns the writer.
    pub fn finish(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

/// A name quoted when it holds a comma, quote or newline.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}
