//! Fuzzes the walkable-area readers: byte 0 picks WKT (`parse_wkt`) or a Vadere scenario's JSON
//! (`parse_scenario`), the rest is the text. Any input must give a geometry of finite polygons
//! or a one-line error, never a panic (WKT nests collections: the depth limit is checked too).
//!
//! `cargo +nightly fuzz run trajectory_geometry fuzz/corpus/trajectory_geometry -- -dict=fuzz/trajectory_geometry.dict -max_len=4096`

#![no_main]

use libfuzzer_sys::fuzz_target;

// Each target uses one half of the shared module.
#[allow(dead_code)]
#[path = "../structured/trajectory_input.rs"]
mod trajectory_input;

fuzz_target!(|data: &[u8]| {
    trajectory_input::replay_geometry(data);
});
