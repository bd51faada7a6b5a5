//! Fuzzes the text `.x` parser: any input must give a model or a one-line error, never a
//! panic, and a model must evaluate every clip and skin its mesh without a panic.
//!
//! `cargo +nightly fuzz run x fuzz/corpus/x -- -dict=fuzz/x.dict -max_len=4096`

#![no_main]

use libfuzzer_sys::fuzz_target;
use throng::anim::{Mat3x4, PoseScratch, SkinnedVertex, skin_vertices};
use throng::asset::x;

fuzz_target!(|data: &[u8]| {
    match x::parse("fuzz.x", data, None) {
        Err(e) => assert!(!e.to_string().contains('\n'), "two-line error: {e}"),
        Ok(model) => {
            let n = model.joint_count();
            let mut scratch = PoseScratch::new(n);
            let mut palette = vec![Mat3x4::IDENTITY; n];
            let mut skinned = vec![SkinnedVertex::default(); model.mesh().vertices.len()];
            for (c, clip) in model.clips().iter().enumerate() {
                for t in [0.0, clip.end() * 0.37, clip.end(), clip.end() + 1.0] {
                    model.evaluate(c, t, &mut scratch, &mut palette);
                }
            }
            model.bind_palette(&mut scratch, &mut palette);
            skin_vertices(&model.mesh().vertices, &palette, &mut skinned);
        }
    }
});
