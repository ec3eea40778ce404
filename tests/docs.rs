//! The docs stay true: every RON example in docs/scenes.md parses, the complete scene
//! example runs and passes its expectations.

use thud::scene::{RunOptions, Simulation, load_str, parse_str};

fn ron_blocks(md: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur: Option<String> = None;
    for line in md.lines() {
        match (&mut cur, line.trim_start()) {
            (None, l) if l.starts_with("```ron") => cur = Some(String::new()),
            (Some(_), l) if l.starts_with("```") => out.extend(cur.take()),
            (Some(b), _) => {
                b.push_str(line);
                b.push('\n');
            }
            _ => {}
        }
    }
    out
}

#[test]
fn scene_doc_examples_are_valid() {
    let md =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/scenes.md")).unwrap();
    let blocks = ron_blocks(&md);
    assert!(blocks.len() >= 4, "found {} blocks", blocks.len());
    // The first block is a whole scene: it loads, runs and passes.
    let scene = load_str(&blocks[0], "docs/scenes.md").unwrap_or_else(|e| panic!("{e}"));
    let mut sim = Simulation::new(scene, &RunOptions::default()).unwrap();
    while !sim.is_done() {
        sim.step().unwrap();
    }
    let report = sim.finish();
    assert!(
        report.passed() && report.summary.expectations_passed == 3,
        "{}",
        report.text()
    );
    // The others are fragments of a scene: wrapped in one, they parse.
    for block in &blocks[1..] {
        let src = format!("(\n{block}\n)");
        parse_str(&src, "fragment").unwrap_or_else(|e| panic!("{e}\n{src}"));
    }
}
