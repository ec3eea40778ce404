//! Debug: two boxes, cold PGS.
mod support;
use thud_dynamics::Settings;
fn main() {
    let scene = thud_scene::standard::tower(std::env::var("THUD_N").map(|v| v.parse().unwrap()).unwrap_or(2));
    let mut s = Settings::without_sleeping();
    s.warm_start = std::env::var("THUD_WARM").map(|v| v.parse().unwrap()).unwrap_or(0.0);
    let (mut w, h) = support::scene_world::world(&scene, s);
    for step in 0..600 {
        w.step().unwrap();
        if step % 40 == 0 || step < 40 || step < 4 {
            let b1 = w.body(h[1]).unwrap();
            let b2 = w.body(*h.last().unwrap()).unwrap();
            println!("{step}: warm {}/{} b1 p {:.5?} w {:.5?} | b2 p {:.5?} w {:.5?} v {:.5?}", w.stats().warm_started, w.stats().contacts, b1.position(), b1.angular_velocity(), b2.position(), b2.angular_velocity(), b2.linear_velocity());
            if step < 0 {
                for c in w.contacts() {
                    println!("   n {:?} {:?}", c.normal, c.points.iter().map(|p| (p.position, p.separation, p.normal_impulse, p.tangent_impulses)).collect::<Vec<_>>());
                }
            }
        }
    }
}
