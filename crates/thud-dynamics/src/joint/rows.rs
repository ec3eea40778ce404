//! Joint rows: the solver's view of the joints, rebuilt every step.
//!
//! A joint row is a contact row ([`Row`]: `J̃ = J/D`, `T = M⁻¹Jᵀ`, `D`, `b̃`, `λ`) plus its
//! own bounds and softness. Two shapes of row cover every joint:
//!
//! ```text
//!   linear, direction d, points p_a, p_b:   J = [ −dᵀ  −(r_a×d)ᵀ | dᵀ  (r_b×d)ᵀ ]
//!   angular, axis k:                        J = [  0    −kᵀ      | 0     kᵀ     ]
//! ```
//!
//! with `r = p − c` the lever arms. The row's position error `C` (with `Ċ = J·v`) sets
//! the bias: bilateral rows `b = erp·C/dt` (split-impulse pass, or the velocity row under
//! Baumgarte), limit rows `b = C/dt` while `C > 0` (speculative) and `erp·C/dt` once
//! violated, motor rows `b = −v_target` with `|λ| ≤ F_max·dt`.
//!
//! **Soft rows** (distance springs) follow the soft-constraint form: for frequency `f`,
//! damping ratio `ζ`, `ω = 2πf`, step `h`:
//!
//! ```text
//!   a₁ = 2ζ + hω,  a₂ = hω·a₁,  a₃ = 1/(1 + a₂)
//!   bias = (ω/a₁)·C,  mass_scale = a₂·a₃,  impulse_scale = a₃
//!   Δλ = −mass_scale·(J·v + bias)/D − impulse_scale·λ
//! ```
//!
//! which is implicit Euler on the spring `k = ω²/D`, `c = 2ζω/D` (unconditionally
//! stable); rigid rows have `mass_scale = 1`, `impulse_scale = 0`. In the exact mode the
//! same row is the LCP row `(A + γ)λ + b` with `γ = D·impulse_scale/mass_scale`.

use glam::{Quat, Vec3};

use crate::body::BodySet;
use crate::jacobian::{Row, angular_row, row};
use crate::solver_body::SolverBodies;

use super::{Joint, JointKind, JointSet, Motor};

/// Row slots per joint (warm-start storage): 0–2 linear, 3–5 angular, 6 lower limit,
/// 7 upper limit, 8 motor.
pub(crate) const SLOTS: usize = 9;

/// What a row does (its bounds and bias rule).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum RowKind {
    /// `λ ∈ ℝ`, bias `erp·C/dt`.
    Bilateral,
    /// `λ ≥ 0`, keeps `C ≥ 0`.
    Limit,
    /// `|λ| ≤ max_impulse`, drives `J·v` to `target`.
    Motor { target: f32, max_impulse: f32 },
    /// A spring (see module docs).
    Soft { frequency: f32, damping_ratio: f32 },
}

/// One joint row with its bounds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct JointRow {
    pub a: u32,
    pub b: u32,
    pub inv_mass_a: f32,
    pub inv_mass_b: f32,
    pub lo: f32,
    pub hi: f32,
    pub mass_scale: f32,
    pub impulse_scale: f32,
    pub row: Row,
    /// `b̃` of the split-impulse position row; `split_lo` its lower bound; rows with
    /// `split_active == false` (motors, springs, limits not violated) are skipped.
    pub split_b: f32,
    pub split_lo: f32,
    pub split_active: bool,
    /// Joint slot and row slot (write-back), and whether the row is angular.
    pub joint: u32,
    pub slot: u8,
    pub angular: bool,
    /// World direction of the row on body B (for force read-back).
    pub dir: Vec3,
}

/// The joint rows of one step, reused (cleared, never freed).
#[derive(Debug, Clone, Default)]
pub(crate) struct JointRows {
    pub rows: Vec<JointRow>,
    pub split_lambda: Vec<f32>,
    /// Island root (body slot) of each row, for the exact mode.
    pub island: Vec<u32>,
}

impl JointRows {
    /// Keep the rows whose island root `keep` accepts (their split λ and islands with
    /// them), in order.
    pub fn retain_islands(&mut self, keep: impl Fn(u32) -> bool) {
        let mut k = 0;
        for i in 0..self.rows.len() {
            if keep(self.island[i]) {
                self.rows.swap(k, i);
                self.island.swap(k, i);
                self.split_lambda.swap(k, i);
                k += 1;
            }
        }
        self.rows.truncate(k);
        self.island.truncate(k);
        self.split_lambda.truncate(k);
    }
}

/// Step-wide parameters of the joint rows.
#[derive(Debug, Clone, Copy)]
pub(crate) struct JointParams {
    pub h: f32,
    pub erp: f32,
    pub split: bool,
    pub warm_start: f32,
}

/// World frame of one side of a joint: pose, centre of mass and solver index.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Side {
    pub position: Vec3,
    pub rotation: Quat,
    pub com: Vec3,
    pub index: u32,
}

impl Side {
    fn point(&self, local: Vec3) -> Vec3 {
        self.rotation * local + self.position
    }
}

/// The world-space quantities every joint type reads.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Frames {
    pub sa: Side,
    pub sb: Side,
    /// World anchors.
    pub pa: Vec3,
    pub pb: Vec3,
    /// World axes (unit) from A's and B's frames.
    pub axis_a: Vec3,
    pub axis_b: Vec3,
}

/// The free axis of a joint with limits or a motor.
#[derive(Debug, Clone, Copy)]
pub(crate) enum FreeAxis {
    /// Rotation about the unit axis (hinge).
    Angular(Vec3),
    /// Translation along the unit axis, rows at the world point (slider).
    Linear(Vec3, Vec3),
}

/// Appends one joint's rows.
pub(crate) struct RowBuilder<'a> {
    pub bodies: &'a SolverBodies,
    pub p: JointParams,
    pub joint: u32,
    pub warm: [f32; SLOTS],
    pub sa: Side,
    pub sb: Side,
    pub out: &'a mut Vec<JointRow>,
}

impl RowBuilder<'_> {
    /// A linear row along unit `d` between world points `point_a` (on A) and `point_b`
    /// (on B), position error `c`.
    pub fn linear(
        &mut self,
        slot: usize,
        d: Vec3,
        point_a: Vec3,
        point_b: Vec3,
        c: f32,
        k: RowKind,
    ) {
        let (a, b) = (self.sa.index as usize, self.sb.index as usize);
        let r = row(
            self.bodies,
            a,
            b,
            d,
            point_a - self.sa.com,
            point_b - self.sb.com,
        );
        self.push(slot, r, c, k, false, d);
    }

    /// An angular row about unit `axis`, position error `c`.
    pub fn angular(&mut self, slot: usize, axis: Vec3, c: f32, k: RowKind) {
        let (a, b) = (self.sa.index as usize, self.sb.index as usize);
        let r = angular_row(self.bodies, a, b, axis);
        self.push(slot, r, c, k, true, axis);
    }

    /// The rows of a free axis with coordinate `x` (hinge angle or slider travel): a limit
    /// row (slots 6 and 7) for each stop `x` is within `window` of, and the motor row
    /// (slot 8) along the axis.
    pub fn stops_and_motor(
        &mut self,
        axis: FreeAxis,
        x: f32,
        window: f32,
        limits: Option<(f32, f32)>,
        motor: Option<Motor>,
    ) {
        if let Some((lo, hi)) = limits {
            if x - lo < window {
                self.along(axis, 1.0, 6, x - lo, RowKind::Limit);
            }
            if hi - x < window {
                self.along(axis, -1.0, 7, hi - x, RowKind::Limit);
            }
        }
        if let Some(m) = motor {
            let kind = RowKind::Motor {
                target: m.target_velocity,
                max_impulse: m.max_force * self.p.h,
            };
            self.along(axis, 1.0, 8, 0.0, kind);
        }
    }

    /// A row along `sign ·` the free axis.
    fn along(&mut self, axis: FreeAxis, sign: f32, slot: usize, c: f32, k: RowKind) {
        match axis {
            FreeAxis::Angular(d) => self.angular(slot, d * sign, c, k),
            FreeAxis::Linear(d, p) => self.linear(slot, d * sign, p, p, c, k),
        }
    }

    fn push(&mut self, slot: usize, mut r: Row, c: f32, k: RowKind, angular: bool, dir: Vec3) {
        if !(r.d > 0.0 && r.d.is_finite()) {
            return; // both sides immovable along this row
        }
        let inv_h = 1.0 / self.p.h;
        let inv_d = 1.0 / r.d;
        let (mut lo, mut hi) = (f32::NEG_INFINITY, f32::INFINITY);
        let (mut mass_scale, mut impulse_scale) = (1.0, 0.0);
        let (mut split_b, mut split_lo, mut split_active) = (0.0, f32::NEG_INFINITY, false);
        let correction = self.p.erp * c * inv_h;
        match k {
            RowKind::Bilateral => {
                if self.p.split {
                    split_b = correction * inv_d;
                    split_active = true;
                } else {
                    r.b += correction * inv_d;
                }
            }
            RowKind::Limit => {
                lo = 0.0;
                if c > 0.0 {
                    r.b += c * inv_h * inv_d;
                } else if self.p.split {
                    split_b = correction * inv_d;
                    split_lo = 0.0;
                    split_active = true;
                } else {
                    r.b += correction * inv_d;
                }
            }
            RowKind::Motor {
                target,
                max_impulse,
            } => {
                r.b -= target * inv_d;
                lo = -max_impulse;
                hi = max_impulse;
            }
            RowKind::Soft {
                frequency,
                damping_ratio,
            } => {
                let omega = std::f32::consts::TAU * frequency;
                let a1 = 2.0 * damping_ratio + self.p.h * omega;
                let a2 = self.p.h * omega * a1;
                let a3 = 1.0 / (1.0 + a2);
                r.b += (omega / a1) * c * inv_d;
                mass_scale = a2 * a3;
                impulse_scale = a3;
            }
        }
        r.lambda = (self.p.warm_start * self.warm[slot]).clamp(lo, hi);
        self.out.push(JointRow {
            a: self.sa.index,
            b: self.sb.index,
            inv_mass_a: self.bodies.inv_mass[self.sa.index as usize],
            inv_mass_b: self.bodies.inv_mass[self.sb.index as usize],
            lo,
            hi,
            mass_scale,
            impulse_scale,
            row: r,
            split_b,
            split_lo,
            split_active,
            joint: self.joint,
            slot: slot as u8,
            angular,
            dir,
        });
    }
}

/// Which side of a joint is where this step (`None`: not in the solver this step).
fn side(slot: Option<u32>, bodies: &BodySet, solver_of: &[u32], solver: &SolverBodies) -> Side {
    match slot {
        None => Side {
            position: Vec3::ZERO,
            rotation: Quat::IDENTITY,
            com: Vec3::ZERO,
            index: 0,
        },
        Some(s) => {
            let b = bodies.slot(s);
            let index = solver_of[s as usize];
            let com = if index != 0 {
                solver.com[index as usize]
            } else {
                b.pose.transform_point(b.local_com)
            };
            Side {
                position: b.pose.position,
                rotation: b.pose.rotation,
                com,
                index,
            }
        }
    }
}

/// Build the rows of every live, unbroken joint with a moving side.
pub(crate) fn build(
    out: &mut JointRows,
    joints: &JointSet,
    bodies: &BodySet,
    solver_of: &[u32],
    solver: &SolverBodies,
    island_root: &[u32],
    p: JointParams,
) {
    out.rows.clear();
    out.island.clear();
    for (i, j) in joints.slots().iter().enumerate() {
        let Some(j) = j else { continue };
        if j.broken {
            continue;
        }
        let sa = side(j.a, bodies, solver_of, solver);
        let sb = side(Some(j.b), bodies, solver_of, solver);
        if sa.index == 0 && sb.index == 0 {
            continue;
        }
        let f = Frames {
            sa,
            sb,
            pa: sa.point(j.anchor_a),
            pb: sb.point(j.anchor_b),
            axis_a: sa.rotation * j.axis_a,
            axis_b: sb.rotation * j.axis_b,
        };
        let mut rb = RowBuilder {
            bodies: solver,
            p,
            joint: i as u32,
            warm: j.warm,
            sa,
            sb,
            out: &mut out.rows,
        };
        match j.kind {
            JointKind::Ball => super::ball::rows(&f, &mut rb),
            JointKind::Hinge { limits, motor } => {
                super::hinge::rows(j, &f, limits, motor, &mut rb);
            }
            JointKind::Fixed => super::fixed::rows(j, &f, &mut rb),
            JointKind::Prismatic { limits, motor } => {
                super::prismatic::rows(j, &f, limits, motor, &mut rb);
            }
            JointKind::Distance { min, max, spring } => {
                super::distance::rows(&f, min, max, spring, &mut rb);
            }
        }
        let dynamic = if sb.index != 0 { Some(j.b) } else { j.a };
        let root = dynamic.map_or(u32::MAX, |s| island_root[s as usize]);
        out.island.resize(out.rows.len(), root);
    }
    out.split_lambda.clear();
    out.split_lambda.resize(out.rows.len(), 0.0);
}

/// The orientation error of B against A's frame times the rest rotation, as a rotation
/// vector (small-angle: `2·vec(q_e)`, with `d/dt = ω_b − ω_a`).
pub(crate) fn orientation_error(j: &Joint, f: &Frames) -> Vec3 {
    let target = f.sa.rotation * j.rest_rotation;
    let mut q = f.sb.rotation * target.inverse();
    if q.w < 0.0 {
        q = -q;
    }
    2.0 * Vec3::new(q.x, q.y, q.z)
}

/// λ back into the joints: warm starts, force and torque read-back, breaking.
/// Returns how many joints broke this step.
pub(crate) fn write_back(rows: &JointRows, joints: &mut JointSet, h: f32) -> usize {
    let slots = joints.slots_mut();
    for j in slots.iter_mut().flatten() {
        j.warm = [0.0; SLOTS];
        j.force = Vec3::ZERO;
        j.torque = Vec3::ZERO;
    }
    for r in &rows.rows {
        if let Some(j) = &mut slots[r.joint as usize] {
            let l = r.row.lambda;
            j.warm[r.slot as usize] = l;
            if r.angular {
                j.torque += r.dir * (l / h);
            } else {
                j.force += r.dir * (l / h);
            }
        }
    }
    let mut broke = 0;
    for j in slots.iter_mut().flatten() {
        if j.broken {
            continue;
        }
        let over_f = j.break_force.is_some_and(|f| j.force.length() > f);
        let over_t = j.break_torque.is_some_and(|t| j.torque.length() > t);
        if over_f || over_t {
            j.broken = true;
            j.warm = [0.0; SLOTS];
            broke += 1;
        }
    }
    broke
}
