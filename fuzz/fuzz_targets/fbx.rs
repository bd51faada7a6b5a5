//! Fuzzes the FBX loader (ufbx and throng's conversion of its scene): any input must give a
//! model or a one-line error, never a panic or a crash through the FFI, and a model must
//! evaluate every clip and skin its mesh without a panic. The load's memory budget bounds
//! what ufbx may allocate, so an input that makes it ask for gigabytes is an error here too.
//!
//! `cargo +nightly fuzz run fbx fuzz/corpus/fbx -- -dict=fuzz/fbx.dict -max_len=16384`

#![no_main]

use libfuzzer_sys::fuzz_target;
use throng::asset::fbx;

fuzz_target!(|data: &[u8]| {
    match fbx::parse("fuzz.fbx", data, None) {
        Err(e) => assert!(!e.to_string().contains('\n'), "two-line error: {e}"),
        Ok(model) => model.exercise(),
    }
});
