//! What the clip-change schedule did over a run, for statistics: how many changes were made,
//! how many were put off because a fade was still under way, and the shortest time between
//! two changes of one instance (the schedule's interval, when it keeps its promise).

/// The running record; see the module documentation.
#[derive(Clone, Debug)]
pub(crate) struct ClipChangeLog {
    now: f64,
    changes: u64,
    deferred: u64,
    /// Each instance's last change, seconds (negative infinity: none yet).
    last: Vec<f64>,
    shortest: f64,
}

/// What the clip-change schedule did over a run ([`CrowdMotion::clip_changes`]).
///
/// [`CrowdMotion::clip_changes`]: super::CrowdMotion::clip_changes
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ClipChangeCounts {
    /// Animated seconds so far.
    pub seconds: f64,
    /// Cross-fades to another clip begun.
    pub changes: u64,
    /// Turns that came while the instance's previous fade was still under way (skipped).
    pub deferred: u64,
    /// The shortest time between two changes of one instance (`None` while none has changed
    /// twice).
    pub shortest_interval_s: Option<f64>,
}

impl ClipChangeLog {
    /// A log for a crowd of `n` (its only allocation).
    pub(crate) fn new(n: usize) -> Self {
        Self {
            now: 0.0,
            changes: 0,
            deferred: 0,
            last: vec![f64::NEG_INFINITY; n],
            shortest: f64::INFINITY,
        }
    }

    /// The run's clock moves on by `dt` seconds.
    pub(crate) fn tick(&mut self, dt: f32) {
        self.now += f64::from(dt);
    }

    /// Instance `i` changed clip now.
    pub(crate) fn changed(&mut self, i: usize) {
        self.changes += 1;
        if let Some(last) = self.last.get_mut(i) {
            self.shortest = self.shortest.min(self.now - *last);
            *last = self.now;
        }
    }

    /// `count` turns were given to a crowd whose state the GPU advances: counted as changes
    /// (the GPU skips a turn that comes during a fade without telling), with no instance's
    /// time between changes.
    pub(crate) fn turns(&mut self, count: u64) {
        self.changes += count;
    }

    /// An instance's turn came while its fade was still under way.
    pub(crate) fn deferred(&mut self) {
        self.deferred += 1;
    }

    /// The counts so far.
    pub(crate) fn counts(&self) -> ClipChangeCounts {
        ClipChangeCounts {
            seconds: self.now,
            changes: self.changes,
            deferred: self.deferred,
            shortest_interval_s: self.shortest.is_finite().then_some(self.shortest),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_counts_changes_and_the_shortest_gap() {
        let mut log = ClipChangeLog::new(2);
        log.changed(0);
        log.tick(1.5);
        log.changed(1);
        log.tick(2.5);
        log.changed(0);
        log.deferred();
        let c = log.counts();
        assert_eq!((c.changes, c.deferred), (3, 1));
        assert_eq!(c.shortest_interval_s, Some(4.0));
        assert_eq!(ClipChangeLog::new(1).counts().shortest_interval_s, None);
    }
}
