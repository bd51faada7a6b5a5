//! What the locomotion is given and what it reports: the models characters are drawn as, the
//! settings they are played with, and a character's state.

use glam::DVec2;

use crate::anim::{Mat3x4, SkinnedModel};
use crate::crowd::{LookId, ModelId};
use crate::motion::coloring::ColorBy;
use crate::motion::gait::{Gait, GaitClips, GaitError, GaitSpeeds};
use crate::motion::heading::DEFAULT_TURN_RATE;
use crate::scene::{footprint, standing_basis};

/// A model pedestrians are drawn as.
#[derive(Clone, Debug)]
pub struct PlayModel {
    /// The model in the crowd.
    pub id: ModelId,
    /// The model stood on the ground facing +Z (`standing_basis`).
    pub standing: Mat3x4,
    /// How tall it stands, model units.
    pub height: f32,
    /// Its clips for standing, walking and running.
    pub gaits: GaitClips,
    /// Looks to dress its pedestrians in (empty: the plain look).
    pub looks: Vec<LookId>,
    /// With a colouring, its look for each step of the ramp (`coloring::ramp_looks`).
    pub ramp: Vec<LookId>,
}

impl PlayModel {
    /// `model`, added to the crowd as `id`, with its clips for standing, walking and running
    /// found by name (idle, stand or survey; walk; run), in the plain look: refused when it has
    /// no walk. Its looks and colour ramp can be set afterwards.
    pub fn of(id: ModelId, model: &SkinnedModel) -> Result<Self, GaitError> {
        Ok(Self {
            id,
            standing: standing_basis(model),
            height: footprint(model).1,
            gaits: GaitClips::of(model, &[None, None, None])?,
            looks: Vec::new(),
            ramp: Vec::new(),
        })
    }
}

/// How pedestrians are played.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlaybackSettings {
    /// The moving-average window of positions, seconds (0: the file's positions).
    pub smooth: f64,
    /// The fastest a pedestrian turns, radians per second.
    pub turn_rate: f32,
    /// The cross-fade between gaits, seconds.
    pub fade: f32,
    /// The speeds at which gaits change.
    pub speeds: GaitSpeeds,
    /// The height of a pedestrian the file gives none for, metres.
    pub default_height: f32,
    /// Heights drawn from the id within this fraction of the default (0: all the same).
    pub height_variety: f32,
    /// The file's point at the world's origin (files in map coordinates would lose
    /// precision in single floats).
    pub origin: DVec2,
    /// Tint pedestrians by their speed or their local density (each model needs its
    /// [`PlayModel::ramp`]).
    pub color_by: Option<ColorBy>,
}

impl Default for PlaybackSettings {
    /// For characters a program moves itself ([`Locomotion`](crate::motion::Locomotion)):
    /// exactly where it puts them (no window), turning at [`DEFAULT_TURN_RATE`], a quarter
    /// second's cross-fade between gaits at the default speeds, 1.75 m tall, no colouring, the
    /// program's origin at the world's.
    fn default() -> Self {
        Self {
            smooth: 0.0,
            turn_rate: DEFAULT_TURN_RATE,
            fade: 0.25,
            speeds: GaitSpeeds::default(),
            default_height: 1.75,
            height_variety: 0.0,
            origin: DVec2::ZERO,
            color_by: None,
        }
    }
}

/// What a character present is doing, as [`Locomotion::member`](super::Locomotion::member)
/// (and [`Playback::member`](crate::motion::Playback::member)) reports it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MemberState {
    /// The file's id.
    pub id: u64,
    /// Where it stands, in the file's coordinates (metres).
    pub position: DVec2,
    /// Which way it faces, world radians from +Z towards +X.
    pub heading: f32,
    /// How fast it moves, metres per second.
    pub speed: f32,
    /// Its gait.
    pub gait: Gait,
    /// Its size relative to its model's file.
    pub scale: f32,
    /// Its local density, persons per m² (0 unless colouring by density). Counted up to the
    /// ramp's top ([`top_count`](crate::motion::top_count) persons): a denser crowd
    /// says [`DENSITY_TOP`](crate::motion::DENSITY_TOP) or a little more.
    pub density: f32,
}
