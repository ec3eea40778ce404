//! Collision filtering by group bits.
//!
//! Each collider belongs to the groups set in `memberships` and wants to touch
//! the groups set in `filter`. Two colliders interact when each one's
//! memberships meet the other's filter:
//! `(a.memberships & b.filter) != 0 && (b.memberships & a.filter) != 0`.
//! The rule is symmetric, so the order of a pair does not matter.

/// Group/mask collision filter. The default collides with everything.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CollisionFilter {
    /// The groups this collider belongs to.
    pub memberships: u32,
    /// The groups this collider collides with.
    pub filter: u32,
}

impl Default for CollisionFilter {
    fn default() -> Self {
        Self::ALL
    }
}

impl CollisionFilter {
    /// Member of every group, collides with every group.
    pub const ALL: CollisionFilter = CollisionFilter {
        memberships: u32::MAX,
        filter: u32::MAX,
    };
    /// Collides with nothing.
    pub const NONE: CollisionFilter = CollisionFilter {
        memberships: 0,
        filter: 0,
    };

    /// A filter from its two masks.
    #[must_use]
    pub const fn new(memberships: u32, filter: u32) -> Self {
        Self {
            memberships,
            filter,
        }
    }

    /// Whether two colliders with these filters may touch.
    #[inline]
    #[must_use]
    pub const fn test(&self, other: &CollisionFilter) -> bool {
        (self.memberships & other.filter) != 0 && (other.memberships & self.filter) != 0
    }
}

impl From<(u32, u32)> for CollisionFilter {
    fn from((memberships, filter): (u32, u32)) -> Self {
        Self {
            memberships,
            filter,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_rule() {
        let a = CollisionFilter::new(0b01, 0b10);
        let b = CollisionFilter::new(0b10, 0b01);
        let c = CollisionFilter::new(0b10, 0b10);
        assert!(a.test(&b) && b.test(&a));
        assert!(!a.test(&c) && !c.test(&a));
        assert!(CollisionFilter::default().test(&CollisionFilter::ALL));
    }
}
