//! `--scaling N`: thud on one thread beside thud on `N` threads, for the issue's
//! two-thread target ("two threads ≥ 1.8× faster than one"), in one run.
//!
//! Two thud worlds of the same scene, one stepped inside a rayon pool of one thread and
//! one inside a pool of `N`, take turns every `--block` steps, as the engines of the
//! comparison do (so that the host's slow and fast spells fall on both alike). A turn
//! runs inside its pool (`ThreadPool::install`), and each step is timed by itself
//! there, so the hand-over into the pool is not in the step times. The figures: each
//! world's median, p90 and p10 step time over the steps after the first, the speed-up
//! of each (one thread's over `N` threads'), and whether the two worlds end in the same
//! state to the bit, as thud promises for any thread count.

use std::time::Instant;

use thud_scene::Scene;
use thud_scene::metrics::percentile;

use crate::engine::{BodyState, Engine};
use crate::error::CompareError;
use crate::thud_side::ThudEngine;

/// One scene's step times on one thread and on `threads` threads.
#[derive(Debug, Clone, PartialEq)]
pub struct Scaling {
    /// The scene's name.
    pub scene: String,
    /// Threads of the second pool.
    pub threads: usize,
    /// Step times on one thread and on `threads`: median, p90 and p10, ms.
    pub one: [f64; 3],
    pub many: [f64; 3],
    /// Both worlds ended in the same state to the bit.
    pub same_state: bool,
}

impl Scaling {
    /// The speed-up of the median and of the p10 (one thread's time over `threads`').
    #[must_use]
    pub fn speedup(&self) -> (f64, f64) {
        let ratio = |a: f64, b: f64| if b > 0.0 { a / b } else { 0.0 };
        (
            ratio(self.one[0], self.many[0]),
            ratio(self.one[2], self.many[2]),
        )
    }
}

/// The median, p90 and p10 of `times` after the first (ms).
fn quantiles(times: &[f64]) -> [f64; 3] {
    let t = times.get(1..).unwrap_or(&[]);
    [percentile(t, 0.5), percentile(t, 0.9), percentile(t, 0.1)]
}

/// Runs `scene` for `steps` steps on one thread and on `threads`, in turns of `block`
/// steps (0: one world's whole run, then the other's).
pub fn measure(
    scene: &Scene,
    steps: usize,
    threads: usize,
    block: usize,
) -> Result<Scaling, CompareError> {
    if threads < 2 {
        return Err(CompareError::Usage(
            "--scaling needs at least 2 threads".into(),
        ));
    }
    let pools = [1, threads].map(|n| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map_err(|e| CompareError::Usage(format!("a pool of {n} threads: {e}")))
    });
    let [one, many] = pools;
    let pools = [one?, many?];
    let mut worlds = [ThudEngine::new(scene)?, ThudEngine::new(scene)?];
    let mut times: [Vec<f64>; 2] = [Vec::with_capacity(steps), Vec::with_capacity(steps)];
    let turn = if block == 0 { steps } else { block };
    let mut done = 0;
    while done < steps {
        let n = turn.min(steps - done);
        for ((pool, world), times) in pools.iter().zip(&mut worlds).zip(&mut times) {
            pool.install(|| -> Result<(), CompareError> {
                for _ in 0..n {
                    let t = Instant::now();
                    world.step()?;
                    times.push(t.elapsed().as_secs_f64() * 1e3);
                }
                Ok(())
            })?;
        }
        done += n;
    }
    let state = |w: &ThudEngine| {
        let mut s: Vec<BodyState> = Vec::new();
        w.states(&mut s);
        s
    };
    let bits = |s: &[BodyState]| -> Vec<u32> {
        s.iter()
            .flat_map(|b| {
                let (p, q, v) = (b.position, b.rotation, b.linear_velocity);
                [p.x, p.y, p.z, q.x, q.y, q.z, q.w, v.x, v.y, v.z].map(f32::to_bits)
            })
            .collect()
    };
    let same_state = bits(&state(&worlds[0])) == bits(&state(&worlds[1]));
    eprintln!(
        "  {:<16} thud on 1 and {threads} threads, {steps} steps each",
        scene.name
    );
    Ok(Scaling {
        scene: scene.name.clone(),
        threads,
        one: quantiles(&times[0]),
        many: quantiles(&times[1]),
        same_state,
    })
}

/// The scaling table (markdown).
#[must_use]
pub fn markdown(rows: &[Scaling], heading: &str) -> String {
    let n = rows.first().map_or(2, |r| r.threads);
    let mut s = format!(
        "{heading}\n\n| scene | 1 thread median / p90 / p10 ms | {n} threads median / p90 / p10 ms \
         | speed-up, median | speed-up, p10 | same final state |\n\
         |---|---:|---:|---:|---:|---|\n"
    );
    for r in rows {
        let (median, p10) = r.speedup();
        s += &format!(
            "| {} | {:.3} / {:.3} / {:.3} | {:.3} / {:.3} / {:.3} | {median:.2}× | {p10:.2}× | {} |\n",
            r.scene,
            r.one[0],
            r.one[1],
            r.one[2],
            r.many[0],
            r.many[1],
            r.many[2],
            if r.same_state { "yes" } else { "**no**" },
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two worlds of a small scene on one and two threads: step times for both, the
    /// speed-up their ratio, and the same final bits.
    #[test]
    fn one_and_two_threads_step_the_same_world() {
        let scene = thud_scene::standard("pyramid_20").expect("standard scene");
        let r = measure(&scene, 30, 2, 10).expect("runs");
        assert!(r.one.iter().chain(&r.many).all(|&t| t > 0.0), "{r:?}");
        assert!(r.same_state, "one and two threads end alike");
        let (median, p10) = r.speedup();
        assert!((median - r.one[0] / r.many[0]).abs() < 1e-12);
        assert!((p10 - r.one[2] / r.many[2]).abs() < 1e-12);
        let table = markdown(&[r], "heading");
        assert!(
            table.contains("| pyramid_20 |") && table.contains("| yes |"),
            "{table}"
        );
        assert!(
            measure(&scene, 5, 1, 10).is_err(),
            "one thread is no scaling"
        );
    }
}
