//! The exposure's state on the device: the log2 luminance the frames have adapted to, and
//! whether it was ever measured (the first frame takes its own measurement whole).

use std::sync::Arc;

use ash::vk;

use crate::gpu::device::buffer::GpuBuffer;
use crate::gpu::device::context::GpuContext;
use crate::gpu::device::error::GpuError;
use crate::gpu::frame::gpu_layouts::ExposureConstants;
use crate::gpu::frame::recording::features::FeatureFrame;

/// The buffer the exposure passes import by this name.
pub const STATE: &str = "exposure state";
/// The time over which the adapted exposure covers about 63% of a change in brightness.
pub const ADAPTATION_SECONDS: f32 = 0.5;
/// The average luminance (a geometric mean) the exposure brings a frame to: mid-grey.
pub const TARGET_LUMINANCE: f32 = 0.18;

/// What the exposure passes read this frame (their push constants).
pub type ExposureFrame = ExposureConstants;

/// See the module documentation.
pub struct ExposureState {
    /// `[adapted log2 luminance, measured (0/1), 0, 0]`.
    buffer: GpuBuffer,
}

impl ExposureState {
    /// An exposure never measured.
    pub fn new(ctx: &Arc<GpuContext>) -> Result<Self, GpuError> {
        Ok(Self {
            buffer: GpuBuffer::with_data(
                ctx,
                STATE,
                vk::BufferUsageFlags::STORAGE_BUFFER,
                bytemuck::bytes_of(&[0.0f32; 4]),
            )?,
        })
    }

    /// What a frame `dt` seconds after the previous one reads.
    pub fn frame(dt: f32) -> ExposureFrame {
        let dt = if dt.is_finite() { dt.max(0.0) } else { 0.0 };
        ExposureFrame {
            rate: 1.0 - (-dt / ADAPTATION_SECONDS).exp(),
            target_log: TARGET_LUMINANCE.log2(),
            min_log: -10.0,
            max_log: 2.0,
        }
    }

    /// Hands a frame the state (imported by name) and `frame`.
    pub fn hand<'a>(
        &self,
        frame: &'a ExposureFrame,
        to: &mut FeatureFrame<'a>,
    ) -> Result<(), GpuError> {
        to.import(STATE, self.buffer.buffer)?;
        to.provide(frame)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rate_follows_the_frames_time() {
        assert_eq!(ExposureState::frame(0.0).rate, 0.0);
        let one = ExposureState::frame(ADAPTATION_SECONDS).rate;
        assert!((one - (1.0 - (-1.0f32).exp())).abs() < 1e-6);
        // Two frames of half the time cover the same share as one of the whole.
        let half = ExposureState::frame(ADAPTATION_SECONDS / 2.0).rate;
        assert!((1.0 - (1.0 - half) * (1.0 - half) - one).abs() < 1e-6);
        assert_eq!(ExposureState::frame(f32::NAN).rate, 0.0);
        assert_eq!(ExposureState::frame(-1.0).rate, 0.0);
    }
}
