//! Hostile input against the built `throng` program, one table per class of issue 11: files
//! that are not regular files or lie outside the model's folder, output that cannot be
//! written, control characters from arguments and files, finite values that would overflow in
//! evaluation, invalid glTF and `.m3d` content that used to be accepted, and error lines that
//! must name the record in the file's own terms. Every input is generated here; each case
//! asserts the exit code and the one exact line on stderr.

mod gltf_common;
mod m3d_samples;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use gltf_common::fixture::Fixture;
use m3d_samples::{SKINNED, edit};
use serde_json::json;

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("throng-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

fn run(args: &[&str], stdout: Stdio) -> Output {
    Command::new(env!("CARGO_BIN_EXE_throng"))
        .args(args)
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(stdout)
        .output()
        .expect("throng runs")
}

/// Runs `throng args` and asserts exit `code` and exactly `line` on stderr (warnings, such as
/// the test files' missing textures, are switched off).
fn expect(args: &[&str], code: i32, line: &str) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_throng"))
        .args(args)
        .env("RUST_LOG", "error")
        .stdin(Stdio::null())
        .output()
        .expect("throng runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
    assert_eq!(stderr.trim_end_matches('\n'), line, "{args:?}");
    out
}

/// Runs `throng args`, which must succeed (warnings on stderr allowed, errors not).
fn succeed(args: &[&str]) -> Output {
    let out = run(args, Stdio::piped());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
    assert!(!stderr.contains("error"), "{args:?}: {stderr}");
    out
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success());
}

fn write(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("write");
    path.to_str().expect("utf-8 path").to_string()
}

fn fixture() -> Fixture {
    Fixture::strip([0, 1, 2])
}

/// Accessor index of animation sampler `s`'s output in the fixture.
fn sampler_output(fx: &Fixture, s: usize) -> usize {
    fx.json["animations"][0]["samplers"][s]["output"]
        .as_u64()
        .expect("output") as usize
}

#[cfg(unix)]
#[test]
fn files_other_than_regular_files_inside_the_folder_are_never_read() {
    let dir = scratch("files");
    // A FIFO as the model: refused before it is opened for reading, so nothing blocks.
    let fifo = dir.join("pipe.m3d");
    mkfifo(&fifo);
    let fifo = fifo.to_str().expect("utf-8");
    expect(
        &["info", fifo],
        1,
        &format!(
            "throng: error: {fifo}: is not a regular file (a FIFO, socket or device); only \
             regular files are read"
        ),
    );
    // A FIFO as a glTF buffer in the model's folder.
    mkfifo(&dir.join("buffer.bin"));
    let model = write(&dir, "fifo.gltf", fixture().gltf_external("buffer.bin"));
    expect(
        &["info", &model],
        1,
        &format!(
            "throng: error: {model}: buffers[0]: 'buffer.bin' is not a regular file (a FIFO, \
             socket or device); only regular files are read"
        ),
    );
    // A link to /dev/zero as the model: refused, not read until memory runs out.
    let zero = dir.join("zero.m3d");
    std::os::unix::fs::symlink("/dev/zero", &zero).expect("link");
    let zero = zero.to_str().expect("utf-8");
    expect(
        &["info", zero],
        1,
        &format!(
            "throng: error: {zero}: is not a regular file (a FIFO, socket or device); only \
             regular files are read"
        ),
    );
    // A file over --max-file-size, for every command that loads a model.
    let small = write(&dir, "small.m3d", SKINNED);
    let cap_line = format!(
        "throng: error: {small}: is larger than the 100-byte cap on one file (--max-file-size)"
    );
    for args in [
        &["info", &small, "--max-file-size", "100"][..],
        &[
            "pose",
            &small,
            "--clip",
            "0",
            "--time",
            "0",
            "--max-file-size",
            "100",
        ],
        &["bench", "palette", &small, "--max-file-size", "100"],
        &["bench", "sweep", &small, "--max-file-size", "100"],
        &["run", &small, "--headless", "--max-file-size", "100"],
        &["bench", "frame", &small, "--max-file-size", "100"],
    ] {
        expect(args, 1, &cap_line);
    }
    // ... and the same file under a cap it fits.
    let out = succeed(&["info", &small, "--max-file-size", "100000"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("joints     3"));
}

#[cfg(unix)]
#[test]
fn m3d_textures_outside_the_folder_are_not_opened() {
    let root = scratch("textures");
    let dir = root.join("model");
    let outside = root.join("outside");
    std::fs::create_dir_all(&dir).expect("model folder");
    std::fs::create_dir_all(&outside).expect("outside folder");
    // The texture outside is a FIFO: opening it at all would block (or be reported as a FIFO),
    // so the warning below proves the path policy refused it first.
    mkfifo(&outside.join("x.png"));
    std::os::unix::fs::symlink(outside.join("x.png"), dir.join("link.png")).expect("link");
    std::os::unix::fs::symlink("/etc/passwd", dir.join("passwd.png")).expect("link");
    let cases = [
        (
            "../outside/x.png",
            "texture ../outside/x.png is not a plain file name beside the model",
        ),
        (
            "link.png",
            "texture link.png resolves outside the model's folder (through a symbolic link); \
             not read",
        ),
        (
            "passwd.png",
            "texture passwd.png resolves outside the model's folder (through a symbolic link); \
             not read",
        ),
    ];
    for (map, why) in cases {
        let text = edit(
            SKINNED,
            "DiffuseMap: skin_diff.png",
            &format!("DiffuseMap: {map}"),
        );
        let text = text.replace("NormalMap: shared_norm.dds", "NormalMap: none.png");
        let model = write(&dir, "m.m3d", text);
        let out = run(&["info", &model, "--json"], Stdio::piped());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{map}: {stderr}");
        let line = format!(
            "[WARN  throng::asset::m3d::textures] {model}: {why}; using the material color"
        );
        assert!(stderr.lines().any(|l| l == line), "{map}: {stderr}");
    }
}

#[test]
fn unwritable_stdout_is_one_error_line_for_every_command() {
    let line = "throng: error: writing to stdout: No space left on device (os error 28)";
    let cases: [&[&str]; 10] = [
        &["info"],
        &["info", "--json"],
        &["pose", "--clip", "walk", "--time", "0.5"],
        &["pose", "--clip", "walk", "--time", "0.5", "--json"],
        &["bench", "palette", "--instances", "10", "--frames", "1"],
        &[
            "bench",
            "palette",
            "--instances",
            "10",
            "--frames",
            "1",
            "--json",
        ],
        &[
            "bench",
            "sweep",
            "--threads",
            "1",
            "--instances",
            "10",
            "--seconds",
            "0.01",
            "--repeat",
            "1",
        ],
        &[
            "bench",
            "sweep",
            "--threads",
            "1",
            "--instances",
            "10",
            "--seconds",
            "0.01",
            "--repeat",
            "1",
            "--json",
        ],
        &["--help"],
        &["info", "--help"],
    ];
    for args in cases {
        let full = std::fs::File::create("/dev/full").expect("/dev/full");
        let out = run(args, Stdio::from(full));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert_eq!(stderr.trim_end_matches('\n'), line, "{args:?}");
    }
    // An unwritable stderr: the error still gives exit 1, warnings do not stop the command.
    let dir = scratch("full-stderr");
    let model = write(&dir, "warns.m3d", SKINNED);
    for (args, code) in [
        (&["info", "missing.m3d"][..], 1),
        (&["pose", "--clip", "nope", "--time", "0"], 1),
        (&["info", &model], 0),
    ] {
        let full = std::fs::File::create("/dev/full").expect("/dev/full");
        let out = Command::new(env!("CARGO_BIN_EXE_throng"))
            .args(args)
            .env_remove("RUST_LOG")
            .stdout(Stdio::null())
            .stderr(Stdio::from(full))
            .status()
            .expect("throng runs");
        assert_eq!(out.code(), Some(code), "{args:?}");
    }
    // The rendering commands: one line and exit 1 whether or not a Vulkan device exists here
    // (without one, the line says what to install instead).
    for args in [
        &[
            "run",
            "--headless",
            "--frames",
            "1",
            "--instances",
            "1",
            "--width",
            "32",
            "--height",
            "32",
        ][..],
        &[
            "bench",
            "frame",
            "--instances",
            "1",
            "--frames",
            "1",
            "--width",
            "32",
            "--height",
            "32",
        ],
    ] {
        let full = std::fs::File::create("/dev/full").expect("/dev/full");
        let out = run(args, Stdio::from(full));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    }
}

#[test]
fn control_characters_from_outside_are_escaped() {
    let dir = scratch("control");
    // An argument.
    expect(
        &["pose", "--clip", "walk\nx", "--time", "0"],
        1,
        "throng: error: no clip named 'walk\\nx'",
    );
    expect(
        &["run", "--pose", "a\u{1b}[2J@x", "--headless"],
        2,
        "throng: error: --pose 'a\\u{1b}[2J@x' is not CLIP@SECONDS",
    );
    // A file name.
    let missing = format!("{}/bad\u{7}\nname.m3d", dir.display());
    let shown = missing.replace('\u{7}', "\\u{7}").replace('\n', "\\n");
    expect(
        &["info", &missing],
        1,
        &format!("throng: error: {shown}: not found"),
    );
    // Names inside a file: a material name with escape and bell bytes, and a joint name with
    // a line break and a C1 control.
    let text = edit(SKINNED, "Name: skin", "Name: s\u{1b}[31mkin\u{7}");
    let model = write(&dir, "names.m3d", text);
    let out = succeed(&["info", &model]);
    let stdout = String::from_utf8(out.stdout).expect("utf-8");
    assert!(stdout.contains("s\\u{1b}[31mkin\\u{7}"), "{stdout}");
    let mut fx = fixture();
    fx.json["nodes"][2]["name"] = json!("ro\not\u{9b}");
    let model = write(&dir, "names.gltf", fx.gltf());
    for args in [
        &["pose", &model, "--clip", "0", "--time", "0"][..],
        &["pose", &model, "--clip", "0", "--time", "0", "--json"],
        &["info", &model, "--json"],
    ] {
        let out = succeed(args);
        let stdout = String::from_utf8(out.stdout).expect("utf-8");
        let raw = stdout
            .chars()
            .filter(|&c| c != '\n')
            .find(|&c| throng::text::needs_escape(c));
        assert_eq!(raw, None, "{args:?}: {stdout}");
    }
    let out = run(
        &["pose", &model, "--clip", "0", "--time", "0", "--json"],
        Stdio::piped(),
    );
    let pose: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(pose["joints"][0]["name"], "ro\not\u{9b}");
}

#[test]
fn finite_values_that_overflow_in_evaluation_are_refused_naming_the_joint() {
    let dir = scratch("overflow");
    let key0 = "\t\tTime: 0 Pos: 0 0 0 Scale: 1 1 1 Quat: 0 0 0 1";
    let key1 = "\t\tTime: 0 Pos: 0 1 0 Scale: 1 1 1 Quat: 0 0 0 1";
    // One joint scaled by 1e10 is fine; two nested ones compound to 1e20.
    let one = edit(
        SKINNED,
        key0,
        &key0.replace("Scale: 1 1 1", "Scale: 1e10 1e10 1e10"),
    );
    let model = write(&dir, "one.m3d", &one);
    let obj = dir.join("one.obj");
    let obj = obj.to_str().expect("utf-8");
    let out = succeed(&[
        "pose", &model, "--clip", "wave", "--time", "0.5", "--json", "--obj", obj,
    ]);
    // What is accepted evaluates to finite numbers: no `null` palette, no NaN in the OBJ.
    let pose: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    for joint in pose["joints"].as_array().expect("joints") {
        for x in joint["palette"].as_array().expect("palette") {
            assert!(x.as_f64().is_some_and(f64::is_finite), "{joint}");
        }
    }
    let text = std::fs::read_to_string(obj).expect("OBJ written");
    assert!(!text.contains("NaN") && !text.contains("inf"), "{text}");
    let two = edit(
        &one,
        key1,
        &key1.replace("Scale: 1 1 1", "Scale: 1e10 1e10 1e10"),
    );
    let model = write(&dir, "two.m3d", &two);
    expect(
        &["pose", &model, "--clip", "wave", "--time", "0", "--json"],
        1,
        &format!(
            "throng: error: {model}: BoneOffsets: bone 1: joint 1 (bone1): its scale and \
             translation keys, compounded through its parents and its offset, can reach 1.7e20, \
             more than the 1e18 that keeps palettes finite (line 66)"
        ),
    );
    let far = edit(SKINNED, key0, &key0.replace("Pos: 0 0 0", "Pos: 3e38 0 0"));
    let model = write(&dir, "far.m3d", &far);
    expect(
        &["info", &model],
        1,
        &format!(
            "throng: error: {model}: BoneOffsets: bone 0: joint 0 (bone0): its scale and \
             translation keys, compounded through its parents and its offset, can reach 3.0e38, \
             more than the 1e18 that keeps palettes finite (line 65)"
        ),
    );
    // glTF: a translation key of 1e30 (doubled by the armature's scale).
    let mut fx = fixture();
    let step = sampler_output(&fx, 0);
    fx.poke_f32(step, 3, 1e30);
    let model = write(&dir, "far.gltf", fx.gltf());
    expect(
        &["info", &model],
        1,
        &format!(
            "throng: error: {model}: model: joint 0 (root): its scale and translation keys, \
             compounded through its parents and its offset, can reach 2.0e30, more than the \
             1e18 that keeps palettes finite"
        ),
    );
}

#[test]
fn gltf_content_that_breaks_the_specification_is_refused() {
    let dir = scratch("gltf-rules");
    let mut cases: Vec<(&str, Fixture, &str)> = Vec::new();
    let mut fx = fixture();
    fx.poke_f32(fx.acc.weights, 0, 3e38);
    fx.poke_f32(fx.acc.weights, 1, 3e38);
    cases.push((
        "infinite-sum",
        fx,
        "meshes[0].primitives[0]: vertex 0: the weights sum to infinity, so they cannot be normalized",
    ));
    let mut fx = fixture();
    let at = fx.offsets[fx.acc.joints] + 2;
    fx.bin[at] = 9;
    cases.push((
        "joint-past-skin",
        fx,
        "meshes[0].primitives[0]: vertex 0: JOINTS_0 uses joint 9, but skins[0] has 3 joints",
    ));
    let mut fx = fixture();
    fx.json["asset"]["version"] = json!("1.0");
    cases.push((
        "version",
        fx,
        "asset: version '1.0' is not glTF 2.x, the only version supported",
    ));
    let mut fx = fixture();
    fx.json["asset"]["minVersion"] = json!("2.5");
    cases.push((
        "min-version",
        fx,
        "asset: minVersion '2.5' asks for more than glTF 2.0, the version supported",
    ));
    for (name, fx, line) in cases {
        let model = write(&dir, &format!("{name}.gltf"), fx.gltf());
        expect(
            &["info", &model],
            1,
            &format!("throng: error: {model}: {line}"),
        );
    }
    // Valid: `extras` of any JSON type.
    for extras in [
        json!([1, 2]),
        json!(3.5),
        json!("text"),
        json!(null),
        json!({"a": 1}),
    ] {
        let mut fx = fixture();
        fx.json["extras"] = extras.clone();
        fx.json["nodes"][0]["extras"] = extras.clone();
        let model = write(&dir, "extras.gltf", fx.gltf());
        succeed(&["info", &model, "--json"]);
    }
}

#[test]
fn m3d_triangles_outside_every_subset_are_refused() {
    let dir = scratch("m3d-rules");
    let text = edit(
        SKINNED,
        "SubsetID: 1 VertexStart: 1 VertexCount: 3 FaceStart: 1 FaceCount: 1",
        "SubsetID: 1 VertexStart: 1 VertexCount: 3 FaceStart: 1 FaceCount: 0",
    );
    let model = write(&dir, "uncovered.m3d", text);
    expect(
        &["info", &model],
        1,
        &format!(
            "throng: error: {model}: Triangles: triangle 1 is in no subset, so it would never \
             be drawn (line 62)"
        ),
    );
}

#[test]
fn error_lines_name_the_record_in_the_files_own_terms() {
    let dir = scratch("wording");
    let mut gltf_cases: Vec<(&str, Vec<u8>, String)> = Vec::new();
    // Animation keys: the channel and the key's index.
    let mut fx = fixture();
    let rotations = sampler_output(&fx, 1);
    fx.poke_f32(rotations, 4, f32::NAN);
    gltf_cases.push((
        "key.gltf",
        fx.gltf(),
        "animations[0].channels[1]: key 1 is not finite".into(),
    ));
    // Vertex attributes: the primitive and the accessor.
    let mut fx = fixture();
    fx.poke_f32(fx.acc.positions, 3 * 3 + 1, f32::INFINITY);
    gltf_cases.push((
        "vertex.gltf",
        fx.gltf(),
        format!(
            "meshes[0].primitives[0]: POSITION (accessors[{}]): vertex 3 is not finite",
            fx.acc.positions
        ),
    ));
    // GLB: a BIN chunk past the header's length.
    let fx = fixture();
    let glb = fx.glb();
    let json_len = u32::from_le_bytes([glb[12], glb[13], glb[14], glb[15]]) as usize;
    let declared = 12 + 8 + json_len;
    let mut short = glb.clone();
    short[8..12].copy_from_slice(&(declared as u32).to_le_bytes());
    gltf_cases.push((
        "short.glb",
        short,
        format!(
            "header: the header declares {declared} bytes, but the file has {} (a BIN chunk at \
             byte {declared} lies past the declared length)",
            glb.len()
        ),
    ));
    // GLB: a BIN chunk after an unknown chunk.
    let mut odd = glb[..declared].to_vec();
    odd.extend_from_slice(&4u32.to_le_bytes());
    odd.extend_from_slice(b"XTRA");
    odd.extend_from_slice(&[0; 4]);
    odd.extend_from_slice(&glb[declared..]);
    let total = odd.len() as u32;
    odd[8..12].copy_from_slice(&total.to_le_bytes());
    gltf_cases.push((
        "odd.glb",
        odd,
        "chunk 2: a BIN chunk after chunk 1 of unknown type 0x41525458: the BIN chunk must be \
         chunk 1, right after the JSON chunk"
            .into(),
    ));
    for (name, bytes, line) in gltf_cases {
        let model = write(&dir, name, bytes);
        expect(
            &["info", &model],
            1,
            &format!("throng: error: {model}: {line}"),
        );
    }
    // `.m3d`: errors found after the record was read still carry their line.
    let m3d_cases = [
        (
            "singular.m3d",
            edit(
                SKINNED,
                "BoneOffset1 1 0 0 0 0 1 0 0 0 0 1 0 0 -1 0 1",
                "BoneOffset1 1 0 0 0 0 0 0 0 0 0 1 0 0 -1 0 1",
            ),
            "BoneOffsets: bone 1: the offset matrix is singular, so the bind pose cannot be \
             derived (line 66)",
        ),
        (
            "outside.m3d",
            edit(SKINNED, "1 3 2\n", "0 3 2\n"),
            "SubsetTable: subset 1: triangle 1 uses vertex 0, outside the subset's vertices \
             1..4 (line 62)",
        ),
    ];
    for (name, text, line) in m3d_cases {
        let model = write(&dir, name, text);
        expect(
            &["info", &model],
            1,
            &format!("throng: error: {model}: {line}"),
        );
    }
}
