//! Helpers shared by integration tests.
#![allow(dead_code)]

pub mod ci;
pub mod cli;
pub mod crowds;
pub mod frames;
pub mod naive;
pub mod playback;
pub mod silhouette;

use std::path::PathBuf;

/// `../shared/assets/<relative>`, the third-party models (never copied into the repo).
pub fn shared_asset(relative: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/assets")
        .join(relative)
}

/// The Jülich corridor experiment (`trajectories/uo-180-180-120.txt`: headerless, 16 frames a
/// second, centimetres), read as `throng play` reads it.
pub fn corridor() -> throng::motion::trajectory::Trajectories {
    use throng::motion::trajectory::read;
    read(
        &shared_asset("trajectories/uo-180-180-120.txt"),
        &corridor_options(),
    )
    .expect("the corridor reads")
}

/// How the corridor is read: 16 frames a second, centimetres.
pub fn corridor_options() -> throng::motion::trajectory::ReadOptions {
    use throng::motion::trajectory::{ReadOptions, Units};
    ReadOptions {
        data_fps: Some(16.0),
        units: Some(Units::Centimetres),
        ..ReadOptions::default()
    }
}
