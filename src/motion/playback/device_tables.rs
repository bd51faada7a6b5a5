//! The playback as the GPU runs it: the tables and records a compute pass reads
//! (`shaders/track_step.comp` and its two helpers), in std430 layouts the shaders mirror.
//!
//! A pool of crowd instances (slots) is spawned once; the host assigns each pedestrian a slot
//! when its first samples are read ([`DeviceTrackCommand`]) and appends its samples to the
//! slot's ring as chunks of the file are read ([`DeviceSampleWrite`]); each frame the GPU
//! places, turns and paces every slot's pedestrian from its samples ([`DeviceTrack`] is what
//! it keeps per slot) by the rules [`Playback`](super::Playback) applies on the CPU, reading
//! each model's gaits ([`DeviceGaits`]) and the stance profiles of its clips.

use bytemuck::{Pod, Zeroable};

use crate::anim::Mat3x4;
use crate::motion::locomotion::PlayModel;
use crate::motion::rules::{RAMP_STEPS, TRACK_NONE};

/// Per slot, what the GPU keeps of its pedestrian (64 bytes, std430).
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
#[repr(C)]
pub struct DeviceTrack {
    /// [`TRACK_OCCUPIED`](crate::motion::TRACK_OCCUPIED) and
    /// [`TRACK_ENTERED`](crate::motion::TRACK_ENTERED).
    pub flags: u32,
    /// Samples written to its ring so far (the newest is `head - 1`, modulo the ring).
    pub head: u32,
    /// Its first and last sample times (seconds after the step's epoch).
    pub start: f32,
    /// See `start`.
    pub end: f32,
    /// Its height over its model's.
    pub scale: f32,
    /// Where in its clip it enters, a fraction of the clip.
    pub phase: f32,
    /// The look it enters wearing.
    pub look: u32,
    /// Its gait ([`Gait::index`](crate::motion::Gait::index)).
    pub gait: u32,
    /// Its heading, radians (world: from +Z towards +X).
    pub heading: f32,
    /// Its speed, metres per second.
    pub speed: f32,
    /// Its ramp step ([`TRACK_NO_STEP`](crate::motion::TRACK_NO_STEP) before the first).
    pub step: u32,
    /// Unused.
    pub pad: u32,
    /// Its smoothed position (file plane, metres from the playback's origin).
    pub position: [f32; 2],
    /// How far its root stands from its path (turning about the planted foot), metres.
    pub pivot: [f32; 2],
}

/// One sample of a ring (12 bytes, std430): time (seconds after the epoch) and position
/// (metres from the origin).
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
#[repr(C)]
pub struct DeviceSample {
    /// Seconds after the step's epoch.
    pub time: f32,
    /// File plane, metres from the playback's origin.
    pub position: [f32; 2],
}

/// A sample for a slot's ring (24 bytes, std430).
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
#[repr(C)]
pub struct DeviceSampleWrite {
    /// The slot.
    pub slot: u32,
    /// The sample's index among the slot's pedestrian's (its ring place is this modulo the
    /// ring).
    pub index: u32,
    /// The sample.
    pub value: DeviceSample,
    /// Unused.
    pub pad: u32,
}

/// A change of a slot's pedestrian (80 bytes, std430), applied in order before the frame's
/// samples.
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
#[repr(C)]
pub struct DeviceTrackCommand {
    /// [`TRACK_ASSIGN`](crate::motion::TRACK_ASSIGN) or
    /// [`TRACK_CLEAR`](crate::motion::TRACK_CLEAR).
    pub kind: u32,
    /// The slot.
    pub slot: u32,
    /// Unused.
    pub pad: [u32; 2],
    /// Assigned: the slot's new state.
    pub track: DeviceTrack,
}

/// Per crowd model, what the tracks' rules read of it (160 bytes, std430).
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
#[repr(C)]
pub struct DeviceGaits {
    /// The model stood on the ground facing +Z.
    pub standing: Mat3x4,
    /// Per gait, its clip (index in the model).
    pub clips: [u32; 3],
    /// 1 when the model has a clip to run with.
    pub can_run: u32,
    /// Per gait, the clip's stride speed (model units per second at rate 1).
    pub strides: [f32; 3],
    /// 1 when standing is the walk itself, frozen.
    pub frozen_stand: u32,
    /// Per gait, its stance profile's first float in the stance table
    /// ([`TRACK_NONE`]: none).
    pub stances: [u32; 3],
    /// Looks in `ramp`.
    pub ramp_len: u32,
    /// Its look for each step of the colour ramp.
    pub ramp: [u32; RAMP_STEPS as usize],
}

/// One frame of the tracks (96 bytes, the step pass's push constants).
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
#[repr(C)]
pub struct DeviceTrackStep {
    /// The file time shown, seconds after the epoch.
    pub time: f32,
    /// Seconds since the last step (0 after a seek).
    pub dt: f32,
    /// Slots.
    pub count: u32,
    /// The crowd index of the first slot.
    pub base: u32,
    /// The smoothing window, seconds.
    pub window: f32,
    /// The fastest turn, radians per second.
    pub turn_rate: f32,
    /// A gait change's cross-fade, seconds.
    pub fade: f32,
    /// Samples per slot's ring.
    pub ring: u32,
    /// [`GaitSpeeds`](crate::motion::GaitSpeeds), in its order.
    pub walk_above: f32,
    /// See `walk_above`.
    pub stand_below: f32,
    /// See `walk_above`.
    pub run_above: f32,
    /// See `walk_above`.
    pub walk_below: f32,
    /// Colouring by speed: the ramp's top (0: no colouring).
    pub color_top: f32,
    /// Commands this frame (the apply pass's count).
    pub commands: u32,
    /// Sample writes this frame.
    pub writes: u32,
    /// Unused.
    pub pad: u32,
    /// The rules' constants, written once on the Rust side: the window a pedestrian
    /// entering looks ahead over (seconds), [`MIN_VELOCITY_HALF_WINDOW`],
    /// [`MAX_DEPARTURE`], the farthest and the fade of turning about the planted foot, and
    /// [`MAX_RATE`].
    ///
    /// [`MIN_VELOCITY_HALF_WINDOW`]: crate::motion::MIN_VELOCITY_HALF_WINDOW
    /// [`MAX_DEPARTURE`]: crate::motion::MAX_DEPARTURE
    /// [`MAX_RATE`]: crate::motion::MAX_RATE
    pub entry_window: f32,
    /// See `entry_window`.
    pub min_velocity_half_window: f32,
    /// See `entry_window`.
    pub max_departure: f32,
    /// See `entry_window`.
    pub max_pivot: f32,
    /// See `entry_window`.
    pub pivot_fade: f32,
    /// See `entry_window`.
    pub max_rate: f32,
    /// Unused.
    pub pad2: [u32; 2],
}

/// The tables the tracks' rules read: per crowd model its gaits, and the stance profiles.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DeviceTrackTables {
    /// Per crowd model (models that no pedestrian is drawn as keep zeros).
    pub gaits: Vec<DeviceGaits>,
    /// The stance profiles, each: its duration, its bins, then per bin the planted foot's
    /// backward speed (0 where none is planted: the rate ignores a speed that is not
    /// positive), its x and its z (`NO_FOOT`, 3e38, where none is planted), then the travel at
    /// each bin's start and the cycle's end.
    pub stances: Vec<f32>,
}

impl DeviceTrackTables {
    /// The tables of `models` in a crowd of `crowd_models` models.
    pub fn new(models: &[PlayModel], crowd_models: usize) -> Self {
        let mut gaits = vec![DeviceGaits::default(); crowd_models.max(1)];
        let mut stances = Vec::new();
        for m in models {
            let Some(g) = gaits.get_mut(m.id.0 as usize) else {
                continue;
            };
            let clips = &m.gaits;
            let mut ramp = [TRACK_NONE; RAMP_STEPS as usize];
            for (slot, look) in ramp.iter_mut().zip(&m.ramp) {
                *slot = look.0;
            }
            *g = DeviceGaits {
                standing: m.standing,
                clips: clips.clips.map(|c| c as u32),
                can_run: u32::from(clips.can_run),
                strides: clips.strides,
                frozen_stand: u32::from(clips.clips[0] == clips.clips[1]),
                stances: clips.stances.each_ref().map(|s| {
                    s.tables()
                        .map_or(TRACK_NONE, |t| push_stance(&mut stances, t))
                }),
                ramp_len: m.ramp.len().min(RAMP_STEPS as usize) as u32,
                ramp,
            };
        }
        if stances.is_empty() {
            stances.push(0.0);
        }
        Self { gaits, stances }
    }
}

/// A stance table's foot coordinate where no foot is planted (the shader tests `>= 1e38`:
/// no model coordinate comes near, `anim::MAX_MAGNITUDE` bounds them far below).
pub const NO_FOOT: f32 = 3.0e38;

/// Appends `t` to the stance table; returns where it starts.
fn push_stance(table: &mut Vec<f32>, t: crate::scene::StanceTables<'_>) -> u32 {
    let base = table.len() as u32;
    table.push(t.duration);
    table.push(t.speeds.len() as f32);
    table.extend(t.speeds.iter().map(|s| s.unwrap_or(0.0)));
    table.extend(t.feet.iter().map(|f| f.map_or(NO_FOOT, |f| f[0])));
    table.extend(t.feet.iter().map(|f| f.map_or(NO_FOOT, |f| f[1])));
    table.extend_from_slice(t.travel);
    base
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the shaders' structs assume of the Rust ones.
    #[test]
    fn the_layouts_are_the_shaders() {
        assert_eq!(size_of::<DeviceTrack>(), 64);
        assert_eq!(size_of::<DeviceSample>(), 12);
        assert_eq!(size_of::<DeviceSampleWrite>(), 24);
        assert_eq!(size_of::<DeviceTrackCommand>(), 80);
        assert_eq!(size_of::<DeviceGaits>(), 160);
        assert_eq!(size_of::<DeviceTrackStep>(), 96);
    }
}
