//! The frame floor: what every pass stands on and no feature owns. The declaration a pass
//! declares itself into ([`declaration`], with the helpers for passes drawing over the target
//! in [`over_target`]), what a pass records with ([`recording`], with what the features hand a
//! frame in [`recording::features`]), the resources the graph makes per frame
//! ([`resources`]), what a frame is asked to be ([`settings`]), the frame's uniforms
//! ([`uniforms`]) and inputs from the caller ([`frame_io`]), the crowd on the device that every
//! drawing pass reads (its models in [`model_buffers`], looks in [`looks_table`], baked frames in
//! [`baked_table`], culling inputs in [`culling`]), the palette ring's memory and timeline
//! ([`ring_memory`]), each frame in flight's command buffer and queries ([`in_flight`],
//! [`timings`]), samplers ([`samplers`]), and what Rust and the shaders share
//! ([`shader_interface`], [`gpu_layouts`](mod@gpu_layouts)).
//!
//! Stands on the device floor and the graph; knows no feature (the layering test holds it to
//! that).

pub mod baked_table;
pub mod culling;
pub mod declaration;
pub mod frame_io;
pub mod gpu_layouts;
pub mod in_flight;
pub mod looks_table;
pub mod model_buffers;
pub mod over_target;
pub mod recording;
pub mod resources;
pub mod ring_memory;
pub mod samplers;
pub mod settings;
/// The numbers the shaders and the Rust side share (flags, views, sizes, and the bindings
/// of shared includes), which `build.rs` passes to every shader as macros.
pub mod shader_interface;
pub mod shape;
pub mod skin_room;
pub mod skinning;
pub mod timings;
pub mod uniforms;
