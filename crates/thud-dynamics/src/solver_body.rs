//! The dense awake state the solver reads: one entry per awake dynamic or kinematic
//! body, plus entry 0, a dummy immovable body that every static (or sleeping) contact
//! partner points at.
//!
//! Layout (structure of arrays, `n` = awake bodies + 1):
//!
//! | array | type | bytes per body | read by |
//! |---|---|---|---|
//! | `dv` | [`Velocity`] (Δv, Δω) | 24 | every PGS row update (the only hot array) |
//! | `pseudo` | [`Velocity`] | 24 | split-impulse position pass |
//! | `moved` | [`Velocity`] (what the pose moved with, summed over the solve substeps since the lanes' separations last advanced) | 24 | solve-substep refresh |
//! | `reach` | `f32` (how far from its centre of mass its colliders reach) | 4 | solve-substep refresh |
//! | `vnc` | [`Velocity`] (v, ω without contact, the step's first solve substep) | 24 | Jacobian build, integration |
//! | `vnc_now` | [`Velocity`] (the same, of the current solve substep) | 24 | solve-substep refresh |
//! | `v0` | [`Velocity`] (u(t), start of step) | 24 | restitution (approach speed) |
//! | `inv_mass` | `f32` | 4 | Jacobian build |
//! | `inv_inertia` | `Mat3` (world) | 36 | Jacobian build |
//! | `iso` | `Option<f32>`: `c` where `inv_inertia = c·1` (a cube's, a sphere's; 0 for a fixed body; 1 for a body in its own angular frame) | 8 | packing the groups (`wide.rs`) |
//! | `frame_of` | `u32`: the body's entry in `frames`, or `u32::MAX` | 4 | every row build, integration |
//! | `com` | `Vec3` (world) | 12 | Jacobian build (lever arms) |
//! | `accel` | `Option<Plain>`: `g + F/m` of a body under gravity and force alone (no torque or damping), with its body-frame inertia's diagonal where the gyroscopic term turns it | 32 | the velocity without contact between solve substeps |
//! | `body` | `u32` body slot | 4 | write-back |
//!
//! The dummy (index 0) has zero inverse mass and inertia, so its `T = M⁻¹Jᵀ` blocks are
//! zero: a contact against the ground runs the same code as a contact between two boxes
//! and adds `0` to `dv[0]` (Box2D v3's trick). Kinematic bodies get their own entry (their
//! velocity enters `b` through `vnc`) with zero inverse mass, so they too stay unmoved by
//! impulses. The arrays are reused from step to step (resized to the step's bodies, never
//! freed), and a step with a crew makes half the bodies on each thread
//! ([`SolverBodies::fill_parts`]).
//!
//! **A body's own angular frame.** A dynamic body whose world inverse inertia is not
//! `c·1` (a plank, a capsule: most bodies of a game) keeps its angular velocities in the
//! solver — `vnc`, `vnc_now`, `dv`, `pseudo`, never `v0` — in coordinates where its
//! inverse inertia is the identity. With `L` the Cholesky factor of its world inverse
//! inertia for the step (`I⁻¹ = L·Lᵀ`, lower triangular):
//!
//! ```text
//! ω = L·ω̃,   J̃_ang = Lᵀ·J_ang   ⇒   J_ang·ω = J̃_ang·ω̃,   I⁻¹·J_angᵀ·δ = L·(J̃_angᵀ·δ)
//! ```
//!
//! so every row on such a body has `T̃_ang = J̃_ang` (its `c` is 1) and the packed solver
//! runs its rows as it runs a cube's, in the eight-lane kernel, instead of with `T`
//! blocks kept beside the rows. `D = J·M⁻¹·Jᵀ`, `b = J·Vnc` and every `λ` are the same
//! numbers in either coordinates; the step converts at its edges: a velocity without
//! contact into the frame (`L⁻¹·ω`, [`Read::in_frame`]), the integrated velocity
//! back out (`L·ω̃`, [`Read::out_of_frame`]). `L` is the step's: the rows keep the
//! step's world inertia as before, and a step that keeps its rows keeps the build's
//! frames while their bodies have turned less than `Settings::reuse_rows_within` (one
//! that turned more takes a new frame, its velocities moved into it, and its rows are
//! built again: `World::keep_rows`).

use glam::{Mat3, Vec3};

/// A velocity pair `(v, ω)`: linear (m/s) and angular (rad/s, world frame). `repr(C)`:
/// the packed solver loads `(v, ω.x)` as one 16-byte piece (`wide::gather`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[repr(C)]
pub struct Velocity {
    /// Linear part.
    pub lin: Vec3,
    /// Angular part.
    pub ang: Vec3,
}

impl Velocity {
    /// Zero.
    pub const ZERO: Self = Self {
        lin: Vec3::ZERO,
        ang: Vec3::ZERO,
    };
}

/// What enters a dynamic body's velocity without contact between solve substeps when
/// no torque or damping does: `accel = g + F/m`, and `gyro = Some(d)` for a body of
/// unequal principal moments `I = diag(d)` (body frame) under the gyroscopic term, whose
/// implicit step (`integrate::implicit_gyroscopic_diagonal`) then needs only its
/// orientation. Read from the solver bodies, the substeps touch no more of the body
/// than its pose and velocity (its inertia and forces lie on other cache lines, whose
/// loads were the hottest instructions of a plank pyramid's gyroscopic step).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Plain {
    pub accel: Vec3,
    pub gyro: Option<Vec3>,
}

/// The dense solver arrays (see the module table).
#[derive(Debug, Clone, Default)]
pub(crate) struct SolverBodies {
    pub dv: Vec<Velocity>,
    pub pseudo: Vec<Velocity>,
    pub moved: Vec<Velocity>,
    pub reach: Vec<f32>,
    /// Scratch of the solve-substep refresh: each body that stood since the lanes'
    /// separations last advanced (`World::mark_still`).
    pub still: Vec<bool>,
    pub vnc: Vec<Velocity>,
    pub vnc_now: Vec<Velocity>,
    pub v0: Vec<Velocity>,
    pub inv_mass: Vec<f32>,
    pub inv_inertia: Vec<Mat3>,
    pub iso: Vec<Option<f32>>,
    pub com: Vec<Vec3>,
    /// A dynamic body's velocity without contact where gravity and force alone enter
    /// it ([`Plain`]; set by the step, `None` otherwise).
    pub accel: Vec<Option<Plain>>,
    pub body: Vec<u32>,
    /// Each body's entry in `frames` (`u32::MAX`: none, its angular velocities are the
    /// world's).
    pub frame_of: Vec<u32>,
    /// The angular frames of the bodies that have one (module notes).
    pub frames: Vec<Frame>,
    /// Scratch of [`fill_parts`](Self::fill_parts): the second part's frames.
    frames_after: Vec<Frame>,
    /// (Tests: no body gets a frame, its rows keep `T` blocks as before frames.)
    #[cfg(test)]
    pub no_frames: bool,
    /// [`slot_cut`](Self::slot_cut) once found for these bodies (`None`: not looked
    /// for since the last body came).
    cut: Option<Option<usize>>,
}

/// A body's angular frame for a step: `L` with `L·Lᵀ = I⁻¹` (world), `Lᵀ` and `L⁻¹`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Frame {
    /// `ω = L·ω̃`.
    pub l: Mat3,
    /// `J̃_ang = Lᵀ·J_ang`.
    pub lt: Mat3,
    /// `ω̃ = L⁻¹·ω`.
    pub inv: Mat3,
}

impl Frame {
    /// The frame of a world inverse inertia that is not `c·1`: its Cholesky factor,
    /// where it is positive definite with a finite inverse (else `None`: the rows keep
    /// `T` blocks).
    pub fn of(inv_inertia: &Mat3) -> Option<Frame> {
        // (False for NaN too.)
        let positive = |x: f32| x > 0.0;
        let a = inv_inertia;
        let (a11, a21, a31) = (a.x_axis.x, a.x_axis.y, a.x_axis.z);
        let (a22, a32, a33) = (a.y_axis.y, a.y_axis.z, a.z_axis.z);
        if !positive(a11) {
            return None;
        }
        let l11 = a11.sqrt();
        let (l21, l31) = (a21 / l11, a31 / l11);
        let d22 = a22 - l21 * l21;
        if !positive(d22) {
            return None;
        }
        let l22 = d22.sqrt();
        let l32 = (a32 - l31 * l21) / l22;
        let d33 = a33 - l31 * l31 - l32 * l32;
        if !positive(d33) {
            return None;
        }
        let l33 = d33.sqrt();
        let l = Mat3::from_cols(
            Vec3::new(l11, l21, l31),
            Vec3::new(0.0, l22, l32),
            Vec3::new(0.0, 0.0, l33),
        );
        let inv = l.inverse();
        inv.is_finite().then(|| Frame {
            l,
            lt: l.transpose(),
            inv,
        })
    }
}

/// One solver body's entries as a solve substep's integration writes them
/// (`World::integrate`, and a step that keeps its rows when it takes a body's velocity
/// without contact again): the body's own places in the arrays, so that two threads may
/// each hold the entries of their own bodies ([`Entries`]), and its index `k` in the
/// arrays it reads ([`Read`]).
pub(crate) struct Entry<'a> {
    pub dv: &'a mut Velocity,
    pub pseudo: &'a mut Velocity,
    pub moved: &'a mut Velocity,
    pub com: &'a mut Vec3,
    pub v0: &'a mut Velocity,
    pub vnc_now: &'a mut Velocity,
    pub k: usize,
}

/// The arrays the integration only reads, for [`Entry`]s (indexed by their `k`).
#[derive(Clone, Copy)]
pub(crate) struct Read<'a> {
    vnc: &'a [Velocity],
    accel: &'a [Option<Plain>],
    inv_inertia: &'a [Mat3],
    frame_of: &'a [u32],
    frames: &'a [Frame],
}

impl Read<'_> {
    /// Body `k`'s velocity without contact of the step's first solve substep.
    #[inline(always)]
    pub fn vnc(&self, k: usize) -> Velocity {
        self.vnc[k]
    }

    /// What enters its velocity without contact, where only gravity and force do.
    #[inline(always)]
    pub fn accel(&self, k: usize) -> Option<Plain> {
        self.accel[k]
    }

    /// Its world inverse inertia.
    #[inline(always)]
    pub fn inv_inertia(&self, k: usize) -> Mat3 {
        self.inv_inertia[k]
    }

    #[inline(always)]
    fn frame(&self, k: usize) -> Option<&Frame> {
        self.frames.get(self.frame_of[k] as usize)
    }

    /// A world angular velocity of body `k` in its frame (`L⁻¹·ω`; itself without
    /// one).
    #[inline(always)]
    pub fn in_frame(&self, k: usize, w: Vec3) -> Vec3 {
        self.frame(k).map_or(w, |f| f.inv * w)
    }

    /// An angular velocity of body `k` in its frame, in the world (`L·ω̃`).
    #[inline(always)]
    pub fn out_of_frame(&self, k: usize, w: Vec3) -> Vec3 {
        self.frame(k).map_or(w, |f| f.l * w)
    }
}

/// The entries of the solver bodies `range()`, borrowed apart from the others'
/// ([`SolverBodies::halves`]): what one thread's share of the integration writes, and
/// what it reads.
pub(crate) struct Entries<'a> {
    start: usize,
    dv: &'a mut [Velocity],
    pseudo: &'a mut [Velocity],
    moved: &'a mut [Velocity],
    com: &'a mut [Vec3],
    v0: &'a mut [Velocity],
    vnc_now: &'a mut [Velocity],
    read: Read<'a>,
    body: &'a [u32],
}

impl Entries<'_> {
    /// `f(i, slot, entry, read)` for every solver body `i` of the run, in order.
    #[inline(always)]
    pub fn each(&mut self, mut f: impl FnMut(usize, u32, Entry<'_>, &Read<'_>)) {
        let read = &self.read;
        let rows = self
            .dv
            .iter_mut()
            .zip(self.pseudo.iter_mut())
            .zip(self.moved.iter_mut())
            .zip(self.com.iter_mut())
            .zip(self.v0.iter_mut())
            .zip(self.vnc_now.iter_mut())
            .zip(self.body);
        for (k, ((((((dv, pseudo), moved), com), v0), vnc_now), &slot)) in rows.enumerate() {
            let e = Entry {
                dv,
                pseudo,
                moved,
                com,
                v0,
                vnc_now,
                k,
            };
            f(self.start + k, slot, e, read);
        }
    }
}

/// What one solver body is made from (`World::build_jacobians`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct NewBody {
    /// Its body slot.
    pub body: u32,
    /// `u(t)`.
    pub v0: Velocity,
    /// Its velocity without contact (world).
    pub vnc: Velocity,
    pub inv_mass: f32,
    /// World inverse inertia.
    pub inv_inertia: Mat3,
    /// World centre of mass.
    pub com: Vec3,
    pub accel: Option<Plain>,
    pub reach: f32,
}

/// The places of a run of solver bodies in every array, apart from the other run's
/// ([`SolverBodies::fill_parts`]): one thread's share of the step's build.
pub(crate) struct Fill<'a> {
    dv: &'a mut [Velocity],
    pseudo: &'a mut [Velocity],
    moved: &'a mut [Velocity],
    reach: &'a mut [f32],
    v0: &'a mut [Velocity],
    vnc: &'a mut [Velocity],
    vnc_now: &'a mut [Velocity],
    inv_mass: &'a mut [f32],
    inv_inertia: &'a mut [Mat3],
    iso: &'a mut [Option<f32>],
    com: &'a mut [Vec3],
    accel: &'a mut [Option<Plain>],
    body: &'a mut [u32],
    frame_of: &'a mut [u32],
    /// The run's frames, in order (the first run's are `SolverBodies::frames`).
    frames: &'a mut Vec<Frame>,
    allowed: bool,
}

impl Fill<'_> {
    /// How many bodies the run holds.
    pub fn len(&self) -> usize {
        self.body.len()
    }

    /// The run's `k`-th body: its `dV`, pseudo-velocity and motion at zero; an
    /// anisotropic dynamic body gets its own angular frame (module notes), whose `vnc`
    /// is then kept in it.
    #[inline(always)]
    pub fn set(&mut self, k: usize, b: &NewBody) {
        self.dv[k] = Velocity::ZERO;
        self.pseudo[k] = Velocity::ZERO;
        self.moved[k] = Velocity::ZERO;
        self.reach[k] = b.reach;
        self.v0[k] = b.v0;
        self.inv_mass[k] = b.inv_mass;
        self.inv_inertia[k] = b.inv_inertia;
        let mut iso =
            crate::integrate::is_isotropic(&b.inv_inertia).then_some(b.inv_inertia.x_axis.x);
        let frame = (self.allowed && iso.is_none() && b.inv_mass > 0.0)
            .then(|| Frame::of(&b.inv_inertia))
            .flatten();
        let vnc = match frame {
            Some(f) => {
                self.frame_of[k] = self.frames.len() as u32;
                self.frames.push(f);
                iso = Some(1.0);
                Velocity {
                    lin: b.vnc.lin,
                    ang: f.inv * b.vnc.ang,
                }
            }
            None => {
                self.frame_of[k] = u32::MAX;
                b.vnc
            }
        };
        self.vnc[k] = vnc;
        self.vnc_now[k] = vnc;
        self.iso[k] = iso;
        self.com[k] = b.com;
        self.accel[k] = b.accel;
        self.body[k] = b.body;
    }
}

impl SolverBodies {
    /// Solver body `i`'s entries, and the arrays they read.
    #[inline(always)]
    pub fn entry(&mut self, i: usize) -> (Entry<'_>, Read<'_>) {
        let e = Entry {
            dv: &mut self.dv[i],
            pseudo: &mut self.pseudo[i],
            moved: &mut self.moved[i],
            com: &mut self.com[i],
            v0: &mut self.v0[i],
            vnc_now: &mut self.vnc_now[i],
            k: i,
        };
        let read = Read {
            vnc: &self.vnc,
            accel: &self.accel,
            inv_inertia: &self.inv_inertia,
            frame_of: &self.frame_of,
            frames: &self.frames,
        };
        (e, read)
    }

    /// The entries of the bodies `1..mid` and `mid..len()`, apart (the dummy's are
    /// in neither).
    pub fn halves(&mut self, mid: usize) -> [Entries<'_>; 2] {
        let n = self.len();
        let mid = mid.clamp(1.min(n), n);
        let lo = 1.min(mid);
        macro_rules! cut {
            ($v:expr) => {
                cut_at(&mut $v[..n], lo, mid)
            };
        }
        let (dv0, dv1) = cut!(self.dv);
        let (pseudo0, pseudo1) = cut!(self.pseudo);
        let (moved0, moved1) = cut!(self.moved);
        let (com0, com1) = cut!(self.com);
        let (v00, v01) = cut!(self.v0);
        let (now0, now1) = cut!(self.vnc_now);
        let (body, frames) = (&self.body[..n], &self.frames[..]);
        let read = |r: std::ops::Range<usize>| Read {
            vnc: &self.vnc[r.clone()],
            accel: &self.accel[r.clone()],
            inv_inertia: &self.inv_inertia[r.clone()],
            frame_of: &self.frame_of[r],
            frames,
        };
        [
            Entries {
                start: lo,
                dv: dv0,
                pseudo: pseudo0,
                moved: moved0,
                com: com0,
                v0: v00,
                vnc_now: now0,
                read: read(lo..mid),
                body: &body[lo..mid],
            },
            Entries {
                start: mid,
                dv: dv1,
                pseudo: pseudo1,
                moved: moved1,
                com: com1,
                v0: v01,
                vnc_now: now1,
                read: read(mid..n),
                body: &body[mid..n],
            },
        ]
    }

    /// Where the bodies split in two runs of slots for two threads' integration: the
    /// middle solver index `mid`, where every body before it lies in a lower slot than
    /// every body from it on (bodies added in slot order, as a built scene's are), so
    /// that the slots split there too; `None` otherwise.
    pub fn slot_cut(&mut self) -> Option<usize> {
        *self.cut.get_or_insert_with(|| {
            let n = self.body.len();
            if n < 3 {
                return None;
            }
            let mid = n / 2 + 1;
            let below = self.body[1..mid].iter().copied().max()?;
            let above = self.body[mid..].iter().copied().min()?;
            (below < above).then_some(mid)
        })
    }

    /// Clear to just the dummy immovable body at index 0 (tests, which then
    /// [`push`](Self::push) their bodies).
    #[cfg(test)]
    pub fn reset(&mut self) {
        self.frames.clear();
        self.resize(0);
        self.put_dummy();
    }

    /// Append a body; returns its solver index.
    #[cfg(test)]
    pub fn push(
        &mut self,
        body: u32,
        v0: Velocity,
        vnc: Velocity,
        inv_mass: f32,
        inv_inertia: Mat3,
        com: Vec3,
    ) -> u32 {
        let k = self.len();
        self.resize(k);
        let new = NewBody {
            body,
            v0,
            vnc,
            inv_mass,
            inv_inertia,
            com,
            accel: None,
            reach: 0.0,
        };
        let [_, mut last] = self.split(k);
        last.set(0, &new);
        self.join_frames(k - 1);
        k as u32
    }

    /// Every array sized for the dummy and `counts[0] + counts[1]` bodies, and the places
    /// of bodies `1..=counts[0]` and of the `counts[1]` after them, apart: what two
    /// threads fill at once in the step's build ([`Fill::set`]; then
    /// [`join_frames`](Self::join_frames)). Every entry of a part must be set.
    pub fn fill_parts(&mut self, counts: [usize; 2]) -> [Fill<'_>; 2] {
        self.frames.clear();
        self.resize(counts[0] + counts[1]);
        self.put_dummy();
        self.split(1 + counts[0])
    }

    /// Every array sized for the dummy and `bodies` more (the entries kept where the
    /// length stays: [`Fill::set`] writes every field).
    fn resize(&mut self, bodies: usize) {
        let n = bodies + 1;
        self.cut = None;
        self.frames_after.clear();
        self.dv.resize(n, Velocity::ZERO);
        self.pseudo.resize(n, Velocity::ZERO);
        self.moved.resize(n, Velocity::ZERO);
        self.reach.resize(n, 0.0);
        self.v0.resize(n, Velocity::ZERO);
        self.vnc.resize(n, Velocity::ZERO);
        self.vnc_now.resize(n, Velocity::ZERO);
        self.inv_mass.resize(n, 0.0);
        self.inv_inertia.resize(n, Mat3::ZERO);
        self.iso.resize(n, None);
        self.com.resize(n, Vec3::ZERO);
        self.accel.resize(n, None);
        self.body.resize(n, u32::MAX);
        self.frame_of.resize(n, u32::MAX);
    }

    /// Entry 0: the dummy immovable body.
    fn put_dummy(&mut self) {
        let dummy = NewBody {
            body: u32::MAX,
            v0: Velocity::ZERO,
            vnc: Velocity::ZERO,
            inv_mass: 0.0,
            inv_inertia: Mat3::ZERO,
            com: Vec3::ZERO,
            accel: None,
            reach: 0.0,
        };
        let [mut first, _] = self.split_from(0, 1);
        first.set(0, &dummy);
    }

    /// The places of bodies `1..mid` (with the frames) and `mid..len()` (with the
    /// second part's frames), apart.
    fn split(&mut self, mid: usize) -> [Fill<'_>; 2] {
        self.split_from(1.min(mid), mid)
    }

    fn split_from(&mut self, from: usize, mid: usize) -> [Fill<'_>; 2] {
        #[cfg(test)]
        let allowed = !self.no_frames;
        #[cfg(not(test))]
        let allowed = true;
        macro_rules! cut {
            ($v:expr) => {
                cut_at(&mut $v, from, mid)
            };
        }
        let (dv0, dv1) = cut!(self.dv);
        let (pseudo0, pseudo1) = cut!(self.pseudo);
        let (moved0, moved1) = cut!(self.moved);
        let (reach0, reach1) = cut!(self.reach);
        let (v00, v01) = cut!(self.v0);
        let (vnc0, vnc1) = cut!(self.vnc);
        let (now0, now1) = cut!(self.vnc_now);
        let (m0, m1) = cut!(self.inv_mass);
        let (i0, i1) = cut!(self.inv_inertia);
        let (iso0, iso1) = cut!(self.iso);
        let (com0, com1) = cut!(self.com);
        let (acc0, acc1) = cut!(self.accel);
        let (body0, body1) = cut!(self.body);
        let (of0, of1) = cut!(self.frame_of);
        [
            Fill {
                dv: dv0,
                pseudo: pseudo0,
                moved: moved0,
                reach: reach0,
                v0: v00,
                vnc: vnc0,
                vnc_now: now0,
                inv_mass: m0,
                inv_inertia: i0,
                iso: iso0,
                com: com0,
                accel: acc0,
                body: body0,
                frame_of: of0,
                frames: &mut self.frames,
                allowed,
            },
            Fill {
                dv: dv1,
                pseudo: pseudo1,
                moved: moved1,
                reach: reach1,
                v0: v01,
                vnc: vnc1,
                vnc_now: now1,
                inv_mass: m1,
                inv_inertia: i1,
                iso: iso1,
                com: com1,
                accel: acc1,
                body: body1,
                frame_of: of1,
                frames: &mut self.frames_after,
                allowed,
            },
        ]
    }

    /// After [`fill_parts`](Self::fill_parts): the second part's frames after the
    /// first's, as one thread pushing the bodies in order would have listed them.
    pub fn join_frames(&mut self, first: usize) {
        if self.frames_after.is_empty() {
            return;
        }
        let shift = self.frames.len() as u32;
        for f in &mut self.frame_of[1 + first..] {
            if *f != u32::MAX {
                *f += shift;
            }
        }
        self.frames.append(&mut self.frames_after);
    }

    /// Body `i`'s angular frame, if it has one.
    #[inline(always)]
    pub fn frame(&self, i: usize) -> Option<&Frame> {
        self.frames.get(self.frame_of[i] as usize)
    }

    /// Number of entries including the dummy.
    pub fn len(&self) -> usize {
        self.body.len()
    }

    /// Reset the accumulated velocity changes before a warm start: `dV` to how far each
    /// body's `Vnc` has moved since the step's first solve substep (`vnc_now − vnc`:
    /// zero in the first), the split pass's pseudo-velocities to zero.
    pub fn start_dv(&mut self) {
        for ((dv, now), first) in self.dv.iter_mut().zip(&self.vnc_now).zip(&self.vnc) {
            *dv = Velocity {
                lin: now.lin - first.lin,
                ang: now.ang - first.ang,
            };
        }
        self.pseudo.fill(Velocity::ZERO);
    }
}

const _: () = assert!(std::mem::size_of::<Velocity>() == 24);

/// Every component of `v`, as bits (the tests that compare solves to the bit).
#[cfg(test)]
pub(crate) fn velocity_bits<'a>(v: impl IntoIterator<Item = &'a Velocity>) -> Vec<u32> {
    v.into_iter()
        .flat_map(|v| [v.lin.to_array(), v.ang.to_array()])
        .flatten()
        .map(f32::to_bits)
        .collect()
}

/// `v[from..mid]` and `v[mid..]`, apart: one array's share of each of two runs of
/// solver bodies ([`SolverBodies::halves`], [`SolverBodies::fill_parts`]).
fn cut_at<T>(v: &mut [T], from: usize, mid: usize) -> (&mut [T], &mut [T]) {
    let (a, b) = v.split_at_mut(mid);
    (&mut a[from..], b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bodies(slots: &[u32]) -> SolverBodies {
        let mut sb = SolverBodies::default();
        sb.reset();
        for &s in slots {
            let v = Velocity {
                lin: Vec3::splat(s as f32),
                ang: Vec3::ZERO,
            };
            sb.push(s, v, v, 1.0, Mat3::IDENTITY, Vec3::ZERO);
        }
        sb
    }

    /// Each body of a run: its solver index, slot and velocity without contact.
    fn listed(mut e: Entries<'_>) -> Vec<(usize, u32, f32)> {
        let mut out = Vec::new();
        e.each(|i, slot, e, r| out.push((i, slot, r.vnc(e.k).lin.x)));
        out
    }

    #[test]
    fn bodies_split_in_two_runs_of_slots_only_where_their_slots_do() {
        // Slots in order: the first half's all lie below the second's.
        let slots = [0, 2, 5, 7, 8, 11];
        let mut sb = bodies(&slots);
        let mid = sb.slot_cut().expect("bodies in slot order split");
        assert!(
            sb.body[1..mid]
                .iter()
                .all(|&a| sb.body[mid..].iter().all(|&b| a < b))
        );
        let [low, high] = sb.halves(mid);
        let (low, high) = (listed(low), listed(high));
        assert!(!low.is_empty() && !high.is_empty());
        let all: Vec<_> = low.into_iter().chain(high).collect();
        let want: Vec<_> = (1..).zip(slots).map(|(i, s)| (i, s, s as f32)).collect();
        assert_eq!(all, want, "every body once, in order, with its own entries");
        // Slots out of order across the middle: no cut.
        assert_eq!(bodies(&[4, 1, 9, 0, 3, 2]).slot_cut(), None);
        // A body that comes after the cut was found is looked at again.
        let mut sb = bodies(&[0, 1, 2, 3]);
        assert!(sb.slot_cut().is_some());
        sb.push(
            0,
            Velocity::ZERO,
            Velocity::ZERO,
            1.0,
            Mat3::IDENTITY,
            Vec3::ZERO,
        );
        assert_eq!(sb.slot_cut(), None);
        // The whole as one run.
        let mut sb = bodies(&slots);
        let n = sb.len();
        let [all, rest] = sb.halves(n);
        assert_eq!(listed(all).len(), slots.len());
        assert!(listed(rest).is_empty());
    }

    #[test]
    fn bodies_made_in_two_parts_are_those_pushed_in_order() {
        // Isotropic bodies and bodies in their own frames, on both sides of the cut.
        let inertia = [
            Mat3::IDENTITY,
            Mat3::from_diagonal(Vec3::new(1.0, 2.0, 3.0)),
            Mat3::from_diagonal(Vec3::splat(0.5)),
            Mat3::from_diagonal(Vec3::new(3.0, 1.0, 2.0)),
            Mat3::from_diagonal(Vec3::new(2.0, 2.0, 5.0)),
        ];
        let new = |i: usize| {
            let v = Velocity {
                lin: Vec3::splat(i as f32),
                ang: Vec3::new(1.0, i as f32, -2.0),
            };
            NewBody {
                body: 10 + i as u32,
                v0: v,
                vnc: v,
                inv_mass: 1.0 + i as f32,
                inv_inertia: inertia[i],
                com: Vec3::splat(-(i as f32)),
                accel: None,
                reach: 0.0,
            }
        };
        let mut pushed = SolverBodies::default();
        pushed.reset();
        for i in 0..inertia.len() {
            let b = new(i);
            pushed.push(b.body, b.v0, b.vnc, b.inv_mass, b.inv_inertia, b.com);
        }
        assert_eq!(pushed.frames.len(), 3);
        let n = inertia.len();
        let mut made = SolverBodies::default();
        // (Made again and again over the same arrays, at every cut.)
        for first in (0..=n).chain([2]) {
            let [mut low, mut high] = made.fill_parts([first, n - first]);
            assert_eq!((low.len(), high.len()), (first, n - first));
            for i in 0..n {
                if i < first {
                    low.set(i, &new(i));
                } else {
                    high.set(i - first, &new(i));
                }
            }
            made.join_frames(first);
            assert_eq!(made.len(), pushed.len());
            assert_eq!(made.body, pushed.body);
            assert_eq!(made.vnc, pushed.vnc, "velocities in their frames");
            assert_eq!(made.iso, pushed.iso);
            assert_eq!(made.frame_of, pushed.frame_of, "cut after {first}");
            assert_eq!(made.inv_mass, pushed.inv_mass);
            assert_eq!(made.com, pushed.com);
            let ls = |b: &SolverBodies| b.frames.iter().map(|f| f.l).collect::<Vec<_>>();
            assert_eq!(ls(&made), ls(&pushed));
            assert!(made.dv.iter().all(|v| *v == Velocity::ZERO));
        }
    }
}
