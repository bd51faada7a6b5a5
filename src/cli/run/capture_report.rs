//! What a run says about RenderDoc's capture of a frame.

use throng::gpu::{CaptureOutcome, FrameCapture};

use crate::cli::CliError;
use crate::cli::output::{say, shown, warn_line};

/// Says where RenderDoc wrote the capture of `frame`, if this was the frame.
pub(super) fn report_capture(outcome: CaptureOutcome, frame: u64) -> Result<(), CliError> {
    match outcome {
        CaptureOutcome::NotThisFrame => Ok(()),
        CaptureOutcome::Written(path) => say!(
            "captured frame {frame} with RenderDoc: {}",
            shown(&path.display().to_string())
        ),
        CaptureOutcome::NoFile => {
            warn_line(format_args!(
                "warning: RenderDoc captured frame {frame} but reported no capture file"
            ));
            Ok(())
        }
    }
}

/// Warns when the run ended before the frame to capture.
pub(super) fn report_missed_capture(capture: &FrameCapture, frames: u64) {
    if let Some(k) = capture.frame() {
        warn_line(format_args!(
            "warning: frame {k} was not captured: the run ended after {frames} frames"
        ));
    }
}
