//! The output of a run: one markdown table (one row per scene, thud beside Rapier)
//! and, on request, the same figures as JSON.

use std::fmt::Write as _;

use serde_json::{Value, json};

use crate::measure::Figures;

/// Both engines' figures on one scene.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Scene name.
    pub scene: String,
    /// Dynamic bodies in the scene.
    pub dynamic_bodies: usize,
    /// thud's figures.
    pub thud: Figures,
    /// Rapier's figures.
    pub rapier: Figures,
}

fn mm(v: Option<f32>) -> String {
    v.map_or_else(|| "–".to_string(), |m| format!("{:.2}", m * 1e3))
}

fn ms(f: &Figures) -> String {
    format!("{:.2} / {:.2} / {:.2}", f.median_ms, f.p90_ms, f.mean_ms)
}

/// The markdown table of `rows`, headed by a line naming the settings.
#[must_use]
pub fn markdown(rows: &[Row], heading: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{heading}\n");
    s.push_str(
        "| scene | steps | thud median/p90/mean ms | Rapier median/p90/mean ms | ratio (thud/Rapier) \
         | drift mm thud/Rapier | sag mm thud/Rapier | max pen mm thud/Rapier \
         | moving thud/Rapier | energy rise J thud/Rapier | energy rebound J thud/Rapier |\n",
    );
    s.push_str("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for r in rows {
        let (t, p) = (&r.thud, &r.rapier);
        let ratio = if p.median_ms > 0.0 {
            format!("{:.2}", t.median_ms / p.median_ms)
        } else {
            "–".to_string()
        };
        let _ = writeln!(
            s,
            "| {} ({}) | {} | {} | {} | {} | {} / {} | {} / {} | {} / {} | {} / {} | {:.3} / {:.3} | {:.3} / {:.3} |",
            r.scene,
            r.dynamic_bodies,
            t.steps,
            ms(t),
            ms(p),
            ratio,
            mm(t.drift),
            mm(p.drift),
            mm(t.sag),
            mm(p.sag),
            mm(Some(t.max_penetration)),
            mm(Some(p.max_penetration)),
            t.still_moving,
            p.still_moving,
            t.energy_rise,
            p.energy_rise,
            t.energy_rebound,
            p.energy_rebound,
        );
    }
    s
}

/// `bytes / n` as a whole number, or `–`.
fn per(bytes: usize, n: usize) -> String {
    bytes
        .checked_div(n)
        .map_or_else(|| "–".to_string(), |b| b.to_string())
}

/// The memory table of `rows`: live heap bytes of each engine once the scene was built
/// and after its run, and two derived figures: bytes per dynamic body (the built world,
/// before any contact exists) and bytes per contact point (what stepping added, over
/// the contact points held at the end).
#[must_use]
pub fn memory_markdown(rows: &[Row]) -> String {
    let mut s = String::from(
        "| scene | contact points thud/Rapier | heap built KiB thud/Rapier \
         | heap after KiB thud/Rapier | B per body thud/Rapier | B per contact point thud/Rapier |\n\
         |---|---:|---:|---:|---:|---:|\n",
    );
    for r in rows {
        let (Some((tb, ta)), Some((rb, ra))) = (r.thud.heap, r.rapier.heap) else {
            continue;
        };
        let (tc, rc) = (r.thud.contact_points, r.rapier.contact_points);
        let _ = writeln!(
            s,
            "| {} | {tc} / {rc} | {} / {} | {} / {} | {} / {} | {} / {} |",
            r.scene,
            tb / 1024,
            rb / 1024,
            ta / 1024,
            ra / 1024,
            per(tb, r.dynamic_bodies),
            per(rb, r.dynamic_bodies),
            per(ta.saturating_sub(tb), tc),
            per(ra.saturating_sub(rb), rc),
        );
    }
    s
}

/// Each scene's median step time second by second, both engines and their ratio.
#[must_use]
pub fn per_second_markdown(rows: &[Row]) -> String {
    let mut s = String::from(
        "| scene | second | thud median ms | Rapier median ms | thud/Rapier |\n\
         |---|---:|---:|---:|---:|\n",
    );
    for r in rows {
        let pairs = r.thud.per_second_ms.iter().zip(&r.rapier.per_second_ms);
        for (k, (&t, &p)) in pairs.enumerate() {
            let ratio = if p > 0.0 { t / p } else { f64::NAN };
            let _ = writeln!(
                s,
                "| {} | {} | {t:.2} | {p:.2} | {ratio:.2} |",
                r.scene,
                k + 1
            );
        }
    }
    s
}

fn figures_json(f: &Figures) -> Value {
    json!({
        "engine": f.engine,
        "steps": f.steps,
        "median_ms": f.median_ms,
        "p90_ms": f.p90_ms,
        "mean_ms": f.mean_ms,
        "per_second_ms": f.per_second_ms,
        "drift_m": f.drift,
        "sag_m": f.sag,
        "max_penetration_m": f.max_penetration,
        "still_moving": f.still_moving,
        "energy_rise_j": f.energy_rise,
        "energy_rebound_j": f.energy_rebound,
        "contact_points": f.contact_points,
        "heap_built_bytes": f.heap.map(|h| h.0),
        "heap_after_bytes": f.heap.map(|h| h.1),
    })
}

/// The figures of `rows` as JSON, with the run's settings.
#[must_use]
pub fn json(rows: &[Row], settings: Value) -> Value {
    json!({
        "settings": settings,
        "scenes": rows.iter().map(|r| json!({
            "scene": r.scene,
            "dynamic_bodies": r.dynamic_bodies,
            "thud": figures_json(&r.thud),
            "rapier": figures_json(&r.rapier),
        })).collect::<Vec<_>>(),
    })
}
