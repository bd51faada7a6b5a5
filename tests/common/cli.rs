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

/// Whether a run failed for want of a Vulkan device; says so and skips, except under
/// CI (`common::ci::under_ci`), where it is a failure.
pub fn no_vulkan_device(out: &Output) -> bool {
    let stderr = String::from_utf8_lossy(&out.stderr);
    let missing = !out.status.success() && stderr.contains("no Vulkan");
    if missing {
        assert!(
            !super::ci::under_ci(),
            "no Vulkan device under CI: {stderr}"
        );
        eprintln!("skipped: no Vulkan device here ({stderr}); CI=true makes this a failure");
    }
    missing
}
