//! Surface materials and how two of them combine at a contact.
//!
//! A contact between colliders A and B uses one friction coefficient μ and one
//! restitution e. The defaults follow `shared/scenes.md`: friction is the geometric
//! mean `μ = √(μa·μb)` (a frictionless surface makes any contact frictionless, and equal
//! materials keep their value), restitution is the maximum `e = max(ea, eb)` (a bouncy
//! ball bounces on any floor). Both rules are overridable per world through
//! [`Settings::friction_combine`](crate::Settings::friction_combine) and
//! [`Settings::restitution_combine`](crate::Settings::restitution_combine).

/// Friction and restitution of a collider's surface.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Material {
    /// Coulomb friction coefficient μ (≥ 0, dimensionless).
    pub friction: f32,
    /// Coefficient of restitution e (0 = plastic, 1 = elastic).
    pub restitution: f32,
}

impl Material {
    /// The standard scenes' box material: μ = 0.6, e = 0.
    pub const DEFAULT: Self = Self {
        friction: 0.6,
        restitution: 0.0,
    };

    /// A material from its two coefficients.
    #[must_use]
    pub const fn new(friction: f32, restitution: f32) -> Self {
        Self {
            friction,
            restitution,
        }
    }
}

impl Default for Material {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl From<(f32, f32)> for Material {
    fn from((friction, restitution): (f32, f32)) -> Self {
        Self::new(friction, restitution)
    }
}

/// How two coefficients combine into the contact's coefficient.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum CombineRule {
    /// `(a + b) / 2`.
    Average,
    /// `min(a, b)`.
    Min,
    /// `a · b`.
    Multiply,
    /// `max(a, b)`.
    Max,
    /// `√(a · b)` (the friction default).
    #[default]
    GeometricMean,
}

impl CombineRule {
    /// Combine two coefficients.
    #[must_use]
    #[inline]
    pub fn combine(self, a: f32, b: f32) -> f32 {
        match self {
            Self::Average => 0.5 * (a + b),
            Self::Min => a.min(b),
            Self::Multiply => a * b,
            Self::Max => a.max(b),
            Self::GeometricMean => (a * b).sqrt(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_rules_match_the_scenes() {
        assert!((CombineRule::GeometricMean.combine(0.6, 0.6) - 0.6).abs() < 1e-6);
        assert_eq!(CombineRule::Max.combine(0.0, 0.5), 0.5);
        assert_eq!(CombineRule::GeometricMean.combine(0.0, 0.9), 0.0);
    }
}
