//! The Vulkan renderer: device and memory ([`GpuContext`], gpu-allocator), the palette ring's
//! mapped memory and timeline ([`DeviceRingAllocator`], [`Timeline`]), the frame graph
//! ([`graph`]), pipelines and passes, and the two ways frames leave: an [`Offscreen`] image
//! read back to PNG, or a window's [`Swapchain`].
//!
//! Depends on `anim` and `crowd` (and on nothing that knows file formats); they know nothing
//! of it. Every Vulkan object gets a debug name and every pass a debug label of its name, so
//! validation messages and RenderDoc captures read in the program's own words.

mod baked_table;
mod cull_buffers;
pub mod cull_data;
mod cull_inputs;
pub mod device;
mod draw_stats;
mod gpu_timings;
pub mod graph;
mod headless_renderer;
mod in_flight;
mod model_buffers;
pub mod passes;
pub mod pipeline_builder;
mod pipeline_set;
mod record_frame;
mod renderer;
mod renderer_io;
mod ring_memory;
mod samplers;
/// The numbers the shaders and the Rust side share (bindings, flags, workgroup sizes), which
/// `build.rs` passes to every shader as macros.
pub mod shader_interface;
mod transients;
mod uniform_packing;
mod uniforms;

pub use device::capture::{CaptureOutcome, FrameCapture};
pub use device::context::{ContextOptions, GpuContext, WindowHandles};
pub use device::error::{GpuError, INSTALL_HINT};
pub use device::offscreen::{OFFSCREEN_FORMAT, Offscreen, Pixels};
pub use device::swapchain::{Acquired, PresentMode, Swapchain};
pub use device::targets::{FrameSync, TargetImage};
pub use device::texture::TexelSpace;
pub use device::texture::{
    BlockUpload, DECODE_BC_ON_CPU_ENV, block_format, mip_chain, samples as device_samples_format,
};
pub use device::validation::{validation_messages, validation_wanted};
pub use device::{fault, shaders};
pub use draw_stats::DrawStats;
pub use headless_renderer::HeadlessRenderer;
pub use passes::{DEFAULT_MSAA, RenderSettings, SOFTWARE_DEFAULT_MSAA, default_msaa};
pub use pipeline_builder::Culling;
pub use renderer::{BAKED_ERROR_PX, LOD_ERROR_PX, Presentation, Renderer};
pub use renderer_io::{FrameInputs, FrameTimes, PassTime};
pub use ring_memory::{DeviceRegion, DeviceRingAllocator, Timeline};
pub use uniforms::{DrawConstants, FrameData, ViewMode};
