//! The host's side of the playback on the GPU: a fixed pool of crowd instances (slots,
//! grouped by model) that pedestrians are assigned to as their first samples are read, and
//! the samples handed to each slot's ring as chunks of the file are read. The GPU does the
//! rest every frame for every slot (`shaders/track_step.comp`): hidden before its
//! pedestrian's first sample and after its last, entered, placed on its smoothed path,
//! turned, paced and tinted by the rules [`Playback`] applies on the CPU.
//!
//! So a frame's work here grows with the pedestrians assigned and the samples read, not with
//! the crowd: a step that reads no chunk visits nobody. A seek (or the first step) clears
//! every slot and assigns those present, their paths read as [`ResidentPaths`] reads them
//! (going back for those inside a gap). Nothing is allocated per step once the lists have
//! grown to the largest chunk.

use glam::DVec2;

use super::census::most_overlapping;
use super::device_tables::{DeviceSample, DeviceSampleWrite, DeviceTrack, DeviceTrackCommand};
use super::device_tables::{DeviceTrackStep, DeviceTrackTables};
use super::{ABSENT, ENTRY_WINDOW, Playback, PlaybackError};
use crate::anim::Mat3x4;
use crate::crowd::{Crowd, CrowdError};
use crate::motion::coloring::ColorBy;
use crate::motion::gait::MAX_RATE;
use crate::motion::pivot::{MAX_PIVOT, PIVOT_FADE};
use crate::motion::track_path::{MAX_DEPARTURE, MIN_VELOCITY_HALF_WINDOW};
use crate::motion::identity::{mix, unit};
use crate::motion::resident::ResidentPaths;
use crate::motion::rules::{TRACK_ASSIGN, TRACK_CLEAR, TRACK_NO_STEP, TRACK_OCCUPIED};
use crate::motion::trajectory::{CHUNK_SECONDS, StoredSample, chunk_of};

/// The most samples a slot's ring holds (a file sampled faster smooths over what fits).
const MAX_RING: u32 = 1024;

/// See the module documentation.
pub struct TracksOnDevice {
    /// The crowd index of the first slot.
    base: usize,
    /// Per slot, its model (index into the playback's models).
    slot_model: Vec<u32>,
    /// Per slot, the look a pedestrian without one of its own wears (the spawn's).
    default_look: Vec<u32>,
    /// Per slot, its pedestrian ([`ABSENT`]: free), samples written, the last one's time, and
    /// whether the GPU's copy may hold an earlier pedestrian (a seek clears it).
    ped_in: Vec<u32>,
    written: Vec<u32>,
    last_time: Vec<f64>,
    dirty: Vec<bool>,
    /// Per slot and ring place, the time of the sample there (after the epoch).
    ring_times: Vec<f32>,
    ring: u32,
    /// Per model, its free slots.
    free: Vec<Vec<u32>>,
    /// Per pedestrian, its slot ([`ABSENT`]: none).
    slot_of: Vec<u32>,
    /// How far the playback's list by last sample has been passed.
    next_end: usize,
    /// The last chunk read going forward.
    read_to: Option<i64>,
    records: Vec<StoredSample>,
    /// Reads the paths around a seek's time.
    seeker: ResidentPaths,
    behind: f64,
    ahead: f64,
    /// What the coming frame applies.
    commands: Vec<DeviceTrackCommand>,
    writes: Vec<DeviceSampleWrite>,
    time: Option<f64>,
    /// Sample times are sent as seconds after this (the file's first).
    epoch: f64,
    /// Samples written over one still needed, and pedestrians who found no free slot.
    overruns: u64,
}

impl TracksOnDevice {
    /// The pool for `playback`'s pedestrians: per model, the most of its pedestrians whose
    /// samples are held at once. Refused for a colouring by density (it counts neighbours,
    /// which only the CPU path does).
    pub fn new(playback: &Playback) -> Result<Self, String> {
        if playback.settings.color_by == Some(ColorBy::Density) {
            return Err("colouring by density is done on the CPU".into());
        }
        let peds = playback.store.summaries();
        let n = peds.len();
        let seeker = ResidentPaths::new(n, playback.settings.smooth, ENTRY_WINDOW, 0);
        let (behind, ahead) = seeker.window();
        let lead = ahead + CHUNK_SECONDS;
        let mut slot_model = Vec::new();
        let mut free = Vec::with_capacity(playback.models.len());
        for m in 0..playback.models.len() as u32 {
            let own: Vec<_> = peds
                .iter()
                .zip(&playback.model_of)
                .filter(|&(_, &of)| of == m)
                .map(|(p, _)| *p)
                .collect();
            let count = most_overlapping(&own, lead);
            let first = slot_model.len() as u32;
            slot_model.extend(std::iter::repeat_n(m, count));
            // Popped from the back: the lowest slot first.
            free.push((first..first + count as u32).rev().collect::<Vec<u32>>());
        }
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
        let slots = slot_model.len();
        Ok(Self {
            base: playback.base,
            default_look: vec![0; slots],
            ped_in: vec![ABSENT; slots],
            written: vec![0; slots],
            last_time: vec![f64::NEG_INFINITY; slots],
            dirty: vec![false; slots],
            ring_times: vec![f32::NEG_INFINITY; slots * ring as usize],
            ring,
            slot_model,
            free,
            slot_of: vec![ABSENT; n],
            next_end: 0,
            read_to: None,
            records: Vec::with_capacity(playback.store.largest_chunk()),
            seeker,
            behind,
            ahead,
            commands: Vec::with_capacity(slots),
            // A step reads a chunk or two: room for two of the largest up front.
            writes: Vec::with_capacity(2 * playback.store.largest_chunk()),
            time: None,
            epoch: playback.start(),
            overruns: 0,
        })
    }

    /// Spawns the pool into `crowd` (whose instances so far are the scenery: the playback's
    /// base), every slot with its model at the origin; the GPU hides those without a
    /// pedestrian.
    pub fn spawn_pool(&mut self, playback: &Playback, crowd: &mut Crowd) -> Result<(), CrowdError> {
        for (s, &m) in self.slot_model.iter().enumerate() {
            let i = crowd.spawn(playback.models[m as usize].id, Mat3x4::IDENTITY)?;
            self.default_look[s] = crowd.look_of(i).0;
        }
        Ok(())
    }

    /// The tables the GPU's rules read, for a crowd of `crowd_models` models.
    pub fn tables(&self, playback: &Playback, crowd_models: usize) -> DeviceTrackTables {
        DeviceTrackTables::new(&playback.models, crowd_models)
    }

    /// Slots in the pool.
    pub fn slots(&self) -> usize {
        self.slot_model.len()
    }

    /// The crowd index of the first slot.
    pub fn base(&self) -> usize {
        self.base
    }

    /// Samples a slot's ring holds.
    pub fn ring(&self) -> u32 {
        self.ring
    }

    /// The pedestrian (index in the store's summaries) slot `s` shows or will show.
    pub fn pedestrian_in(&self, s: usize) -> Option<u32> {
        self.ped_in.get(s).copied().filter(|&p| p != ABSENT)
    }

    /// Samples written over one still needed, and pedestrians who found no free slot: 0
    /// unless the pool or the rings were sized too small.
    pub fn overruns(&self) -> u64 {
        self.overruns
    }

    /// The slot changes and samples the coming frame applies (from the last step).
    pub fn uploads(&self) -> (&[DeviceTrackCommand], &[DeviceSampleWrite]) {
        (&self.commands, &self.writes)
    }

    /// Pedestrians present at the time shown (from their first sample to their last).
    pub fn present(&self, playback: &Playback) -> usize {
        let Some(t) = self.time else {
            return 0;
        };
        let peds = playback.store.summaries();
        let started = playback
            .by_start
            .partition_point(|&p| peds[p as usize].start <= t);
        let ended = playback
            .by_end
            .partition_point(|&p| peds[p as usize].end < t);
        started.saturating_sub(ended)
    }

    /// Moves to file time `t`: forward, the pedestrians gone free their slots and the chunks
    /// now needed are read; backwards, or first, a seek. Returns the frame's step; the
    /// changes and samples it brings are [`Self::uploads`].
    pub fn advance_to(
        &mut self,
        playback: &Playback,
        t: f64,
    ) -> Result<DeviceTrackStep, PlaybackError> {
        self.commands.clear();
        self.writes.clear();
        let dt = match self.time {
            Some(now) if t >= now => {
                self.forward(playback, t)?;
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
            color_top: match s.color_by {
                Some(by @ ColorBy::Speed) => by.top(),
                _ => 0.0,
            },
            commands: self.commands.len() as u32,
            writes: self.writes.len() as u32,
            pad: 0,
            entry_window: ENTRY_WINDOW as f32,
            min_velocity_half_window: MIN_VELOCITY_HALF_WINDOW as f32,
            max_departure: MAX_DEPARTURE as f32,
            max_pivot: MAX_PIVOT as f32,
            pivot_fade: PIVOT_FADE as f32,
            max_rate: MAX_RATE,
            pad2: [0; 2],
        })
    }

    fn forward(&mut self, playback: &Playback, t: f64) -> Result<(), PlaybackError> {
        let peds = playback.store.summaries();
        while let Some(&p) = playback.by_end.get(self.next_end) {
            if !(peds[p as usize].end < t) {
                break;
            }
            self.release(playback, p);
            self.next_end += 1;
        }
        let want = chunk_of(t + self.ahead);
        let from = self.read_to.map_or(chunk_of(t - self.behind), |k| k + 1);
        if from <= want {
            for key in playback.store.keys(from..=want) {
                playback.store.load(key, &mut self.records)?;
                for k in 0..self.records.len() {
                    let r = self.records[k];
                    if peds.get(r.ped as usize).is_some_and(|s| s.end >= t) {
                        self.take(playback, r.ped, r.time, r.position, t);
                    }
                }
            }
            self.read_to = Some(want);
        }
        Ok(())
    }

    fn seek(&mut self, playback: &Playback, t: f64) -> Result<(), PlaybackError> {
        let was_dirty: Vec<usize> = (0..self.slots()).filter(|&s| self.dirty[s]).collect();
        for s in 0..self.slots() {
            if let Some(p) = self.pedestrian_in(s) {
                self.release(playback, p);
            }
            self.dirty[s] = false;
        }
        let peds = playback.store.summaries();
        self.next_end = playback.by_end.partition_point(|&p| peds[p as usize].end < t);
        let started = playback
            .by_start
            .partition_point(|&p| peds[p as usize].start <= t);
        let present: Vec<u32> = playback.by_start[..started]
            .iter()
            .copied()
            .filter(|&p| peds[p as usize].end >= t)
            .collect();
        self.seeker.seek(&playback.store, t, &present)?;
        self.read_to = self.seeker.read_to();
        let lead = self.ahead + CHUNK_SECONDS;
        let soon = playback
            .by_start
            .partition_point(|&p| peds[p as usize].start <= t + lead);
        for &p in &playback.by_start[..soon] {
            if peds[p as usize].end < t {
                continue;
            }
            for k in 0..self.seeker.path(p).len() {
                let path = self.seeker.path(p);
                let (time, at) = (path.times()[k], path.positions()[k]);
                self.take(playback, p, time, at.to_array(), t);
            }
            self.seeker.release(p);
        }
        // Slots an earlier pedestrian left that nobody took now: emptied on the GPU too.
        for s in was_dirty {
            if !self.dirty[s] {
                self.commands.push(DeviceTrackCommand {
                    kind: TRACK_CLEAR,
                    slot: s as u32,
                    ..DeviceTrackCommand::default()
                });
            }
        }
        Ok(())
    }

    /// Pedestrian `p` leaves: its slot is free (the GPU hides it from its last sample on).
    fn release(&mut self, playback: &Playback, p: u32) {
        let Some(&s) = self.slot_of.get(p as usize).filter(|&&s| s != ABSENT) else {
            return;
        };
        self.slot_of[p as usize] = ABSENT;
        self.ped_in[s as usize] = ABSENT;
        let m = playback.model_of[p as usize] as usize;
        if let Some(free) = self.free.get_mut(m) {
            free.push(s);
        }
    }

    /// A sample of pedestrian `p` read at time shown `now`, for its slot's ring (the slot
    /// assigned with its first).
    fn take(&mut self, playback: &Playback, p: u32, time: f64, at: [f64; 2], now: f64) {
        let mut s = self.slot_of[p as usize];
        if s == ABSENT {
            let Some(free) = self.assign(playback, p) else {
                self.overruns += 1;
                return;
            };
            s = free;
        }
        let slot = s as usize;
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
        let d = DVec2::from(at) - playback.settings.origin;
        self.writes.push(DeviceSampleWrite {
            slot: s,
            index,
            sample: DeviceSample {
                time: relative,
                position: [d.x as f32, d.y as f32],
            },
            pad: 0,
        });
        self.written[slot] = index + 1;
        self.last_time[slot] = time;
    }

    /// Gives pedestrian `p` a free slot of its model and tells the GPU who it is.
    fn assign(&mut self, playback: &Playback, p: u32) -> Option<u32> {
        let m = playback.model_of[p as usize] as usize;
        let s = self.free.get_mut(m)?.pop()?;
        let slot = s as usize;
        self.slot_of[p as usize] = s;
        self.ped_in[slot] = p;
        self.written[slot] = 0;
        self.last_time[slot] = f64::NEG_INFINITY;
        self.dirty[slot] = true;
        let summary = &playback.store.summaries()[p as usize];
        let model = &playback.models[m];
        let look = if model.looks.is_empty() {
            self.default_look[slot]
        } else {
            model.looks[(mix(summary.id, 3) % model.looks.len() as u64) as usize].0
        };
        self.commands.push(DeviceTrackCommand {
            kind: TRACK_ASSIGN,
            slot: s,
            pad: [0; 2],
            track: DeviceTrack {
                flags: TRACK_OCCUPIED,
                start: (summary.start - self.epoch) as f32,
                end: (summary.end - self.epoch) as f32,
                scale: playback.scale[p as usize],
                phase: unit(mix(summary.id, 4)),
                look,
                step: TRACK_NO_STEP,
                ..DeviceTrack::default()
            },
        });
        Some(s)
    }
}
