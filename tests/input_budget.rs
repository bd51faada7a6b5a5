//! Amplification: a small file must not buy a large allocation or a long run (issue 11).
//!
//! Each case generates its input here (the large ones are never committed), loads it through
//! the library under a counting global allocator, and checks the result (the one error line,
//! or a model), and that the peak heap of the load stayed within the load's budget
//! (`asset::budget`: 64 MiB + 32 x the input, at most 4 GiB, or `max_memory`). The command-line cases
//! check the exit code and the single line on stderr.

use std::fmt::Write as _;
use std::path::PathBuf;

#[path = "common/counting_alloc.rs"]
mod counting_alloc;
mod fbx_samples;

use counting_alloc::{peak_of, serial};
use throng::asset::budget::{ALLOWANCE, DEFAULT_MAX_MEMORY, PER_INPUT_BYTE};
use throng::asset::{ErrorKind, LoadError, LoadOptions, fbx, gltf, m3d};

#[global_allocator]
static ALLOCATOR: counting_alloc::Counting = counting_alloc::Counting;

/// The budget README states for an input of `bytes` under the default cap.
fn budget_for(bytes: usize) -> usize {
    let limit = ALLOWANCE + PER_INPUT_BYTE * bytes as u64;
    limit.min(DEFAULT_MAX_MEMORY) as usize
}

/// A glTF file of `nodes` (JSON objects, comma-separated), one skin over `joints` and
/// `animations` (comma-separated).
fn gltf_text(nodes: &str, joints: &str, animations: &str) -> String {
    format!(
        r#"{{"asset":{{"version":"2.0"}},"nodes":[{nodes}],"skins":[{{"joints":[{joints}]}}],"animations":[{animations}]}}"#
    )
}

/// `count` copies of `item`, comma-separated.
fn repeat(item: &str, count: usize) -> String {
    let mut s = String::with_capacity((item.len() + 1) * count);
    for i in 0..count {
        if i > 0 {
            s.push(',');
        }
        s.push_str(item);
    }
    s
}

/// `0,1,...,count-1`.
fn indices(count: usize) -> String {
    let mut s = String::new();
    for i in 0..count {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(s, "{i}");
    }
    s
}

/// `joints` root joints and `clips` animations with no channels.
fn empty_animations(joints: usize, clips: usize) -> String {
    gltf_text(
        &repeat("{}", joints),
        &indices(joints),
        &repeat(r#"{"channels":[],"samplers":[]}"#, clips),
    )
}

/// Parses `text` as `name` and measures it.
fn load_gltf(name: &str, text: &str) -> (Result<(), LoadError>, usize) {
    peak_of(|| gltf::parse(name, text.as_bytes(), None).map(|_| ()))
}

fn assert_refused(name: &str, result: Result<(), LoadError>, says: &[&str]) -> String {
    let err = result.expect_err("refused");
    let line = err.to_string();
    assert_eq!(err.kind, ErrorKind::TooLarge, "{line}");
    assert!(line.starts_with(&format!("{name}: ")), "{line}");
    assert!(!line.contains('\n'), "{line}");
    for s in says {
        assert!(line.contains(s), "{line} should say {s}");
    }
    line
}

#[test]
fn thousands_of_empty_animations_over_thousands_of_joints_are_refused_up_front() {
    let _serial = serial();
    for (joints, clips) in [(5000, 5000), (3000, 3000)] {
        let text = empty_animations(joints, clips);
        let (result, peak) = load_gltf("empty.gltf", &text);
        let line = assert_refused(
            "empty.gltf",
            result,
            &[
                "animations: ",
                &format!("{clips} clips x {joints} joints of tracks need"),
                "over the load budget of",
            ],
        );
        // Refused before any clip was built: far below the budget, let alone gigabytes.
        assert!(
            peak < budget_for(text.len()) / 4,
            "{joints} x {clips} ({} bytes) peaked at {peak} bytes: {line}",
            text.len()
        );
    }
}

#[test]
fn many_empty_animations_within_the_budget_load_within_it() {
    let _serial = serial();
    // 200 joints x 400 clips: each clip still holds a track per joint.
    let text = empty_animations(200, 400);
    let (result, peak) = load_gltf("fits.gltf", &text);
    match result {
        Ok(()) => {}
        // No mesh: the model itself may be refused for that, but never for its size.
        Err(e) => assert_ne!(e.kind, ErrorKind::TooLarge, "{e}"),
    }
    assert!(peak <= budget_for(text.len()), "peak {peak}");
}

#[test]
fn millions_of_empty_nodes_are_weighed_before_the_document_is_built() {
    let _serial = serial();
    let count = 2_500_000;
    let text = gltf_text(&repeat("{}", count), "0", "");
    assert!(text.len() < 8_000_000);
    let (result, peak) = load_gltf("nodes.gltf", &text);
    assert_refused(
        "nodes.gltf",
        result,
        &[
            "json: the document's 2500000 nodes",
            "need",
            "over the load budget",
        ],
    );
    // Weighing builds nothing: the peak is a few kilobytes, not a gigabyte.
    assert!(peak < 1 << 20, "peak {peak}");
}

/// `depth` nodes in a chain (node `i + 1` a child of node `i`); `joint` says which are joints.
fn chain(depth: usize, joint: impl Fn(usize) -> bool) -> String {
    let mut nodes = String::with_capacity(depth * 20);
    for i in 0..depth {
        if i > 0 {
            nodes.push(',');
        }
        if i + 1 < depth {
            let _ = write!(nodes, r#"{{"children":[{}]}}"#, i + 1);
        } else {
            nodes.push_str("{}");
        }
    }
    let joints: Vec<String> = (0..depth)
        .filter(|&i| joint(i))
        .map(|i| i.to_string())
        .collect();
    gltf_text(&nodes, &joints.join(","), "")
}

#[test]
fn a_chain_of_100000_non_joint_nodes_above_joints_loads_within_the_budget() {
    let _serial = serial();
    // Joints at the bottom of the chain: each one's parent joint is found once, not by a
    // walk up the whole chain per joint.
    let depth = 100_000;
    let text = chain(depth, |i| i + 3 >= depth);
    let (result, peak) = load_gltf("deep.gltf", &text);
    if let Err(e) = result {
        // A file without a mesh may be refused for that, but not for its depth.
        assert!(
            !matches!(e.kind, ErrorKind::TooLarge | ErrorKind::ParentOrder),
            "{e}"
        );
    }
    assert!(peak <= budget_for(text.len()), "peak {peak}");
}

#[test]
fn a_chain_of_100000_joints_is_refused_before_the_skeleton_is_built() {
    let _serial = serial();
    let depth = 100_000;
    let text = chain(depth, |_| true);
    let (result, peak) = load_gltf("joints.gltf", &text);
    assert_refused(
        "joints.gltf",
        result,
        &["skins[0]: ", "100000 joints, more than the 65535 supported"],
    );
    assert!(peak <= budget_for(text.len()), "peak {peak}");
}

#[test]
fn max_memory_sets_the_budget_for_every_format() {
    let _serial = serial();
    let small = LoadOptions {
        max_memory: Some(100_000),
        ..LoadOptions::default()
    };
    let text = empty_animations(50, 20);
    let err = gltf::parse_with_options("capped.gltf", text.as_bytes(), None, &small)
        .expect_err("over the cap");
    assert_eq!(err.kind, ErrorKind::TooLarge);
    assert!(err.to_string().contains("--max-memory"), "{err}");

    let soldier = shared_asset("m3d/soldier.m3d");
    let bytes = std::fs::read(&soldier).expect("the shared soldier");
    let err = m3d::parse_with_options("soldier.m3d", &bytes, None, &small).expect_err("capped");
    assert_eq!(err.kind, ErrorKind::TooLarge);
    assert!(
        err.to_string()
            .starts_with("soldier.m3d: m3d-File-Header: "),
        "{err}"
    );
    assert!(err.to_string().contains("--max-memory"), "{err}");
    // Like every .m3d error, it says where: the header's last count.
    assert!(err.to_string().ends_with("(line 6)"), "{err}");

    // SDKMESH and `.x` charge the same budget: the soldier's 57 frames fit in 100 KB, its
    // decoded vertices do not; tiny.x's skeleton fits, its clip's tracks do not.
    let soldier = shared_asset("dxsdk/soldier.sdkmesh");
    let err = throng::asset::sdkmesh::load_with(&soldier, &small).expect_err("capped");
    assert_eq!(err.kind, ErrorKind::TooLarge, "{err}");
    let line = err.to_string();
    assert!(line.contains(": meshes: mesh 0 ("), "{line}");
    assert!(line.contains("decoded vertices need"), "{line}");
    assert!(
        line.contains("over the load budget of 100.0 KB (--max-memory"),
        "{line}"
    );
    let tiny = shared_asset("dxsdk/tiny.x");
    let err = throng::asset::x::load_with(&tiny, &small).expect_err("capped");
    assert_eq!(err.kind, ErrorKind::TooLarge, "{err}");
    assert!(
        err.to_string()
            .contains(": AnimationSet: 1 animation sets x 37 joints of tracks need"),
        "{err}"
    );
    // And both load under their own budgets (the file's size decides), textures included.
    let model = throng::asset::sdkmesh::load(&soldier).expect("soldier");
    assert!(model.joint_count() > 0);
    let model = throng::asset::x::load(&tiny).expect("tiny");
    assert_eq!(model.mesh().textures.len(), 1, "Tiny_skin.dds fits");
}

/// Assimp allocates inside C++; its import runs first in a child whose address space may
/// grow by the load's budget and no more, so a small budget refuses a file that makes Assimp
/// allocate much more with one line, instead of letting Assimp take what it wants.
#[cfg(feature = "assimp")]
#[test]
fn assimp_imports_within_the_budget() {
    let _serial = serial();
    let dir = std::env::temp_dir().join(format!("throng-assimp-budget-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch folder");
    // 600,000 vertices and triangles in 20 MB of OBJ text: Assimp holds every face as an
    // object of its own, well over 100 MB.
    let mut obj = String::new();
    for i in 0..600_000 {
        writeln!(obj, "v {i} 0 1").expect("text");
    }
    for i in 0..600_000 - 2 {
        writeln!(obj, "f {} {} {}", i + 1, i + 2, i + 3).expect("text");
    }
    let file = dir.join("many.obj");
    std::fs::write(&file, &obj).expect("write");
    let small = LoadOptions {
        max_memory: Some(10_000_000),
        ..LoadOptions::default()
    };
    let err = throng::asset::assimp::load_with(&file, &small).expect_err("over 10 MB");
    assert_eq!(err.kind, ErrorKind::TooLarge, "{err}");
    assert!(
        err.to_string().ends_with(
            "assimp: Assimp's import of this file needs more than the load budget of 10.0 MB \
             (--max-memory)"
        ),
        "{err}"
    );
    // A real model imports under its own budget.
    let fbx = shared_asset("assimp/huesitos.fbx");
    let model = throng::asset::assimp::load_with(&fbx, &LoadOptions::default()).expect("fits");
    assert_eq!(model.joint_count(), 10);
    let _ = std::fs::remove_dir_all(&dir);
}

fn shared_asset(relative: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/assets")
        .join(relative)
}

#[test]
fn real_models_load_within_their_budget() {
    let _serial = serial();
    for name in [
        "gltf/CesiumMan.glb",
        "gltf/robot.glb",
        "m3d/soldier.m3d",
        "assimp/huesitos.fbx",
    ] {
        let path = shared_asset(name);
        let bytes = std::fs::read(&path).expect("shared asset");
        let (result, peak) = peak_of(|| throng::asset::load_file(&path).map(|_| ()));
        result.unwrap_or_else(|e| panic!("{name}: {e}"));
        eprintln!(
            "{name}: {} bytes, peak heap {peak} bytes, budget {}",
            bytes.len(),
            budget_for(bytes.len())
        );
        // The file itself is read inside the measurement.
        assert!(
            peak <= bytes.len() + budget_for(bytes.len()),
            "{name}: peak {peak}"
        );
    }
}

#[test]
fn the_command_line_says_one_line_and_exits_1() {
    let _serial = serial();
    let dir = std::env::temp_dir().join(format!("throng-budget-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch folder");
    let file = dir.join("amplify.gltf");
    std::fs::write(&file, empty_animations(5000, 5000)).expect("write");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_throng"))
        .arg("info")
        .arg(&file)
        .output()
        .expect("throng runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(
        lines[0].contains("5000 clips x 5000 joints of tracks need"),
        "{stderr}"
    );

    // --max-memory sets the budget, here below what a file that fits its own one needs.
    let file = dir.join("small.gltf");
    std::fs::write(&file, empty_animations(50, 20)).expect("write");
    for command in ["info", "pose"] {
        let mut args = vec![command.to_string(), file.display().to_string()];
        if command == "pose" {
            args.extend(["--clip", "0", "--time", "0"].map(String::from));
        }
        args.extend(["--max-memory", "100000"].map(String::from));
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_throng"))
            .args(&args)
            .output()
            .expect("throng runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{command}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{command}: {stderr}");
        assert!(
            stderr.contains("over the load budget of 100.0 KB (--max-memory"),
            "{command}: {stderr}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_file_named_by_ten_thousand_buffers_is_read_once() {
    let _serial = serial();
    let dir = std::env::temp_dir().join(format!("throng-shared-buffer-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch folder");
    let size = 1_000_000;
    std::fs::write(dir.join("big.bin"), vec![0u8; size]).expect("write");
    let buffers = repeat(&format!(r#"{{"byteLength":{size},"uri":"big.bin"}}"#), 5000)
        + ","
        + &repeat(
            &format!(r#"{{"byteLength":{size},"uri":"./big.bin"}}"#),
            5000,
        );
    let text = format!(
        r#"{{"asset":{{"version":"2.0"}},"buffers":[{buffers}],"nodes":[{{}}],"skins":[{{"joints":[0]}}]}}"#
    );
    let file = dir.join("shared.gltf");
    std::fs::write(&file, &text).expect("write");
    let (result, peak) = peak_of(|| gltf::load(&file).map(|_| ()));
    if let Err(e) = result {
        assert_ne!(e.kind, ErrorKind::TooLarge, "{e}");
    }
    // Ten thousand copies would be 10 GB; one is a megabyte.
    assert!(peak <= budget_for(text.len() + size), "peak {peak}");
    assert!(peak < 4 * size + 8 * text.len(), "peak {peak}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// ufbx allocates inside C, through hooks that draw on the load's budget: a file whose
/// reading needs more than the budget is refused when ufbx asks for the memory, before it
/// has it, and nothing it holds ever passes the budget.
#[test]
fn ufbx_reads_within_the_budget() {
    let _serial = serial();
    let huesitos = std::fs::read(shared_asset("assimp/huesitos.fbx")).expect("huesitos");
    let small = LoadOptions {
        max_memory: Some(100_000),
        ..LoadOptions::default()
    };
    let (result, peak) =
        peak_of(|| fbx::parse_with_options("huesitos.fbx", &huesitos, None, &small).map(|_| ()));
    let err = result.expect_err("over 100 KB");
    assert_eq!(err.kind, ErrorKind::TooLarge, "{err}");
    assert_eq!(
        err.to_string(),
        "huesitos.fbx: ufbx: reading this file needs more than the load budget of \
         100.0 KB (--max-memory)"
    );
    assert!(peak <= 100_000, "peak {peak}");

    // A binary array that claims 100 million doubles (800 MB) in a 202-byte file: ufbx sizes
    // the array from its header and asks for the memory before reading it, and is told no.
    let bytes = fbx_samples::binary_claiming_vertices(100_000_000);
    let (result, peak) = peak_of(|| fbx::parse("claims.fbx", &bytes, None).map(|_| ()));
    let line = assert_refused(
        "claims.fbx",
        result,
        &["ufbx: reading this file needs more than the load budget of 67.1 MB"],
    );
    assert!(line.ends_with("(64 MiB + 32 x the 202 B input)"), "{line}");
    assert!(peak <= bytes.len() + budget_for(bytes.len()), "peak {peak}");
    // The same array claiming what the budget allows is read and found short.
    let bytes = fbx_samples::binary_claiming_vertices(1000);
    let err = fbx::parse("short.fbx", &bytes, None).expect_err("truncated");
    assert_ne!(err.kind, ErrorKind::TooLarge, "{err}");

    // A stack of a day: sampled at 30 per second, its keys would take gigabytes; refused
    // before the first sample.
    let mut scene = fbx_samples::standard();
    scene.stacks[0].stop = 86_400.0;
    let text = scene.write();
    let (result, peak) = peak_of(|| fbx::parse("long.fbx", text.as_bytes(), None).map(|_| ()));
    let line = assert_refused(
        "long.fbx",
        result.map(|_| ()),
        &["animation stacks: 1 animation stacks of 2592001 samples in all x 2 joints of keys need"],
    );
    assert!(line.contains("over the load budget"), "{line}");
    assert!(peak <= text.len() + budget_for(text.len()), "peak {peak}");
}
