//! What a pass records with: [`PassRecording`] hands a pass the resources it declared, by
//! the ids it declared them with, in the layouts the graph put them in, and refuses any it
//! did not declare (an error naming the pass and the resource, in every build). Attachment
//! load and store operations come from the compiled plan too, so a pass never states a
//! layout or decides whether earlier contents survive.

use std::ops::Range;

use ash::vk;

use super::{FrameIds, FrameShape};
use crate::gpu::cull_buffers::{CullBuffers, CullSizes, InputsLayout};
use crate::gpu::device::context::GpuContext;
use crate::gpu::device::error::GpuError;
use crate::gpu::graph::{Bound, Plan, Step, StepUse};
use crate::gpu::model_buffers::GpuModel;
use crate::gpu::pipeline_builder::{BINDING_AO, BINDING_FRAME, BINDING_SHADOW_MAP, Pipeline};
use crate::gpu::pipeline_set::Pipelines;
use crate::gpu::samplers::Samplers;
use crate::gpu::transients::TransientPool;

/// A pass's recording: called by the frame's executor after the step's barriers.
pub type RecordFn = fn(&PassRecording<'_>) -> Result<(), GpuError>;

/// Where this frame's records and palettes are within the ring slot, in bytes from the
/// slot's start.
#[derive(Clone, Copy, Debug)]
pub struct RingBinding {
    /// Offset and size of the instance records.
    pub records: (vk::DeviceSize, vk::DeviceSize),
    /// Offset and size of the palettes.
    pub palettes: (vk::DeviceSize, vk::DeviceSize),
}

/// What every pass of a frame shares and the graph does not track: pipelines, samplers,
/// the frame's uniforms, the models and their ranges of records.
pub struct FrameShared<'a> {
    /// The render size.
    pub extent: vk::Extent2D,
    /// What the passes do.
    pub shape: FrameShape,
    /// Every pipeline.
    pub pipelines: &'a Pipelines,
    /// Samplers and default textures.
    pub samplers: Samplers,
    /// The frame's uniform buffer.
    pub uniforms: vk::Buffer,
    /// The models, and each one's range of instance records this frame.
    pub models: &'a [GpuModel],
    /// Indexed like `models`.
    pub ranges: &'a [Range<usize>],
    /// The records and palettes within the ring slot.
    pub ring: RingBinding,
    /// The baked frames (a placeholder when nothing is baked; written once, at start-up).
    pub baked: vk::Buffer,
    /// Where the culling inputs are in their buffer.
    pub cull_layout: InputsLayout,
    /// How many instances, models and subsets the culling buffers hold.
    pub cull_sizes: CullSizes,
    /// Instance records this frame.
    pub instances: u32,
    /// Shadow map side in texels.
    pub shadow_size: u32,
}

/// This frame's handles for a graph's resources.
pub struct FrameBindings<'a> {
    /// The graph's resources.
    pub ids: FrameIds,
    /// The plan, to find transients by id.
    pub plan: &'a Plan,
    /// The colour target.
    pub target: (vk::Image, vk::ImageView),
    /// The ring's buffer and this frame's slot in it (offset, size).
    pub ring: (vk::Buffer, vk::DeviceSize, vk::DeviceSize),
    /// The readback buffer and its size (null when the frame is not read back).
    pub readback: (vk::Buffer, vk::DeviceSize),
    /// This frame in flight's culling buffers.
    pub cull: &'a CullBuffers,
    /// The transient images.
    pub transients: &'a TransientPool,
}

/// One resource's handle this frame.
#[derive(Clone, Copy, Debug)]
pub enum Handle {
    /// An image and its view.
    Image {
        /// The image.
        image: vk::Image,
        /// Its view (all mips and layers).
        view: vk::ImageView,
        /// Its aspect.
        aspect: vk::ImageAspectFlags,
    },
    /// A range of a buffer.
    Buffer {
        /// The buffer.
        buffer: vk::Buffer,
        /// Start of the range.
        offset: vk::DeviceSize,
        /// Length of the range.
        size: vk::DeviceSize,
    },
}

impl FrameBindings<'_> {
    /// What `id` stands for this frame; `None` for a transient the pool did not make (the
    /// plan never uses one).
    pub fn handle(&self, id: crate::gpu::graph::ResourceId) -> Option<Handle> {
        let ids = &self.ids;
        let whole = |buffer: vk::Buffer| Handle::Buffer {
            buffer,
            offset: 0,
            size: vk::WHOLE_SIZE,
        };
        let cull = self.cull;
        let handle = if id == ids.color {
            Handle::Image {
                image: self.target.0,
                view: self.target.1,
                aspect: vk::ImageAspectFlags::COLOR,
            }
        } else if id == ids.ring {
            Handle::Buffer {
                buffer: self.ring.0,
                offset: self.ring.1,
                size: self.ring.2,
            }
        } else if id == ids.readback {
            Handle::Buffer {
                buffer: self.readback.0,
                offset: 0,
                size: self.readback.1,
            }
        } else if id == ids.cull_inputs {
            whole(cull.inputs.buffer)
        } else if id == ids.counters {
            whole(cull.counters.buffer)
        } else if id == ids.lists {
            whole(cull.lists.buffer)
        } else if id == ids.draw_counts {
            whole(cull.draw_counts.buffer)
        } else if id == ids.commands {
            whole(cull.commands.buffer)
        } else if id == ids.stats {
            whole(cull.stats.buffer)
        } else if id == ids.candidates {
            whole(cull.candidates.buffer)
        } else {
            let image = self.transients.image(self.plan, id)?;
            Handle::Image {
                image: image.image,
                view: image.view,
                aspect: image.info.aspect,
            }
        };
        Some(handle)
    }

    /// What a barrier on `id` covers (a null buffer for an id nothing stands for: the graph
    /// only puts barriers on resources kept passes use, which all have handles).
    pub fn bound(&self, id: crate::gpu::graph::ResourceId) -> Bound {
        match self.handle(id) {
            Some(Handle::Image { image, aspect, .. }) => Bound::Image { image, aspect },
            Some(Handle::Buffer {
                buffer,
                offset,
                size,
            }) => Bound::Buffer {
                buffer,
                offset,
                size,
            },
            None => Bound::Buffer {
                buffer: vk::Buffer::null(),
                offset: 0,
                size: 0,
            },
        }
    }
}

/// What one pass records with; see the module documentation.
pub struct PassRecording<'a> {
    /// The device and its helpers.
    pub ctx: &'a GpuContext,
    /// The command buffer being recorded.
    pub cmd: vk::CommandBuffer,
    /// What the passes share.
    pub shared: &'a FrameShared<'a>,
    /// The graph's resources, to name what to ask for.
    pub ids: FrameIds,
    /// The compiled plan and the step being recorded.
    pub plan: &'a Plan,
    /// The step.
    pub step: &'a Step,
    /// This frame's handles.
    pub bindings: &'a FrameBindings<'a>,
}

/// How `step` of `plan` declared `id`; an error naming both when it did not.
pub fn declared_use<'p>(
    plan: &'p Plan,
    step: &Step,
    id: crate::gpu::graph::ResourceId,
) -> Result<&'p StepUse, GpuError> {
    plan.step_use(step, id).ok_or_else(|| {
        GpuError::Graph(format!(
            "pass {} uses {} without declaring it",
            step.name,
            plan.resource_name(id)
        ))
    })
}

impl PassRecording<'_> {
    /// How this step declared `id`; an error when it did not.
    fn declared(&self, id: crate::gpu::graph::ResourceId) -> Result<&StepUse, GpuError> {
        declared_use(self.plan, self.step, id)
    }

    fn handle(&self, id: crate::gpu::graph::ResourceId) -> Result<Handle, GpuError> {
        self.bindings.handle(id).ok_or_else(|| {
            GpuError::Graph(format!(
                "{} has no handle this frame",
                self.plan.resource_name(id)
            ))
        })
    }

    /// A declared buffer: handle, offset and size.
    pub fn buffer(
        &self,
        id: crate::gpu::graph::ResourceId,
    ) -> Result<(vk::Buffer, vk::DeviceSize, vk::DeviceSize), GpuError> {
        self.declared(id)?;
        match self.handle(id)? {
            Handle::Buffer {
                buffer,
                offset,
                size,
            } => Ok((buffer, offset, size)),
            Handle::Image { .. } => Err(GpuError::Graph(format!(
                "pass {} asked for image {} as a buffer",
                self.step.name,
                self.plan.resource_name(id)
            ))),
        }
    }

    /// A declared buffer as one descriptor over its whole bound range.
    pub fn buffer_info(
        &self,
        id: crate::gpu::graph::ResourceId,
    ) -> Result<[vk::DescriptorBufferInfo; 1], GpuError> {
        let (buffer, offset, range) = self.buffer(id)?;
        Ok([vk::DescriptorBufferInfo {
            buffer,
            offset,
            range,
        }])
    }

    /// A declared image: handle, view and the layout the graph put it in for this step.
    pub fn image(
        &self,
        id: crate::gpu::graph::ResourceId,
    ) -> Result<(vk::Image, vk::ImageView, vk::ImageLayout), GpuError> {
        let layout = self.declared(id)?.layout;
        match (self.handle(id)?, layout) {
            (Handle::Image { image, view, .. }, Some(layout)) => Ok((image, view, layout)),
            _ => Err(GpuError::Graph(format!(
                "pass {} asked for buffer {} as an image",
                self.step.name,
                self.plan.resource_name(id)
            ))),
        }
    }

    /// A declared image as a descriptor read through `sampler` (null for a storage image),
    /// in the layout the graph put it in.
    pub fn image_info(
        &self,
        id: crate::gpu::graph::ResourceId,
        sampler: vk::Sampler,
    ) -> Result<[vk::DescriptorImageInfo; 1], GpuError> {
        let (_, view, layout) = self.image(id)?;
        Ok([vk::DescriptorImageInfo {
            sampler,
            image_view: view,
            image_layout: layout,
        }])
    }

    /// A declared image as a rendering attachment: its layout from the plan; loaded when
    /// earlier work this frame left contents, otherwise cleared to `clear` (or left
    /// undefined without one); stored when something later reads it.
    pub fn attachment(
        &self,
        id: crate::gpu::graph::ResourceId,
        clear: Option<vk::ClearValue>,
    ) -> Result<vk::RenderingAttachmentInfo<'static>, GpuError> {
        let u = *self.declared(id)?;
        let (_, view, layout) = self.image(id)?;
        let (load, clear) = match (u.loads, clear) {
            (true, _) => (vk::AttachmentLoadOp::LOAD, None),
            (false, Some(c)) => (vk::AttachmentLoadOp::CLEAR, Some(c)),
            (false, None) => (vk::AttachmentLoadOp::DONT_CARE, None),
        };
        let store = if !u.writes {
            // Read only: NONE (core in 1.3) writes nothing back; a 1.2 device without
            // VK_KHR_load_store_op_none can only say it does not care.
            if self.ctx.physical.core13 {
                vk::AttachmentStoreOp::NONE
            } else {
                vk::AttachmentStoreOp::DONT_CARE
            }
        } else if u.stores {
            vk::AttachmentStoreOp::STORE
        } else {
            vk::AttachmentStoreOp::DONT_CARE
        };
        let info = vk::RenderingAttachmentInfo::default()
            .image_view(view)
            .image_layout(layout)
            .load_op(load)
            .store_op(store);
        Ok(match clear {
            Some(c) => info.clear_value(c),
            None => info,
        })
    }

    /// [`Self::attachment`] of `id`, resolved at the end of rendering into `resolved` when
    /// they differ (a multisampled attachment and its single-sample image): colour averaged,
    /// depth from sample 0 (every device supports it, and it keeps a depth that was
    /// rendered rather than a blend of surfaces).
    pub fn resolved_attachment(
        &self,
        id: crate::gpu::graph::ResourceId,
        resolved: crate::gpu::graph::ResourceId,
        clear: Option<vk::ClearValue>,
    ) -> Result<vk::RenderingAttachmentInfo<'static>, GpuError> {
        let info = self.attachment(id, clear)?;
        if id == resolved {
            return Ok(info);
        }
        let (_, view, layout) = self.image(resolved)?;
        let depth = self.plan.image_kind(resolved) == Some(crate::gpu::graph::ImageKind::Depth);
        let mode = if depth {
            vk::ResolveModeFlags::SAMPLE_ZERO
        } else {
            vk::ResolveModeFlags::AVERAGE
        };
        Ok(info
            .resolve_mode(mode)
            .resolve_image_view(view)
            .resolve_image_layout(layout))
    }

    /// The frame's render size.
    pub fn extent(&self) -> vk::Extent2D {
        self.shared.extent
    }

    /// Begins dynamic rendering over `extent` with `color` and `depth`, and sets viewport
    /// and scissor to it.
    pub fn begin_rendering(
        &self,
        extent: vk::Extent2D,
        color: &[vk::RenderingAttachmentInfo<'_>],
        depth: Option<&vk::RenderingAttachmentInfo<'_>>,
    ) {
        let mut rendering = vk::RenderingInfo::default()
            .render_area(vk::Rect2D {
                offset: vk::Offset2D { x: 0, y: 0 },
                extent,
            })
            .layer_count(1)
            .color_attachments(color);
        if let Some(depth) = depth {
            rendering = rendering.depth_attachment(depth);
        }
        let viewport = vk::Viewport {
            x: 0.0,
            y: 0.0,
            width: extent.width as f32,
            height: extent.height as f32,
            min_depth: 0.0,
            max_depth: 1.0,
        };
        let scissor = vk::Rect2D {
            offset: vk::Offset2D { x: 0, y: 0 },
            extent,
        };
        // SAFETY: recording inside the graph's step for this pass, outside rendering; the
        // attachments' views live until the frame completes.
        unsafe {
            self.ctx.cmd_begin_rendering(self.cmd, &rendering);
            self.ctx.device.cmd_set_viewport(self.cmd, 0, &[viewport]);
            self.ctx.device.cmd_set_scissor(self.cmd, 0, &[scissor]);
        }
    }

    /// Ends the rendering begun by [`Self::begin_rendering`].
    pub fn end_rendering(&self) {
        // SAFETY: inside the rendering begun by this pass.
        unsafe { self.ctx.cmd_end_rendering(self.cmd) };
    }

    /// Binds a compute `pipeline`, pushes `writes` with `layout` and dispatches `groups`
    /// (nothing when a count is zero).
    pub fn dispatch(
        &self,
        pipeline: &Pipeline,
        layout: vk::PipelineLayout,
        writes: &[vk::WriteDescriptorSet<'_>],
        groups: [u32; 2],
    ) {
        let d = &self.ctx.device;
        // SAFETY: recording outside rendering; the descriptors carry the layouts the graph
        // put the images in, and the buffers live until the frame completes.
        unsafe {
            d.cmd_bind_pipeline(self.cmd, vk::PipelineBindPoint::COMPUTE, pipeline.pipeline);
            self.ctx.push_descriptor.cmd_push_descriptor_set(
                self.cmd,
                vk::PipelineBindPoint::COMPUTE,
                layout,
                0,
                writes,
            );
            if groups[0] > 0 && groups[1] > 0 {
                d.cmd_dispatch(self.cmd, groups[0], groups[1], 1);
            }
        }
    }

    /// The frame uniforms as a descriptor.
    pub fn frame_info(&self) -> [vk::DescriptorBufferInfo; 1] {
        [vk::DescriptorBufferInfo {
            buffer: self.shared.uniforms,
            offset: 0,
            range: vk::WHOLE_SIZE,
        }]
    }

    /// A view the graph does not track (a default texture) read through `sampler`.
    pub fn fixed_image(view: vk::ImageView, sampler: vk::Sampler) -> [vk::DescriptorImageInfo; 1] {
        [vk::DescriptorImageInfo {
            sampler,
            image_view: view,
            image_layout: vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
        }]
    }

    /// Binds `pipeline` (graphics) and pushes the frame uniforms plus up to two `extra`
    /// descriptors (the ground, fullscreen passes).
    pub fn bind_with_frame(&self, pipeline: &Pipeline, extra: &[vk::WriteDescriptorSet<'_>]) {
        let frame = self.frame_info();
        let mut writes = [vk::WriteDescriptorSet::default(); 3];
        writes[0] = vk::WriteDescriptorSet::default()
            .dst_binding(BINDING_FRAME)
            .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER)
            .buffer_info(&frame);
        let n = extra.len().min(2);
        writes[1..=n].copy_from_slice(&extra[..n]);
        let writes = &writes[..=n];
        // SAFETY: recording; the layout matches the pipeline's.
        unsafe {
            self.ctx.device.cmd_bind_pipeline(
                self.cmd,
                vk::PipelineBindPoint::GRAPHICS,
                pipeline.pipeline,
            );
            self.ctx.push_descriptor.cmd_push_descriptor_set(
                self.cmd,
                vk::PipelineBindPoint::GRAPHICS,
                self.shared.pipelines.layouts.pipeline,
                0,
                writes,
            );
        }
    }

    /// The shadow map and the ambient occlusion as the lit shaders read them: the graph's
    /// images where this pass declared them, placeholders where the frame has none (never
    /// sampled then: the uniforms say so).
    pub fn lit_images(
        &self,
    ) -> Result<([vk::DescriptorImageInfo; 1], [vk::DescriptorImageInfo; 1]), GpuError> {
        let s = &self.shared.samplers;
        let shadow = if self.shared.shape.shadows {
            self.image_info(self.ids.shadow_map, s.shadow)?
        } else {
            Self::fixed_image(s.no_shadow, s.shadow)
        };
        let ao = if self.shared.shape.ao {
            self.image_info(self.ids.ao, s.ao)?
        } else {
            Self::fixed_image(s.white, s.ao)
        };
        Ok((shadow, ao))
    }

    /// The lit pushes of the ground: shadow map and ambient occlusion.
    pub fn lit_writes<'b>(
        shadow: &'b [vk::DescriptorImageInfo; 1],
        ao: &'b [vk::DescriptorImageInfo; 1],
    ) -> [vk::WriteDescriptorSet<'b>; 2] {
        [
            vk::WriteDescriptorSet::default()
                .dst_binding(BINDING_SHADOW_MAP)
                .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                .image_info(shadow),
            vk::WriteDescriptorSet::default()
                .dst_binding(BINDING_AO)
                .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                .image_info(ao),
        ]
    }

    /// Draws the ground (six generated vertices) with `pipeline` and `extra` pushes.
    pub fn draw_ground(&self, pipeline: &Pipeline, extra: &[vk::WriteDescriptorSet<'_>]) {
        self.bind_with_frame(pipeline, extra);
        // SAFETY: inside the pass's rendering; the ground needs no vertex buffer.
        unsafe {
            self.ctx
                .cmd_set_front_face(self.cmd, vk::FrontFace::COUNTER_CLOCKWISE);
            self.ctx.device.cmd_draw(self.cmd, 6, 1, 0, 0);
        }
    }

    /// The ring slot's instance records and palettes as descriptors.
    pub fn ring_infos(
        &self,
    ) -> Result<([vk::DescriptorBufferInfo; 1], [vk::DescriptorBufferInfo; 1]), GpuError> {
        let (buffer, slot, _) = self.buffer(self.ids.ring)?;
        let ring = self.shared.ring;
        let range = |(offset, size): (u64, u64)| {
            [vk::DescriptorBufferInfo {
                buffer,
                offset: slot + offset,
                range: size,
            }]
        };
        Ok((range(ring.records), range(ring.palettes)))
    }
}
