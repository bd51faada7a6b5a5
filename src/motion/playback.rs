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
mod given;
mod on_device;
mod slot_schedule;

use glam::{DVec2, Quat, Vec3, Vec3A};

use super::coloring::{ColorBy, DensityGrid};
use super::gait::Gait;
use super::heading::{heading_of, turn_towards};
use super::identity::{mix, unit};
use super::pivot::pivoted;
use super::resident::ResidentPaths;
use super::trajectory::{TrackStore, TrackSummary};
use crate::anim::Mat3x4;
use crate::crowd::{Crowd, CrowdError};
use census::{MAX_RESERVED_SAMPLES, most_overlapping, most_present, sample_rate};
pub use device_tables::{
    DeviceGaits, DeviceSample, DeviceSampleWrite, DeviceTrack, DeviceTrackCommand, DeviceTrackStep,
    DeviceTrackTables,
};
pub use given::{MemberState, PlayModel, PlaybackError, PlaybackSettings, StepCounts};
pub use on_device::TracksOnDevice;

/// One pedestrian present in the crowd.
#[derive(Clone, Copy, Debug)]
struct Member {
    ped: u32,
    gait: Gait,
    heading: f32,
    speed: f32,
    position: DVec2,
    /// Its step of the colour ramp ([`NO_STEP`] before the first).
    step: u8,
    /// Its local density, persons per m² (0 unless colouring by density).
    density: f32,
    /// How far its root stands from its path, metres (file plane): what turning about the
    /// planted foot instead of the root moved it by.
    pivot: DVec2,
}

/// A member's ramp step before it has one.
const NO_STEP: u8 = u8::MAX;

/// Marks a pedestrian not in the crowd.
const ABSENT: u32 = u32::MAX;

/// A longer window for the heading a pedestrian enters with: it may enter standing still.
const ENTRY_WINDOW: f64 = 1.0;

/// See the module documentation.
pub struct Playback {
    /// Shared with the GPU path's reader thread ([`TracksOnDevice`]).
    store: std::sync::Arc<TrackStore>,
    resident: ResidentPaths,
    /// Per pedestrian: its model (index into `models`), its scale, and its slot in `members`.
    model_of: Vec<u32>,
    scale: Vec<f32>,
    slot: Vec<u32>,
    /// Pedestrians by first and by last sample time, and how far each list has been passed.
    by_start: Vec<u32>,
    by_end: Vec<u32>,
    next_start: usize,
    next_end: usize,
    members: Vec<Member>,
    base: usize,
    models: Vec<PlayModel>,
    settings: PlaybackSettings,
    time: Option<f64>,
    most_present: usize,
    /// Scratch of a step: members' positions and densities, and the density grid.
    positions: Vec<DVec2>,
    densities: Vec<f32>,
    grid: DensityGrid,
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
            members: Vec::with_capacity(most_present),
            base,
            models,
            settings,
            time: None,
            most_present,
            positions: Vec::with_capacity(most_present),
            densities: Vec::with_capacity(most_present),
            grid: DensityGrid::with_capacity(most_present),
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
        let Some(model) = self.models.first() else {
            return Ok(());
        };
        let before = crowd.len();
        for _ in 0..self.most_present {
            crowd.spawn(model.id, Mat3x4::IDENTITY)?;
        }
        while crowd.len() > before {
            crowd.despawn(crowd.len() - 1)?;
        }
        Ok(())
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
        self.members.len()
    }

    /// The `k`-th pedestrian present (crowd index `base + k`).
    pub fn member(&self, k: usize) -> Option<MemberState> {
        let m = self.members.get(k)?;
        Some(MemberState {
            id: self.summary(m.ped).id,
            position: m.position,
            heading: m.heading,
            speed: m.speed,
            gait: m.gait,
            scale: self.scale[m.ped as usize],
            density: m.density,
        })
    }

    /// The crowd index of the first pedestrian.
    pub fn base(&self) -> usize {
        self.base
    }

    /// The models pedestrians are drawn as.
    pub fn models(&self) -> &[PlayModel] {
        &self.models
    }

    /// The model (index into [`Playback::models`]) the `k`-th pedestrian present is drawn as.
    pub fn member_model(&self, k: usize) -> Option<usize> {
        let m = self.members.get(k)?;
        Some(self.model_of[m.ped as usize] as usize)
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
        while let Some(m) = self.members.last() {
            let p = m.ped;
            self.remove(crowd, p)?;
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
        let id = self.summary(p).id;
        let path = self.resident.path(p);
        let model = &self.models[self.model_of[p as usize] as usize];
        let velocity = path.velocity(t, self.settings.smooth);
        let speed = velocity.length() as f32;
        let mut look_ahead = path.velocity(t + 0.5 * ENTRY_WINDOW, ENTRY_WINDOW);
        if look_ahead.length() < 1e-6 {
            look_ahead = velocity;
        }
        let heading = if look_ahead.length() > 1e-6 {
            heading_of(look_ahead.as_vec2())
        } else {
            0.0
        };
        let gait = self.settings.speeds.first(speed, model.gaits.can_run);
        let position = path.smoothed(t, self.settings.smooth);
        let scale = self.scale[p as usize];
        let world = self.world(position, heading, scale, &model.standing);
        let i = crowd.spawn(model.id, world)?;
        crowd.play(i, model.gaits.clips[gait.index()], 0.0)?;
        if !model.looks.is_empty() {
            let look = model.looks[(mix(id, 3) % model.looks.len() as u64) as usize];
            crowd.set_look(i, look)?;
        }
        let inst = crowd.instance_mut(i);
        let duration = inst.model().clips()[inst.clip()].duration();
        let time = unit(mix(id, 4)) * duration;
        inst.set_time(time);
        inst.set_speed(model.gaits.rate(gait, speed, scale, time));
        self.slot[p as usize] = self.members.len() as u32;
        self.members.push(Member {
            ped: p,
            gait,
            heading,
            speed,
            position,
            step: NO_STEP,
            density: 0.0,
            pivot: DVec2::ZERO,
        });
        Ok(())
    }

    /// Takes pedestrian `p` out of the crowd; the last member takes its place, in the crowd
    /// and in the list.
    fn remove(&mut self, crowd: &mut Crowd, p: u32) -> Result<(), CrowdError> {
        let k = self.slot[p as usize] as usize;
        crowd.despawn(self.base + k)?;
        self.members.swap_remove(k);
        if let Some(moved) = self.members.get(k) {
            self.slot[moved.ped as usize] = k as u32;
        }
        self.slot[p as usize] = ABSENT;
        Ok(())
    }

    /// Places, turns, paces (and tints) every member for time `t`, `dt` after the last step;
    /// returns the gait changes.
    fn move_members(&mut self, crowd: &mut Crowd, t: f64, dt: f32) -> Result<usize, CrowdError> {
        let s = self.settings;
        self.positions.clear();
        for m in &self.members {
            let path = self.resident.path(m.ped);
            self.positions.push(path.smoothed(t, s.smooth));
        }
        self.densities.clear();
        self.densities.resize(self.members.len(), 0.0);
        if s.color_by == Some(ColorBy::Density) {
            self.grid.densities(&self.positions, &mut self.densities);
        }
        let mut changes = 0;
        for k in 0..self.members.len() {
            let m = self.members[k];
            let p = m.ped as usize;
            let path = self.resident.path(m.ped);
            let model = &self.models[self.model_of[p] as usize];
            let velocity = path.velocity(t, s.smooth);
            let speed = velocity.length() as f32;
            let gait = s.speeds.next(m.gait, speed, model.gaits.can_run);
            let i = self.base + k;
            if gait != m.gait {
                crowd.play(i, model.gaits.clips[gait.index()], s.fade)?;
                changes += 1;
            }
            let heading = if gait != Gait::Stand && speed > 1e-6 {
                let target = heading_of(velocity.as_vec2());
                turn_towards(m.heading, target, s.turn_rate, dt)
            } else {
                m.heading
            };
            let position = self.positions[k];
            let scale = self.scale[p];
            let pivot = if s.smooth > 0.0 {
                let time = crowd.instance(i).time();
                let foot = model.gaits.stances[gait.index()].planted_foot(time);
                pivoted(
                    m.pivot,
                    m.position + m.pivot,
                    m.heading,
                    heading,
                    foot,
                    scale,
                    dt,
                )
            } else {
                // The file's positions exactly, as asked.
                DVec2::ZERO
            };
            crowd.set_world(
                i,
                self.world(position + pivot, heading, scale, &model.standing),
            );
            // How far forward the body went since the last step: the clip's planted foot
            // slides back as far over the same step.
            let forward = DVec2::new(f64::from(heading.sin()), -f64::from(heading.cos()));
            let distance = ((position - m.position).dot(forward) as f32).max(0.0);
            let inst = crowd.instance_mut(i);
            let time = inst.time();
            let rate = if gait == m.gait {
                model
                    .gaits
                    .step_rate(gait, (distance, dt), speed, scale, time)
            } else {
                model.gaits.rate(gait, speed, scale, time)
            };
            inst.set_speed(rate);
            let density = self.densities[k];
            let mut step = m.step;
            if let Some(by) = s.color_by {
                let value = match by {
                    ColorBy::Speed => speed,
                    ColorBy::Density => density,
                };
                let want = by.step(value) as u8;
                if want != m.step
                    && let Some(&look) = model.ramp.get(usize::from(want))
                {
                    crowd.set_look(i, look)?;
                    step = want;
                }
            }
            self.members[k] = Member {
                gait,
                heading,
                speed,
                position,
                step,
                density,
                pivot,
                ..m
            };
        }
        Ok(changes)
    }

    /// The world transform of a character at `position` (file coordinates) facing `heading`,
    /// scaled by `scale`, its model stood on the ground by `standing`.
    fn world(&self, position: DVec2, heading: f32, scale: f32, standing: &Mat3x4) -> Mat3x4 {
        let at = self.to_world(position);
        Mat3x4::from_trs(
            Vec3A::from(at),
            Quat::from_rotation_y(heading),
            Vec3A::splat(scale),
        )
        .mul(standing)
    }

    /// A point of the file's ground plane in the world (on the ground, y = 0).
    pub fn to_world(&self, position: DVec2) -> Vec3 {
        let d = position - self.settings.origin;
        Vec3::new(d.x as f32, 0.0, -d.y as f32)
    }

    /// A world point in the file's coordinates: (x, y) on the ground plane and z up.
    pub fn to_file(&self, world: Vec3) -> [f64; 3] {
        [
            f64::from(world.x) + self.settings.origin.x,
            -f64::from(world.z) + self.settings.origin.y,
            f64::from(world.y),
        ]
    }

    /// The settings it plays with.
    pub fn settings(&self) -> &PlaybackSettings {
        &self.settings
    }
}

#[cfg(test)]
mod tests;
