//! Colliders: a shape attached to a body at a local pose, with a material, a density
//! (for mass properties) and a collision filter.
//!
//! The shortcuts ([`Collider::cuboid`], [`Collider::sphere`], ...) validate lazily: an
//! invalid size is remembered and reported by `World::add_body` as
//! [`DynamicsError::Shape`], so builder chains stay infallible.

use glam::Vec3;
use thud_collide::{CollisionFilter, Pose, Shape, ShapeError};

use crate::error::DynamicsError;
use crate::material::Material;

/// A shape attached to a body.
#[derive(Debug, Clone)]
pub struct Collider {
    shape: Result<Shape, String>,
    local_pose: Pose,
    material: Material,
    density: f32,
    filter: CollisionFilter,
}

impl Collider {
    /// A collider from a built shape, at the body origin, density 1, default material.
    #[must_use]
    pub fn new(shape: Shape) -> Self {
        Self::from_result(Ok(shape))
    }

    fn from_result(shape: Result<Shape, ShapeError>) -> Self {
        Self {
            shape: shape.map_err(|e| e.to_string()),
            local_pose: Pose::IDENTITY,
            material: Material::DEFAULT,
            density: 1.0,
            filter: CollisionFilter::default(),
        }
    }

    /// A box with the given half-extents (m).
    #[must_use]
    pub fn cuboid(half_extents: Vec3) -> Self {
        Self::from_result(Shape::cuboid(half_extents))
    }

    /// A sphere of the given radius (m).
    #[must_use]
    pub fn sphere(radius: f32) -> Self {
        Self::from_result(Shape::sphere(radius))
    }

    /// A capsule along local +y.
    #[must_use]
    pub fn capsule(half_height: f32, radius: f32) -> Self {
        Self::from_result(Shape::capsule(half_height, radius))
    }

    /// A cylinder along local +y.
    #[must_use]
    pub fn cylinder(half_height: f32, radius: f32) -> Self {
        Self::from_result(Shape::cylinder(half_height, radius))
    }

    /// A half-space through the local origin, solid below, with outward unit `normal`
    /// (static bodies only: it has no finite mass).
    #[must_use]
    pub fn halfspace(normal: Vec3) -> Self {
        Self::from_result(Shape::halfspace(normal))
    }

    /// Coulomb friction coefficient (≥ 0).
    #[must_use]
    pub fn friction(mut self, friction: f32) -> Self {
        self.material.friction = friction;
        self
    }

    /// Coefficient of restitution (0..=1).
    #[must_use]
    pub fn restitution(mut self, restitution: f32) -> Self {
        self.material.restitution = restitution;
        self
    }

    /// Both material coefficients at once.
    #[must_use]
    pub fn material(mut self, material: Material) -> Self {
        self.material = material;
        self
    }

    /// Density in kg/m³ (used for the body's mass properties).
    #[must_use]
    pub fn density(mut self, density: f32) -> Self {
        self.density = density;
        self
    }

    /// Pose of the shape in the body's frame.
    #[must_use]
    pub fn local_pose(mut self, pose: Pose) -> Self {
        self.local_pose = pose;
        self
    }

    /// Collision filter (default: collide with everything).
    #[must_use]
    pub fn filter(mut self, filter: CollisionFilter) -> Self {
        self.filter = filter;
        self
    }

    /// The shape (`None` only for a lazily invalid shortcut that was never added).
    #[must_use]
    pub fn shape(&self) -> Option<&Shape> {
        self.shape.as_ref().ok()
    }

    /// The shape's pose in the body frame.
    #[must_use]
    pub fn pose(&self) -> Pose {
        self.local_pose
    }

    /// The surface material.
    #[must_use]
    pub fn get_material(&self) -> Material {
        self.material
    }

    /// Density in kg/m³.
    #[must_use]
    pub fn get_density(&self) -> f32 {
        self.density
    }

    /// The collision filter.
    #[must_use]
    pub fn get_filter(&self) -> CollisionFilter {
        self.filter
    }

    /// Validate everything the builder chain deferred.
    pub(crate) fn validate(&self) -> Result<&Shape, DynamicsError> {
        let shape = self
            .shape
            .as_ref()
            .map_err(|e| DynamicsError::Shape(e.clone()))?;
        crate::error::non_negative(self.material.friction, "friction")?;
        crate::error::non_negative(self.material.restitution, "restitution")?;
        crate::error::non_negative(self.density, "density")?;
        if !self.local_pose.is_finite() {
            return Err(DynamicsError::NonFinite {
                what: "collider local pose",
            });
        }
        Ok(shape)
    }
}

impl From<Shape> for Collider {
    fn from(shape: Shape) -> Self {
        Self::new(shape)
    }
}

/// The world's collider slots: the keys thud-collide's broadphase and narrowphase use.
/// Parallel arrays indexed by key; freed keys keep their last shape (never paired again
/// until reused).
#[derive(Debug, Clone, Default)]
pub(crate) struct ColliderSet {
    /// World-frame shapes (`shapes[key]`, as `NarrowPhase::update` wants them).
    pub shapes: Vec<Shape>,
    /// World poses, updated each step for moving bodies.
    pub poses: Vec<Pose>,
    /// Owning body slot (`u32::MAX` = free key).
    pub body: Vec<u32>,
    /// Pose in the body frame.
    pub local: Vec<Pose>,
    /// Surface material.
    pub material: Vec<Material>,
    free: Vec<u32>,
    /// Counts inserts and removals: while it stays the same, every key has the same
    /// body and material (what the contact store gathers by key).
    generation: u64,
}

impl ColliderSet {
    /// Room for `additional` more colliders without reallocating.
    pub fn reserve(&mut self, additional: usize) {
        self.shapes.reserve(additional);
        self.poses.reserve(additional);
        self.body.reserve(additional);
        self.local.reserve(additional);
        self.material.reserve(additional);
    }

    /// Take a key for a collider of body slot `body`.
    pub fn insert(
        &mut self,
        shape: Shape,
        local: Pose,
        world: Pose,
        material: Material,
        body: u32,
    ) -> u32 {
        self.generation = self.generation.wrapping_add(1);
        if let Some(k) = self.free.pop() {
            let i = k as usize;
            self.shapes[i] = shape;
            self.poses[i] = world;
            self.body[i] = body;
            self.local[i] = local;
            self.material[i] = material;
            k
        } else {
            self.shapes.push(shape);
            self.poses.push(world);
            self.body.push(body);
            self.local.push(local);
            self.material.push(material);
            (self.shapes.len() - 1) as u32
        }
    }

    /// See the field: changes with every insert and removal.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Free a key.
    pub fn remove(&mut self, key: u32) {
        self.generation = self.generation.wrapping_add(1);
        self.body[key as usize] = u32::MAX;
        self.free.push(key);
    }
}
