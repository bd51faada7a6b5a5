//! The playback as the GPU runs it: the tables and records a compute pass reads
//! (`shaders/track_step.comp` and its two helpers), whose layouts are defined once for Rust
//! and GLSL in `motion/device_layouts.rs`.
//!
//! A pool of crowd instances (slots) is spawned once; the host assigns each pedestrian a slot
//! when its first samples are read ([`DeviceTrackCommand`](crate::motion::DeviceTrackCommand)) and appends its samples to the
//! slot's ring as chunks of the file are read ([`DeviceSampleWrite`](crate::motion::DeviceSampleWrite)); each frame the GPU
//! places, turns and paces every slot's pedestrian from its samples ([`DeviceTrack`](crate::motion::DeviceTrack) is what
//! it keeps per slot) by the rules [`Playback`](super::Playback) applies on the CPU, reading
//! each model's gaits ([`DeviceGaits`]) and the stance profiles of its clips.

use crate::motion::device_codes::{RAMP_STEPS, TRACK_NONE};
use crate::motion::gpu_layouts::DeviceGaits;
use crate::motion::locomotion::PlayModel;

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
    /// Colouring by density: the buckets of the hash of cells the neighbours are counted in
    /// ([`DeviceTrackStep::density_buckets`](crate::motion::DeviceTrackStep)); 0 otherwise.
    pub density_buckets: u32,
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
        Self {
            gaits,
            stances,
            density_buckets: 0,
        }
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
