//! The skinned forward pass: clears colour, draws the ground (final view only) and every
//! model's subsets, each as one instanced draw over the model's range of records; lit by the
//! sun through the shadow map, ambient scaled by the occlusion. After the prepass it tests
//! depth with EQUAL and writes none, so each pixel is shaded once.

use ash::vk;

use super::PassContext;
use crate::gpu::cull_data::{VIEW_CAMERA, VIEW_CAMERA_LATE};
use crate::gpu::frame_data::ViewMode;

/// Background of the final view: a pale sky, in linear light.
pub const SKY_CLEAR: [f32; 4] = [0.36, 0.48, 0.62, 1.0];

/// Records the pass.
pub fn record(pc: &PassContext<'_>) {
    let clear = match pc.view {
        ViewMode::Silhouette => [0.0, 0.0, 0.0, 1.0],
        _ => SKY_CLEAR,
    };
    let prepass = pc.flags.prepass;
    let color = [vk::RenderingAttachmentInfo::default()
        .image_view(pc.color.0)
        .image_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
        .load_op(vk::AttachmentLoadOp::CLEAR)
        .store_op(vk::AttachmentStoreOp::STORE)
        .clear_value(vk::ClearValue {
            color: vk::ClearColorValue { float32: clear },
        })];
    let depth = if prepass {
        vk::RenderingAttachmentInfo::default()
            .image_view(pc.forward_depth)
            .image_layout(vk::ImageLayout::DEPTH_READ_ONLY_OPTIMAL)
            .load_op(vk::AttachmentLoadOp::LOAD)
            // Read only: NONE (core in 1.3) writes nothing back; a 1.2 device without
            // VK_KHR_load_store_op_none can only say it does not care.
            .store_op(if pc.ctx.physical.core13 {
                vk::AttachmentStoreOp::NONE
            } else {
                vk::AttachmentStoreOp::DONT_CARE
            })
    } else {
        // Nothing reads it afterwards: the store is for simplicity, not needed.
        PassContext::cleared_depth(pc.forward_depth)
    };
    let rendering = vk::RenderingInfo::default()
        .render_area(pc.area())
        .layer_count(1)
        .color_attachments(&color)
        .depth_attachment(&depth);
    let p = pc.pipelines;
    // SAFETY: recording inside the graph's step for this pass.
    unsafe { pc.ctx.cmd_begin_rendering(pc.cmd, &rendering) };
    pc.set_viewport(pc.extent);
    if pc.view == ViewMode::Final {
        let (shadow, ao) = pc.lit_images();
        let ground = if prepass {
            &p.ground_equal
        } else {
            &p.ground_less
        };
        pc.bind_with_frame(ground, &pc.ground_extras(&shadow, &ao));
        // SAFETY: inside the rendering; the ground needs no vertex buffer.
        unsafe {
            pc.ctx
                .cmd_set_front_face(pc.cmd, vk::FrontFace::COUNTER_CLOCKWISE);
            pc.ctx.device.cmd_draw(pc.cmd, 6, 1, 0, 0);
        }
    }
    let characters = if prepass {
        &p.forward_equal
    } else {
        &p.forward_less
    };
    pc.draw_characters(characters, true, VIEW_CAMERA);
    if pc.flags.occlusion {
        pc.draw_characters(characters, true, VIEW_CAMERA_LATE);
    }
    // SAFETY: inside the rendering begun above.
    unsafe { pc.ctx.cmd_end_rendering(pc.cmd) };
}
