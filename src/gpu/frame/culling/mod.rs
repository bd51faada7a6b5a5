//! Culling's frame-wide side: the data the culling shaders share with the Rust side
//! ([`data`]), the counts culling buffers are sized by ([`sizes`]), the inputs the CPU packs
//! each frame ([`inputs`]), and the statistics read back from the GPU's counters a frame late
//! ([`stats`]). The culling passes themselves, and the buffers they make, are in
//! [`crate::gpu::features::cull`] and [`crate::gpu::features::occlusion`].

pub mod data;
pub mod inputs;
pub mod sizes;
pub mod stats;
