//! The `throng` program as a user runs it: outputs, JSON shapes, and one-line errors.

mod common;

use common::cli::{json, throng};

/// Asserts a failure with the given exit code and a single line on stderr containing `needle`.
fn assert_one_line_error(args: &[&str], code: i32, needle: &str) {
    let out = throng(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
    assert_eq!(
        stderr.lines().count(),
        1,
        "{args:?}: not one line: {stderr}"
    );
    assert!(
        stderr.contains(needle),
        "{args:?}: {stderr} should mention {needle}"
    );
}

#[test]
fn info_json_describes_the_builtin_character() {
    for args in [&["info", "--json"][..], &["info", "builtin", "--json"]] {
        let v = json(args);
        assert_eq!(v["format"], "builtin");
        assert_eq!(v["joints"], 22);
        let clips: Vec<(&str, f64)> = v["clips"]
            .as_array()
            .expect("clips")
            .iter()
            .map(|c| {
                (
                    c["name"].as_str().expect("name"),
                    c["duration"].as_f64().expect("duration"),
                )
            })
            .collect();
        assert_eq!(
            clips.iter().map(|c| c.0).collect::<Vec<_>>(),
            ["idle", "walk", "run"]
        );
        assert_eq!(clips[1].1, 1.0);
        assert!(v["triangles"].as_u64().expect("triangles") >= 2000);
        assert!(v["vertices"].as_u64().expect("vertices") > 1000);
        let subsets = v["subsets"].as_array().expect("subsets");
        assert_eq!(subsets.len(), 4);
        assert!(subsets.iter().all(|s| s["material"].is_string()));
        let (min, max) = (&v["bounds"]["min"], &v["bounds"]["max"]);
        assert_eq!(min.as_array().expect("min").len(), 3);
        let height = max[1].as_f64().expect("y") - min[1].as_f64().expect("y");
        assert!((1.7..1.95).contains(&height), "height {height}");
        // Coarser levels, each with fewer triangles and no smaller an error.
        let lods = v["lods"].as_array().expect("lods");
        assert!(lods.len() >= 3, "{lods:?}");
        let triangles = v["triangles"].as_u64().expect("triangles");
        let mut last = (triangles, 0.0);
        for l in lods {
            let (t, e) = (
                l["triangles"].as_u64().expect("triangles"),
                l["error"].as_f64().expect("error"),
            );
            assert!(t < last.0 && e >= last.1, "{lods:?}");
            last = (t, e);
        }
    }
    // --no-lods makes none.
    let v = json(&["info", "--no-lods", "--json"]);
    assert_eq!(v["lods"].as_array().map(Vec::len), Some(0));
}

#[test]
fn info_text_lists_clips_and_subsets() {
    let out = throng(&["info"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for needle in [
        "joints     22",
        "walk",
        "run",
        "idle",
        "skin",
        "shoes",
        "lods       4 coarser levels",
        "bounds",
    ] {
        assert!(text.contains(needle), "missing {needle} in\n{text}");
    }
}

#[test]
fn pose_json_matches_the_library() {
    let v = json(&["pose", "--clip", "walk", "--time", "0.5", "--json"]);
    assert_eq!(v["clip"], "walk");
    assert_eq!(v["time"], 0.5);
    let joints = v["joints"].as_array().expect("joints");
    assert_eq!(joints.len(), 22);
    assert_eq!(joints[0]["name"], "pelvis");
    assert_eq!(joints[0]["parent"], -1);
    assert_eq!(joints[5]["name"], "head");
    assert_eq!(joints[5]["parent"], 4);

    let model = throng::asset::builtin::model().expect("builtin");
    let mut scratch = throng::anim::PoseScratch::new(22);
    let mut palette = vec![throng::anim::Mat3x4::IDENTITY; 22];
    model.evaluate(1, 0.5, &mut scratch, &mut palette);
    for (j, joint) in joints.iter().enumerate() {
        let numbers: Vec<f32> = joint["palette"]
            .as_array()
            .expect("palette")
            .iter()
            .map(|x| x.as_f64().expect("number") as f32)
            .collect();
        assert_eq!(numbers, palette[j].to_array(), "joint {j}");
    }
}

#[test]
fn pose_clamps_time_and_accepts_a_clip_index() {
    let late = json(&["pose", "--clip", "1", "--time", "7.5", "--json"]);
    assert_eq!(late["clip"], "walk");
    assert_eq!(late["time"], 1.0);
    let early = json(&["pose", "builtin", "--clip", "run", "--time", "-2", "--json"]);
    assert_eq!(early["time"], 0.0);
    let end = json(&["pose", "--clip", "walk", "--time", "1", "--json"]);
    assert_eq!(early["joints"].as_array().map(Vec::len), Some(22));
    assert_eq!(late["joints"], end["joints"]);
}

#[test]
fn pose_writes_an_obj_of_the_skinned_mesh() {
    let dir = std::env::temp_dir().join(format!("throng-obj-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("walk.obj");
    let out = throng(&[
        "pose",
        "--clip",
        "walk",
        "--time",
        "0.25",
        "--obj",
        path.to_str().expect("utf8"),
    ]);
    assert!(out.status.success());
    let text = std::fs::read_to_string(&path).expect("obj written");
    let vertices = text.lines().filter(|l| l.starts_with("v ")).count();
    let faces = text.lines().filter(|l| l.starts_with("f ")).count();
    assert!(
        vertices > 1000 && faces >= 2000,
        "{vertices} vertices, {faces} faces"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_input_is_one_line_and_a_non_zero_exit() {
    assert_one_line_error(
        &["pose", "--clip", "dance", "--time", "0"],
        1,
        "no clip named 'dance'",
    );
    assert_one_line_error(
        &["pose", "--clip", "9", "--time", "0"],
        1,
        "clip index 9 is out of range",
    );
    assert_one_line_error(&["pose", "--clip", "walk"], 2, "--time");
    assert_one_line_error(&["pose", "--clip", "walk", "--time", "soon"], 2, "soon");
    assert_one_line_error(&["pose", "--clip", "walk", "--time", "NaN"], 2, "finite");
    assert_one_line_error(&["info", "--frobnicate"], 2, "--frobnicate");
    assert_one_line_error(&["info", "no/such/model.m3d"], 1, "no/such/model.m3d");
    // FBX is native: a missing file is named. Without the `assimp` feature `.dae` is an
    // unknown format; with it, Assimp finds no file.
    assert_one_line_error(&["info", "model.fbx"], 1, "model.fbx: not found");
    let dae = if cfg!(feature = "assimp") {
        "model.dae"
    } else {
        "unknown model format"
    };
    assert_one_line_error(&["info", "model.dae"], 1, dae);
    assert_one_line_error(&["teleport"], 2, "teleport");
    // Props: a file needs its joint, a joint no model has is refused, a share is 0 to 1.
    let run =
        |extra: &[&'static str]| [&["run", "--headless", "--frames", "1"][..], extra].concat();
    assert_one_line_error(&run(&["--attach", "nosuch"]), 2, "needs @JOINT");
    assert_one_line_error(
        &run(&["--attach", "staff@tail"]),
        2,
        "no model has the joint tail",
    );
    assert_one_line_error(&run(&["--attach", "staff@"]), 2, "no joint after '@'");
    assert_one_line_error(&run(&["--attach-share", "1.5"]), 2, "from 0 to 1");
    assert_one_line_error(&run(&["--variety", "maybe"]), 2, "maybe");
}

/// Whether `help` lists `command` in its "Commands:" section (a line starting with it).
fn lists_command(help: &str, command: &str) -> bool {
    help.split("Commands:").nth(1).is_some_and(|section| {
        section
            .lines()
            .any(|l| l.split_whitespace().next() == Some(command))
    })
}

/// Whether `help` documents `flag` in its "Options:" section.
fn lists_flag(help: &str, flag: &str) -> bool {
    help.split("Options:").nth(1).is_some_and(|section| {
        section.lines().any(|l| {
            l.split_whitespace()
                .any(|w| w.trim_end_matches(',') == flag)
        })
    })
}

#[test]
fn help_documents_every_command() {
    let help = |args: &[&str]| {
        let out = throng(args);
        assert!(out.status.success(), "{args:?} fails");
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let top = help(&["--help"]);
    for command in ["info", "pose", "run", "bench"] {
        assert!(
            lists_command(&top, command),
            "--help does not list {command}"
        );
    }
    let bench = help(&["bench", "--help"]);
    for command in ["palette", "sweep", "frame"] {
        assert!(
            lists_command(&bench, command),
            "bench --help does not list {command}"
        );
    }
    // Each subcommand's own help, with flags of its own (at least one each).
    for (command, flags) in [
        (&["info"][..], &["--json"][..]),
        (&["pose"], &["--clip", "--time", "--json", "--obj"]),
        (
            &["run"],
            &[
                "--headless",
                "--cull",
                "--occlusion",
                "--lod",
                "--lod-bias",
                "--animation",
                "--bake-fps",
                "--bake-memory",
                "--camera",
                "--no-lods",
                "--variety",
                "--hud",
                "--attach",
                "--attach-share",
            ],
        ),
        (&["bench", "palette"], &["--method"]),
        (&["bench", "sweep"], &["--repeat"]),
        (
            &["bench", "frame"],
            &[
                "--no-ssao",
                "--lod",
                "--animation",
                "--camera",
                "--warmup",
                "--variety",
                "--attach",
            ],
        ),
    ] {
        let text = help(&[command, &["--help"]].concat());
        let name = command.join(" ");
        assert!(
            text.contains(&format!("Usage: throng {name} ")),
            "{name} --help is not its own:\n{text}"
        );
        for flag in flags {
            assert!(
                lists_flag(&text, flag),
                "{name} --help does not document {flag}"
            );
        }
    }
}

#[test]
fn bench_palette_json_has_the_documented_fields() {
    for method in ["crowd", "textbook"] {
        let v = json(&[
            "bench",
            "palette",
            "--instances",
            "64",
            "--threads",
            "1",
            "--seconds",
            "0.05",
            "--method",
            method,
            "--json",
        ]);
        for key in [
            "joints_per_s",
            "joints_per_s_per_thread",
            "ns_per_joint",
            "gb_per_s",
            // Old names, kept for one release.
            "bones_per_s",
            "bones_per_s_per_thread",
            "ns_per_bone",
        ] {
            assert!(
                v[key].as_f64().is_some_and(|x| x > 0.0 && x.is_finite()),
                "{method}: {key} = {}",
                v[key]
            );
        }
        assert_eq!(v["threads"], 1);
        assert_eq!(v["instances"], 64);
        assert_eq!(v["joints"], 22);
        assert_eq!(v["clip"], "walk");
        assert_eq!(v["method"], method);
    }
}

#[test]
fn bench_sweep_draws_an_svg_plot() {
    let dir = std::env::temp_dir().join(format!("throng-sweep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let svg = dir.join("sweep.svg");
    let v = json(&[
        "bench",
        "sweep",
        "--threads",
        "1,2",
        "--instances",
        "50,200",
        "--seconds",
        "0.02",
        "--repeat",
        "1",
        "--svg",
        svg.to_str().expect("utf8"),
        "--json",
    ]);
    assert_eq!(v.as_array().map(Vec::len), Some(4), "one report per point");
    let text = std::fs::read_to_string(&svg).expect("svg written");
    assert!(text.starts_with("<svg") && text.contains("joints/s against threads"));
    assert_eq!(text.matches("<polyline").count(), 4, "two lines per chart");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn run_renders_a_crowd_and_reports_frame_times() {
    let dir = std::env::temp_dir().join(format!("throng-cli-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let shot = dir.join("crowd.png");
    let out = throng(&[
        "run",
        "--headless",
        "--instances",
        "300",
        "--frames",
        "5",
        "--threads",
        "2",
        "--width",
        "160",
        "--height",
        "90",
        "--screenshot",
        shot.to_str().expect("utf-8 path"),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("rendering 300 instances of builtin on "),
        "{text}"
    );
    assert!(
        text.contains("fps") && text.contains("cpu anim") && text.contains("gpu"),
        "{text}"
    );
    assert!(
        text.contains(&format!("wrote {}", shot.display())),
        "{text}"
    );
    assert!(shot.is_file());
    std::fs::remove_dir_all(&dir).ok();
    assert_one_line_error(&["run", "--instances", "0"], 2, "--instances");
    assert_one_line_error(&["run", "--threads", "9999"], 2, "--threads");
    assert_one_line_error(&["bench", "palette", "--seconds", "0"], 2, "--seconds");
    assert_one_line_error(&["run", "--seconds", "inf"], 2, "--seconds");
}
