//! Fuzzes the text `.x` parser: any input must give a model or a one-line error, never a
//! panic, and a model must evaluate every clip and skin its mesh without a panic.
//!
//! `cargo +nightly fuzz run x fuzz/corpus/x -- -dict=fuzz/x.dict -max_len=4096`

#![no_main]

use libfuzzer_sys::fuzz_target;
use throng::asset::x;

fuzz_target!(|data: &[u8]| {
    match x::parse("fuzz.x", data, None) {
        Err(e) => assert!(!e.to_string().contains('\n'), "two-line error: {e}"),
        Ok(model) => model.exercise(),
    }
});
