//! `throng play FILE [MODEL...]`: a recorded or simulated crowd (a trajectory file) played
//! back as animated characters walking through the file's walls, headless to PNG frames, a
//! video or a CSV of what was drawn.

mod args;
mod headless;
mod hud;
mod progress;
mod scene;
mod window;

pub use args::PlayArgs;
pub(super) use args::PlayCameraArg;

use super::CliError;

pub fn run(args: &PlayArgs) -> Result<(), CliError> {
    let headless = args.headless
        || args.frames_dir.is_some()
        || args.record.is_some()
        || args.export.is_some()
        || args.screenshot.is_some()
        || std::env::var_os("DISPLAY").is_none_or(|d| d.is_empty());
    let (file, range) = headless::read_file(args)?;
    if headless {
        headless::run(args, file, range)
    } else {
        window::run(args, file, range)
    }
}
