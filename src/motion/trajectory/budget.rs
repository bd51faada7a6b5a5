//! The memory budget: tracks grow only while their approximate size stays under it, so a file
//! cannot make the reader allocate more than the caller allowed.

use std::mem::size_of;

use super::fields::thousands;
use super::{Sample, Track};

/// Approximate bytes one sample takes in a track.
pub(crate) const SAMPLE_BYTES: u64 = size_of::<Sample>() as u64;
/// Approximate bytes one pedestrian takes: its `Track`, its id's slot in the reader's index, and
/// the reader's per-pedestrian state.
pub(crate) const TRACK_BYTES: u64 = size_of::<Track>() as u64 + 64;

/// Bytes counted against a limit.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Budget {
    limit: u64,
}

/// `bytes` in megabytes with one decimal (`288.0 MB`).
fn megabytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

impl Budget {
    /// A budget of `limit` bytes.
    pub(crate) fn new(limit: u64) -> Self {
        Self { limit }
    }

    /// The limit, bytes.
    pub(crate) fn limit(&self) -> u64 {
        self.limit
    }

    /// Whether `samples` samples of `tracks` pedestrians fit; the refusal says how much they need.
    pub(crate) fn check(&self, samples: u64, tracks: u64) -> Result<(), String> {
        let need = samples
            .saturating_mul(SAMPLE_BYTES)
            .saturating_add(tracks.saturating_mul(TRACK_BYTES));
        if need <= self.limit {
            return Ok(());
        }
        Err(format!(
            "{} samples of {} pedestrian{} need {}, over the budget of {} (--max-memory)",
            thousands(samples),
            thousands(tracks),
            if tracks == 1 { "" } else { "s" },
            megabytes(need),
            megabytes(self.limit)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::{Budget, SAMPLE_BYTES};

    #[test]
    fn refuses_over_the_limit() {
        let b = Budget::new(100 * SAMPLE_BYTES);
        assert!(b.check(10, 1).is_ok());
        let e = b.check(12_000_000, 1).unwrap_err();
        assert!(
            e.starts_with("12,000,000 samples of 1 pedestrian need"),
            "{e}"
        );
        assert!(e.ends_with("(--max-memory)"));
    }
}
