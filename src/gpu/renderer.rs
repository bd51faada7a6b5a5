//! `Renderer`: one frame of a crowd, from palettes in the mapped ring to pixels.
//!
//! Per frame: wait until the frame-in-flight's resources are free, let the crowd write its
//! records and palettes straight into the next ring slot, write the frame's uniforms, then
//! record the compiled frame graph (barriers, a debug label and a timestamp pair per pass)
//! and submit, signalling the timeline value that releases the ring slot.

use std::ops::Range;
use std::sync::Arc;
use std::time::Instant;

use ash::vk;
use glam::{Mat4, Vec3, Vec4};

use super::context::GpuContext;
use super::error::GpuError;
use super::frame::{FRAME_QUERIES, FrameResources};
use super::frame_data::{FrameData, ViewMode};
use super::graph::{
    Access, Barrier, BarrierScratch, Bound, Extent, GraphBuilder, ImageDesc, ImageKind, Plan,
    ResourceId,
};
use super::image::{GpuImage, ImageInfo};
use super::model::GpuModel;
use super::passes::forward::{self, ForwardPipelines};
use super::passes::{MaterialDefaults, PassContext, RingBinding, readback};
use super::pipeline::{Culling, Layouts, Pipeline, PipelineDesc, VertexInput};
use super::ring::{DeviceRingAllocator, Timeline};
use super::shaders::{self, ShaderModule};
use super::texture::{self, TexelSpace};
use crate::anim::{Mat3x4, SkinnedModel};
use crate::crowd::{Crowd, DEFAULT_SLOTS, ModelId, PaletteRing};
use crate::scene::{Camera, Light};

/// Depth buffer format (every Vulkan device supports it as a depth attachment).
pub const DEPTH_FORMAT: vk::Format = vk::Format::D32_SFLOAT;

/// How frames leave the renderer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Presentation {
    /// Into an image the caller reads back (headless).
    Offscreen,
    /// Into swapchain images that are presented afterwards.
    Swapchain,
}

/// Light and ground for a frame (from `scene`).
#[derive(Clone, Copy, Debug)]
pub struct FrameInputs {
    /// World to Vulkan clip space.
    pub view_proj: Mat4,
    /// The eye.
    pub eye: Vec3,
    /// Unit vector towards the light.
    pub light_dir: Vec3,
    /// Light colour times intensity (linear).
    pub light_color: Vec3,
    /// Hemispheric ambient from above.
    pub sky: Vec3,
    /// Hemispheric ambient from below.
    pub ground_ambient: Vec3,
    /// Ground quad: centre (x, z), half size, height.
    pub ground_plane: Vec4,
    /// Size of the ground's checker tiles (world units).
    pub ground_tile: f32,
    /// What the frame shows.
    pub view: ViewMode,
}

impl FrameInputs {
    /// A frame seen through `camera` at `aspect` (width / height), lit by `light`, over a
    /// ground quad `ground_plane` (centre x, z; half size; height) of `ground_tile` tiles.
    pub fn new(
        camera: &Camera,
        aspect: f32,
        light: &Light,
        ground_plane: Vec4,
        ground_tile: f32,
        view: ViewMode,
    ) -> Self {
        Self {
            view_proj: camera.view_proj(aspect),
            eye: camera.eye,
            light_dir: light.sun.direction,
            light_color: light.sun.color * light.sun.intensity,
            sky: light.ambient.sky,
            ground_ambient: light.ambient.ground,
            ground_plane,
            ground_tile,
            view,
        }
    }
}

/// The image a frame is drawn into.
#[derive(Clone, Copy, Debug)]
pub struct TargetImage {
    /// The image.
    pub image: vk::Image,
    /// Its view.
    pub view: vk::ImageView,
}

/// Semaphores a windowed frame waits on and signals (binary; none when headless).
#[derive(Clone, Copy, Debug, Default)]
pub struct FrameSync {
    /// Signalled when the swapchain image is acquired.
    pub wait: Option<vk::Semaphore>,
    /// Signalled when rendering is done, for presentation.
    pub signal: Option<vk::Semaphore>,
}

/// What a frame cost.
#[derive(Clone, Copy, Debug, Default)]
pub struct FrameTimes {
    /// Milliseconds the crowd took to write the ring slot (palettes and records).
    pub palette_ms: f64,
    /// GPU milliseconds of an earlier frame (timestamps are read without waiting, when the
    /// frame-in-flight's resources come round again); `None` until the first is known.
    pub gpu_ms: Option<f64>,
}

/// Resource ids of the declared graph.
#[derive(Clone, Copy, Debug)]
struct GraphIds {
    color: ResourceId,
    depth: ResourceId,
    ring: ResourceId,
    readback: ResourceId,
}

/// A compiled graph and its transient images.
struct CompiledGraph {
    plan: Plan,
    ids: GraphIds,
    depth: GpuImage,
}

/// Which passes the frame graph runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Variant {
    Plain,
    Readback,
}

/// The crowd renderer; see the module documentation.
pub struct Renderer {
    ctx: Arc<GpuContext>,
    layouts: Layouts,
    skinned: Pipeline,
    ground: Pipeline,
    sampler: texture::Sampler,
    white: GpuImage,
    flat_normal: GpuImage,
    models: Vec<GpuModel>,
    ranges: Vec<Range<usize>>,
    ring: PaletteRing<DeviceRingAllocator>,
    ring_generation: u64,
    timeline: Timeline,
    last_value: u64,
    frames: Vec<FrameResources>,
    frame_number: u64,
    extent: vk::Extent2D,
    color_format: vk::Format,
    presentation: Presentation,
    plain: CompiledGraph,
    with_readback: Option<CompiledGraph>,
    scratch: BarrierScratch,
    timestamps: Vec<u64>,
    last_gpu_ms: Option<f64>,
    /// Sum of every GPU frame time read so far, and how many.
    gpu_total: (f64, u64),
}

impl Renderer {
    /// A renderer drawing `extent`-sized frames into images of `color_format`.
    pub fn new(
        ctx: &Arc<GpuContext>,
        color_format: vk::Format,
        extent: vk::Extent2D,
        presentation: Presentation,
    ) -> Result<Self, GpuError> {
        let layouts = Layouts::new(ctx)?;
        let skinned = skinned_pipeline(ctx, &layouts, color_format, Culling::Back)?;
        let ground_vert = ShaderModule::new(ctx, "ground.vert", shaders::GROUND_VERT)?;
        let ground_frag = ShaderModule::new(ctx, "ground.frag", shaders::GROUND_FRAG)?;
        let ground = Pipeline::new(
            ctx,
            &layouts,
            &PipelineDesc {
                name: "ground",
                input: VertexInput::Generated,
                color: Some(color_format),
                depth: DEPTH_FORMAT,
                depth_compare: vk::CompareOp::LESS,
                depth_write: true,
                culling: Culling::None,
            },
            &ground_vert,
            Some(&ground_frag),
        )?;
        let sampler = texture::create_sampler(ctx)?;
        let white = texture::solid(ctx, "default base colour", [255; 4], TexelSpace::Srgb)?;
        let flat_normal = texture::solid(
            ctx,
            "default normal",
            [128, 128, 255, 255],
            TexelSpace::Linear,
        )?;
        let ring = PaletteRing::new(DeviceRingAllocator::new(ctx), DEFAULT_SLOTS, 1, 1)
            .map_err(|e| GpuError::Crowd(e.into()))?;
        let timeline = Timeline::new(ctx, "frame timeline")?;
        let frames = (0..DEFAULT_SLOTS)
            .map(|i| FrameResources::new(ctx, i, FRAME_QUERIES))
            .collect::<Result<Vec<_>, _>>()?;
        let plain = compile(ctx, Variant::Plain, presentation, extent)?;
        let with_readback = match presentation {
            Presentation::Offscreen => Some(compile(ctx, Variant::Readback, presentation, extent)?),
            Presentation::Swapchain => None,
        };
        Ok(Self {
            ctx: ctx.clone(),
            layouts,
            skinned,
            ground,
            sampler,
            white,
            flat_normal,
            models: Vec::new(),
            ranges: Vec::new(),
            ring,
            ring_generation: 0,
            timeline,
            last_value: 0,
            frames,
            frame_number: 0,
            extent,
            color_format,
            presentation,
            plain,
            with_readback,
            scratch: BarrierScratch::default(),
            timestamps: vec![0; FRAME_QUERIES as usize],
            last_gpu_ms: None,
            gpu_total: (0.0, 0),
        })
    }

    /// The device context.
    pub fn context(&self) -> &Arc<GpuContext> {
        &self.ctx
    }

    /// The colour format frames are drawn in.
    pub fn color_format(&self) -> vk::Format {
        self.color_format
    }

    /// The render size.
    pub fn extent(&self) -> vk::Extent2D {
        self.extent
    }

    /// Uploads a model; call in the order models were added to the crowd, so that index
    /// `i` here draws [`ModelId`]`(i)`. `basis`: the correction its instances' world
    /// transforms start with (`scene::model_basis`; a mirror flips the front face).
    pub fn add_model(&mut self, model: &SkinnedModel, basis: &Mat3x4) -> Result<(), GpuError> {
        self.models.push(GpuModel::upload(&self.ctx, model, basis)?);
        self.ranges.push(0..0);
        Ok(())
    }

    /// Which faces of the characters are culled: back faces by default; none, to look at
    /// open meshes; front faces, to see what a wrong winding would show (tests).
    pub fn set_culling(&mut self, culling: Culling) -> Result<(), GpuError> {
        self.wait_idle()?;
        self.skinned = skinned_pipeline(&self.ctx, &self.layouts, self.color_format, culling)?;
        Ok(())
    }

    /// How many times the ring's memory was replaced (the crowd outgrew it).
    pub fn ring_generation(&self) -> u64 {
        self.ring.generation()
    }

    /// Changes the render size: waits for frames in flight, then recreates the transient
    /// images and recompiles the graph for the new size.
    pub fn resize(&mut self, extent: vk::Extent2D) -> Result<(), GpuError> {
        if extent == self.extent {
            return Ok(());
        }
        self.wait_idle()?;
        self.plain = compile(&self.ctx, Variant::Plain, self.presentation, extent)?;
        if self.presentation == Presentation::Offscreen {
            self.with_readback = Some(compile(
                &self.ctx,
                Variant::Readback,
                self.presentation,
                extent,
            )?);
        }
        self.extent = extent;
        Ok(())
    }

    /// Reads frame-in-flight `fi`'s timestamps if it has unread ones (it has completed).
    fn collect_timestamps(&mut self, fi: usize) {
        if self.frames[fi].read_timestamps(FRAME_QUERIES, &mut self.timestamps) {
            let ms = self.timestamps[1].saturating_sub(self.timestamps[0]) as f64 / 1e6;
            self.last_gpu_ms = Some(ms);
            self.gpu_total.0 += ms;
            self.gpu_total.1 += 1;
        }
    }

    /// Waits for every frame, then returns the average GPU milliseconds per frame over
    /// every frame whose timestamps were read (`None` without timestamp support).
    pub fn gpu_ms_average(&mut self) -> Result<Option<f64>, GpuError> {
        self.wait_idle()?;
        for fi in 0..self.frames.len() {
            self.collect_timestamps(fi);
        }
        let (sum, n) = self.gpu_total;
        Ok((n > 0).then(|| sum / n as f64))
    }

    /// Forgets the GPU times read so far (a benchmark's warm-up).
    pub fn reset_gpu_average(&mut self) {
        self.gpu_total = (0.0, 0);
    }

    /// Waits until the GPU has finished every submitted frame.
    pub fn wait_idle(&self) -> Result<(), GpuError> {
        self.timeline.wait(self.last_value)
    }

    /// Renders one frame of `crowd` (already advanced with `Crowd::update`) into `target`.
    /// With `readback` (offscreen only), the frame is also copied into `readback_buffer`.
    pub fn render(
        &mut self,
        crowd: &mut Crowd,
        inputs: &FrameInputs,
        target: TargetImage,
        sync: FrameSync,
        readback: Option<vk::Buffer>,
    ) -> Result<FrameTimes, GpuError> {
        if crowd.models().len() != self.models.len() {
            return Err(GpuError::Other(format!(
                "the crowd has {} models, the renderer {}",
                crowd.models().len(),
                self.models.len()
            )));
        }
        let fi = (self.frame_number % self.frames.len() as u64) as usize;
        // The frame-in-flight's command buffer, uniforms and queries are free again.
        self.timeline.wait(self.frames[fi].done_at)?;
        self.collect_timestamps(fi);

        // Palettes and records, straight into the slot the GPU will read.
        let start = Instant::now();
        let slot = crowd.write_frame(&mut self.ring, &mut self.timeline)?;
        let palette_ms = start.elapsed().as_secs_f64() * 1e3;
        if self.ring.generation() != self.ring_generation {
            // Push descriptors name the region's buffer every frame, so the new one is
            // bound from this frame on; the old one lives until its frames are done.
            log::debug!(
                "palette ring grew to {} instances / {} matrices per slot",
                self.ring.layout().instances,
                self.ring.layout().joints
            );
            self.ring_generation = self.ring.generation();
        }
        for (m, range) in self.ranges.iter_mut().enumerate() {
            *range = crowd.model_range(ModelId(m as u32));
        }
        let layout = self.ring.layout();
        let slot_offset = self.ring.slot_offset(slot) as u64;
        let ring = RingBinding {
            buffer: self.ring.region().buffer(),
            records: (
                slot_offset,
                (crowd.len().max(1) * size_of::<crate::crowd::InstanceRecord>()) as u64,
            ),
            palettes: (
                slot_offset + layout.palette_offset as u64,
                (crowd.joint_count().max(1) * size_of::<crate::anim::Mat3x4>()) as u64,
            ),
        };

        let data = FrameData {
            view_proj: inputs.view_proj,
            light_dir: inputs.light_dir.normalize_or(Vec3::Y).extend(0.0),
            light_color: inputs.light_color.extend(0.0),
            sky_color: inputs.sky.extend(0.0),
            ground_color: inputs.ground_ambient.extend(0.0),
            camera_pos: inputs.eye.extend(1.0),
            ground_plane: inputs.ground_plane,
            ground_tile: Vec4::new(inputs.ground_tile.max(1e-6), 0.0, 0.0, 0.0),
            view_mode: [inputs.view.shader_value(), 0, 0, 0],
        };
        let frame = &mut self.frames[fi];
        frame.uniforms.write(0, bytemuck::bytes_of(&data))?;

        let graph = match (readback, &self.with_readback) {
            (Some(_), Some(g)) => g,
            (Some(_), None) => {
                return Err(GpuError::Other(
                    "readback asked of a windowed renderer".into(),
                ));
            }
            (None, _) => &self.plain,
        };
        let cmd = frame.begin()?;
        frame.timestamp(0, vk::PipelineStageFlags2::TOP_OF_PIPE);
        let pc = PassContext {
            ctx: &self.ctx,
            cmd,
            extent: self.extent,
            view: inputs.view,
            color_view: target.view,
            color_image: target.image,
            depth_view: graph.depth.view,
            ring,
            uniforms: frame.uniforms.buffer,
            models: &self.models,
            ranges: &self.ranges,
            materials: MaterialDefaults {
                sampler: self.sampler.sampler,
                white: self.white.view,
                flat_normal: self.flat_normal.view,
            },
            readback: readback.unwrap_or(vk::Buffer::null()),
        };
        let ids = graph.ids;
        let extent = self.extent;
        let bind = |id: ResourceId| -> Bound {
            if id == ids.color {
                Bound::Image {
                    image: target.image,
                    aspect: vk::ImageAspectFlags::COLOR,
                }
            } else if id == ids.depth {
                Bound::Image {
                    image: graph.depth.image,
                    aspect: vk::ImageAspectFlags::DEPTH,
                }
            } else if id == ids.ring {
                Bound::Buffer {
                    buffer: ring.buffer,
                    offset: 0,
                    size: vk::WHOLE_SIZE,
                }
            } else {
                debug_assert_eq!(id, ids.readback, "the graph declares four resources");
                Bound::Buffer {
                    buffer: pc.readback,
                    offset: 0,
                    size: (extent.width as u64) * (extent.height as u64) * 4,
                }
            }
        };
        let pipelines = ForwardPipelines {
            layouts: &self.layouts,
            skinned: &self.skinned,
            ground: &self.ground,
        };
        for step in graph.plan.steps() {
            emit_barriers(
                &self.ctx,
                cmd,
                graph.plan.barriers(step),
                &bind,
                &mut self.scratch,
            )?;
            self.ctx.begin_label(cmd, step.name);
            match step.name {
                "forward" => forward::record(&pc, &pipelines),
                "readback" => readback::record(&pc),
                other => {
                    return Err(GpuError::Graph(format!("no recording for pass {other}")));
                }
            }
            self.ctx.end_label(cmd);
        }
        emit_barriers(
            &self.ctx,
            cmd,
            graph.plan.final_barriers(),
            &bind,
            &mut self.scratch,
        )?;
        frame.timestamp(1, vk::PipelineStageFlags2::BOTTOM_OF_PIPE);
        // SAFETY: the command buffer is recording.
        unsafe { self.ctx.device.end_command_buffer(cmd) }.map_err(|result| GpuError::Vulkan {
            what: "ending the frame's commands".into(),
            result,
        })?;

        let value = self.last_value + 1;
        let cmds = [vk::CommandBufferSubmitInfo::default().command_buffer(cmd)];
        let waits = sync.wait.map(|s| {
            vk::SemaphoreSubmitInfo::default()
                .semaphore(s)
                .stage_mask(vk::PipelineStageFlags2::COLOR_ATTACHMENT_OUTPUT)
        });
        let mut signals = vec![
            vk::SemaphoreSubmitInfo::default()
                .semaphore(self.timeline.semaphore)
                .value(value)
                .stage_mask(vk::PipelineStageFlags2::ALL_COMMANDS),
        ];
        if let Some(s) = sync.signal {
            signals.push(
                vk::SemaphoreSubmitInfo::default()
                    .semaphore(s)
                    .stage_mask(vk::PipelineStageFlags2::ALL_COMMANDS),
            );
        }
        let wait_list: Vec<vk::SemaphoreSubmitInfo> = waits.into_iter().collect();
        let submit = vk::SubmitInfo2::default()
            .wait_semaphore_infos(&wait_list)
            .command_buffer_infos(&cmds)
            .signal_semaphore_infos(&signals);
        self.ctx.submit(&[submit], vk::Fence::null())?;
        self.last_value = value;
        self.ring.submit(slot, value);
        let frame = &mut self.frames[fi];
        frame.done_at = value;
        frame.queries_pending = true;
        self.frame_number += 1;
        Ok(FrameTimes {
            palette_ms,
            gpu_ms: self.last_gpu_ms,
        })
    }
}

impl Drop for Renderer {
    fn drop(&mut self) {
        // Fields (pipelines, images, the ring) are destroyed after this: wait for the frames
        // that use them.
        if let Err(e) = self.wait_idle() {
            log::warn!("waiting for the last frame: {e}");
        }
    }
}

/// The skinned forward pipeline.
fn skinned_pipeline(
    ctx: &Arc<GpuContext>,
    layouts: &Layouts,
    color_format: vk::Format,
    culling: Culling,
) -> Result<Pipeline, GpuError> {
    let vert = ShaderModule::new(ctx, "skinned.vert", shaders::SKINNED_VERT)?;
    let frag = ShaderModule::new(ctx, "skinned.frag", shaders::SKINNED_FRAG)?;
    Pipeline::new(
        ctx,
        layouts,
        &PipelineDesc {
            name: "skinned forward",
            input: VertexInput::Skinned,
            color: Some(color_format),
            depth: DEPTH_FORMAT,
            depth_compare: vk::CompareOp::LESS,
            depth_write: true,
            culling,
        },
        &vert,
        Some(&frag),
    )
}

/// Records a step's barriers with one `vkCmdPipelineBarrier2` (core or synchronization2,
/// whichever the device has).
fn emit_barriers(
    ctx: &GpuContext,
    cmd: vk::CommandBuffer,
    barriers: &[Barrier],
    bind: &impl Fn(ResourceId) -> Bound,
    scratch: &mut BarrierScratch,
) -> Result<(), GpuError> {
    if barriers.is_empty() {
        return Ok(());
    }
    scratch
        .fill(barriers, bind)
        .map_err(|e| GpuError::Graph(e.to_string()))?;
    let dependency = vk::DependencyInfo::default()
        .image_memory_barriers(scratch.image_barriers())
        .buffer_memory_barriers(scratch.buffer_barriers());
    // SAFETY: `cmd` is recording outside any rendering; the handles come from `bind`, live
    // for the frame.
    unsafe { ctx.cmd_pipeline_barrier2(cmd, &dependency) };
    Ok(())
}

/// Declares the frame's passes and compiles them, creating the transient images.
fn compile(
    ctx: &Arc<GpuContext>,
    variant: Variant,
    presentation: Presentation,
    extent: vk::Extent2D,
) -> Result<CompiledGraph, GpuError> {
    let mut g = GraphBuilder::new();
    let final_access = match (presentation, variant) {
        (Presentation::Swapchain, _) => Some(Access::Present),
        (Presentation::Offscreen, _) => None,
    };
    let color = g.imported_image(
        "colour target",
        ImageKind::Color,
        vk::ImageLayout::UNDEFINED,
        final_access,
    );
    let depth = g.transient_image(ImageDesc {
        name: "depth",
        format: DEPTH_FORMAT,
        kind: ImageKind::Depth,
        extent: Extent::Target,
    });
    let ring = g.imported_buffer("palette ring slot");
    let readback_buf = g.imported_buffer("readback");
    g.pass("forward")
        .read(ring, Access::StorageRead(super::graph::Stages::Vertex))
        .write(color, Access::ColorAttachmentWrite)
        .write(depth, Access::DepthAttachmentWrite)
        .finish();
    if variant == Variant::Readback {
        g.pass("readback")
            .read(color, Access::TransferSrc)
            .write(readback_buf, Access::TransferDst)
            .side_effect()
            .finish();
    } else {
        g.mark_output(color);
    }
    let plan = g.compile().map_err(|e| GpuError::Graph(e.to_string()))?;
    let depth_image = GpuImage::new(
        ctx,
        "depth",
        ImageInfo {
            format: DEPTH_FORMAT,
            extent,
            usage: plan.image_usage(depth),
            mip_levels: 1,
            aspect: vk::ImageAspectFlags::DEPTH,
        },
    )?;
    Ok(CompiledGraph {
        plan,
        ids: GraphIds {
            color,
            depth,
            ring,
            readback: readback_buf,
        },
        depth: depth_image,
    })
}
