//! Skinning once per frame draws what skinning in the vertex shaders draws: `throng run`
//! with `--skin compute` against `--skin vertex`, same seed and frame, for the overview (no
//! cards) and the street of 1,000 built-in characters, with exact palettes (`--animation exact`), with
//! the depth prepass (whose equal depth test needs the two passes' positions to agree to the
//! bit), with four samples, and with too little room for every list (`--skin-memory`), where
//! the instances past the room are skinned by the vertex shaders in the same frame. The compute
//! run must have run the skin passes and drawn the meshes it skinned, the other neither, and
//! no run may draw a validation message. The skinning arithmetic is the same statement in
//! both places, so the frames must agree to within rounding of a level.

mod common;

use std::path::Path;

use common::frames::{Frame, compare, frame_dir, run_frame};
use serde_json::Value;

/// Both runs of `flags`: skinned in compute, then in the vertex shaders, checked to have
/// skinned where they claim; `None` without a Vulkan device (outside CI).
fn pair(dir: &Path, name: &str, flags: &[&str]) -> Option<[(Frame, Value); 2]> {
    let run = |skin: &str| {
        let flags = [flags, &["--skin", skin]].concat();
        let (frame, stats) = run_frame(dir, &format!("{name}-{skin}"), ["320", "180"], &flags)?;
        assert_eq!(stats["validation_messages"], 0, "{name} {skin}: validation");
        Some((frame, stats))
    };
    let compute = run("compute")?;
    let vertex = run("vertex").expect("run");
    let ran = |stats: &Value, pass: &str| {
        stats["passes"]
            .as_object()
            .is_some_and(|p| p.contains_key(pass))
    };
    assert!(ran(&compute.1, "skin"), "{name}: {}", compute.1);
    assert!(!ran(&vertex.1, "skin") && !ran(&vertex.1, "skin_late"));
    assert_eq!(
        skinned(&vertex.1, "forward") + skinned(&vertex.1, "shadow"),
        0
    );
    assert_eq!(vertex.1["skinned_bytes"], 0);
    Some([compute, vertex])
}

/// Meshes of `pass` the skin pass skinned.
fn skinned(stats: &Value, pass: &str) -> u64 {
    stats["drawn"][pass]["skinned"].as_u64().unwrap_or(0)
}

/// Meshes `pass` drew (instances less cards).
fn meshes(stats: &Value, pass: &str) -> u64 {
    let d = &stats["drawn"][pass];
    d["instances"].as_u64().unwrap_or(0) - d["cards"].as_u64().unwrap_or(0)
}

/// Asserts the two frames agree (every channel of at least 99.9% of pixels equal, none more
/// than 2 levels apart), printing the figures.
fn assert_same(what: &str, [(a, _), (b, _)]: &[(Frame, Value); 2]) {
    let (mean, _) = compare(a, b, |_| true);
    let differ = a.rgb.iter().zip(&b.rgb).filter(|(p, q)| p != q).count();
    let worst = a
        .rgb
        .iter()
        .zip(&b.rgb)
        .flat_map(|(p, q)| (0..3).map(move |c| p[c].abs_diff(q[c])))
        .max()
        .unwrap_or(0);
    eprintln!(
        "{what}: compute against vertex {mean:.4} levels per channel, {differ} pixels differ, \
         by at most {worst}"
    );
    assert!(
        differ * 1000 <= a.rgb.len(),
        "{what}: {differ} pixels differ"
    );
    assert!(worst <= 2, "{what}: a channel differs by {worst}");
}

#[test]
fn skinning_once_draws_what_the_vertex_shaders_draw() {
    let dir = frame_dir("skin", "views");
    let crowd = ["--instances", "1000"];
    let cases: [(&str, &[&str]); 5] = [
        // At this size every character of the overview would be a card.
        ("overview", &["--camera", "overview", "--impostors", "off"]),
        ("street", &["--camera", "street"]),
        (
            "street-exact",
            &["--camera", "street", "--animation", "exact"],
        ),
        ("street-prepass", &["--camera", "street", "--prepass", "on"]),
        ("street-msaa", &["--camera", "street", "--msaa", "4"]),
    ];
    for (name, flags) in cases {
        let flags = [&crowd[..], flags].concat();
        let Some(frames) = pair(&dir, name, &flags) else {
            return;
        };
        let stats = &frames[0].1;
        // With room for every list, every mesh drawn was skinned once.
        for pass in ["forward", "shadow"] {
            assert!(meshes(stats, pass) > 0, "{name}: no mesh in {pass}");
            assert_eq!(skinned(stats, pass), meshes(stats, pass), "{name} {pass}");
        }
        assert!(stats["skinned_bytes"].as_u64().unwrap_or(0) > 0);
        assert_same(name, &frames);
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// With room for part of the crowd only, the room is filled (a list larger than what is left
/// takes as many of its first instances as fit: given to whole lists only, 8 MB held 3.6 MB
/// of them here), the rest are skinned in the vertex shaders in the same frame, and the
/// picture is the same.
#[test]
fn lists_without_room_are_skinned_in_the_vertex_shaders() {
    let dir = frame_dir("skin", "room");
    let flags = [
        "--instances",
        "4000",
        "--camera",
        "street",
        "--skin-memory",
        "8",
    ];
    let Some(frames) = pair(&dir, "street-8mb", &flags) else {
        return;
    };
    let stats = &frames[0].1;
    let (done, drawn) = (skinned(stats, "forward"), meshes(stats, "forward"));
    eprintln!("8 MB: {done} of {drawn} camera meshes skinned once");
    assert!(done > 0 && done < drawn, "{done} of {drawn}");
    let bytes = stats["skinned_bytes"].as_u64().unwrap_or(0);
    // Within one instance of the built-in character (a few hundred kilobytes at most) of full.
    assert!(bytes > 7 << 20 && bytes <= 8 << 20, "{bytes} bytes");
    assert_same("street, 8 MB", &frames);
    std::fs::remove_dir_all(&dir).ok();
}
