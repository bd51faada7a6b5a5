//! Packing a frame's uniforms ([`FrameData`]) from the camera, light and ground the caller
//! gives and what the frame's passes do.

use ash::vk;
use glam::{Mat4, Vec3, Vec4};

use crate::gpu::frame::frame_io::FrameInputs;
use crate::gpu::frame::settings::RenderSettings;
use crate::gpu::frame::shape::FrameShape;
use crate::gpu::frame::uniforms::data::{FrameData, SSAO_KERNEL};
use crate::scene::{NearCascade, light_view_proj};

/// The normal offset of a shadow lookup, in texels of its map: past the texel the surface
/// itself fell in, so it does not shadow itself.
const NORMAL_OFFSET_TEXELS: f32 = 1.5;

/// The share of the near cascade's receivers' narrower side over which it gives way to the
/// whole box's map, so its edge is not seen as a line where shadows sharpen.
const NEAR_BAND: f32 = 0.1;

/// Packs a frame's uniforms: camera, light, ground, the shadow map's projections (the whole
/// box's, and `near`'s where the frame uses the near cascade) and filtering, and the ambient
/// occlusion's parameters, for what `shape` draws.
pub fn pack_frame(
    inputs: &FrameInputs,
    extent: vk::Extent2D,
    settings: &RenderSettings,
    shape: &FrameShape,
    kernel: &[Vec4; SSAO_KERNEL],
    near: Option<&NearCascade>,
) -> FrameData {
    let (lo, hi) = inputs.shadow_box;
    let light_view_proj = light_view_proj(inputs.light_dir, lo, hi);
    let size = settings.shadow_size_at(extent) as f32;
    // One shadow-map texel, in world units (the box's diagonal over the side: at least the
    // texel's width): the normal offset of the lookup.
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
            texel_world * NORMAL_OFFSET_TEXELS,
            0.85,
        ),
        light_view_proj_near: near.map_or(Mat4::IDENTITY, |n| n.light_view_proj),
        shadow_near: near_uniform(near, size, shape.shadow_cascade),
        near_lo: near.map_or(Vec4::ZERO, |n| n.receivers.0.extend(0.0)),
        near_hi: near.map_or(Vec4::ZERO, |n| n.receivers.1.extend(0.0)),
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

/// `FrameData::shadow_near` for the near cascade `near` (if this frame uses one) of a
/// shadow map whose squares are `size` texels, the map holding both squares where `atlas`.
fn near_uniform(near: Option<&NearCascade>, size: f32, atlas: bool) -> Vec4 {
    let share = if atlas { 0.5 } else { 1.0 };
    match near {
        Some(n) => {
            let (lo, hi) = n.receivers;
            let narrower = (hi.x - lo.x).min(hi.z - lo.z);
            Vec4::new(
                1.0,
                n.width / size * NORMAL_OFFSET_TEXELS,
                (narrower * NEAR_BAND).max(1e-4),
                share,
            )
        }
        None => Vec4::new(0.0, 0.0, 0.0, share),
    }
}
