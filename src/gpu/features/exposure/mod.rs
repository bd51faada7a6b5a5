//! Auto exposure (`--auto-exposure`): the lit frame brought to a mid-grey average, the
//! exposure adapting over time as the eye does, so a camera moving from a sunlit street into
//! shadow (or a scene lit dimly from the start) is brightened over a fraction of a second
//! instead of staying dark.
//!
//! A feature that keeps state across frames: the exposure the frames have adapted to lives in
//! a buffer on the device ([`ExposureState`]), imported into the graph every frame. Each frame
//! a compute pass measures the scene colour's average brightness (the geometric mean of its
//! luminance) and moves the adapted value towards it by the frame's time, then a post-process
//! pass scales the scene colour by it and hands the result on as the scene colour
//! ([`pass`]). The lit passes are not touched. The scene colour arrives in 8 bits (what the
//! lit passes resolve into), so a dark frame is brightened with its banding, and highlights
//! clipped in it stay clipped.

pub mod pass;
mod state;

pub use state::{ADAPTATION_SECONDS, ExposureFrame, ExposureState, STATE, TARGET_LUMINANCE};
