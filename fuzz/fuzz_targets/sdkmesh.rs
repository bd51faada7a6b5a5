//! Fuzzes the SDKMESH loader with its animation file: any input must give a model or a
//! one-line error, never a panic, and a model must evaluate its clip and skin its mesh.
//!
//! Input: a little-endian u32 `n`, then `n` bytes of `.sdkmesh` and the rest as the
//! `.sdkmesh_anim` (none when the rest is empty).
//!
//! `cargo +nightly fuzz run sdkmesh fuzz/corpus/sdkmesh -- -max_len=8192`

#![no_main]

use libfuzzer_sys::fuzz_target;
use throng::asset::sdkmesh::{self, AnimationFile};

fuzz_target!(|data: &[u8]| {
    let Some((len, rest)) = data.split_first_chunk::<4>() else {
        return;
    };
    let n = (u32::from_le_bytes(*len) as usize).min(rest.len());
    let (model, anim) = rest.split_at(n);
    let animation = (!anim.is_empty()).then_some(AnimationFile {
        name: "fuzz.sdkmesh_anim",
        bytes: anim,
    });
    match sdkmesh::parse("fuzz.sdkmesh", model, animation, None) {
        Err(e) => assert!(!e.to_string().contains('\n'), "two-line error: {e}"),
        Ok(model) => model.exercise(),
    }
});
