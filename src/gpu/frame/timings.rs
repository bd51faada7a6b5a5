//! GPU time per frame and per pass, from the timestamps each frame in flight writes around
//! itself and around every pass; read back once the frame has completed, never waited for.

use crate::gpu::frame::frame_io::PassTime;
use crate::gpu::frame::in_flight::{InFlightFrame, MAX_PASSES};

/// Timestamps read so far; see the module documentation.
#[derive(Debug)]
pub struct GpuTimings {
    /// Reused to read a frame's timestamps.
    scratch: Vec<u64>,
    /// The latest frame's GPU milliseconds.
    last_ms: Option<f64>,
    /// Sum of every GPU frame time read so far, and how many.
    total: (f64, u64),
    /// Per pass, in the order the passes first ran.
    passes: Vec<PassTime>,
}

impl Default for GpuTimings {
    fn default() -> Self {
        Self {
            scratch: vec![0; 2 + 2 * MAX_PASSES],
            last_ms: None,
            total: (0.0, 0),
            passes: Vec::new(),
        }
    }
}

impl GpuTimings {
    /// Reads `frame`'s timestamps if it has unread ones (it has completed).
    pub fn collect(&mut self, frame: &mut InFlightFrame) {
        let steps = frame.pass_names.len();
        let count = 2 + 2 * steps as u32;
        if !frame.read_timestamps(count, &mut self.scratch) {
            return;
        }
        let t = &self.scratch;
        let ms = |a: u64, b: u64| b.saturating_sub(a) as f64 / 1e6;
        let total = ms(t[0], t[1]);
        self.last_ms = Some(total);
        self.total.0 += total;
        self.total.1 += 1;
        for (k, name) in frame.pass_names.iter().enumerate() {
            let pass = ms(t[2 + 2 * k], t[3 + 2 * k]);
            match self.passes.iter_mut().find(|p| p.name == *name) {
                Some(p) => {
                    p.total_ms += pass;
                    p.frames += 1;
                    p.last_ms = pass;
                }
                None => self.passes.push(PassTime {
                    name,
                    total_ms: pass,
                    frames: 1,
                    last_ms: pass,
                }),
            }
        }
    }

    /// The latest frame's GPU milliseconds read.
    pub fn last_ms(&self) -> Option<f64> {
        self.last_ms
    }

    /// The average GPU milliseconds per frame read so far.
    pub fn average_ms(&self) -> Option<f64> {
        let (sum, n) = self.total;
        (n > 0).then(|| sum / n as f64)
    }

    /// GPU time per pass, in the order the passes first ran.
    pub fn passes(&self) -> &[PassTime] {
        &self.passes
    }

    /// Forgets the times read so far (a benchmark's warm-up).
    pub fn reset(&mut self) {
        self.total = (0.0, 0);
        self.passes.clear();
    }
}
