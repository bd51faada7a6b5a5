//! The progress bar of a headless playback: one line on the terminal, rewritten in place at
//! most ten times a second; nothing when standard error is not a terminal.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// See the module documentation.
pub struct Progress {
    total: u64,
    shown: bool,
    last: Option<Instant>,
}

/// Cells of the bar.
const WIDTH: usize = 30;

impl Progress {
    /// A bar to `total` frames; silent with `quiet` or off a terminal.
    pub fn new(total: u64, quiet: bool) -> Self {
        Self {
            total: total.max(1),
            shown: !quiet && std::io::stderr().is_terminal(),
            last: None,
        }
    }

    /// Frame `done` of the total is written, at file time `t` with `present` pedestrians.
    pub fn update(&mut self, done: u64, t: f64, present: usize) {
        if !self.shown {
            return;
        }
        let now = Instant::now();
        if done < self.total
            && self
                .last
                .is_some_and(|l| now.duration_since(l) < Duration::from_millis(100))
        {
            return;
        }
        self.last = Some(now);
        let filled = (WIDTH as u64 * done / self.total) as usize;
        let bar: String = (0..WIDTH)
            .map(|i| if i < filled { '#' } else { '.' })
            .collect();
        let mut err = std::io::stderr().lock();
        // A broken terminal is no reason to stop rendering.
        let _ = write!(
            err,
            "\r[{bar}] {done}/{} frames, file time {t:.2} s, {present} present ",
            self.total
        );
        let _ = err.flush();
    }

    /// Ends the bar's line.
    pub fn finish(&mut self) {
        if self.shown {
            let _ = writeln!(std::io::stderr());
            self.shown = false;
        }
    }
}
