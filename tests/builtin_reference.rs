//! The built-in character's palettes against the naive reference evaluator.

mod common;

use throng::asset::builtin;

#[test]
fn builtin_clips_match_the_naive_reference() {
    let model = builtin::model().expect("builtin");
    for (c, clip) in model.clips().iter().enumerate() {
        for k in 0..=16 {
            let t = clip.duration() * k as f32 / 16.0 + 0.0123 * (k % 3) as f32;
            common::naive::assert_palette_matches(&model, c, t, 1e-5);
        }
    }
}
