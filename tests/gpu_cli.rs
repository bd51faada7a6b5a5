//! `throng run` on a Vulkan device as a user runs it: a screenshot and a statistics document
//! with everything they promise, deterministic held poses, and one-line errors (exit 1 for
//! a missing driver or device, 2 for a bad argument).
//!
//! Runs on lavapipe here and in CI. Without a Vulkan device the rendering tests print why
//! and skip, except under `CI=true`, where they fail.

mod gpu_common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn throng(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_throng"));
    cmd.args(args).env_remove("RUST_LOG");
    cmd
}

fn output(cmd: &mut Command) -> Output {
    cmd.output().expect("the throng binary runs")
}

/// A fresh scratch folder for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("gpu_cli")
        .join(format!("{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("creating a scratch folder");
    dir
}

/// Runs a rendering command; `None` (after saying why) when this machine has no Vulkan
/// device and is not CI. Otherwise it must have succeeded.
fn render(args: &[&str]) -> Option<Output> {
    let out = output(&mut throng(args));
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() && stderr.contains("no Vulkan") && !gpu_common::under_ci() {
        eprintln!("skipped: no Vulkan device here ({stderr}); CI=true makes this a failure");
        return None;
    }
    assert!(out.status.success(), "{args:?} failed: {stderr}");
    Some(out)
}

/// Asserts exit `code` and exactly one line on stderr, with no panic; returns the line.
fn one_line_error(out: &Output, code: i32, what: &str) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(code), "{what}: stderr: {stderr}");
    assert!(!stderr.contains("panicked"), "{what}: panicked: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{what}: not one line: {stderr}");
    assert!(
        stderr.ends_with('\n'),
        "{what}: unterminated line: {stderr:?}"
    );
    assert!(
        stderr.starts_with("throng: error: "),
        "{what}: not a throng error: {stderr}"
    );
    stderr.trim_end().to_string()
}

#[test]
fn without_a_vulkan_driver_it_says_what_to_install_in_one_line() {
    let dir = scratch("no-driver");
    let missing = dir.join("no-such-icd.json");
    let out = output(
        throng(&["run", "--headless", "--frames", "1", "--instances", "1"])
            .env("VK_ICD_FILENAMES", &missing)
            .env("VK_DRIVER_FILES", &missing)
            .env_remove("VK_ADD_DRIVER_FILES"),
    );
    let line = one_line_error(&out, 1, "no driver");
    assert!(
        line.starts_with("throng: error: no Vulkan"),
        "unexpected error: {line}"
    );
    assert!(
        line.contains("mesa-vulkan-drivers"),
        "the error should name the package to install: {line}"
    );
    assert!(
        out.stdout.is_empty(),
        "stdout: {}",
        String::from_utf8_lossy(&out.stdout)
    );
}

fn number(v: &Value, key: &str) -> f64 {
    v[key]
        .as_f64()
        .unwrap_or_else(|| panic!("stats: {key} is not a number: {}", v[key]))
}

fn numbers(v: &Value, key: &str, len: usize) -> Vec<f64> {
    let a = v[key]
        .as_array()
        .unwrap_or_else(|| panic!("stats: {key} is not an array: {}", v[key]));
    assert_eq!(a.len(), len, "stats: {key} has {} numbers", a.len());
    a.iter()
        .map(|x| {
            x.as_f64()
                .unwrap_or_else(|| panic!("stats: {key} holds {x}, not a number"))
        })
        .collect()
}

#[test]
fn headless_run_writes_a_screenshot_and_complete_stats() {
    let dir = scratch("headless");
    let png = dir.join("frame.png");
    let json = dir.join("stats.json");
    let (png_s, json_s) = (
        png.to_str().expect("UTF-8 path"),
        json.to_str().expect("UTF-8 path"),
    );
    let args = [
        "run",
        "--headless",
        "--frames",
        "3",
        "--instances",
        "64",
        "--screenshot",
        png_s,
        "--stats-json",
        json_s,
    ];
    let Some(out) = render(&args) else {
        return;
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.to_lowercase().contains("validation"),
        "validation output: {stderr}"
    );

    let image = image::open(&png)
        .unwrap_or_else(|e| panic!("{}: not a readable PNG: {e}", png.display()))
        .to_rgba8();
    assert_eq!(image.dimensions(), (1280, 720), "default frame size");
    // Not a blank frame: the crowd on its ground makes many colours.
    let mut colours: Vec<[u8; 4]> = image.pixels().map(|p| p.0).collect();
    colours.sort_unstable();
    colours.dedup();
    assert!(colours.len() > 100, "only {} colours", colours.len());

    let text = std::fs::read_to_string(&json).unwrap_or_else(|e| panic!("{}: {e}", json.display()));
    let v: Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("stats JSON: {e}: {text}"));
    let keys = [
        "frames",
        "instances",
        "joints_per_instance",
        "cpu_anim_ms_avg",
        "wait_ms_avg",
        "gpu_ms_avg",
        "frame_ms_avg",
        "validation_messages",
        "device",
        "width",
        "height",
        "shadow_size",
        "view_proj",
        "instance_world",
        "camera",
        "drawn",
        "lod_levels",
        "animation",
        "crowd_state",
    ];
    for key in keys {
        assert!(v.get(key).is_some(), "stats lack {key}: {text}");
    }
    assert_eq!(v["frames"], 3);
    assert_eq!(v["instances"], 64);
    assert_eq!(
        v["joints_per_instance"], 22,
        "the builtin character's joints"
    );
    assert_eq!(v["validation_messages"], 0);
    // By default the crowd's state is advanced on the GPU (it can be: baked frames, no pose),
    // and the start-up line says so.
    assert_eq!(v["crowd_state"], "gpu", "{text}");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("crowd state: advanced on the GPU"),
        "start-up lines: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(
        (v["width"].as_u64(), v["height"].as_u64()),
        (Some(1280), Some(720))
    );
    // The shadow map the default gives that frame.
    assert_eq!(v["shadow_size"], 2048, "{text}");
    assert!(
        v["device"].as_str().is_some_and(|d| !d.is_empty()),
        "device: {}",
        v["device"]
    );
    // Without --msaa, the device's default: 4 samples on a GPU, one on a software rasterizer
    // (where 4 makes a frame of this size a minute long), and the start-up line says which.
    let stdout = String::from_utf8_lossy(&out.stdout);
    let software = v["device"]
        .as_str()
        .is_some_and(|d| d.contains("llvmpipe") || d.contains("SwiftShader"));
    let expected = if software {
        "no MSAA, as on any software device: --msaa 4 asks for it"
    } else {
        "4x MSAA"
    };
    assert!(stdout.contains(expected), "start-up line: {stdout}");
    for key in [
        "cpu_anim_ms_avg",
        "wait_ms_avg",
        "gpu_ms_avg",
        "frame_ms_avg",
    ] {
        let ms = number(&v, key);
        assert!(ms.is_finite() && ms >= 0.0, "{key} = {ms}");
    }
    assert!(number(&v, "frame_ms_avg") > 0.0);
    // Animating and waiting for the GPU are separate parts of the frame: together they fit
    // in it (a wait counted as animation, or twice, would not).
    let (anim, wait, frame) = (
        number(&v, "cpu_anim_ms_avg"),
        number(&v, "wait_ms_avg"),
        number(&v, "frame_ms_avg"),
    );
    assert!(
        anim + wait <= frame + 1e-6,
        "cpu anim {anim} ms + wait {wait} ms > frame {frame} ms"
    );
    // A frame of 64 characters takes GPU time; 0 is what the document says when none was
    // measured, which is right only on a device that writes no timestamps (asked of Vulkan
    // here, not of the program).
    let device = gpu_common::default_device_capabilities().expect("the device the run used");
    if device.timestamps {
        assert!(
            number(&v, "gpu_ms_avg") > 0.0,
            "the device writes timestamps, but the run measured no GPU time: {text}"
        );
        let passes = v["passes"].as_object().expect("passes");
        for pass in ["shadow", "forward", "forward_late", "ambient_composite"] {
            let ms = passes.get(pass).and_then(Value::as_f64);
            assert!(ms.is_some_and(|ms| ms > 0.0), "{pass}: {ms:?} in {text}");
        }
        // No depth prepass unless asked for (`--prepass on`).
        assert!(passes.get("depth_normal").is_none(), "{text}");
    } else {
        eprintln!("this device writes no timestamps: gpu_ms_avg is not checked");
    }

    // Instance 0's origin, projected, lands inside the view volume.
    let m = numbers(&v, "view_proj", 16);
    let w = numbers(&v, "instance_world", 12);
    let origin = [w[3], w[7], w[11], 1.0];
    let clip: Vec<f64> = (0..4)
        .map(|row| (0..4).map(|col| m[col * 4 + row] * origin[col]).sum())
        .collect();
    let (x, y, z, cw) = (clip[0], clip[1], clip[2], clip[3]);
    assert!(
        cw > 0.0 && x.abs() <= cw && y.abs() <= cw && (0.0..=cw).contains(&z),
        "instance 0 at {origin:?} projects to clip {clip:?}, outside the view"
    );
    // The world transform is a rotation about +Y (the layout turns characters, no tilt).
    let det = w[0] * (w[5] * w[10] - w[6] * w[9]) - w[1] * (w[4] * w[10] - w[6] * w[8])
        + w[2] * (w[4] * w[9] - w[5] * w[8]);
    assert!(det.abs() > 1e-3, "instance_world is singular: {w:?}");

    // What the GPU drew in the last frame: every instance of the overview, in each skinned
    // pass, at levels that add up; and how they were animated.
    assert!(
        v["drawn"].get("depth_normal").is_none(),
        "no prepass ran: {text}"
    );
    for pass in ["shadow", "forward"] {
        let drawn = &v["drawn"][pass];
        assert_eq!(drawn["instances"], 64, "{pass}: {text}");
        assert!(drawn["triangles"].as_u64().is_some_and(|t| t > 0), "{pass}");
    }
    let levels: u64 = v["lod_levels"]
        .as_array()
        .expect("lod_levels")
        .iter()
        .map(|n| n.as_u64().expect("a count"))
        .sum();
    assert_eq!(levels, 64);
    let a = &v["animation"];
    assert_eq!(
        a["exact"].as_u64().expect("exact") + a["baked"].as_u64().expect("baked"),
        64
    );
    assert_eq!(a["record_bytes_per_frame"], 64 * 80);
    assert_eq!(v["camera"]["mode"], "orbit");
}

#[test]
fn crowd_controls_refuse_nonsense_in_one_line() {
    for (args, what) in [
        (&["run", "--lod-bias", "0"][..], "lod-bias"),
        (&["run", "--bake-fps", "0"], "bake-fps"),
        (&["run", "--bake-memory", "0"], "bake-memory"),
        (&["run", "--lod", "maybe"], "lod"),
        (&["run", "--animation", "fast"], "animation"),
        (&["run", "--camera", "drone"], "camera"),
    ] {
        let out = output(&mut throng(args));
        one_line_error(&out, 2, what);
    }
}

#[test]
fn a_held_pose_renders_the_same_bytes_twice() {
    let dir = scratch("deterministic");
    let mut frames = Vec::new();
    for i in 0..2 {
        let png = dir.join(format!("pose-{i}.png"));
        let args = [
            "run",
            "--headless",
            "--frames",
            "2",
            "--instances",
            "4",
            "--width",
            "256",
            "--height",
            "256",
            "--pose",
            "walk@0.5",
            "--view",
            "silhouette",
            // One sample per pixel: a pixel is a character's or not (checked below).
            "--msaa",
            "1",
            "--screenshot",
            png.to_str().expect("UTF-8 path"),
        ];
        if render(&args).is_none() {
            return;
        }
        frames.push(std::fs::read(&png).unwrap_or_else(|e| panic!("{}: {e}", png.display())));
    }
    assert!(frames[0] == frames[1], "two runs of one held pose differ");
    let image = image::load_from_memory(&frames[0])
        .expect("the screenshot decodes")
        .to_rgba8();
    assert_eq!(image.dimensions(), (256, 256));
    // Silhouette view: only black and white, and some of each.
    let white = image
        .pixels()
        .filter(|p| p.0 == [255, 255, 255, 255])
        .count();
    let black = image.pixels().filter(|p| p.0 == [0, 0, 0, 255]).count();
    assert_eq!(
        white + black,
        256 * 256,
        "silhouettes are pure black and white"
    );
    assert!(
        white > 256 * 256 / 100 && black > 256 * 256 / 2,
        "{white} white, {black} black pixels"
    );
}

#[test]
fn an_unknown_pose_clip_is_an_argument_error() {
    let out = output(&mut throng(&[
        "run",
        "--headless",
        "--frames",
        "1",
        "--instances",
        "1",
        "--pose",
        "nosuchclip@0",
    ]));
    let line = one_line_error(&out, 2, "--pose nosuchclip@0");
    assert!(
        line.contains("nosuchclip"),
        "the error should name the clip: {line}"
    );
}

#[test]
fn an_unknown_device_fails_in_one_line() {
    let out = output(&mut throng(&[
        "run",
        "--headless",
        "--frames",
        "1",
        "--instances",
        "1",
        "--device",
        "nosuchdevice",
    ]));
    // Without any device the program cannot tell which one was meant: that is the
    // no-device case, not this one.
    let stderr = String::from_utf8_lossy(&out.stderr);
    if stderr.contains("no Vulkan device") || stderr.contains("no Vulkan loader") {
        assert!(
            !gpu_common::under_ci(),
            "no Vulkan device under CI: {stderr}"
        );
        eprintln!("skipped: no Vulkan device here ({stderr}); CI=true makes this a failure");
        return;
    }
    let line = one_line_error(&out, 1, "--device nosuchdevice");
    assert!(
        line.contains("nosuchdevice"),
        "the error should name what was asked for: {line}"
    );
}

/// The clip changes of a headless run of `instances` over `frames` (60 a second) with the
/// crowd's state on the CPU (which keeps each instance's time of change; the GPU's copy of
/// the schedule is checked against it in gpu_crowd_state.rs): the `"clip_changes"` object of
/// its statistics.
fn clip_changes(test: &str, instances: &str, frames: &str) -> Option<Value> {
    let json = scratch(test).join("stats.json");
    let json_s = json.to_str().expect("UTF-8 path");
    let args = [
        "run",
        "--headless",
        "--instances",
        instances,
        "--frames",
        frames,
        "--width",
        "64",
        "--height",
        "48",
        "--view",
        "silhouette",
        "--crowd-state",
        "cpu",
        "--stats-json",
        json_s,
    ];
    render(&args)?;
    let text = std::fs::read_to_string(&json).unwrap_or_else(|e| panic!("{}: {e}", json.display()));
    let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert_eq!(v["crowd_state"], "cpu", "{text}");
    Some(v["clip_changes"].clone())
}

#[test]
fn each_character_changes_clip_every_four_seconds_whatever_the_crowd() {
    // A crowd of one: no change in its first ten frames (it once changed every frame).
    let Some(one) = clip_changes("changes_one", "1", "10") else {
        return;
    };
    assert_eq!(one["changes"], 0, "{one}");
    // Sixteen over six seconds: 16 x 6 / 4 = 24 changes, each instance's second one four
    // seconds after its first, and no turn comes while a fade is still under way.
    let Some(many) = clip_changes("changes_sixteen", "16", "360") else {
        return;
    };
    let changes = many["changes"].as_u64().expect("changes");
    assert!((23..=24).contains(&changes), "{many}");
    assert_eq!(many["deferred"], 0, "{many}");
    let shortest = many["shortest_interval_s"]
        .as_f64()
        .expect("some changed twice");
    assert!(
        (shortest - 4.0).abs() <= 1.5 / 60.0,
        "shortest interval {shortest} s: {many}"
    );
}
