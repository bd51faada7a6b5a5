//! Writes the seed corpus of the `gltf` fuzz target (`fuzz/corpus/gltf`): the test fixture
//! and variants of it covering the loader's branches, in both `.gltf` (base64) and `.glb` form
//! where the form matters, never third-party files. Run it when the fixture changes:
//!
//! ```text
//! cargo run --example gltf_seed_corpus [DIR]    # or: make seed-corpus
//! ```
//!
//! `DIR` defaults to `fuzz/corpus/gltf`. Every seed must load, or nothing is written.
//! `tests/gltf_fuzz_corpus.rs` replays the corpus.

#[allow(dead_code)]
#[path = "../tests/gltf_common/fixture.rs"]
mod fixture;

use std::path::PathBuf;

use fixture::{FIRST_JOINT_NODE, Fixture, UNSIGNED_BYTE, UNSIGNED_SHORT};
use serde_json::json;
use throng::asset::gltf::parse;

/// The seeds, by file name.
fn seeds() -> Vec<(&'static str, Vec<u8>)> {
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
    let ibm2 = fx.add(&ibm, fixture::FLOAT, 3, "MAT4", false);
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

    seeds
}

fn main() {
    let dir = std::env::args_os().nth(1).map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/gltf"),
        PathBuf::from,
    );
    let seeds = seeds();
    for (name, bytes) in &seeds {
        if let Err(e) = parse(name, bytes, None) {
            eprintln!("seed {name} does not load: {e}");
            std::process::exit(1);
        }
    }
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for (name, bytes) in &seeds {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
    println!("{} seeds written to {}", seeds.len(), dir.display());
}
