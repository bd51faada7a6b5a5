//! The steps of [`Renderer::render`], each a method of its own: the crowd's palettes into the
//! ring slot, the graph for the view, the CPU's inputs (uniforms, culling inputs, the buffers
//! the passes declared), the recording, the submission.

use ash::vk;

use super::{BAKED_ERROR_PX, FrameSlot, Renderer};
use crate::anim::Mat3x4;
use crate::crowd::visibility::{AnimationView, Frustum};
use crate::crowd::{Crowd, InstanceRecord, ModelId};
use crate::gpu::device::error::GpuError;
use crate::gpu::device::submit::submit_frame;
use crate::gpu::device::targets::{FrameSync, TargetImage};
use crate::gpu::features::cull::STATISTICS;
use crate::gpu::frame::culling::inputs::{CullInputs, InputBuffer, view_scale};
use crate::gpu::frame::culling::sizes::CullSizes;
use crate::gpu::frame::frame_io::FrameInputs;
use crate::gpu::frame::recording::bindings::FrameBindings;
use crate::gpu::frame::recording::compiled::CompiledFrame;
use crate::gpu::frame::recording::features::FeatureFrame;
use crate::gpu::frame::recording::frame::record_frame;
use crate::gpu::frame::recording::pass::{CrowdFrame, FrameShared, RingBinding};
use crate::gpu::frame::settings::GraphKey;
use crate::gpu::frame::skinning::skin_vec4s_for;
use crate::gpu::frame::uniforms::packing::pack_frame;
use crate::gpu::frame::uniforms::{FrameData, NEAR_FRAME_OFFSET};
use crate::gpu::renderer::compose::compile;
use crate::scene::NearCascade;

impl Renderer {
    /// Refuses a crowd of other models (a crowd whose state lives on the GPU may have
    /// spawned or despawned since the last frame: the frame hands its copy those changes).
    pub(super) fn check_call(&self, crowd: &Crowd) -> Result<(), GpuError> {
        if crowd.models().len() != self.assets.models.len() {
            return Err(GpuError::Other(format!(
                "the crowd has {} models, the renderer {}",
                crowd.models().len(),
                self.assets.models.len()
            )));
        }
        Ok(())
    }

    /// Lets the crowd write its records and palettes straight into the next ring slot (exact
    /// palettes only where the baked frames' error could show); returns the slot.
    pub(super) fn write_palettes(
        &mut self,
        crowd: &mut Crowd,
        inputs: &FrameInputs,
    ) -> Result<usize, GpuError> {
        crowd.set_view(Some(self.animation_view(inputs)));
        // A frame's palettes are bound as one storage-buffer range: past it, far instances
        // read baked frames rather than the frame being refused.
        crowd.set_max_exact_matrices(self.max_palette_matrices());
        let slot = crowd.write_frame(&mut self.frames.ring, &mut self.frames.timeline)?;
        self.slot_taken(crowd);
        Ok(slot)
    }

    /// With the crowd's state on the GPU: waits for the next ring slot, reads the near set
    /// the frame that last used it listed, and writes their exact palettes into the slot (the
    /// records are the crowd-state pass's); returns the slot.
    pub(super) fn acquire_slot(&mut self, crowd: &mut Crowd) -> Result<usize, GpuError> {
        let most = self.max_palette_matrices();
        let state = self
            .features
            .crowd_state
            .as_mut()
            .ok_or_else(|| GpuError::Other("the crowd's state is not on the GPU".into()))?;
        // The frame that last used this frame in flight listed its near set: wait for it.
        let next = self.frames.ring.next_slot();
        self.frames
            .timeline
            .wait(self.frames.slots[next].frame.done_at)?;
        let needed = state.read_near(next, crowd.models())?;
        // At least one matrix: the renderer binds the palettes even when all are baked.
        self.frames
            .ring
            .reserve(crowd.len(), needed.clamp(1, most))?;
        let slot = self.frames.ring.acquire(&mut self.frames.timeline)?;
        let index = slot.index;
        state.write_changes(index, crowd)?;
        state.write_exact(index, crowd, slot.palettes, most)?;
        self.slot_taken(crowd);
        Ok(index)
    }

    /// The most palette matrices a frame may hold: its palettes are bound as one
    /// storage-buffer range (past it, far instances read baked frames rather than the frame
    /// being refused).
    fn max_palette_matrices(&self) -> usize {
        self.ctx.physical.limits.max_storage_buffer_range as usize / size_of::<Mat3x4>()
    }

    /// After a ring slot was taken: notes a ring that grew, and each model's range of records.
    fn slot_taken(&mut self, crowd: &mut Crowd) {
        if self.frames.ring.generation() != self.frames.ring_generation {
            // The bindings name the region's buffer every frame, so the new one is bound
            // from this frame on; the old one lives until its frames are done.
            log::debug!(
                "palette ring grew to {} instances / {} matrices per slot",
                self.frames.ring.layout().instances,
                self.frames.ring.layout().joints
            );
            self.frames.ring_generation = self.frames.ring.generation();
        }
        for (m, range) in self.assets.ranges.iter_mut().enumerate() {
            *range = crowd.model_range(ModelId(m as u32));
        }
    }

    /// Compiles the graph for `key`, builds its pipelines and makes its transient images,
    /// once per key (waiting for the device first: an image a new graph needs for more uses
    /// is made again).
    pub(super) fn ensure_graph(&mut self, key: GraphKey) -> Result<(), GpuError> {
        if !self.graphs.compiled.contains_key(&key) {
            let mut graph = compile(
                key,
                &self.settings,
                self.target.color_format,
                self.graphs.culling,
            )?;
            graph.build_pipelines(&mut self.graphs.pipelines)?;
            self.wait_idle()?;
            self.graphs.transients.prepare(&graph.plan)?;
            self.graphs.compiled.insert(key, graph);
        }
        Ok(())
    }

    /// The counts this frame's culling buffers must hold.
    pub(super) fn cull_sizes(&self, crowd: &Crowd) -> CullSizes {
        let subsets = self.assets.models.iter().map(|m| m.subsets.len()).max();
        CullSizes {
            instances: crowd.len().max(1),
            models: self.assets.models.len().max(1),
            subsets: subsets.unwrap_or(0).max(1),
            bounds: crowd.bounds().len().max(1),
            pixels: (self.target.extent.width as usize * self.target.extent.height as usize).max(1),
            skin_vec4s: skin_vec4s_for(crowd.len(), &self.assets.models),
        }
    }

    /// The CPU's inputs of frame in flight `fi`: its uniforms (and the near cascade's copy of
    /// them, where `key` has the near square), its culling inputs, and the buffers the
    /// graph's passes declared, large enough for the crowd.
    pub(super) fn write_inputs(
        &mut self,
        fi: usize,
        key: GraphKey,
        crowd: &Crowd,
        inputs: &FrameInputs,
        near: Option<&NearCascade>,
    ) -> Result<(), GpuError> {
        // A visible list's entry numbers its record in VISIBLE_RECORD_MASK's bits.
        let most = crate::gpu::frame::shader_interface::VISIBLE_RECORD_MASK as usize + 1;
        if crowd.len() > most {
            return Err(GpuError::Other(format!(
                "a crowd of {} instances is more than the {most} the culling lists can number",
                crowd.len()
            )));
        }
        let graph = self.graph(key)?;
        let data = pack_frame(
            inputs,
            self.target.extent,
            &self.settings,
            &graph.shape,
            &self.kernel,
            near,
        );
        let uniforms = &self.frames.slots[fi].frame.uniforms;
        uniforms.write(0, bytemuck::bytes_of(&data))?;
        if near.is_some() {
            // The near cascade's passes draw with the same shaders through its own matrix,
            // and only what the culling marked as within its reach.
            let near = FrameData {
                light_view_proj: data.light_view_proj_near,
                near_lo: data.near_lo.with_w(1.0),
                ..data
            };
            uniforms.write(NEAR_FRAME_OFFSET as usize, bytemuck::bytes_of(&near))?;
        }
        let sizes = self.cull_sizes(crowd);
        let graph = self.graphs.compiled.get(&key).ok_or_else(gone)?;
        let slot = &mut self.frames.slots[fi];
        slot.buffers.ensure(graph.used_buffers(), sizes)?;
        let cull = InputBuffer::ensure(&mut slot.cull_inputs, &self.ctx, fi, sizes)?;
        self.frames.cull_writer.write(
            CullInputs {
                crowd,
                models: &self.assets.models,
                ranges: &self.assets.ranges,
                inputs,
                light_view_proj: data.light_view_proj,
                near_shadow: near,
                extent: self.target.extent,
                settings: &self.settings,
                shadows: graph.shape.shadow_lists,
                occlusion: graph.shape.occlusion,
                cards: graph.shape.cards,
                meshes_in_compute: graph.shape.meshes_in_compute,
                shadow_meshes_in_compute: graph.shape.shadow_meshes_in_compute,
                card_clips: &|m| self.features.atlases.atlas(m).map_or(0, |a| a.layout.clips),
                subsets: sizes.subsets,
            },
            cull,
        )
    }

    /// Records frame in flight `fi`'s command buffer: the graph for `key` with this frame's
    /// handles.
    pub(super) fn record(
        &mut self,
        fi: usize,
        key: GraphKey,
        crowd: &Crowd,
        (target, readback): (TargetImage, Option<vk::Buffer>),
        dt: f32,
    ) -> Result<vk::CommandBuffer, GpuError> {
        let graph = self.graphs.compiled.get(&key).ok_or_else(gone)?;
        let FrameSlot {
            frame: in_flight,
            cull_inputs,
            buffers,
            ..
        } = &mut self.frames.slots[fi];
        let cull = cull_inputs
            .as_ref()
            .ok_or_else(|| GpuError::Other("the culling inputs were not made".into()))?;
        let layout = self.frames.ring.layout();
        let records = (crowd.len().max(1) * size_of::<InstanceRecord>()) as u64;
        // With the state on the GPU every palette is baked: the binding holds one matrix.
        // Near instances exact where the animation mode lets baked frames stand in.
        let near = crowd.animation() == crate::crowd::AnimationMode::Auto;
        let values = self.features.prepare_frame(fi, key, dt, near)?;
        let exact = match &self.features.crowd_state {
            Some(state) => state.exact_counts().1,
            None => crowd.counts().palette_matrices,
        };
        let palettes = (exact.max(1) * size_of::<Mat3x4>()) as u64;
        let mut features = FeatureFrame::default();
        self.features.hand(fi, &values, &mut features)?;
        let shared = FrameShared {
            extent: self.target.extent,
            shape: graph.shape,
            samplers: self.samplers.handles(),
            uniforms: in_flight.uniforms.buffer,
            shadow_size: key.shadow_size,
            crowd: CrowdFrame {
                models: &self.assets.models,
                ranges: &self.assets.ranges,
                ring: RingBinding {
                    records: (0, records),
                    palettes: (layout.palette_offset as u64, palettes),
                },
                baked: self.assets.baked.buffer(),
                looks: self.assets.looks.buffer(),
                cull_layout: cull.layout.clone(),
                cull_sizes: buffers.sizes(),
                instances: crowd.len() as u32,
            },
            features: &features,
        };
        let bindings = FrameBindings {
            frame: graph.frame,
            plan: &graph.plan,
            target: (target.image, target.view),
            ring: (
                self.frames.ring.region().buffer(),
                self.frames.ring.slot_offset(fi) as u64,
                layout.stride as u64,
            ),
            readback: (
                readback.unwrap_or(vk::Buffer::null()),
                u64::from(self.target.extent.width) * u64::from(self.target.extent.height) * 4,
            ),
            cull_inputs: cull.buffer.buffer,
            buffer_descs: &graph.buffers,
            buffers,
            transients: &self.graphs.transients,
            imported: features.imports(),
        };
        record_frame(
            &self.ctx,
            in_flight,
            graph,
            &shared,
            &bindings,
            &mut self.graphs.scratch,
        )
    }

    /// Submits frame in flight `fi`'s commands: the timeline value it signals releases the
    /// ring slot and the frame in flight.
    pub(super) fn submit(
        &mut self,
        fi: usize,
        key: GraphKey,
        cmd: vk::CommandBuffer,
        sync: FrameSync,
    ) -> Result<(), GpuError> {
        let graph = self.graphs.compiled.get(&key).ok_or_else(gone)?;
        let value = self.frames.last_value + 1;
        if crate::gpu::device::fault::device_lost_at(self.frames.frame_number + 1) {
            return Err(GpuError::DeviceLost {
                what: format!(
                    "submitting frame {} (injected by {})",
                    self.frames.frame_number + 1,
                    crate::gpu::device::fault::FAULT_ENV
                ),
            });
        }
        let wait_stage = graph.plan.first_use_stages(graph.frame.color);
        submit_frame(
            &self.ctx,
            cmd,
            sync,
            wait_stage,
            (self.frames.timeline.semaphore, value),
        )?;
        self.frames.last_value = value;
        self.frames.last_slot = fi;
        // A slot the ring did not hand out is a bug here, reported rather than left to tear
        // a later frame.
        self.frames
            .ring
            .submit(fi, value)
            .map_err(crate::crowd::CrowdError::Ring)?;
        // The counters are numbered by the models this frame drew: more may be added before
        // they are read.
        let slot = &mut self.frames.slots[fi];
        slot.stats_pending = graph
            .writes_buffer(&STATISTICS)
            .then_some(self.assets.models.len());
        let frame = &mut slot.frame;
        frame.done_at = value;
        frame.queries_pending = true;
        self.frames.frame_number += 1;
        Ok(())
    }

    /// The compiled graph for `key` (compiled by [`Self::ensure_graph`]).
    pub(super) fn graph(&self, key: GraphKey) -> Result<&CompiledFrame, GpuError> {
        self.graphs.compiled.get(&key).ok_or_else(gone)
    }

    /// What the crowd needs to tell near instances (exact palettes) from far ones (baked).
    pub(super) fn animation_view(&self, inputs: &FrameInputs) -> AnimationView {
        AnimationView {
            frustum: Frustum::from_clip(inputs.view_proj),
            scale: view_scale(inputs, self.target.extent),
            max_error_px: BAKED_ERROR_PX * self.settings.lod_bias,
        }
    }
}

/// The error for a graph that should have been compiled (a bug, reported, not a panic).
pub(super) fn gone() -> GpuError {
    GpuError::Graph("a graph compiled a moment ago is gone".into())
}
