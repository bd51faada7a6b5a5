//! Fuzzes the texture reader (DDS, PNG and JPEG headers at load, pixels at upload): any input
//! must be probed into a texture or refused with a one-line reason, and a probed texture must
//! decode (or refuse) and convert to RGBA8 in both colour spaces, never panic.
//!
//! `cargo +nightly fuzz run texture fuzz/corpus/texture -- -max_len=4096 -rss_limit_mb=2048`

#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use throng::asset::texture;

fuzz_target!(|data: &[u8]| {
    match texture::probe("fuzz.dds", Arc::from(data)) {
        Err(e) => assert!(!e.contains('\n'), "two-line error: {e}"),
        Ok(t) => match texture::decode(&t) {
            Err(e) => assert!(!e.contains('\n'), "two-line error: {e}"),
            Ok(decoded) => {
                let _ = decoded.to_rgba8(true);
                let _ = decoded.to_rgba8(false);
            }
        },
    }
});
