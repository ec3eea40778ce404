//! The integrator: semi-implicit (symplectic) Euler, exactly as in the reference note §1.
//!
//! ```text
//!   Vnc     = u(t) + dt·M⁻¹F_ext              velocity without contact (gravity, forces,
//!                                              gyroscopic term, damping)
//!   u(t+1)  = Vnc + dV,   dV = M⁻¹Jᵀλ          after the solve
//!   x      += dt·v                             centre of mass
//!   q      ← normalize(q + dt/2·(ω, 0)⊗q)
//! ```
//!
//! **Gyroscopic term.** Euler's equation `I ω̇ + ω × Iω = τ` is stiff for long thin bodies;
//! the explicit `dt·I⁻¹(ω × Iω)` gains energy. We take one Newton step of the implicit
//! equation in the body frame (Catto, GDC 2015): with `ω₀` the body-frame angular velocity,
//! `f(ω) = I(ω − ω₀) + dt·ω × Iω`, `∂f/∂ω = I + dt(ω̂ I − (Iω)^)`, so
//! `ω = ω₀ − (∂f/∂ω(ω₀))⁻¹ · dt·ω₀ × Iω₀`. It conserves angular momentum direction well
//! and dissipates a little energy, never adds it.
//!
//! **Damping** `v ← v / (1 + dt·c)`: unconditionally stable, exact to first order.
//! **Velocity limits** clamp |v| and |ω| after the solve (tunnelling and overflow guard).
//!
//! **The position pass's lift is paid from the body's motion.** The split-impulse pass
//! moves a body out of penetration with a pseudo-velocity `p` that moves its pose for one
//! step and is then forgotten: it never enters the velocity, so it gives no bounce. But
//! a body it lifts gains potential energy, `W = m·s_g·(−g)·p·dt` (`s_g` its gravity
//! scale), that nothing takes back. Where the sweeps leave a contact sinking under a
//! load that moves — the landing edge of a wall set rocking, the base of a tall pyramid
//! that has begun to move — the pass lifts it back out step after step, and the
//! structure gains that energy. So a body that the pass lifts pays for the lift from
//! its kinetic energy `K = ½·m·|v|² + ½·ω·Iω` ([`pay_for_lift`]):
//!
//! ```text
//!   if W > 0 and K > 0:   v ← f·v,   ω ← f·ω,   f = √(max(0, 1 − W/K))
//! ```
//!
//! which takes `(1 − f²)·K = min(W, K)`: the pass never adds energy to a body that has
//! motion to pay with. It is the loss of the contact that sank: the sweeps left its
//! approach unstopped, and an inelastic contact's approach is energy lost. A body at
//! rest (`K = 0`) pays nothing and is still lifted out, so nothing is held in
//! penetration; a body the pass lowers (`W ≤ 0`) keeps its motion. Each body pays for
//! itself, so the bits are the same on any pool (`docs/dynamics.md`, *The position
//! pass's lift*).

use std::cmp::Ordering;

use glam::{Mat3, Quat, Vec3};

use crate::solver_body::Velocity;

/// Skew-symmetric cross-product matrix `[a]×` (so `[a]× b = a × b`).
#[inline]
pub(crate) fn skew(a: Vec3) -> Mat3 {
    Mat3::from_cols(
        Vec3::new(0.0, a.z, -a.y),
        Vec3::new(-a.z, 0.0, a.x),
        Vec3::new(a.y, -a.x, 0.0),
    )
}

/// Whether `m` is `c·I` (a sphere's, a cube's inertia): then `R m Rᵀ = m` for every
/// rotation `R` and `ω × mω = 0`.
#[inline]
pub(crate) fn is_isotropic(m: &Mat3) -> bool {
    *m == Mat3::from_diagonal(Vec3::splat(m.x_axis.x))
}

/// `R m Rᵀ`, the world-frame form of the body-frame tensor `m` (`m` itself when it is
/// isotropic: exact, and no rounding noise from the two products).
#[inline]
pub(crate) fn to_world(rot: Mat3, m: Mat3) -> Mat3 {
    if is_isotropic(&m) {
        m
    } else {
        rot * m * rot.transpose()
    }
}

/// One Newton step of the implicit gyroscopic update (world-frame `ω` in and out). An
/// isotropic body has no gyroscopic torque (`ω × cω = 0`): its `ω` is returned as it is,
/// without the rounding of the frame change and the solve.
///
/// A diagonal body-frame tensor (a box, a capsule, any shape about its principal axes)
/// takes [`implicit_gyroscopic_diagonal`]: the same step in vector operations.
#[must_use]
pub(crate) fn implicit_gyroscopic(w: Vec3, rotation: Quat, inertia_local: Mat3, dt: f32) -> Vec3 {
    if is_isotropic(&inertia_local) {
        return w;
    }
    if let Some(d) = diagonal_of(&inertia_local) {
        return implicit_gyroscopic_diagonal(w, rotation, d, dt);
    }
    let w0 = rotation.inverse() * w;
    let iw = inertia_local * w0;
    let f = dt * w0.cross(iw);
    let jac = inertia_local + (skew(w0) * inertia_local - skew(iw)) * dt;
    let det = jac.determinant();
    if !(det.is_finite() && det.abs() > 1e-20) {
        return w;
    }
    let w1 = w0 - jac.inverse() * f;
    rotation * w1
}

/// `d` where `m = diag(d)`.
#[inline]
pub(crate) fn diagonal_of(m: &Mat3) -> Option<Vec3> {
    let d = Vec3::new(m.x_axis.x, m.y_axis.y, m.z_axis.z);
    (*m == Mat3::from_diagonal(d)).then_some(d)
}

/// [`implicit_gyroscopic`] for the body-frame tensor `diag(d)`: the Jacobian's columns
/// are `J e_j = d_j e_j + dt·(d_j (ω₀ × e_j) − Iω₀ × e_j)`, and the Newton step solves
/// `J x = dt·ω₀ × Iω₀` by Cramer's rule, `x_i = (c_{i+1} × c_{i+2})·f / det J` (one
/// determinant, no matrix inverse): about half the operations of the general step, which
/// was a tenth of a plank pyramid's step time.
#[must_use]
#[inline]
pub(crate) fn implicit_gyroscopic_diagonal(w: Vec3, rotation: Quat, d: Vec3, dt: f32) -> Vec3 {
    let w0 = rotation.inverse() * w;
    let iw = d * w0;
    let f = dt * w0.cross(iw);
    // Column j: d_j e_j + dt (d_j (ω₀ × e_j) − Iω₀ × e_j); with `a × e_x = (0, a_z, −a_y)`
    // and so on.
    let (a, b) = (w0, iw);
    let c0 = Vec3::new(d.x, dt * (d.x * a.z - b.z), -dt * (d.x * a.y - b.y));
    let c1 = Vec3::new(-dt * (d.y * a.z - b.z), d.y, dt * (d.y * a.x - b.x));
    let c2 = Vec3::new(dt * (d.z * a.y - b.y), -dt * (d.z * a.x - b.x), d.z);
    let (r0, r1, r2) = (c1.cross(c2), c2.cross(c0), c0.cross(c1));
    let det = c0.dot(r0);
    if !(det.is_finite() && det.abs() > 1e-20) {
        return w;
    }
    let x = Vec3::new(r0.dot(f), r1.dot(f), r2.dot(f)) / det;
    rotation * (w0 - x)
}

/// Inputs of the velocity-without-contact update of one body.
pub(crate) struct ForceInput {
    pub gravity: Vec3,
    pub force: Vec3,
    pub torque: Vec3,
    pub inv_mass: f32,
    pub inv_inertia_world: Mat3,
    pub inertia_local: Mat3,
    pub rotation: Quat,
    pub linear_damping: f32,
    pub angular_damping: f32,
    pub gyroscopic: bool,
}

/// `Vnc = u + dt·M⁻¹F` with gravity, force, torque, implicit gyroscopic term and damping.
#[must_use]
#[inline]
pub(crate) fn velocity_without_contact(u: Velocity, f: &ForceInput, dt: f32) -> Velocity {
    let mut lin = u.lin + dt * (f.gravity + f.inv_mass * f.force);
    let mut ang = u.ang + dt * (f.inv_inertia_world * f.torque);
    if f.gyroscopic {
        ang = implicit_gyroscopic(ang, f.rotation, f.inertia_local, dt);
    }
    // Undamped (the default): `x / 1` is `x` to the bit, without the divisions.
    if f.linear_damping != 0.0 {
        lin /= 1.0 + dt * f.linear_damping;
    }
    if f.angular_damping != 0.0 {
        ang /= 1.0 + dt * f.angular_damping;
    }
    Velocity { lin, ang }
}

/// [`velocity_without_contact`] of a body with no torque, damping or gyroscopic term,
/// `accel = g + F/m`: `u + dt·accel`, the angular velocity as it is. The same values: the
/// torque term it skips is `I⁻¹·0`, which adds `+0` (so a `−0` component becomes `+0`
/// here too).
#[must_use]
#[inline]
pub(crate) fn gravity_only(u: Velocity, accel: Vec3, dt: f32) -> Velocity {
    Velocity {
        lin: u.lin + dt * accel,
        ang: u.ang + Vec3::ZERO,
    }
}

/// Clamp a velocity to the limits.
#[must_use]
#[inline]
pub(crate) fn clamp_velocity(u: Velocity, max_lin: f32, max_ang: f32) -> Velocity {
    Velocity {
        lin: u.lin.clamp_length_max(max_lin),
        ang: u.ang.clamp_length_max(max_ang),
    }
}

/// A body's velocity `u` after the position pass did `work` lifting it (`W`, in J; see
/// the module doc): scaled by `√(max(0, 1 − W/K))` where `W > 0` and its kinetic energy
/// `K` (mass `mass`, inertia `inertia_local` in its frame turned by `rotation`) is not
/// zero, else as it is.
#[must_use]
#[inline]
pub(crate) fn pay_for_lift(
    u: Velocity,
    work: f32,
    mass: f32,
    rotation: Quat,
    inertia_local: Mat3,
) -> Velocity {
    // (Where either is zero or not a number, nothing to pay or nothing to pay with.)
    let positive = |x: f32| x.partial_cmp(&0.0) == Some(Ordering::Greater);
    if !positive(work) {
        return u;
    }
    // (`I·ω` of an isotropic body without the rotation, to the same bits.)
    let iw = if is_isotropic(&inertia_local) {
        inertia_local * u.ang
    } else {
        to_world(Mat3::from_quat(rotation), inertia_local) * u.ang
    };
    let k = 0.5 * (mass * u.lin.length_squared() + u.ang.dot(iw));
    if !positive(k) {
        return u;
    }
    let f = (1.0 - work / k).max(0.0).sqrt();
    Velocity {
        lin: f * u.lin,
        ang: f * u.ang,
    }
}

/// How far from 1 a quaternion's squared length may be for [`renormalize`] to take one
/// Newton step instead of a square root and a division.
const NEWTON_RENORM: f32 = 1e-4;

/// Advance a centre of mass and orientation by `dt` at velocity `u`.
#[must_use]
#[inline]
pub(crate) fn integrate_pose(com: Vec3, q: Quat, u: Velocity, dt: f32) -> (Vec3, Quat) {
    let com = com + dt * u.lin;
    let w = u.ang;
    let dq = Quat::from_xyzw(w.x, w.y, w.z, 0.0) * q;
    let q = Quat::from_xyzw(
        q.x + 0.5 * dt * dq.x,
        q.y + 0.5 * dt * dq.y,
        q.z + 0.5 * dt * dq.z,
        q.w + 0.5 * dt * dq.w,
    );
    (com, renormalize(q))
}

/// `q / |q|` for a quaternion just advanced from a unit one.
///
/// The step `q + ½·dt·(ω, 0)·q` adds a part orthogonal to `q`, so `|q|² = 1 + ε` with
/// `ε = dt²|ω|²/4`. Where `|ε| < 10⁻⁴` (`|ω| < 4.8` rad/s at a 240 Hz substep: every
/// body of a resting or slowly moving scene) one Newton step of `1/√d`,
/// `q·(3 − d)/2`, leaves a relative error of `3ε²/8 < 4·10⁻⁹`, below `f32`'s
/// resolution, without the square root and the division, whose latency made the
/// renormalization a tenth of the integrate stage. Faster spins take the exact path.
#[must_use]
#[inline]
pub(crate) fn renormalize(q: Quat) -> Quat {
    let d = q.length_squared();
    if (d - 1.0).abs() < NEWTON_RENORM {
        q * (1.5 - 0.5 * d)
    } else {
        q.normalize()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The position pass's lift is paid from the body's kinetic energy: `W` of it where
    /// there is that much, all of it where there is less, none where the pass lowered
    /// the body or the body stands.
    #[test]
    fn a_lift_is_paid_from_the_bodys_motion() {
        let (m, q) = (2.0, Quat::from_rotation_z(0.7) * Quat::from_rotation_x(0.3));
        let inertia = Mat3::from_diagonal(Vec3::new(0.4, 0.9, 1.3));
        let u = Velocity {
            lin: Vec3::new(1.0, -0.5, 0.25),
            ang: Vec3::new(0.3, -1.2, 0.8),
        };
        let k = |u: Velocity| {
            let r = Mat3::from_quat(q);
            0.5 * (m * u.lin.length_squared() + u.ang.dot(r * inertia * r.transpose() * u.ang))
        };
        let k0 = k(u);
        let paid = pay_for_lift(u, 0.25 * k0, m, q, inertia);
        assert!(
            (k(paid) - 0.75 * k0).abs() < 1e-5 * k0,
            "{} {}",
            k(paid),
            k0
        );
        // The same direction of motion, only slower.
        assert!(paid.lin.normalize().abs_diff_eq(u.lin.normalize(), 1e-6));
        assert!(paid.ang.normalize().abs_diff_eq(u.ang.normalize(), 1e-6));
        let all = pay_for_lift(u, 2.0 * k0, m, q, inertia);
        assert_eq!((all.lin, all.ang), (Vec3::ZERO, Vec3::ZERO));
        for work in [0.0, -1.0, f32::NAN] {
            let kept = pay_for_lift(u, work, m, q, inertia);
            assert_eq!((kept.lin, kept.ang), (u.lin, u.ang));
        }
        let lifted = pay_for_lift(Velocity::ZERO, 1.0, m, q, inertia);
        assert_eq!((lifted.lin, lifted.ang), (Vec3::ZERO, Vec3::ZERO));
    }

    /// Under gravity and a force alone, the short path gives the general one's bits.
    #[test]
    fn gravity_only_is_the_general_update_without_a_torque() {
        let inv_i = Mat3::from_diagonal(Vec3::new(0.7, 1.3, 2.1));
        for k in 0..50 {
            let x = k as f32;
            let u = Velocity {
                lin: Vec3::new(0.3 * x - 2.0, -0.1 * x, 1.0 / (x + 1.0)),
                ang: Vec3::new(-0.0, 0.05 * x, -1.5 + 0.07 * x),
            };
            let f = ForceInput {
                gravity: Vec3::new(0.0, -9.81, 0.0),
                force: Vec3::new(x, -2.0 * x, 0.5),
                torque: Vec3::ZERO,
                inv_mass: 0.25,
                inv_inertia_world: inv_i,
                inertia_local: inv_i.inverse(),
                rotation: Quat::IDENTITY,
                linear_damping: 0.0,
                angular_damping: 0.0,
                gyroscopic: false,
            };
            let dt = 1.0 / 240.0;
            let general = velocity_without_contact(u, &f, dt);
            let short = gravity_only(u, f.gravity + f.inv_mass * f.force, dt);
            let bits = |v: Velocity| {
                (
                    v.lin.to_array().map(f32::to_bits),
                    v.ang.to_array().map(f32::to_bits),
                )
            };
            assert_eq!(bits(general), bits(short), "k = {k}");
        }
    }

    /// A plank under gravity and a force (no torque, no damping): `gravity_only` then
    /// the diagonal gyroscopic step give the general update's bits — what the solve
    /// substeps take from `SolverBodies::accel` without reading the body's inertia.
    #[test]
    fn gravity_then_the_diagonal_gyroscopic_step_is_the_general_update() {
        let d = Vec3::new(0.08, 0.9, 0.13);
        for k in 0..100 {
            let x = k as f32;
            let q = Quat::from_axis_angle(Vec3::new(1.0, -2.0, 0.5 + x).normalize(), 0.2 * x);
            let r = Mat3::from_quat(q);
            let inertia = Mat3::from_diagonal(d);
            let u = Velocity {
                lin: Vec3::new(0.3 * x - 2.0, -0.1 * x, 1.0 / (x + 1.0)),
                ang: Vec3::new(-0.0, (0.3 * x).sin() * 6.0, 0.0),
            };
            let f = ForceInput {
                gravity: Vec3::new(0.0, -9.81, 0.0),
                force: Vec3::new(x, -2.0 * x, 0.5),
                torque: Vec3::ZERO,
                inv_mass: 0.25,
                inv_inertia_world: r * inertia.inverse() * r.transpose(),
                inertia_local: inertia,
                rotation: q,
                linear_damping: 0.0,
                angular_damping: 0.0,
                gyroscopic: true,
            };
            let dt = 1.0 / 240.0;
            let general = velocity_without_contact(u, &f, dt);
            let mut short = gravity_only(u, f.gravity + f.inv_mass * f.force, dt);
            short.ang = implicit_gyroscopic_diagonal(short.ang, q, d, dt);
            let bits = |v: Velocity| {
                (
                    v.lin.to_array().map(f32::to_bits),
                    v.ang.to_array().map(f32::to_bits),
                )
            };
            assert_eq!(bits(general), bits(short), "k = {k}");
        }
    }

    #[test]
    fn the_newton_renormalization_agrees_with_the_exact_one() {
        let axis = Vec3::new(0.3, -0.8, 0.5).normalize();
        for k in 0..200 {
            // Spins from 0 to 20 rad/s over a 240 Hz substep: both paths taken.
            let w = axis * (0.1 * k as f32);
            let q0 = Quat::from_axis_angle(Vec3::new(1.0, 2.0, 3.0).normalize(), 0.01 * k as f32);
            let u = Velocity {
                lin: Vec3::ZERO,
                ang: w,
            };
            let (_, q) = integrate_pose(Vec3::ZERO, q0, u, 1.0 / 240.0);
            let dq = Quat::from_xyzw(w.x, w.y, w.z, 0.0) * q0;
            let raw = q0 + dq * (0.5 / 240.0);
            let exact = raw.normalize();
            assert!((q.length() - 1.0).abs() < 2.0 * f32::EPSILON, "k = {k}");
            assert!((q - exact).length() < 2.0 * f32::EPSILON, "k = {k}");
        }
    }

    #[test]
    fn free_fall_matches_the_discrete_closed_form() {
        let dt = 1.0 / 60.0;
        let g = Vec3::new(0.0, -9.81, 0.0);
        let input = ForceInput {
            gravity: g,
            force: Vec3::ZERO,
            torque: Vec3::ZERO,
            inv_mass: 1.0,
            inv_inertia_world: Mat3::IDENTITY,
            inertia_local: Mat3::IDENTITY,
            rotation: Quat::IDENTITY,
            linear_damping: 0.0,
            angular_damping: 0.0,
            gyroscopic: true,
        };
        let mut u = Velocity::ZERO;
        let (mut x, mut q) = (Vec3::new(0.0, 100.0, 0.0), Quat::IDENTITY);
        let n = 120;
        for _ in 0..n {
            u = velocity_without_contact(u, &input, dt);
            (x, q) = integrate_pose(x, q, u, dt);
        }
        let nf = n as f32;
        let y = 100.0 - 9.81 * dt * dt * nf * (nf + 1.0) / 2.0;
        assert!(((x.y - y) / y).abs() < 1e-5, "{} vs {}", x.y, y);
        assert!((u.lin.y + 9.81 * dt * nf).abs() < 1e-4);
        assert_eq!(q, Quat::IDENTITY);
    }

    #[test]
    fn gyroscopic_step_never_gains_energy() {
        // A long thin body spinning near its intermediate axis: explicit Euler explodes.
        let inertia = Mat3::from_diagonal(Vec3::new(1.0, 5.0, 10.0));
        let mut q = Quat::IDENTITY;
        let mut w = Vec3::new(0.1, 10.0, 0.1);
        let energy = |w: Vec3, q: Quat| {
            let wl = q.inverse() * w;
            0.5 * wl.dot(inertia * wl)
        };
        let e0 = energy(w, q);
        for _ in 0..600 {
            w = implicit_gyroscopic(w, q, inertia, 1.0 / 60.0);
            (_, q) = integrate_pose(
                Vec3::ZERO,
                q,
                Velocity {
                    lin: Vec3::ZERO,
                    ang: w,
                },
                1.0 / 60.0,
            );
            assert!(
                energy(w, q) <= e0 * (1.0 + 1e-4),
                "{} > {}",
                energy(w, q),
                e0
            );
        }
    }

    #[test]
    fn an_isotropic_body_keeps_its_spin_and_its_world_inertia() {
        // A cube tumbling about a skew axis: no gyroscopic torque, so ω stays the same
        // to the bit, step after step; a slightly flattened one does precess.
        let q = Quat::from_axis_angle(Vec3::new(1.0, 2.0, 3.0).normalize(), 0.7);
        let w = Vec3::new(0.3, -4.0, 2.5);
        let cube = Mat3::from_diagonal(Vec3::splat(1.0 / 6.0));
        assert!(is_isotropic(&cube));
        assert_eq!(implicit_gyroscopic(w, q, cube, 1.0 / 60.0), w);
        assert_eq!(to_world(Mat3::from_quat(q), cube), cube);
        let flat = Mat3::from_diagonal(Vec3::new(1.0 / 6.0, 1.0 / 6.0, 0.2));
        assert!(!is_isotropic(&flat));
        assert_ne!(implicit_gyroscopic(w, q, flat, 1.0 / 60.0), w);
        let r = Mat3::from_quat(q);
        let world = to_world(r, flat);
        assert!((world - r * flat * r.transpose()).abs_diff_eq(Mat3::ZERO, 0.0));
        assert!(!is_isotropic(&Mat3::from_cols(
            Vec3::new(1.0, 0.1, 0.0),
            Vec3::new(0.1, 1.0, 0.0),
            Vec3::Z
        )));
    }

    /// The diagonal step is the general Newton step (the Jacobian built with `skew` and
    /// inverted) to rounding, for bodies spinning about every kind of axis.
    #[test]
    fn the_diagonal_gyroscopic_step_is_the_general_one() {
        let general = |w: Vec3, q: Quat, i: Mat3, dt: f32| {
            let w0 = q.inverse() * w;
            let iw = i * w0;
            let f = dt * w0.cross(iw);
            let jac = i + (skew(w0) * i - skew(iw)) * dt;
            q * (w0 - jac.inverse() * f)
        };
        for k in 0..200 {
            let x = k as f32;
            let d = Vec3::new(
                0.05 + 0.01 * (x % 7.0),
                0.3 + 0.1 * (x % 5.0),
                1.0 + (x % 3.0),
            );
            let q = Quat::from_axis_angle(
                Vec3::new(0.3 + (x % 2.0), -1.0, 0.2 * x).normalize(),
                0.1 * x,
            );
            let w = Vec3::new(
                (x * 0.37).sin() * 20.0,
                (x * 0.11).cos() * 8.0,
                x % 4.0 - 2.0,
            );
            let dt = [1.0 / 60.0, 1.0 / 240.0][k % 2];
            let i = Mat3::from_diagonal(d);
            let want = general(w, q, i, dt);
            let got = implicit_gyroscopic(w, q, i, dt);
            assert!(
                (got - want).length() <= 1e-5 * (1.0 + want.length()),
                "{got} against {want} (k = {k})"
            );
            assert_ne!(got, w, "a body of unequal moments precesses");
        }
    }

    #[test]
    fn skew_is_cross() {
        let a = Vec3::new(1.0, 2.0, 3.0);
        let b = Vec3::new(-2.0, 0.5, 4.0);
        assert!((skew(a) * b - a.cross(b)).length() < 1e-6);
    }
}
