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
    let files = fuzz_corpus::corpus("x");
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
    // The hand-written seeds (the only files named `*.x`) are valid models.
    for (name, _) in files.iter().filter(|(name, _)| name.ends_with(".x")) {
        assert!(loaded.contains(&name.as_str()), "{name} should load");
    }
}
