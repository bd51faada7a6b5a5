//! The culling passes' inputs, packed by the CPU each frame into the frame in flight's
//! inputs buffer: the views' planes and level-of-detail scales, each model's range of
//! records, levels and draws, and every clip bound.

use std::ops::Range;

use ash::vk;
use glam::{Mat4, Vec3, Vec4};

use super::cull_buffers::CullBuffers;
use super::cull_data::{
    CULL_FRUSTUM, CULL_LOD, CULL_OCCLUSION, CULL_SHADOWS, CullBound, CullFrame, CullModel,
    OCCLUDER_RADIUS_PX, OCCLUSION_BLOCK,
};
use super::device::error::GpuError;
use super::graph::Extent;
use super::model_buffers::GpuModel;
use super::passes::RenderSettings;
use super::renderer_io::FrameInputs;
use crate::crowd::visibility::{
    Frustum, LOD_LEVELS, LOWEST_SUN, NEAREST, SHADOW_ERROR_SCALE, SHADOW_TEXEL_ERROR, ViewScale,
    shadow_texel,
};
use crate::crowd::{Crowd, ModelId};

/// A coarser mesh level is drawn where its error covers at most this many pixels (times
/// `--lod-bias`). A quarter of a pixel, not one: without anti-aliasing every edge pixel a
/// level moves flips between a character and what is behind it, and a crowd is mostly edges
/// (at 1,000 built-in characters in the overview, a one-pixel budget changes 5.6% of the
/// pixels by more than 8 levels, a quarter-pixel one 2.6%; docs/crowds-at-scale.md).
pub const LOD_ERROR_PX: f32 = 0.25;

/// How large things look in a frame: the projection's vertical scale is
/// `1 / tan(fov_y / 2)` (negated for Vulkan's y), so pixels per unit at distance one are half
/// the height times it.
pub fn view_scale(inputs: &FrameInputs, extent: vk::Extent2D) -> ViewScale {
    ViewScale {
        eye: inputs.eye,
        pixels_per_unit: 0.5 * extent.height as f32 * inputs.proj.y_axis.y.abs(),
    }
}

/// What a frame's culling inputs are made of.
pub struct CullInputs<'a> {
    /// The crowd: its size and clip bounds.
    pub crowd: &'a Crowd,
    /// The models on the device.
    pub models: &'a [GpuModel],
    /// Each model's range of records this frame.
    pub ranges: &'a [Range<usize>],
    /// Camera and light.
    pub inputs: &'a FrameInputs,
    /// World to the shadow map's clip space.
    pub light_view_proj: Mat4,
    /// The render size.
    pub extent: vk::Extent2D,
    /// Culling, levels and their bias.
    pub settings: &'a RenderSettings,
    /// Whether the shadow view's lists are filled (a pass draws the shadow map).
    pub shadows: bool,
    /// Whether small instances wait for the occlusion test.
    pub occlusion: bool,
    /// Most subsets of one model: draws are numbered `[view][model][subset]`.
    pub subsets: usize,
}

/// The vectors packing reuses, so a frame allocates nothing once they have grown.
#[derive(Debug, Default)]
pub struct CullInputWriter {
    models: Vec<CullModel>,
    bounds: Vec<CullBound>,
    ranges: Vec<[u32; 2]>,
}

impl CullInputWriter {
    /// Packs `c` into `cull`'s inputs buffer.
    pub fn write(&mut self, c: CullInputs<'_>, cull: &CullBuffers) -> Result<(), GpuError> {
        write(
            c,
            &mut self.models,
            &mut self.bounds,
            &mut self.ranges,
            cull,
        )
    }
}

/// Packs this frame's culling inputs into `cull`'s inputs buffer, reusing the vectors.
fn write(
    c: CullInputs<'_>,
    models: &mut Vec<CullModel>,
    bounds: &mut Vec<CullBound>,
    ranges: &mut Vec<[u32; 2]>,
    cull: &CullBuffers,
) -> Result<(), GpuError> {
    let light = c.inputs.light_dir.normalize_or(Vec3::Y);
    let scale = view_scale(c.inputs, c.extent);
    let mut flags = 0;
    if c.settings.cull {
        flags |= CULL_FRUSTUM;
    }
    if c.settings.lod {
        flags |= CULL_LOD;
    }
    if c.shadows {
        flags |= CULL_SHADOWS;
    }
    if c.occlusion {
        flags |= CULL_OCCLUSION;
    }
    let occlusion = Extent::TargetScaled(OCCLUSION_BLOCK).resolve(c.extent);
    let frame = CullFrame {
        camera_planes: Frustum::from_clip(c.inputs.view_proj).planes,
        light_planes: Frustum::from_clip(c.light_view_proj).planes,
        eye: c.inputs.eye.extend(scale.pixels_per_unit),
        light: light.extend(c.inputs.ground_plane.w),
        lod: Vec4::new(
            LOD_ERROR_PX * c.settings.lod_bias,
            NEAREST,
            LOWEST_SUN,
            SHADOW_ERROR_SCALE,
        ),
        counts: [
            c.crowd.len() as u32,
            c.models.len() as u32,
            flags,
            c.subsets as u32,
        ],
        shadow: Vec4::new(
            shadow_texel(c.light_view_proj, c.settings.shadow_size),
            SHADOW_TEXEL_ERROR,
            0.0,
            0.0,
        ),
        view_proj: c.inputs.view_proj,
        occlusion: Vec4::new(
            OCCLUDER_RADIUS_PX,
            OCCLUSION_BLOCK as f32,
            occlusion.width as f32,
            occlusion.height as f32,
        ),
    };
    models.clear();
    ranges.clear();
    for (m, (model, range)) in c.models.iter().zip(c.ranges).enumerate() {
        let first_bound = c.crowd.bounds_range(ModelId(m as u32)).start as u32;
        models.push(CullModel {
            range: [
                range.start as u32,
                range.len() as u32,
                first_bound,
                model.levels as u32,
            ],
            errors: Vec4::from(model.errors),
            draws: [
                (m * c.subsets * LOD_LEVELS) as u32,
                model.subsets.len() as u32,
                0,
                0,
            ],
        });
        ranges.extend_from_slice(&model.draw_ranges);
        let padding = (c.subsets - model.subsets.len()) * LOD_LEVELS;
        ranges.extend(std::iter::repeat_n([0, 0], padding));
    }
    bounds.clear();
    bounds.extend(c.crowd.bounds().iter().map(|b| CullBound {
        lo: b.min.extend(0.0),
        hi: b.max.extend(0.0),
    }));
    let layout = &cull.layout;
    cull.inputs
        .write(layout.frame.start, bytemuck::bytes_of(&frame))?;
    cull.inputs
        .write(layout.models.start, bytemuck::cast_slice(models))?;
    cull.inputs
        .write(layout.bounds.start, bytemuck::cast_slice(bounds))?;
    cull.inputs
        .write(layout.draw_ranges.start, bytemuck::cast_slice(ranges))?;
    Ok(())
}
