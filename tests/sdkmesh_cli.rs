//! `info`, `pose` and `bench` on the SDKMESH soldier, and `--anim`, from the command line.

mod common;

use common::cli::{json, throng};

fn soldier() -> String {
    common::shared_asset("dxsdk/soldier.sdkmesh")
        .display()
        .to_string()
}

fn anim() -> String {
    common::shared_asset("dxsdk/soldier.sdkmesh_anim")
        .display()
        .to_string()
}

#[test]
fn info_json_describes_the_soldier_and_its_clip() {
    let v = json(&["info", &soldier(), "--json"]);
    assert_eq!(v["format"], "sdkmesh");
    assert_eq!(v["joints"], 162);
    assert_eq!(v["clips"][0]["name"], "soldier");
    assert_eq!(v["subsets"].as_array().map(Vec::len), Some(5));
}

#[test]
fn pose_lists_every_frame_verbatim_in_file_order() {
    let v = json(&[
        "pose",
        &soldier(),
        "--clip",
        "soldier",
        "--time",
        "0.4",
        "--anim",
        &anim(),
        "--json",
    ]);
    let joints = v["joints"].as_array().expect("joints");
    assert_eq!(joints.len(), 162);
    assert_eq!(joints[0]["name"], "");
    assert_eq!(joints[0]["parent"], -1);
    assert_eq!(joints[47]["name"], "Root");
    assert_eq!(joints[48]["parent"], 47);
    let heads = joints.iter().filter(|j| j["name"] == "Head").count();
    assert_eq!(heads, 2);
}

#[test]
fn a_bad_animation_file_is_one_line_and_exit_code_1() {
    // The model itself is not an animation file: its header has no frame rate.
    let out = throng(&["info", &soldier(), "--anim", &soldier()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let errors: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("throng: error"))
        .collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    assert!(errors[0].contains("animation header"), "{stderr}");
    // --anim means nothing for other formats.
    let out = throng(&["info", "builtin", "--anim", &anim()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("applies only to .sdkmesh models"),
        "{stderr}"
    );
}

#[test]
fn bench_palette_runs_the_soldier() {
    let v = json(&[
        "bench",
        "palette",
        &soldier(),
        "--instances",
        "20",
        "--threads",
        "1",
        "--seconds",
        "0.2",
        "--json",
    ]);
    assert_eq!(v["joints"], 162);
    assert!(v["joints_per_s"].as_f64().is_some_and(|x| x > 0.0), "{v}");
}
