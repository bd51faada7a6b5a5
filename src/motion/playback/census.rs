//! Counts over a file's pedestrians that size a playback's room up front.

use crate::motion::trajectory::TrackSummary;

/// The most pedestrians present at once (a pedestrian is present from its first sample to
/// its last, both included).
pub(super) fn most_present(peds: &[TrackSummary]) -> usize {
    most_overlapping(peds, 0.0)
}

/// The most pedestrians whose spans overlap at once, each span started `lead` seconds before
/// the pedestrian's first sample (both ends included).
pub(super) fn most_overlapping(peds: &[TrackSummary], lead: f64) -> usize {
    let mut events: Vec<(f64, i32)> = Vec::with_capacity(2 * peds.len());
    for p in peds {
        events.push((p.start - lead, 1));
        events.push((p.end, -1));
    }
    // Entries before exits at the same time: both are present at that instant.
    events.sort_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)));
    let (mut now, mut most) = (0i64, 0i64);
    for (_, d) in events {
        now += i64::from(d);
        most = most.max(now);
    }
    most as usize
}

/// The most samples a path is given room for up front; one sampled faster grows once.
pub(super) const MAX_RESERVED_SAMPLES: usize = 2048;

/// Samples per second of a pedestrian's track, the 95th percentile over the file (a few
/// tracks with samples bunched together do not set everybody's room).
pub(super) fn sample_rate(peds: &[TrackSummary]) -> f64 {
    let mut rates: Vec<f64> = peds
        .iter()
        .filter(|p| p.samples > 1 && p.end > p.start)
        .map(|p| (p.samples - 1) as f64 / (p.end - p.start))
        .collect();
    rates.sort_by(f64::total_cmp);
    rates.get(rates.len() * 95 / 100).copied().unwrap_or(0.0)
}
