//! The culling passes' tables (`shaders/cull.glsl`): the frame's views, the models, their
//! bounds and their draw commands, defined once for Rust and GLSL in `gpu/frame/device_layouts.rs`
//! and packed per frame into the culling inputs buffer; the flags, views and sizes they use.

pub use crate::gpu::frame::gpu_layouts::{
    CardCommand, CullBound, CullFrame, CullModel, DrawCommand, DrawViews, SkinTarget,
};

pub use crate::gpu::frame::shader_interface::{CARD_LEVEL, LIST_LEVELS};

pub use crate::gpu::frame::shader_interface::VIEW_CAMERA;
pub use crate::gpu::frame::shader_interface::VIEW_CAMERA_LATE;
pub use crate::gpu::frame::shader_interface::VIEW_SHADOW;
pub use crate::gpu::frame::shader_interface::VIEWS;
/// The views whose draws are built before the occlusion test.
pub const EARLY_VIEWS: usize = 2;

pub use crate::gpu::frame::shader_interface::CULL_FRUSTUM;
pub use crate::gpu::frame::shader_interface::CULL_IMPOSTORS;
pub use crate::gpu::frame::shader_interface::CULL_LOD;
pub use crate::gpu::frame::shader_interface::CULL_OCCLUSION;
pub use crate::gpu::frame::shader_interface::CULL_SHADOWS;

pub use crate::gpu::frame::shader_interface::OCCLUSION_BLOCK;
/// An instance whose projected radius reaches this many pixels is drawn before the occlusion
/// test, as an occluder; smaller ones are tested against what those leave.
pub const OCCLUDER_RADIUS_PX: f32 = 24.0;

pub use crate::gpu::frame::shader_interface::CULL_GROUP;

const _: () = assert!(size_of::<CullFrame>() == 400);
const _: () = assert!(size_of::<CardCommand>() == 16);
const _: () = assert!(size_of::<CullModel>() == 80);
const _: () = assert!(size_of::<CullBound>() == 32);
const _: () = assert!(size_of::<DrawCommand>() == 20);

/// Index of a counter: `[view][model][list]`, the mesh levels then [`CARD_LEVEL`].
pub fn counter_index(models: usize, view: usize, model: usize, level: usize) -> usize {
    (view * models + model) * LIST_LEVELS + level
}
