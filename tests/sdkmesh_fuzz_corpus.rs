//! Replays the fuzz corpus (`fuzz/corpus/sdkmesh`) through the loader on stable Rust, so CI
//! runs every input the fuzzer kept without needing cargo-fuzz or nightly. An input is a
//! little-endian u32 `n`, `n` bytes of model, then the animation file (see
//! `fuzz/fuzz_targets/sdkmesh.rs`).
//!
//! The seeds (`seed-*`) are the generated samples of `tests/sdkmesh_samples`, and a test checks
//! that the committed ones still are: when the samples change, rewrite them with
//! `THRONG_UPDATE_SEEDS=1 cargo test --test sdkmesh_fuzz_corpus`.

mod sdkmesh_samples;

#[path = "common/fuzz_corpus.rs"]
mod fuzz_corpus;

use throng::asset::sdkmesh::{self, AnimationFile};

/// Parses `data` as the fuzz target does: a model or a one-line error, and a model evaluates.
fn replay(name: &str, data: &[u8]) -> bool {
    let Some((len, rest)) = data.split_first_chunk::<4>() else {
        return false;
    };
    let n = (u32::from_le_bytes(*len) as usize).min(rest.len());
    let (model, anim) = rest.split_at(n);
    let animation = (!anim.is_empty()).then_some(AnimationFile {
        name: "fuzz.sdkmesh_anim",
        bytes: anim,
    });
    match sdkmesh::parse("fuzz.sdkmesh", model, animation, None) {
        Ok(model) => {
            model.exercise();
            true
        }
        Err(e) => {
            assert!(!e.to_string().contains('\n'), "{name}: {e}");
            false
        }
    }
}

fn input(model: &[u8], anim: &[u8]) -> Vec<u8> {
    let mut out = (model.len() as u32).to_le_bytes().to_vec();
    out.extend_from_slice(model);
    out.extend_from_slice(anim);
    out
}

#[test]
fn the_seeds_are_the_generated_samples() {
    let dir = fuzz_corpus::corpus_dir("sdkmesh");
    let update = std::env::var_os("THRONG_UPDATE_SEEDS").is_some_and(|v| v == "1");
    let (model, _) = sdkmesh_samples::standard_model();
    let anim = sdkmesh_samples::standard_animation();
    let mut frames = sdkmesh_samples::standard_frames();
    frames.swap(1, 2);
    frames[1].parent = 2;
    frames[2].parent = 0;
    let (child_first, _) = sdkmesh_samples::model(&frames, &[2, 1]);
    for (name, bytes) in [
        ("seed-animated", input(&model, &anim)),
        ("seed-static", input(&model, &[])),
        ("seed-child-first", input(&child_first, &anim)),
    ] {
        let path = dir.join(name);
        if update {
            std::fs::write(&path, &bytes).expect("write seed");
        } else {
            let committed =
                std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert!(
                committed == bytes,
                "{} is not the generated sample; THRONG_UPDATE_SEEDS=1 rewrites it",
                path.display()
            );
        }
    }
}

#[test]
fn the_fuzz_corpus_replays_without_panics() {
    fuzz_corpus::replay_corpus("sdkmesh", 400 * 1024, replay, |name| {
        name.contains("/seed-")
    });
}
