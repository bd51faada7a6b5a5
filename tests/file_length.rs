//! No source file is longer than 600 lines: past that a file holds more than one concern, and
//! the next reader has to find the one they need in it. A module's tests in a sibling
//! `tests.rs` do not count (they may be as long as the behaviour they check needs).

use std::fs;
use std::path::{Path, PathBuf};

/// The most lines a source file may have.
const LIMIT: usize = 600;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_source_file_is_over_600_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    assert!(files.len() > 100, "found only {} files", files.len());
    let mut long: Vec<String> = files
        .iter()
        .filter(|p| p.file_name().is_some_and(|n| n != "tests.rs"))
        .filter_map(|p| {
            let lines = fs::read_to_string(p).ok()?.lines().count();
            (lines > LIMIT).then(|| {
                let name = p.strip_prefix(root).unwrap_or(p).display();
                format!("{name}: {lines} lines")
            })
        })
        .collect();
    long.sort();
    assert!(
        long.is_empty(),
        "over {LIMIT} lines (split by concern; tests go in a sibling tests.rs):\n{}",
        long.join("\n")
    );
}
