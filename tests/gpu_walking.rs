//! Walkers walk: with `--layout lanes` (the default) a character playing a walk moves along
//! +Z between frames, at about its clip's measured speed; with `--layout grid` it treads in
//! place. CesiumMan has one clip, a walk, so every instance walks all the time. A clip with
//! root motion (a generated glTF whose armature slides forward) is said to walk by it and
//! moves its walkers at the root's speed.
//!
//! Without a Vulkan device this prints why and skips, except under `CI=true`, where it fails.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

mod common;
mod gltf_common;

fn scratch() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("gpu_walking")
        .join(std::process::id().to_string());
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// Instance 0's world transform (3x4, rows) after `frames` headless frames of CesiumMan;
/// `None` without a device.
fn world(dir: &Path, layout: &str, frames: u32) -> Option<Vec<f64>> {
    run(
        dir,
        &common::shared_asset("gltf/CesiumMan.glb"),
        layout,
        frames,
    )
    .map(|(w, _)| w)
}

/// Instance 0's world transform after `frames` headless frames of a crowd of `model`, and
/// what the run printed; `None` without a device.
fn run(dir: &Path, model: &Path, layout: &str, frames: u32) -> Option<(Vec<f64>, String)> {
    let stem = model.file_stem().expect("a file").to_string_lossy();
    let stats = dir.join(format!("{stem}-{layout}-{frames}.json"));
    let out = Command::new(env!("CARGO_BIN_EXE_throng"))
        .args([
            "run",
            model.to_str().expect("UTF-8 path"),
            "--headless",
            "--instances",
            "9",
            "--seed",
            "2",
            "--width",
            "96",
            "--height",
            "64",
            "--layout",
            layout,
            "--frames",
            &frames.to_string(),
            "--stats-json",
            stats.to_str().expect("UTF-8 path"),
        ])
        .env_remove("RUST_LOG")
        .output()
        .expect("the throng binary runs");
    if common::cli::no_vulkan_device(&out) {
        return None;
    }
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value =
        serde_json::from_str(&std::fs::read_to_string(&stats).expect("stats")).expect("JSON");
    assert_eq!(doc["validation_messages"], 0);
    let world = doc["instance_world"]
        .as_array()
        .expect("instance_world")
        .iter()
        .map(|x| x.as_f64().expect("number"))
        .collect();
    Some((world, String::from_utf8_lossy(&out.stdout).into_owned()))
}

/// Instance 0's world translation after `frames` headless frames.
fn position(dir: &Path, layout: &str, frames: u32) -> Option<[f64; 3]> {
    world(dir, layout, frames).map(|w| [w[3], w[7], w[11]])
}

#[test]
fn walkers_move_along_their_lanes_and_grids_stay() {
    let dir = scratch();
    let Some(start) = position(&dir, "lanes", 1) else {
        return;
    };
    let Some(later) = position(&dir, "lanes", 31) else {
        return;
    };
    // Half a second at 1/60 s a frame: CesiumMan's walk (0.89 units a second, measured from
    // its feet, times a playback speed of 0.8 to 1.2) carries it 0.36 to 0.54 forward,
    // straight along +Z.
    let moved = later[2] - start[2];
    assert!(
        (0.3..0.6).contains(&moved),
        "moved {moved}: {start:?} to {later:?}"
    );
    assert_eq!(later[0], start[0], "lanes run straight");
    assert_eq!(later[1], start[1], "feet stay on the ground");
    let Some(grid_start) = position(&dir, "grid", 1) else {
        return;
    };
    let Some(grid_later) = position(&dir, "grid", 31) else {
        return;
    };
    assert_eq!(grid_start, grid_later, "a grid treads in place");
}

#[test]
fn ring_walkers_keep_their_distance_from_the_centre_and_face_their_way() {
    let dir = scratch();
    let Some(start) = world(&dir, "rings", 1) else {
        return;
    };
    let Some(later) = world(&dir, "rings", 31) else {
        return;
    };
    let radius = |w: &[f64]| w[3].hypot(w[11]);
    assert!(radius(&start) > 1.0, "instance 0 walks a ring: {start:?}");
    assert!(
        (radius(&later) - radius(&start)).abs() < 1e-3,
        "off its ring: {start:?} to {later:?}"
    );
    // Half a second of walk along the ring: 0.36 to 0.54 of arc.
    let chord = (later[3] - start[3]).hypot(later[11] - start[11]);
    assert!((0.3..0.6).contains(&chord), "moved {chord}");
    // Facing along the circle: its forward (+Z of its frame, the third column) is square to
    // the way out from the centre.
    let (fx, fz) = (later[2], later[10]);
    let along = (fx * later[3] + fz * later[11]) / (fx.hypot(fz) * radius(&later));
    assert!(along.abs() < 0.05, "facing {fx} {fz} at {later:?}");
}

/// The test strip's armature slides this far forward (+Z) over the one second of its clip.
const SLIDE: f32 = 3.0;

/// The glTF test strip with one clip, `slide`: its armature (above the skin's joints) goes
/// [`SLIDE`] along +Z in a second, bobbing up and down on the way.
fn slider(dir: &Path) -> PathBuf {
    let mut fx = gltf_common::fixture::Fixture::strip([0, 1, 2]);
    let (_, _, at) = gltf_common::fixture::armature().to_scale_rotation_translation();
    let times = fx.add_floats(&[0.0, 0.5, 1.0], "SCALAR");
    let keys = [
        at,
        at + glam::Vec3::new(0.0, 0.1, 0.5 * SLIDE),
        at + glam::Vec3::Z * SLIDE,
    ];
    let moves = fx.add_floats(&keys.map(|k| k.to_array()).concat(), "VEC3");
    fx.json["animations"] = serde_json::json!([{
        "name": "slide",
        "samplers": [{"input": times, "output": moves}],
        "channels": [{"sampler": 0, "target": {"node": 1, "path": "translation"}}],
    }]);
    let path = dir.join("slider.glb");
    std::fs::write(&path, fx.glb()).expect("the fixture is written");
    path
}

#[test]
fn root_motion_walks_at_the_roots_speed() {
    let dir = scratch();
    let model = slider(&dir);
    let Some((start, said)) = run(&dir, &model, "lanes", 1) else {
        return;
    };
    assert!(
        said.contains("slider: slide (3.00 units/s) walks by root motion"),
        "{said}"
    );
    let Some((later, _)) = run(&dir, &model, "lanes", 11) else {
        return;
    };
    // A sixth of a second at 3 units a second, times a playback speed of 0.8 to 1.2: 0.4 to
    // 0.6 along the lane (the foot measure would say 0: the strip has no feet).
    let moved = later[11] - start[11];
    assert!((0.35..0.65).contains(&moved), "moved {moved}");
    assert_eq!(later[3], start[3], "lanes run straight");
}
