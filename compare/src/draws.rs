//! `--draws N`: a chaotic scene's quality figures over many draws, in both engines.
//!
//! A settling heap is chaotic: any change to its bits (a change to an engine, another
//! friction, another thread count in an engine that is not deterministic across them)
//! draws another heap, so one run's quality figures are one draw, and two runs of
//! engines that settle a heap equally well can read far apart. `--draws N` runs each
//! chosen scene `N` times in each engine, every body's friction set to the `k`-th of `N`
//! evenly spaced coefficients from 0.40 to 0.86 (at `N` = 24 the draws of
//! `docs/dynamics.md`, *Touching gaps*: 0.40, 0.42, …, 0.86), and prints for each
//! engine, over the draws:
//!
//! - the energy regained after the first dip (`measure::Figures::energy_rebound`):
//!   median, 75th percentile and largest (nearest-rank percentiles), and a rank-sum
//!   (Mann–Whitney) test of thud's draws against Rapier's, `z` from the normal
//!   approximation, positive where thud's rank higher (regain more): |z| below about
//!   2 cannot tell the engines apart;
//! - the deepest overlap at the end: median and largest;
//! - the draws that end with bodies still moving, and how many bodies in all;
//!
//! then every draw's figures, one line a draw. A draw still settling at its end (bodies
//! moving) has often regained nothing yet, its energy still falling, so the regained
//! energy reads low where a heap settles late.

use std::fmt::Write as _;

use thud_scene::Scene;
use thud_scene::metrics::percentile;

use crate::error::CompareError;
use crate::measure::Figures;

/// The lowest and highest friction coefficients of the draws.
pub const FRICTIONS: (f32, f32) = (0.40, 0.86);

/// One draw: the friction every body had, and each engine's figures.
#[derive(Debug, Clone, PartialEq)]
pub struct Draw {
    /// Every body's friction coefficient.
    pub friction: f32,
    /// thud's figures.
    pub thud: Figures,
    /// Rapier's figures.
    pub rapier: Figures,
}

/// One scene's draws.
#[derive(Debug, Clone, PartialEq)]
pub struct Draws {
    /// The scene's name.
    pub scene: String,
    /// Its draws, by friction.
    pub draws: Vec<Draw>,
}

/// The `n` friction coefficients of `n` draws (at least 2), evenly spaced over
/// [`FRICTIONS`], rounded to the hundredth as the scene files would write them.
pub fn frictions(n: usize) -> Result<Vec<f32>, CompareError> {
    if n < 2 {
        return Err(CompareError::Usage(format!(
            "--draws needs at least 2 draws, not {n}"
        )));
    }
    let (lo, hi) = FRICTIONS;
    Ok((0..n)
        .map(|k| {
            let mu = f64::from(lo) + f64::from(hi - lo) * k as f64 / (n - 1) as f64;
            ((mu * 100.0).round() / 100.0) as f32
        })
        .collect())
}

/// Runs `scene`'s draws: for each friction of [`frictions`]`(n)`, the scene with every
/// body's friction set to it (`set_friction`), both engines' figures from `run`.
pub fn measure(
    scene: &Scene,
    n: usize,
    set_friction: impl Fn(&mut Scene, f32),
    mut run: impl FnMut(&Scene) -> Result<(Figures, Figures), CompareError>,
) -> Result<Draws, CompareError> {
    let mut draws = Vec::with_capacity(n);
    for friction in frictions(n)? {
        let mut drawn = scene.clone();
        set_friction(&mut drawn, friction);
        let (thud, rapier) = run(&drawn)?;
        draws.push(Draw {
            friction,
            thud,
            rapier,
        });
    }
    Ok(Draws {
        scene: scene.name.clone(),
        draws,
    })
}

/// The rank-sum (Mann–Whitney) `z` of sample `a` against sample `b`: positive where
/// `a`'s values rank higher. Tied values share their mean rank; the variance is the
/// untied one (ties make it slightly smaller, so `|z|` reads slightly low). 0 for an
/// empty sample.
#[must_use]
pub fn rank_sum_z(a: &[f64], b: &[f64]) -> f64 {
    let (n1, n2) = (a.len() as f64, b.len() as f64);
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    let mut all: Vec<(f64, bool)> = a
        .iter()
        .map(|&x| (x, true))
        .chain(b.iter().map(|&x| (x, false)))
        .collect();
    all.sort_by(|x, y| x.0.total_cmp(&y.0));
    let mut ranks_a = 0.0;
    let mut i = 0;
    while i < all.len() {
        let mut j = i;
        while j < all.len() && all[j].0.total_cmp(&all[i].0).is_eq() {
            j += 1;
        }
        // Ranks i + 1 ..= j, their mean for each of the tied values.
        let mean = (i + 1 + j) as f64 / 2.0;
        ranks_a += mean * all[i..j].iter().filter(|x| x.1).count() as f64;
        i = j;
    }
    let mu = n1 * (n1 + n2 + 1.0) / 2.0;
    let sd = (n1 * n2 * (n1 + n2 + 1.0) / 12.0).sqrt();
    (ranks_a - mu) / sd
}

/// One engine's summary over the draws: regained energy (median, p75, max, J), deepest
/// overlap (median, max, mm), draws ending with bodies moving and those bodies.
fn summary(figures: &[&Figures]) -> ([f64; 3], [f64; 2], usize, usize) {
    let rebound: Vec<f64> = figures.iter().map(|f| f.energy_rebound).collect();
    let overlap: Vec<f64> = figures
        .iter()
        .map(|f| f64::from(f.max_penetration) * 1e3)
        .collect();
    let max = |v: &[f64]| v.iter().copied().fold(0.0, f64::max);
    (
        [
            percentile(&rebound, 0.5),
            percentile(&rebound, 0.75),
            max(&rebound),
        ],
        [percentile(&overlap, 0.5), max(&overlap)],
        figures.iter().filter(|f| f.still_moving > 0).count(),
        figures.iter().map(|f| f.still_moving).sum(),
    )
}

/// The draws' tables (markdown): one row a scene over its draws, then each scene's
/// draws one by one.
#[must_use]
pub fn markdown(rows: &[Draws], heading: &str) -> String {
    let mut s = format!(
        "{heading}\n\n| scene | draws | energy regained J, median / p75 / max: thud | Rapier \
         | rank-sum z, thud against Rapier | deepest overlap mm, median / max: thud | Rapier \
         | draws ending with bodies moving (bodies): thud | Rapier |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|\n"
    );
    for r in rows {
        let thud: Vec<&Figures> = r.draws.iter().map(|d| &d.thud).collect();
        let rapier: Vec<&Figures> = r.draws.iter().map(|d| &d.rapier).collect();
        let (t, p) = (summary(&thud), summary(&rapier));
        let regained = |f: &[&Figures]| f.iter().map(|f| f.energy_rebound).collect::<Vec<_>>();
        let z = rank_sum_z(&regained(&thud), &regained(&rapier));
        let _ = writeln!(
            s,
            "| {} | {} | {:.3} / {:.3} / {:.3} | {:.3} / {:.3} / {:.3} | {z:+.2} | {:.1} / {:.1} | {:.1} / {:.1} | {} ({}) | {} ({}) |",
            r.scene,
            r.draws.len(),
            t.0[0],
            t.0[1],
            t.0[2],
            p.0[0],
            p.0[1],
            p.0[2],
            t.1[0],
            t.1[1],
            p.1[0],
            p.1[1],
            t.2,
            t.3,
            p.2,
            p.3,
        );
    }
    for r in rows {
        let _ = write!(
            s,
            "\n{}, draw by draw (every body's friction μ):\n\n\
             | μ | energy regained J thud / Rapier | deepest overlap mm thud / Rapier \
             | bodies moving thud / Rapier |\n|---:|---:|---:|---:|\n",
            r.scene
        );
        for d in &r.draws {
            let _ = writeln!(
                s,
                "| {:.2} | {:.3} / {:.3} | {:.1} / {:.1} | {} / {} |",
                d.friction,
                d.thud.energy_rebound,
                d.rapier.energy_rebound,
                d.thud.max_penetration * 1e3,
                d.rapier.max_penetration * 1e3,
                d.thud.still_moving,
                d.rapier.still_moving,
            );
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figures(rebound: f64, penetration: f32, moving: usize) -> Figures {
        Figures {
            engine: "test",
            steps: 10,
            median_ms: 1.0,
            p90_ms: 1.0,
            mean_ms: 1.0,
            per_second_ms: Vec::new(),
            drift: None,
            sag: None,
            max_penetration: penetration,
            still_moving: moving,
            energy_rise: 0.0,
            energy_rebound: rebound,
            contact_points: 0,
            heap: None,
        }
    }

    #[test]
    fn the_draws_frictions_span_the_range_evenly() {
        let f = frictions(24).expect("24 draws");
        assert_eq!(f.len(), 24);
        assert_eq!((f[0], f[1], f[10], f[23]), (0.40, 0.42, 0.60, 0.86));
        assert_eq!(frictions(2).expect("two"), [0.40, 0.86]);
        assert!(frictions(1).is_err() && frictions(0).is_err());
    }

    #[test]
    fn the_rank_sum_test_reads_which_sample_ranks_higher() {
        let low = [0.1, 0.2, 0.3, 0.4];
        let high = [0.5, 0.6, 0.7, 0.8];
        let z = rank_sum_z(&high, &low);
        // Ranks 5..8 against the mean 18 of a sample of 4 among 8, sd √(16·9/12).
        assert!((z - (26.0 - 18.0) / 12f64.sqrt()).abs() < 1e-12, "{z}");
        assert!((rank_sum_z(&low, &high) + z).abs() < 1e-12);
        assert_eq!(rank_sum_z(&low, &low), 0.0);
        // Ties share their mean rank: all four equal values rank alike.
        assert_eq!(rank_sum_z(&[1.0, 1.0], &[1.0, 1.0]), 0.0);
        assert_eq!(rank_sum_z(&[], &low), 0.0);
    }

    /// Each draw runs the scene with its friction on every body; the table sums the
    /// draws per engine and lists them one by one.
    #[test]
    fn draws_run_the_scene_at_each_friction_and_sum_up() {
        let scene = thud_scene::standard("tower_20").expect("standard scene");
        let set = |s: &mut Scene, mu: f32| {
            for b in &mut s.bodies {
                b.friction = mu;
            }
        };
        let mut seen = Vec::new();
        let draws = measure(&scene, 3, set, |s| {
            let mu = s.bodies[1].friction;
            seen.push(mu);
            let k = seen.len();
            Ok((
                figures(0.01 * k as f64, 1e-3 * k as f32, k - 1),
                figures(0.1, 5e-3, 0),
            ))
        })
        .expect("draws");
        assert_eq!(seen, [0.40, 0.63, 0.86]);
        assert_eq!(draws.draws.len(), 3);
        let table = markdown(&[draws], "heading");
        assert!(
            table.contains("| tower_20 | 3 | 0.020 / 0.030 / 0.030 | 0.100 / 0.100 / 0.100 |"),
            "{table}"
        );
        assert!(
            table.contains("| 2.0 / 3.0 | 5.0 / 5.0 | 2 (3) | 0 (0) |"),
            "{table}"
        );
        assert!(
            table.contains("| 0.63 | 0.020 / 0.100 | 2.0 / 5.0 | 1 / 0 |"),
            "{table}"
        );
        // thud's three draws rank 1–3 of six: z = (6 − 10.5)/√5.25.
        assert!(table.contains("| -1.96 |"), "{table}");
    }
}
