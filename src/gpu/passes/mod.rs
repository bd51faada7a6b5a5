//! The passes' recording. Each pass is declared in the frame graph ([`super::frame_graph`]),
//! which puts its barriers, debug label and timestamps around the function here.

pub mod debug_view;
pub mod depth_normal;
pub mod forward;
pub mod readback;
pub mod shadow;
pub mod ssao;

use std::ops::Range;

use ash::vk;

use super::context::GpuContext;
use super::frame_data::{DrawConstants, ViewMode};
use super::frame_graph::PassFlags;
use super::model::GpuModel;
use super::pipeline::{
    BINDING_AO, BINDING_BASE_COLOR, BINDING_FRAME, BINDING_NORMAL, BINDING_PALETTES,
    BINDING_RECORDS, BINDING_SHADOW_MAP, Layouts, Pipeline,
};

/// Every pipeline the passes draw with.
pub struct Pipelines {
    /// Shared layouts.
    pub layouts: Layouts,
    /// Characters, forward, testing and writing depth (no prepass).
    pub forward_less: Pipeline,
    /// Characters, forward, equal depth test after the prepass.
    pub forward_equal: Pipeline,
    /// The ground, forward, testing and writing depth.
    pub ground_less: Pipeline,
    /// The ground, forward, equal depth test.
    pub ground_equal: Pipeline,
    /// Characters, depth and normals.
    pub depth_normal: Pipeline,
    /// The ground, depth and normals.
    pub ground_normal: Pipeline,
    /// Characters from the light.
    pub shadow: Pipeline,
    /// Ambient occlusion (compute).
    pub ssao: Pipeline,
    /// Its blur (compute).
    pub ssao_blur: Pipeline,
    /// Fullscreen debug views.
    pub debug_view: Pipeline,
}

/// The samplers and small textures the passes share.
#[derive(Clone, Copy, Debug)]
pub struct Samplers {
    /// Material textures: trilinear, repeating.
    pub material: vk::Sampler,
    /// The shadow map: depth comparison, bilinear, outside the map counts as lit.
    pub shadow: vk::Sampler,
    /// Screen-sized images: nearest texel, clamped.
    pub screen: vk::Sampler,
    /// The half-size ambient occlusion: bilinear, clamped.
    pub ao: vk::Sampler,
    /// 1x1 white (no base colour map; AO when it is off).
    pub white: vk::ImageView,
    /// 1x1 flat normal (no normal map).
    pub flat_normal: vk::ImageView,
    /// 4x4 rotation noise for the ambient occlusion.
    pub noise: vk::ImageView,
}

/// What a pass records with, for one frame.
pub struct PassContext<'a> {
    /// The device and its helpers.
    pub ctx: &'a GpuContext,
    /// The command buffer being recorded.
    pub cmd: vk::CommandBuffer,
    /// The render size.
    pub extent: vk::Extent2D,
    /// What the frame shows.
    pub view: ViewMode,
    /// What the forward pass reads.
    pub flags: PassFlags,
    /// The colour target's view and image.
    pub color: (vk::ImageView, vk::Image),
    /// The prepass's depth (read by SSAO and the depth view).
    pub depth: vk::ImageView,
    /// The depth the forward pass renders with (the prepass's, or its own).
    pub forward_depth: vk::ImageView,
    /// The prepass's normals.
    pub normals: vk::ImageView,
    /// Shadow map view and side.
    pub shadow_map: (vk::ImageView, u32),
    /// Raw and blurred ambient occlusion.
    pub ao: (vk::ImageView, vk::ImageView),
    /// What a debug view shows.
    pub debug_source: vk::ImageView,
    /// The palette ring's buffer, and where this frame's records and palettes are in it.
    pub ring: RingBinding,
    /// The frame's uniform buffer.
    pub uniforms: vk::Buffer,
    /// The models, and each one's range of instance records this frame.
    pub models: &'a [GpuModel],
    /// Indexed like `models`.
    pub ranges: &'a [Range<usize>],
    /// Samplers and default textures.
    pub samplers: Samplers,
    /// Every pipeline.
    pub pipelines: &'a Pipelines,
    /// Where the readback pass copies the colour target.
    pub readback: vk::Buffer,
}

/// A slot of the palette ring, as buffer ranges.
#[derive(Clone, Copy, Debug)]
pub struct RingBinding {
    /// The region's storage buffer.
    pub buffer: vk::Buffer,
    /// Byte offset and size of the instance records.
    pub records: (vk::DeviceSize, vk::DeviceSize),
    /// Byte offset and size of the palettes.
    pub palettes: (vk::DeviceSize, vk::DeviceSize),
}

impl PassContext<'_> {
    /// The whole render area.
    pub fn area(&self) -> vk::Rect2D {
        vk::Rect2D {
            offset: vk::Offset2D { x: 0, y: 0 },
            extent: self.extent,
        }
    }

    /// Sets viewport and scissor to `extent`.
    pub fn set_viewport(&self, extent: vk::Extent2D) {
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
        // SAFETY: recording inside a pass.
        unsafe {
            self.ctx.device.cmd_set_viewport(self.cmd, 0, &[viewport]);
            self.ctx.device.cmd_set_scissor(self.cmd, 0, &[scissor]);
        }
    }

    /// Binds `pipeline` and pushes the frame uniforms plus up to two `extra` descriptors
    /// (the ground, fullscreen passes).
    pub fn bind_with_frame(&self, pipeline: &Pipeline, extra: &[vk::WriteDescriptorSet<'_>]) {
        let frame = [self.frame_info()];
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
                self.pipelines.layouts.pipeline,
                0,
                writes,
            );
        }
    }

    /// The shadow map (or its placeholder) and the ambient occlusion (or white) as the lit
    /// shaders read them.
    pub fn lit_images(&self) -> ([vk::DescriptorImageInfo; 1], [vk::DescriptorImageInfo; 1]) {
        let ao = if self.flags.ao {
            self.ao.1
        } else {
            self.samplers.white
        };
        (
            Self::image_info(self.shadow_map.0, self.samplers.shadow),
            Self::image_info(ao, self.samplers.ao),
        )
    }

    /// A depth attachment cleared to the far plane and stored for later passes.
    pub fn cleared_depth(view: vk::ImageView) -> vk::RenderingAttachmentInfo<'static> {
        vk::RenderingAttachmentInfo::default()
            .image_view(view)
            .image_layout(vk::ImageLayout::DEPTH_ATTACHMENT_OPTIMAL)
            .load_op(vk::AttachmentLoadOp::CLEAR)
            .store_op(vk::AttachmentStoreOp::STORE)
            .clear_value(vk::ClearValue {
                depth_stencil: vk::ClearDepthStencilValue {
                    depth: 1.0,
                    stencil: 0,
                },
            })
    }

    /// The frame uniforms as a descriptor.
    pub fn frame_info(&self) -> vk::DescriptorBufferInfo {
        vk::DescriptorBufferInfo {
            buffer: self.uniforms,
            offset: 0,
            range: vk::WHOLE_SIZE,
        }
    }

    /// An image read through `sampler` in SHADER_READ_ONLY_OPTIMAL.
    pub fn image_info(view: vk::ImageView, sampler: vk::Sampler) -> [vk::DescriptorImageInfo; 1] {
        [vk::DescriptorImageInfo {
            sampler,
            image_view: view,
            image_layout: vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
        }]
    }

    /// Draws every model's subsets, each as one instanced draw over the model's range of
    /// records, with `pipeline` (characters: skinned vertex input). `lit` also pushes the
    /// shadow map and ambient occlusion the forward pass shades with.
    pub fn draw_characters(&self, pipeline: &Pipeline, lit: bool) {
        if self.ranges.iter().all(|r| r.is_empty()) {
            return;
        }
        let device = &self.ctx.device;
        let cmd = self.cmd;
        let layout = self.pipelines.layouts.pipeline;
        let records = [vk::DescriptorBufferInfo {
            buffer: self.ring.buffer,
            offset: self.ring.records.0,
            range: self.ring.records.1,
        }];
        let palettes = [vk::DescriptorBufferInfo {
            buffer: self.ring.buffer,
            offset: self.ring.palettes.0,
            range: self.ring.palettes.1,
        }];
        let frame = [self.frame_info()];
        let (shadow, ao) = self.lit_images();
        // SAFETY: recording inside the pass's rendering; every handle lives until the
        // frame's timeline value is reached.
        unsafe {
            device.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::GRAPHICS, pipeline.pipeline);
            for (model, range) in self.models.iter().zip(self.ranges) {
                if range.is_empty() {
                    continue;
                }
                self.ctx.cmd_set_front_face(cmd, model.front_face);
                device.cmd_bind_vertex_buffers(cmd, 0, &[model.vertices.buffer], &[0]);
                device.cmd_bind_index_buffer(cmd, model.indices.buffer, 0, vk::IndexType::UINT32);
                for subset in &model.subsets {
                    let texture = |view: Option<usize>, fallback: vk::ImageView| {
                        Self::image_info(
                            view.and_then(|i| model.textures.get(i))
                                .map_or(fallback, |t| t.view),
                            self.samplers.material,
                        )
                    };
                    let base = texture(subset.base_color, self.samplers.white);
                    let normal = texture(subset.normal, self.samplers.flat_normal);
                    let mut writes = [vk::WriteDescriptorSet::default(); 7];
                    writes[0] = vk::WriteDescriptorSet::default()
                        .dst_binding(BINDING_RECORDS)
                        .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                        .buffer_info(&records);
                    writes[1] = vk::WriteDescriptorSet::default()
                        .dst_binding(BINDING_PALETTES)
                        .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                        .buffer_info(&palettes);
                    writes[2] = vk::WriteDescriptorSet::default()
                        .dst_binding(BINDING_FRAME)
                        .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER)
                        .buffer_info(&frame);
                    writes[3] = vk::WriteDescriptorSet::default()
                        .dst_binding(BINDING_BASE_COLOR)
                        .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                        .image_info(&base);
                    writes[4] = vk::WriteDescriptorSet::default()
                        .dst_binding(BINDING_NORMAL)
                        .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                        .image_info(&normal);
                    writes[5] = vk::WriteDescriptorSet::default()
                        .dst_binding(BINDING_SHADOW_MAP)
                        .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                        .image_info(&shadow);
                    writes[6] = vk::WriteDescriptorSet::default()
                        .dst_binding(BINDING_AO)
                        .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                        .image_info(&ao);
                    let count = if lit { 7 } else { 5 };
                    self.ctx.push_descriptor.cmd_push_descriptor_set(
                        cmd,
                        vk::PipelineBindPoint::GRAPHICS,
                        layout,
                        0,
                        &writes[..count],
                    );
                    let constants: DrawConstants = subset.constants;
                    device.cmd_push_constants(
                        cmd,
                        layout,
                        vk::ShaderStageFlags::VERTEX | vk::ShaderStageFlags::FRAGMENT,
                        0,
                        bytemuck::bytes_of(&constants),
                    );
                    device.cmd_draw_indexed(
                        cmd,
                        subset.index_count,
                        range.len() as u32,
                        subset.first_index,
                        0,
                        range.start as u32,
                    );
                }
            }
        }
    }

    /// The ground's pushes for a lit pass: shadow map and ambient occlusion.
    pub fn ground_extras<'b>(
        &self,
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
}
