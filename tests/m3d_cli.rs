//! `throng info` and `throng pose` on `.m3d` files, as a user runs them.

mod common;
mod m3d_samples;

use std::path::Path;

use common::cli::{json, throng};

fn soldier() -> String {
    common::shared_asset("m3d/soldier.m3d")
        .display()
        .to_string()
}

#[test]
fn info_json_describes_the_soldier() {
    let v = json(&["info", &soldier(), "--json"]);
    assert_eq!(v["format"], "m3d");
    assert_eq!(v["joints"], 58);
    assert_eq!(v["clips"].as_array().expect("clips").len(), 1);
    assert_eq!(v["clips"][0]["name"], "Take1");
    assert_eq!(v["clips"][0]["duration"].as_f64(), Some(1.25));
    assert_eq!(v["vertices"], 13_748);
    assert_eq!(v["triangles"], 22_507);
    let subsets = v["subsets"].as_array().expect("subsets");
    assert_eq!(subsets.len(), 5);
    assert_eq!(subsets[0]["material"], "soldier_head");
    assert_eq!(subsets[0]["vertices"], 3915);
    assert_eq!(subsets[0]["triangles"], 7230);
    let total: u64 = subsets
        .iter()
        .map(|s| s["triangles"].as_u64().expect("n"))
        .sum();
    assert_eq!(total, 22_507);
    let max_y = v["bounds"]["max"][1].as_f64().expect("max y");
    assert!((72.0..73.0).contains(&max_y), "{max_y}");
}

#[test]
fn pose_json_lists_the_58_bones_in_file_order() {
    let v = json(&[
        "pose",
        &soldier(),
        "--clip",
        "Take1",
        "--time",
        "0.5",
        "--json",
    ]);
    assert_eq!(v["clip"], "Take1");
    assert_eq!(v["time"].as_f64(), Some(0.5));
    let joints = v["joints"].as_array().expect("joints");
    assert_eq!(joints.len(), 58);
    for (i, j) in joints.iter().enumerate() {
        assert_eq!(j["name"], format!("bone{i}"));
        assert_eq!(j["palette"].as_array().expect("palette").len(), 12);
    }
    assert_eq!(joints[0]["parent"], -1);
    assert_eq!(joints[1]["parent"], 0);
    assert_eq!(joints[54]["parent"], 2);
    assert!(
        joints
            .iter()
            .skip(1)
            .all(|j| j["parent"].as_i64() >= Some(0))
    );
    // Clip by index, and clamping past the end, agree with the named clip.
    let by_index = json(&["pose", &soldier(), "--clip", "0", "--time", "9", "--json"]);
    let at_end = json(&[
        "pose",
        &soldier(),
        "--clip",
        "Take1",
        "--time",
        "1.25",
        "--json",
    ]);
    assert_eq!(by_index["joints"], at_end["joints"]);
}

#[test]
fn a_corrupt_file_is_one_line_and_exit_code_1() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("m3d_cli");
    std::fs::create_dir_all(&dir).expect("dir");
    let file = dir.join("broken.m3d");
    let text = m3d_samples::edit(
        m3d_samples::SKINNED,
        "ParentIndexOfBone1: 0",
        "ParentIndexOfBone1: 2",
    );
    std::fs::write(&file, text).expect("write");
    let path = file.display().to_string();
    let info = vec!["info", path.as_str()];
    let pose = vec!["pose", path.as_str(), "--clip", "wave", "--time", "0"];
    for args in [info, pose] {
        let out = throng(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.contains("broken.m3d: BoneHierarchy: bone 1 has parent 2"),
            "{stderr}"
        );
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn the_static_rock_has_one_joint_and_no_clips() {
    let rock = common::shared_asset("m3d/rock_static.m3d")
        .display()
        .to_string();
    let v = json(&["info", &rock, "--json"]);
    assert_eq!(v["format"], "m3d");
    assert_eq!(v["joints"], 1);
    assert_eq!(v["clips"].as_array().map(Vec::len), Some(0));
    assert_eq!(
        (v["vertices"].as_u64(), v["triangles"].as_u64()),
        (Some(42), Some(64))
    );
    // No clip to pose: one error line (after the warnings about the .dds textures).
    let out = throng(&["pose", &rock, "--clip", "0", "--time", "0"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let errors: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("throng: error"))
        .collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    assert!(
        errors[0].contains("clip index 0 is out of range"),
        "{stderr}"
    );
    let warnings = stderr
        .lines()
        .filter(|l| l.contains(".dds not found; using the material color"));
    // DDS maps are read now; the rock's two are not among the shared assets.
    assert_eq!(warnings.count(), 2, "{stderr}");
}
