//! A crowd played back from trajectories: pedestrians enter the crowd at their first sample
//! and leave after their last, and every frame each one present is placed where its (smoothed)
//! path is, faces where it goes and plays the clip of its gait at the rate of its speed.
//!
//! The crowd's index `base + k` is the `k`-th pedestrian present; a pedestrian who leaves is
//! despawned and the crowd's last character takes its index, as the playback's own list does.
//! Instances below `base` (the walls) are never touched. After [`Playback::reserve`], no step
//! allocates: the crowd and the lists were grown once to the most pedestrians ever present.
//!
//! The pedestrians come from a [`TrackStore`]: the playback holds each one's path only around
//! the time it shows ([`ResidentPaths`]), read chunk by chunk as time goes on, so that a
//! long file takes no more memory than a short one with the same crowd.

mod census;
mod chunk_reader;
mod device_tables;
mod follower;
mod given;
mod on_device;
mod slot_schedule;

use glam::{DVec2, Vec3};

use super::identity::{mix, unit};
use super::locomotion::{Arrival, Locomotion, MemberState, PlayModel, PlaybackSettings};
use super::resident::ResidentPaths;
use super::trajectory::{TrackStore, TrackSummary};
use crate::crowd::{Crowd, CrowdError};
use census::{MAX_RESERVED_SAMPLES, most_overlapping, most_present, sample_rate};
pub use device_tables::DeviceTrackTables;
pub use follower::Follower;
pub use given::{PlaybackError, StepCounts};
pub use on_device::TracksOnDevice;

/// Marks a pedestrian not in the crowd.
const ABSENT: u32 = u32::MAX;

/// A longer window for the heading a pedestrian enters with: it may enter standing still.
const ENTRY_WINDOW: f64 = 1.0;

/// See the module documentation.
pub struct Playback {
    /// Shared with the GPU path's reader thread ([`TracksOnDevice`]).
    store: std::sync::Arc<TrackStore>,
    resident: ResidentPaths,
    /// Per pedestrian: its model (index into the models), its scale, and its index among the
    /// characters present.
    model_of: Vec<u32>,
    scale: Vec<f32>,
    slot: Vec<u32>,
    /// Pedestrians by first and by last sample time, and how far each list has been passed.
    by_start: Vec<u32>,
    by_end: Vec<u32>,
    next_start: usize,
    next_end: usize,
    /// The pedestrians present, as characters in the crowd (each one's key its index in
    /// the file).
    present: Locomotion,
    settings: PlaybackSettings,
    time: Option<f64>,
    most_present: usize,
}

impl Playback {
    /// Playback of the pedestrians of `store` drawn as `models` (at least one), into a crowd
    /// whose instances from `base` on are the playback's.
    pub fn new(
        store: TrackStore,
        models: Vec<PlayModel>,
        settings: PlaybackSettings,
        base: usize,
    ) -> Self {
        let peds = store.summaries();
        let n = peds.len();
        let model_count = models.len().max(1) as u64;
        let model_of: Vec<u32> = peds
            .iter()
            .map(|p| (mix(p.id, 1) % model_count) as u32)
            .collect();
        let scale = peds
            .iter()
            .zip(&model_of)
            .map(|(p, &m)| {
                let height = p
                    .height
                    .filter(|h| h.is_finite() && *h > 0.1)
                    .unwrap_or_else(|| {
                        let v = settings.height_variety * (2.0 * unit(mix(p.id, 2)) - 1.0);
                        settings.default_height * (1.0 + v)
                    });
                let model_height = models.get(m as usize).map_or(1.0, |m| m.height);
                if model_height > 0.0 {
                    height / model_height
                } else {
                    1.0
                }
            })
            .collect();
        let mut by_start: Vec<u32> = (0..n as u32).collect();
        by_start.sort_by(|&a, &b| peds[a as usize].start.total_cmp(&peds[b as usize].start));
        let mut by_end: Vec<u32> = (0..n as u32).collect();
        by_end.sort_by(|&a, &b| peds[a as usize].end.total_cmp(&peds[b as usize].end));
        let most_present = most_present(peds);
        let resident = ResidentPaths::new(n, settings.smooth, ENTRY_WINDOW, most_present);
        Self {
            model_of,
            scale,
            slot: vec![ABSENT; n],
            by_start,
            by_end,
            next_start: 0,
            next_end: 0,
            present: Locomotion::new(models, settings, base, most_present),
            settings,
            time: None,
            most_present,
            store: std::sync::Arc::new(store),
            resident,
        }
    }

    /// Grows `crowd` once to hold the most pedestrians ever present, and the playback's own
    /// room for the paths it holds at once, so that no later step allocates; the crowd is
    /// left as it was.
    pub fn reserve(&mut self, crowd: &mut Crowd) -> Result<(), CrowdError> {
        let peds = self.store.summaries();
        let paths = most_overlapping(peds, self.resident.lead());
        let samples = (self.resident.span_held() * sample_rate(peds)).ceil() as usize + 8;
        self.resident.reserve(
            paths,
            samples.min(MAX_RESERVED_SAMPLES),
            self.store.largest_chunk(),
        );
        self.present.reserve(crowd, self.most_present)
    }

    /// The most pedestrians present at once.
    pub fn most_present(&self) -> usize {
        self.most_present
    }

    /// The file's samples and its pedestrians.
    pub fn store(&self) -> &TrackStore {
        &self.store
    }

    /// Samples the playback holds now, and chunks it has read so far: a long file's cost
    /// (it counts every pedestrian: for tests and reports, not every frame).
    pub fn held_samples(&self) -> (usize, u32) {
        self.resident.held()
    }

    /// Pedestrian `p` as the file's index knows it.
    fn summary(&self, p: u32) -> &TrackSummary {
        &self.store.summaries()[p as usize]
    }

    /// The first sample's time, seconds (0 with no pedestrian).
    pub fn start(&self) -> f64 {
        self.by_start
            .first()
            .map_or(0.0, |&p| self.summary(p).start)
    }

    /// The last sample's time, seconds (0 with no pedestrian).
    pub fn end(&self) -> f64 {
        self.by_end.last().map_or(0.0, |&p| self.summary(p).end)
    }

    /// The file time the crowd shows (`None` before the first step).
    pub fn time(&self) -> Option<f64> {
        self.time
    }

    /// Pedestrians present.
    pub fn present(&self) -> usize {
        self.present.len()
    }

    /// The `k`-th pedestrian present (crowd index `base + k`).
    pub fn member(&self, k: usize) -> Option<MemberState> {
        self.present.member(k)
    }

    /// The crowd index of the first pedestrian.
    pub fn base(&self) -> usize {
        self.present.base()
    }

    /// The models pedestrians are drawn as.
    pub fn models(&self) -> &[PlayModel] {
        self.present.models()
    }

    /// The model (index into [`Playback::models`]) the `k`-th pedestrian present is drawn as.
    pub fn member_model(&self, k: usize) -> Option<usize> {
        self.present.member_model(k)
    }

    /// Shows the file at time `t`: forward from the last step, pedestrians enter and leave
    /// and everyone present moves, turns and steps, their clocks advanced by the time passed;
    /// backwards, or on the first call, the crowd is rebuilt at `t` ([`Playback::seek`]).
    pub fn advance_to(&mut self, crowd: &mut Crowd, t: f64) -> Result<StepCounts, PlaybackError> {
        let Some(now) = self.time.filter(|&now| t >= now) else {
            return self.seek(crowd, t);
        };
        let dt = (t - now) as f32;
        let mut counts = StepCounts::default();
        self.resident.advance(&self.store, t)?;
        // Those whose last sample has passed leave.
        while let Some(&p) = self.by_end.get(self.next_end) {
            if !(self.summary(p).end < t) {
                break;
            }
            if self.slot[p as usize] != ABSENT {
                self.remove(crowd, p)?;
                counts.left += 1;
            }
            self.resident.release(p);
            self.next_end += 1;
        }
        // Those whose first sample has come enter (unless they have already gone again).
        while let Some(&p) = self.by_start.get(self.next_start) {
            if !(self.summary(p).start <= t) {
                break;
            }
            if self.summary(p).end >= t {
                self.enter(crowd, p, t)?;
                counts.entered += 1;
            }
            self.next_start += 1;
        }
        counts.gait_changes = self.move_members(crowd, t, dt)?;
        crowd.update(dt);
        self.time = Some(t);
        Ok(counts)
    }

    /// Rebuilds the crowd at time `t`: every pedestrian present at `t` is there, in the gait
    /// of its speed, facing where it goes.
    pub fn seek(&mut self, crowd: &mut Crowd, t: f64) -> Result<StepCounts, PlaybackError> {
        // The last present leaves first, so nobody moves.
        while let Some(p) = (self.present.len().checked_sub(1)).and_then(|k| self.present.key(k)) {
            self.remove(crowd, p as u32)?;
        }
        let (started, present) = self.present_at(t);
        self.next_start = started;
        self.next_end = self.ended_by(t);
        self.resident.seek(&self.store, t, &present)?;
        for &p in &present {
            self.enter(crowd, p, t)?;
        }
        self.move_members(crowd, t, 0.0)?;
        self.time = Some(t);
        Ok(StepCounts {
            entered: present.len(),
            ..StepCounts::default()
        })
    }

    /// How many pedestrians have their first sample at or before `t` (the first so many of
    /// the list by first sample).
    fn started_by(&self, t: f64) -> usize {
        let peds = self.store.summaries();
        self.by_start
            .partition_point(|&p| peds[p as usize].start <= t)
    }

    /// How many pedestrians have their last sample before `t` (the first so many of the list
    /// by last sample).
    fn ended_by(&self, t: f64) -> usize {
        let peds = self.store.summaries();
        self.by_end.partition_point(|&p| peds[p as usize].end < t)
    }

    /// [`Self::started_by`] `t`, and the pedestrians present at `t` (started, and not ended
    /// before it), in the order of their first samples.
    fn present_at(&self, t: f64) -> (usize, Vec<u32>) {
        let peds = self.store.summaries();
        let started = self.started_by(t);
        let present = self.by_start[..started]
            .iter()
            .copied()
            .filter(|&p| peds[p as usize].end >= t)
            .collect();
        (started, present)
    }

    /// Adds pedestrian `p` to the crowd at time `t`, in the gait of its speed then, facing
    /// where it goes (or where it will go first, when it enters standing), somewhere in its
    /// clip.
    fn enter(&mut self, crowd: &mut Crowd, p: u32, t: f64) -> Result<(), CrowdError> {
        let path = self.resident.path(p);
        let smooth = self.settings.smooth;
        let k = self.present.enter(
            crowd,
            Arrival {
                key: u64::from(p),
                id: self.summary(p).id,
                model: self.model_of[p as usize] as usize,
                scale: self.scale[p as usize],
                position: path.smoothed(t, smooth),
                velocity: path.velocity(t, smooth),
                facing: path.velocity(t + 0.5 * ENTRY_WINDOW, ENTRY_WINDOW),
            },
        )?;
        self.slot[p as usize] = k as u32;
        Ok(())
    }

    /// Takes pedestrian `p` out of the crowd; the last present takes its place, in the crowd
    /// and in the list.
    fn remove(&mut self, crowd: &mut Crowd, p: u32) -> Result<(), CrowdError> {
        let k = self.slot[p as usize] as usize;
        if let Some(moved) = self.present.leave(crowd, k)? {
            self.slot[moved as usize] = k as u32;
        }
        self.slot[p as usize] = ABSENT;
        Ok(())
    }

    /// Places, turns, paces (and tints) every pedestrian present for time `t`, `dt` after
    /// the last step, where its (smoothed) path is; returns the gait changes.
    fn move_members(&mut self, crowd: &mut Crowd, t: f64, dt: f32) -> Result<usize, CrowdError> {
        let smooth = self.settings.smooth;
        for k in 0..self.present.len() {
            let Some(p) = self.present.key(k) else {
                break;
            };
            let path = self.resident.path(p as u32);
            self.present
                .place(k, path.smoothed(t, smooth), path.velocity(t, smooth));
        }
        self.present.step(crowd, dt)
    }

    /// A point of the file's ground plane in the world (on the ground, y = 0).
    pub fn to_world(&self, position: DVec2) -> Vec3 {
        self.present.to_world(position)
    }

    /// A world point in the file's coordinates: (x, y) on the ground plane and z up.
    pub fn to_file(&self, world: Vec3) -> [f64; 3] {
        self.present.to_file(world)
    }

    /// The settings it plays with.
    pub fn settings(&self) -> &PlaybackSettings {
        &self.settings
    }
}

#[cfg(test)]
mod tests;
