//! Replays the fuzz corpus (`fuzz/corpus/fbx`) through the FBX loader on stable Rust, so CI
//! runs every input the fuzzer kept without needing cargo-fuzz or nightly.
//!
//! The seeds (`seed-*`) are the generated samples of `tests/fbx_samples`, and a test checks
//! that the committed ones still are: when the samples change, rewrite them with
//! `THRONG_UPDATE_SEEDS=1 cargo test --test fbx_fuzz_corpus`. No third-party file goes in the
//! corpus.

mod fbx_samples;

#[path = "common/fuzz_corpus.rs"]
mod fuzz_corpus;

use throng::asset::fbx;

/// Parses `bytes` as the fuzz target does: a model or a one-line error, and a model evaluates.
fn replay(name: &str, bytes: &[u8]) -> bool {
    match fbx::parse("fuzz.fbx", bytes, None) {
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

/// The generated inputs that belong in the corpus: the samples (seeds, which load) and the
/// binary file whose array header claims 800 MB (refused by the budget).
fn generated() -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = fbx_samples::seeds()
        .into_iter()
        .map(|(name, text)| (name.to_string(), text.into_bytes()))
        .collect();
    out.push((
        "claims-800mb-array.fbx".to_string(),
        fbx_samples::binary_claiming_vertices(100_000_000),
    ));
    out
}

#[test]
fn the_seeds_are_the_generated_samples() {
    let dir = fuzz_corpus::corpus_dir("fbx");
    let update = std::env::var_os("THRONG_UPDATE_SEEDS").is_some_and(|v| v == "1");
    if update {
        std::fs::create_dir_all(&dir).expect("corpus folder");
    }
    for (name, bytes) in generated() {
        let path = dir.join(&name);
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
    fuzz_corpus::replay_corpus("fbx", 400 * 1024, replay, |name| name.contains("/seed-"));
}
