//! Reads a committed fuzz corpus (`fuzz/corpus/<target>`) for the replay tests.

use std::path::{Path, PathBuf};

/// The folder of `target`'s corpus.
pub fn corpus_dir(target: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target)
}

/// Every file of `target`'s corpus as (path shown, bytes), sorted by path.
pub fn corpus(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = corpus_dir(target);
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| {
            let path = entry.expect("entry").path();
            let bytes = std::fs::read(&path).expect("read");
            (path.display().to_string(), bytes)
        })
        .collect();
    files.sort();
    files
}

/// Replays every file of `target`'s corpus with `replay` (which returns whether the input
/// loaded), checks the corpus is committed and small (under 100 files, `max_bytes` in all),
/// and that every seed (`is_seed` of its path) loads: seeds are valid models.
pub fn replay_corpus(
    target: &str,
    max_bytes: usize,
    replay: impl Fn(&str, &[u8]) -> bool,
    is_seed: impl Fn(&str) -> bool,
) {
    let files = corpus(target);
    assert!(!files.is_empty(), "the corpus is committed");
    assert!(
        files.len() < 100,
        "keep the corpus small: {} files",
        files.len()
    );
    let bytes: usize = files.iter().map(|(_, b)| b.len()).sum();
    assert!(bytes < max_bytes, "keep the corpus small: {bytes} bytes");
    for (name, bytes) in &files {
        let loaded = replay(name, bytes);
        assert!(loaded || !is_seed(name), "{name} should load");
    }
}
