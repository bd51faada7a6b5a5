//! What a pass records with: [`PassRecording`] hands a pass the resources it declared, by
//! the ids it declared them with, in the layouts the graph put them in, and refuses any it
//! did not declare (an error naming the pass and the resource, in every build). Attachment
//! load and store operations come from the compiled plan too, so a pass never states a
//! layout or decides whether earlier contents survive. Descriptors are bound by the names the
//! shaders give them ([`Bind`]); the pipeline's layout, read from its shaders, says where.

use std::any::Any;
use std::ops::Range;
use std::sync::Arc;

use ash::vk;

use crate::gpu::device::buffer::whole_buffer;
use crate::gpu::device::context::GpuContext;
use crate::gpu::device::error::GpuError;
use crate::gpu::device::pipeline::Pipeline;
use crate::gpu::frame::culling::inputs::InputsLayout;
use crate::gpu::frame::culling::sizes::CullSizes;
use crate::gpu::frame::model_buffers::GpuModel;
use crate::gpu::frame::recording::bindings::{FrameBindings, FrameResources, Handle};
use crate::gpu::frame::recording::features::FeatureFrame;
use crate::gpu::frame::samplers::Samplers;
use crate::gpu::frame::shape::FrameShape;
use crate::gpu::frame::uniforms::{FrameData, NEAR_FRAME_OFFSET};
use crate::gpu::graph::{ImageKind, Plan, ResourceId, Step, StepUse};

/// Where this frame's records and palettes are within the ring slot, in bytes from the
/// slot's start.
#[derive(Clone, Copy, Debug)]
pub struct RingBinding {
    /// Offset and size of the instance records.
    pub records: (vk::DeviceSize, vk::DeviceSize),
    /// Offset and size of the palettes.
    pub palettes: (vk::DeviceSize, vk::DeviceSize),
}

/// The crowd on the device as this frame draws it: its models with each one's range of
/// records, where the records and palettes are in the ring slot, the baked frames and looks
/// every drawing pass reads, and the culling inputs' layout and sizes.
pub struct CrowdFrame<'a> {
    /// The models, and each one's range of instance records this frame.
    pub models: &'a [GpuModel],
    /// Indexed like `models`.
    pub ranges: &'a [Range<usize>],
    /// The records and palettes within the ring slot.
    pub ring: RingBinding,
    /// The baked frames (a placeholder when nothing is baked; written once, at start-up).
    pub baked: vk::Buffer,
    /// The crowd's looks (the plain look alone until the crowd adds one).
    pub looks: vk::Buffer,
    /// Where the culling inputs are in their buffer.
    pub cull_layout: InputsLayout,
    /// How many instances, models and subsets the culling buffers hold.
    pub cull_sizes: CullSizes,
    /// Instance records this frame.
    pub instances: u32,
}

/// What every pass of a frame shares and the graph does not track: the render size and what
/// the passes do, samplers, the frame's uniforms, the crowd as the frame draws it, and what
/// the features that keep state hand the frame.
pub struct FrameShared<'a> {
    /// The render size.
    pub extent: vk::Extent2D,
    /// What the passes do.
    pub shape: FrameShape,
    /// Samplers and default textures.
    pub samplers: Samplers,
    /// The frame's uniform buffer.
    pub uniforms: vk::Buffer,
    /// Shadow map side in texels (of each cascade's square).
    pub shadow_size: u32,
    /// The crowd on the device.
    pub crowd: CrowdFrame<'a>,
    /// What the features that keep state across frames hand this frame (their buffers, by
    /// name, and a value each: [`PassRecording::feature`]).
    pub features: &'a FeatureFrame<'a>,
}

/// One descriptor to bind, by the name the shaders give it: a block's type name (`Records`)
/// or a sampler's or image's variable name (`shadow_map`).
#[derive(Clone, Copy)]
pub struct Bind<'a> {
    name: &'static str,
    what: Descriptor<'a>,
}

#[derive(Clone, Copy)]
enum Descriptor<'a> {
    Buffer(&'a [vk::DescriptorBufferInfo; 1]),
    Image(&'a [vk::DescriptorImageInfo; 1]),
}

impl<'a> Bind<'a> {
    /// A buffer (uniform or storage, as the shader declares it).
    pub fn buffer(name: &'static str, info: &'a [vk::DescriptorBufferInfo; 1]) -> Self {
        Self {
            name,
            what: Descriptor::Buffer(info),
        }
    }

    /// An image (sampled or storage, as the shader declares it).
    pub fn image(name: &'static str, info: &'a [vk::DescriptorImageInfo; 1]) -> Self {
        Self {
            name,
            what: Descriptor::Image(info),
        }
    }
}

/// A pipeline a pass registered, by its place in the compiled frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PipelineId(pub u32);

/// The most descriptors one push may carry: the least `maxPushDescriptors` Vulkan allows a
/// device (the mesh shading pushes 20).
const MAX_BINDS: usize = 32;

/// What one pass records with; see the module documentation.
pub struct PassRecording<'a> {
    /// The device and its helpers.
    pub ctx: &'a GpuContext,
    /// The command buffer being recorded.
    pub cmd: vk::CommandBuffer,
    /// What the passes share.
    pub shared: &'a FrameShared<'a>,
    /// The frame-wide resources.
    pub frame: FrameResources,
    /// The compiled plan.
    pub plan: &'a Plan,
    /// The step being recorded.
    pub step: &'a Step,
    /// This frame's handles.
    pub bindings: &'a FrameBindings<'a>,
    /// The pipelines the frame's passes registered.
    pub pipelines: &'a [Arc<Pipeline>],
}

/// How `step` of `plan` declared `id`; an error naming both when it did not.
pub fn declared_use<'p>(
    plan: &'p Plan,
    step: &Step,
    id: ResourceId,
) -> Result<&'p StepUse, GpuError> {
    plan.step_use(step, id).ok_or_else(|| {
        GpuError::Graph(format!(
            "pass {} uses {} without declaring it",
            step.name,
            plan.resource_name(id)
        ))
    })
}

impl<'a> PassRecording<'a> {
    /// How this step declared `id`; an error when it did not.
    fn declared(&self, id: ResourceId) -> Result<&StepUse, GpuError> {
        declared_use(self.plan, self.step, id)
    }

    fn handle(&self, id: ResourceId) -> Result<Handle, GpuError> {
        self.bindings.handle(id).ok_or_else(|| {
            GpuError::Graph(format!(
                "{} has no handle this frame",
                self.plan.resource_name(id)
            ))
        })
    }

    /// The value of type `T` a feature handed this frame, if one did.
    pub fn feature<T: Any>(&self) -> Option<&'a T> {
        self.shared.features.get()
    }

    /// A pipeline this pass registered.
    pub fn pipeline(&self, id: PipelineId) -> Result<&Pipeline, GpuError> {
        self.pipelines
            .get(id.0 as usize)
            .map(|p| &**p)
            .ok_or_else(|| {
                GpuError::Graph(format!(
                    "pass {} uses a pipeline the frame did not build",
                    self.step.name
                ))
            })
    }

    /// A declared buffer: handle, offset and size.
    pub fn buffer(
        &self,
        id: ResourceId,
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
    pub fn buffer_info(&self, id: ResourceId) -> Result<[vk::DescriptorBufferInfo; 1], GpuError> {
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
        id: ResourceId,
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
        id: ResourceId,
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
        id: ResourceId,
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
        id: ResourceId,
        resolved: ResourceId,
        clear: Option<vk::ClearValue>,
    ) -> Result<vk::RenderingAttachmentInfo<'static>, GpuError> {
        let info = self.attachment(id, clear)?;
        if id == resolved {
            return Ok(info);
        }
        let (_, view, layout) = self.image(resolved)?;
        let mode = if self.plan.image_kind(resolved) == Some(ImageKind::Depth) {
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
        let area = vk::Rect2D {
            offset: vk::Offset2D { x: 0, y: 0 },
            extent,
        };
        self.begin_rendering_in(area, color, depth);
    }

    /// Clears `area` of the depth attachment to `value`, inside rendering (whatever the
    /// attachment's load).
    pub fn clear_depth(&self, area: vk::Rect2D, value: vk::ClearValue) {
        let clear = vk::ClearAttachment {
            aspect_mask: vk::ImageAspectFlags::DEPTH,
            color_attachment: 0,
            clear_value: value,
        };
        let rect = vk::ClearRect {
            rect: area,
            base_array_layer: 0,
            layer_count: 1,
        };
        // SAFETY: recording inside rendering that has a depth attachment covering `area`.
        unsafe {
            self.ctx
                .device
                .cmd_clear_attachments(self.cmd, &[clear], &[rect])
        };
    }

    /// Begins dynamic rendering in `area` of the attachments (`color`, `depth`; cleared
    /// there only, where they clear), and sets viewport and scissor to it.
    pub fn begin_rendering_in(
        &self,
        area: vk::Rect2D,
        color: &[vk::RenderingAttachmentInfo<'_>],
        depth: Option<&vk::RenderingAttachmentInfo<'_>>,
    ) {
        let mut rendering = vk::RenderingInfo::default()
            .render_area(area)
            .layer_count(1)
            .color_attachments(color);
        if let Some(depth) = depth {
            rendering = rendering.depth_attachment(depth);
        }
        let viewport = vk::Viewport {
            x: area.offset.x as f32,
            y: area.offset.y as f32,
            width: area.extent.width as f32,
            height: area.extent.height as f32,
            min_depth: 0.0,
            max_depth: 1.0,
        };
        // SAFETY: recording inside the graph's step for this pass, outside rendering; the
        // attachments' views live until the frame completes.
        unsafe {
            self.ctx.cmd_begin_rendering(self.cmd, &rendering);
            self.ctx.device.cmd_set_viewport(self.cmd, 0, &[viewport]);
            self.ctx.device.cmd_set_scissor(self.cmd, 0, &[area]);
        }
    }

    /// Ends the rendering begun by [`Self::begin_rendering`].
    pub fn end_rendering(&self) {
        // SAFETY: inside the rendering begun by this pass.
        unsafe { self.ctx.cmd_end_rendering(self.cmd) };
    }

    /// Binds `pipeline`.
    pub fn bind(&self, pipeline: &Pipeline) {
        // SAFETY: recording; the pipeline lives as long as the compiled frame.
        unsafe {
            self.ctx
                .device
                .cmd_bind_pipeline(self.cmd, pipeline.bind_point, pipeline.pipeline)
        };
    }

    /// Pushes the descriptors of `binds` that `pipeline`'s shaders declare, each at the
    /// binding and of the kind its layout gives; binds the shaders do not declare are left
    /// out (one set of binds serves the pipelines of several passes).
    pub fn push(&self, pipeline: &Pipeline, binds: &[Bind<'_>]) -> Result<(), GpuError> {
        let mut writes = [vk::WriteDescriptorSet::default(); MAX_BINDS];
        let mut n = 0;
        for bind in binds {
            let Some(b) = pipeline.binding(bind.name) else {
                continue;
            };
            let slot = writes.get_mut(n).ok_or_else(|| {
                GpuError::Graph(format!(
                    "pass {} binds more than {MAX_BINDS} descriptors at once",
                    self.step.name
                ))
            })?;
            let write = vk::WriteDescriptorSet::default()
                .dst_binding(b.binding)
                .descriptor_type(b.kind);
            *slot = match bind.what {
                Descriptor::Buffer(info) => write.buffer_info(info),
                Descriptor::Image(info) => write.image_info(info),
            };
            n += 1;
        }
        // SAFETY: recording; the writes match the pipeline's layout (read from its shaders)
        // and their handles live until the frame completes.
        unsafe {
            self.ctx.push_descriptor.cmd_push_descriptor_set(
                self.cmd,
                pipeline.bind_point,
                pipeline.layout.layout,
                0,
                &writes[..n],
            );
        }
        Ok(())
    }

    /// Pushes `bytes` as the push constants of `pipeline`, to every stage that declares the
    /// block (nothing when none does: one draw serves pipelines with and without).
    pub fn push_constants(&self, pipeline: &Pipeline, bytes: &[u8]) -> Result<(), GpuError> {
        let Some((stages, size)) = pipeline.layout.desc.push_constants else {
            return Ok(());
        };
        if bytes.len() > size as usize {
            return Err(GpuError::Graph(format!(
                "{} bytes of push constants for pipeline {}, whose shaders take {size}",
                bytes.len(),
                pipeline.desc.name
            )));
        }
        // SAFETY: recording; the range is the layout's.
        unsafe {
            self.ctx
                .device
                .cmd_push_constants(self.cmd, pipeline.layout.layout, stages, 0, bytes);
        }
        Ok(())
    }

    /// Binds compute pipeline `pipeline`, pushes `constants` and `binds`, and dispatches
    /// `threads` invocations (a compute pass's whole recording, most of the time).
    pub fn run_compute(
        &self,
        pipeline: PipelineId,
        constants: &[u8],
        binds: &[Bind<'_>],
        threads: u32,
    ) -> Result<(), GpuError> {
        let p = self.pipeline(pipeline)?;
        self.bind(p);
        self.push_constants(p, constants)?;
        self.dispatch(p, binds, [threads, 1])
    }

    /// Binds a compute `pipeline`, pushes `binds` and dispatches enough workgroups to cover
    /// `threads` (x, y) invocations at the shader's workgroup size (nothing when a count is
    /// zero).
    pub fn dispatch(
        &self,
        pipeline: &Pipeline,
        binds: &[Bind<'_>],
        threads: [u32; 2],
    ) -> Result<(), GpuError> {
        self.bind(pipeline);
        self.push(pipeline, binds)?;
        let [x, y, _] = pipeline.local_size;
        let groups = [threads[0].div_ceil(x.max(1)), threads[1].div_ceil(y.max(1))];
        if groups[0] > 0 && groups[1] > 0 {
            // SAFETY: recording outside rendering; the descriptors carry the layouts the
            // graph put the images in.
            unsafe {
                self.ctx
                    .device
                    .cmd_dispatch(self.cmd, groups[0], groups[1], 1)
            };
        }
        Ok(())
    }

    /// The frame uniforms as a descriptor.
    pub fn frame_info(&self) -> [vk::DescriptorBufferInfo; 1] {
        whole_buffer(self.shared.uniforms)
    }

    /// The near shadow cascade's copy of the frame's uniforms, as a descriptor (written in
    /// the frames whose graph has the near square's passes).
    pub fn near_frame_info(&self) -> [vk::DescriptorBufferInfo; 1] {
        [vk::DescriptorBufferInfo {
            buffer: self.shared.uniforms,
            offset: NEAR_FRAME_OFFSET,
            range: size_of::<FrameData>() as u64,
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

    /// Bytes `range` of this frame's culling inputs (one of the parts `cull_layout` places)
    /// as a descriptor.
    pub fn cull_input(
        &self,
        range: &std::ops::Range<usize>,
    ) -> Result<[vk::DescriptorBufferInfo; 1], GpuError> {
        let (buffer, base, _) = self.buffer(self.frame.cull_inputs)?;
        Ok([vk::DescriptorBufferInfo {
            buffer,
            offset: base + range.start as u64,
            range: (range.end - range.start) as u64,
        }])
    }

    /// The ring slot's instance records and palettes as descriptors.
    pub fn ring_infos(
        &self,
    ) -> Result<([vk::DescriptorBufferInfo; 1], [vk::DescriptorBufferInfo; 1]), GpuError> {
        let (buffer, slot, _) = self.buffer(self.frame.ring)?;
        let ring = self.shared.crowd.ring;
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
