//! The skinned forward pass: clears colour and depth, draws the ground (final view only),
//! then every model's subsets, each as one instanced draw over the model's range of records.

use ash::vk;

use super::PassContext;
use crate::gpu::frame_data::{DrawConstants, ViewMode};
use crate::gpu::pipeline::{
    BINDING_BASE_COLOR, BINDING_FRAME, BINDING_NORMAL, BINDING_PALETTES, BINDING_RECORDS, Layouts,
    Pipeline,
};

/// Background of the final view: a pale sky, in linear light.
pub const SKY_CLEAR: [f32; 4] = [0.36, 0.48, 0.62, 1.0];

/// The pipelines the pass draws with.
pub struct ForwardPipelines<'a> {
    /// Shared layouts.
    pub layouts: &'a Layouts,
    /// Skinned characters.
    pub skinned: &'a Pipeline,
    /// The ground quad.
    pub ground: &'a Pipeline,
}

/// Records the pass.
pub fn record(pc: &PassContext<'_>, pipelines: &ForwardPipelines<'_>) {
    let device = &pc.ctx.device;
    let cmd = pc.cmd;
    let clear = match pc.view {
        ViewMode::Final => SKY_CLEAR,
        ViewMode::Silhouette => [0.0, 0.0, 0.0, 1.0],
    };
    let color = [vk::RenderingAttachmentInfo::default()
        .image_view(pc.color_view)
        .image_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
        .load_op(vk::AttachmentLoadOp::CLEAR)
        .store_op(vk::AttachmentStoreOp::STORE)
        .clear_value(vk::ClearValue {
            color: vk::ClearColorValue { float32: clear },
        })];
    let depth = vk::RenderingAttachmentInfo::default()
        .image_view(pc.depth_view)
        .image_layout(vk::ImageLayout::DEPTH_ATTACHMENT_OPTIMAL)
        .load_op(vk::AttachmentLoadOp::CLEAR)
        .store_op(vk::AttachmentStoreOp::DONT_CARE)
        .clear_value(vk::ClearValue {
            depth_stencil: vk::ClearDepthStencilValue {
                depth: 1.0,
                stencil: 0,
            },
        });
    let area = vk::Rect2D {
        offset: vk::Offset2D { x: 0, y: 0 },
        extent: pc.extent,
    };
    let rendering = vk::RenderingInfo::default()
        .render_area(area)
        .layer_count(1)
        .color_attachments(&color)
        .depth_attachment(&depth);
    let viewport = vk::Viewport {
        x: 0.0,
        y: 0.0,
        width: pc.extent.width as f32,
        height: pc.extent.height as f32,
        min_depth: 0.0,
        max_depth: 1.0,
    };
    let frame_info = [vk::DescriptorBufferInfo {
        buffer: pc.uniforms,
        offset: 0,
        range: vk::WHOLE_SIZE,
    }];
    let layout = pipelines.layouts.pipeline;
    // SAFETY: recording inside the graph's step for this pass: the targets are in the
    // layouts named above (the graph's barriers), every buffer and view is live until the
    // frame's timeline value is reached.
    unsafe {
        pc.ctx.cmd_begin_rendering(cmd, &rendering);
        device.cmd_set_viewport(cmd, 0, &[viewport]);
        device.cmd_set_scissor(cmd, 0, &[area]);

        if pc.view == ViewMode::Final {
            device.cmd_bind_pipeline(
                cmd,
                vk::PipelineBindPoint::GRAPHICS,
                pipelines.ground.pipeline,
            );
            pc.ctx
                .cmd_set_front_face(cmd, vk::FrontFace::COUNTER_CLOCKWISE);
            let writes = [vk::WriteDescriptorSet::default()
                .dst_binding(BINDING_FRAME)
                .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER)
                .buffer_info(&frame_info)];
            pc.ctx.push_descriptor.cmd_push_descriptor_set(
                cmd,
                vk::PipelineBindPoint::GRAPHICS,
                layout,
                0,
                &writes,
            );
            device.cmd_draw(cmd, 6, 1, 0, 0);
        }

        let any = pc.ranges.iter().any(|r| !r.is_empty());
        if any {
            device.cmd_bind_pipeline(
                cmd,
                vk::PipelineBindPoint::GRAPHICS,
                pipelines.skinned.pipeline,
            );
            let records = [vk::DescriptorBufferInfo {
                buffer: pc.ring.buffer,
                offset: pc.ring.records.0,
                range: pc.ring.records.1,
            }];
            let palettes = [vk::DescriptorBufferInfo {
                buffer: pc.ring.buffer,
                offset: pc.ring.palettes.0,
                range: pc.ring.palettes.1,
            }];
            for (model, range) in pc.models.iter().zip(pc.ranges) {
                if range.is_empty() {
                    continue;
                }
                pc.ctx.cmd_set_front_face(cmd, model.front_face);
                device.cmd_bind_vertex_buffers(cmd, 0, &[model.vertices.buffer], &[0]);
                device.cmd_bind_index_buffer(cmd, model.indices.buffer, 0, vk::IndexType::UINT32);
                for subset in &model.subsets {
                    let image = |view: Option<usize>, fallback: vk::ImageView| {
                        [vk::DescriptorImageInfo {
                            sampler: pc.materials.sampler,
                            image_view: view
                                .and_then(|i| model.textures.get(i))
                                .map_or(fallback, |t| t.view),
                            image_layout: vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
                        }]
                    };
                    let base = image(subset.base_color, pc.materials.white);
                    let normal = image(subset.normal, pc.materials.flat_normal);
                    let writes = [
                        vk::WriteDescriptorSet::default()
                            .dst_binding(BINDING_RECORDS)
                            .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                            .buffer_info(&records),
                        vk::WriteDescriptorSet::default()
                            .dst_binding(BINDING_PALETTES)
                            .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                            .buffer_info(&palettes),
                        vk::WriteDescriptorSet::default()
                            .dst_binding(BINDING_FRAME)
                            .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER)
                            .buffer_info(&frame_info),
                        vk::WriteDescriptorSet::default()
                            .dst_binding(BINDING_BASE_COLOR)
                            .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                            .image_info(&base),
                        vk::WriteDescriptorSet::default()
                            .dst_binding(BINDING_NORMAL)
                            .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                            .image_info(&normal),
                    ];
                    pc.ctx.push_descriptor.cmd_push_descriptor_set(
                        cmd,
                        vk::PipelineBindPoint::GRAPHICS,
                        layout,
                        0,
                        &writes,
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
        pc.ctx.cmd_end_rendering(cmd);
    }
}
