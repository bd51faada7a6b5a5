//! The debug views: one fullscreen triangle that shows an intermediate image (ambient
//! occlusion, normals, depth or the shadow map) in the colour target instead of the frame.

use ash::vk;

use super::PassContext;
use crate::gpu::pipeline::BINDING_DEBUG_SOURCE;

/// Records the pass; the graph has made the source readable by fragment shaders.
pub fn record(pc: &PassContext<'_>) {
    let color = [vk::RenderingAttachmentInfo::default()
        .image_view(pc.color.0)
        .image_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
        .load_op(vk::AttachmentLoadOp::DONT_CARE)
        .store_op(vk::AttachmentStoreOp::STORE)];
    let rendering = vk::RenderingInfo::default()
        .render_area(pc.area())
        .layer_count(1)
        .color_attachments(&color);
    let source = PassContext::image_info(pc.debug_source, pc.samplers.screen);
    let extra = [vk::WriteDescriptorSet::default()
        .dst_binding(BINDING_DEBUG_SOURCE)
        .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
        .image_info(&source)];
    // SAFETY: recording inside the graph's step for this pass.
    unsafe { pc.ctx.cmd_begin_rendering(pc.cmd, &rendering) };
    pc.set_viewport(pc.extent);
    pc.bind_with_frame(&pc.pipelines.debug_view, &extra);
    // SAFETY: inside the rendering; three generated vertices.
    unsafe {
        pc.ctx
            .cmd_set_front_face(pc.cmd, vk::FrontFace::COUNTER_CLOCKWISE);
        pc.ctx.device.cmd_draw(pc.cmd, 3, 1, 0, 0);
        pc.ctx.cmd_end_rendering(pc.cmd);
    }
}
