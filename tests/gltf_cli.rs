//! The `throng` program on glTF models: `info --json` and `pose --json` as a user runs them,
//! and one-line errors for damaged files.

mod common;
mod gltf_common;

use common::cli::{json, throng};
use common::shared_asset;
use gltf_common::fixture::Fixture;
use throng::anim::{Mat3x4, PoseScratch};

fn asset(name: &str) -> String {
    shared_asset(&format!("gltf/{name}")).display().to_string()
}

#[test]
fn info_json_describes_cesium_man() {
    let v = json(&["info", &asset("CesiumMan.glb"), "--json"]);
    assert_eq!(v["format"], "glb");
    assert_eq!(v["joints"], 19);
    assert_eq!(v["clips"].as_array().expect("clips").len(), 1);
    assert_eq!(v["clips"][0]["name"], "clip0");
    assert_eq!(v["clips"][0]["duration"].as_f64(), Some(2.0));
    assert_eq!(v["vertices"], 3273);
    assert_eq!(v["triangles"], 4672);
    assert_eq!(v["subsets"][0]["material"], "Cesium_Man-effect");
    assert_eq!(v["subsets"][0]["vertices"], 3273);
    assert_eq!(v["subsets"][0]["alpha_clip"], false);
    // CesiumMan stands along +Z in its bind space, about 1.5 units tall.
    let height =
        v["bounds"]["max"][2].as_f64().expect("z") - v["bounds"]["min"][2].as_f64().expect("z");
    assert!((1.4..1.6).contains(&height), "height {height}");
}

#[test]
fn info_json_lists_the_robots_fourteen_clips_by_name() {
    let v = json(&["info", &asset("robot.glb"), "--json"]);
    assert_eq!(v["format"], "glb");
    assert_eq!(v["joints"], 43);
    let clips: Vec<&str> = v["clips"]
        .as_array()
        .expect("clips")
        .iter()
        .map(|c| c["name"].as_str().expect("name"))
        .collect();
    assert_eq!(clips.len(), 14);
    for name in [
        "Robot_Dance",
        "Robot_Idle",
        "Robot_Walking",
        "Robot_WalkJump",
        "Robot_Yes",
    ] {
        assert!(clips.contains(&name), "{name} in {clips:?}");
    }
    // The file has 7,218 vertices; four are identical to others in every attribute and are
    // merged at load.
    assert_eq!(v["vertex_reuse"]["vertices_as_read"], 7218);
    assert_eq!(v["vertices"], 7214);
    assert_eq!(v["triangles"], 3238);
    assert_eq!(v["subsets"].as_array().expect("subsets").len(), 19);
    let dance = &v["clips"][0];
    assert!((dance["duration"].as_f64().expect("duration") - 10.0 / 3.0).abs() < 1e-5);
}

#[test]
fn pose_json_lists_rigged_figure_joints_in_the_files_order() {
    let v = json(&[
        "pose",
        &asset("RiggedFigure.glb"),
        "--clip",
        "0",
        "--time",
        "0.5",
        "--json",
    ]);
    assert_eq!(v["clip"], "clip0");
    assert_eq!(v["time"].as_f64(), Some(0.5));
    let joints = v["joints"].as_array().expect("joints");
    assert_eq!(joints.len(), 19);
    let names: Vec<&str> = joints
        .iter()
        .map(|j| j["name"].as_str().expect("name"))
        .collect();
    // The skin's own order.
    assert_eq!(
        names[..5],
        [
            "torso_joint_1",
            "torso_joint_2",
            "torso_joint_3",
            "neck_joint_1",
            "neck_joint_2"
        ]
    );
    assert_eq!(names[18], "leg_joint_R_5");
    let parent = |name: &str| {
        let j = &joints[names.iter().position(|n| *n == name).expect("listed")];
        j["parent"].as_i64().expect("parent")
    };
    assert_eq!(parent("torso_joint_1"), -1);
    assert_eq!(names[parent("neck_joint_2") as usize], "neck_joint_1");
    assert_eq!(names[parent("arm_joint_L_1") as usize], "torso_joint_3");
    assert_eq!(names[parent("leg_joint_R_1") as usize], "torso_joint_1");
    // The palettes are the library's, in the same order.
    let model = throng::asset::load_file(&shared_asset("gltf/RiggedFigure.glb")).expect("loads");
    let mut scratch = PoseScratch::new(19);
    let mut palette = vec![Mat3x4::IDENTITY; 19];
    model.evaluate(0, 0.5, &mut scratch, &mut palette);
    let from_source = model.skeleton().index_from_source();
    for (k, joint) in joints.iter().enumerate() {
        let printed: Vec<f32> = joint["palette"]
            .as_array()
            .expect("palette")
            .iter()
            .map(|x| x.as_f64().expect("number") as f32)
            .collect();
        let want = palette[from_source[k]].to_array();
        for (a, b) in printed.iter().zip(want) {
            assert!(
                (a - b).abs() <= 1e-6 * b.abs().max(1.0),
                "{}: {a} vs {b}",
                names[k]
            );
        }
    }
}

/// A material with `alphaMode: MASK` is an alpha-clipped subset in both forms of `info`.
#[test]
fn info_says_which_subsets_clip_by_alpha() {
    let dir = std::env::temp_dir().join(format!("throng-gltf-cli-mask-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("mask.glb");
    let mut fx = Fixture::strip([0, 1, 2]);
    fx.json["materials"][0]["alphaMode"] = "MASK".into();
    std::fs::write(&path, fx.glb()).expect("write");
    let path = path.display().to_string();
    let v = json(&["info", &path, "--json"]);
    assert_eq!(v["subsets"][0]["alpha_clip"], true, "{v}");
    let text = throng(&["info", &path]);
    let text = String::from_utf8_lossy(&text.stdout);
    let line = text
        .lines()
        .find(|l| l.contains("triangles") && l.trim_start().starts_with('0'))
        .unwrap_or_else(|| panic!("no subset line in {text}"));
    assert!(line.ends_with("alpha clip"), "{line}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn pose_json_of_a_skin_listed_child_first_keeps_that_order() {
    let dir = std::env::temp_dir().join(format!("throng-gltf-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("childfirst.gltf");
    std::fs::write(&path, Fixture::strip([2, 1, 0]).gltf()).expect("write");
    let path = path.display().to_string();
    let v = json(&["pose", &path, "--clip", "bend", "--time", "0.5", "--json"]);
    let joints = v["joints"].as_array().expect("joints");
    let listed: Vec<(&str, i64)> = joints
        .iter()
        .map(|j| {
            (
                j["name"].as_str().expect("name"),
                j["parent"].as_i64().expect("parent"),
            )
        })
        .collect();
    assert_eq!(listed, [("tip", 1), ("mid", 2), ("root", -1)]);
    let info = json(&["info", &path, "--json"]);
    assert_eq!(
        (info["format"].as_str(), info["joints"].as_u64()),
        (Some("gltf"), Some(3))
    );

    // A damaged file: one line on stderr naming file and object, exit code 1.
    let mut fx = Fixture::strip([0, 1, 2]);
    fx.json["meshes"][0]["primitives"][0]["mode"] = serde_json::json!(0);
    let bad = dir.join("points.glb");
    std::fs::write(&bad, fx.glb()).expect("write");
    let out = throng(&["info", &bad.display().to_string()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("points.glb") && stderr.contains("meshes[0].primitives[0]"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
