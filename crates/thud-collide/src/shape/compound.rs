//! Compounds: several convex shapes rigidly attached, each with a local pose.
//!
//! A compound is flat: its children are convex primitives or hulls (no nested
//! compounds, meshes or half-spaces), which keeps sub-shape indices one level
//! deep (`sub_a`/`sub_b` in the narrowphase output are child indices). Each
//! child's local bounding box is cached so the narrowphase can skip children
//! whose box misses the other shape's box.

use crate::{Aabb, Pose, Shape, ShapeError};

/// A rigid set of convex child shapes with local poses.
#[derive(Clone, Debug)]
pub struct Compound {
    children: Vec<(Pose, Shape)>,
    child_aabbs: Vec<Aabb>,
    aabb: Aabb,
}

impl Compound {
    /// A compound of convex children (not empty; finite poses).
    pub fn new(children: Vec<(Pose, Shape)>) -> Result<Self, ShapeError> {
        if children.is_empty() {
            return Err(ShapeError::EmptyCompound);
        }
        for (index, (pose, shape)) in children.iter().enumerate() {
            if !pose.is_finite() {
                return Err(ShapeError::NonFinite {
                    what: "compound child pose",
                });
            }
            if !shape.is_convex() {
                return Err(ShapeError::InvalidCompoundChild { index });
            }
        }
        let child_aabbs: Vec<Aabb> = children.iter().map(|(p, s)| s.aabb(p)).collect();
        let aabb = child_aabbs.iter().fold(Aabb::EMPTY, |a, b| a.union(b));
        Ok(Self {
            children,
            child_aabbs,
            aabb,
        })
    }

    /// The children with their local poses.
    #[must_use]
    pub fn children(&self) -> &[(Pose, Shape)] {
        &self.children
    }

    /// Each child's bounding box in the compound's frame.
    #[must_use]
    pub fn child_aabbs(&self) -> &[Aabb] {
        &self.child_aabbs
    }

    /// Bounding box of the whole compound in its own frame.
    #[must_use]
    pub fn local_aabb(&self) -> Aabb {
        self.aabb
    }
}
