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
        let (first, changes) = self.take(n, dt);
        let Some(order) = TurnOrder::new(n) else {
            return;
        };
        for turn in first..first + changes {
            each(order.instance(turn));
        }
    }

    /// Gives out a frame of `dt` seconds' turns without naming their instances: the first
    /// turn and how many (turns `first..first + count` go to [`TurnOrder::instance`]). The
    /// GPU's copy of the crowd's state finds its own turns from these ([`TurnOrder::turn_of`]).
    pub(crate) fn take(&mut self, n: usize, dt: f32) -> (u64, u64) {
        let positive = |x: f32| x.is_finite() && x > 0.0;
        if n == 0 || !positive(dt) || !positive(self.interval) {
            return (self.turn, 0);
        }
        self.balance += n as f64 * f64::from(dt) / f64::from(self.interval);
        let changes = self.balance.floor();
        self.balance -= changes;
        let first = self.turn;
        self.turn += changes as u64;
        (first, changes as u64)
    }
}

/// Which instance each turn goes to in a crowd of `n`: turn `t` to `(t mod n) * stride mod
/// n`, for a stride that shares no factor with `n` (so a round of `n` turns visits everyone
/// once), and back: an instance's own turn within the round.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TurnOrder {
    n: u64,
    stride: u64,
    /// The stride's inverse modulo `n`.
    inverse: u64,
}

impl TurnOrder {
    /// The order for a crowd of `n` (`None` for none).
    pub(crate) fn new(n: usize) -> Option<Self> {
        let n = n as u64;
        if n == 0 {
            return None;
        }
        let stride = STRIDES
            .into_iter()
            .find(|&s| gcd(s % n, n) == 1)
            .unwrap_or(1)
            % n;
        Some(Self {
            n,
            stride,
            inverse: inverse_mod(stride, n),
        })
    }

    /// The instance turn `turn` goes to.
    pub(crate) fn instance(&self, turn: u64) -> usize {
        ((turn % self.n) * self.stride % self.n) as usize
    }

    /// Instance `i`'s place in the round: the turns `k` with `k mod n` equal to it are its.
    pub(crate) fn turn_of(&self, i: usize) -> u32 {
        ((i as u64 % self.n) * self.inverse % self.n) as u32
    }
}

/// `a`'s inverse modulo `n`, for `a` prime to `n` (extended Euclid; 0 when `n` is 1).
fn inverse_mod(a: u64, n: u64) -> u64 {
    let (mut r0, mut r1) = (n as i128, a as i128);
    let (mut t0, mut t1) = (0i128, 1i128);
    while r1 != 0 {
        let q = r0 / r1;
        (r0, r1) = (r1, r0 - q * r1);
        (t0, t1) = (t1, t0 - q * t1);
    }
    t0.rem_euclid(n as i128) as u64
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
    fn an_instance_finds_its_own_turns() {
        for n in [1, 2, 3, 16, 1000, 7_919, 104_729, 209_458] {
            let order = TurnOrder::new(n).expect("a crowd");
            let mut seen = vec![false; n];
            for turn in 0..n as u64 {
                let i = order.instance(turn + 5 * n as u64);
                assert!(!seen[i], "crowd of {n}: {i} twice in a round");
                seen[i] = true;
                assert_eq!(u64::from(order.turn_of(i)), turn, "crowd of {n}");
            }
        }
        assert!(TurnOrder::new(0).is_none());
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
