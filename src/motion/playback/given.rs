//! What a playback reports: a step's counts and its errors (the models pedestrians are drawn
//! as, the settings they are played with and a pedestrian's state are the locomotion's).

use crate::crowd::CrowdError;
use crate::motion::trajectory::TrajectoryError;

/// Why a playback step failed: the crowd refused a change, or the file's samples could not
/// be read back.
#[derive(Debug, thiserror::Error)]
pub enum PlaybackError {
    /// The crowd refused a spawn, a despawn, a clip or a look.
    #[error(transparent)]
    Crowd(#[from] CrowdError),
    /// A chunk of samples could not be read (the temporary file).
    #[error(transparent)]
    Read(#[from] TrajectoryError),
}

/// What one step did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StepCounts {
    /// Pedestrians that entered.
    pub entered: usize,
    /// Pedestrians that left.
    pub left: usize,
    /// Gait changes (cross-fades started).
    pub gait_changes: usize,
}
