//! The `thud` binary end to end: list, run with outputs, check, and the documented
//! exit codes and messages for bad input.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn thud(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_thud"))
        .args(args)
        .output()
        .expect("the thud binary runs")
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("thud-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, name: &str, src: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, src).unwrap();
    p.display().to_string()
}

#[test]
fn list_shows_every_demo() {
    let o = thud(&["list"]);
    assert!(o.status.success());
    let (out, _) = text(&o);
    for (name, _) in thud::demos::DEMOS {
        assert!(out.contains(name), "{name} listed");
    }
}

#[test]
fn run_writes_summary_and_trajectory() {
    let dir = temp_dir("run");
    let out_dir = dir.join("out");
    let o = thud(&[
        "run",
        "incline",
        "--steps",
        "25",
        "--every",
        "10",
        "--quiet",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    assert!(out.contains("incline: 25 steps"), "{out}");

    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("summary.json")).unwrap())
            .unwrap();
    assert_eq!(summary["scene"], "incline");
    assert_eq!(summary["steps"], 25);
    assert_eq!(summary["bodies"], 4);
    assert!(summary["drift"].is_null(), "incline is not a resting scene");
    assert_eq!(summary.as_object().unwrap().len(), 17);

    let csv = std::fs::read_to_string(out_dir.join("trajectory.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("frame,time,body,name,px,py,pz,qx,qy,qz,qw,vx,vy,vz,wx,wy,wz")
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    let frames: Vec<&str> = rows
        .iter()
        .map(|r| r[0])
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    // Every 10th frame plus the last, 4 bodies (statics included) each.
    let mut frames_num: Vec<u32> = frames.iter().map(|f| f.parse().unwrap()).collect();
    frames_num.sort_unstable();
    assert_eq!(frames_num, vec![0, 10, 20, 25]);
    assert_eq!(rows.len(), 4 * 4);
    // Frame 0 is the initial state at time 0.
    let first = &rows[0];
    assert_eq!(
        (first[0], first[1], first[2], first[3]),
        ("0", "0.000000", "0", "ground")
    );
    assert!(rows.iter().all(|r| r.len() == 17));
    let grippy = rows
        .iter()
        .find(|r| r[0] == "0" && r[3] == "grippy")
        .unwrap();
    assert!((grippy[5].parse::<f32>().unwrap() - 3.149519).abs() < 1e-4);
}

#[test]
fn run_renders_png_frames_and_a_gif() {
    let dir = temp_dir("render");
    let o = thud(&[
        "run",
        "card_house",
        "--steps",
        "6",
        "--render",
        "gif",
        "--render-every",
        "3",
        "--size",
        "64x48",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{:?}", text(&o));
    let gif = std::fs::read(dir.join("card_house.gif")).unwrap();
    assert!(gif.starts_with(b"GIF89a"), "a GIF");
    let png_dir = dir.join("png");
    let o = thud(&[
        "run",
        "card_house",
        "--steps",
        "4",
        "--render",
        "png",
        "--render-every",
        "2",
        "--size",
        "64x48",
        "--quiet",
        "--out",
        png_dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{:?}", text(&o));
    let mut frames: Vec<String> = std::fs::read_dir(png_dir.join("frames"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    frames.sort();
    assert_eq!(
        frames,
        ["frame_000000.png", "frame_000002.png", "frame_000004.png"]
    );
}

const FAILING: &str = r#"// Built to fail: a ball dropped from 5 m is expected to hover.
(
    name: "hover",
    bodies: [(name: "ball", shape: Sphere(radius: 0.5), position: (0.0, 5.0, 0.0))],
    expectations: [
        (at: 0.5, check: Position(body: "ball", y: (4.9, 5.1))),
        (at: 0.25, check: Speed(body: "ball", max: 10.0)),
    ],
)
"#;

#[test]
fn check_fails_on_a_scene_built_to_fail_and_says_which_when_how_much() {
    let dir = temp_dir("check");
    let bad = write(&dir, "hover.ron", FAILING);
    let o = thud(&["check", &bad]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    assert!(out.contains("FAIL") && out.contains("hover"), "{out}");
    assert!(
        out.contains("ball: y in [4.9, 5.1] at t = 0.500 s"),
        "{out}"
    );
    assert!(out.contains("outside [4.9, 5.1] by"), "{out}");
    // A passing scene alongside: still exit 1 overall, and it is reported ok.
    let o = thud(&["check", "incline", &bad, "--seconds", "1"]);
    let (out, _) = text(&o);
    assert_eq!(o.status.code(), Some(1));
    assert!(out.contains("ok    incline"), "{out}");
    // run also reports the failure, with exit 1.
    let o = thud(&["run", &bad, "--quiet"]);
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn check_passes_a_passing_scene() {
    let o = thud(&["check", "newtons_cradle"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    assert!(out.starts_with("ok "), "{out}");
}

#[test]
fn bad_scenes_give_located_messages_and_exit_3() {
    let dir = temp_dir("bad");
    let typo = write(
        &dir,
        "typo.ron",
        "(\n  bodies: [\n    (name: \"a\", shape: Sphere(radius: 1.0), postion: (0.0, 1.0, 0.0)),\n  ],\n)\n",
    );
    let o = thud(&["run", &typo]);
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(err.contains(&format!("{typo}:3:")), "{err}");
    assert!(
        err.contains("postion") && err.contains("unknown field"),
        "{err}"
    );

    let ghost = write(
        &dir,
        "ghost.ron",
        "(\n  bodies: [(name: \"a\", shape: Sphere(radius: 1.0))],\n  timeline: [(at: 1.0, action: Remove(body: \"b\"))],\n)\n",
    );
    let o = thud(&["check", &ghost]);
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(
        err.contains(&format!("{ghost}:3:")) && err.contains("`b`"),
        "{err}"
    );

    let o = thud(&["run", "no_such_demo"]);
    assert_eq!(o.status.code(), Some(3));
    assert!(text(&o).1.contains("unknown scene `no_such_demo`"));

    let o = thud(&["run", &dir.join("missing.ron").display().to_string()]);
    assert_eq!(o.status.code(), Some(3));
    assert!(text(&o).1.contains("cannot read"));

    let garbage = write(&dir, "garbage.ron", "\u{0}\u{1}not ron at all ((((");
    let o = thud(&["run", &garbage]);
    assert_eq!(o.status.code(), Some(3));
}

#[test]
fn bad_options_exit_2() {
    let o = thud(&["run", "incline", "--seconds", "-1"]);
    assert_eq!(o.status.code(), Some(2), "{:?}", text(&o));
    let o = thud(&["run", "incline", "--dt", "0"]);
    assert_eq!(o.status.code(), Some(2));
    let o = thud(&["run", "incline", "--every", "0"]);
    assert_eq!(o.status.code(), Some(2));
    let o = thud(&["run", "incline", "--friction-stride", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("--friction-stride"), "{:?}", text(&o));
    let o = thud(&["run", "incline", "--reuse-rows", "-1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("--reuse-rows"), "{:?}", text(&o));
    let o = thud(&["run", "incline", "--touching-gap", "-0.001"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("--touching-gap"), "{:?}", text(&o));
    let o = thud(&["frobnicate"]);
    assert_eq!(o.status.code(), Some(2));
}
