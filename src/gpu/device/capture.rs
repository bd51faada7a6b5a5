//! RenderDoc frame capture through RenderDoc's in-app API (crate `renderdoc`).
//!
//! The API exists only when the program runs under RenderDoc (`renderdoccmd capture -w ...`,
//! or `ENABLE_VULKAN_RENDERDOC_CAPTURE=1`, which makes the Vulkan loader load RenderDoc's
//! layer): `librenderdoc.so` is then already in the process, and [`FrameCapture::new`] finds
//! it. Otherwise asking for a capture costs one warning line and the run goes on.
//!
//! Create the [`FrameCapture`] after the Vulkan instance (the layer is loaded with it), then
//! call [`FrameCapture::begin`] before a frame is recorded and [`FrameCapture::end`] after it
//! is submitted (and presented): the one frame asked for is written to a `.rdc` file whose
//! path `end` returns. Device and window are wildcards, so whatever device is active is
//! captured.

use std::io::Write as _;
use std::path::PathBuf;

use renderdoc::{RenderDoc, V141};

/// Captures one frame, counted from 1, when the program runs under RenderDoc.
pub struct FrameCapture {
    /// The API, when RenderDoc is loaded and a frame is wanted.
    api: Option<RenderDoc<V141>>,
    /// The frame to capture (1 is the first frame rendered).
    frame: u64,
    /// A capture has been started and not yet ended.
    capturing: bool,
    /// The frame was captured (or tried): nothing more to do.
    done: bool,
}

impl std::fmt::Debug for FrameCapture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FrameCapture")
            .field("under_renderdoc", &self.api.is_some())
            .field("frame", &self.frame)
            .field("capturing", &self.capturing)
            .field("done", &self.done)
            .finish()
    }
}

/// What became of a capture that [`FrameCapture::end`] closed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CaptureOutcome {
    /// This frame was not the one asked for, or no capture is active.
    NotThisFrame,
    /// RenderDoc wrote the frame to this file.
    Written(PathBuf),
    /// RenderDoc ended the capture but reported no new file.
    NoFile,
}

impl FrameCapture {
    /// Prepares to capture frame `frame` (1-based), or nothing with `None`. Call it after the
    /// Vulkan instance exists. Not running under RenderDoc is not an error: it prints one
    /// warning line (on stderr) and returns a capture that does nothing.
    pub fn new(frame: Option<u64>) -> Self {
        let Some(frame) = frame else {
            return Self::inactive();
        };
        match RenderDoc::<V141>::new() {
            Ok(api) => {
                let (major, minor, patch) = api.get_api_version();
                log::info!("RenderDoc API {major}.{minor}.{patch}: capturing frame {frame}");
                Self {
                    api: Some(api),
                    frame,
                    capturing: false,
                    done: false,
                }
            }
            Err(e) => {
                // Never a panic when stderr cannot be written: a warning is not worth one.
                let _ = writeln!(
                    std::io::stderr().lock(),
                    "warning: --capture-frame {frame} ignored: not running under RenderDoc ({}); \
                     start with `renderdoccmd capture -w ...`",
                    crate::text::printable(&e.to_string())
                );
                Self::inactive()
            }
        }
    }

    /// A capture that never captures anything.
    pub fn inactive() -> Self {
        Self {
            api: None,
            frame: 0,
            capturing: false,
            done: true,
        }
    }

    /// Whether RenderDoc is present and the frame has not been captured yet.
    pub fn pending(&self) -> bool {
        self.api.is_some() && !self.done
    }

    /// The frame this capture waits for (1-based), while it is pending.
    pub fn frame(&self) -> Option<u64> {
        self.pending().then_some(self.frame)
    }

    /// Starts capturing if `frame` (1-based) is the one asked for. Call before the frame's
    /// commands are recorded.
    pub fn begin(&mut self, frame: u64) {
        if self.done || self.capturing || frame != self.frame {
            return;
        }
        let Some(api) = self.api.as_mut() else { return };
        api.start_frame_capture(std::ptr::null(), std::ptr::null());
        self.capturing = true;
    }

    /// Ends the capture started by [`Self::begin`] for `frame`, after its submit (and
    /// present), and says where RenderDoc wrote it.
    pub fn end(&mut self, frame: u64) -> CaptureOutcome {
        if !self.capturing || frame != self.frame {
            return CaptureOutcome::NotThisFrame;
        }
        let Some(api) = self.api.as_mut() else {
            return CaptureOutcome::NotThisFrame;
        };
        let before = api.get_num_captures();
        api.end_frame_capture(std::ptr::null(), std::ptr::null());
        self.capturing = false;
        self.done = true;
        let after = api.get_num_captures();
        if after > before {
            match api.get_capture(after - 1) {
                Some((path, _time)) => CaptureOutcome::Written(path),
                None => CaptureOutcome::NoFile,
            }
        } else {
            CaptureOutcome::NoFile
        }
    }
}

impl Drop for FrameCapture {
    fn drop(&mut self) {
        // A run that stopped (an error) between begin and end: throw the half-captured
        // frame away rather than leave RenderDoc capturing.
        if self.capturing
            && let Some(api) = self.api.as_mut()
        {
            api.discard_frame_capture(std::ptr::null(), std::ptr::null());
        }
    }
}
