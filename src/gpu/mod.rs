//! The Vulkan renderer: device and memory ([`GpuContext`], gpu-allocator), the palette ring's
//! mapped memory and timeline ([`DeviceRingAllocator`], [`Timeline`]), the frame graph
//! ([`graph`]), pipelines and passes, and the two ways frames leave: an [`Offscreen`] image
//! read back to PNG, or a window's [`Swapchain`].
//!
//! Depends on `anim` and `crowd` (and on nothing that knows file formats); they know nothing
//! of it. Every Vulkan object gets a debug name and every pass a debug label of its name, so
//! validation messages and RenderDoc captures read in the program's own words.

mod buffer;
mod capture;
mod context;
mod cull;
pub mod cull_data;
mod error;
pub mod fault;
mod frame;
mod frame_data;
pub mod frame_graph;
mod frame_inputs;
pub mod graph;
mod headless;
mod image;
mod instance;
mod model;
mod offscreen;
pub mod passes;
mod physical;
pub mod pipeline;
mod pipelines;
mod renderer;
mod ring;
/// The numbers the shaders and the Rust side share (bindings, flags, workgroup sizes), which
/// `build.rs` passes to every shader as macros.
pub mod shader_interface;
pub mod shaders;
mod swapchain;
mod texture;
mod validation;

pub use capture::{CaptureOutcome, FrameCapture};
pub use context::{ContextOptions, GpuContext, WindowHandles};
pub use error::{GpuError, INSTALL_HINT};
pub use frame_data::{DrawConstants, FrameData, ViewMode};
pub use frame_graph::RenderSettings;
pub use frame_inputs::{FrameInputs, FrameSync, FrameTimes, PassTime, TargetImage};
pub use headless::HeadlessRenderer;
pub use offscreen::{OFFSCREEN_FORMAT, Offscreen, Pixels};
pub use pipeline::Culling;
pub use renderer::{BAKED_ERROR_PX, DrawStats, LOD_ERROR_PX, Presentation, Renderer};
pub use ring::{DeviceRegion, DeviceRingAllocator, Timeline};
pub use swapchain::{Acquired, PresentMode, Swapchain};
pub use texture::TexelSpace;
pub use texture::{
    BlockUpload, DECODE_BC_ON_CPU_ENV, block_format, mip_chain, samples as device_samples_format,
};
pub use validation::{validation_messages, validation_wanted};
