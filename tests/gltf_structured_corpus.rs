//! Replays the corpus of the structure-aware glTF fuzz target (`fuzz/corpus/gltf_structured`)
//! on stable Rust: each file's bytes are read as choices that build a glTF file
//! (`fuzz/structured/gltf_json.rs`, the generator the target uses), which must load or fail
//! with one error line, never panic, and whose load must stay within its memory budget
//! (measured with a counting allocator), as `-rss_limit_mb` demands of the fuzz target.

use std::path::{Path, PathBuf};

use arbitrary::Unstructured;
use throng::asset::budget::{ALLOWANCE, DEFAULT_MAX_MEMORY, PER_INPUT_BYTE};
use throng::asset::gltf::parse;

#[path = "common/counting_alloc.rs"]
mod counting_alloc;
#[path = "../fuzz/structured/gltf_json.rs"]
mod gltf_json;

use counting_alloc::{peak_of, serial};

#[global_allocator]
static ALLOCATOR: counting_alloc::Counting = counting_alloc::Counting;

/// Builds the model `bytes` describe, loads it and evaluates a little; returns whether it
/// loaded. Panics when the load's peak heap passes its budget.
fn replay(name: &str, bytes: &[u8]) -> bool {
    let Ok(json) = gltf_json::gltf_json(&mut Unstructured::new(bytes)) else {
        return false;
    };
    let (result, peak) = peak_of(|| parse("fuzz.gltf", json.as_bytes(), None));
    let budget = (ALLOWANCE + PER_INPUT_BYTE * json.len() as u64).min(DEFAULT_MAX_MEMORY) as usize;
    assert!(
        peak <= budget,
        "{name}: the load of {} bytes of JSON peaked at {peak} bytes, over its budget of {budget}",
        json.len()
    );
    let model = match result {
        Ok(model) => model,
        Err(e) => {
            let line = e.to_string();
            assert!(!line.contains('\n'), "{name}: {line}");
            return false;
        }
    };
    model.exercise();
    true
}

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/gltf_structured")
}

#[test]
fn every_corpus_input_loads_or_fails_within_its_budget() {
    let _serial = serial();
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .expect("fuzz/corpus/gltf_structured exists")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    let total: u64 = files
        .iter()
        .map(|f| f.metadata().expect("meta").len())
        .sum();
    assert!(
        !files.is_empty() && files.len() < 100 && total < 300_000,
        "{} files, {total} bytes",
        files.len()
    );
    let mut loaded = 0;
    for file in &files {
        let bytes = std::fs::read(file).expect("readable");
        loaded += usize::from(replay(&file.display().to_string(), &bytes));
    }
    // The corpus reaches past validation: some of its models load.
    assert!(loaded > 0, "none of {} corpus inputs loads", files.len());
}

#[test]
fn pseudo_random_choices_load_or_fail_within_their_budget() {
    let _serial = serial();
    // A fixed stream of choices (xorshift), independent of the corpus: 300 more models.
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for i in 0..300 {
        let len = 64 + (i % 7) * 200;
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state >> 24) as u8
            })
            .collect();
        replay(&format!("stream {i}"), &bytes);
    }
}
