//! The host's side of the playback on the GPU: a fixed pool of crowd instances (slots,
//! grouped by model), each pedestrian's slot decided once from the file's index
//! ([`SlotSchedule`]), and the samples handed to each slot's ring as chunks of the file are
//! read ([`ChunkReader`]). The GPU does the rest every frame for every slot
//! (`shaders/track_step.comp`): hidden before its pedestrian's first sample and after its
//! last, entered, placed on its smoothed path, turned, paced and tinted by the rules
//! [`Playback`] applies on the CPU.
//!
//! The next chunk is read ahead on a thread of its own while frames are drawn, so the calling
//! thread's work per frame does not grow with the crowd: it takes the chunk read when the
//! time shown comes to need it (an exchange of lists), and hands it to the renderer. A seek
//! (or the first step, or a step past more than one chunk) clears every slot and reads the
//! pedestrians present and about to come, going back for those inside a gap. Nothing is
//! allocated per step once the lists have grown to the largest chunk.

use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;

use super::chunk_reader::{Arrival, Batch, ChunkReader, ReaderParts};
use super::device_tables::DeviceTrackTables;
use super::slot_schedule::SlotSchedule;
use super::{ABSENT, ENTRY_WINDOW, Playback, PlaybackError};
use crate::anim::Mat3x4;
use crate::crowd::{Crowd, CrowdError};
use crate::motion::coloring::{ColorBy, top_count};
use crate::motion::device_codes::TRACK_CLEAR;
use crate::motion::gait::MAX_RATE;
use crate::motion::gpu_layouts::{DeviceSampleWrite, DeviceTrackCommand, DeviceTrackStep};
use crate::motion::identity::{mix, unit};
use crate::motion::pivot::{MAX_PIVOT, PIVOT_FADE};
use crate::motion::resident::ResidentPaths;
use crate::motion::track_path::{MAX_DEPARTURE, MIN_VELOCITY_HALF_WINDOW};
use crate::motion::trajectory::{CHUNK_SECONDS, TrajectoryError, chunk_of};

/// The most samples a slot's ring holds (a file sampled faster smooths over what fits).
const MAX_RING: u32 = 1024;

/// See the module documentation.
pub struct TracksOnDevice {
    /// The crowd index of the first slot.
    base: usize,
    /// Per slot, its model (index into the playback's models).
    slot_model: Vec<u32>,
    ring: u32,
    reader: Arc<Mutex<ChunkReader>>,
    prefetch: Prefetcher,
    /// Per slot, the pedestrian it holds or will hold ([`ABSENT`]: none), and whether the
    /// GPU's copy may hold one (a seek clears those it does not fill again).
    ped_in: Vec<u32>,
    dirty: Vec<bool>,
    /// The last chunk read going forward, and the reader's seeks so far.
    read_to: Option<i64>,
    seeks: u64,
    /// What the coming frame applies.
    batch: Batch,
    time: Option<f64>,
    /// Sample times are sent as seconds after this (the file's first).
    epoch: f64,
    ahead: f64,
}

impl TracksOnDevice {
    /// The pool for `playback`'s pedestrians: per model, the most of its pedestrians whose
    /// samples are held at once.
    pub fn new(playback: &Playback) -> Result<Self, String> {
        let peds = playback.store.summaries();
        let seeker = ResidentPaths::new(peds.len(), playback.settings.smooth, ENTRY_WINDOW, 0);
        let (behind, ahead) = seeker.window();
        let lead = ahead + CHUNK_SECONDS;
        let schedule = SlotSchedule::new(peds, &playback.model_of, playback.models().len(), lead);
        // The most samples any pedestrian has in the span a ring must hold.
        let rate = peds
            .iter()
            .filter(|p| p.samples > 1 && p.end > p.start)
            .map(|p| (p.samples - 1) as f64 / (p.end - p.start))
            .fold(0.0, f64::max);
        let span = behind + ahead + 2.0 * CHUNK_SECONDS;
        let ring = ((span * rate).ceil() as u32 + 8)
            .next_power_of_two()
            .min(MAX_RING);
        let arrivals = peds
            .iter()
            .zip(&playback.model_of)
            .zip(&playback.scale)
            .map(|((s, &m), &scale)| {
                let looks = &playback.models()[m as usize].looks;
                Arrival {
                    scale,
                    phase: unit(mix(s.id, 4)),
                    // A spawned instance wears look 0 until told otherwise.
                    look: if looks.is_empty() {
                        0
                    } else {
                        looks[(mix(s.id, 3) % looks.len() as u64) as usize].0
                    },
                }
            })
            .collect();
        let slots = schedule.slot_model.len();
        let slot_model = schedule.slot_model.clone();
        let largest = playback.store.largest_chunk();
        let reader = Arc::new(Mutex::new(ChunkReader::new(ReaderParts {
            store: playback.store.clone(),
            schedule: Arc::new(schedule),
            arrivals,
            ring,
            seeker,
            epoch: playback.start(),
            origin: playback.settings.origin,
        })));
        Ok(Self {
            base: playback.base(),
            slot_model,
            ring,
            prefetch: Prefetcher::start(reader.clone(), ahead)?,
            reader,
            ped_in: vec![ABSENT; slots],
            dirty: vec![false; slots],
            read_to: None,
            seeks: 0,
            batch: Batch::with_capacity(slots, largest),
            time: None,
            epoch: playback.start(),
            ahead,
        })
    }

    /// Spawns the pool into `crowd` (whose instances so far are the scenery: the playback's
    /// base), every slot with its model at the origin; the GPU hides those without a
    /// pedestrian.
    pub fn spawn_pool(&mut self, playback: &Playback, crowd: &mut Crowd) -> Result<(), CrowdError> {
        for &m in &self.slot_model {
            crowd.spawn(playback.models()[m as usize].id, Mat3x4::IDENTITY)?;
        }
        Ok(())
    }

    /// The tables the GPU's rules read, for a crowd of `crowd_models` models.
    pub fn tables(&self, playback: &Playback, crowd_models: usize) -> DeviceTrackTables {
        let mut tables = DeviceTrackTables::new(playback.models(), crowd_models);
        tables.density_buckets = self.density_buckets(playback);
        tables
    }

    /// Colouring by density: the buckets of the hash of cells the GPU counts neighbours in,
    /// a power of two at least twice the slots (so that few cells share one); 0 otherwise.
    fn density_buckets(&self, playback: &Playback) -> u32 {
        if playback.settings.color_by != Some(ColorBy::Density) {
            return 0;
        }
        (2 * self.slots().max(32) as u32).next_power_of_two()
    }

    /// Slots in the pool.
    pub fn slots(&self) -> usize {
        self.slot_model.len()
    }

    /// Samples a slot's ring holds.
    pub fn ring(&self) -> u32 {
        self.ring
    }

    /// The pedestrian (index in the store's summaries) slot `s` shows, showed last or will
    /// show next.
    pub fn pedestrian_in(&self, s: usize) -> Option<u32> {
        self.ped_in.get(s).copied().filter(|&p| p != ABSENT)
    }

    /// Samples written over one still needed: 0 unless the rings were sized too small.
    pub fn overruns(&self) -> u64 {
        self.reader.lock().map_or(u64::MAX, |r| r.overruns)
    }

    /// The slot changes and samples the coming frame applies (from the last step), for the
    /// renderer to take (its `step_crowd_tracks` exchanges the lists: nothing is copied).
    pub fn uploads(&mut self) -> (&mut Vec<DeviceTrackCommand>, &mut Vec<DeviceSampleWrite>) {
        (&mut self.batch.commands, &mut self.batch.writes)
    }

    /// Pedestrians present at the time shown (from their first sample to their last).
    pub fn present(&self, playback: &Playback) -> usize {
        self.time.map_or(0, |t| {
            playback.started_by(t).saturating_sub(playback.ended_by(t))
        })
    }

    /// Moves to file time `t`: forward by a chunk at most, the chunk now needed (read ahead)
    /// is taken; backwards, further or first, a seek. Returns the frame's step; the changes
    /// and samples it brings are [`Self::uploads`].
    pub fn advance_to(
        &mut self,
        playback: &Playback,
        t: f64,
    ) -> Result<DeviceTrackStep, PlaybackError> {
        self.batch.clear();
        let forward = self.time.filter(|&now| t >= now);
        let due = self.chunks_due(playback, t);
        let dt = match (forward, due) {
            (Some(now), Some((want, key))) => {
                self.forward(playback, t, want, key)?;
                (t - now) as f32
            }
            _ => {
                self.seek(playback, t)?;
                0.0
            }
        };
        self.time = Some(t);
        let s = &playback.settings;
        Ok(DeviceTrackStep {
            time: (t - self.epoch) as f32,
            dt,
            count: self.slots() as u32,
            base: self.base as u32,
            window: s.smooth as f32,
            turn_rate: s.turn_rate,
            fade: s.fade,
            ring: self.ring,
            walk_above: s.speeds.walk_above,
            stand_below: s.speeds.stand_below,
            run_above: s.speeds.run_above,
            walk_below: s.speeds.walk_below,
            color_top: s.color_by.map_or(0.0, ColorBy::top),
            commands: self.batch.commands.len() as u32,
            writes: self.batch.writes.len() as u32,
            density_buckets: self.density_buckets(playback),
            entry_window: ENTRY_WINDOW as f32,
            min_velocity_half_window: MIN_VELOCITY_HALF_WINDOW as f32,
            max_departure: MAX_DEPARTURE as f32,
            max_pivot: MAX_PIVOT as f32,
            pivot_fade: PIVOT_FADE as f32,
            max_rate: MAX_RATE,
            density_most: if s.color_by == Some(ColorBy::Density) {
                top_count()
            } else {
                0
            },
            pad2: 0,
        })
    }

    /// Going forward to `t`: the last chunk it needs, and the one of those not read yet
    /// (`None`: all were); `None` when it needs more than one (a seek reads them) or nothing
    /// was read yet.
    fn chunks_due(&self, playback: &Playback, t: f64) -> Option<(i64, Option<i64>)> {
        let read_to = self.read_to?;
        let want = chunk_of(t + self.ahead);
        if want <= read_to {
            return Some((want, None));
        }
        let mut keys = playback.store.keys(read_to + 1..=want);
        match (keys.next(), keys.next()) {
            (key, None) => Some((want, key)),
            _ => None,
        }
    }

    /// Takes chunk `key` (read ahead, or read now), and asks for the one after `want`.
    fn forward(
        &mut self,
        playback: &Playback,
        t: f64,
        want: i64,
        key: Option<i64>,
    ) -> Result<(), PlaybackError> {
        if let Some(key) = key {
            let mut reader = lock(&self.reader)?;
            if reader.ready.take() != Some(key) {
                reader.batch.clear();
                reader.read(key, t)?;
            }
            std::mem::swap(&mut self.batch, &mut reader.batch);
            drop(reader);
            self.take_assignments();
        }
        if self.read_to.is_some_and(|k| k < want) {
            self.read_to = Some(want);
            if let Some(next) = playback.store.keys(want + 1..).next() {
                self.prefetch.ask(next, self.seeks);
            }
        }
        Ok(())
    }

    fn seek(&mut self, playback: &Playback, t: f64) -> Result<(), PlaybackError> {
        let (started, present) = playback.present_at(t);
        let soon_end = playback.started_by(t + self.ahead + CHUNK_SECONDS);
        let soon = &playback.by_start[started..soon_end];
        let mut reader = lock(&self.reader)?;
        reader.batch.clear();
        reader.seek(t, &present, soon)?;
        let read_to = reader.read_to();
        self.seeks = reader.seeks;
        std::mem::swap(&mut self.batch, &mut reader.batch);
        drop(reader);
        let was_dirty = std::mem::take(&mut self.dirty);
        self.dirty = vec![false; was_dirty.len()];
        self.ped_in.fill(ABSENT);
        self.take_assignments();
        // Slots an earlier pedestrian held that nobody took now: emptied on the GPU too.
        for (s, was) in was_dirty.into_iter().enumerate() {
            if was && !self.dirty[s] {
                self.batch.commands.push(DeviceTrackCommand {
                    kind: TRACK_CLEAR,
                    slot: s as u32,
                    ..DeviceTrackCommand::default()
                });
            }
        }
        self.read_to = read_to;
        if let Some(next) = read_to.and_then(|k| playback.store.keys(k + 1..).next()) {
            self.prefetch.ask(next, self.seeks);
        }
        Ok(())
    }

    /// Notes who the batch's slots now hold.
    fn take_assignments(&mut self) {
        for &(s, p) in &self.batch.assigned {
            if let Some(slot) = self.ped_in.get_mut(s as usize) {
                *slot = p;
                self.dirty[s as usize] = true;
            }
        }
    }
}

/// The reader, or an error when its thread panicked holding it.
fn lock(reader: &Mutex<ChunkReader>) -> Result<MutexGuard<'_, ChunkReader>, TrajectoryError> {
    reader.lock().map_err(|_| {
        TrajectoryError::file(
            "the playback",
            "the thread reading ahead stopped with an error".to_string(),
        )
    })
}

/// The thread that reads the next chunk ahead: asked for a chunk (through the reader, under
/// its lock, woken by a condition variable: asking allocates nothing), it reads it into the
/// reader's batch for the earliest time that will take it, unless the ask is older than the
/// last seek, the chunk was read already, or a batch is waiting to be taken.
struct Prefetcher {
    reader: Arc<Mutex<ChunkReader>>,
    wake: Arc<Condvar>,
    thread: Option<JoinHandle<()>>,
}

impl Prefetcher {
    fn start(reader: Arc<Mutex<ChunkReader>>, ahead: f64) -> Result<Self, String> {
        let wake = Arc::new(Condvar::new());
        let (shared, woken) = (reader.clone(), wake.clone());
        let thread = std::thread::Builder::new()
            .name("throng-track-reader".into())
            .spawn(move || {
                let Ok(mut r) = shared.lock() else {
                    return;
                };
                r.started = true;
                woken.notify_all();
                loop {
                    while r.asked.is_none() && !r.stop {
                        r = match woken.wait(r) {
                            Ok(r) => r,
                            Err(_) => return,
                        };
                    }
                    if r.stop {
                        return;
                    }
                    let Some((key, seeks)) = r.asked.take() else {
                        continue;
                    };
                    let stale = r.seeks != seeks || r.last_read.is_some_and(|k| key <= k);
                    if stale || r.ready.is_some() || !r.batch.writes.is_empty() {
                        continue;
                    }
                    // Taken once the time shown plus the look ahead reaches the chunk.
                    let earliest = key as f64 * CHUNK_SECONDS - ahead;
                    if r.read(key, earliest).is_ok() {
                        r.ready = Some(key);
                    } else {
                        // Read again, and the error said, when the chunk is taken.
                        r.batch.clear();
                    }
                }
            })
            .map_err(|e| format!("cannot start the thread reading ahead: {e}"))?;
        // Running before the first step, so that what starting it allocates is not a step's.
        let mut r = reader
            .lock()
            .map_err(|_| "the thread reading ahead stopped".to_string())?;
        while !r.started {
            r = wake
                .wait(r)
                .map_err(|_| "the thread reading ahead stopped".to_string())?;
        }
        drop(r);
        Ok(Self {
            reader,
            wake,
            thread: Some(thread),
        })
    }

    /// Asks for chunk `key` to be read ahead, by a reader that has seeked `seeks` times.
    fn ask(&self, key: i64, seeks: u64) {
        // A reader whose thread stopped leaves the chunk to be read when it is taken.
        if let Ok(mut r) = self.reader.lock() {
            r.asked = Some((key, seeks));
            self.wake.notify_one();
        }
    }
}

impl Drop for Prefetcher {
    fn drop(&mut self) {
        if let Ok(mut r) = self.reader.lock() {
            r.stop = true;
        }
        self.wake.notify_one();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
