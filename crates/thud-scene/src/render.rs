//! A small software renderer, so pictures of a run can be made on a headless machine.
//!
//! Shapes are tessellated into triangles (a box is 12, a sphere a latitude–longitude
//! grid, a capsule a sphere split at its equator and pulled apart, a cylinder a prism
//! with caps, a half-space a large quad), clipped against the near plane, projected
//! with a pinhole camera and filled with a z-buffer. Shading is per pixel, with
//! perspective-correct interpolation of the world position and normal:
//!
//! ```text
//! colour = albedo · (ambient(n) + k_d · max(0, n·l) · shadow) ,  ambient(n) = mix(ground, sky, (n_y + 1)/2)
//! ```
//!
//! with `l` a fixed sun direction. `shadow` comes from a shadow map: the scene's depth
//! seen from the sun, in an orthographic view fitted to the moving bodies. Box edges are
//! darkened (from the local coordinates of the pixel) so stacked boxes stay tellable
//! apart, and large static bodies (the ground) get a 1 m checker pattern. Each dynamic
//! body has its own hue from a fixed palette; static bodies are grey, kinematic ones blue.
//!
//! [`render_frame`] returns an [`image::RgbImage`]; [`GifWriter`] collects frames into
//! an animated GIF.

use std::io::Write;

use glam::{Mat3, Quat, Vec2, Vec3};
use image::{Rgb, RgbImage};

use crate::schema::{BodyDef, BodyKindDef, Camera, Scene, ShapeDef};

/// One body to draw: its description and its current pose.
#[derive(Debug, Clone, Copy)]
pub struct DrawBody<'a> {
    /// Shape, parts and kind.
    pub def: &'a BodyDef,
    /// Index used to pick the body's colour.
    pub index: usize,
    /// Centre.
    pub position: Vec3,
    /// Orientation.
    pub rotation: Quat,
}

/// Direction towards the sun (unit).
fn sun() -> Vec3 {
    Vec3::new(-0.55, 0.7, 0.45).normalize()
}

const PALETTE: [[f32; 3]; 8] = [
    [0.90, 0.45, 0.25],
    [0.95, 0.75, 0.30],
    [0.45, 0.70, 0.35],
    [0.35, 0.60, 0.85],
    [0.80, 0.40, 0.55],
    [0.55, 0.45, 0.80],
    [0.90, 0.60, 0.45],
    [0.40, 0.75, 0.70],
];

/// A vertex of the tessellation: world position, world normal, position in the shape's
/// local frame.
#[derive(Debug, Clone, Copy)]
struct Vertex {
    p: Vec3,
    n: Vec3,
    local: Vec3,
}

/// A triangle and the item it belongs to.
#[derive(Debug, Clone, Copy)]
struct Tri {
    v: [Vertex; 3],
    item: u32,
}

/// How an item's pixels are coloured.
#[derive(Debug, Clone, Copy)]
struct Look {
    albedo: Vec3,
    /// Half extents of a cuboid, for edge lines.
    edges: Option<Vec3>,
    checker: bool,
}

fn look_of(body: &DrawBody<'_>, shape: &ShapeDef) -> Look {
    let large = shape.bounding_radius() > 30.0;
    let albedo = match body.def.kind {
        BodyKindDef::Static => Vec3::new(0.62, 0.63, 0.66),
        BodyKindDef::Kinematic => Vec3::new(0.35, 0.5, 0.95),
        BodyKindDef::Dynamic => Vec3::from_array(PALETTE[body.index % PALETTE.len()]),
    };
    Look {
        albedo,
        edges: match *shape {
            ShapeDef::Cuboid { half_extents } if !large => Some(half_extents),
            _ => None,
        },
        checker: large || matches!(shape, ShapeDef::Halfspace { .. }),
    }
}

/// Appends the triangles of `shape` at `(position, rotation)`.
fn tessellate(shape: &ShapeDef, position: Vec3, rotation: Quat, item: u32, out: &mut Vec<Tri>) {
    let m = Mat3::from_quat(rotation);
    let vert = |local: Vec3, n_local: Vec3| Vertex {
        p: position + m * local,
        n: (m * n_local).normalize_or(Vec3::Y),
        local,
    };
    let mut quad = |a: Vertex, b: Vertex, c: Vertex, d: Vertex| {
        out.push(Tri { v: [a, b, c], item });
        out.push(Tri { v: [a, c, d], item });
    };
    match *shape {
        ShapeDef::Cuboid { half_extents: h } => {
            for axis in 0..3 {
                for sign in [-1.0f32, 1.0] {
                    let mut n = Vec3::ZERO;
                    n[axis] = sign;
                    let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
                    let corner = |su: f32, sv: f32| {
                        let mut p = Vec3::ZERO;
                        p[axis] = sign * h[axis];
                        p[u] = su * h[u];
                        p[v] = sv * h[v];
                        vert(p, n)
                    };
                    quad(
                        corner(-1.0, -1.0),
                        corner(1.0, -1.0),
                        corner(1.0, 1.0),
                        corner(-1.0, 1.0),
                    );
                }
            }
        }
        ShapeDef::Sphere { radius } => round(radius, 0.0, &vert, &mut quad),
        ShapeDef::Capsule {
            half_height,
            radius,
        } => round(radius, half_height, &vert, &mut quad),
        ShapeDef::Cylinder {
            half_height,
            radius,
        } => {
            let seg = 24;
            let ring = |i: u32| {
                let a = i as f32 / seg as f32 * std::f32::consts::TAU;
                Vec3::new(a.cos(), 0.0, a.sin())
            };
            for i in 0..seg {
                let (r0, r1) = (ring(i), ring(i + 1));
                let y = Vec3::Y * half_height;
                quad(
                    vert(r0 * radius - y, r0),
                    vert(r0 * radius + y, r0),
                    vert(r1 * radius + y, r1),
                    vert(r1 * radius - y, r1),
                );
                quad(
                    vert(y, Vec3::Y),
                    vert(y, Vec3::Y),
                    vert(r1 * radius + y, Vec3::Y),
                    vert(r0 * radius + y, Vec3::Y),
                );
                quad(
                    vert(-y, -Vec3::Y),
                    vert(-y, -Vec3::Y),
                    vert(r0 * radius - y, -Vec3::Y),
                    vert(r1 * radius - y, -Vec3::Y),
                );
            }
        }
        ShapeDef::Halfspace { normal } => {
            let n = normal.normalize_or(Vec3::Y);
            let t = n.any_orthonormal_vector();
            let b = n.cross(t);
            let s = 400.0;
            quad(
                vert((-t - b) * s, n),
                vert((t - b) * s, n),
                vert((t + b) * s, n),
                vert((-t + b) * s, n),
            );
        }
    }
}

/// A sphere (`half_height` 0) or a capsule along local y, as a latitude–longitude grid.
fn round(
    radius: f32,
    half_height: f32,
    vert: &dyn Fn(Vec3, Vec3) -> Vertex,
    quad: &mut dyn FnMut(Vertex, Vertex, Vertex, Vertex),
) {
    let (rings, seg) = (12u32, 20u32);
    let point = |ring: u32, i: u32, upper: bool| {
        let phi = ring as f32 / rings as f32 * std::f32::consts::PI;
        let th = i as f32 / seg as f32 * std::f32::consts::TAU;
        let n = Vec3::new(phi.sin() * th.cos(), phi.cos(), phi.sin() * th.sin());
        let shift = if upper { half_height } else { -half_height };
        vert(n * radius + Vec3::Y * shift, n)
    };
    for ring in 0..rings {
        let upper = ring < rings / 2;
        for i in 0..seg {
            quad(
                point(ring, i, upper),
                point(ring, i + 1, upper),
                point(ring + 1, i + 1, upper),
                point(ring + 1, i, upper),
            );
        }
    }
    if half_height > 0.0 {
        let eq = rings / 2;
        for i in 0..seg {
            quad(
                point(eq, i, false),
                point(eq, i + 1, false),
                point(eq, i + 1, true),
                point(eq, i, true),
            );
        }
    }
}

/// A view: camera basis and projection to pixel coordinates.
#[derive(Debug, Clone, Copy)]
struct View {
    eye: Vec3,
    right: Vec3,
    up: Vec3,
    fwd: Vec3,
    /// Orthographic half height, or `None` for perspective with focal length `f`.
    ortho: Option<f32>,
    f: f32,
    w: f32,
    h: f32,
}

const NEAR: f32 = 0.05;

impl View {
    fn new(eye: Vec3, target: Vec3, w: u32, h: u32, fov_deg: f32, ortho: Option<f32>) -> View {
        let fwd = (target - eye).normalize_or(-Vec3::Z);
        let up_hint = if fwd.y.abs() > 0.999 {
            Vec3::Z
        } else {
            Vec3::Y
        };
        let right = fwd.cross(up_hint).normalize();
        let up = right.cross(fwd);
        View {
            eye,
            right,
            up,
            fwd,
            ortho,
            f: 1.0 / (fov_deg.to_radians() / 2.0).tan(),
            w: w as f32,
            h: h as f32,
        }
    }

    /// World point → camera space (x right, y up, z = depth along the view).
    fn camera_space(&self, p: Vec3) -> Vec3 {
        let d = p - self.eye;
        Vec3::new(d.dot(self.right), d.dot(self.up), d.dot(self.fwd))
    }

    /// Camera space → pixel coordinates.
    fn pixel_of(&self, c: Vec3) -> Vec2 {
        let (x, y) = match self.ortho {
            Some(half) => (c.x / (half * self.w / self.h), c.y / half),
            None => (self.f * c.x / (c.z * self.w / self.h), self.f * c.y / c.z),
        };
        Vec2::new((x + 1.0) * 0.5 * self.w, (1.0 - y) * 0.5 * self.h)
    }
}

/// Per-pixel result of rasterization: depth and the interpolated attributes.
#[derive(Debug, Clone, Copy)]
struct Fragment {
    item: u32,
    p: Vec3,
    n: Vec3,
    local: Vec3,
}

/// Rasterizes triangles into a depth buffer, calling `shade` for every pixel that wins.
fn rasterize(view: &View, tris: &[Tri], depth: &mut [f32], frags: &mut [Option<Fragment>]) {
    let (w, h) = (view.w as usize, view.h as usize);
    for tri in tris {
        let cam = tri.v.map(|v| (view.camera_space(v.p), v));
        // Clip against the near plane (Sutherland–Hodgman, one plane).
        let mut poly: Vec<(Vec3, Vertex)> = Vec::with_capacity(4);
        for i in 0..3 {
            let (a, b) = (cam[i], cam[(i + 1) % 3]);
            let (ina, inb) = (
                a.0.z >= NEAR || view.ortho.is_some(),
                b.0.z >= NEAR || view.ortho.is_some(),
            );
            if ina {
                poly.push(a);
            }
            if ina != inb {
                let t = (NEAR - a.0.z) / (b.0.z - a.0.z);
                let lerp = |x: Vec3, y: Vec3| x + (y - x) * t;
                poly.push((
                    lerp(a.0, b.0),
                    Vertex {
                        p: lerp(a.1.p, b.1.p),
                        n: lerp(a.1.n, b.1.n),
                        local: lerp(a.1.local, b.1.local),
                    },
                ));
            }
        }
        for k in 1..poly.len().saturating_sub(1) {
            let corners = [poly[0], poly[k], poly[k + 1]];
            let s = corners.map(|(c, _)| view.pixel_of(c));
            let area = (s[1] - s[0]).perp_dot(s[2] - s[0]);
            if area.abs() < 1e-9 || !area.is_finite() {
                continue;
            }
            let min = s[0].min(s[1]).min(s[2]).max(Vec2::ZERO);
            let max = s[0]
                .max(s[1])
                .max(s[2])
                .min(Vec2::new(view.w - 1.0, view.h - 1.0));
            if min.x > max.x || min.y > max.y {
                continue;
            }
            let inv_z = corners.map(|(c, _)| if view.ortho.is_some() { 1.0 } else { 1.0 / c.z });
            for py in min.y as usize..=max.y as usize {
                for px in min.x as usize..=max.x as usize {
                    let q = Vec2::new(px as f32 + 0.5, py as f32 + 0.5);
                    let l0 = (s[2] - s[1]).perp_dot(q - s[1]) / area;
                    let l1 = (s[0] - s[2]).perp_dot(q - s[2]) / area;
                    let l2 = 1.0 - l0 - l1;
                    if l0 < 0.0 || l1 < 0.0 || l2 < 0.0 {
                        continue;
                    }
                    let iz = l0 * inv_z[0] + l1 * inv_z[1] + l2 * inv_z[2];
                    let (b0, b1, b2) = (l0 * inv_z[0] / iz, l1 * inv_z[1] / iz, l2 * inv_z[2] / iz);
                    let z = b0 * corners[0].0.z + b1 * corners[1].0.z + b2 * corners[2].0.z;
                    let idx = py * w + px;
                    if idx >= w * h || z >= depth[idx] {
                        continue;
                    }
                    depth[idx] = z;
                    let mix = |f: fn(&Vertex) -> Vec3| {
                        f(&corners[0].1) * b0 + f(&corners[1].1) * b1 + f(&corners[2].1) * b2
                    };
                    frags[idx] = Some(Fragment {
                        item: tri.item,
                        p: mix(|v| v.p),
                        n: mix(|v| v.n),
                        local: mix(|v| v.local),
                    });
                }
            }
        }
    }
}

/// A camera that frames the scene's initial dynamic bodies (or a default view).
#[must_use]
pub fn default_camera(scene: &Scene) -> Camera {
    let mut lo = Vec3::splat(f32::INFINITY);
    let mut hi = Vec3::splat(f32::NEG_INFINITY);
    for b in scene
        .bodies
        .iter()
        .filter(|b| b.kind != BodyKindDef::Static)
    {
        let r = b.shape.bounding_radius().min(10.0);
        lo = lo.min(b.position - Vec3::splat(r));
        hi = hi.max(b.position + Vec3::splat(r));
    }
    if !lo.is_finite() || !hi.is_finite() {
        return Camera::looking(Vec3::new(6.0, 5.0, 10.0), Vec3::ZERO);
    }
    let centre = (lo + hi) / 2.0;
    let size = (hi - lo).length().max(2.0);
    let dir = Vec3::new(0.45, 0.4, 1.0).normalize();
    Camera::looking(centre + dir * size * 1.4, centre)
}

/// Shadow map: depth of the scene as seen from the sun.
struct ShadowMap {
    view: View,
    depth: Vec<f32>,
    size: usize,
}

impl ShadowMap {
    fn new(tris: &[Tri], focus: (Vec3, f32)) -> ShadowMap {
        let size = 512usize;
        let (centre, radius) = focus;
        let eye = centre + sun() * (radius * 3.0 + 10.0);
        let view = View::new(eye, centre, size as u32, size as u32, 45.0, Some(radius));
        let mut depth = vec![f32::INFINITY; size * size];
        let mut frags = vec![None; size * size];
        rasterize(&view, tris, &mut depth, &mut frags);
        ShadowMap { view, depth, size }
    }

    /// 1 where the sun reaches `p`, 0 where something is in the way.
    fn lit(&self, p: Vec3) -> f32 {
        let c = self.view.camera_space(p);
        let s = self.view.pixel_of(c);
        if s.x < 0.0 || s.y < 0.0 || s.x >= self.size as f32 || s.y >= self.size as f32 {
            return 1.0;
        }
        let d = self.depth[s.y as usize * self.size + s.x as usize];
        if c.z > d + 0.05 { 0.0 } else { 1.0 }
    }
}

/// Draws one frame of `bodies` seen from `camera`.
#[must_use]
pub fn render_frame(camera: &Camera, bodies: &[DrawBody<'_>]) -> RgbImage {
    let (w, h) = (camera.width.clamp(16, 2048), camera.height.clamp(16, 2048));
    let mut tris = Vec::new();
    let mut looks = Vec::new();
    let mut lo = Vec3::splat(f32::INFINITY);
    let mut hi = Vec3::splat(f32::NEG_INFINITY);
    for body in bodies {
        let shapes = std::iter::once((body.def.shape, Vec3::ZERO, Quat::IDENTITY)).chain(
            body.def
                .parts
                .iter()
                .map(|p| (p.shape, p.position, p.rotation)),
        );
        for (shape, offset, rot) in shapes {
            let q = body.rotation * rot;
            let p = body.position + body.rotation * offset;
            if !(p.is_finite() && q.is_finite()) {
                continue;
            }
            let item = looks.len() as u32;
            looks.push(look_of(body, &shape));
            tessellate(&shape, p, q, item, &mut tris);
            if body.def.kind != BodyKindDef::Static {
                let r = shape.bounding_radius();
                lo = lo.min(p - Vec3::splat(r));
                hi = hi.max(p + Vec3::splat(r));
            }
        }
    }
    let focus = if lo.is_finite() && hi.is_finite() {
        ((lo + hi) / 2.0, ((hi - lo).length() / 2.0 + 2.0).min(150.0))
    } else {
        (camera.target, 10.0)
    };
    let shadows = ShadowMap::new(&tris, focus);
    let view = View::new(camera.eye, camera.target, w, h, camera.fov_deg, None);
    let n = (w * h) as usize;
    let mut depth = vec![f32::INFINITY; n];
    let mut frags = vec![None; n];
    rasterize(&view, &tris, &mut depth, &mut frags);

    let l = sun();
    let sky_top = Vec3::new(0.55, 0.70, 0.90);
    let sky_low = Vec3::new(0.86, 0.90, 0.95);
    let mut img = RgbImage::new(w, h);
    for (idx, frag) in frags.iter().enumerate() {
        let (x, y) = ((idx % w as usize) as u32, (idx / w as usize) as u32);
        let colour = match frag {
            None => sky_low.lerp(sky_top, 1.0 - y as f32 / h as f32),
            Some(f) => {
                let look = looks[f.item as usize];
                let mut n = f.n.normalize_or(Vec3::Y);
                if n.dot(camera.eye - f.p) < 0.0 {
                    n = -n;
                }
                let mut albedo = look.albedo;
                if look.checker {
                    let cell = (f.p.x.floor() as i64 + f.p.z.floor() as i64).rem_euclid(2);
                    albedo *= if cell == 0 { 1.0 } else { 0.86 };
                }
                if let Some(he) = look.edges {
                    let width = 0.04 * he.min_element().max(0.05) / 0.5;
                    let near = (he - f.local.abs()).cmplt(Vec3::splat(width.min(0.05)));
                    if near.bitmask().count_ones() >= 2 {
                        albedo *= 0.45;
                    }
                }
                let ambient = Vec3::new(0.38, 0.37, 0.38)
                    .lerp(Vec3::new(0.50, 0.54, 0.62), (n.y + 1.0) / 2.0);
                let lambert = n.dot(l).max(0.0) * shadows.lit(f.p + n * 0.02);
                let c = albedo * (ambient + Vec3::splat(0.7) * lambert);
                // Distance haze.
                let fog = (1.0 - (-(f.p - camera.eye).length() / 400.0).exp()).clamp(0.0, 1.0);
                c.lerp(sky_low, fog)
            }
        };
        let c = (colour.clamp(Vec3::ZERO, Vec3::ONE) * 255.0).round();
        img.put_pixel(x, y, Rgb([c.x as u8, c.y as u8, c.z as u8]));
    }
    img
}

/// Writes frames into an animated GIF that loops forever.
pub struct GifWriter<W: Write> {
    encoder: image::codecs::gif::GifEncoder<W>,
    delay_ms: u32,
}

impl<W: Write> GifWriter<W> {
    /// A writer showing each frame for `delay_ms` milliseconds.
    pub fn new(out: W, delay_ms: u32) -> Result<GifWriter<W>, image::ImageError> {
        let mut encoder = image::codecs::gif::GifEncoder::new_with_speed(out, 20);
        encoder.set_repeat(image::codecs::gif::Repeat::Infinite)?;
        Ok(GifWriter { encoder, delay_ms })
    }

    /// Appends a frame.
    pub fn push(&mut self, frame: &RgbImage) -> Result<(), image::ImageError> {
        let rgba = image::DynamicImage::ImageRgb8(frame.clone()).into_rgba8();
        let delay = image::Delay::from_numer_denom_ms(self.delay_ms, 1);
        self.encoder
            .encode_frame(image::Frame::from_parts(rgba, 0, 0, delay))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_scene_is_sky() {
        let img = render_frame(&Camera::looking(Vec3::new(0.0, 1.0, 5.0), Vec3::ZERO), &[]);
        let p = img.get_pixel(10, 10);
        assert!(p[2] > p[0], "sky is blue: {p:?}");
    }

    #[test]
    fn camera_behind_geometry_does_not_panic() {
        let ground = crate::standard::ground();
        let bodies = [DrawBody {
            def: &ground,
            index: 0,
            position: ground.position,
            rotation: Quat::IDENTITY,
        }];
        let cam = Camera::looking(Vec3::new(0.0, 0.2, 0.0), Vec3::new(0.0, 0.2, -1.0));
        let _ = render_frame(&cam, &bodies);
        let cam = Camera::looking(Vec3::new(0.0, 30.0, 0.0), Vec3::ZERO);
        let _ = render_frame(&cam, &bodies);
    }
}
