//! The Vulkan renderer, in floors; each stands on the ones below it and knows nothing of
//! those above (the layering test holds every floor to the list of what it may use):
//!
//! 1. **The device** ([`device`]): instance, device, memory, buffers, images, textures,
//!    shader modules and pipelines with layouts read from their shaders, the swapchain, the
//!    offscreen target, submission, validation and capture. It knows nothing of crowds,
//!    scenes or passes.
//! 2. **The graph** ([`graph`]): passes declare what they read and write; the graph orders
//!    them, derives every barrier, layout and load/store operation, and culls the passes
//!    nothing reads. Generic: it knows no pass.
//! 3. **The frame** ([`frame`]): what every pass stands on: the declaration, recording with
//!    declared resources, the frame's targets, uniforms, settings and inputs, the crowd's
//!    models, looks and baked frames on the device, the palette ring.
//! 4. **The features** ([`features`]): each a folder (or a file) with its passes and the state
//!    it keeps across frames, which it imports into the graph every frame.
//! 5. **The renderer** ([`renderer`]): the order of features ([`renderer::compose`]) and the
//!    [`Renderer`] that runs a frame top-down.
//!
//! Depends on `anim` and `crowd` (and on nothing that knows file formats); they know nothing
//! of it. Every Vulkan object gets a debug name and every pass a debug label of its name, so
//! validation messages and RenderDoc captures read in the program's own words.

pub mod device;
pub mod features;
pub mod frame;
pub mod graph;
pub mod renderer;

pub use device::capture::{CaptureOutcome, FrameCapture};
pub use device::context::{ContextOptions, GpuContext, WindowHandles};
pub use device::error::{GpuError, INSTALL_HINT};
pub use device::offscreen::{OFFSCREEN_FORMAT, Offscreen, Pixels, WindowReadback};
pub use device::pipeline::Culling;
pub use device::swapchain::{Acquired, PresentMode, Swapchain};
pub use device::targets::{FrameSync, TargetImage};
pub use device::texture::TexelSpace;
pub use device::texture::{
    BlockUpload, DECODE_BC_ON_CPU_ENV, block_format, mip_chain, samples as device_samples_format,
};
pub use device::validation::{validation_messages, validation_wanted};
pub use device::{fault, shaders};
pub use features::impostors::atlases::DEFAULT_IMPOSTOR_MEMORY;
pub use frame::culling::data as cull_data;
pub use frame::culling::stats::DrawStats;
pub use frame::frame_io::{FrameInputs, FrameTimes, PassTime};
pub use frame::looks_table::GpuLook;
pub use frame::ring_memory::{DeviceRegion, DeviceRingAllocator, Timeline};
pub use frame::settings::{
    CardDepth, DEFAULT_IMPOSTOR_PX, DEFAULT_MSAA, IMPOSTOR_REFERENCE_HEIGHT,
    MAX_SCALED_IMPOSTOR_PX, Raster, RenderSettings, SOFTWARE_DEFAULT_MSAA, ViewMode, default_msaa,
};
pub use frame::skin_room::DEFAULT_SKIN_MEMORY_MB;
pub use frame::uniforms::{DrawConstants, FrameData};
pub use renderer::compose::pass;
pub use renderer::headless::HeadlessRenderer;
pub use renderer::{BAKED_ERROR_PX, LOD_ERROR_PX, Presentation, Renderer};
