//! The one error of every command, displayed as one line.

impl From<throng::motion::PlaybackError> for CliError {
    fn from(e: throng::motion::PlaybackError) -> Self {
        match e {
            throng::motion::PlaybackError::Crowd(e) => CliError::Crowd(e),
            throng::motion::PlaybackError::Read(e) => CliError::Trajectory(e),
        }
    }
}

/// Anything that stops a command: displayed as one line.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The model could not be loaded.
    #[error(transparent)]
    Load(#[from] throng::asset::LoadError),
    /// The model is fine but the request does not fit it.
    #[error(transparent)]
    Anim(#[from] throng::anim::AnimError),
    /// The crowd could not be built or evaluated.
    #[error(transparent)]
    Crowd(#[from] throng::crowd::CrowdError),
    /// A trajectory file could not be read (its one-line error names the file and place).
    #[error(transparent)]
    Trajectory(#[from] throng::motion::trajectory::TrajectoryError),
    /// An argument that clap could not check alone.
    #[error("{0}")]
    Argument(String),
    /// The renderer failed.
    #[error(transparent)]
    Gpu(#[from] throng::gpu::GpuError),
    /// Writing output failed.
    #[error("{context}: {source}")]
    Io {
        context: String,
        source: std::io::Error,
    },
}
