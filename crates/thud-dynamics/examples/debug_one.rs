//! Debug: one box.
use glam::{Quat, Vec3};
use thud_dynamics::{BodyBuilder, Collider, Settings, World};
fn main() {
    let mut w = World::new(Settings::without_sleeping());
    w.add_body(BodyBuilder::fixed().position(Vec3::new(0.0, -0.5, 0.0)).collider(Collider::cuboid(Vec3::new(200.0, 0.5, 200.0)))).unwrap();
    w.add_body(BodyBuilder::dynamic().position(Vec3::new(0.0, 0.5, 0.0)).collider(Collider::cuboid(Vec3::splat(0.5)))).unwrap();
    let b = w
        .add_body(BodyBuilder::dynamic().position(Vec3::new(0.0, 1.52, 0.0)).rotation(Quat::from_rotation_x(0.03)).collider(Collider::cuboid(Vec3::splat(0.5))))
        .unwrap();
    println!("inertia {:?}", w.body(b).unwrap().inertia_local());
    for step in 0..240 {
        w.step().unwrap();
        let body = w.body(b).unwrap();
        if step % 10 == 0 && step < 100 {
            println!("{step}: p {:.5?} w {:.5?} v {:.5?} angle {:.5} E {:.5} contacts {}", body.position(), body.angular_velocity(), body.linear_velocity(), body.rotation().to_axis_angle().1, w.total_energy(), w.stats().contacts);
        }
    }
}
