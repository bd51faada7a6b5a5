//! The CPU mirrors of the GLSL blocks in `shaders/frame.glsl` and `shaders/materials.glsl`:
//! per-frame uniforms and per-draw push constants. `tests/gpu_layouts.rs` checks the layouts
//! against the GLSL.

use bytemuck::{Pod, Zeroable};
use glam::{Mat4, Vec4};

pub use crate::gpu::shader_interface::SSAO_KERNEL;

/// The `Frame` uniform block (std140, 752 bytes).
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct FrameData {
    /// World to Vulkan clip space.
    pub view_proj: Mat4,
    /// World to view space.
    pub view: Mat4,
    /// View to clip space.
    pub proj: Mat4,
    /// Clip to view space.
    pub inv_proj: Mat4,
    /// World to the shadow map's clip space.
    pub light_view_proj: Mat4,
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
    /// xy: render size in pixels; zw: their reciprocals.
    pub target: Vec4,
    /// x: shadows on (0/1); y: one shadow-map texel in uv; z: normal offset of the lookup
    /// (world units); w: shadow strength.
    pub shadow: Vec4,
    /// x: ambient occlusion on (0/1); y: radius (world units); z: depth bias; w: power.
    pub ssao: Vec4,
    /// x: [`crate::gpu::settings::ViewMode::shader_value`].
    pub view_mode: [u32; 4],
    /// Hemisphere samples for the ambient occlusion.
    pub ssao_kernel: [Vec4; SSAO_KERNEL],
}

/// The `Draw` push-constant block (48 bytes): one model subset's material.
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct DrawConstants {
    /// Linear RGBA base colour.
    pub base_color: Vec4,
    /// rgb: specular reflectance at normal incidence; w: the material's index in its mesh
    /// (which of an instance's look's tints applies).
    pub fresnel0: Vec4,
    /// x: roughness, y: alpha clip (0/1), z: has a normal map (0/1), w: -1 when the
    /// instance transform mirrors, else +1.
    pub params: Vec4,
}

const _: () = assert!(size_of::<FrameData>() == 752);
const _: () = assert!(size_of::<DrawConstants>() == 48);

/// The ambient-occlusion kernel: points in the unit hemisphere around +Z, from a fixed
/// sequence (the same every run, so frames are reproducible), pulled towards the centre so
/// that near occluders count more than far ones.
pub fn ssao_kernel() -> [Vec4; SSAO_KERNEL] {
    let mut kernel = [Vec4::ZERO; SSAO_KERNEL];
    for (i, k) in kernel.iter_mut().enumerate() {
        // Golden-angle spiral over the hemisphere, with a radical-inverse length.
        let t = (i as f32 + 0.5) / SSAO_KERNEL as f32;
        let z = 1.0 - t * 0.9; // stay off the tangent plane: grazing samples self-occlude
        let r = (1.0 - z * z).sqrt();
        let phi = i as f32 * 2.399_963;
        let len = {
            let mut bits = (i as u32 + 1).reverse_bits();
            bits >>= 8;
            (bits as f32 / (1u32 << 24) as f32).max(0.1)
        };
        let scale = 0.1 + 0.9 * len * len;
        *k = Vec4::new(r * phi.cos(), r * phi.sin(), z, 0.0) * scale;
    }
    kernel
}
