//! Fuzzes the text trajectory readers through `read_bytes`: byte 0 picks the format (PeTrack,
//! Vadere, Pathfinder, ETH/UCY, CSV with fixed columns, or detection), byte 1 the frame rate,
//! unit and name given (`fuzz/structured/trajectory_input.rs`), the rest is the file. Any input
//! must give tracks or a one-line error, never a panic; tracks are walked sample by sample and
//! must be sorted, strictly increasing in time and finite.
//!
//! `cargo +nightly fuzz run trajectory_text fuzz/corpus/trajectory_text -- -dict=fuzz/trajectory_text.dict -max_len=4096`

#![no_main]

use libfuzzer_sys::fuzz_target;

// Each target uses one half of the shared module.
#[allow(dead_code)]
#[path = "../structured/trajectory_input.rs"]
mod trajectory_input;

fuzz_target!(|data: &[u8]| {
    trajectory_input::replay_text(data);
});
