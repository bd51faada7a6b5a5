//! The culling passes' inputs, packed by the CPU each frame into the frame in flight's
//! inputs buffer ([`InputBuffer`], one of the few frame-wide resources): the views' planes and
//! level-of-detail scales, each model's range of records, levels and draws, and every clip
//! bound.

use std::ops::Range;
use std::sync::Arc;

use ash::vk;
use glam::{Mat4, Vec3, Vec4};
use gpu_allocator::MemoryLocation;

use crate::crowd::visibility::{
    CARD_FADE, Frustum, LOD_LEVELS, LOWEST_SUN, NEAREST, SHADOW_ERROR_SCALE, SHADOW_TEXEL_ERROR,
    ViewScale, shadow_texel,
};
use crate::crowd::{Crowd, ModelId};
use crate::gpu::device::buffer::{GpuBuffer, MAX_OFFSET_ALIGNMENT};
use crate::gpu::device::context::GpuContext;
use crate::gpu::device::error::GpuError;
use crate::gpu::frame::culling::data::{
    CULL_FRUSTUM, CULL_IMPOSTORS, CULL_LOD, CULL_OCCLUSION, CULL_SHADOWS, CullBound, CullFrame,
    CullModel, OCCLUDER_RADIUS_PX, OCCLUSION_BLOCK,
};
use crate::gpu::frame::culling::sizes::CullSizes;
use crate::gpu::frame::frame_io::FrameInputs;
use crate::gpu::frame::model_buffers::GpuModel;
use crate::gpu::frame::settings::RenderSettings;
use crate::gpu::frame::shader_interface::RASTER_MODELS;
use crate::gpu::frame::skinning::skin_vec4s_for;
use crate::gpu::graph::Extent;
use crate::scene::NearCascade;

/// A coarser mesh level is drawn where its error covers at most this many pixels (times
/// `--lod-bias`). A quarter of a pixel, not one: without anti-aliasing every edge pixel a
/// level moves flips between a character and what is behind it, and a crowd is mostly edges
/// (at 1,000 built-in characters in the overview, a one-pixel budget changes 5.6% of the
/// pixels by more than 8 levels, a quarter-pixel one 2.6%; docs/crowds-at-scale.md).
pub const LOD_ERROR_PX: f32 = 0.25;

/// Baked frames replace exact palettes where their error covers at most this many pixels
/// (times `--lod-bias`): half a pixel, so a near character looks the same either way. The CPU's
/// choice and the crowd-state pass's (through the culling inputs) both use it.
pub const BAKED_ERROR_PX: f32 = 0.5;

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
    /// The near shadow cascade, where this frame has one.
    pub near_shadow: Option<&'a NearCascade>,
    /// The render size.
    pub extent: vk::Extent2D,
    /// Culling, levels and their bias.
    pub settings: &'a RenderSettings,
    /// Whether the shadow view's lists are filled (a pass draws the shadow map).
    pub shadows: bool,
    /// Whether small instances wait for the occlusion test.
    pub occlusion: bool,
    /// Whether the frame draws impostor cards (then instances of a model with an atlas
    /// become cards when short on screen).
    pub cards: bool,
    /// Whether the mesh raster draws the camera's coarser levels
    /// ([`crate::gpu::frame::shape::FrameShape::meshes_in_compute`]).
    pub meshes_in_compute: bool,
    /// Whether the sun's mesh raster draws the sun's coarser levels
    /// ([`crate::gpu::frame::shape::FrameShape::shadow_meshes_in_compute`]).
    pub shadow_meshes_in_compute: bool,
    /// How many clips model `m`'s impostor cards show (0: it has no cards).
    pub card_clips: &'a dyn Fn(usize) -> u32,
    /// Most subsets of one model: draws are numbered `[view][model][subset]`.
    pub subsets: usize,
}

/// The vectors packing reuses, so a frame allocates nothing once they have grown.
#[derive(Debug, Default)]
pub struct CullInputWriter {
    models: Vec<CullModel>,
    bounds: Vec<CullBound>,
    ranges: Vec<[u32; 4]>,
}

impl CullInputWriter {
    /// Packs `c` into `cull`.
    pub fn write(&mut self, c: CullInputs<'_>, cull: &InputBuffer) -> Result<(), GpuError> {
        write(
            c,
            &mut self.models,
            &mut self.bounds,
            &mut self.ranges,
            cull,
        )
    }
}

/// Packs this frame's culling inputs into `cull`, reusing the vectors.
fn write(
    c: CullInputs<'_>,
    models: &mut Vec<CullModel>,
    bounds: &mut Vec<CullBound>,
    ranges: &mut Vec<[u32; 4]>,
    cull: &InputBuffer,
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
    if c.cards {
        flags |= CULL_IMPOSTORS;
    }
    let occlusion = Extent::TargetScaled(OCCLUSION_BLOCK).resolve(c.extent);
    let impostor_px = c.settings.impostor_px_at(c.extent.height);
    let shadow_size = c.settings.shadow_size_at(c.extent);
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
            shadow_texel(c.light_view_proj, shadow_size),
            SHADOW_TEXEL_ERROR,
            // For the crowd-state pass's choice of exact palettes (as the CPU's).
            BAKED_ERROR_PX * c.settings.lod_bias,
            0.0,
        ),
        view_proj: c.inputs.view_proj,
        occlusion: Vec4::new(
            OCCLUDER_RADIUS_PX,
            OCCLUSION_BLOCK as f32,
            occlusion.width as f32,
            occlusion.height as f32,
        ),
        impostor: Vec4::new(impostor_px, impostor_px * (1.0 - CARD_FADE), 0.0, 0.0),
        near_shadow: Vec4::new(c.near_shadow.map_or(0.0, |n| n.reach), 0.0, 0.0, 0.0),
        // What the settings give, at most what the crowd could fill (the skinned buffer's
        // size, src/gpu/features/skin.rs).
        skin: [
            (c.settings.skin_vec4s() as usize).min(skin_vec4s_for(c.crowd.len(), c.models)) as u32,
            if c.meshes_in_compute {
                MESH_RASTER_LEVEL
            } else {
                0
            },
            if c.shadow_meshes_in_compute {
                MESH_RASTER_LEVEL
            } else {
                0
            },
            0,
        ],
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
                (c.card_clips)(m),
                model.level_vertices[0],
            ],
            level_vertices: [
                model.level_vertices[1],
                model.level_vertices[2],
                model.level_vertices[3],
                model.level_vertices[4],
            ],
            level_triangles: raster_triangles(m, model),
        });
        // Each subset's ranges with its material index (which a look may hide), for the
        // mesh raster.
        for (s, subset) in model.subsets.iter().enumerate() {
            let material = subset.constants.fresnel0.w as u32;
            let levels = &model.draw_ranges[s * LOD_LEVELS..(s + 1) * LOD_LEVELS];
            ranges.extend(
                levels
                    .iter()
                    .map(|&[first, count]| [first, count, material, 0]),
            );
        }
        let padding = (c.subsets - model.subsets.len()) * LOD_LEVELS;
        ranges.extend(std::iter::repeat_n([0; 4], padding));
    }
    bounds.clear();
    bounds.extend(c.crowd.bounds().iter().map(|b| CullBound {
        lo: b.min.extend(0.0),
        hi: b.max.extend(0.0),
    }));
    let layout = &cull.layout;
    let buffer = &cull.buffer;
    buffer.write(layout.frame.start, bytemuck::bytes_of(&frame))?;
    buffer.write(layout.models.start, bytemuck::cast_slice(models))?;
    buffer.write(layout.bounds.start, bytemuck::cast_slice(bounds))?;
    buffer.write(layout.draw_ranges.start, bytemuck::cast_slice(ranges))?;
    Ok(())
}

/// The first mesh level the mesh raster draws where it draws any (`cull.skin.y`): the
/// coarser levels, chosen for characters small on screen, whose triangles are a few pixels
/// each; the full mesh is the near characters', whose triangles the graphics units draw
/// well and whose edges the samples smooth.
pub const MESH_RASTER_LEVEL: u32 = 1;

/// Model `model`'s triangles at levels 1 to 4 for the mesh raster: 0 where it cannot draw
/// them: a subset whose material clips by alpha (it needs its texture where the triangles are
/// found, which one dispatch per model does not bind), a model past the first
/// [`RASTER_MODELS`] (the visibility buffer names 128), levels before [`MESH_RASTER_LEVEL`].
fn raster_triangles(m: usize, model: &GpuModel) -> [u32; 4] {
    let clips =
        m >= RASTER_MODELS as usize || model.subsets.iter().any(|s| s.constants.params.y > 0.5);
    std::array::from_fn(|k| {
        let level = k + 1;
        match model.level_triangles[level] {
            _ if clips || (level as u32) < MESH_RASTER_LEVEL => 0,
            t => u32::try_from(t).unwrap_or(0),
        }
    })
}

/// Where each block sits in the inputs buffer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InputsLayout {
    /// The `CullFrame` block.
    pub frame: Range<usize>,
    /// `CullModel`s.
    pub models: Range<usize>,
    /// `Bound`s.
    pub bounds: Range<usize>,
    /// Draw ranges, `[model][subset][level]`.
    pub draw_ranges: Range<usize>,
}

impl InputsLayout {
    fn new(sizes: &CullSizes) -> Self {
        let mut at = 0;
        let mut take = |bytes: usize| {
            let start = at;
            at = (start + bytes.max(16)).next_multiple_of(MAX_OFFSET_ALIGNMENT as usize);
            start..start + bytes.max(16)
        };
        Self {
            frame: take(size_of::<CullFrame>()),
            models: take(sizes.models * size_of::<CullModel>()),
            bounds: take(sizes.bounds * size_of::<CullBound>()),
            draw_ranges: take(sizes.models * sizes.subsets * LOD_LEVELS * 16),
        }
    }

    fn bytes(&self) -> usize {
        self.draw_ranges.end
    }
}

/// One frame in flight's culling inputs: a host-visible buffer the CPU writes before
/// submission, and where each block sits in it.
pub struct InputBuffer {
    /// The counts it holds.
    pub sizes: CullSizes,
    /// Where the blocks are.
    pub layout: InputsLayout,
    /// The buffer.
    pub buffer: GpuBuffer,
}

impl InputBuffer {
    /// Makes sure `this` holds `want`, making it again (larger) if not. The caller has waited
    /// for the frame that last used it.
    pub fn ensure<'a>(
        this: &'a mut Option<Self>,
        ctx: &Arc<GpuContext>,
        index: usize,
        want: CullSizes,
    ) -> Result<&'a Self, GpuError> {
        let sizes = match this.as_ref() {
            Some(b) if b.sizes.holds(&want) => None,
            Some(b) => Some(b.sizes.grown(&want)),
            None => Some(want),
        };
        if let Some(sizes) = sizes {
            *this = None;
            let layout = InputsLayout::new(&sizes);
            let buffer = GpuBuffer::new(
                ctx,
                &format!("frame {index} culling inputs"),
                layout.bytes() as u64,
                vk::BufferUsageFlags::STORAGE_BUFFER,
                MemoryLocation::CpuToGpu,
                MAX_OFFSET_ALIGNMENT,
            )?;
            *this = Some(Self {
                sizes,
                layout,
                buffer,
            });
        }
        this.as_ref()
            .ok_or_else(|| GpuError::Other("the culling inputs were not made".into()))
    }
}
