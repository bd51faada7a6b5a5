//! One pedestrian of a playback played on its own on the CPU, for a camera that rides behind
//! it while the crowd is placed on the GPU (whose places stay there).
//!
//! It is the playback of a store holding that pedestrian alone (filed again within the file's
//! memory budget: [`TrackStore::one`]), in a crowd of its own: every pedestrian is placed,
//! turned and paced from its own path and its own clip's clock, so it steps exactly as the
//! same pedestrian steps in the playback of the whole file (the GPU's rules follow those
//! within micrometres). Its looks and colours are left out: they move nothing.
//!
//! [`TrackStore::one`]: crate::motion::trajectory::TrackStore::one

use super::{Playback, PlaybackError};
use crate::crowd::{Crowd, CrowdError};
use crate::motion::locomotion::{MemberState, PlayModel, PlaybackSettings};

/// See the module documentation.
pub struct Follower {
    id: u64,
    playback: Playback,
    crowd: Crowd,
}

impl Follower {
    /// Pedestrian `id` of `playback`, whose models are in `crowd`; `None` when the file has no
    /// pedestrian of that id. Reads the pedestrian's samples once (every chunk of its time
    /// span) and makes all the room its steps need.
    pub fn new(playback: &Playback, crowd: &Crowd, id: u64) -> Result<Option<Self>, PlaybackError> {
        let store = playback.store();
        let Some(p) = store.summaries().iter().position(|s| s.id == id) else {
            return Ok(None);
        };
        let Some(alone) = store.one(p)? else {
            return Ok(None);
        };
        let mut own = Crowd::new(1)?;
        let mut models = Vec::with_capacity(playback.models().len());
        for m in playback.models() {
            let model = crowd
                .models()
                .get(m.id.0 as usize)
                .ok_or(CrowdError::UnknownModel(m.id.0 as usize))?;
            models.push(PlayModel {
                id: own.add_model(model.clone()),
                looks: Vec::new(),
                ramp: Vec::new(),
                ..m.clone()
            });
        }
        let settings = PlaybackSettings {
            color_by: None,
            ..*playback.settings()
        };
        let mut alone = Playback::new(alone, models, settings, 0);
        alone.reserve(&mut own)?;
        Ok(Some(Self {
            id,
            playback: alone,
            crowd: own,
        }))
    }

    /// Shows file time `t`, as [`Playback::advance_to`] (backwards or on the first call, a
    /// seek).
    pub fn advance_to(&mut self, t: f64) -> Result<(), PlaybackError> {
        self.playback.advance_to(&mut self.crowd, t).map(|_| ())
    }

    /// The pedestrian's id in the file.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The pedestrian at the time shown; `None` while it is not present.
    pub fn state(&self) -> Option<MemberState> {
        self.playback.member(0)
    }

    /// The playback of the pedestrian alone (its settings, its world placement).
    pub fn playback(&self) -> &Playback {
        &self.playback
    }
}
