//! Replays the fuzz corpus of the `gltf` target (`fuzz/corpus/gltf`) and the inputs that
//! crashed the loader (`tests/gltf_regressions`, see `fuzz_regressions` below) through
//! `asset::gltf::parse` on stable Rust, so CI runs them without cargo-fuzz: every input
//! must load or fail with an error, never panic.
//!
//! The seed corpus is written by this file too (`write_seed_corpus`, ignored; run it with
//! `cargo test --test gltf_fuzz_corpus -- --ignored`): variants of the test fixture, never
//! third-party files.

mod gltf_common;

use std::path::{Path, PathBuf};

use gltf_common::fixture::{FIRST_JOINT_NODE, Fixture, UNSIGNED_BYTE, UNSIGNED_SHORT};
use serde_json::json;
use throng::anim::{Mat3x4, PoseScratch, SkinnedVertex, skin_vertices};
use throng::asset::gltf::parse;

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/gltf")
}

/// Loads `bytes` and, if that works, evaluates and skins a little, as the fuzz target does.
fn replay(name: &str, bytes: &[u8]) -> bool {
    let Ok(model) = parse(name, bytes, None) else {
        return false;
    };
    let n = model.joint_count();
    let mut scratch = PoseScratch::new(n);
    let mut palette = vec![Mat3x4::IDENTITY; n];
    let vertices = model.mesh().vertices.as_slice();
    let mut skinned = vec![SkinnedVertex::default(); vertices.len()];
    for (c, clip) in model.clips().iter().enumerate() {
        model.evaluate(c, clip.end() * 0.5, &mut scratch, &mut palette);
        skin_vertices(vertices, &palette, &mut skinned);
    }
    true
}

#[test]
fn every_corpus_file_loads_or_fails_cleanly() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .expect("fuzz/corpus/gltf exists")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    assert!(
        files.len() >= 8,
        "the seed corpus has {} files",
        files.len()
    );
    let total: u64 = files
        .iter()
        .map(|f| f.metadata().expect("meta").len())
        .sum();
    assert!(
        files.len() < 100 && total < 300_000,
        "{} files, {total} bytes",
        files.len()
    );
    let mut loaded = 0;
    for file in &files {
        let bytes = std::fs::read(file).expect("readable");
        loaded += usize::from(replay("fuzz.gltf", &bytes));
    }
    // The seeds themselves are valid models.
    assert!(
        loaded >= 8,
        "only {loaded} of {} corpus files load",
        files.len()
    );
}

/// Inputs that panicked before their fix (`tests/gltf_regressions`): the `gltf` crate's
/// accessors unwrap animation channel targets that its validation never checks, and its
/// validation indexes a primitive's POSITION accessor without a bounds check. Each must now
/// fail with an error. Crashes found by the fuzzer go here too.
#[test]
fn fuzz_regressions() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gltf_regressions");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).expect("tests/gltf_regressions exists") {
        let path = entry.expect("entry").path();
        let bytes = std::fs::read(&path).expect("readable");
        let name = path.display().to_string();
        let result = std::panic::catch_unwind(|| parse(&name, &bytes, None).map(|_| ()));
        let err = result
            .unwrap_or_else(|_| panic!("{name}: the loader panicked"))
            .expect_err("a regression input is damaged");
        assert!(err.to_string().starts_with(&name), "{err}");
        count += 1;
    }
    assert!(count >= 3);
}

/// Writes the seed corpus: the fixture and variants covering the loader's branches, in
/// both `.gltf` (base64) and `.glb` form where the form matters.
#[test]
#[ignore = "writes fuzz/corpus/gltf; run by hand when the fixture changes"]
fn write_seed_corpus() {
    let dir = corpus_dir();
    std::fs::create_dir_all(&dir).expect("corpus dir");
    let mut seeds: Vec<(&str, Vec<u8>)> = Vec::new();

    let base = Fixture::strip([0, 1, 2]);
    seeds.push(("strip.glb", base.glb()));
    seeds.push(("strip.gltf", base.gltf()));
    let reordered = Fixture::strip([2, 0, 1]);
    seeds.push(("reordered.glb", reordered.glb()));
    seeds.push(("reordered.gltf", reordered.gltf()));

    // Normals, tangents, normalized UVs, u16 joints and normalized u8 weights.
    let mut fx = Fixture::strip([0, 1, 2]);
    let normals = fx.add_floats(&[0.0, 0.0, 1.0].repeat(10), "VEC3");
    let tangents = fx.add_floats(&[1.0, 0.0, 0.0, 1.0].repeat(10), "VEC4");
    let uv: Vec<u8> = (0..20u16).flat_map(|i| (i * 3000).to_le_bytes()).collect();
    let uv = fx.add(&uv, UNSIGNED_SHORT, 10, "VEC2", true);
    let joints: Vec<u8> = [0u16, 1, 0, 0]
        .repeat(10)
        .iter()
        .flat_map(|j| j.to_le_bytes())
        .collect();
    let joints = fx.add(&joints, UNSIGNED_SHORT, 10, "VEC4", false);
    let weights = fx.add(&[200, 55, 0, 0].repeat(10), UNSIGNED_BYTE, 10, "VEC4", true);
    let attrs = &mut fx.json["meshes"][0]["primitives"][0]["attributes"];
    attrs["NORMAL"] = json!(normals);
    attrs["TANGENT"] = json!(tangents);
    attrs["TEXCOORD_0"] = json!(uv);
    attrs["JOINTS_0"] = json!(joints);
    attrs["WEIGHTS_0"] = json!(weights);
    seeds.push(("attributes.glb", fx.glb()));

    // Eight influences, and a rigid non-indexed mesh under the tip.
    let mut fx = Fixture::strip([1, 0, 2]);
    let j1 = fx.add(&[2, 1, 0, 0].repeat(10), UNSIGNED_BYTE, 10, "VEC4", false);
    let w1 = fx.add_floats(&[0.1, 0.05, 0.0, 0.0].repeat(10), "VEC4");
    fx.json["meshes"][0]["primitives"][0]["attributes"]["JOINTS_1"] = json!(j1);
    fx.json["meshes"][0]["primitives"][0]["attributes"]["WEIGHTS_1"] = json!(w1);
    let tri = fx.add_floats(&[0.0, 0.0, 0.0, 0.2, 0.0, 0.0, 0.0, 0.2, 0.0], "VEC3");
    fx.json["meshes"]
        .as_array_mut()
        .expect("meshes")
        .push(json!({"primitives": [{"attributes": {"POSITION": tri}}]}));
    fx.json["nodes"]
        .as_array_mut()
        .expect("nodes")
        .push(json!({"name": "hat", "mesh": 1, "matrix": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0.5,0,1]}));
    fx.json["nodes"][FIRST_JOINT_NODE + 2]["children"] = json!([5]);
    seeds.push(("rigid.gltf", fx.gltf()));

    // A second skin listing the joints in another order (the mesh is drawn with both), and
    // a sparse accessor.
    let mut fx = Fixture::strip([0, 1, 2]);
    let at = fx.offsets[fx.acc.ibm];
    let ibm: Vec<u8> = [2, 0, 1]
        .iter()
        .flat_map(|&m| fx.bin[at + 64 * m..at + 64 * (m + 1)].to_vec())
        .collect();
    let ibm2 = fx.add(&ibm, gltf_common::fixture::FLOAT, 3, "MAT4", false);
    fx.json["skins"]
        .as_array_mut()
        .expect("skins")
        .push(json!({"joints": [FIRST_JOINT_NODE + 2, FIRST_JOINT_NODE, FIRST_JOINT_NODE + 1], "inverseBindMatrices": ibm2}));
    fx.json["nodes"]
        .as_array_mut()
        .expect("nodes")
        .push(json!({"mesh": 0, "skin": 1}));
    let idx = fx.add(&[3, 0, 0, 0], UNSIGNED_BYTE, 1, "SCALAR", false);
    let val = fx.add_floats(&[0.25, 1.0, 0.0], "VEC3");
    let (iv, vv) = (
        fx.json["accessors"][idx]["bufferView"].clone(),
        fx.json["accessors"][val]["bufferView"].clone(),
    );
    let positions = fx.acc.positions;
    fx.json["accessors"][positions]["sparse"] = json!({"count": 1, "indices": {"bufferView": iv, "componentType": 5121}, "values": {"bufferView": vv}});
    seeds.push(("skins.glb", fx.glb()));

    // Normalized BYTE rotations, a matrix joint, an unnamed clip and a second clip.
    let mut fx = Fixture::strip([0, 1, 2]);
    let rot: Vec<u8> = [0i8, 0, 0, 127, 0, 0, 50, 117, 0, 0, -40, 120]
        .iter()
        .map(|&b| b as u8)
        .collect();
    let rot = fx.add(&rot, 5120, 3, "VEC4", true);
    fx.json["animations"][0]["samplers"][1]["output"] = json!(rot);
    fx.json["nodes"][FIRST_JOINT_NODE + 1]["matrix"] =
        json!([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1]);
    fx.json["nodes"][FIRST_JOINT_NODE + 1]
        .as_object_mut()
        .expect("node")
        .remove("translation");
    let second = fx.json["animations"][0].clone();
    fx.json["animations"]
        .as_array_mut()
        .expect("anims")
        .push(second);
    fx.json["animations"][0]
        .as_object_mut()
        .expect("anim")
        .remove("name");
    seeds.push(("samplers.gltf", fx.gltf()));

    // A material with an embedded 2x2 PNG base-color texture.
    let mut fx = Fixture::strip([0, 1, 2]);
    let mut png = Vec::new();
    image::RgbaImage::from_fn(2, 2, |x, y| {
        image::Rgba([(x * 200) as u8, (y * 200) as u8, 90, 255])
    })
    .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
    .expect("png");
    while png.len() % 4 != 0 {
        png.push(0);
    }
    let img = fx.add(&png, UNSIGNED_BYTE, png.len() / 4, "VEC4", false);
    let view = fx.json["accessors"][img]["bufferView"].clone();
    fx.json["images"] = json!([{"bufferView": view, "mimeType": "image/png"}]);
    fx.json["textures"] = json!([{"source": 0}]);
    fx.json["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"] = json!({"index": 0});
    fx.json["materials"][0]["alphaMode"] = json!("MASK");
    seeds.push(("texture.glb", fx.glb()));

    for (name, bytes) in &seeds {
        if let Err(e) = parse(name, bytes, None) {
            panic!("seed {name} must load: {e}");
        }
        std::fs::write(dir.join(name), bytes).expect("write seed");
    }
}
