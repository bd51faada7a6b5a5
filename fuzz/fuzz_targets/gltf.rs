//! Fuzzes the glTF loader from bytes (no file system: external URIs are errors), then
//! evaluates and skins what loaded, so values a malformed file lets through are also
//! exercised downstream. Any panic, or an allocation past libFuzzer's limit, is a bug.

#![no_main]

use libfuzzer_sys::fuzz_target;
use throng::anim::{Mat3x4, PoseScratch, SkinnedVertex, skin_vertices};

fuzz_target!(|data: &[u8]| {
    let Ok(model) = throng::asset::gltf::parse("fuzz.gltf", data, None) else {
        return;
    };
    let n = model.joint_count();
    let mut scratch = PoseScratch::new(n);
    let mut palette = vec![Mat3x4::IDENTITY; n];
    let vertices = &model.mesh().vertices[..model.mesh().vertices.len().min(256)];
    let mut skinned = vec![SkinnedVertex::default(); vertices.len()];
    for (c, clip) in model.clips().iter().enumerate().take(4) {
        for t in [0.0, clip.end() * 0.37, clip.end()] {
            model.evaluate(c, t, &mut scratch, &mut palette);
            skin_vertices(vertices, &palette, &mut skinned);
        }
    }
});
