//! Which instances change clip this frame, so that each changes every `interval` seconds on
//! average whatever the crowd's size: the crowd owes `n * dt / interval` changes a frame, kept
//! as a fractional balance (a crowd of one changes once every `interval`, not every frame), and
//! they go to the instances in a fixed shuffled order, so each instance's turn comes once per
//! `interval` and a cross-fade shorter than that always ends before the next change.

/// The state of the schedule; see the module documentation.
#[derive(Clone, Debug)]
pub struct ClipSwitcher {
    interval: f32,
    /// Changes owed but not yet made (below one).
    balance: f64,
    /// How many turns have been given out.
    turn: u64,
}

/// A step through the instances that visits each once per round: a prime, used when it
/// shares no factor with the crowd's size.
const STRIDES: [u64; 3] = [104_729, 7_919, 1];

impl ClipSwitcher {
    /// Each instance changes every `interval` seconds on average.
    pub fn new(interval: f32) -> Self {
        Self {
            interval,
            balance: 0.0,
            turn: 0,
        }
    }

    /// The instances (of `n`) whose turn comes in a frame of `dt` seconds, passed to `each`.
    pub fn due(&mut self, n: usize, dt: f32, mut each: impl FnMut(usize)) {
        let positive = |x: f32| x.is_finite() && x > 0.0;
        if n == 0 || !positive(dt) || !positive(self.interval) {
            return;
        }
        self.balance += n as f64 * f64::from(dt) / f64::from(self.interval);
        let changes = self.balance.floor();
        self.balance -= changes;
        let n64 = n as u64;
        let stride = STRIDES
            .into_iter()
            .find(|&s| gcd(s % n64, n64) == 1)
            .unwrap_or(1);
        for _ in 0..changes as u64 {
            each(((self.turn % n64) * (stride % n64) % n64) as usize);
            self.turn += 1;
        }
    }
}

/// What the schedule did over a run, for `--stats-json`: how many changes were made, how
/// many were put off because a fade was still under way, and the shortest time between two
/// changes of one instance (the interval, when the schedule keeps its promise).
#[derive(Clone, Debug)]
pub struct ClipChangeLog {
    now: f64,
    changes: u64,
    deferred: u64,
    /// Each instance's last change, seconds (negative infinity: none yet).
    last: Vec<f64>,
    shortest: f64,
}

impl ClipChangeLog {
    /// A log for a crowd of `n` (its only allocation).
    pub fn new(n: usize) -> Self {
        Self {
            now: 0.0,
            changes: 0,
            deferred: 0,
            last: vec![f64::NEG_INFINITY; n],
            shortest: f64::INFINITY,
        }
    }

    /// The run's clock moves on by `dt` seconds.
    pub fn tick(&mut self, dt: f32) {
        self.now += f64::from(dt);
    }

    /// Instance `i` changed clip now.
    pub fn changed(&mut self, i: usize) {
        self.changes += 1;
        if let Some(last) = self.last.get_mut(i) {
            self.shortest = self.shortest.min(self.now - *last);
            *last = self.now;
        }
    }

    /// Instance's turn came while its fade was still under way.
    pub fn deferred(&mut self) {
        self.deferred += 1;
    }

    /// `"clip_changes"` of `--stats-json`.
    pub fn json(&self) -> ClipChangesJson {
        ClipChangesJson {
            seconds: self.now,
            changes: self.changes,
            deferred: self.deferred,
            shortest_interval_s: self.shortest.is_finite().then_some(self.shortest),
        }
    }
}

/// `"clip_changes"` of `--stats-json`.
#[derive(Debug, Default, serde::Serialize)]
pub struct ClipChangesJson {
    /// Animated seconds of the run.
    pub seconds: f64,
    /// Cross-fades to another clip begun.
    pub changes: u64,
    /// Turns that came while the instance's previous fade was still under way (skipped).
    pub deferred: u64,
    /// The shortest time between two changes of one instance (`null` when none changed
    /// twice).
    pub shortest_interval_s: Option<f64>,
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Seconds at which each of `n` instances changes over `seconds` at 60 frames a second.
    fn schedule(n: usize, seconds: f32) -> Vec<Vec<f32>> {
        let mut s = ClipSwitcher::new(4.0);
        let mut at = vec![Vec::new(); n];
        let dt = 1.0 / 60.0;
        for frame in 0..(seconds / dt) as usize {
            s.due(n, dt, |i| at[i].push(frame as f32 * dt));
        }
        at
    }

    #[test]
    fn each_instance_changes_at_the_interval_whatever_the_crowd() {
        for n in [1, 2, 16, 1000, 104_729] {
            let at = schedule(n, 60.0);
            for (i, times) in at.iter().enumerate() {
                // 60 s at one change every 4 s: 15, give or take the first turn's phase.
                assert!(
                    (14..=15).contains(&times.len()),
                    "crowd of {n}: instance {i} changed {} times",
                    times.len()
                );
                for pair in times.windows(2) {
                    let gap = pair[1] - pair[0];
                    assert!(
                        (gap - 4.0).abs() < 0.05,
                        "crowd of {n}: instance {i} changed {gap} s after its last change"
                    );
                }
            }
        }
    }

    #[test]
    fn the_log_counts_changes_and_the_shortest_gap() {
        let mut log = ClipChangeLog::new(2);
        log.changed(0);
        log.tick(1.5);
        log.changed(1);
        log.tick(2.5);
        log.changed(0);
        log.deferred();
        let j = log.json();
        assert_eq!((j.changes, j.deferred), (3, 1));
        assert_eq!(j.shortest_interval_s, Some(4.0));
        assert_eq!(ClipChangeLog::new(1).json().shortest_interval_s, None);
    }

    #[test]
    fn nothing_is_due_for_nothing() {
        let mut s = ClipSwitcher::new(4.0);
        let mut calls = 0;
        s.due(0, 1.0, |_| calls += 1);
        s.due(10, 0.0, |_| calls += 1);
        s.due(10, f32::NAN, |_| calls += 1);
        s.due(10, f32::INFINITY, |_| calls += 1);
        assert_eq!(calls, 0);
    }
}
