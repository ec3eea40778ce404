//! The figures a run reports (`scenes.md`, "What a run of a scene reports"), computed
//! from the world's state, not from the solver's own bookkeeping.
//!
//! - **energy** `E = Σ ½m|v|² + ½ωᵀIω − m·g·x` over dynamic bodies, summed in f64
//!   (with the standard gravity this is kinetic + m·9.81·y);
//! - **max penetration**: the deepest overlap of any two shapes of different bodies,
//!   found geometrically from the poses (a fresh broadphase and narrowphase at zero
//!   margin), so stale contact data cannot hide it;
//! - **lowest point**: the least y of any dynamic body's bounding box;
//! - **still moving**: dynamic bodies faster than 0.1 m/s;
//! - [`EnergyTracker`]: energy rise (max over steps of E(t) − E(0)) and energy rebound
//!   (max over t of E(t) − min over s ≤ t of E(s)).
//! - [`percentile`] for step-time statistics.

use glam::Vec3;
use thud_collide::{BroadPhase, CollisionFilter, Pose, Shape, contact_manifolds};
use thud_dynamics::{Body, BodyKind};

/// Speed above which a body counts as still moving, m/s.
pub const STILL_MOVING_SPEED: f32 = 0.1;

/// Energy of one body (J): kinetic plus potential `−m·g·x` (zero for non-dynamic ones).
#[must_use]
pub fn body_energy(body: &Body, gravity: Vec3) -> f64 {
    if body.kind() != BodyKind::Dynamic {
        return 0.0;
    }
    let potential = -f64::from(body.mass()) * f64::from(gravity.dot(body.center_of_mass()));
    f64::from(body.kinetic_energy()) + potential
}

/// Running energy rise and rebound of a run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EnergyTracker {
    /// E(0).
    pub initial: f64,
    /// Least energy so far.
    pub min: f64,
    /// Max over steps of E(t) − E(0) (never below 0: E(0) − E(0)).
    pub rise: f64,
    /// Max over t of E(t) − min over s ≤ t of E(s).
    pub rebound: f64,
}

impl EnergyTracker {
    /// Starts at E(0).
    #[must_use]
    pub fn new(initial: f64) -> EnergyTracker {
        EnergyTracker {
            initial,
            min: initial,
            rise: 0.0,
            rebound: 0.0,
        }
    }

    /// Records E(t) of one more step.
    pub fn record(&mut self, e: f64) {
        self.rise = self.rise.max(e - self.initial);
        self.min = self.min.min(e);
        self.rebound = self.rebound.max(e - self.min);
    }
}

/// The `p`-quantile (0..=1) of `values` by nearest rank; 0 for none.
#[must_use]
pub fn percentile(values: &[f64], p: f64) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    let rank = ((p.clamp(0.0, 1.0) * v.len() as f64).ceil() as usize).clamp(1, v.len());
    v[rank - 1]
}

/// A shape placed in the world, tagged with its body.
#[derive(Debug, Clone)]
pub struct PlacedShape {
    /// Index of the owning body (shapes of one body never count against each other).
    pub body: usize,
    /// World pose.
    pub pose: Pose,
    /// The shape.
    pub shape: Shape,
    /// Whether the owning body can move.
    pub moving: bool,
}

/// The deepest overlap (m, ≥ 0) between shapes of different bodies, and the pair.
#[must_use]
pub fn max_penetration(shapes: &[PlacedShape]) -> (f32, Option<(usize, usize)>) {
    max_penetration_except(shapes, |_, _| false)
}

/// [`max_penetration`], leaving out the body pairs `(a, b)` for which `skip(a, b)` is
/// true (bodies joined by a joint that turns their collisions off).
#[must_use]
pub fn max_penetration_except(
    shapes: &[PlacedShape],
    skip: impl Fn(usize, usize) -> bool,
) -> (f32, Option<(usize, usize)>) {
    let mut broad = BroadPhase::new();
    for (k, s) in shapes.iter().enumerate() {
        broad.insert(
            k as u32,
            s.shape.aabb(&s.pose),
            s.moving,
            CollisionFilter::default(),
        );
    }
    let mut pairs = Vec::new();
    broad.find_pairs(&mut pairs);
    let mut deepest = 0.0f32;
    let mut which = None;
    let mut out = Vec::new();
    for (a, b) in pairs {
        let (sa, sb) = (&shapes[a as usize], &shapes[b as usize]);
        if sa.body == sb.body || skip(sa.body, sb.body) {
            continue;
        }
        out.clear();
        contact_manifolds(&sa.shape, &sa.pose, &sb.shape, &sb.pose, 0.0, &mut out);
        for (_, _, m) in &out {
            if let Some(sep) = m.min_separation()
                && -sep > deepest
            {
                deepest = -sep;
                which = Some((sa.body, sb.body));
            }
        }
    }
    (deepest, which)
}

/// The least y of the bounding boxes of the moving shapes, with its body.
#[must_use]
pub fn lowest_point(shapes: &[PlacedShape]) -> Option<(f32, usize)> {
    shapes
        .iter()
        .filter(|s| s.moving)
        .map(|s| (s.shape.aabb(&s.pose).min.y, s.body))
        .min_by(|a, b| a.0.total_cmp(&b.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tracker_rise_and_rebound() {
        let mut t = EnergyTracker::new(10.0);
        for e in [9.0, 5.0, 7.0, 6.0, 10.5] {
            t.record(e);
        }
        assert_eq!(t.rise, 0.5);
        assert_eq!(t.rebound, 5.5);
    }

    #[test]
    fn percentiles() {
        let v = [5.0, 1.0, 3.0, 2.0, 4.0];
        assert_eq!(percentile(&v, 0.5), 3.0);
        assert_eq!(percentile(&v, 0.9), 5.0);
        assert_eq!(percentile(&[], 0.5), 0.0);
    }

    #[test]
    fn penetration_of_overlapping_boxes() {
        let cube = Shape::cuboid(Vec3::splat(0.5)).unwrap();
        let shapes = [
            PlacedShape {
                body: 0,
                pose: Pose::from_translation(Vec3::ZERO),
                shape: cube.clone(),
                moving: true,
            },
            PlacedShape {
                body: 1,
                pose: Pose::from_translation(Vec3::new(0.9, 0.0, 0.0)),
                shape: cube.clone(),
                moving: true,
            },
            PlacedShape {
                body: 2,
                pose: Pose::from_translation(Vec3::new(5.0, 0.0, 0.0)),
                shape: cube,
                moving: true,
            },
        ];
        let (d, pair) = max_penetration(&shapes);
        assert!((d - 0.1).abs() < 1e-4, "{d}");
        assert_eq!(pair, Some((0, 1)));
        assert_eq!(lowest_point(&shapes).map(|l| l.0), Some(-0.5));
    }
}
