//! The joint entry points of [`World`]: add, remove, read back, drive.
//!
//! Like every entry point, these validate first and mutate after: an error leaves the
//! world unchanged.

use glam::Vec3;

use super::{AnchorSpec, AxisSpec, Joint, JointBuilder, JointHandle, JointKind, rows};
use crate::error::{DynamicsError, finite3};
use crate::world::World;

impl World {
    /// Add a joint. Refused with a typed error: a removed or foreign body handle, a body
    /// joined to itself, non-finite anchors or axes, a zero axis, limits with
    /// `min > max`, negative motor forces or break thresholds. Both bodies are woken.
    pub fn add_joint(&mut self, builder: JointBuilder) -> Result<JointHandle, DynamicsError> {
        let pose_b = self.bodies.get(builder.b)?.pose;
        let pose_a = match builder.a {
            Some(a) => {
                if a == builder.b {
                    return Err(DynamicsError::InvalidJoint(
                        "a joint needs two different bodies".into(),
                    ));
                }
                self.bodies.get(a)?.pose
            }
            None => thud_collide::Pose::IDENTITY,
        };
        super::validate_kind(&builder.kind)?;
        for (t, what) in [
            (builder.break_force, "joint break force"),
            (builder.break_torque, "joint break torque"),
        ] {
            if let Some(t) = t {
                crate::error::non_negative(t, what)?;
            }
        }
        let (anchor_a, anchor_b) = match builder.anchor {
            AnchorSpec::World(p) => {
                finite3(p, "joint anchor")?;
                (
                    pose_a.inverse_transform_point(p),
                    pose_b.inverse_transform_point(p),
                )
            }
            AnchorSpec::Local(a, b) => {
                finite3(a, "joint anchor a")?;
                finite3(b, "joint anchor b")?;
                (a, b)
            }
        };
        let (qa, qb) = (pose_a.rotation, pose_b.rotation);
        let unit = |v: Vec3, what: &str| {
            finite3(v, "joint axis")?;
            v.try_normalize()
                .ok_or_else(|| DynamicsError::InvalidJoint(format!("{what} is zero")))
        };
        let (axis_a, axis_b) = match builder.axis {
            AxisSpec::World(ax) => {
                let ax = unit(ax, "joint axis")?;
                (qa.inverse() * ax, qb.inverse() * ax)
            }
            AxisSpec::Local(a, b) => (unit(a, "joint axis a")?, unit(b, "joint axis b")?),
        };
        let ref_a = super::perpendicular(axis_a);
        let r = qb.inverse() * (qa * ref_a);
        let ref_b = (r - axis_b * r.dot(axis_b))
            .try_normalize()
            .unwrap_or_else(|| super::perpendicular(axis_b));
        let joint = Joint {
            a: builder.a.map(|h| h.index()),
            b: builder.b.index(),
            handle_a: builder.a,
            handle_b: builder.b,
            kind: builder.kind,
            anchor_a,
            anchor_b,
            axis_a,
            axis_b,
            ref_a,
            ref_b,
            rest_rotation: (qa.inverse() * qb).normalize(),
            collide_connected: builder.collide_connected,
            break_force: builder.break_force,
            break_torque: builder.break_torque,
            warm: [0.0; rows::SLOTS],
            force: Vec3::ZERO,
            torque: Vec3::ZERO,
            broken: false,
        };
        self.wake_joint(&joint);
        Ok(self.joints.insert(joint))
    }

    /// Remove a joint; its bodies are woken.
    pub fn remove_joint(&mut self, h: JointHandle) -> Result<(), DynamicsError> {
        let j = self.joints.remove(h)?;
        self.wake_joint(&j);
        Ok(())
    }

    /// The joint of a handle.
    pub fn joint(&self, h: JointHandle) -> Result<&Joint, DynamicsError> {
        self.joints.get(h)
    }

    /// Every live joint with its handle.
    pub fn joints(&self) -> impl Iterator<Item = (JointHandle, &Joint)> {
        self.joints.iter()
    }

    /// Number of live joints.
    #[must_use]
    pub fn joint_count(&self) -> usize {
        self.joints.len()
    }

    /// Set (or clear, with `None`) the motor of a hinge or slider; wakes its bodies.
    pub fn set_joint_motor(
        &mut self,
        h: JointHandle,
        motor: Option<super::Motor>,
    ) -> Result<(), DynamicsError> {
        let j = self.joints.get(h)?;
        let mut kind = j.kind;
        match &mut kind {
            JointKind::Hinge { motor: m, .. } | JointKind::Prismatic { motor: m, .. } => {
                *m = motor;
            }
            _ => {
                return Err(DynamicsError::InvalidJoint(
                    "only hinges and sliders have motors".into(),
                ));
            }
        }
        super::validate_kind(&kind)?;
        let j = self.joints.get_mut(h)?;
        j.kind = kind;
        let j = j.clone();
        self.wake_joint(&j);
        Ok(())
    }

    /// The hinge angle (rad) or slider travel (m) of a joint now; `None` for other kinds.
    pub fn joint_coordinate(&self, h: JointHandle) -> Result<Option<f32>, DynamicsError> {
        let j = self.joints.get(h)?;
        let pose =
            |s: Option<u32>| s.map_or(thud_collide::Pose::IDENTITY, |s| self.bodies.slot(s).pose);
        let (pa, pb) = (pose(j.a), pose(Some(j.b)));
        let side = |p: thud_collide::Pose| rows::Side {
            position: p.position,
            rotation: p.rotation,
            com: p.position,
            index: 0,
        };
        let f = rows::Frames {
            sa: side(pa),
            sb: side(pb),
            pa: pa.transform_point(j.anchor_a),
            pb: pb.transform_point(j.anchor_b),
            axis_a: pa.rotation * j.axis_a,
            axis_b: pb.rotation * j.axis_b,
        };
        Ok(match j.kind {
            JointKind::Hinge { .. } => Some(super::hinge::angle(j, &f)),
            JointKind::Prismatic { .. } => Some(super::prismatic::travel(&f)),
            _ => None,
        })
    }

    fn wake_joint(&mut self, j: &Joint) {
        self.wake(j.b);
        if let Some(a) = j.a {
            self.wake(a);
        }
    }
}
