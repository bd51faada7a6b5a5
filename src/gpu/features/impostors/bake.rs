//! Baking a model's impostor atlas with the renderer's own GPU, once, when impostors are
//! first drawn: every pose the atlas shows is evaluated on the CPU (exact palettes), and each
//! cell is one draw of the skinned mesh through its cell's orthographic camera, into two
//! images: the surface's colour with its coverage (`RGBA8` sRGB), and its view-space normal
//! (octahedral, two channels) with its roughness and its depth in the sphere (`RGBA8`).
//! Recorded and waited for on its own (a load-time upload, like a texture's), as a one-pass
//! graph ([`bake_graph`]): the graph derives the barriers into the attachment layouts and
//! out to the shader-read layout the card passes sample in.

use std::sync::Arc;

use ash::vk;
use glam::Vec3;
use gpu_allocator::MemoryLocation;

use crate::anim::{Mat3x4, PoseScratch, SkinnedModel, gpu_skin_position};
use crate::crowd::visibility::{LOD_LEVELS, lod_level};
use crate::gpu::device::buffer::{GpuBuffer, whole_buffer};
use crate::gpu::device::context::GpuContext;
use crate::gpu::device::error::GpuError;
use crate::gpu::device::image::{GpuImage, ImageInfo};
use crate::gpu::device::pipeline::{
    Culling, GraphicsDesc, Pipeline, PipelineCache, PipelineDesc, PipelineKind, VertexInput,
};
use crate::gpu::features::impostors::layout::{
    AZIMUTHS, AtlasLayout, ELEVATIONS_DEG, MAX_FRAMES, MIN_FRAMES,
};
use crate::gpu::frame::gpu_layouts::BakeDraw;
pub use crate::gpu::frame::gpu_layouts::ViewData;
use crate::gpu::frame::model_buffers::GpuModel;
use crate::gpu::frame::samplers::Samplers;
use crate::gpu::frame::settings::{DEPTH_FORMAT, depth_test};
use crate::gpu::graph::{
    Access, Bound, GraphBuilder, ImageKind, Plan, ResourceId, Stages, run_plan_once,
};

/// The atlas's colour (albedo in sRGB, coverage in alpha).
pub const COLOR_FORMAT: vk::Format = vk::Format::R8G8B8A8_SRGB;
/// Its normal (xy: the octahedral map of the cell's view-space normal, as 0.5 + p / 2), its
/// roughness (z) and its depth in the sphere (w: 0 far side, 1 near side).
pub const NORMAL_DEPTH_FORMAT: vk::Format = vk::Format::R8G8B8A8_UNORM;
/// Pixels on a side of a cell: a card is drawn only while its character is shorter than
/// `--impostor-px` (20 by default), so a cell has over twice the pixels a card shows. 64
/// bought little (the overview of 1,000 cards 1.61 levels per channel from its meshes
/// against 1.67) for 78% more memory.
pub const CELL: u32 = 48;

/// A model's baked atlas; see the module documentation.
pub struct ModelAtlas {
    /// Where each cell is and what it shows.
    pub layout: AtlasLayout,
    /// Colour and coverage.
    pub color: GpuImage,
    /// Normal and depth.
    pub normal_depth: GpuImage,
    /// Every view's camera, as the card shaders read them.
    pub views: GpuBuffer,
    /// The mesh level drawn into it ([`bake_level`]; 0 is the full mesh).
    pub level: usize,
    /// Seconds the bake took (CPU poses, GPU draws and the wait).
    pub bake_seconds: f64,
}

/// The pipeline the bake draws with.
pub fn bake_pipeline(culling: Culling) -> PipelineDesc {
    PipelineDesc {
        name: "impostor bake",
        kind: PipelineKind::Graphics(GraphicsDesc {
            vertex: "impostor_bake.vert",
            fragment: Some("impostor_bake.frag"),
            input: VertexInput::SkinnedNoTangent,
            color: Some(COLOR_FORMAT),
            more_colors: &[NORMAL_DEPTH_FORMAT],
            depth: Some(depth_test(vk::CompareOp::LESS, true)),
            culling,
            samples: vk::SampleCountFlags::TYPE_1,
        }),
    }
}

/// The atlas layout for `model`: the sphere every pose of every clip fits in, and the
/// fewest frames per clip (from [`MIN_FRAMES`] to [`MAX_FRAMES`]) for which showing the
/// nearest frame moves no joint by more than two of a cell's pixels in any clip.
pub fn plan(model: &SkinnedModel) -> AtlasLayout {
    let clips = model.clips().len().max(1) as u32;
    let joints = model.joint_count();
    let mut scratch = PoseScratch::new(joints);
    let mut palette = vec![Mat3x4::IDENTITY; joints];
    let pose = |clip: usize, phase: f32, scratch: &mut PoseScratch, out: &mut [Mat3x4]| match model
        .clips()
        .get(clip)
    {
        Some(c) => model.evaluate(clip, phase * c.duration(), scratch, out),
        None => model.bind_palette(scratch, out),
    };
    // The sphere: every vertex in every pose at the most frames a clip may get.
    let (mut lo, mut hi) = (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN));
    for clip in 0..clips as usize {
        for f in 0..MAX_FRAMES {
            pose(
                clip,
                f as f32 / MAX_FRAMES as f32,
                &mut scratch,
                &mut palette,
            );
            for v in &model.mesh().vertices {
                let p = gpu_skin_position(v, &palette);
                if p.is_finite() {
                    lo = lo.min(p);
                    hi = hi.max(p);
                }
            }
        }
    }
    let (centre, radius) = if lo.x <= hi.x {
        (0.5 * (lo + hi), (0.5 * (hi - lo)).length().max(1e-6))
    } else {
        (Vec3::ZERO, 1.0)
    };
    // Frames: joint positions at a fine phase step against the nearest frame's.
    let allowed = 2.0 * (2.0 * radius / CELL as f32);
    let bind: Vec<Vec3> = model
        .skeleton()
        .offsets()
        .iter()
        .map(|o| o.inverse().map_or(Vec3::ZERO, |i| i.translation()))
        .collect();
    let mut joints_at = |clip: usize, phase: f32| -> Vec<Vec3> {
        pose(clip, phase, &mut scratch, &mut palette);
        palette
            .iter()
            .zip(&bind)
            .map(|(m, b)| m.transform_point3(*b))
            .collect()
    };
    // The fewest frames for which every clip's frames are close enough.
    let close_enough = |frames: u32, joints_at: &mut dyn FnMut(usize, f32) -> Vec<Vec3>| {
        (0..clips as usize).all(|clip| {
            (0..frames).all(|k| {
                let shown = joints_at(clip, k as f32 / frames as f32);
                // Halfway to the next frame: the farthest any phase is from its frame.
                let between = joints_at(clip, (k as f32 + 0.5) / frames as f32);
                shown
                    .iter()
                    .zip(&between)
                    .all(|(a, b)| a.distance(*b) <= allowed)
            })
        })
    };
    let frames = if model.clips().is_empty() {
        MIN_FRAMES
    } else {
        (MIN_FRAMES..MAX_FRAMES)
            .find(|&f| close_enough(f, &mut joints_at))
            .unwrap_or(MAX_FRAMES)
    };
    AtlasLayout {
        azimuths: AZIMUTHS,
        elevations: ELEVATIONS_DEG.len() as u32,
        frames,
        clips,
        cell: CELL,
        centre,
        radius,
    }
}

/// The mesh level an atlas is drawn from: the coarsest whose error (`errors[k - 1]` model
/// units for level `k`, infinite for levels the model lacks) covers at most `max_error_px` of
/// a cell's pixels, that is the level a frame would draw a character the size of a cell with
/// (the same rule, [`lod_level`], at the cell's pixels per model unit; an instance's scale
/// scales its sphere too, so it does not enter). The full mesh when levels are off (`None`).
/// Baking costs lavapipe time in proportion to the triangles drawn: the built-in character's
/// level 1 (half the triangles, 0.11 of a cell's pixels of error) took its bake from about
/// 2.1 to 1.3 s.
pub fn bake_level(errors: &[f32], layout: &AtlasLayout, max_error_px: Option<f32>) -> usize {
    let Some(budget) = max_error_px else {
        return 0;
    };
    let pixels_per_unit = layout.cell as f32 / (2.0 * layout.radius);
    lod_level(errors, 1.0, pixels_per_unit, budget)
}

/// Bakes `model`'s atlas as `layout` says, drawing mesh level `level` of `gpu`'s mesh
/// (uploaded for the renderer; see [`bake_level`]) with the bake pipeline from `pipelines`
/// and `samplers`' defaults.
pub fn bake(
    ctx: &Arc<GpuContext>,
    pipelines: &mut PipelineCache,
    samplers: &Samplers,
    model: &SkinnedModel,
    gpu: &GpuModel,
    layout: AtlasLayout,
    level: usize,
) -> Result<ModelAtlas, GpuError> {
    let start = std::time::Instant::now();
    let level = level.min(gpu.levels.saturating_sub(1));
    let name = &gpu.name;
    let (width, height) = layout.size();
    let limit = ctx.physical.limits.max_image_dimension2_d;
    if width > limit || height > limit {
        return Err(GpuError::Other(format!(
            "the impostor atlas of {name} would be {width}x{height} pixels, more than the \
             {limit} this device makes"
        )));
    }
    let image = |what: &str, format, usage, aspect| {
        GpuImage::new(
            ctx,
            &format!("{name} impostor {what}"),
            ImageInfo {
                format,
                extent: vk::Extent2D { width, height },
                usage,
                mip_levels: 1,
                aspect,
                samples: vk::SampleCountFlags::TYPE_1,
            },
        )
    };
    // Read back by tests and `throng impostors` (transfer source).
    let target = vk::ImageUsageFlags::COLOR_ATTACHMENT
        | vk::ImageUsageFlags::SAMPLED
        | vk::ImageUsageFlags::TRANSFER_SRC;
    let color = image("colour", COLOR_FORMAT, target, vk::ImageAspectFlags::COLOR)?;
    let normal_depth = image(
        "normal and depth",
        NORMAL_DEPTH_FORMAT,
        target,
        vk::ImageAspectFlags::COLOR,
    )?;
    let depth = image(
        "bake depth",
        DEPTH_FORMAT,
        vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT,
        vk::ImageAspectFlags::DEPTH,
    )?;
    let views = view_buffer(ctx, name, &layout)?;
    let poses = pose_buffer(ctx, name, model, &layout)?;
    let pipeline = pipelines.get(&bake_pipeline(Culling::Back))?;
    let (plan, ids) = bake_graph()?;
    let images = [&color, &normal_depth, &depth];
    let bound: [_; 3] = std::array::from_fn(|k| {
        let image = Bound::Image {
            image: images[k].image,
            aspect: images[k].info.aspect,
        };
        (ids[k], image)
    });
    let what = format!("baking the impostors of {name}");
    run_plan_once(ctx, &what, &plan, &bound, |cmd, _| {
        record(
            ctx,
            cmd,
            &pipeline,
            samplers,
            gpu,
            level,
            &layout,
            model.joint_count() as u32,
            images,
            [&views, &poses],
        );
    })?;
    Ok(ModelAtlas {
        layout,
        color,
        normal_depth,
        views,
        level,
        bake_seconds: start.elapsed().as_secs_f64(),
    })
}

/// Every view's camera, in a storage buffer.
fn view_buffer(
    ctx: &Arc<GpuContext>,
    name: &str,
    layout: &AtlasLayout,
) -> Result<GpuBuffer, GpuError> {
    let data: Vec<ViewData> = (0..layout.views())
        .map(|v| {
            let b = layout.view_basis(v);
            ViewData {
                view_proj: layout.cell_view_proj(v),
                right: b.right.extend(0.0),
                up: b.up.extend(0.0),
                towards: b.towards.extend(0.0),
                centre: layout.centre.extend(layout.radius),
            }
        })
        .collect();
    mapped_storage(
        ctx,
        &format!("{name} impostor views"),
        bytemuck::cast_slice(&data),
    )
}

/// The palettes of every (clip, frame) pose, clip after clip, frame after frame.
fn pose_buffer(
    ctx: &Arc<GpuContext>,
    name: &str,
    model: &SkinnedModel,
    layout: &AtlasLayout,
) -> Result<GpuBuffer, GpuError> {
    let joints = model.joint_count();
    let mut scratch = PoseScratch::new(joints);
    let mut all = vec![Mat3x4::IDENTITY; joints * (layout.clips * layout.frames) as usize];
    for clip in 0..layout.clips as usize {
        for f in 0..layout.frames {
            let at = (clip * layout.frames as usize + f as usize) * joints;
            let out = &mut all[at..at + joints];
            match model.clips().get(clip) {
                Some(c) => {
                    model.evaluate(clip, layout.phase_of(f) * c.duration(), &mut scratch, out)
                }
                None => model.bind_palette(&mut scratch, out),
            }
        }
    }
    mapped_storage(
        ctx,
        &format!("{name} impostor poses"),
        bytemuck::cast_slice(&all),
    )
}

/// A host-visible storage buffer named `name` holding `bytes`: the bake reads it once.
fn mapped_storage(ctx: &Arc<GpuContext>, name: &str, bytes: &[u8]) -> Result<GpuBuffer, GpuError> {
    let buffer = GpuBuffer::new(
        ctx,
        name,
        bytes.len() as u64,
        vk::BufferUsageFlags::STORAGE_BUFFER,
        MemoryLocation::CpuToGpu,
        16,
    )?;
    buffer.write(0, bytes)?;
    Ok(buffer)
}

/// The bake's graph: one pass rendering into the atlas's colour and normal-and-depth images
/// (then ready to be sampled) and a depth image; the ids are those images in that order.
pub fn bake_graph() -> Result<(Plan, [ResourceId; 3]), GpuError> {
    let mut g = GraphBuilder::new();
    let sampled = Some(Access::Sampled(Stages::Fragment));
    let undefined = vk::ImageLayout::UNDEFINED;
    let color = g.imported_image("impostor colour", ImageKind::Color, undefined, sampled);
    let normal_depth = g.imported_image(
        "impostor normal and depth",
        ImageKind::Color,
        undefined,
        sampled,
    );
    let depth = g.imported_image("impostor bake depth", ImageKind::Depth, undefined, None);
    g.pass(BAKE)
        .write(color, Access::ColorAttachmentWrite)
        .write(normal_depth, Access::ColorAttachmentWrite)
        .write(depth, Access::DepthAttachmentWrite)
        .finish();
    let plan = g.compile().map_err(|e| GpuError::Graph(e.to_string()))?;
    Ok((plan, [color, normal_depth, depth]))
}

/// The bake pass's name (its debug label is the one-off command buffer's).
pub const BAKE: &str = "impostor_bake";

/// Records the bake (inside [`bake_graph`]'s pass): one rendering over the whole atlas with a
/// viewport per cell.
#[allow(clippy::too_many_arguments)]
fn record(
    ctx: &GpuContext,
    cmd: vk::CommandBuffer,
    pipeline: &Pipeline,
    samplers: &Samplers,
    gpu: &GpuModel,
    level: usize,
    layout: &AtlasLayout,
    joints: u32,
    [color, normal_depth, depth]: [&GpuImage; 3],
    [views, poses]: [&GpuBuffer; 2],
) {
    let device = &ctx.device;
    let clear = |c: [f32; 4]| vk::ClearValue {
        color: vk::ClearColorValue { float32: c },
    };
    let attachment = |view, clear_value| {
        vk::RenderingAttachmentInfo::default()
            .image_view(view)
            .image_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
            .load_op(vk::AttachmentLoadOp::CLEAR)
            .store_op(vk::AttachmentStoreOp::STORE)
            .clear_value(clear_value)
    };
    let colors = [
        attachment(color.view, clear([0.0; 4])),
        // Nothing drawn: a normal towards the camera, at the far side.
        attachment(normal_depth.view, clear([0.5, 0.5, 1.0, 0.0])),
    ];
    let depth_attachment = vk::RenderingAttachmentInfo::default()
        .image_view(depth.view)
        .image_layout(vk::ImageLayout::DEPTH_ATTACHMENT_OPTIMAL)
        .load_op(vk::AttachmentLoadOp::CLEAR)
        .store_op(vk::AttachmentStoreOp::DONT_CARE)
        .clear_value(vk::ClearValue {
            depth_stencil: vk::ClearDepthStencilValue {
                depth: 1.0,
                stencil: 0,
            },
        });
    let (width, height) = layout.size();
    let rendering = vk::RenderingInfo::default()
        .render_area(vk::Rect2D {
            offset: vk::Offset2D { x: 0, y: 0 },
            extent: vk::Extent2D { width, height },
        })
        .layer_count(1)
        .color_attachments(&colors)
        .depth_attachment(&depth_attachment);
    let (views_info, poses_info) = (whole_buffer(views.buffer), whole_buffer(poses.buffer));
    // SAFETY: `cmd` is recording (run_once begins and ends it); every handle outlives the
    // wait run_once does after submitting.
    unsafe {
        ctx.cmd_begin_rendering(cmd, &rendering);
        device.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::GRAPHICS, pipeline.pipeline);
        ctx.cmd_set_front_face(cmd, gpu.front_face);
        device.cmd_bind_vertex_buffers(cmd, 0, &[gpu.vertices.buffer], &[0]);
        device.cmd_bind_index_buffer(cmd, gpu.indices.buffer, 0, vk::IndexType::UINT32);
        for clip in 0..layout.clips {
            for frame in 0..layout.frames {
                for view in 0..layout.views() {
                    let (x, y) = layout.cell_origin(view, clip, frame);
                    let cell = vk::Extent2D {
                        width: layout.cell,
                        height: layout.cell,
                    };
                    device.cmd_set_viewport(
                        cmd,
                        0,
                        &[vk::Viewport {
                            x: x as f32,
                            y: y as f32,
                            width: cell.width as f32,
                            height: cell.height as f32,
                            min_depth: 0.0,
                            max_depth: 1.0,
                        }],
                    );
                    device.cmd_set_scissor(
                        cmd,
                        0,
                        &[vk::Rect2D {
                            offset: vk::Offset2D {
                                x: x as i32,
                                y: y as i32,
                            },
                            extent: cell,
                        }],
                    );
                    let pose = (clip * layout.frames + frame) * joints;
                    // Every subset has a range at every level (`level` is below the
                    // model's count, checked in `bake`).
                    let ranges = gpu.draw_ranges.chunks(LOD_LEVELS).map(|r| r[level]);
                    for (subset, [first, count]) in gpu.subsets.iter().zip(ranges) {
                        let texture = subset
                            .base_color
                            .and_then(|i| gpu.textures.get(i))
                            .map_or(samplers.white, |t| t.view);
                        let base = [vk::DescriptorImageInfo {
                            sampler: samplers.material,
                            image_view: texture,
                            image_layout: vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
                        }];
                        let writes = [
                            write_buffer(pipeline, "Poses", &poses_info),
                            write_buffer(pipeline, "Cells", &views_info),
                            vk::WriteDescriptorSet::default()
                                .dst_binding(binding_of(pipeline, "base_color_map"))
                                .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                                .image_info(&base),
                        ];
                        ctx.push_descriptor.cmd_push_descriptor_set(
                            cmd,
                            vk::PipelineBindPoint::GRAPHICS,
                            pipeline.layout.layout,
                            0,
                            &writes,
                        );
                        let constants = BakeDraw {
                            view,
                            pose,
                            // Which tint of a look applies to the texels it covers.
                            material: subset.constants.fresnel0.w as u32,
                            pad: 0,
                            base_color: subset.constants.base_color,
                            params: subset.constants.params,
                        };
                        if let Some((stages, _)) = pipeline.layout.desc.push_constants {
                            device.cmd_push_constants(
                                cmd,
                                pipeline.layout.layout,
                                stages,
                                0,
                                bytemuck::bytes_of(&constants),
                            );
                        }
                        device.cmd_draw_indexed(cmd, count, 1, first, 0, 0);
                    }
                }
            }
        }
        ctx.cmd_end_rendering(cmd);
    }
}

/// The binding `pipeline`'s shaders call `name` (0 if none: the shaders in this file declare
/// every name used here).
fn binding_of(pipeline: &Pipeline, name: &str) -> u32 {
    pipeline.binding(name).map_or(0, |b| b.binding)
}

fn write_buffer<'a>(
    pipeline: &Pipeline,
    name: &str,
    info: &'a [vk::DescriptorBufferInfo; 1],
) -> vk::WriteDescriptorSet<'a> {
    vk::WriteDescriptorSet::default()
        .dst_binding(binding_of(pipeline, name))
        .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
        .buffer_info(info)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The built-in character's sphere and its levels' errors (model units), as `throng info`
    /// and the bake report them.
    const BUILTIN_ERRORS: [f32; 4] = [0.0057, 0.0187, 0.0878, 0.0923];

    fn builtin_layout() -> AtlasLayout {
        AtlasLayout {
            azimuths: AZIMUTHS,
            elevations: ELEVATIONS_DEG.len() as u32,
            frames: MAX_FRAMES,
            clips: 3,
            cell: CELL,
            centre: Vec3::new(0.0, 0.93, 0.0),
            radius: 1.2328,
        }
    }

    #[test]
    fn the_bake_draws_the_level_a_frame_would_at_a_cells_size() {
        let layout = builtin_layout();
        // 48 pixels over 2.47 units: level 1 strays 0.11 pixel, level 2 0.36.
        assert_eq!(bake_level(&BUILTIN_ERRORS, &layout, Some(0.25)), 1);
        // --lod-bias 2 doubles the budget.
        assert_eq!(bake_level(&BUILTIN_ERRORS, &layout, Some(0.5)), 2);
        // Levels off, or a model without them: the full mesh.
        assert_eq!(bake_level(&BUILTIN_ERRORS, &layout, None), 0);
        assert_eq!(bake_level(&[], &layout, Some(0.25)), 0);
        // A model whose coarsest level is still fine at a cell's size gets it.
        assert_eq!(bake_level(&[1e-4, 2e-4], &layout, Some(0.25)), 2);
        // Levels a model lacks count as infinitely far.
        assert_eq!(bake_level(&[0.0057, f32::INFINITY], &layout, Some(0.25)), 1);
    }
}
