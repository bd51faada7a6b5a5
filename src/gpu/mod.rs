//! The Vulkan renderer: device, pipelines and passes, scheduled by a frame [`graph`].

pub mod graph;
