//! Replays the texture fuzz corpus (`fuzz/corpus/texture`: DDS, PNG) on stable Rust, the way
//! the fuzz target reads it: probed at load, then decoded and converted as the renderer's
//! upload does. Every input is a texture or a one-line refusal; the seeds all decode.
//! `crash-jpeg-error-two-lines.jpg` is what the first campaign found: the image crate's
//! message for a truncated JPEG spans two lines, and a reason must be one.

use std::path::PathBuf;
use std::sync::Arc;

use throng::asset::texture;

#[test]
fn every_corpus_input_is_read_or_refused_in_one_line() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/texture");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("entry").path())
        .collect();
    names.sort();
    assert!(names.len() >= 7, "the seeds are there");
    for path in &names {
        let bytes = std::fs::read(path).expect("read");
        let name = path.display().to_string();
        let outcome = texture::probe(&name, Arc::from(bytes))
            .and_then(|t| texture::decode(&t))
            .map(|d| (d.to_rgba8(true), d.to_rgba8(false)));
        let file = path.file_name().map(|n| n.to_string_lossy().into_owned());
        match outcome {
            Ok(_) => {}
            Err(e) if SEEDS.contains(&file.as_deref().unwrap_or_default()) => {
                panic!("{name}: a valid seed is refused: {e}")
            }
            Err(e) => assert!(!e.contains('\n'), "{name}: two-line error: {e}"),
        }
    }
}

/// The hand-made seeds, all valid: BC1 (with mips), BC3, BC7 through the DX10 header,
/// A8R8G8B8 with mips, R5G6B5, and a PNG.
const SEEDS: [&str; 7] = [
    "argb-2x2-mips.dds",
    "bc1-4x4.dds",
    "bc1-8x8-mips.dds",
    "bc3-4x4.dds",
    "bc7-dx10-4x4.dds",
    "rgb565-2x1.dds",
    "rgba-2x2.png",
];
