//! Which instances change clip this frame, so that each changes every `interval` seconds on
//! average whatever the crowd's size: the crowd owes `n * dt / interval` changes a frame, kept
//! as a fractional balance (a crowd of one changes once every `interval`, not every frame), and
//! they go to the instances in a fixed shuffled order, so each instance's turn comes once per
//! `interval` and a cross-fade shorter than that always ends before the next change.

/// The state of the schedule; see the module documentation.
#[derive(Clone, Debug)]
pub(crate) struct ClipChangeSchedule {
    interval: f32,
    /// Changes owed but not yet made (below one).
    balance: f64,
    /// How many turns have been given out.
    turn: u64,
}

/// A step through the instances that visits each once per round: a prime, used when it
/// shares no factor with the crowd's size.
const STRIDES: [u64; 3] = [104_729, 7_919, 1];

impl ClipChangeSchedule {
    /// Each instance changes every `interval` seconds on average.
    pub(crate) fn new(interval: f32) -> Self {
        Self {
            interval,
            balance: 0.0,
            turn: 0,
        }
    }

    /// The instances (of `n`) whose turn comes in a frame of `dt` seconds, passed to `each`.
    pub(crate) fn due(&mut self, n: usize, dt: f32, mut each: impl FnMut(usize)) {
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
        let mut s = ClipChangeSchedule::new(4.0);
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
    fn nothing_is_due_for_nothing() {
        let mut s = ClipChangeSchedule::new(4.0);
        let mut calls = 0;
        s.due(0, 1.0, |_| calls += 1);
        s.due(10, 0.0, |_| calls += 1);
        s.due(10, f32::NAN, |_| calls += 1);
        s.due(10, f32::INFINITY, |_| calls += 1);
        assert_eq!(calls, 0);
    }
}
