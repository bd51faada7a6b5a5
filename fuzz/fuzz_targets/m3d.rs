//! Fuzzes the `.m3d` parser: any input must give a model or a one-line error, never a panic,
//! and a model must evaluate every clip without a panic.
//!
//! `cargo +nightly fuzz run m3d fuzz/corpus/m3d -- -dict=fuzz/m3d.dict -max_len=4096`

#![no_main]

use libfuzzer_sys::fuzz_target;
use throng::asset::m3d;

fuzz_target!(|data: &[u8]| {
    match m3d::parse("fuzz.m3d", data, None) {
        Err(e) => assert!(!e.to_string().contains('\n'), "two-line error: {e}"),
        Ok(model) => model.exercise(),
    }
});
