//! Fuzzes the glTF loader from bytes (no file system: external URIs are errors), then
//! evaluates and skins what loaded, so values a malformed file lets through are also
//! exercised downstream. Any panic, or an allocation past libFuzzer's limit, is a bug.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(model) = throng::asset::gltf::parse("fuzz.gltf", data, None) else {
        return;
    };
    model.exercise();
});
