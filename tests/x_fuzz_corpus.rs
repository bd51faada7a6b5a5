//! Replays the fuzz corpus (`fuzz/corpus/x`) through the parser on stable Rust, so CI runs
//! every input the fuzzer kept without needing cargo-fuzz or nightly.

#[path = "common/fuzz_corpus.rs"]
mod fuzz_corpus;

use throng::asset::x;

/// Parses `bytes` as the fuzz target does: a model or a one-line error, and a model evaluates.
fn replay(name: &str, bytes: &[u8]) -> bool {
    match x::parse(name, bytes, None) {
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

#[test]
fn the_fuzz_corpus_replays_without_panics() {
    // The hand-written seeds (the only files named `*.x`) are valid models.
    fuzz_corpus::replay_corpus("x", 200 * 1024, replay, |name| name.ends_with(".x"));
}
