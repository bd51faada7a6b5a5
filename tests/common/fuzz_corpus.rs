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
