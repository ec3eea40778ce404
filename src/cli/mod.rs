//! The subcommands of the `thud` tool.

pub mod check;
pub mod run;

use std::path::Path;

use thud::demos::{DEMOS, load_demo};
use thud_scene::{Scene, SceneError, load_file};

/// Exit code: an expectation failed.
pub const EXIT_FAILED: u8 = 1;
/// Exit code: bad command line (clap uses it too).
pub const EXIT_USAGE: u8 = 2;
/// Exit code: the scene could not be loaded.
pub const EXIT_SCENE: u8 = 3;
/// Exit code: the engine refused the scene while running it.
pub const EXIT_ENGINE: u8 = 4;
/// Exit code: an output could not be written.
pub const EXIT_IO: u8 = 5;

/// `thud list`.
pub fn list() -> u8 {
    println!("Built-in demos (run with `thud run NAME`; files in examples/scenes/):");
    for (name, _) in DEMOS {
        match load_demo(name) {
            Some(Ok(s)) => {
                let dynamic = s.count(thud_scene::BodyKindDef::Dynamic);
                println!("  {name:<16} {:>5} bodies  {}", dynamic, s.description);
            }
            Some(Err(e)) => println!("  {name:<16} (broken: {e})"),
            None => {}
        }
    }
    0
}

/// A demo name or a `.ron` path → a loaded scene.
pub fn load_scene(spec: &str) -> Result<Scene, SceneError> {
    let path = Path::new(spec);
    if path.exists() || spec.ends_with(".ron") {
        return load_file(path);
    }
    match load_demo(spec) {
        Some(r) => r,
        None => Err(SceneError::UnknownScene(spec.to_string())),
    }
}

/// Sets the worker thread count of the global pool (once per process); the count in use.
pub fn setup_threads(threads: Option<usize>) -> usize {
    if let Some(n) = threads {
        // Fails only if the pool was built already; then the first setting stays.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .build_global();
    }
    rayon::current_num_threads()
}

/// Parses `WIDTHxHEIGHT`.
pub fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let (w, h) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("expected WIDTHxHEIGHT, got `{s}`"))?;
    let w: u32 = w
        .trim()
        .parse()
        .map_err(|_| format!("bad width in `{s}`"))?;
    let h: u32 = h
        .trim()
        .parse()
        .map_err(|_| format!("bad height in `{s}`"))?;
    if !(16..=2048).contains(&w) || !(16..=2048).contains(&h) {
        return Err("width and height must be in 16..=2048".into());
    }
    Ok((w, h))
}
