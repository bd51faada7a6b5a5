//! The depth/normal prepass: characters and ground into the depth buffer and a view-space
//! normal image, which the ambient occlusion reads and the forward pass tests against. With
//! occlusion culling it runs twice: first the ground and the instances large enough to hide
//! others, then (`record_late`, loading what the first left) the small ones the occlusion
//! test let through.

use ash::vk;

use super::PassContext;
use crate::gpu::cull_data::{VIEW_CAMERA, VIEW_CAMERA_LATE};

/// Records the pass; the graph has put depth and normals in their attachment layouts.
pub fn record(pc: &PassContext<'_>) {
    render(pc, false);
}

/// Records the late prepass: the instances the occlusion test let through, into what the
/// first prepass left.
pub fn record_late(pc: &PassContext<'_>) {
    render(pc, true);
}

fn render(pc: &PassContext<'_>, late: bool) {
    let load = if late {
        vk::AttachmentLoadOp::LOAD
    } else {
        vk::AttachmentLoadOp::CLEAR
    };
    let color = [vk::RenderingAttachmentInfo::default()
        .image_view(pc.normals)
        .image_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
        .load_op(load)
        .store_op(vk::AttachmentStoreOp::STORE)
        // Alpha 0 marks "nothing drawn here" (the debug view shows it black).
        .clear_value(vk::ClearValue {
            color: vk::ClearColorValue {
                float32: [0.0, 0.0, 0.0, 0.0],
            },
        })];
    let depth = PassContext::cleared_depth(pc.depth).load_op(load);
    let rendering = vk::RenderingInfo::default()
        .render_area(pc.area())
        .layer_count(1)
        .color_attachments(&color)
        .depth_attachment(&depth);
    // SAFETY: recording inside the graph's step for this pass.
    unsafe { pc.ctx.cmd_begin_rendering(pc.cmd, &rendering) };
    pc.set_viewport(pc.extent);
    if late {
        pc.draw_characters(&pc.pipelines.depth_normal, false, VIEW_CAMERA_LATE);
    } else {
        pc.bind_with_frame(&pc.pipelines.ground_normal, &[]);
        // SAFETY: inside the rendering; the ground needs no vertex buffer.
        unsafe {
            pc.ctx
                .cmd_set_front_face(pc.cmd, vk::FrontFace::COUNTER_CLOCKWISE);
            pc.ctx.device.cmd_draw(pc.cmd, 6, 1, 0, 0);
        }
        pc.draw_characters(&pc.pipelines.depth_normal, false, VIEW_CAMERA);
    }
    // SAFETY: inside the rendering begun above.
    unsafe { pc.ctx.cmd_end_rendering(pc.cmd) };
}
