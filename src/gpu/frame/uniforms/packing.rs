//! Packing a frame's uniforms ([`FrameData`]) from the camera, light and ground the caller
//! gives and what the frame's passes do.

use ash::vk;
use glam::{Vec3, Vec4};

use crate::gpu::frame::frame_io::FrameInputs;
use crate::gpu::frame::settings::RenderSettings;
use crate::gpu::frame::shape::FrameShape;
use crate::gpu::frame::uniforms::data::{FrameData, SSAO_KERNEL};
use crate::scene::light_view_proj;

/// Packs a frame's uniforms: camera, light, ground, the shadow map's projection and
/// filtering, and the ambient occlusion's parameters, for what `shape` draws.
pub fn pack_frame(
    inputs: &FrameInputs,
    extent: vk::Extent2D,
    settings: &RenderSettings,
    shape: &FrameShape,
    kernel: &[Vec4; SSAO_KERNEL],
) -> FrameData {
    let (lo, hi) = inputs.shadow_box;
    let light_view_proj = light_view_proj(inputs.light_dir, lo, hi);
    let size = settings.shadow_size_at(extent) as f32;
    // One shadow-map texel, in world units: the normal offset of the lookup.
    let texel_world = (hi - lo).length() / size;
    let (w, h) = (extent.width as f32, extent.height as f32);
    FrameData {
        view_proj: inputs.view_proj,
        view: inputs.view,
        proj: inputs.proj,
        inv_proj: inputs.proj.inverse(),
        light_view_proj,
        light_dir: inputs.light_dir.normalize_or(Vec3::Y).extend(0.0),
        light_color: inputs.light_color.extend(0.0),
        sky_color: inputs.sky.extend(0.0),
        ground_color: inputs.ground_ambient.extend(0.0),
        camera_pos: inputs.eye.extend(1.0),
        ground_plane: inputs.ground_plane,
        ground_tile: Vec4::new(inputs.ground_tile.max(1e-6), 0.0, 0.0, 0.0),
        target: Vec4::new(w, h, 1.0 / w, 1.0 / h),
        shadow: Vec4::new(
            if shape.shadows { 1.0 } else { 0.0 },
            1.0 / size,
            texel_world * 1.5,
            0.85,
        ),
        ssao: Vec4::new(
            if shape.ao { 1.0 } else { 0.0 },
            inputs.ssao_radius.max(1e-4),
            inputs.ssao_radius * 0.05,
            // Contact shadows should read at a glance: the raw term is soft.
            3.0,
        ),
        view_mode: [inputs.view_mode.shader_value(), 0, 0, 0],
        ssao_kernel: *kernel,
    }
}
