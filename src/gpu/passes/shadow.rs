//! The shadow pass: every character's skinned depth seen from the sun, into the shadow map.

use ash::vk;

use super::PassContext;
use crate::gpu::cull_data::VIEW_SHADOW;

/// Records the pass; the graph has put the shadow map in DEPTH_ATTACHMENT_OPTIMAL.
pub fn record(pc: &PassContext<'_>) {
    let (view, side) = pc.shadow_map;
    let extent = vk::Extent2D {
        width: side,
        height: side,
    };
    let depth = PassContext::cleared_depth(view);
    let rendering = vk::RenderingInfo::default()
        .render_area(vk::Rect2D {
            offset: vk::Offset2D { x: 0, y: 0 },
            extent,
        })
        .layer_count(1)
        .depth_attachment(&depth);
    // SAFETY: recording inside the graph's step for this pass.
    unsafe { pc.ctx.cmd_begin_rendering(pc.cmd, &rendering) };
    pc.set_viewport(extent);
    pc.draw_characters(&pc.pipelines.shadow, false, VIEW_SHADOW);
    // SAFETY: inside the rendering begun above.
    unsafe { pc.ctx.cmd_end_rendering(pc.cmd) };
}
