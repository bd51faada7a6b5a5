//! The CPU mirrors of the culling passes' blocks in `shaders/cull.glsl`: the frame's views,
//! the models, their bounds and their draw ranges, packed per frame into the culling inputs
//! buffer. `tests/gpu_layouts.rs` checks them against the GLSL.

use bytemuck::{Pod, Zeroable};
use glam::{Mat4, Vec4};

pub use crate::gpu::shader_interface::{CARD_LEVEL, LIST_LEVELS};

pub use crate::gpu::shader_interface::VIEW_CAMERA;
pub use crate::gpu::shader_interface::VIEW_CAMERA_LATE;
pub use crate::gpu::shader_interface::VIEW_SHADOW;
pub use crate::gpu::shader_interface::VIEWS;
/// The views whose draws are built before the occlusion test.
pub const EARLY_VIEWS: usize = 2;

pub use crate::gpu::shader_interface::CULL_FRUSTUM;
pub use crate::gpu::shader_interface::CULL_IMPOSTORS;
pub use crate::gpu::shader_interface::CULL_LOD;
pub use crate::gpu::shader_interface::CULL_OCCLUSION;
pub use crate::gpu::shader_interface::CULL_SHADOWS;

pub use crate::gpu::shader_interface::OCCLUSION_BLOCK;
/// An instance whose projected radius reaches this many pixels is drawn before the occlusion
/// test, as an occluder; smaller ones are tested against what those leave.
pub const OCCLUDER_RADIUS_PX: f32 = 24.0;

pub use crate::gpu::shader_interface::CULL_GROUP;

/// The `CullFrame` block (std430, 368 bytes).
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
#[repr(C)]
pub struct CullFrame {
    /// The camera's frustum planes, `n . p + d >= 0` inside.
    pub camera_planes: [Vec4; 6],
    /// The shadow map's volume.
    pub light_planes: [Vec4; 6],
    /// xyz: the eye; w: pixels per world unit one unit in front of it.
    pub eye: Vec4,
    /// xyz: unit vector towards the sun; w: the ground's height.
    pub light: Vec4,
    /// x: allowed error in pixels; y: nearest distance; z: the lowest sun (sine of its
    /// elevation) a shadow is swept for; w: how many times that error a shadow's level may
    /// have ([`crate::crowd::visibility::SHADOW_ERROR_SCALE`]).
    pub lod: Vec4,
    /// x: instance records; y: models; z: `CULL_*` flags; w: most subsets of one model.
    pub counts: [u32; 4],
    /// x: a shadow-map texel's size in world units; y: the texels of error a shadow's level
    /// may have ([`crate::crowd::visibility::SHADOW_TEXEL_ERROR`]); z: the pixels of error
    /// baked frames may show before an instance needs exact palettes (read by the
    /// crowd-state pass).
    pub shadow: Vec4,
    /// World to the camera's clip space.
    pub view_proj: Mat4,
    /// x: [`OCCLUDER_RADIUS_PX`]; y: [`OCCLUSION_BLOCK`]; zw: the occlusion image's size.
    pub occlusion: Vec4,
    /// x: the height on screen, pixels, under which an instance is an impostor card, in part
    /// (`--impostor-px`); y: under which it is a card alone
    /// ([`crate::crowd::visibility::CARD_FADE`]).
    pub impostor: Vec4,
}

/// One model's `CullModel` (48 bytes).
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
#[repr(C)]
pub struct CullModel {
    /// x: first record; y: records; z: first bound; w: mesh levels (1 to
    /// [`crate::crowd::visibility::LOD_LEVELS`]).
    pub range: [u32; 4],
    /// The error of levels 1 to 4, in model units.
    pub errors: Vec4,
    /// x: first draw range; y: subsets; z: clips its impostor atlas holds (0: none).
    pub draws: [u32; 4],
}

/// A model-space box (`Bound`, 32 bytes).
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
#[repr(C)]
pub struct CullBound {
    /// Lowest corner (w unused).
    pub lo: Vec4,
    /// Highest corner (w unused).
    pub hi: Vec4,
}

/// `VkDrawIndexedIndirectCommand`, as `shaders/cull_draws.comp` writes it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
#[repr(C)]
pub struct DrawCommand {
    /// Indices per instance.
    pub index_count: u32,
    /// Instances.
    pub instance_count: u32,
    /// First index in the model's index buffer.
    pub first_index: u32,
    /// Added to every index.
    pub vertex_offset: i32,
    /// Where the draw's list starts (see `list_start` in `shaders/cull.glsl`).
    pub first_instance: u32,
}

/// `VkDrawIndirectCommand`: one view's and model's impostor cards, as
/// `shaders/cull_draws.comp` writes it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
#[repr(C)]
pub struct CardCommand {
    /// Four: a triangle strip, generated.
    pub vertex_count: u32,
    /// Cards.
    pub instance_count: u32,
    /// Zero.
    pub first_vertex: u32,
    /// Where the cards' list starts.
    pub first_instance: u32,
}

const _: () = assert!(size_of::<CullFrame>() == 368);
const _: () = assert!(size_of::<CardCommand>() == 16);
const _: () = assert!(size_of::<CullModel>() == 48);
const _: () = assert!(size_of::<CullBound>() == 32);
const _: () = assert!(size_of::<DrawCommand>() == 20);

/// Index of a counter: `[view][model][list]`, the mesh levels then [`CARD_LEVEL`].
pub fn counter_index(models: usize, view: usize, model: usize, level: usize) -> usize {
    (view * models + model) * LIST_LEVELS + level
}

/// `vkCmdPushConstants` of `shaders/cull_draws.comp`: the views a dispatch builds draws for.
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
#[repr(C)]
pub struct DrawViews {
    /// The first view.
    pub first: u32,
    /// How many views.
    pub count: u32,
}
