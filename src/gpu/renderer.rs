//! `Renderer`: one frame of a crowd, from palettes in the mapped ring to pixels. A frame
//! reads top-down in [`Renderer::render`]:
//!
//! 1. the crowd writes its records and palettes straight into the next ring slot (waiting
//!    until the GPU has finished the frame that last read it); the slot's index is the frame
//!    in flight, whose command buffer, uniforms, queries and culling buffers are free with it;
//! 2. the CPU writes the frame's uniforms and culling inputs;
//! 3. the compiled frame graph is recorded (each pass with its barriers, label and
//!    timestamps: [`super::record_frame`]);
//! 4. the frame is submitted, signalling the timeline value that releases the slot.
//!
//! The rooms around it: passes and their graph in [`super::passes`], transient images in
//! [`super::transients`], samplers and default textures in [`super::samplers`], uniforms in
//! [`super::uniforms`], culling inputs in [`super::cull_inputs`], timings in
//! [`super::gpu_timings`], statistics in [`super::draw_stats`], the baked frames in
//! [`super::baked_table`], the submit in [`super::device::submit`].

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;
use std::time::Instant;

use ash::vk;
use glam::Vec4;

use super::baked_table::BakedTable;
use super::cull_buffers::{CullBuffers, CullSizes};
use super::cull_inputs::{CullInputWriter, CullInputs, view_scale};
use super::device::context::GpuContext;
use super::device::error::GpuError;
use super::device::submit::submit_frame;
use super::device::targets::{FrameSync, TargetImage};
use super::device::texture::BlockUpload;
use super::draw_stats::{DrawStats, DrawStatsReader};
use super::gpu_timings::GpuTimings;
use super::graph::BarrierScratch;
use super::in_flight::InFlightFrame;
use super::model_buffers::GpuModel;
use super::passes::{
    CompiledFrame, FrameBindings, FrameShared, GraphKey, RenderSettings, RingBinding, compile,
    default_msaa, sample_count,
};
use super::pipeline_builder::Culling;
use super::pipeline_set::{self, Pipelines};
use super::record_frame::record_frame;
use super::renderer_io::{FrameInputs, FrameTimes, PassTime};
use super::ring_memory::{DeviceRingAllocator, Timeline};
use super::samplers::SharedSamplers;
use super::transients::TransientPool;
use super::uniform_packing::pack_frame;
use super::uniforms::{SSAO_KERNEL, ssao_kernel};
use crate::anim::{Mat3x4, SkinnedModel};
use crate::crowd::visibility::{AnimationView, Frustum};
use crate::crowd::{Crowd, DEFAULT_SLOTS, ModelId, PaletteRing};

pub use super::cull_inputs::LOD_ERROR_PX;

/// Baked frames replace exact palettes where their error covers at most this many pixels
/// (times `--lod-bias`): half a pixel, so a near character looks the same either way.
pub const BAKED_ERROR_PX: f32 = 0.5;

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
    samplers: SharedSamplers,
    models: Vec<GpuModel>,
    ranges: Vec<Range<usize>>,
    /// The palette ring: its slot index is the frame in flight.
    ring: PaletteRing<DeviceRingAllocator>,
    ring_generation: u64,
    timeline: Timeline,
    last_value: u64,
    /// Indexed by ring slot.
    frames: Vec<InFlightFrame>,
    /// Per ring slot: its culling buffers (made for the first frame that needs them).
    culls: Vec<Option<CullBuffers>>,
    /// Frames submitted so far.
    frame_number: u64,
    extent: vk::Extent2D,
    color_format: vk::Format,
    presentation: Presentation,
    settings: RenderSettings,
    graphs: HashMap<GraphKey, CompiledFrame>,
    transients: TransientPool,
    scratch: BarrierScratch,
    timings: GpuTimings,
    stats: DrawStatsReader,
    kernel: [Vec4; SSAO_KERNEL],
    /// How block-compressed textures are uploaded (see [`Self::set_block_upload`]).
    block_upload: BlockUpload,
    baked: BakedTable,
    cull_inputs: CullInputWriter,
}

impl Renderer {
    /// A renderer drawing `extent`-sized frames into images of `color_format`.
    pub fn new(
        ctx: &Arc<GpuContext>,
        color_format: vk::Format,
        extent: vk::Extent2D,
        presentation: Presentation,
    ) -> Result<Self, GpuError> {
        let settings = supported(
            ctx,
            RenderSettings {
                msaa: default_msaa(ctx.physical.kind),
                ..RenderSettings::default()
            },
        );
        let pipelines = pipeline_set::build(
            ctx,
            color_format,
            Culling::Back,
            sample_count(settings.msaa),
        )?;
        let ring = PaletteRing::new(DeviceRingAllocator::new(ctx), DEFAULT_SLOTS, 1, 1)
            .map_err(|e| GpuError::from(crate::crowd::CrowdError::from(e)))?;
        let frames = (0..ring.slot_count())
            .map(|i| InFlightFrame::new(ctx, i))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self {
            ctx: ctx.clone(),
            pipelines,
            culling: Culling::Back,
            samplers: SharedSamplers::new(ctx)?,
            models: Vec::new(),
            ranges: Vec::new(),
            culls: (0..ring.slot_count()).map(|_| None).collect(),
            ring,
            ring_generation: 0,
            timeline: Timeline::new(ctx, "frame timeline")?,
            last_value: 0,
            frames,
            frame_number: 0,
            extent,
            color_format,
            presentation,
            settings,
            graphs: HashMap::new(),
            transients: TransientPool::new(ctx, extent),
            scratch: BarrierScratch::default(),
            timings: GpuTimings::default(),
            stats: DrawStatsReader::default(),
            kernel: ssao_kernel(),
            block_upload: BlockUpload::from_env(),
            baked: BakedTable::new(ctx)?,
            cull_inputs: CullInputWriter::default(),
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

    /// The samples per pixel this renderer's device draws with unless asked otherwise
    /// ([`default_msaa`]): the renderer starts with it.
    pub fn default_msaa(&self) -> u32 {
        default_msaa(self.ctx.physical.kind)
    }

    /// Changes which passes run (waits for frames in flight; graphs are compiled anew).
    pub fn set_settings(&mut self, settings: RenderSettings) -> Result<(), GpuError> {
        let settings = supported(&self.ctx, settings);
        if settings == self.settings {
            return Ok(());
        }
        if settings.msaa != self.settings.msaa {
            self.wait_idle()?;
            self.pipelines = pipeline_set::build(
                &self.ctx,
                self.color_format,
                self.culling,
                sample_count(settings.msaa),
            )?;
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
            self.pipelines = pipeline_set::build(
                &self.ctx,
                self.color_format,
                culling,
                sample_count(self.settings.msaa),
            )?;
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

    /// Reads what the frame that last used slot `fi` left: timestamps and draw counts (it
    /// has completed).
    fn collect(&mut self, fi: usize) {
        self.timings.collect(&mut self.frames[fi]);
        if let Some(cull) = self.culls[fi].as_mut() {
            self.stats.collect(cull, &self.models);
        }
    }

    /// What the culling passes drew in the latest frame whose counts were read (frames in
    /// flight lag: after [`Self::gpu_ms_average`], the last frame's).
    pub fn draw_stats(&self) -> Option<DrawStats> {
        self.stats.latest()
    }

    /// Waits for every frame, then returns the average GPU milliseconds per frame over
    /// every frame whose timestamps were read (`None` without timestamp support).
    pub fn gpu_ms_average(&mut self) -> Result<Option<f64>, GpuError> {
        self.wait_idle()?;
        // Oldest first (the slot the ring hands out next), so the last frame's counts are
        // the ones kept.
        let next = self.ring.next_slot();
        for k in 0..self.frames.len() {
            self.collect((next + k) % self.frames.len());
        }
        Ok(self.timings.average_ms())
    }

    /// GPU time per pass, in the order the passes first ran (complete after
    /// [`Self::gpu_ms_average`]).
    pub fn pass_times(&self) -> &[PassTime] {
        self.timings.passes()
    }

    /// Forgets the GPU times read so far (a benchmark's warm-up).
    pub fn reset_gpu_average(&mut self) {
        self.timings.reset();
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
        self.check_call(crowd, readback)?;

        // 1. The crowd's palettes, into the slot that names this frame in flight.
        let start = Instant::now();
        let fi = self.write_palettes(crowd, inputs)?;
        let palette_ms = start.elapsed().as_secs_f64() * 1e3;
        // Usually already reached (the ring waited for the slot), but the ring hands a slot
        // out without waiting when it has grown into a new region: the frame in flight's
        // command buffer and queries must still be free.
        self.timeline.wait(self.frames[fi].done_at)?;
        self.collect(fi);
        self.ensure_baked(crowd)?;

        // 2. The CPU's inputs: uniforms and culling inputs.
        let key = GraphKey {
            view: inputs.view_mode,
            readback: readback.is_some(),
            present: self.presentation == Presentation::Swapchain,
        };
        self.ensure_graph(key)?;
        let graph = self
            .graphs
            .get(&key)
            .ok_or_else(|| GpuError::Graph("a graph compiled a moment ago is gone".into()))?;
        let data = pack_frame(
            inputs,
            self.extent,
            &self.settings,
            &graph.shape,
            &self.kernel,
        );
        self.frames[fi]
            .uniforms
            .write(0, bytemuck::bytes_of(&data))?;
        let subsets = self
            .models
            .iter()
            .map(|m| m.subsets.len())
            .max()
            .unwrap_or(0)
            .max(1);
        let sizes = CullSizes {
            instances: crowd.len().max(1),
            models: self.models.len().max(1),
            subsets,
            bounds: crowd.bounds().len().max(1),
        };
        let cull = CullBuffers::ensure(&mut self.culls[fi], &self.ctx, fi, sizes)?;
        self.cull_inputs.write(
            CullInputs {
                crowd,
                models: &self.models,
                ranges: &self.ranges,
                inputs,
                light_view_proj: data.light_view_proj,
                extent: self.extent,
                settings: &self.settings,
                shadows: graph.shape.shadow_lists,
                occlusion: graph.shape.occlusion,
                subsets,
            },
            &*cull,
        )?;

        // 3. The graph, recorded with this frame's handles.
        let layout = self.ring.layout();
        let slot = self.ring.slot_offset(fi) as u64;
        let records = (crowd.len().max(1) * size_of::<crate::crowd::InstanceRecord>()) as u64;
        let palettes = (crowd.counts().palette_matrices.max(1) * size_of::<Mat3x4>()) as u64;
        let shared = FrameShared {
            extent: self.extent,
            shape: graph.shape,
            pipelines: &self.pipelines,
            samplers: self.samplers.handles(),
            uniforms: self.frames[fi].uniforms.buffer,
            models: &self.models,
            ranges: &self.ranges,
            ring: RingBinding {
                records: (0, records),
                palettes: (layout.palette_offset as u64, palettes),
            },
            baked: self.baked.buffer(),
            cull_layout: cull.layout.clone(),
            cull_sizes: cull.sizes,
            instances: crowd.len() as u32,
            shadow_size: self.settings.shadow_size.max(1),
        };
        let bindings = FrameBindings {
            ids: graph.ids,
            plan: &graph.plan,
            target: (target.image, target.view),
            ring: (self.ring.region().buffer(), slot, layout.stride as u64),
            readback: (
                readback.unwrap_or(vk::Buffer::null()),
                u64::from(self.extent.width) * u64::from(self.extent.height) * 4,
            ),
            cull,
            transients: &self.transients,
        };
        let cmd = record_frame(
            &self.ctx,
            &mut self.frames[fi],
            graph,
            &shared,
            &bindings,
            &mut self.scratch,
        )?;

        // 4. Submit: the timeline value releases the slot and the frame in flight.
        let value = self.last_value + 1;
        if super::device::fault::device_lost_at(self.frame_number + 1) {
            return Err(GpuError::DeviceLost {
                what: format!(
                    "submitting frame {} (injected by {})",
                    self.frame_number + 1,
                    super::device::fault::FAULT_ENV
                ),
            });
        }
        let wait_stage = graph.plan.first_use_stages(graph.ids.color);
        submit_frame(
            &self.ctx,
            cmd,
            sync,
            wait_stage,
            (self.timeline.semaphore, value),
        )?;
        self.last_value = value;
        // A slot the ring did not hand out is a bug here, reported rather than left to tear
        // a later frame.
        self.ring
            .submit(fi, value)
            .map_err(crate::crowd::CrowdError::Ring)?;
        let copies_stats = graph.copies_stats();
        let frame = &mut self.frames[fi];
        frame.done_at = value;
        frame.queries_pending = true;
        if let Some(cull) = self.culls[fi].as_mut() {
            cull.stats_pending = copies_stats;
        }
        self.frame_number += 1;
        Ok(FrameTimes {
            palette_ms,
            gpu_ms: self.timings.last_ms(),
        })
    }

    /// Refuses a crowd of other models, and a readback from a window.
    fn check_call(&self, crowd: &Crowd, readback: Option<vk::Buffer>) -> Result<(), GpuError> {
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
        Ok(())
    }

    /// Lets the crowd write its records and palettes straight into the next ring slot (exact
    /// palettes only where the baked frames' error could show); returns the slot.
    fn write_palettes(
        &mut self,
        crowd: &mut Crowd,
        inputs: &FrameInputs,
    ) -> Result<usize, GpuError> {
        crowd.set_view(Some(self.animation_view(inputs)));
        // A frame's palettes are bound as one storage-buffer range: past it, far instances
        // read baked frames rather than the frame being refused.
        crowd.set_max_exact_matrices(
            self.ctx.physical.limits.max_storage_buffer_range as usize / size_of::<Mat3x4>(),
        );
        let slot = crowd.write_frame(&mut self.ring, &mut self.timeline)?;
        if self.ring.generation() != self.ring_generation {
            // The bindings name the region's buffer every frame, so the new one is bound
            // from this frame on; the old one lives until its frames are done.
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
        Ok(slot)
    }

    /// Compiles the graph for `key` and makes its transient images, once per key.
    fn ensure_graph(&mut self, key: GraphKey) -> Result<(), GpuError> {
        if !self.graphs.contains_key(&key) {
            let graph = compile(key, &self.settings, self.color_format)?;
            self.transients.prepare(&graph.plan)?;
            self.graphs.insert(key, graph);
        }
        Ok(())
    }

    /// What the crowd needs to tell near instances (exact palettes) from far ones (baked).
    fn animation_view(&self, inputs: &FrameInputs) -> AnimationView {
        AnimationView {
            frustum: Frustum::from_clip(inputs.view_proj),
            scale: view_scale(inputs, self.extent),
            max_error_px: BAKED_ERROR_PX * self.settings.lod_bias,
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
        if !self.baked.is_stale(crowd) {
            return Ok(());
        }
        // Frames in flight may read the old table.
        self.wait_idle()?;
        self.baked.upload(&self.ctx, crowd)
    }
}

/// `settings` with `msaa` lowered to the most samples the device renders colour and depth
/// with (one always works), saying so once when it had to.
fn supported(ctx: &GpuContext, mut settings: RenderSettings) -> RenderSettings {
    let limits = &ctx.physical.limits;
    let counts = limits.framebuffer_color_sample_counts & limits.framebuffer_depth_sample_counts;
    let asked = settings.msaa.max(1);
    let mut msaa = asked.min(8).next_power_of_two().min(8);
    if msaa > asked {
        msaa /= 2;
    }
    while msaa > 1 && !counts.contains(sample_count(msaa)) {
        msaa /= 2;
    }
    if msaa != asked {
        static SAID: std::sync::Once = std::sync::Once::new();
        SAID.call_once(|| {
            log::warn!(
                "{} samples per pixel asked for; {} renders at most {msaa}",
                asked,
                ctx.physical.name
            );
        });
    }
    settings.msaa = msaa;
    settings
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

impl From<crate::crowd::CrowdError> for GpuError {
    fn from(e: crate::crowd::CrowdError) -> Self {
        GpuError::Upstream(Box::new(e))
    }
}
