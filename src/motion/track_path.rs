//! One pedestrian's path through time as the file gives it: positions at sample times, joined
//! by straight lines, and that path low-pass filtered by a centred moving average.
//!
//! The moving average of a piecewise-linear path has a closed form: with `F(t)` the integral
//! of the position from the first sample, the average over `[t - h, t + h]` is
//! `(F(t + h) - F(t - h)) / 2h`, and its derivative (the smoothed velocity) is
//! `(P(t + h) - P(t - h)) / 2h`. Both cost a binary search, whatever the window, and neither
//! needs the path resampled. Near either end of the path the window shrinks to fit, so the
//! smoothed path starts and ends where the file does.

use glam::DVec2;

/// A path through time: sample times (seconds, strictly increasing), positions (metres) and
/// the running integral of the position, one per sample.
///
/// A path may hold only part of its track (a playback streaming a file keeps the samples
/// around the time it shows): then its span, the track's first and last times, is set apart
/// from the samples held, and the windows shrink at the track's ends, not at the ends of what
/// is held. Every query within the held samples (less the window) answers as the whole track
/// would, up to rounding.
#[derive(Clone, Debug, Default)]
pub struct TrackPath {
    times: Vec<f64>,
    positions: Vec<DVec2>,
    /// `integral[i]`: the integral of the position from the first sample held to sample `i`
    /// (only differences are read, so dropping samples from the front changes no answer).
    integral: Vec<DVec2>,
    /// The track's first and last sample times.
    span: (f64, f64),
}

/// The longest way a smoothed position may stray from the file's path, metres. A window that
/// averages a sharp turn at speed would cut the corner by more; the smoothed point is pulled
/// back to this distance from the file's position at the same time (a projection onto a
/// disc, so the path stays continuous).
pub const MAX_DEPARTURE: f64 = 0.2;

/// The least half-window a velocity is measured over, seconds: with no smoothing the file's
/// own steps still give the heading and the gait, and one sample's jitter must not flip them.
pub const MIN_VELOCITY_HALF_WINDOW: f64 = 0.1;

impl TrackPath {
    /// The path through `samples` (time, position), which must be strictly increasing in
    /// time (the readers guarantee it); samples that are not are skipped.
    pub fn new(samples: impl IntoIterator<Item = (f64, DVec2)>) -> Self {
        let mut path = TrackPath::default();
        for (t, p) in samples {
            if let Some(&last) = path.times.last()
                && !(t > last)
            {
                continue;
            }
            path.push(t, p);
        }
        path.span = (
            path.times.first().copied().unwrap_or(0.0),
            path.times.last().copied().unwrap_or(0.0),
        );
        path
    }

    /// An empty path with room for `samples` samples.
    pub(crate) fn with_capacity(samples: usize) -> Self {
        Self {
            times: Vec::with_capacity(samples),
            positions: Vec::with_capacity(samples),
            integral: Vec::with_capacity(samples),
            span: (0.0, 0.0),
        }
    }

    /// Empties the path, keeping its room, for a track spanning `first` to `last`.
    pub(crate) fn reset(&mut self, first: f64, last: f64) {
        self.times.clear();
        self.positions.clear();
        self.integral.clear();
        self.span = (first, last);
    }

    /// Adds a sample after the last held; one not later than it is skipped (a chunk's copy of
    /// a sample already held).
    pub(crate) fn extend_with(&mut self, t: f64, p: DVec2) {
        if self.times.last().is_none_or(|&last| t > last) {
            self.push(t, p);
        }
    }

    /// Drops the samples held before `t` but the last of them (the segment holding `t` keeps
    /// both ends).
    pub(crate) fn forget_before(&mut self, t: f64) {
        let k = self.times.partition_point(|&s| s < t);
        if k > 1 {
            self.times.drain(..k - 1);
            self.positions.drain(..k - 1);
            self.integral.drain(..k - 1);
        }
    }

    /// The first sample held's time, if any.
    pub(crate) fn first_held(&self) -> Option<f64> {
        self.times.first().copied()
    }

    /// The room the path holds, in samples.
    pub(crate) fn capacity(&self) -> usize {
        self.times.capacity()
    }

    fn push(&mut self, t: f64, p: DVec2) {
        let integral = match (
            self.times.last(),
            self.positions.last(),
            self.integral.last(),
        ) {
            (Some(&t0), Some(&p0), Some(&f0)) => f0 + (t - t0) * 0.5 * (p0 + p),
            _ => DVec2::ZERO,
        };
        self.times.push(t);
        self.positions.push(p);
        self.integral.push(integral);
    }

    /// Number of samples held.
    pub fn len(&self) -> usize {
        self.times.len()
    }

    /// Whether the path has no sample.
    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }

    /// The track's first sample time (0 for an empty path).
    pub fn start(&self) -> f64 {
        self.span.0
    }

    /// The track's last sample time (0 for an empty path).
    pub fn end(&self) -> f64 {
        self.span.1
    }

    /// Whether the pedestrian is present at `t`: from its first sample to its last.
    pub fn covers(&self, t: f64) -> bool {
        !self.is_empty() && t >= self.start() && t <= self.end()
    }

    /// The segment `[i, i + 1]` holding `t`, clamped to the path, and the fraction along it.
    fn locate(&self, t: f64) -> (usize, f64) {
        let n = self.times.len();
        if n < 2 || !(t > self.times[0]) {
            return (0, 0.0);
        }
        if t >= self.times[n - 1] {
            return (n - 2, 1.0);
        }
        // First sample after t; t lies in (times[0], times[n - 1]), so 1 <= k <= n - 1.
        let k = self.times.partition_point(|&s| s <= t);
        let i = k - 1;
        let span = self.times[k] - self.times[i];
        (i, (t - self.times[i]) / span)
    }

    /// The file's position at `t`: linear between samples, held before the first and after
    /// the last.
    pub fn position(&self, t: f64) -> DVec2 {
        match self.positions.len() {
            0 => DVec2::ZERO,
            1 => self.positions[0],
            _ => {
                let (i, f) = self.locate(t);
                self.positions[i].lerp(self.positions[i + 1], f)
            }
        }
    }

    /// The integral of the position from the first sample to `t` (clamped to the path).
    fn integral_at(&self, t: f64) -> DVec2 {
        if self.positions.len() < 2 {
            return DVec2::ZERO;
        }
        let (i, f) = self.locate(t);
        let dt = f * (self.times[i + 1] - self.times[i]);
        let p = self.positions[i].lerp(self.positions[i + 1], f);
        self.integral[i] + dt * 0.5 * (self.positions[i] + p)
    }

    /// The half-window `half` shrunk so that `[t - h, t + h]` stays on the path.
    fn fitted(&self, t: f64, half: f64) -> f64 {
        half.min(t - self.start()).min(self.end() - t).max(0.0)
    }

    /// The position at `t` smoothed by a centred moving average over `window` seconds (0:
    /// the file's position), never further than [`MAX_DEPARTURE`] from it.
    pub fn smoothed(&self, t: f64, window: f64) -> DVec2 {
        let exact = self.position(t);
        let h = self.fitted(t, 0.5 * window);
        if !(h > 1e-9) {
            return exact;
        }
        let mean = (self.integral_at(t + h) - self.integral_at(t - h)) / (2.0 * h);
        let off = mean - exact;
        let d = off.length();
        if d > MAX_DEPARTURE {
            exact + off * (MAX_DEPARTURE / d)
        } else {
            mean
        }
    }

    /// The velocity (metres per second) at `t` of the path smoothed over `window` seconds:
    /// the difference of the file's positions across the window, measured over at least
    /// [`MIN_VELOCITY_HALF_WINDOW`] each side, one-sided at the path's ends.
    pub fn velocity(&self, t: f64, window: f64) -> DVec2 {
        let h = (0.5 * window).max(MIN_VELOCITY_HALF_WINDOW);
        let a = (t - h).max(self.start());
        let b = (t + h).min(self.end());
        if !(b - a > 1e-9) {
            return DVec2::ZERO;
        }
        (self.position(b) - self.position(a)) / (b - a)
    }

    /// The sample times held.
    pub fn times(&self) -> &[f64] {
        &self.times
    }

    /// The sample positions held.
    pub fn positions(&self) -> &[DVec2] {
        &self.positions
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line() -> TrackPath {
        // Along x at 1 m/s for 2 s, then along y at 2 m/s for 1 s.
        TrackPath::new([
            (10.0, DVec2::new(0.0, 0.0)),
            (11.0, DVec2::new(1.0, 0.0)),
            (12.0, DVec2::new(2.0, 0.0)),
            (13.0, DVec2::new(2.0, 2.0)),
        ])
    }

    #[test]
    fn positions_are_linear_between_samples_and_held_outside() {
        let p = line();
        assert_eq!(p.position(10.0), DVec2::new(0.0, 0.0));
        assert_eq!(p.position(11.5), DVec2::new(1.5, 0.0));
        assert_eq!(p.position(12.25), DVec2::new(2.0, 0.5));
        assert_eq!(p.position(9.0), DVec2::new(0.0, 0.0));
        assert_eq!(p.position(20.0), DVec2::new(2.0, 2.0));
        assert!(p.covers(10.0) && p.covers(13.0) && !p.covers(13.01) && !p.covers(9.99));
    }

    #[test]
    fn no_window_is_the_file_and_a_straight_line_is_kept() {
        let p = line();
        for k in 0..=30 {
            let t = 10.0 + 0.1 * k as f64;
            assert_eq!(p.smoothed(t, 0.0), p.position(t));
        }
        // On the straight first leg a centred average is the point itself.
        let s = p.smoothed(11.0, 1.0);
        assert!((s - DVec2::new(1.0, 0.0)).length() < 1e-12, "{s}");
        // The ends are kept.
        assert_eq!(p.smoothed(10.0, 1.0), p.position(10.0));
        assert_eq!(p.smoothed(13.0, 1.0), p.position(13.0));
    }

    #[test]
    fn the_average_matches_a_numerical_integral_and_cuts_the_corner_inwards() {
        let p = line();
        let (t, w) = (12.0, 0.5);
        let n = 4000;
        let mut sum = DVec2::ZERO;
        for k in 0..n {
            let s = t - 0.25 + 0.5 * (k as f64 + 0.5) / n as f64;
            sum += p.position(s);
        }
        let numeric = sum / n as f64;
        let closed = p.smoothed(t, w);
        assert!((numeric - closed).length() < 1e-6, "{numeric} {closed}");
        // Inside the corner: behind on x, ahead on y.
        assert!(closed.x < 2.0 && closed.y > 0.0);
    }

    #[test]
    fn departures_are_bounded() {
        // A reversal at 3 m/s: a 2 s window would average the point far back.
        let p = TrackPath::new([
            (0.0, DVec2::new(0.0, 0.0)),
            (2.0, DVec2::new(6.0, 0.0)),
            (4.0, DVec2::new(0.0, 0.0)),
        ]);
        let s = p.smoothed(2.0, 2.0);
        assert!(((s - p.position(2.0)).length() - MAX_DEPARTURE).abs() < 1e-9);
    }

    #[test]
    fn velocity_is_the_slope_and_one_sided_at_the_ends() {
        let p = line();
        assert!((p.velocity(10.5, 0.0) - DVec2::new(1.0, 0.0)).length() < 1e-12);
        assert!((p.velocity(12.5, 0.5) - DVec2::new(0.0, 2.0)).length() < 1e-12);
        assert!((p.velocity(10.0, 0.0) - DVec2::new(1.0, 0.0)).length() < 1e-12);
        assert!((p.velocity(13.0, 0.0) - DVec2::new(0.0, 2.0)).length() < 1e-12);
        assert_eq!(
            TrackPath::new([(1.0, DVec2::ONE)]).velocity(1.0, 1.0),
            DVec2::ZERO
        );
    }

    #[test]
    fn samples_out_of_order_are_skipped() {
        let p = TrackPath::new([(1.0, DVec2::ZERO), (1.0, DVec2::ONE), (0.5, DVec2::ONE)]);
        assert_eq!(p.len(), 1);
    }
}
