//! `throng run [MODEL...]`: a crowd rendered with Vulkan, in a window when a display is
//! available (or asked for), otherwise headless, writing the last frame as PNG.

mod args;
mod capture_report;
mod controls;
mod fly;
mod headless;
mod window;

pub(crate) use args::parse_size;
pub use args::{RunArgs, ViewArg};

use std::path::PathBuf;

use super::CliError;
use super::output::say;

/// A display winit (built for X11) can open.
fn display_available() -> bool {
    std::env::var_os("DISPLAY").is_some_and(|d| !d.is_empty())
}

pub fn run(args: &RunArgs) -> Result<(), CliError> {
    if let (Some(k), Some(frames)) = (args.capture_frame, args.frames)
        && k > frames
    {
        return Err(CliError::Argument(format!(
            "--capture-frame {k} is after the last frame (--frames {frames})"
        )));
    }
    // A screenshot is a headless product: the window shows its frames instead.
    if args.headless || args.screenshot.is_some() {
        return headless::run(args, args.screenshot.clone());
    }
    if !display_available() {
        // `make run` on a machine without a display: still show something.
        let shot = args
            .screenshot
            .clone()
            .unwrap_or_else(|| PathBuf::from("throng-crowd.png"));
        say!("no display (DISPLAY is not set): rendering headless")?;
        return headless::run(args, Some(shot));
    }
    window::run(args)
}
