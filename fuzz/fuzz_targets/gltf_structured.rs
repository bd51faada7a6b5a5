//! Structure-aware fuzzing of the glTF loader: the input bytes are choices that build a
//! whole glTF file (`fuzz/structured/gltf_json.rs`: node trees, skins, meshes, many
//! animations, images), which is loaded and, when it loads, evaluated and skinned. Run with
//! `-rss_limit_mb` and `-timeout` so a file that makes the loader hold too much or run too
//! long is a finding, like a panic.

#![no_main]

use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;

#[path = "../structured/gltf_json.rs"]
mod gltf_json;

fuzz_target!(|data: &[u8]| {
    let Ok(json) = gltf_json::gltf_json(&mut Unstructured::new(data)) else {
        return;
    };
    let Ok(model) = throng::asset::gltf::parse("fuzz.gltf", json.as_bytes(), None) else {
        return;
    };
    model.exercise();
});
