//! The depth/normal prepass: characters and ground into the depth buffer and a view-space
//! normal image, which the ambient occlusion reads and the forward pass tests against.

use ash::vk;

use super::PassContext;
use crate::gpu::cull_data::VIEW_CAMERA;

/// Records the pass; the graph has put depth and normals in their attachment layouts.
pub fn record(pc: &PassContext<'_>) {
    let color = [vk::RenderingAttachmentInfo::default()
        .image_view(pc.normals)
        .image_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
        .load_op(vk::AttachmentLoadOp::CLEAR)
        .store_op(vk::AttachmentStoreOp::STORE)
        // Alpha 0 marks "nothing drawn here" (the debug view shows it black).
        .clear_value(vk::ClearValue {
            color: vk::ClearColorValue {
                float32: [0.0, 0.0, 0.0, 0.0],
            },
        })];
    let depth = PassContext::cleared_depth(pc.depth);
    let rendering = vk::RenderingInfo::default()
        .render_area(pc.area())
        .layer_count(1)
        .color_attachments(&color)
        .depth_attachment(&depth);
    // SAFETY: recording inside the graph's step for this pass.
    unsafe { pc.ctx.cmd_begin_rendering(pc.cmd, &rendering) };
    pc.set_viewport(pc.extent);
    pc.bind_with_frame(&pc.pipelines.ground_normal, &[]);
    // SAFETY: inside the rendering; the ground needs no vertex buffer.
    unsafe {
        pc.ctx
            .cmd_set_front_face(pc.cmd, vk::FrontFace::COUNTER_CLOCKWISE);
        pc.ctx.device.cmd_draw(pc.cmd, 6, 1, 0, 0);
    }
    pc.draw_characters(&pc.pipelines.depth_normal, false, VIEW_CAMERA);
    // SAFETY: inside the rendering begun above.
    unsafe { pc.ctx.cmd_end_rendering(pc.cmd) };
}
