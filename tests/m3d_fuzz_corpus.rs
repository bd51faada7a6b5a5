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
    let files = fuzz_corpus::corpus("m3d");
    assert!(!files.is_empty(), "the corpus is committed");
    assert!(
        files.len() < 100,
        "keep the corpus small: {} files",
        files.len()
    );
    let bytes: usize = files.iter().map(|(_, b)| b.len()).sum();
    assert!(bytes < 200 * 1024, "keep the corpus small: {bytes} bytes");
    let loaded: Vec<&str> = files
        .iter()
        .filter(|(name, b)| replay(name, b))
        .map(|(name, _)| name.as_str())
        .collect();
    // The hand-written seeds (the only files named `*.m3d`) are valid models.
    let seeds = files.iter().filter(|(name, _)| name.ends_with(".m3d"));
    for (name, _) in seeds {
        assert!(loaded.contains(&name.as_str()), "{name} should load");
    }
}
