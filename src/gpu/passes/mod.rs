//! The passes' recording. Each pass is declared in the frame graph ([`super::frame_graph`]),
//! which puts its barriers, debug label and timestamps around the function here.

pub mod cull;
pub mod debug_view;
pub mod depth_normal;
pub mod forward;
pub mod readback;
pub mod shadow;
pub mod ssao;

use std::ops::Range;

use ash::vk;

use super::context::GpuContext;
use super::cull::CullBuffers;
use super::cull_data::DrawCommand;
use super::frame_data::{DrawConstants, ViewMode};
use super::frame_graph::PassFlags;
use super::model::GpuModel;
use super::pipeline::{
    BINDING_AO, BINDING_BAKED, BINDING_BASE_COLOR, BINDING_FRAME, BINDING_NORMAL, BINDING_PALETTES,
    BINDING_RECORDS, BINDING_SHADOW_MAP, BINDING_VISIBLE, Layouts, Pipeline,
};
use crate::crowd::visibility::LOD_LEVELS;

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
    /// Culling and level selection (compute).
    pub cull: Pipeline,
    /// The culled lists' indirect draws (compute).
    pub cull_draws: Pipeline,
    /// Occlusion culling of the small instances (compute).
    pub cull_late: Pipeline,
    /// The occlusion image (compute).
    pub occlusion_depth: Pipeline,
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
    /// The occlusion image (white when there is none).
    pub occlusion_depth: vk::ImageView,
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
    /// The baked frames (a placeholder when nothing is baked).
    pub baked: vk::Buffer,
    /// This frame's culling buffers.
    pub cull: &'a CullBuffers,
    /// Instance records this frame.
    pub instances: u32,
    /// Most subsets of one model: draws are numbered `[view][model][subset]`.
    pub subsets: usize,
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

    /// Draws what the culling pass kept for `view` (`cull_data::VIEW_*`): for each model and
    /// subset, one `vkCmdDrawIndexedIndirectCount` of up to a command per mesh level, its
    /// count written by the GPU, with `pipeline` (characters: skinned vertex input). `lit`
    /// also pushes the shadow map and ambient occlusion the forward pass shades with.
    pub fn draw_characters(&self, pipeline: &Pipeline, lit: bool, view: usize) {
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
        let whole = |buffer: vk::Buffer| {
            [vk::DescriptorBufferInfo {
                buffer,
                offset: 0,
                range: vk::WHOLE_SIZE,
            }]
        };
        let baked = whole(self.baked);
        let visible = whole(self.cull.lists.buffer);
        let frame = [self.frame_info()];
        let (shadow, ao) = self.lit_images();
        let models = self.models.len();
        let command_size = size_of::<DrawCommand>() as u64;
        // SAFETY: recording inside the pass's rendering; every handle lives until the
        // frame's timeline value is reached.
        unsafe {
            device.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::GRAPHICS, pipeline.pipeline);
            for (m, (model, range)) in self.models.iter().zip(self.ranges).enumerate() {
                if range.is_empty() {
                    continue;
                }
                self.ctx.cmd_set_front_face(cmd, model.front_face);
                device.cmd_bind_vertex_buffers(cmd, 0, &[model.vertices.buffer], &[0]);
                device.cmd_bind_index_buffer(cmd, model.indices.buffer, 0, vk::IndexType::UINT32);
                for (s, subset) in model.subsets.iter().enumerate() {
                    let texture = |view: Option<usize>, fallback: vk::ImageView| {
                        Self::image_info(
                            view.and_then(|i| model.textures.get(i))
                                .map_or(fallback, |t| t.view),
                            self.samplers.material,
                        )
                    };
                    let base = texture(subset.base_color, self.samplers.white);
                    let normal = texture(subset.normal, self.samplers.flat_normal);
                    let storage = vk::DescriptorType::STORAGE_BUFFER;
                    let sampled = vk::DescriptorType::COMBINED_IMAGE_SAMPLER;
                    let mut writes = [
                        vk::WriteDescriptorSet::default()
                            .dst_binding(BINDING_RECORDS)
                            .descriptor_type(storage)
                            .buffer_info(&records),
                        vk::WriteDescriptorSet::default()
                            .dst_binding(BINDING_PALETTES)
                            .descriptor_type(storage)
                            .buffer_info(&palettes),
                        vk::WriteDescriptorSet::default()
                            .dst_binding(BINDING_BAKED)
                            .descriptor_type(storage)
                            .buffer_info(&baked),
                        vk::WriteDescriptorSet::default()
                            .dst_binding(BINDING_VISIBLE)
                            .descriptor_type(storage)
                            .buffer_info(&visible),
                        vk::WriteDescriptorSet::default()
                            .dst_binding(BINDING_FRAME)
                            .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER)
                            .buffer_info(&frame),
                        vk::WriteDescriptorSet::default()
                            .dst_binding(BINDING_BASE_COLOR)
                            .descriptor_type(sampled)
                            .image_info(&base),
                        vk::WriteDescriptorSet::default()
                            .dst_binding(BINDING_NORMAL)
                            .descriptor_type(sampled)
                            .image_info(&normal),
                        vk::WriteDescriptorSet::default(),
                        vk::WriteDescriptorSet::default(),
                    ];
                    let count = if lit {
                        writes[7] = vk::WriteDescriptorSet::default()
                            .dst_binding(BINDING_SHADOW_MAP)
                            .descriptor_type(sampled)
                            .image_info(&shadow);
                        writes[8] = vk::WriteDescriptorSet::default()
                            .dst_binding(BINDING_AO)
                            .descriptor_type(sampled)
                            .image_info(&ao);
                        9
                    } else {
                        7
                    };
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
                    let draw = ((view * models + m) * self.subsets + s) as u64;
                    device.cmd_draw_indexed_indirect_count(
                        cmd,
                        self.cull.commands.buffer,
                        draw * LOD_LEVELS as u64 * command_size,
                        self.cull.draw_counts.buffer,
                        draw * 4,
                        LOD_LEVELS as u32,
                        command_size as u32,
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
