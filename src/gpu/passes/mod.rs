//! The passes' recording: each pass is declared in the frame graph (see
//! [`super::renderer`]), which puts its barriers and debug label around the function here.

pub mod forward;
pub mod readback;

use std::ops::Range;

use ash::vk;

use super::context::GpuContext;
use super::frame_data::ViewMode;
use super::model::GpuModel;

/// What a pass records with, for one frame.
pub struct PassContext<'a> {
    /// The device and its helpers.
    pub ctx: &'a GpuContext,
    /// The command buffer being recorded.
    pub cmd: vk::CommandBuffer,
    /// The render size.
    pub extent: vk::Extent2D,
    /// What the frame shows.
    pub view: ViewMode,
    /// The colour target's view.
    pub color_view: vk::ImageView,
    /// The colour target's image (for copies).
    pub color_image: vk::Image,
    /// The depth buffer's view.
    pub depth_view: vk::ImageView,
    /// The palette ring's buffer, and where this frame's records and palettes are in it.
    pub ring: RingBinding,
    /// The frame's uniform buffer.
    pub uniforms: vk::Buffer,
    /// The models, and each one's range of instance records this frame.
    pub models: &'a [GpuModel],
    /// Indexed like `models`.
    pub ranges: &'a [Range<usize>],
    /// Texture fallbacks and the sampler.
    pub materials: MaterialDefaults,
    /// Where the readback pass copies the colour target.
    pub readback: vk::Buffer,
}

/// A slot of the palette ring, as buffer ranges.
#[derive(Clone, Copy, Debug)]
pub struct RingBinding {
    /// The region's storage buffer.
    pub buffer: vk::Buffer,
    /// Byte offset and size of the instance records.
    pub records: (vk::DeviceSize, vk::DeviceSize),
    /// Byte offset and size of the palettes.
    pub palettes: (vk::DeviceSize, vk::DeviceSize),
}

/// What a material without a texture samples, and the sampler.
#[derive(Clone, Copy, Debug)]
pub struct MaterialDefaults {
    /// The shared sampler.
    pub sampler: vk::Sampler,
    /// 1x1 white (no base colour map).
    pub white: vk::ImageView,
    /// 1x1 flat normal (no normal map).
    pub flat_normal: vk::ImageView,
}
