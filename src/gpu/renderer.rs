//! `Renderer`: one frame of a crowd, from palettes in the mapped ring to pixels.
//!
//! Per frame: wait until the frame-in-flight's resources are free, tell the crowd what the
//! camera sees (so it evaluates exact palettes only where baked frames would show) and let it
//! write its records and palettes straight into the next ring slot, write the frame's
//! uniforms and culling inputs, then record the compiled frame graph (culling, barriers, a
//! debug label and a timestamp pair per pass) and submit, signalling the timeline value that
//! releases the ring slot.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;
use std::time::Instant;

use ash::vk;
use glam::{Mat4, Vec3, Vec4};

use super::buffer::GpuBuffer;
use super::context::GpuContext;
use super::cull::{CullBuffers, CullSizes};
use super::cull_data::{
    CULL_FRUSTUM, CULL_LOD, CULL_OCCLUSION, CULL_SHADOWS, CullBound, CullFrame, CullModel,
    OCCLUDER_RADIUS_PX, OCCLUSION_BLOCK, VIEW_CAMERA, VIEW_CAMERA_LATE, VIEW_SHADOW, counter_index,
};
use super::error::GpuError;
use super::frame::{FrameResources, MAX_PASSES};
use super::frame_data::{FrameData, ssao_kernel};
use super::frame_graph::{CompiledGraph, GraphKey, RenderSettings, TransientPool, compile, pass};
use super::frame_inputs::{FrameInputs, FrameSync, FrameTimes, PassTime, TargetImage};
use super::graph::Extent;
use super::graph::{Barrier, BarrierScratch, Bound, ResourceId};
use super::image::GpuImage;
use super::model::GpuModel;
use super::passes::{
    PassContext, Pipelines, RingBinding, Samplers, cull, debug_view, depth_normal, forward,
    readback, shadow, ssao,
};
use super::pipeline::Culling;
use super::pipelines::{self, ao_sampler, noise_texture, screen_sampler, shadow_sampler};
use super::ring::{DeviceRingAllocator, Timeline};
use super::texture::{self, BlockUpload, Sampler, TexelSpace};
use crate::anim::{Mat3x4, SkinnedModel};
use crate::crowd::visibility::{
    AnimationView, Frustum, LOD_LEVELS, LOWEST_SUN, NEAREST, SHADOW_ERROR_SCALE,
    SHADOW_TEXEL_ERROR, ViewScale, shadow_texel,
};
use crate::crowd::{Crowd, DEFAULT_SLOTS, ModelId, PaletteRing};
use crate::scene::light_view_proj;

/// A coarser mesh level is drawn where its error covers at most this many pixels (times
/// `--lod-bias`). A quarter of a pixel, not one: without anti-aliasing every edge pixel a
/// level moves flips between a character and what is behind it, and a crowd is mostly edges
/// (at 1,000 built-in characters in the overview, a one-pixel budget changes 5.6% of the
/// pixels by more than 8 levels, a quarter-pixel one 2.6%; docs/crowds-at-scale.md).
pub const LOD_ERROR_PX: f32 = 0.25;
/// Baked frames replace exact palettes where their error covers at most this many pixels
/// (times `--lod-bias`): half a pixel, so a near character looks the same either way.
pub const BAKED_ERROR_PX: f32 = 0.5;

/// What the culling passes drew in one frame, read back a frame or more later.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DrawStats {
    /// Instances the camera's passes drew at each mesh level.
    pub camera: [u64; LOD_LEVELS],
    /// Instances the shadow pass drew at each level.
    pub shadow: [u64; LOD_LEVELS],
    /// Triangles per camera pass (the prepass and the forward pass draw the same).
    pub camera_triangles: u64,
    /// Triangles the shadow pass drew.
    pub shadow_triangles: u64,
}

/// How frames leave the renderer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Presentation {
    /// Into an image the caller reads back (headless).
    Offscreen,
    /// Into swapchain images that are presented afterwards.
    Swapchain,
}

/// The crowd renderer; see the module documentation.
pub struct Renderer {
    ctx: Arc<GpuContext>,
    pipelines: Pipelines,
    culling: Culling,
    material_sampler: Sampler,
    shadow_sampler: Sampler,
    screen_sampler: Sampler,
    ao_sampler: Sampler,
    white: GpuImage,
    flat_normal: GpuImage,
    noise: GpuImage,
    /// What the shadow-map binding holds when there is no shadow pass: a depth image (the
    /// comparison sampler needs one), never sampled then.
    no_shadow: GpuImage,
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
    settings: RenderSettings,
    graphs: HashMap<GraphKey, CompiledGraph>,
    transients: TransientPool,
    scratch: BarrierScratch,
    timestamps: Vec<u64>,
    last_gpu_ms: Option<f64>,
    /// Sum of every GPU frame time read so far, and how many.
    gpu_total: (f64, u64),
    pass_times: Vec<PassTime>,
    kernel: [Vec4; super::frame_data::SSAO_KERNEL],
    /// How block-compressed textures are uploaded (see [`Self::set_block_upload`]).
    block_upload: BlockUpload,
    /// Per frame in flight: its culling buffers (made for the first frame that needs them).
    culls: Vec<Option<CullBuffers>>,
    /// The baked frames on the device, and the crowd's generation they are of.
    baked: Option<(GpuBuffer, u64)>,
    /// What the baked-frames binding holds when nothing is baked.
    no_baked: GpuBuffer,
    /// Reused each frame to pack the culling inputs.
    cull_models: Vec<CullModel>,
    cull_bounds: Vec<CullBound>,
    cull_ranges: Vec<[u32; 2]>,
    /// Reused to read the statistics.
    counter_scratch: Vec<u32>,
    /// The latest statistics read.
    draw_stats: Option<DrawStats>,
}

impl Renderer {
    /// A renderer drawing `extent`-sized frames into images of `color_format`.
    pub fn new(
        ctx: &Arc<GpuContext>,
        color_format: vk::Format,
        extent: vk::Extent2D,
        presentation: Presentation,
    ) -> Result<Self, GpuError> {
        let pipelines = pipelines::build(ctx, color_format, Culling::Back)?;
        let ring = PaletteRing::new(DeviceRingAllocator::new(ctx), DEFAULT_SLOTS, 1, 1)
            .map_err(|e| GpuError::Crowd(e.into()))?;
        let frames = (0..DEFAULT_SLOTS)
            .map(|i| FrameResources::new(ctx, i))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self {
            ctx: ctx.clone(),
            pipelines,
            culling: Culling::Back,
            material_sampler: texture::create_sampler(ctx)?,
            shadow_sampler: shadow_sampler(ctx)?,
            screen_sampler: screen_sampler(ctx)?,
            ao_sampler: ao_sampler(ctx)?,
            white: texture::solid(ctx, "white", [255; 4], TexelSpace::Srgb)?,
            flat_normal: texture::solid(
                ctx,
                "flat normal",
                [128, 128, 255, 255],
                TexelSpace::Linear,
            )?,
            noise: noise_texture(ctx)?,
            no_shadow: texture::depth_placeholder(ctx)?,
            models: Vec::new(),
            ranges: Vec::new(),
            ring,
            ring_generation: 0,
            timeline: Timeline::new(ctx, "frame timeline")?,
            last_value: 0,
            frames,
            frame_number: 0,
            extent,
            color_format,
            presentation,
            settings: RenderSettings::default(),
            graphs: HashMap::new(),
            transients: TransientPool::new(ctx, extent),
            scratch: BarrierScratch::default(),
            timestamps: vec![0; 2 + 2 * MAX_PASSES],
            last_gpu_ms: None,
            gpu_total: (0.0, 0),
            pass_times: Vec::new(),
            kernel: ssao_kernel(),
            block_upload: BlockUpload::from_env(),
            culls: (0..DEFAULT_SLOTS).map(|_| None).collect(),
            baked: None,
            no_baked: GpuBuffer::new(
                ctx,
                "no baked frames",
                size_of::<Mat3x4>() as u64,
                vk::BufferUsageFlags::STORAGE_BUFFER,
                gpu_allocator::MemoryLocation::GpuOnly,
                16,
            )?,
            cull_models: Vec::new(),
            cull_bounds: Vec::new(),
            cull_ranges: Vec::new(),
            counter_scratch: Vec::new(),
            draw_stats: None,
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

    /// Which passes run.
    pub fn settings(&self) -> RenderSettings {
        self.settings
    }

    /// Changes which passes run (waits for frames in flight; graphs are compiled anew).
    pub fn set_settings(&mut self, settings: RenderSettings) -> Result<(), GpuError> {
        if settings == self.settings {
            return Ok(());
        }
        self.wait_idle()?;
        self.settings = settings;
        self.graphs.clear();
        self.transients.reset(self.extent);
        Ok(())
    }

    /// How block-compressed textures of the models added from now on reach the device: as
    /// their blocks where the device samples them (the default), or decoded on the CPU. The
    /// default comes from `THRONG_DECODE_BC_ON_CPU` ([`texture::DECODE_BC_ON_CPU_ENV`]).
    pub fn set_block_upload(&mut self, blocks: BlockUpload) {
        self.block_upload = blocks;
    }

    /// Uploads a model; call in the order models were added to the crowd, so that index
    /// `i` here draws [`ModelId`]`(i)`. `basis`: the correction its instances' world
    /// transforms start with (`scene::model_basis`; a mirror flips the front face).
    pub fn add_model(&mut self, model: &SkinnedModel, basis: &Mat3x4) -> Result<(), GpuError> {
        self.models.push(GpuModel::upload(
            &self.ctx,
            model,
            basis,
            self.block_upload,
        )?);
        self.ranges.push(0..0);
        Ok(())
    }

    /// Which faces of the characters are culled: back faces by default; none, to look at
    /// open meshes; front faces, to see what a wrong winding would show (tests).
    pub fn set_culling(&mut self, culling: Culling) -> Result<(), GpuError> {
        if culling != self.culling {
            self.wait_idle()?;
            self.pipelines = pipelines::build(&self.ctx, self.color_format, culling)?;
            self.culling = culling;
        }
        Ok(())
    }

    /// How many times the ring's memory was replaced (the crowd outgrew it).
    pub fn ring_generation(&self) -> u64 {
        self.ring.generation()
    }

    /// Changes the render size: waits for frames in flight, then recreates the transient
    /// images and recompiles the graphs for the new size.
    pub fn resize(&mut self, extent: vk::Extent2D) -> Result<(), GpuError> {
        if extent == self.extent {
            return Ok(());
        }
        self.wait_idle()?;
        self.graphs.clear();
        self.transients.reset(extent);
        self.extent = extent;
        Ok(())
    }

    /// Reads frame-in-flight `fi`'s timestamps if it has unread ones (it has completed).
    fn collect_timestamps(&mut self, fi: usize) {
        let frame = &mut self.frames[fi];
        let steps = frame.pass_names.len();
        let count = 2 + 2 * steps as u32;
        if !frame.read_timestamps(count, &mut self.timestamps) {
            return;
        }
        let ms = |a: u64, b: u64| b.saturating_sub(a) as f64 / 1e6;
        let total = ms(self.timestamps[0], self.timestamps[1]);
        self.last_gpu_ms = Some(total);
        self.gpu_total.0 += total;
        self.gpu_total.1 += 1;
        for (k, name) in frame.pass_names.iter().enumerate() {
            let t = ms(self.timestamps[2 + 2 * k], self.timestamps[3 + 2 * k]);
            match self.pass_times.iter_mut().find(|p| p.name == *name) {
                Some(p) => {
                    p.total_ms += t;
                    p.frames += 1;
                    p.last_ms = t;
                }
                None => self.pass_times.push(PassTime {
                    name,
                    total_ms: t,
                    frames: 1,
                    last_ms: t,
                }),
            }
        }
    }

    /// Reads frame-in-flight `fi`'s culling counters if it has unread ones (it has
    /// completed): instances per level and the triangles they drew.
    fn collect_draw_stats(&mut self, fi: usize) {
        let Some(cull) = self.culls.get_mut(fi).and_then(Option::as_mut) else {
            return;
        };
        if !cull.stats_pending {
            return;
        }
        cull.stats_pending = false;
        let models = self.models.len();
        let n = cull.sizes.counters();
        self.counter_scratch.resize(n, 0);
        if cull
            .stats
            .read(0, bytemuck::cast_slice_mut(&mut self.counter_scratch[..n]))
            .is_err()
        {
            return;
        }
        let stride = cull.sizes.models;
        let mut stats = DrawStats::default();
        for (m, model) in self.models.iter().enumerate().take(models) {
            for level in 0..LOD_LEVELS {
                let at =
                    |view| u64::from(self.counter_scratch[counter_index(stride, view, m, level)]);
                let (camera, shadow) = (at(VIEW_CAMERA) + at(VIEW_CAMERA_LATE), at(VIEW_SHADOW));
                stats.camera[level] += camera;
                stats.shadow[level] += shadow;
                stats.camera_triangles += camera * model.level_triangles[level];
                stats.shadow_triangles += shadow * model.level_triangles[level];
            }
        }
        self.draw_stats = Some(stats);
    }

    /// What the culling passes drew in the latest frame whose counts were read (frames in
    /// flight lag: after [`Self::gpu_ms_average`], the last frame's).
    pub fn draw_stats(&self) -> Option<DrawStats> {
        self.draw_stats
    }

    /// Waits for every frame, then returns the average GPU milliseconds per frame over
    /// every frame whose timestamps were read (`None` without timestamp support).
    pub fn gpu_ms_average(&mut self) -> Result<Option<f64>, GpuError> {
        self.wait_idle()?;
        // Oldest first, so the last frame's counts are the ones kept.
        let next = (self.frame_number % self.frames.len() as u64) as usize;
        for k in 0..self.frames.len() {
            let fi = (next + k) % self.frames.len();
            self.collect_timestamps(fi);
            self.collect_draw_stats(fi);
        }
        let (sum, n) = self.gpu_total;
        Ok((n > 0).then(|| sum / n as f64))
    }

    /// GPU time per pass, in the order the passes first ran (complete after
    /// [`Self::gpu_ms_average`]).
    pub fn pass_times(&self) -> &[PassTime] {
        &self.pass_times
    }

    /// Forgets the GPU times read so far (a benchmark's warm-up).
    pub fn reset_gpu_average(&mut self) {
        self.gpu_total = (0.0, 0);
        self.pass_times.clear();
    }

    /// Waits until the GPU has finished every submitted frame.
    pub fn wait_idle(&self) -> Result<(), GpuError> {
        self.timeline.wait(self.last_value)
    }

    /// Renders one frame of `crowd` (already advanced with `Crowd::update`) into `target`.
    /// With `readback` (offscreen only), the frame is also copied into that buffer.
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
        if readback.is_some() && self.presentation == Presentation::Swapchain {
            return Err(GpuError::Other(
                "readback asked of a windowed renderer".into(),
            ));
        }
        let fi = (self.frame_number % self.frames.len() as u64) as usize;
        // The frame-in-flight's command buffer, uniforms and queries are free again.
        self.timeline.wait(self.frames[fi].done_at)?;
        self.collect_timestamps(fi);
        self.collect_draw_stats(fi);

        // Palettes and records, straight into the slot the GPU will read: exact palettes only
        // where the baked frames' error could show.
        crowd.set_view(Some(self.animation_view(inputs)));
        // A frame's palettes are bound as one storage-buffer range: past it, far instances
        // read baked frames rather than the frame being refused.
        crowd.set_max_exact_matrices(
            self.ctx.physical.limits.max_storage_buffer_range as usize / size_of::<Mat3x4>(),
        );
        let start = Instant::now();
        let slot = crowd.write_frame(&mut self.ring, &mut self.timeline)?;
        let palette_ms = start.elapsed().as_secs_f64() * 1e3;
        self.ensure_baked(crowd)?;
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
                (crowd.counts().palette_matrices.max(1) * size_of::<Mat3x4>()) as u64,
            ),
        };

        let key = GraphKey {
            view: inputs.view_mode.into(),
            readback: readback.is_some(),
            present: self.presentation == Presentation::Swapchain,
        };
        if !self.graphs.contains_key(&key) {
            let graph = compile(key, &self.settings)?;
            self.transients.prepare(&graph)?;
            self.graphs.insert(key, graph);
        }
        let graph = self
            .graphs
            .get(&key)
            .ok_or_else(|| GpuError::Graph("a graph compiled a moment ago is gone".into()))?;

        let data = self.frame_data(inputs, graph);
        let frame = &mut self.frames[fi];
        frame.uniforms.write(0, bytemuck::bytes_of(&data))?;
        let subsets = self
            .models
            .iter()
            .map(|m| m.subsets.len())
            .max()
            .unwrap_or(0);
        CullBuffers::ensure(
            &mut self.culls[fi],
            &self.ctx,
            fi,
            CullSizes {
                instances: crowd.len().max(1),
                models: self.models.len().max(1),
                subsets: subsets.max(1),
                bounds: crowd.bounds().len().max(1),
            },
        )?;
        Self::write_cull_inputs(
            CullInputs {
                crowd,
                models: &self.models,
                ranges: &self.ranges,
                inputs,
                light_view_proj: data.light_view_proj,
                extent: self.extent,
                settings: &self.settings,
                shadows: graph.flags.shadows || graph.debug_source == Some(graph.ids.shadow_map),
                occlusion: graph.flags.occlusion,
                subsets: subsets.max(1),
            },
            &mut self.cull_models,
            &mut self.cull_bounds,
            &mut self.cull_ranges,
            self.culls[fi].as_ref(),
        )?;
        let cull = self.culls[fi]
            .as_ref()
            .ok_or_else(|| GpuError::Other("the culling buffers were not made".into()))?;
        let baked = self
            .baked
            .as_ref()
            .map_or(self.no_baked.buffer, |b| b.0.buffer);

        let view_of = |id: ResourceId| self.transients.view(graph, id);
        let white = self.white.view;
        let ids = graph.ids;
        // The prepass, SSAO and debug views use the prepass's depth; the forward pass
        // uses it too, unless it renders depth itself.
        let forward_depth = view_of(graph.forward_depth).unwrap_or(white);
        let prepass_depth = view_of(ids.depth).unwrap_or(white);
        let cmd = frame.begin()?;
        frame.timestamp(0, vk::PipelineStageFlags2::TOP_OF_PIPE);
        let pc = PassContext {
            ctx: &self.ctx,
            cmd,
            extent: self.extent,
            view: inputs.view_mode,
            flags: graph.flags,
            color: (target.view, target.image),
            depth: prepass_depth,
            forward_depth,
            normals: view_of(ids.normals).unwrap_or(white),
            shadow_map: (
                view_of(ids.shadow_map).unwrap_or(self.no_shadow.view),
                self.settings.shadow_size.max(1),
            ),
            ao: (
                view_of(ids.ao_raw).unwrap_or(white),
                view_of(ids.ao).unwrap_or(white),
            ),
            debug_source: graph.debug_source.and_then(view_of).unwrap_or(white),
            occlusion_depth: view_of(ids.occlusion_depth).unwrap_or(white),
            ring,
            uniforms: frame.uniforms.buffer,
            models: &self.models,
            ranges: &self.ranges,
            samplers: Samplers {
                material: self.material_sampler.sampler,
                shadow: self.shadow_sampler.sampler,
                screen: self.screen_sampler.sampler,
                ao: self.ao_sampler.sampler,
                white,
                flat_normal: self.flat_normal.view,
                noise: self.noise.view,
            },
            pipelines: &self.pipelines,
            readback: readback.unwrap_or(vk::Buffer::null()),
            baked,
            cull,
            instances: crowd.len() as u32,
            subsets: cull.sizes.subsets,
        };
        let extent = self.extent;
        let transients = &self.transients;
        let bind = |id: ResourceId| -> Bound {
            if id == ids.color {
                Bound::Image {
                    image: target.image,
                    aspect: vk::ImageAspectFlags::COLOR,
                }
            } else if id == ids.ring {
                Bound::Buffer {
                    buffer: ring.buffer,
                    offset: 0,
                    size: vk::WHOLE_SIZE,
                }
            } else if id == ids.readback {
                Bound::Buffer {
                    buffer: pc.readback,
                    offset: 0,
                    size: (extent.width as u64) * (extent.height as u64) * 4,
                }
            } else if let Some(buffer) = [
                (ids.cull_inputs, cull.inputs.buffer),
                (ids.counters, cull.counters.buffer),
                (ids.lists, cull.lists.buffer),
                (ids.draw_counts, cull.draw_counts.buffer),
                (ids.commands, cull.commands.buffer),
                (ids.stats, cull.stats.buffer),
                (ids.candidates, cull.candidates.buffer),
            ]
            .iter()
            .find_map(|&(i, b)| (i == id).then_some(b))
            {
                Bound::Buffer {
                    buffer,
                    offset: 0,
                    size: vk::WHOLE_SIZE,
                }
            } else {
                // Compiled graphs only name transients the pool prepared.
                transients.bound(graph, id).unwrap_or(Bound::Buffer {
                    buffer: vk::Buffer::null(),
                    offset: 0,
                    size: 0,
                })
            }
        };
        frame.pass_names.clear();
        for (k, step) in graph.plan.steps().iter().enumerate() {
            emit_barriers(
                &self.ctx,
                cmd,
                graph.plan.barriers(step),
                &bind,
                &mut self.scratch,
            )?;
            self.ctx.begin_label(cmd, step.name);
            let timed = k < MAX_PASSES;
            if timed {
                frame.timestamp(2 + 2 * k as u32, vk::PipelineStageFlags2::ALL_COMMANDS);
                frame.pass_names.push(step.name);
            }
            match step.name {
                pass::CULL_CLEAR => cull::record_clear(&pc),
                pass::CULL => cull::record_cull(&pc),
                pass::CULL_DRAWS => cull::record_draws(&pc),
                pass::OCCLUSION_DEPTH => cull::record_occlusion_depth(&pc),
                pass::CULL_LATE => cull::record_late(&pc),
                pass::CULL_DRAWS_LATE => cull::record_draws_late(&pc),
                pass::DEPTH_NORMAL_LATE => depth_normal::record_late(&pc),
                pass::CULL_STATS => cull::record_stats(&pc),
                pass::SHADOW => shadow::record(&pc),
                pass::DEPTH_NORMAL => depth_normal::record(&pc),
                pass::SSAO => ssao::record(&pc),
                pass::SSAO_BLUR => ssao::record_blur(&pc),
                pass::FORWARD => forward::record(&pc),
                pass::DEBUG_VIEW => debug_view::record(&pc),
                pass::READBACK => readback::record(&pc),
                other => {
                    return Err(GpuError::Graph(format!("no recording for pass {other}")));
                }
            }
            if timed {
                frame.timestamp(3 + 2 * k as u32, vk::PipelineStageFlags2::ALL_COMMANDS);
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
        frame.timestamp(1, vk::PipelineStageFlags2::ALL_COMMANDS);
        // SAFETY: the command buffer is recording.
        unsafe { self.ctx.device.end_command_buffer(cmd) }
            .map_err(|result| GpuError::vulkan("ending the frame's commands", result))?;

        let value = self.last_value + 1;
        let cmds = [vk::CommandBufferSubmitInfo::default().command_buffer(cmd)];
        // The swapchain image is first touched as a colour attachment (the graph's first
        // barrier on it waits there), so the acquire semaphore is waited on at that stage.
        let waits = sync.wait.map(|s| {
            vk::SemaphoreSubmitInfo::default()
                .semaphore(s)
                .stage_mask(vk::PipelineStageFlags2::COLOR_ATTACHMENT_OUTPUT)
        });
        let mut signals = [
            vk::SemaphoreSubmitInfo::default()
                .semaphore(self.timeline.semaphore)
                .value(value)
                .stage_mask(vk::PipelineStageFlags2::ALL_COMMANDS),
            vk::SemaphoreSubmitInfo::default(),
        ];
        let signal_count = match sync.signal {
            Some(s) => {
                signals[1] = vk::SemaphoreSubmitInfo::default()
                    .semaphore(s)
                    .stage_mask(vk::PipelineStageFlags2::ALL_COMMANDS);
                2
            }
            None => 1,
        };
        let submit = vk::SubmitInfo2::default()
            .wait_semaphore_infos(waits.as_slice())
            .command_buffer_infos(&cmds)
            .signal_semaphore_infos(&signals[..signal_count]);
        if super::fault::device_lost_at(self.frame_number + 1) {
            return Err(GpuError::DeviceLost {
                what: format!(
                    "submitting frame {} (injected by {})",
                    self.frame_number + 1,
                    super::fault::FAULT_ENV
                ),
            });
        }
        self.ctx.submit(&[submit], vk::Fence::null())?;
        self.last_value = value;
        // A slot the ring did not hand out is a bug here, reported rather than left to tear
        // a later frame.
        self.ring
            .submit(slot, value)
            .map_err(crate::crowd::CrowdError::Ring)?;
        let frame = &mut self.frames[fi];
        frame.done_at = value;
        frame.queries_pending = true;
        if let Some(cull) = self.culls[fi].as_mut() {
            cull.stats_pending = graph
                .plan
                .steps()
                .iter()
                .any(|s| s.name == pass::CULL_STATS);
        }
        self.frame_number += 1;
        Ok(FrameTimes {
            palette_ms,
            gpu_ms: self.last_gpu_ms,
        })
    }

    /// What the crowd needs to tell near instances (exact palettes) from far ones (baked).
    fn animation_view(&self, inputs: &FrameInputs) -> AnimationView {
        AnimationView {
            frustum: Frustum::from_clip(inputs.view_proj),
            scale: self.view_scale(inputs),
            max_error_px: BAKED_ERROR_PX * self.settings.lod_bias,
        }
    }

    /// How large things look in this frame: the projection's vertical scale is
    /// `1 / tan(fov_y / 2)` (negated for Vulkan's y), so pixels per unit at distance one are
    /// half the height times it.
    fn view_scale(&self, inputs: &FrameInputs) -> ViewScale {
        ViewScale {
            eye: inputs.eye,
            pixels_per_unit: 0.5 * self.extent.height as f32 * inputs.proj.y_axis.y.abs(),
        }
    }

    /// Uploads the crowd's baked frames if they changed since the last upload (after
    /// [`Crowd::bake`]). [`Self::render`] does it too, but a caller that calls it before the
    /// first frame keeps the upload out of that frame (and out of a capture of it).
    pub fn upload_baked(&mut self, crowd: &Crowd) -> Result<(), GpuError> {
        self.ensure_baked(crowd)
    }

    /// Uploads the crowd's baked frames when they changed (after baking: at start-up).
    fn ensure_baked(&mut self, crowd: &Crowd) -> Result<(), GpuError> {
        let generation = crowd.baked_generation();
        if self.baked.as_ref().is_some_and(|b| b.1 == generation)
            || (self.baked.is_none() && crowd.baked().matrices() == 0)
        {
            return Ok(());
        }
        // Frames in flight may read the old table.
        self.wait_idle()?;
        self.baked = None;
        let library = crowd.baked();
        if library.matrices() == 0 {
            return Ok(());
        }
        let mut table = vec![Mat3x4::IDENTITY; library.matrices()];
        for entry in library.entries() {
            let at = entry.base as usize;
            let frames = entry.clip.palettes();
            table
                .get_mut(at..at + frames.len())
                .ok_or_else(|| GpuError::Other("a baked clip lies outside its table".into()))?
                .copy_from_slice(frames);
        }
        let buffer = GpuBuffer::with_data(
            &self.ctx,
            "baked frames",
            vk::BufferUsageFlags::STORAGE_BUFFER,
            bytemuck::cast_slice(&table),
        )?;
        self.baked = Some((buffer, generation));
        Ok(())
    }

    /// Packs this frame's culling inputs into `cull`'s inputs buffer, reusing the vectors.
    fn write_cull_inputs(
        c: CullInputs<'_>,
        models: &mut Vec<CullModel>,
        bounds: &mut Vec<CullBound>,
        ranges: &mut Vec<[u32; 2]>,
        cull: Option<&CullBuffers>,
    ) -> Result<(), GpuError> {
        let cull =
            cull.ok_or_else(|| GpuError::Other("the culling buffers were not made".into()))?;
        let light = c.inputs.light_dir.normalize_or(Vec3::Y);
        let scale = ViewScale {
            eye: c.inputs.eye,
            pixels_per_unit: 0.5 * c.extent.height as f32 * c.inputs.proj.y_axis.y.abs(),
        };
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

    /// The frame's uniforms.
    fn frame_data(&self, inputs: &FrameInputs, graph: &CompiledGraph) -> FrameData {
        let (lo, hi) = inputs.shadow_box;
        let light_view_proj = light_view_proj(inputs.light_dir, lo, hi);
        let size = self.settings.shadow_size.max(1) as f32;
        // One shadow-map texel, in world units: the normal offset of the lookup.
        let texel_world = (hi - lo).length() / size;
        let (w, h) = (self.extent.width as f32, self.extent.height as f32);
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
                if graph.flags.shadows { 1.0 } else { 0.0 },
                1.0 / size,
                texel_world * 1.5,
                0.85,
            ),
            ssao: Vec4::new(
                if graph.flags.ao { 1.0 } else { 0.0 },
                inputs.ssao_radius.max(1e-4),
                inputs.ssao_radius * 0.05,
                // Contact shadows should read at a glance: the raw term is soft.
                3.0,
            ),
            view_mode: [inputs.view_mode.shader_value(), 0, 0, 0],
            ssao_kernel: self.kernel,
        }
    }
}

/// What a frame's culling inputs are made of.
struct CullInputs<'a> {
    crowd: &'a Crowd,
    models: &'a [GpuModel],
    ranges: &'a [Range<usize>],
    inputs: &'a FrameInputs,
    light_view_proj: Mat4,
    extent: vk::Extent2D,
    settings: &'a RenderSettings,
    /// Whether the shadow view's lists are filled (a pass draws the shadow map).
    shadows: bool,
    /// Whether small instances wait for the occlusion test.
    occlusion: bool,
    subsets: usize,
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
