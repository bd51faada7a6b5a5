//! A playback of the Jülich corridor as the tests that step one set it up: the file streamed
//! as `throng play` streams a long one, the settings `play` uses, a model with its colour
//! ramp.

use std::sync::Arc;

use glam::DVec2;
use throng::anim::SkinnedModel;
use throng::crowd::Crowd;
use throng::motion::trajectory::{ReadOptions, TrackStore, open_store};
use throng::motion::{ColorBy, GaitClips, GaitSpeeds, PlayModel, PlaybackSettings, ramp_looks};
use throng::scene::{footprint, standing_basis};

/// The corridor streamed: a budget of 1 MB keeps a quarter of it of samples in memory, and the
/// rest of its 2.6 MB goes to a temporary file.
pub fn streamed_corridor() -> TrackStore {
    let options = ReadOptions {
        max_memory: Some(1 << 20),
        ..super::corridor_options()
    };
    let file = open_store(
        &super::shared_asset("trajectories/uo-180-180-120.txt"),
        &options,
    )
    .expect("the corridor reads");
    assert!(file.spilled_bytes() > 0, "the corridor streams");
    file
}

/// The settings `play` uses by default for `file` (the area's centre as the origin), coloured
/// by `color_by`, heights varied by `variety` either way.
pub fn settings_for(
    file: &TrackStore,
    color_by: Option<ColorBy>,
    variety: f32,
) -> PlaybackSettings {
    let (lo, hi) = file.bounds();
    PlaybackSettings {
        smooth: 1.5,
        turn_rate: throng::motion::DEFAULT_TURN_RATE,
        fade: 0.25,
        speeds: GaitSpeeds::default(),
        default_height: 1.75,
        height_variety: variety,
        origin: 0.5 * (DVec2::from(lo) + DVec2::from(hi)),
        color_by,
    }
}

/// `model` added to `crowd` as a playback draws it: its gaits found by name, its colour ramp's
/// looks added.
pub fn ramp_model(crowd: &mut Crowd, model: &Arc<SkinnedModel>) -> PlayModel {
    let id = crowd.add_model(model.clone());
    let ramp = ramp_looks(model)
        .into_iter()
        .map(|l| crowd.add_look(l).expect("look"))
        .collect();
    PlayModel {
        id,
        standing: standing_basis(model),
        height: footprint(model).1,
        gaits: GaitClips::of(model, &[None, None, None]).expect("gaits"),
        looks: Vec::new(),
        ramp,
    }
}
