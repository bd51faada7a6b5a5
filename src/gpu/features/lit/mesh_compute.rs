//! The mesh raster ([`crate::gpu::Raster::Compute`] for `--mesh-raster`): on a GPU whose
//! graphics units are few beside its compute units, the triangles of characters small on
//! screen (the camera's coarser mesh levels, a few pixels a triangle) cost less found pixel by
//! pixel in a compute shader than rasterized. The culling's draws pass plans which of the
//! camera's lists it takes (`shaders/cull_draws.comp`: the levels from
//! [`MESH_RASTER_LEVEL`](crate::gpu::frame::culling::inputs::MESH_RASTER_LEVEL) on, of
//! models without alpha-clipped materials, within one dispatch per model) and leaves them out
//! of the lit passes' draws; then, after the lit passes:
//! - `mesh_raster` finds, for every planned triangle, the samples it covers (at the lit
//!   passes' sample locations) and keeps at each the nearest surface with its depth in the
//!   visibility buffer the cards share (one 64-bit atomic maximum: `shaders/mesh_raster.comp`),
//!   one indirect dispatch per model;
//! - the ground pass ([`crate::gpu::features::lit::ground`]) leaves the samples a compute
//!   surface claims out of its resolve of the lit passes' samples;
//! - `mesh_shade` lights each triangle that claims samples of a pixel once, as the lit passes
//!   light a fragment, and adds it by its samples into the resolved sun, sky and normal
//!   images (`shaders/mesh_shade.glsl`), one dispatch per model and subset (each has its own
//!   textures and material): the pixel is what a multisampled resolve of every surface gives;
//! - the camera depth pass ([`crate::gpu::features::lit::camera_depth`]) then puts their
//!   depths into the depth the ambient occlusion reads, as it does the cards'.
//!
//! The sun's coarser levels go the same way into the shadow map's depths
//! ([`crate::gpu::features::mesh_shadow`]). Every barrier between them is the graph's.

use ash::vk;
use bytemuck::{Pod, Zeroable};

use crate::gpu::device::buffer::whole_buffer;
use crate::gpu::device::error::GpuError;
use crate::gpu::device::pipeline::Culling;
use crate::gpu::features::cull::Culled;
use crate::gpu::features::lit::depth_normal::DepthNormals;
use crate::gpu::features::lit::forward::{Forward, ResolvedLight};
use crate::gpu::frame::declaration::{FrameDeclaration, compute};
use crate::gpu::frame::gpu_layouts::{DrawConstants, MeshConstants};
use crate::gpu::frame::model_buffers::GpuModel;
use crate::gpu::frame::recording::pass::{Bind, PassRecording, PipelineId};
use crate::gpu::frame::shader_interface::LOD_LEVELS;
use crate::gpu::frame::skinning::SkinTable;
use crate::gpu::graph::{Access, PassBuilder, ResourceId, Stages};

/// The camera's coarser mesh levels into the visibility buffer.
pub const RASTER: &str = "mesh_raster";
/// The visibility buffer's triangles lit and merged into the lit frame.
pub const SHADE: &str = "mesh_shade";

/// The shading's push constants: the subset's material, as the lit passes push it, then the
/// mesh passes' own.
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
struct ShadeConstants {
    material: DrawConstants,
    mesh: MeshConstants,
}

/// The windings a pass drawing under `culling` draws (1: front, 2: back).
pub(crate) fn windings(culling: Culling) -> u32 {
    match culling {
        Culling::Back => 1,
        Culling::Front => 2,
        Culling::None => 3,
    }
}

/// Declares the raster of the camera's planned lists into `visibility` (cleared before it),
/// after every lit pass and skin pass; nothing unless the frame's shape asks for it.
pub fn declare_raster(f: &mut FrameDeclaration, culled: &Culled, visibility: ResourceId) {
    if !f.shape.meshes_in_compute {
        return;
    }
    let pipeline = f.pipeline(compute("mesh raster", "mesh_raster.comp"));
    let c = *culled;
    let winding = windings(f.culling);
    let frame = f.frame;
    // The raster needs the samples per pixel alone.
    let merge = [f.samples().as_raw(), 0, 0, 0];
    let mut p = f.pass(RASTER, move |r| {
        let extent = r.extent();
        let target = RasterTarget {
            name: "Visibility",
            buffer: visibility,
            phase: SkinTable::RASTER_PHASE,
            winding,
            size: [extent.width, extent.height],
            merge,
            near_square: None,
        };
        record_raster(r, pipeline, &c, target)
    });
    reads(&mut p, culled, frame.ring, frame.cull_inputs);
    p.read(culled.draws.skin_table, Access::IndirectRead)
        .write(visibility, Access::StorageReadWrite(Stages::Compute))
        .finish();
}

/// Declares the shading of the raster's pixels (lit as `forward` lights: its shadow map),
/// merged into what the lit passes resolved (and the ground pass drew), after every other
/// pass that wrote the visibility buffer.
pub fn declare_shade(
    f: &mut FrameDeclaration,
    culled: &Culled,
    forward: &Forward,
    images: &DepthNormals,
    visibility: ResourceId,
) {
    let Some(light) = forward.resolved_light() else {
        return;
    };
    if !f.shape.meshes_in_compute {
        return;
    }
    let samples = f.samples();
    let pipeline = f.pipeline(if samples == vk::SampleCountFlags::TYPE_1 {
        compute("mesh shade (one sample)", "mesh_shade_single.comp")
    } else {
        compute("mesh shade", "mesh_shade.comp")
    });
    let c = *culled;
    let shadow_map = forward.lit.shadow_map;
    let mesh_depth = images.depth_samples;
    let merge = [samples.as_raw(), u32::from(f.shape.ground_in_compute), 0, 0];
    let winding = windings(f.culling);
    let frame = f.frame;
    let mut p = f.pass(SHADE, move |r| {
        let targets = light.images(r)?;
        let depth = r.image_info(mesh_depth, r.shared.samplers.screen)?;
        let shadow = r.shadow_image(shadow_map)?;
        let visibility = r.buffer_info(visibility)?;
        let reads = MeshReads::of(r, &c)?;
        let p = r.pipeline(pipeline)?;
        let extent = r.extent();
        let size = [extent.width, extent.height];
        let crowd = &r.shared.crowd;
        for (m, (model, range)) in crowd.models.iter().zip(crowd.ranges).enumerate() {
            if range.is_empty() {
                continue;
            }
            let model_reads = ModelReads::of(model);
            for (s, subset) in model.subsets.iter().enumerate() {
                let [base, normal] = r.subset_textures(model, subset);
                let mut binds = [Bind::buffer("Visibility", &visibility); 20];
                binds[..12].copy_from_slice(&model_reads.binds(&reads));
                binds[12] = Bind::image("base_color_map", &base);
                binds[13] = Bind::image("normal_map", &normal);
                binds[14] = Bind::image("shadow_map", &shadow);
                binds[15] = Bind::image("mesh_depth", &depth);
                binds[16..19].copy_from_slice(&ResolvedLight::binds(&targets));
                let constants = ShadeConstants {
                    material: subset.constants,
                    mesh: mesh_constants(r, m, s, winding, size, merge),
                };
                r.push_constants(p, bytemuck::bytes_of(&constants))?;
                r.dispatch(p, &binds, size)?;
            }
        }
        Ok(())
    });
    reads(&mut p, culled, frame.ring, frame.cull_inputs);
    let sampled = Access::Sampled(Stages::Compute);
    p.read(visibility, Access::StorageRead(Stages::Compute))
        .read(mesh_depth, sampled);
    if let Some(map) = shadow_map {
        p.read(map, sampled);
    }
    light.merged_by(&mut p);
    p.finish();
}

/// What every mesh compute pass reads through the graph: the ring (records and palettes), the
/// visible lists, the skin table and the skinned vertices, the culling inputs (draw ranges).
pub(crate) fn reads(
    p: &mut PassBuilder<'_>,
    culled: &Culled,
    ring: ResourceId,
    inputs: ResourceId,
) {
    let read = Access::StorageRead(Stages::Compute);
    p.read(ring, read)
        .read(inputs, read)
        .read(culled.draws.lists, read)
        .read(culled.draws.skin_table, read)
        .read(culled.draws.skinned, read);
}

/// The push constants of model `m` (and subset `s` for the shading) for a target of `size`
/// pixels.
fn mesh_constants(
    r: &PassRecording<'_>,
    m: usize,
    s: usize,
    winding: u32,
    size: [u32; 2],
    merge: [u32; 4],
) -> MeshConstants {
    let crowd = &r.shared.crowd;
    let subsets = crowd.cull_sizes.subsets;
    let model = &crowd.models[m];
    MeshConstants {
        model: [
            m as u32,
            (m * subsets * LOD_LEVELS) as u32,
            model.subsets.len() as u32,
            s as u32,
        ],
        raster: [
            winding,
            u32::from(model.front_face == vk::FrontFace::COUNTER_CLOCKWISE),
            size[0],
            size[1],
        ],
        merge,
    }
}

/// The descriptors every mesh compute pass binds whatever the model.
struct MeshReads {
    records: [vk::DescriptorBufferInfo; 1],
    palettes: [vk::DescriptorBufferInfo; 1],
    baked: [vk::DescriptorBufferInfo; 1],
    lists: [vk::DescriptorBufferInfo; 1],
    table: [vk::DescriptorBufferInfo; 1],
    skinned: [vk::DescriptorBufferInfo; 1],
    ranges: [vk::DescriptorBufferInfo; 1],
    frame: [vk::DescriptorBufferInfo; 1],
    looks: [vk::DescriptorBufferInfo; 1],
}

/// One model's reads beside [`MeshReads`]: its level tables, vertices and indices.
struct ModelReads {
    levels: [vk::DescriptorBufferInfo; 1],
    vertices: [vk::DescriptorBufferInfo; 1],
    indices: [vk::DescriptorBufferInfo; 1],
}

impl MeshReads {
    fn of(r: &PassRecording<'_>, culled: &Culled) -> Result<Self, GpuError> {
        let crowd = &r.shared.crowd;
        let (records, palettes) = r.ring_infos()?;
        Ok(Self {
            records,
            palettes,
            baked: whole_buffer(crowd.baked),
            lists: r.buffer_info(culled.draws.lists)?,
            table: r.buffer_info(culled.draws.skin_table)?,
            skinned: r.buffer_info(culled.draws.skinned)?,
            ranges: r.cull_input(&crowd.cull_layout.draw_ranges)?,
            frame: r.frame_info(),
            looks: whole_buffer(crowd.looks),
        })
    }
}

impl ModelReads {
    fn of(model: &GpuModel) -> Self {
        Self {
            levels: whole_buffer(model.skin_levels.buffer),
            vertices: whole_buffer(model.vertices.buffer),
            indices: whole_buffer(model.indices.buffer),
        }
    }

    /// The twelve reads of every mesh compute pass, by the shaders' names.
    fn binds<'a>(&'a self, reads: &'a MeshReads) -> [Bind<'a>; 12] {
        [
            Bind::buffer("Records", &reads.records),
            Bind::buffer("Palettes", &reads.palettes),
            Bind::buffer("Baked", &reads.baked),
            Bind::buffer("Visible", &reads.lists),
            Bind::buffer("SkinTable", &reads.table),
            Bind::buffer("Skinned", &reads.skinned),
            Bind::buffer("DrawRanges", &reads.ranges),
            Bind::buffer("Frame", &reads.frame),
            Bind::buffer("Looks", &reads.looks),
            Bind::buffer("SkinLevels", &self.levels),
            Bind::buffer("MeshVertices", &self.vertices),
            Bind::buffer("MeshIndices", &self.indices),
        ]
    }
}

/// Where a mesh raster writes and how: the buffer (by its block's name), the skin table's
/// phase whose dispatches it runs, the windings drawn, the target's size in pixels and the
/// rest of its push constants.
#[derive(Clone, Copy)]
pub(crate) struct RasterTarget {
    pub(crate) name: &'static str,
    pub(crate) buffer: ResourceId,
    pub(crate) phase: usize,
    pub(crate) winding: u32,
    pub(crate) size: [u32; 2],
    pub(crate) merge: [u32; 4],
    /// The sun's near cascade: its square, this many bytes into the buffer, seen through
    /// the near cascade's copy of the frame's uniforms (`size` is one square's).
    pub(crate) near_square: Option<u64>,
}

/// One indirect dispatch per model with instances, of the workgroups the draws passes
/// counted for `target.phase` (`shaders/cull_draws.comp`, `plan_raster`).
pub(crate) fn record_raster(
    r: &PassRecording<'_>,
    pipeline: PipelineId,
    culled: &Culled,
    target: RasterTarget,
) -> Result<(), GpuError> {
    let mut reads = MeshReads::of(r, culled)?;
    let mut written = r.buffer_info(target.buffer)?;
    if let Some(offset) = target.near_square {
        written[0].offset += offset;
        written[0].range = 4 * u64::from(target.size[0]) * u64::from(target.size[1]);
        reads.frame = r.near_frame_info();
    }
    let (table, table_offset, _) = r.buffer(culled.draws.skin_table)?;
    let layout = SkinTable {
        models: r.shared.crowd.models.len(),
    };
    let p = r.pipeline(pipeline)?;
    r.bind(p);
    let crowd = &r.shared.crowd;
    for (m, (model, range)) in crowd.models.iter().zip(crowd.ranges).enumerate() {
        if range.is_empty() {
            continue;
        }
        let model_reads = ModelReads::of(model);
        let mut binds = [Bind::buffer(target.name, &written); 13];
        binds[..12].copy_from_slice(&model_reads.binds(&reads));
        r.push(p, &binds)?;
        let constants = mesh_constants(r, m, 0, target.winding, target.size, target.merge);
        r.push_constants(p, bytemuck::bytes_of(&constants))?;
        let args = table_offset + 4 * layout.args(target.phase, m) as u64;
        // SAFETY: recording outside rendering; the draws passes the graph ordered before this
        // one wrote the dispatch (at most RASTER_MAX_GROUPS workgroups).
        unsafe { r.ctx.device.cmd_dispatch_indirect(r.cmd, table, args) };
    }
    Ok(())
}
