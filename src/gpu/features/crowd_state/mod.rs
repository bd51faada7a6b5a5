//! The crowd's state on the GPU: per instance its walker and clocks, advanced each frame by
//! the GPU instead of the CPU ([`state`]), a playback's pedestrians when the crowd has them
//! ([`tracks`]), and the passes that apply the crowd's changes, step it and write its records
//! ([`passes`], [`track_passes`]).

pub mod passes;
pub mod state;
pub mod track_passes;
pub mod tracks;
