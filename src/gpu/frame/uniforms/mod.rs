//! The frame's uniforms: the `Frame` block and the per-draw constants the shaders read
//! ([`data`]), and how the CPU fills the block from the camera, the light and the settings
//! each frame ([`packing`]).

pub mod data;
pub mod packing;

pub use data::{
    DrawConstants, FRAME_UNIFORMS_SIZE, FrameData, NEAR_FRAME_OFFSET, SSAO_KERNEL, ssao_kernel,
};
