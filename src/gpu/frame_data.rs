//! The CPU mirrors of the GLSL blocks in `shaders/common.glsl`: per-frame uniforms and
//! per-draw push constants. `tests/gpu_layouts.rs` checks them against the GLSL.

use bytemuck::{Pod, Zeroable};
use glam::{Mat4, Vec4};

/// What a frame shows (`--view`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ViewMode {
    /// The lit image (`VIEW_FINAL` in the shaders).
    #[default]
    Final,
    /// Characters white on black: no ground, no lighting (`VIEW_SILHOUETTE`). What the
    /// GPU-versus-CPU skinning checks compare.
    Silhouette,
}

impl ViewMode {
    /// The value the shaders compare `frame.view_mode.x` with.
    pub fn shader_value(self) -> u32 {
        match self {
            Self::Final => 0,
            Self::Silhouette => 1,
        }
    }
}

/// The `Frame` uniform block (std140, 192 bytes).
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct FrameData {
    /// World to Vulkan clip space.
    pub view_proj: Mat4,
    /// xyz: unit vector towards the light.
    pub light_dir: Vec4,
    /// rgb: light colour times intensity.
    pub light_color: Vec4,
    /// Ambient from above.
    pub sky_color: Vec4,
    /// Ambient from below.
    pub ground_color: Vec4,
    /// xyz: the eye.
    pub camera_pos: Vec4,
    /// x, y: the ground quad's centre (world x, z); z: half its size; w: its height.
    pub ground_plane: Vec4,
    /// x: the ground's checker tile size.
    pub ground_tile: Vec4,
    /// x: [`ViewMode::shader_value`].
    pub view_mode: [u32; 4],
}

/// The `Draw` push-constant block (48 bytes): one model subset's material.
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct DrawConstants {
    /// Linear RGBA base colour.
    pub base_color: Vec4,
    /// rgb: specular reflectance at normal incidence.
    pub fresnel0: Vec4,
    /// x: roughness, y: alpha clip (0/1), z: has a normal map (0/1), w: -1 when the
    /// instance transform mirrors, else +1.
    pub params: Vec4,
}

const _: () = assert!(size_of::<FrameData>() == 192);
const _: () = assert!(size_of::<DrawConstants>() == 48);
