//! `Renderer`: one frame of a crowd, from palettes in the mapped ring to pixels. A frame
//! reads top-down in [`Renderer::render`]:
//!
//! 1. the crowd writes its records and palettes straight into the next ring slot (waiting
//!    until the GPU has finished the frame that last read it); the slot's index is the frame
//!    in flight, whose command buffer, uniforms, queries and culling buffers are free with it;
//! 2. the CPU writes the frame's uniforms and culling inputs;
//! 3. the compiled frame graph is recorded (each pass with its barriers, label and
//!    timestamps: [`crate::gpu::frame::recording`]);
//! 4. the frame is submitted, signalling the timeline value that releases the slot.
//!
//! The rooms around it: passes in [`crate::gpu::renderer::compose`] and their graph in [`crate::gpu::graph`],
//! transient images and buffers in [`crate::gpu::frame::resources`], samplers and default textures in
//! [`crate::gpu::frame::samplers`], uniforms in [`crate::gpu::frame::uniforms`], culling inputs and statistics in
//! [`crate::gpu::frame::culling`], timings in [`crate::gpu::frame::timings`], the baked frames in
//! [`crate::gpu::frame::baked_table`], the submit in [`crate::gpu::device::submit`]; here, the crowd's state
//! on the GPU (`crowd_state`) and the steps of a frame (`frame_steps`).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use ash::vk;
use glam::Vec4;

use crate::anim::{Mat3x4, SkinnedModel};
use crate::crowd::{Crowd, DEFAULT_SLOTS, PaletteRing};
use crate::gpu::device::context::GpuContext;
use crate::gpu::device::error::GpuError;
use crate::gpu::device::offscreen::Pixels;
use crate::gpu::device::pipeline::{Culling, PipelineCache};
use crate::gpu::device::targets::{FrameSync, TargetImage};
use crate::gpu::device::texture::BlockUpload;
use crate::gpu::features::crowd_state::state::DeviceCrowdState;
use crate::gpu::features::cull::STATISTICS;
use crate::gpu::features::hud::HudText;
use crate::gpu::features::impostors::atlases::AtlasReport;
use crate::gpu::features::impostors::layout::AtlasLayout;
use crate::gpu::features::impostors::readback::read_atlas;
use crate::gpu::frame::baked_table::BakedTable;
use crate::gpu::frame::culling::inputs::CullInputWriter;
use crate::gpu::frame::culling::stats::DrawStats;
use crate::gpu::frame::frame_io::{FrameInputs, FrameTimes, PassTime};
use crate::gpu::frame::looks_table::LooksTable;
use crate::gpu::frame::model_buffers::{GpuModel, GpuSubset};
use crate::gpu::frame::resources::images::TransientImages;
use crate::gpu::frame::ring_memory::{DeviceRingAllocator, Timeline};
use crate::gpu::frame::samplers::SharedSamplers;
use crate::gpu::frame::settings::{GraphKey, RenderSettings, default_msaa, supported};
use crate::gpu::frame::shape::FrameShape;
use crate::gpu::frame::uniforms::{SSAO_KERNEL, ssao_kernel};
use crate::gpu::graph::BarrierScratch;
use crate::scene::near_cascade;

pub mod compose;
mod crowd_state;
mod features;
mod frame_slot;
mod frame_steps;
pub mod headless;
mod parts;

use features::Features;
use frame_slot::FrameSlot;
pub use parts::Presentation;
use parts::{Assets, FramesInFlight, Graphs, Readings, Target};

pub use crate::gpu::frame::culling::inputs::{BAKED_ERROR_PX, LOD_ERROR_PX};

/// The crowd renderer; see the module documentation.
pub struct Renderer {
    ctx: Arc<GpuContext>,
    /// Which passes run.
    settings: RenderSettings,
    target: Target,
    graphs: Graphs,
    frames: FramesInFlight,
    assets: Assets,
    samplers: SharedSamplers,
    kernel: [Vec4; SSAO_KERNEL],
    readings: Readings,
    features: Features,
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
        let ring = PaletteRing::new(DeviceRingAllocator::new(ctx), DEFAULT_SLOTS, 1, 1)?;
        let slots = ring.slot_count();
        let frame_slots = (0..slots)
            .map(|i| FrameSlot::new(ctx, i))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self {
            ctx: ctx.clone(),
            settings,
            target: Target {
                extent,
                color_format,
                presentation,
            },
            graphs: Graphs {
                compiled: HashMap::new(),
                pipelines: PipelineCache::new(ctx),
                transients: TransientImages::new(ctx, extent),
                scratch: BarrierScratch::default(),
                culling: Culling::Back,
            },
            frames: FramesInFlight {
                ring,
                ring_generation: 0,
                timeline: Timeline::new(ctx, "frame timeline")?,
                last_value: 0,
                slots: frame_slots,
                frame_number: 0,
                last_slot: 0,
                cull_writer: CullInputWriter::default(),
            },
            assets: Assets {
                models: Vec::new(),
                ranges: Vec::new(),
                block_upload: BlockUpload::from_env(),
                baked: BakedTable::new(ctx)?,
                looks: LooksTable::new(ctx)?,
            },
            samplers: SharedSamplers::new(ctx)?,
            kernel: ssao_kernel(),
            readings: Readings::default(),
            features: Features::new(ctx, slots)?,
        })
    }

    /// The device context.
    pub fn context(&self) -> &Arc<GpuContext> {
        &self.ctx
    }

    /// The colour format frames are drawn in.
    pub fn color_format(&self) -> vk::Format {
        self.target.color_format
    }

    /// The render size.
    pub fn extent(&self) -> vk::Extent2D {
        self.target.extent
    }

    /// Which passes run.
    pub fn settings(&self) -> RenderSettings {
        self.settings
    }

    /// The projected height, in pixels, under which a character is an impostor card at the
    /// current render size ([`RenderSettings::impostor_px_at`]).
    pub fn impostor_px(&self) -> f32 {
        self.settings.impostor_px_at(self.target.extent.height)
    }

    /// The shadow map's side, in texels, at the current render size
    /// ([`RenderSettings::shadow_size_at`]).
    pub fn shadow_size(&self) -> u32 {
        self.settings.shadow_size_at(self.target.extent)
    }

    /// The samples per pixel this renderer's device draws with unless asked otherwise
    /// ([`default_msaa`]): the renderer starts with it.
    pub fn default_msaa(&self) -> u32 {
        default_msaa(self.ctx.physical.kind)
    }

    /// Changes which passes run (waits for frames in flight; graphs are compiled anew, and
    /// build the pipelines they need the first time).
    pub fn set_settings(&mut self, settings: RenderSettings) -> Result<(), GpuError> {
        let settings = supported(&self.ctx, settings);
        if settings == self.settings {
            return Ok(());
        }
        self.wait_idle()?;
        self.settings = settings;
        self.graphs.compiled.clear();
        self.graphs.transients.reset(self.target.extent);
        Ok(())
    }

    /// How block-compressed textures of the models added from now on reach the device: as
    /// their blocks where the device samples them (the default), or decoded on the CPU. The
    /// default comes from `THRONG_DECODE_BC_ON_CPU` ([`texture::DECODE_BC_ON_CPU_ENV`]).
    ///
    /// [`texture::DECODE_BC_ON_CPU_ENV`]: crate::gpu::DECODE_BC_ON_CPU_ENV
    pub fn set_block_upload(&mut self, blocks: BlockUpload) {
        self.assets.block_upload = blocks;
    }

    /// Uploads a model; call in the order models were added to the crowd, so that index
    /// `i` here draws [`ModelId`](crate::crowd::ModelId)`(i)`. `basis`: the correction its instances' world
    /// transforms start with (`scene::model_basis`; a mirror flips the front face).
    pub fn add_model(&mut self, model: &SkinnedModel, basis: &Mat3x4) -> Result<(), GpuError> {
        self.assets.models.push(GpuModel::upload(
            &self.ctx,
            model,
            basis,
            self.assets.block_upload,
        )?);
        self.assets.ranges.push(0..0);
        Ok(())
    }

    /// Uploads a model of scenery (a walkable area's floor and walls, `scene::walkable_model`)
    /// as [`Renderer::add_model`] does; it is drawn as a mesh at every distance, never baked
    /// into an impostor card.
    pub fn add_scenery(&mut self, model: &SkinnedModel, basis: &Mat3x4) -> Result<(), GpuError> {
        self.add_model(model, basis)?;
        self.features
            .atlases
            .mark_scenery(self.assets.models.len() - 1);
        Ok(())
    }

    /// Which faces of the characters are culled: back faces by default; none, to look at
    /// open meshes; front faces, to see what a wrong winding would show (tests).
    pub fn set_culling(&mut self, culling: Culling) -> Result<(), GpuError> {
        if culling != self.graphs.culling {
            self.wait_idle()?;
            self.graphs.culling = culling;
            self.graphs.compiled.clear();
        }
        Ok(())
    }

    /// How many times the ring's memory was replaced (the crowd outgrew it).
    pub fn ring_generation(&self) -> u64 {
        self.frames.ring.generation()
    }

    /// Makes every frame's slot of the palette ring hold at least `instances` records and
    /// `matrices` palette matrices now, for a program that knows the most it will draw: the
    /// ring otherwise grows (allocating) the first time a frame needs more, for example when
    /// characters walk near enough for exact palettes with the crowd's state on the GPU.
    pub fn reserve_palettes(&mut self, instances: usize, matrices: usize) -> Result<(), GpuError> {
        let most = self.ctx.physical.limits.max_storage_buffer_range as usize / size_of::<Mat3x4>();
        self.frames
            .ring
            .reserve(instances, matrices.clamp(1, most))?;
        Ok(())
    }

    /// Changes the render size: waits for frames in flight, then recreates the transient
    /// images and recompiles the graphs for the new size.
    pub fn resize(&mut self, extent: vk::Extent2D) -> Result<(), GpuError> {
        if extent == self.target.extent {
            return Ok(());
        }
        self.wait_idle()?;
        self.graphs.compiled.clear();
        self.graphs.transients.reset(extent);
        self.target.extent = extent;
        Ok(())
    }

    /// Reads what the frame that last used slot `fi` left: timestamps and draw counts (it
    /// has completed).
    fn collect(&mut self, fi: usize) {
        let slot = &mut self.frames.slots[fi];
        self.readings.timings.collect(&mut slot.frame);
        let buffers = &slot.buffers;
        if let Some(drawn) = slot.stats_pending.take()
            && let Some(stats) = buffers.get(&STATISTICS)
        {
            let models = &self.assets.models[..drawn.min(self.assets.models.len())];
            self.readings.stats.collect(stats, buffers.sizes(), models);
        }
    }

    /// What the culling passes drew in the latest frame whose counts were read (frames in
    /// flight lag: after [`Self::gpu_ms_average`], the last frame's).
    pub fn draw_stats(&self) -> Option<DrawStats> {
        let prepass = self.settings.prepass;
        self.readings
            .stats
            .latest()
            .map(|s| DrawStats { prepass, ..s })
    }

    /// Waits for every frame, then returns the average GPU milliseconds per frame over
    /// every frame whose timestamps were read (`None` without timestamp support).
    pub fn gpu_ms_average(&mut self) -> Result<Option<f64>, GpuError> {
        self.wait_idle()?;
        // Oldest first (the slot the ring hands out next), so the last frame's counts are
        // the ones kept.
        let next = self.frames.ring.next_slot();
        for k in 0..self.frames.slots.len() {
            self.collect((next + k) % self.frames.slots.len());
        }
        Ok(self.readings.timings.average_ms())
    }

    /// GPU time per pass, in the order the passes first ran (complete after
    /// [`Self::gpu_ms_average`]).
    pub fn pass_times(&self) -> &[PassTime] {
        self.readings.timings.passes()
    }

    /// Forgets the GPU times read so far (a benchmark's warm-up).
    pub fn reset_gpu_average(&mut self) {
        self.readings.timings.reset();
    }

    /// Waits until the GPU has finished every submitted frame.
    pub fn wait_idle(&self) -> Result<(), GpuError> {
        self.frames.timeline.wait(self.frames.last_value)
    }

    /// Renders one frame of `crowd` (already advanced with `Crowd::update`) into `target`.
    /// With `readback`, the frame is also copied into that buffer (4 bytes a pixel, rows
    /// one after another, in the target's format): the target must allow transfer reads (an
    /// offscreen target does; a swapchain's when [`Swapchain::readable`]).
    ///
    /// [`Swapchain::readable`]: crate::gpu::Swapchain::readable
    pub fn render(
        &mut self,
        crowd: &mut Crowd,
        inputs: &FrameInputs,
        target: TargetImage,
        sync: FrameSync,
        readback: Option<vk::Buffer>,
    ) -> Result<FrameTimes, GpuError> {
        self.check_call(crowd)?;

        // 1. The crowd's palettes, into the slot that names this frame in flight (the time
        // spent waiting for the slot is the GPU's, not the palettes').
        self.frames.timeline.take_waited_ms();
        let start = Instant::now();
        let fi = if self.features.crowd_state.is_some() {
            self.acquire_slot(crowd)?
        } else {
            self.write_palettes(crowd, inputs)?
        };
        let palette_wait_ms = self.frames.timeline.take_waited_ms();
        let palette_ms = (start.elapsed().as_secs_f64() * 1e3 - palette_wait_ms).max(0.0);
        // Usually already reached (the ring waited for the slot), but the ring hands a slot
        // out without waiting when it has grown into a new region: the frame in flight's
        // command buffer and queries must still be free.
        self.frames
            .timeline
            .wait(self.frames.slots[fi].frame.done_at)?;
        self.collect(fi);
        self.ensure_baked(crowd)?;
        self.ensure_looks(crowd)?;
        self.ensure_atlases(crowd)?;

        // 2. The graph for this view, and the CPU's inputs: uniforms and culling inputs. The
        // sun's near square, where the frame's shape allows one and the view needs it, is
        // part of the graph.
        let near = FrameShape::new(inputs.view_mode, &self.settings)
            .shadow_cascade
            .then(|| {
                near_cascade(
                    inputs.view,
                    inputs.proj,
                    inputs.shadow_box,
                    inputs.light_dir,
                )
            })
            .flatten();
        let key = GraphKey {
            view: inputs.view_mode,
            readback: readback.is_some(),
            present: self.target.presentation == Presentation::Swapchain,
            crowd_state: self.features.crowd_state.is_some(),
            tracks: self
                .features
                .crowd_state
                .as_ref()
                .is_some_and(DeviceCrowdState::has_tracks),
            density: self
                .features
                .crowd_state
                .as_ref()
                .is_some_and(DeviceCrowdState::tracks_by_density),
            hud: self.features.hud.is_shown(),
            cards: self.settings.impostors
                && (0..self.assets.models.len()).any(|m| self.features.atlases.atlas(m).is_some()),
            shadow_size: self.settings.shadow_size_at(self.target.extent),
            alpha_clip: self
                .assets
                .models
                .iter()
                .any(|m| m.subsets.iter().any(GpuSubset::alpha_clipped)),
            shadow_cascade: near.is_some(),
        };
        self.ensure_graph(key)?;
        self.write_inputs(fi, key, crowd, inputs, near.as_ref())?;

        // 3. The graph, recorded with this frame's handles.
        let cmd = self.record(fi, key, crowd, (target, readback), inputs.dt)?;

        // 4. Submit: the timeline value releases the slot and the frame in flight.
        self.submit(fi, key, cmd, sync)?;
        Ok(FrameTimes {
            palette_ms,
            wait_ms: palette_wait_ms + self.frames.timeline.take_waited_ms(),
            gpu_ms: self.readings.timings.last_ms(),
        })
    }

    /// Draws `text` over the frames from the next on (`None`: no heads-up display). Copied
    /// without allocating, so a caller may compose and set it every frame.
    pub fn set_hud(&mut self, text: Option<&HudText>) {
        self.features.hud.set(text);
    }

    /// Uploads the crowd's baked frames if they changed since the last upload (after
    /// [`Crowd::bake`]). [`Self::render`] does it too, but a caller that calls it before the
    /// first frame keeps the upload out of that frame (and out of a capture of it).
    pub fn upload_baked(&mut self, crowd: &Crowd) -> Result<(), GpuError> {
        self.ensure_baked(crowd)
    }

    /// Uploads the crowd's looks if they changed since the last upload (after
    /// [`Crowd::add_look`] or [`Crowd::replace_look`]). [`Self::render`] does it too, but a
    /// caller that calls it before the first frame keeps the upload out of that frame (and out
    /// of a capture of it).
    pub fn upload_looks(&mut self, crowd: &Crowd) -> Result<(), GpuError> {
        self.ensure_looks(crowd)
    }

    /// The budget for every model's impostor atlas, bytes (`--impostor-memory`); atlases baked
    /// already are kept.
    pub fn set_impostor_memory(&mut self, bytes: u64) {
        self.features.atlases.set_memory_limit(bytes);
    }

    /// Bakes the impostor atlases of `crowd`'s models that have none yet, when impostors are
    /// on. [`Self::render`] does it too; a caller that calls it before the first frame keeps
    /// the bake out of that frame, and can report it ([`Self::impostor_report`]).
    pub fn prepare_impostors(&mut self, crowd: &Crowd) -> Result<(), GpuError> {
        self.ensure_atlases(crowd)
    }

    /// What baking the impostor atlases did, per model considered so far.
    pub fn impostor_report(&self, crowd: &Crowd) -> Vec<AtlasReport> {
        self.features.atlases.report(crowd.models())
    }

    /// Model `model`'s impostor atlas read back (colour and coverage; normal and depth) with
    /// its layout, after waiting for every frame; `None` when it has none.
    pub fn read_impostor_atlas(
        &mut self,
        model: usize,
    ) -> Result<Option<([Pixels; 2], AtlasLayout)>, GpuError> {
        self.wait_idle()?;
        match self.features.atlases.atlas(model) {
            Some(atlas) => Ok(Some((read_atlas(&self.ctx, atlas)?, atlas.layout))),
            None => Ok(None),
        }
    }

    /// Bakes the missing atlases when impostors are on.
    fn ensure_atlases(&mut self, crowd: &Crowd) -> Result<(), GpuError> {
        if !self.settings.impostors {
            return Ok(());
        }
        let samplers = self.samplers.handles();
        // The frame's own level budget, applied at a cell's size.
        let max_error_px = self
            .settings
            .lod
            .then_some(LOD_ERROR_PX * self.settings.lod_bias);
        self.features.atlases.ensure(
            &self.ctx,
            &mut self.graphs.pipelines,
            &samplers,
            crowd.models(),
            &self.assets.models,
            max_error_px,
        )
    }

    /// Uploads the crowd's looks when they changed (as a rule at start-up).
    fn ensure_looks(&mut self, crowd: &Crowd) -> Result<(), GpuError> {
        if !self.assets.looks.is_stale(crowd) {
            return Ok(());
        }
        // Frames in flight may read the old table.
        self.wait_idle()?;
        self.assets.looks.upload(&self.ctx, crowd)
    }

    /// Uploads the crowd's baked frames when they changed (after baking: at start-up).
    fn ensure_baked(&mut self, crowd: &Crowd) -> Result<(), GpuError> {
        if !self.assets.baked.is_stale(crowd) {
            return Ok(());
        }
        // Frames in flight may read the old table.
        self.wait_idle()?;
        self.assets.baked.upload(&self.ctx, crowd)
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

impl From<crate::crowd::CrowdError> for GpuError {
    fn from(e: crate::crowd::CrowdError) -> Self {
        GpuError::Upstream(Box::new(e))
    }
}

impl From<crate::crowd::RingError> for GpuError {
    fn from(e: crate::crowd::RingError) -> Self {
        crate::crowd::CrowdError::from(e).into()
    }
}
