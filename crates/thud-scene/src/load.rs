//! Reading scenes: RON text → [`Scene`], then validation and resolution.
//!
//! [`parse_str`] only deserializes (the raw scene, patterns unexpanded, exactly what
//! the file says: the form that round-trips through [`to_ron`]). [`load_str`] and
//! [`load_file`] also [`resolve`] it: patterns are expanded into bodies, `euler_deg`
//! folded into `rotation`, materials applied, missing names filled in, and every number
//! and every body name in events and expectations checked. A scene that loads can be
//! built and run without a name or range error.
//!
//! RON is read with the `implicit_some` and `unwrap_variant_newtypes` extensions, so a
//! file writes `x: (0.0, 1.0)` for an optional range and `Spawn(name: "ball", ..)` for
//! a spawned body. Every error names `file:line:column` and the field.

use std::collections::HashSet;
use std::path::Path;

use ron::extensions::Extensions;

use crate::error::{Location, SceneError};
use crate::expect::Check;
use crate::pattern::Pattern;
use crate::schema::{BodyDef, BodyKindDef, JointDef, JointKindDef, MotorDef, Scene, ShapeDef};
use crate::timeline::Action;

/// Most bodies a scene may make (patterns included), so a typo cannot exhaust memory.
pub const MAX_BODIES: u64 = 200_000;

fn options() -> ron::Options {
    ron::Options::default()
        .with_default_extension(Extensions::IMPLICIT_SOME)
        .with_default_extension(Extensions::UNWRAP_VARIANT_NEWTYPES)
}

/// Deserializes RON text into a raw scene (no validation). `file` names the source in
/// error messages.
pub fn parse_str(src: &str, file: &str) -> Result<Scene, SceneError> {
    options().from_str::<Scene>(src).map_err(|e| {
        let pos = e.span.start;
        let (field, message) = describe_ron_error(&e.code, src, pos.line, pos.col);
        SceneError::Syntax {
            location: Location {
                file: file.to_string(),
                line: pos.line.max(1),
                column: pos.col.max(1),
            },
            field,
            message,
        }
    })
}

/// Serializes a scene as pretty RON that [`parse_str`] reads back to an equal scene.
pub fn to_ron(scene: &Scene) -> Result<String, SceneError> {
    let pretty = ron::ser::PrettyConfig::new()
        .depth_limit(6)
        .extensions(Extensions::IMPLICIT_SOME | Extensions::UNWRAP_VARIANT_NEWTYPES);
    ron::Options::default()
        .with_default_extension(Extensions::IMPLICIT_SOME)
        .with_default_extension(Extensions::UNWRAP_VARIANT_NEWTYPES)
        .to_string_pretty(scene, pretty)
        .map_err(|e| SceneError::Engine {
            body: None,
            message: format!("cannot write RON: {e}"),
        })
}

/// Parses and resolves RON text.
pub fn load_str(src: &str, file: &str) -> Result<Scene, SceneError> {
    let scene = parse_str(src, file)?;
    resolve(scene, Some(src), file)
}

/// Reads, parses and resolves a `.ron` file; the scene's name defaults to the file stem.
pub fn load_file(path: &Path) -> Result<Scene, SceneError> {
    let file = path.display().to_string();
    let src = std::fs::read_to_string(path).map_err(|e| SceneError::Io {
        file: file.clone(),
        message: e.to_string(),
    })?;
    let mut scene = parse_str(&src, &file)?;
    if scene.name.is_empty() {
        scene.name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
    }
    resolve(scene, Some(&src), &file)
}

/// The field name nearest before a position, and a message without ron's jargon.
fn describe_ron_error(code: &ron::Error, src: &str, line: usize, col: usize) -> (String, String) {
    use ron::Error as E;
    let field_near = || field_before(src, line, col).unwrap_or_else(|| "?".to_string());
    match code {
        E::NoSuchStructField {
            expected,
            found,
            outer,
        } => (
            found.clone(),
            format!(
                "unknown field `{found}`{}; expected one of: {}",
                outer
                    .as_ref()
                    .map(|o| format!(" in {o}"))
                    .unwrap_or_default(),
                expected.join(", ")
            ),
        ),
        E::MissingStructField { field, outer } => (
            (*field).to_string(),
            format!(
                "missing field `{field}`{}",
                outer
                    .as_ref()
                    .map(|o| format!(" in {o}"))
                    .unwrap_or_default()
            ),
        ),
        E::DuplicateStructField { field, .. } => {
            ((*field).to_string(), format!("field `{field}` given twice"))
        }
        E::NoSuchEnumVariant {
            expected, found, ..
        } => (
            field_near(),
            format!(
                "unknown variant `{found}`; expected one of: {}",
                expected.join(", ")
            ),
        ),
        other => (field_near(), other.to_string()),
    }
}

/// The last `identifier:` before 1-based `(line, col)` in `src`.
fn field_before(src: &str, line: usize, col: usize) -> Option<String> {
    let mut offset = 0;
    for (i, l) in src.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            offset += l
                .char_indices()
                .nth(col.saturating_sub(1))
                .map_or(l.len(), |(b, _)| b);
            break;
        }
        offset += l.len();
    }
    let head = src.get(..offset.min(src.len()))?;
    let bytes = head.as_bytes();
    let mut i = bytes.len();
    while i > 0 {
        i -= 1;
        if bytes[i] == b':' {
            let mut j = i;
            while j > 0 && bytes[j - 1] == b' ' {
                j -= 1;
            }
            let end = j;
            while j > 0 && (bytes[j - 1].is_ascii_alphanumeric() || bytes[j - 1] == b'_') {
                j -= 1;
            }
            if j < end {
                return Some(head[j..end].to_string());
            }
        }
    }
    None
}

/// 1-based line and column of byte `offset` in `src`.
fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let head = &src[..offset.min(src.len())];
    let line = head.matches('\n').count() + 1;
    let col = head.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// Builds [`SceneError::Invalid`] errors with the best location the text allows.
struct Reporter<'a> {
    src: Option<&'a str>,
    file: &'a str,
}

impl Reporter<'_> {
    /// An error about `field`, located at the first occurrence of `needle` after the
    /// first occurrence of `section` (both plain text), else at the section, else 1:1.
    fn error(&self, section: &str, needle: &str, field: String, message: String) -> SceneError {
        let mut offset = 0;
        if let Some(src) = self.src {
            let start = src.find(section).unwrap_or(0);
            offset = if needle.is_empty() {
                start
            } else {
                src[start..].find(needle).map_or(start, |o| start + o)
            };
        }
        let (line, column) = self.src.map_or((1, 1), |s| line_col(s, offset));
        SceneError::Invalid {
            location: Location {
                file: self.file.to_string(),
                line,
                column,
            },
            field,
            message,
        }
    }
}

fn finite_pos(v: f32) -> bool {
    v.is_finite() && v > 0.0
}

fn check_shape(shape: &ShapeDef) -> Result<(), String> {
    match *shape {
        ShapeDef::Cuboid { half_extents: h } => {
            if !(finite_pos(h.x) && finite_pos(h.y) && finite_pos(h.z)) {
                return Err(format!("half extents must be positive and finite, got {h}"));
            }
        }
        ShapeDef::Sphere { radius } => {
            if !finite_pos(radius) {
                return Err(format!("radius must be positive and finite, got {radius}"));
            }
        }
        ShapeDef::Capsule {
            half_height,
            radius,
        }
        | ShapeDef::Cylinder {
            half_height,
            radius,
        } => {
            if !(finite_pos(radius) && half_height.is_finite() && half_height >= 0.0) {
                return Err(format!(
                    "radius must be positive and half_height non-negative, got {radius} and {half_height}"
                ));
            }
        }
        ShapeDef::Halfspace { normal } => {
            if !normal.is_finite() || normal.length() < 1e-6 {
                return Err(format!("normal must be a non-zero vector, got {normal}"));
            }
        }
    }
    Ok(())
}

/// Checks one body and resolves its material, rotation and name in place.
fn resolve_body(
    body: &mut BodyDef,
    scene_materials: &std::collections::BTreeMap<String, crate::schema::MaterialDef>,
    default_name: String,
) -> Result<(), (String, String)> {
    if body.name.is_empty() {
        body.name = default_name;
    }
    check_shape(&body.shape).map_err(|m| ("shape".to_string(), m))?;
    for (i, part) in body.parts.iter().enumerate() {
        check_shape(&part.shape).map_err(|m| (format!("parts[{i}].shape"), m))?;
        if !part.position.is_finite() || !part.rotation.is_finite() {
            return Err((format!("parts[{i}]"), "pose must be finite".to_string()));
        }
    }
    let halfspace = std::iter::once(&body.shape)
        .chain(body.parts.iter().map(|p| &p.shape))
        .any(|s| matches!(s, ShapeDef::Halfspace { .. }));
    if halfspace && body.kind != BodyKindDef::Static {
        return Err((
            "shape".to_string(),
            "a Halfspace has no finite mass: only Static bodies may have one".to_string(),
        ));
    }
    if let Some(e) = body.euler_deg.take() {
        if !e.is_finite() {
            return Err(("euler_deg".to_string(), format!("must be finite, got {e}")));
        }
        body.rotation = body.resolved_rotation_from(e);
    }
    if !body.rotation.is_finite() || body.rotation.length() < 1e-6 {
        return Err((
            "rotation".to_string(),
            format!(
                "must be a non-zero finite quaternion, got {}",
                body.rotation
            ),
        ));
    }
    if (body.rotation.length_squared() - 1.0).abs() > 1e-6 {
        body.rotation = body.rotation.normalize();
    }
    for (field, v) in [
        ("position", body.position),
        ("velocity", body.velocity),
        ("angular_velocity", body.angular_velocity),
    ] {
        if !v.is_finite() {
            return Err((field.to_string(), format!("must be finite, got {v}")));
        }
    }
    if let Some(m) = &body.material {
        let Some(mat) = scene_materials.get(m) else {
            let known: Vec<&str> = scene_materials.keys().map(String::as_str).collect();
            return Err((
                "material".to_string(),
                format!("unknown material `{m}` (known: {})", known.join(", ")),
            ));
        };
        body.friction = mat.friction;
        body.restitution = mat.restitution;
        if let Some(d) = mat.density {
            body.density = d;
        }
    }
    if !(body.friction.is_finite() && body.friction >= 0.0) {
        return Err((
            "friction".to_string(),
            format!("must be ≥ 0, got {}", body.friction),
        ));
    }
    if !(body.restitution.is_finite() && (0.0..=1.0).contains(&body.restitution)) {
        return Err((
            "restitution".to_string(),
            format!("must be in [0, 1], got {}", body.restitution),
        ));
    }
    if !finite_pos(body.density) {
        return Err((
            "density".to_string(),
            format!("must be > 0, got {}", body.density),
        ));
    }
    if let Some(m) = body.mass
        && !finite_pos(m)
    {
        return Err(("mass".to_string(), format!("must be > 0, got {m}")));
    }
    Ok(())
}

impl BodyDef {
    fn resolved_rotation_from(&self, e: glam::Vec3) -> glam::Quat {
        let mut b = self.clone();
        b.euler_deg = Some(e);
        b.resolved_rotation()
    }
}

/// Validates a raw scene and resolves it (see the module docs). `src` is the text it
/// came from, used to locate errors; `file` names it.
pub fn resolve(mut scene: Scene, src: Option<&str>, file: &str) -> Result<Scene, SceneError> {
    let r = Reporter { src, file };
    let s = &scene.settings;
    if !(finite_pos(s.dt) && s.dt <= 1.0) {
        return Err(r.error(
            "dt",
            "",
            "settings.dt".into(),
            format!("must be in (0, 1] s, got {}", s.dt),
        ));
    }
    for (n, what) in [
        (s.iterations, "iterations"),
        (s.substep_iterations, "substep_iterations"),
        (s.friction_stride, "friction_stride"),
    ] {
        if n == Some(0) {
            return Err(r.error(what, "", format!("settings.{what}"), "must be ≥ 1".into()));
        }
    }
    for (n, what) in [
        (s.substeps, "substeps"),
        (s.solve_substeps, "solve_substeps"),
    ] {
        if n == Some(0) {
            return Err(r.error(what, "", format!("settings.{what}"), "must be ≥ 1".into()));
        }
    }
    for (d, what) in [
        (s.reuse_rows_within, "reuse_rows_within"),
        (s.touching_gap, "touching_gap"),
    ] {
        if let Some(d) = d.filter(|d| !(d.is_finite() && *d >= 0.0)) {
            return Err(r.error(
                what,
                "",
                format!("settings.{what}"),
                format!("must be ≥ 0 m, got {d}"),
            ));
        }
    }
    if let Some(t) = s.sweep_tolerance.filter(|t| !(t.is_finite() && *t >= 0.0)) {
        return Err(r.error(
            "sweep_tolerance",
            "",
            "settings.sweep_tolerance".into(),
            format!("must be ≥ 0 m/s, got {t}"),
        ));
    }
    if !s.gravity.is_finite() {
        return Err(r.error(
            "gravity",
            "",
            "settings.gravity".into(),
            "must be finite".into(),
        ));
    }
    if !(scene.seconds.is_finite() && scene.seconds >= 0.0) {
        return Err(r.error(
            "seconds",
            "",
            "seconds".into(),
            format!("must be ≥ 0, got {}", scene.seconds),
        ));
    }
    for (name, m) in &scene.materials {
        if !(m.friction.is_finite() && m.friction >= 0.0 && (0.0..=1.0).contains(&m.restitution))
            || m.density.is_some_and(|d| !finite_pos(d))
        {
            return Err(r.error(
                "materials",
                name,
                format!("materials.{name}"),
                "friction must be ≥ 0, restitution in [0, 1], density > 0".into(),
            ));
        }
    }
    if let Some(c) = &scene.camera {
        let ok = c.eye.is_finite()
            && c.target.is_finite()
            && c.eye.distance(c.target) > 1e-4
            && (1.0..179.0).contains(&c.fov_deg)
            && (16..=2048).contains(&c.width)
            && (16..=2048).contains(&c.height);
        if !ok {
            return Err(r.error(
                "camera",
                "",
                "camera".into(),
                "eye and target must differ, fov_deg in [1, 179), width and height in 16..=2048"
                    .into(),
            ));
        }
    }

    // Bodies, then patterns expanded after them.
    let mut total = scene.bodies.len() as u64;
    for p in scene
        .patterns
        .iter()
        .chain(scene.timeline.iter().filter_map(|e| match &e.action {
            Action::SpawnPattern(p) => Some(p),
            _ => None,
        }))
    {
        total = total.saturating_add(p.len());
        if total > MAX_BODIES {
            return Err(r.error(
                p.prefix(),
                "",
                "patterns".into(),
                format!("the scene makes more than {MAX_BODIES} bodies"),
            ));
        }
    }
    let patterns = std::mem::take(&mut scene.patterns);
    for (pi, p) in patterns.iter().enumerate() {
        check_pattern(p)
            .map_err(|m| r.error("patterns", p.prefix(), format!("patterns[{pi}]"), m))?;
        scene.bodies.extend(p.expand());
    }
    let mut names: HashSet<String> = HashSet::new();
    let materials = scene.materials.clone();
    for (i, body) in scene.bodies.iter_mut().enumerate() {
        let label = body.name.clone();
        resolve_body(body, &materials, format!("body_{i}")).map_err(|(f, m)| {
            r.error(
                "bodies",
                &quoted(&label),
                format!("bodies[{i}] `{}`.{f}", body.name),
                m,
            )
        })?;
        if !names.insert(body.name.clone()) {
            return Err(r.error(
                "bodies",
                &quoted(&body.name),
                format!("bodies[{i}].name"),
                format!("duplicate body name `{}`", body.name),
            ));
        }
    }

    for (i, j) in scene.joints.iter().enumerate() {
        let field = format!("joints[{i}]");
        for name in j.a.iter().chain(std::iter::once(&j.b)) {
            if !names.contains(name) {
                return Err(r.error(
                    "joints",
                    &quoted(name),
                    format!("{field} (b: \"{}\")", j.b),
                    format!("body `{name}` is not a body of the scene"),
                ));
            }
        }
        check_joint(j).map_err(|(f, m)| {
            r.error(
                "joints",
                &quoted(&j.b),
                format!("{field} (b: \"{}\").{f}", j.b),
                m,
            )
        })?;
    }

    // Timeline in time order; names must be live when used.
    for (i, ev) in scene.timeline.iter().enumerate() {
        if !(ev.at.is_finite() && ev.at >= 0.0) {
            return Err(r.error(
                "timeline",
                "",
                format!("timeline[{i}].at"),
                format!("must be ≥ 0, got {}", ev.at),
            ));
        }
    }
    scene.timeline.sort_by(|a, b| a.at.total_cmp(&b.at));
    let mut live = names.clone();
    let mut ever = names;
    let mut spawned = 0usize;
    for (i, ev) in scene.timeline.iter_mut().enumerate() {
        let field = format!("timeline[{i}] ({} at {} s)", ev.action.label(), ev.at);
        if let Some(target) = ev.action.target()
            && !live.contains(target)
        {
            let why = if ever.contains(target) {
                "was removed before"
            } else {
                "is not a body of the scene"
            };
            return Err(r.error(
                "timeline",
                &quoted(target),
                format!("{field}.body"),
                format!("body `{target}` {why}"),
            ));
        }
        match &mut ev.action {
            Action::Spawn(body) => {
                let label = body.name.clone();
                resolve_body(body, &materials, format!("spawned_{spawned}")).map_err(
                    |(f, m)| r.error("timeline", &quoted(&label), format!("{field}.{f}"), m),
                )?;
                spawned += 1;
                if !ever.insert(body.name.clone()) {
                    return Err(r.error(
                        "timeline",
                        &quoted(&body.name),
                        format!("{field}.name"),
                        format!("duplicate body name `{}`", body.name),
                    ));
                }
                live.insert(body.name.clone());
            }
            Action::SpawnPattern(p) => {
                check_pattern(p).map_err(|m| r.error("timeline", p.prefix(), field.clone(), m))?;
                let mut template_check = p.expand();
                for b in &mut template_check {
                    resolve_body(b, &materials, String::new()).map_err(|(f, m)| {
                        r.error("timeline", p.prefix(), format!("{field}.body.{f}"), m)
                    })?;
                    if !ever.insert(b.name.clone()) {
                        return Err(r.error(
                            "timeline",
                            p.prefix(),
                            field.clone(),
                            format!("duplicate body name `{}`", b.name),
                        ));
                    }
                    live.insert(b.name.clone());
                }
                // Resolve the template once so the runner expands resolved bodies.
                let body = pattern_body_mut(p);
                resolve_body(body, &materials, String::new()).map_err(|(f, m)| {
                    r.error("timeline", p.prefix(), format!("{field}.body.{f}"), m)
                })?;
            }
            Action::Remove { body } => {
                live.remove(body.as_str());
            }
            Action::Impulse { impulse, point, .. } => {
                if !impulse.is_finite() || point.is_some_and(|p| !p.is_finite()) {
                    return Err(r.error("timeline", "Impulse", field, "must be finite".into()));
                }
            }
            Action::Force {
                force, duration, ..
            } => {
                if !(force.is_finite() && duration.is_finite() && *duration >= 0.0) {
                    return Err(r.error(
                        "timeline",
                        "Force",
                        field,
                        "force must be finite and duration ≥ 0".into(),
                    ));
                }
            }
            Action::SetVelocity {
                linear, angular, ..
            } => {
                if linear.is_some_and(|v| !v.is_finite()) || angular.is_some_and(|v| !v.is_finite())
                {
                    return Err(r.error("timeline", "SetVelocity", field, "must be finite".into()));
                }
            }
            Action::MakeKinematic { velocity, .. } => {
                if velocity.is_some_and(|v| !v.is_finite()) {
                    return Err(r.error(
                        "timeline",
                        "MakeKinematic",
                        field,
                        "must be finite".into(),
                    ));
                }
            }
            Action::MakeDynamic { .. } => {}
            Action::SetGravity { gravity } => {
                if !gravity.is_finite() {
                    return Err(r.error("timeline", "SetGravity", field, "must be finite".into()));
                }
            }
        }
    }

    for (i, ex) in scene.expectations.iter().enumerate() {
        let field = format!("expectations[{i}]");
        if let Some(t) = ex.at
            && !(t.is_finite() && t >= 0.0)
        {
            return Err(r.error(
                "expectations",
                "",
                format!("{field}.at"),
                format!("must be ≥ 0, got {t}"),
            ));
        }
        if let Some(target) = ex.check.target()
            && !ever.contains(target)
        {
            return Err(r.error(
                "expectations",
                &quoted(target),
                format!("{field}.check.body"),
                format!("body `{target}` is not a body of the scene"),
            ));
        }
        let bad_range =
            |v: Option<(f32, f32)>| v.is_some_and(|(a, b)| a.is_nan() || b.is_nan() || a > b);
        let bad = match &ex.check {
            Check::Position { x, y, z, .. } => bad_range(*x) || bad_range(*y) || bad_range(*z),
            Check::Speed { min, max, .. } | Check::AngularSpeed { min, max, .. } => {
                min.is_nan() || max.is_nan() || min > max
            }
            Check::MaxPenetration { max } => !(max.is_finite() && *max >= 0.0),
            Check::EnergyNotRising { tolerance } => !(tolerance.is_finite() && *tolerance >= 0.0),
            Check::NoBodyBelow { y } => !y.is_finite(),
            Check::AllSlowerThan { speed } => !(speed.is_finite() && *speed >= 0.0),
            Check::AllAsleep => false,
        };
        if bad {
            return Err(r.error(
                "expectations",
                "",
                format!("{field}.check"),
                format!(
                    "bad bounds in `{}`: ranges are (min, max) with min ≤ max",
                    ex.check.describe()
                ),
            ));
        }
    }
    Ok(scene)
}

/// Checks a joint's numbers: what the engine would refuse, said in the file's units.
fn check_joint(j: &JointDef) -> Result<(), (String, String)> {
    let err = |f: &str, m: String| Err((f.to_string(), m));
    if j.a.as_deref() == Some(j.b.as_str()) {
        return err(
            "a",
            format!("a joint needs two different bodies, got `{}` twice", j.b),
        );
    }
    if !j.anchor.is_finite() {
        return err("anchor", format!("must be finite, got {}", j.anchor));
    }
    if let Some(ax) = j.axis
        && !(ax.is_finite() && ax.length() > 1e-6)
    {
        return err(
            "axis",
            format!("must be a non-zero finite vector, got {ax}"),
        );
    }
    for (f, v) in [
        ("break_force", j.break_force),
        ("break_torque", j.break_torque),
    ] {
        if let Some(v) = v
            && !(v.is_finite() && v >= 0.0)
        {
            return err(f, format!("must be ≥ 0, got {v}"));
        }
    }
    let range = |f: &str, (lo, hi): (f32, f32)| {
        if !(lo.is_finite() && hi.is_finite() && lo <= hi) {
            return err(
                f,
                format!("must be (min, max) with min ≤ max, got ({lo}, {hi})"),
            );
        }
        Ok(())
    };
    let motor = |m: Option<MotorDef>| {
        if let Some(m) = m
            && !(m.target_velocity.is_finite() && m.max_force.is_finite() && m.max_force >= 0.0)
        {
            return err(
                "kind.motor",
                format!(
                    "target_velocity must be finite and max_force ≥ 0, got {} and {}",
                    m.target_velocity, m.max_force
                ),
            );
        }
        Ok(())
    };
    match j.kind {
        JointKindDef::Ball | JointKindDef::Fixed => Ok(()),
        JointKindDef::Hinge {
            limits_deg,
            motor: m,
        } => {
            if let Some(l) = limits_deg {
                range("kind.limits_deg", l)?;
                if l.0 < -180.0 || l.1 > 180.0 {
                    return err(
                        "kind.limits_deg",
                        format!("must lie within [-180, 180], got ({}, {})", l.0, l.1),
                    );
                }
            }
            motor(m)
        }
        JointKindDef::Prismatic { limits, motor: m } => {
            if let Some(l) = limits {
                range("kind.limits", l)?;
            }
            motor(m)
        }
        JointKindDef::Distance { min, max, spring } => {
            range("kind", (min, max))?;
            if min < 0.0 {
                return err("kind.min", format!("must be ≥ 0, got {min}"));
            }
            if let Some(s) = spring
                && !(s.rest_length.is_finite()
                    && s.rest_length >= 0.0
                    && s.frequency.is_finite()
                    && s.frequency > 0.0
                    && s.damping_ratio.is_finite()
                    && s.damping_ratio >= 0.0)
            {
                return err(
                    "kind.spring",
                    "needs rest_length ≥ 0, frequency > 0, damping_ratio ≥ 0".into(),
                );
            }
            Ok(())
        }
    }
}

fn quoted(s: &str) -> String {
    format!("\"{s}\"")
}

fn pattern_body_mut(p: &mut Pattern) -> &mut BodyDef {
    match p {
        Pattern::Grid { body, .. }
        | Pattern::Stack { body, .. }
        | Pattern::Pyramid { body, .. }
        | Pattern::Pyramid3d { body, .. } => body,
    }
}

fn check_pattern(p: &Pattern) -> Result<(), String> {
    if p.prefix().is_empty() {
        return Err("prefix must not be empty".into());
    }
    let ok = match p {
        Pattern::Grid {
            origin,
            spacing,
            jitter,
            ..
        } => {
            origin.is_finite()
                && spacing.is_finite()
                && jitter.is_none_or(|j| j.position.is_finite())
        }
        Pattern::Stack {
            origin,
            step,
            jitter,
            ..
        } => {
            origin.is_finite() && step.is_finite() && jitter.is_none_or(|j| j.position.is_finite())
        }
        Pattern::Pyramid {
            origin, spacing, ..
        }
        | Pattern::Pyramid3d {
            origin, spacing, ..
        } => origin.is_finite() && spacing.is_finite(),
    };
    if ok {
        Ok(())
    } else {
        Err("origin, spacing and jitter must be finite".into())
    }
}
