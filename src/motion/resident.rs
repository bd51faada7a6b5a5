//! The samples a playback holds: per pedestrian, the part of its track around the time shown,
//! read from a [`TrackStore`] chunk by chunk as the time goes on, and dropped behind it.
//!
//! Going forward, each step reads the chunks up to `ahead` seconds past the time shown and
//! forgets, in each path it adds to, the samples more than `behind` seconds before it (keeping
//! the one before, so the segment there keeps both ends): a path holds the smoothing window
//! and a chunk or two, whatever the file's duration. A pedestrian's path goes back to a pool
//! when it leaves, and the next one to arrive takes its room, so that a steady crowd
//! allocates nothing. A seek drops everything and reads the chunks around the new time;
//! pedestrians present there in the middle of a gap longer than a chunk (nothing of theirs in
//! those chunks) are found by reading back to the chunk where their gap starts.

use glam::DVec2;

use super::track_path::{MIN_VELOCITY_HALF_WINDOW, TrackPath};
use super::trajectory::{CHUNK_SECONDS, StoredSample, TrackStore, TrajectoryError, chunk_of};

/// See the module documentation.
pub(crate) struct ResidentPaths {
    /// Per pedestrian, the part of its track held (empty when none).
    paths: Vec<TrackPath>,
    /// Per pedestrian, the read in which its path was last trimmed.
    trimmed_in: Vec<u32>,
    /// Rooms of paths given back.
    pool: Vec<TrackPath>,
    /// Chunks read so far (a counter).
    reads: u32,
    /// The last chunk read going forward.
    read_to: Option<i64>,
    /// A chunk's samples, its room kept.
    records: Vec<StoredSample>,
    /// Seconds held before and after the time shown.
    behind: f64,
    ahead: f64,
}

impl ResidentPaths {
    /// Room for `peds` pedestrians, for a playback smoothing over `smooth` seconds and looking
    /// `look_ahead` seconds ahead (a pedestrian entering faces where it will go), with at most
    /// `most_present` present at once.
    pub(crate) fn new(peds: usize, smooth: f64, look_ahead: f64, most_present: usize) -> Self {
        let half = 0.5 * smooth.max(0.0);
        Self {
            paths: vec![TrackPath::default(); peds],
            trimmed_in: vec![0; peds],
            // Paths given back at once: the present ones, and those read ahead of entering.
            pool: Vec::with_capacity(2 * most_present + 16),
            reads: 0,
            read_to: None,
            records: Vec::new(),
            behind: half.max(MIN_VELOCITY_HALF_WINDOW),
            ahead: half.max(look_ahead),
        }
    }

    /// Seconds of track a path holds at most: the window before and after the time shown, and
    /// the chunks read ahead and not yet forgotten.
    pub(crate) fn span_held(&self) -> f64 {
        self.behind + self.ahead + 2.0 * CHUNK_SECONDS
    }

    /// Seconds before its first sample that a pedestrian's path is read.
    pub(crate) fn lead(&self) -> f64 {
        self.ahead + CHUNK_SECONDS
    }

    /// Makes room once for `paths` paths of `samples` samples each held at once, and for
    /// chunks of `records` samples, so that steps allocate nothing.
    pub(crate) fn reserve(&mut self, paths: usize, samples: usize, records: usize) {
        let spare = paths.saturating_sub(self.pool.len());
        self.pool.reserve(paths + 16);
        for _ in 0..spare {
            self.pool.push(TrackPath::with_capacity(samples));
        }
        self.records
            .reserve(records.saturating_sub(self.records.len()));
    }

    /// Samples held in every path, and chunks read since the playback began: what a long
    /// file costs the playback (for tests and reports; counts every pedestrian).
    pub(crate) fn held(&self) -> (usize, u32) {
        (self.paths.iter().map(TrackPath::len).sum(), self.reads)
    }

    /// The last chunk read going forward (`None` before the first read).
    pub(crate) fn read_to(&self) -> Option<i64> {
        self.read_to
    }

    /// Seconds held before and after the time shown.
    pub(crate) fn window(&self) -> (f64, f64) {
        (self.behind, self.ahead)
    }

    /// Pedestrian `p`'s path around the time shown.
    pub(crate) fn path(&self, p: u32) -> &TrackPath {
        &self.paths[p as usize]
    }

    /// Gives pedestrian `p`'s path back: it has left.
    pub(crate) fn release(&mut self, p: u32) {
        let path = std::mem::take(&mut self.paths[p as usize]);
        if path.capacity() > 0 {
            self.pool.push(path);
        }
    }

    /// Reads the chunks the time `t` needs that have not been read, going forward.
    pub(crate) fn advance(&mut self, store: &TrackStore, t: f64) -> Result<(), TrajectoryError> {
        let want = chunk_of(t + self.ahead);
        let from = self.read_to.map_or(chunk_of(t - self.behind), |k| k + 1);
        if from <= want {
            for key in store.keys(from..=want) {
                store.load(key, &mut self.records)?;
                self.take_records(store, t);
            }
            self.read_to = Some(want);
        }
        Ok(())
    }

    /// Holds what time `t` needs and nothing else: every path given back, the chunks around
    /// `t` read, and each of `present` (pedestrians present at `t`) found further back when
    /// those chunks fall inside a gap of its track.
    pub(crate) fn seek(
        &mut self,
        store: &TrackStore,
        t: f64,
        present: &[u32],
    ) -> Result<(), TrajectoryError> {
        for p in 0..self.paths.len() as u32 {
            self.release(p);
        }
        self.read_to = None;
        self.advance(store, t)?;
        let summaries = store.summaries();
        let need_from = |p: u32| summaries[p as usize].start.max(t - self.behind);
        let mut missing: Vec<u32> = present
            .iter()
            .copied()
            .filter(|&p| {
                self.paths[p as usize]
                    .first_held()
                    .is_none_or(|first| first > need_from(p))
            })
            .collect();
        missing.sort_unstable();
        let keys: Vec<i64> = store.keys(..chunk_of(t - self.behind)).rev().collect();
        for key in keys {
            if missing.is_empty() {
                break;
            }
            store.load(key, &mut self.records)?;
            let records = std::mem::take(&mut self.records);
            missing.retain(|&p| {
                let own = records.iter().filter(|r| r.ped == p);
                if own.clone().next().is_none() {
                    return true;
                }
                let held = std::mem::take(&mut self.paths[p as usize]);
                let path = &mut self.paths[p as usize];
                let s = summaries[p as usize];
                path.reset(s.start, s.end);
                for r in own {
                    path.extend_with(r.time, DVec2::from(r.position));
                }
                for (&time, &at) in held.times().iter().zip(held.positions()) {
                    path.extend_with(time, at);
                }
                path.first_held().is_none_or(|first| first > need_from(p))
            });
            self.records = records;
        }
        Ok(())
    }

    /// Adds the chunk just read to the paths of those in it who have not left by `t`.
    fn take_records(&mut self, store: &TrackStore, t: f64) {
        self.reads = self.reads.wrapping_add(1);
        let keep_from = t - self.behind;
        let summaries = store.summaries();
        for r in &self.records {
            let p = r.ped as usize;
            let Some(s) = summaries.get(p) else {
                continue;
            };
            if s.end < t {
                // Gone before the time shown: nothing of it is drawn again.
                continue;
            }
            let path = &mut self.paths[p];
            if self.trimmed_in[p] != self.reads {
                self.trimmed_in[p] = self.reads;
                if path.is_empty() {
                    if path.capacity() == 0
                        && let Some(room) = self.pool.pop()
                    {
                        *path = room;
                    }
                    path.reset(s.start, s.end);
                } else {
                    path.forget_before(keep_from);
                }
            }
            path.extend_with(r.time, DVec2::from(r.position));
        }
    }
}
