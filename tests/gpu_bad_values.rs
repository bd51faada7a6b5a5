//! Bad values that could reach the GPU, from files and from the command line: each is either
//! refused with one line (exit 1) before anything is drawn, or drawn without a validation
//! message. Models are variants of the small `.m3d` sample, written to a scratch folder.
//!
//! Without a Vulkan device the rendering cases print why and skip, except under `CI=true`,
//! where they fail.

mod m3d_samples;

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use m3d_samples::{SKINNED, STATIC, edit};
use serde_json::Value;

fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("gpu_bad_values")
        .join(format!("{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("writing a model");
    path.to_str().expect("UTF-8 path").to_string()
}

fn throng(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_throng"))
        .args(args)
        .env_remove("RUST_LOG")
        .env_remove("THRONG_FAULT")
        .output()
        .expect("the throng binary runs")
}

/// A small headless run of `model` with `extra` arguments.
fn run(dir: &Path, model: &str, extra: &[&str]) -> (Output, PathBuf) {
    let stats = dir.join("stats.json");
    let _ = std::fs::remove_file(&stats);
    let mut args = vec![
        "run",
        model,
        "--headless",
        "--frames",
        "2",
        "--instances",
        "6",
        "--width",
        "96",
        "--height",
        "64",
        "--stats-json",
        stats.to_str().expect("UTF-8 path"),
    ];
    args.extend_from_slice(extra);
    (throng(&args), stats)
}

/// The run was refused with one line, exit 1, containing every one of `words`.
fn assert_refused(out: &Output, what: &str, words: &[&str]) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    let errors: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("throng: error: "))
        .collect();
    assert_eq!(out.status.code(), Some(1), "{what}: {stderr}");
    assert!(!stderr.contains("panicked"), "{what}: {stderr}");
    assert_eq!(errors.len(), 1, "{what}: one error line: {stderr}");
    for w in words {
        assert!(errors[0].contains(w), "{what}: '{w}' not in {}", errors[0]);
    }
}

/// The run drew its frames with no validation message; `None` without a device.
fn assert_drawn(out: &Output, stats: &Path, what: &str) -> Option<Value> {
    if common::cli::no_vulkan_device(out) {
        return None;
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{what}: {stderr}");
    assert!(!stderr.contains("panicked"), "{what}: {stderr}");
    let doc: Value = serde_json::from_str(
        &std::fs::read_to_string(stats).unwrap_or_else(|e| panic!("{what}: stats: {e}")),
    )
    .expect("stats JSON");
    assert_eq!(doc["validation_messages"], 0, "{what}: {stderr}");
    assert_eq!(doc["frames"], 2, "{what}");
    Some(doc)
}

#[test]
fn bind_poses_that_are_not_finite_are_refused() {
    let dir = scratch("bind");
    // An offset that cannot be inverted: no bind pose to skin from.
    let singular = write(
        &dir,
        "singular.m3d",
        &edit(
            SKINNED,
            "BoneOffset1 1 0 0 0 0 1 0 0 0 0 1 0 0 -1 0 1",
            "BoneOffset1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0",
        ),
    );
    let (out, _) = run(&dir, &singular, &[]);
    assert_refused(&out, "singular offset", &["singular.m3d", "BoneOffsets"]);
    // Keys whose translations overflow once compounded: palettes would be infinite.
    let huge = write(
        &dir,
        "huge.m3d",
        &edit(SKINNED, "Time: 1 Pos: 0 0.5 0", "Time: 1 Pos: 0 3e38 0"),
    );
    let (out, _) = run(&dir, &huge, &[]);
    assert_refused(&out, "overflowing keys", &["huge.m3d", "finite"]);
}

#[test]
fn zero_area_triangles_are_drawn_without_complaint() {
    let dir = scratch("zero-area");
    let model = write(
        &dir,
        "zero_area.m3d",
        &edit(SKINNED, "0 1 2\n1 3 2", "0 0 0\n1 3 3"),
    );
    let (out, stats) = run(&dir, &model, &[]);
    assert_drawn(&out, &stats, "zero-area triangles");
}

#[test]
fn a_model_collapsed_to_a_point_is_drawn_without_complaint() {
    let dir = scratch("point");
    let mut text = SKINNED.to_string();
    for p in ["Position: 1 1 0", "Position: 0 2 0", "Position: 1 3 0"] {
        text = edit(&text, p, "Position: 0 0 0");
    }
    let model = write(&dir, "point.m3d", &text);
    // Zero-size bounds: culling, levels of detail and the baked rule all see a point.
    for extra in [&[][..], &["--animation", "baked"], &["--cull", "off"]] {
        let (out, stats) = run(&dir, &model, extra);
        if assert_drawn(&out, &stats, &format!("a point, {extra:?}")).is_none() {
            return;
        }
    }
}

#[test]
fn a_model_without_triangles_is_refused() {
    let dir = scratch("no-triangles");
    let mut text = edit(STATIC, "#Triangles 1", "#Triangles 0");
    text = edit(
        &text,
        "FaceStart: 0 FaceCount: 1",
        "FaceStart: 0 FaceCount: 0",
    );
    text = edit(&text, "0 2 1\n", "");
    let model = write(&dir, "empty.m3d", &text);
    let (out, _) = run(&dir, &model, &[]);
    if common::cli::no_vulkan_device(&out) {
        return;
    }
    assert_refused(&out, "no triangles", &["no triangles"]);
}

/// The screenshot of a held pose, as RGBA bytes.
fn posed(dir: &Path, pose: &str) -> Option<(Vec<u8>, String)> {
    let png = dir.join(format!("pose-{pose}.png"));
    let (out, stats) = run(
        dir,
        "builtin",
        &[
            "--pose",
            pose,
            "--screenshot",
            png.to_str().expect("UTF-8 path"),
        ],
    );
    assert_drawn(&out, &stats, pose)?;
    let image = image::open(&png).expect("the screenshot").to_rgba8();
    Some((
        image.into_raw(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}

#[test]
fn a_pose_outside_the_clip_holds_its_end_and_says_so() {
    let dir = scratch("pose");
    // The built-in walk lasts 1 s: past its end is its last pose, before its start its first,
    // as `throng pose` gives them.
    let Some((past, said)) = posed(&dir, "walk@5") else {
        return;
    };
    let Some((end, quiet)) = posed(&dir, "walk@1") else {
        return;
    };
    assert!(past == end, "walk@5 is not walk@1");
    assert!(said.contains("holding its pose at 1.000 s"), "{said}");
    assert!(!quiet.contains("holding"), "{quiet}");
    let Some((before, _)) = posed(&dir, "walk@-3") else {
        return;
    };
    let Some((start, _)) = posed(&dir, "walk@0") else {
        return;
    };
    assert!(before == start, "walk@-3 is not walk@0");
    // The poses show: mid-stride differs from the stride's start.
    let Some((middle, _)) = posed(&dir, "walk@0.5") else {
        return;
    };
    assert!(middle != start, "walk@0.5 looks like walk@0");
}
