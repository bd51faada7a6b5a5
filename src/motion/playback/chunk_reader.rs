//! The GPU path's reading of the file: chunk by chunk, each sample of a pedestrian into its
//! slot's ring (the slot from the [`SlotSchedule`]), the slot assigned with the pedestrian's
//! first sample. It keeps, per slot, how many samples were written and when, so that a
//! chunk's copies of samples already written are skipped and a ring written over before its
//! samples are done with is counted. It needs no word of the time shown beyond the seek's,
//! so it can read the next chunk ahead, on a thread of its own, while frames are drawn.

use std::sync::Arc;

use glam::DVec2;

use super::slot_schedule::{NO_SLOT, SlotSchedule};
use crate::motion::device_codes::{TRACK_ASSIGN, TRACK_NO_STEP, TRACK_OCCUPIED};
use crate::motion::gpu_layouts::{
    DeviceSample, DeviceSampleWrite, DeviceTrack, DeviceTrackCommand,
};
use crate::motion::resident::ResidentPaths;
use crate::motion::trajectory::{StoredSample, TrackStore, TrajectoryError};

/// What reading brings a frame: slot changes, samples, and which pedestrian each assigned
/// slot now holds.
#[derive(Debug, Default)]
pub(super) struct Batch {
    pub(super) commands: Vec<DeviceTrackCommand>,
    pub(super) writes: Vec<DeviceSampleWrite>,
    pub(super) assigned: Vec<(u32, u32)>,
}

impl Batch {
    pub(super) fn clear(&mut self) {
        self.commands.clear();
        self.writes.clear();
        self.assigned.clear();
    }

    /// Room for `commands` changes and `writes` samples.
    pub(super) fn with_capacity(commands: usize, writes: usize) -> Self {
        Self {
            commands: Vec::with_capacity(commands),
            writes: Vec::with_capacity(writes),
            assigned: Vec::with_capacity(commands),
        }
    }
}

/// Per pedestrian, what its slot is told when it is assigned.
#[derive(Clone, Copy, Debug)]
pub(super) struct Arrival {
    pub(super) scale: f32,
    pub(super) phase: f32,
    pub(super) look: u32,
}

/// See the module documentation.
pub(super) struct ChunkReader {
    store: Arc<TrackStore>,
    schedule: Arc<SlotSchedule>,
    arrivals: Vec<Arrival>,
    /// Per slot, the pedestrian whose samples it holds ([`NO_SLOT`]: none), how many were
    /// written and the last one's time.
    owners: Vec<u32>,
    written: Vec<u32>,
    last_time: Vec<f64>,
    /// Per slot and ring place, the time of the sample there (after the epoch).
    ring_times: Vec<f32>,
    ring: u32,
    records: Vec<StoredSample>,
    /// Reads the paths around a seek's time.
    seeker: ResidentPaths,
    epoch: f64,
    origin: DVec2,
    /// Seconds a sample is needed for before the time shown.
    behind: f64,
    /// What has been read and not yet taken, and the chunk it was read ahead for.
    pub(super) batch: Batch,
    pub(super) ready: Option<i64>,
    /// The last chunk read, and how many seeks there have been: the thread reading ahead
    /// reads only a later chunk asked for since the last seek.
    pub(super) last_read: Option<i64>,
    pub(super) seeks: u64,
    /// The chunk the thread reading ahead is asked for (with the seeks when asked), and
    /// whether it is to stop.
    pub(super) asked: Option<(i64, u64)>,
    pub(super) stop: bool,
    /// Whether that thread has started (what starting a thread allocates is done).
    pub(super) started: bool,
    /// Samples written over one still needed.
    pub(super) overruns: u64,
}

/// What a reader is made of.
pub(super) struct ReaderParts {
    pub(super) store: Arc<TrackStore>,
    pub(super) schedule: Arc<SlotSchedule>,
    pub(super) arrivals: Vec<Arrival>,
    pub(super) ring: u32,
    pub(super) seeker: ResidentPaths,
    pub(super) epoch: f64,
    pub(super) origin: DVec2,
}

impl ChunkReader {
    pub(super) fn new(parts: ReaderParts) -> Self {
        let slots = parts.schedule.slot_model.len();
        let (behind, _) = parts.seeker.window();
        let largest = parts.store.largest_chunk();
        Self {
            records: Vec::with_capacity(largest),
            owners: vec![NO_SLOT; slots],
            written: vec![0; slots],
            last_time: vec![f64::NEG_INFINITY; slots],
            ring_times: vec![f32::NEG_INFINITY; slots * parts.ring as usize],
            ring: parts.ring,
            store: parts.store,
            schedule: parts.schedule,
            arrivals: parts.arrivals,
            seeker: parts.seeker,
            epoch: parts.epoch,
            origin: parts.origin,
            behind,
            // A step reads a chunk: room for the largest up front.
            batch: Batch::with_capacity(slots, largest),
            ready: None,
            last_read: None,
            seeks: 0,
            asked: None,
            stop: false,
            started: false,
            overruns: 0,
        }
    }

    /// Reads chunk `key` into the batch, for a time shown of at least `now`: pedestrians gone
    /// by then are left out.
    pub(super) fn read(&mut self, key: i64, now: f64) -> Result<(), TrajectoryError> {
        let store = self.store.clone();
        self.last_read = Some(key);
        store.load(key, &mut self.records)?;
        let peds = store.summaries();
        for k in 0..self.records.len() {
            let r = self.records[k];
            if peds.get(r.ped as usize).is_some_and(|s| s.end >= now) {
                self.take(r.ped, r.time, r.position, now);
            }
        }
        Ok(())
    }

    /// Forgets every slot's samples and reads the paths time `t` needs into the batch: those
    /// of `present` (present at `t`) and of `soon` (read before they come).
    pub(super) fn seek(
        &mut self,
        t: f64,
        present: &[u32],
        soon: &[u32],
    ) -> Result<(), TrajectoryError> {
        self.owners.fill(NO_SLOT);
        self.written.fill(0);
        self.last_time.fill(f64::NEG_INFINITY);
        self.ring_times.fill(f32::NEG_INFINITY);
        self.ready = None;
        self.seeks += 1;
        let store = self.store.clone();
        self.seeker.seek(&store, t, present)?;
        self.last_read = self.seeker.read_to();
        for &p in present.iter().chain(soon) {
            for k in 0..self.seeker.path(p).len() {
                let path = self.seeker.path(p);
                let (time, at) = (path.times()[k], path.positions()[k]);
                self.take(p, time, at.to_array(), t);
            }
            self.seeker.release(p);
        }
        Ok(())
    }

    /// The chunk last read going forward by a seek.
    pub(super) fn read_to(&self) -> Option<i64> {
        self.seeker.read_to()
    }

    /// A sample of pedestrian `p` for its slot's ring, the slot assigned with its first.
    fn take(&mut self, p: u32, time: f64, at: [f64; 2], now: f64) {
        let s = self.schedule.slot_of[p as usize];
        if s == NO_SLOT {
            return;
        }
        let slot = s as usize;
        if self.owners[slot] != p {
            self.assign(s, p);
        }
        if !(time > self.last_time[slot]) {
            // A chunk's copy of a sample already written.
            return;
        }
        let index = self.written[slot];
        let place = slot * self.ring as usize + (index % self.ring) as usize;
        let relative = (time - self.epoch) as f32;
        if index >= self.ring && f64::from(self.ring_times[place]) >= now - self.behind - self.epoch
        {
            self.overruns += 1;
        }
        self.ring_times[place] = relative;
        let d = DVec2::from(at) - self.origin;
        self.batch.writes.push(DeviceSampleWrite {
            slot: s,
            index,
            value: DeviceSample {
                time: relative,
                position: [d.x as f32, d.y as f32],
            },
            pad: 0,
        });
        self.written[slot] = index + 1;
        self.last_time[slot] = time;
    }

    /// Slot `s` takes pedestrian `p`: its ring starts empty.
    fn assign(&mut self, s: u32, p: u32) {
        let slot = s as usize;
        self.owners[slot] = p;
        self.written[slot] = 0;
        self.last_time[slot] = f64::NEG_INFINITY;
        let summary = &self.store.summaries()[p as usize];
        let arrival = self.arrivals[p as usize];
        self.batch.commands.push(DeviceTrackCommand {
            kind: TRACK_ASSIGN,
            slot: s,
            pad: [0; 2],
            track: DeviceTrack {
                flags: TRACK_OCCUPIED,
                start: (summary.start - self.epoch) as f32,
                end: (summary.end - self.epoch) as f32,
                scale: arrival.scale,
                phase: arrival.phase,
                look: arrival.look,
                step: TRACK_NO_STEP,
                ..DeviceTrack::default()
            },
        });
        self.batch.assigned.push((s, p));
    }
}
