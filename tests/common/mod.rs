//! Helpers shared by integration tests.
#![allow(dead_code)]

pub mod ci;
pub mod cli;
pub mod crowds;
pub mod frames;
pub mod naive;
pub mod silhouette;

use std::path::PathBuf;

/// `../shared/assets/<relative>`, the third-party models (never copied into the repo).
pub fn shared_asset(relative: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/assets")
        .join(relative)
}
