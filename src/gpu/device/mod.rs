//! The device floor: what any Vulkan program needs, knowing nothing of crowds, scenes or the
//! passes built on it. The instance and physical device ([`instance`], [`physical`]), the
//! device context with its allocator and debug names ([`context`]), validation, errors,
//! injected faults, buffers, images, textures, shader modules, the swapchain and the
//! offscreen target, submission, and RenderDoc capture.

pub mod buffer;
pub mod capture;
pub mod context;
pub mod error;
pub mod fault;
pub mod image;
pub mod instance;
pub mod offscreen;
pub mod physical;
pub mod pipeline;
pub mod pipeline_desc;
pub mod pipeline_layout;
pub mod shaders;
pub mod spirv;
pub mod submit;
pub mod swapchain;
pub mod targets;
pub mod texture;
pub mod validation;

pub use validation::validation_wanted;
