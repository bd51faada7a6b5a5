//! The Vulkan renderer, on two floors.
//!
//! - **The device floor** ([`device`]): instance, device, memory, buffers, images, textures,
//!   shader modules and pipelines with layouts read from their shaders, the swapchain, the
//!   offscreen target, submission, validation and capture. It knows nothing of crowds,
//!   scenes or passes.
//! - **The renderer floor** above it: the generic frame graph ([`graph`]), what a frame is
//!   asked to be ([`settings`]), the frame's passes ([`passes`], one file each, owning what
//!   they make), recording them ([`recording`]), what they make kept across frames
//!   ([`resources`]), the frame-wide inputs (the palette ring's mapped memory and timeline in
//!   [`DeviceRingAllocator`] and [`Timeline`], the uniforms in [`uniforms`], the culling inputs
//!   in [`culling`]), timings, and the [`Renderer`] that runs a frame top-down.
//!
//! Depends on `anim` and `crowd` (and on nothing that knows file formats); they know nothing
//! of it. Every Vulkan object gets a debug name and every pass a debug label of its name, so
//! validation messages and RenderDoc captures read in the program's own words.

mod baked_table;
pub mod crowd_state;
pub mod crowd_tracks;
pub mod culling;
pub mod device;
mod gpu_layouts;
pub mod graph;
mod headless_renderer;
pub mod hud;
pub mod impostors;
mod in_flight;
mod looks_table;
mod model_buffers;
pub mod passes;
pub mod recording;
mod renderer;
mod renderer_io;
pub mod resources;
mod ring_memory;
mod samplers;
pub mod settings;
/// The numbers the shaders and the Rust side share (flags, views, sizes, and the bindings
/// of shared includes), which `build.rs` passes to every shader as macros.
pub mod shader_interface;
mod timings;
pub mod uniforms;

pub use culling::data as cull_data;
pub use culling::stats::DrawStats;
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
pub use headless_renderer::HeadlessRenderer;
pub use impostors::atlases::DEFAULT_IMPOSTOR_MEMORY;
pub use looks_table::GpuLook;
pub use renderer::{BAKED_ERROR_PX, LOD_ERROR_PX, Presentation, Renderer};
pub use renderer_io::{FrameInputs, FrameTimes, PassTime};
pub use ring_memory::{DeviceRegion, DeviceRingAllocator, Timeline};
pub use settings::{
    CardDepth, DEFAULT_IMPOSTOR_PX, DEFAULT_MSAA, IMPOSTOR_REFERENCE_HEIGHT,
    MAX_SCALED_IMPOSTOR_PX, Raster, RenderSettings, SOFTWARE_DEFAULT_MSAA, ViewMode, default_msaa,
};
pub use uniforms::{DrawConstants, FrameData};
