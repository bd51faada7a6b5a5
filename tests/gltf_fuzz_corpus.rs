//! Replays the fuzz corpus of the `gltf` target (`fuzz/corpus/gltf`) and the inputs that
//! crashed the loader (`tests/gltf_regressions`, see `fuzz_regressions` below) through
//! `asset::gltf::parse` on stable Rust, so CI runs them without cargo-fuzz: every input
//! must load or fail with an error, never panic.
//!
//! The seed corpus is written by a tool, not a test: `cargo run --example gltf_seed_corpus`
//! (or `make seed-corpus`; see `examples/gltf_seed_corpus.rs`).

use std::path::{Path, PathBuf};

use throng::asset::gltf::parse;

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/gltf")
}

/// Loads `bytes` and, if that works, evaluates and skins a little, as the fuzz target does.
fn replay(name: &str, bytes: &[u8]) -> bool {
    let Ok(model) = parse(name, bytes, None) else {
        return false;
    };
    model.exercise();
    true
}

#[test]
fn every_corpus_file_loads_or_fails_cleanly() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .expect("fuzz/corpus/gltf exists")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    assert!(
        files.len() >= 8,
        "the seed corpus has {} files",
        files.len()
    );
    let total: u64 = files
        .iter()
        .map(|f| f.metadata().expect("meta").len())
        .sum();
    assert!(
        files.len() < 100 && total < 300_000,
        "{} files, {total} bytes",
        files.len()
    );
    let mut loaded = 0;
    for file in &files {
        let bytes = std::fs::read(file).expect("readable");
        loaded += usize::from(replay("fuzz.gltf", &bytes));
    }
    // The seeds themselves are valid models.
    assert!(
        loaded >= 8,
        "only {loaded} of {} corpus files load",
        files.len()
    );
}

/// Inputs that panicked before their fix (`tests/gltf_regressions`): the `gltf` crate's
/// accessors unwrap animation channel targets that its validation never checks, and its
/// validation indexes a primitive's POSITION accessor without a bounds check. Each must now
/// fail with an error. Crashes found by the fuzzer go here too.
#[test]
fn fuzz_regressions() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gltf_regressions");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).expect("tests/gltf_regressions exists") {
        let path = entry.expect("entry").path();
        let bytes = std::fs::read(&path).expect("readable");
        let name = path.display().to_string();
        let result = std::panic::catch_unwind(|| parse(&name, &bytes, None).map(|_| ()));
        let err = result
            .unwrap_or_else(|_| panic!("{name}: the loader panicked"))
            .expect_err("a regression input is damaged");
        assert!(err.to_string().starts_with(&name), "{err}");
        count += 1;
    }
    assert!(count >= 3);
}
