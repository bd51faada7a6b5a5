//! Running the `throng` program from integration tests.

use std::process::{Command, Output};

use serde_json::Value;

/// Runs `throng` with `args` (and no `RUST_LOG`, so stderr holds only what users see).
pub fn throng(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_throng"))
        .args(args)
        .env_remove("RUST_LOG")
        .output()
        .expect("throng runs")
}

/// Runs `throng`, which must succeed, and parses its stdout as JSON.
pub fn json(args: &[&str]) -> Value {
    let out = throng(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}
