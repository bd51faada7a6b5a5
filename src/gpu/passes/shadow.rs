//! The shadow pass: every character's skinned depth seen from the sun, into the shadow map.
//! Declared in every frame; kept only when something reads the shadow map (the forward
//! pass with shadows on, or the shadow debug view).

use ash::vk;

use super::{FAR_DEPTH, FrameDeclaration, PassRecording, skinned_reads};
use crate::gpu::cull_data::VIEW_SHADOW;
use crate::gpu::device::error::GpuError;
use crate::gpu::graph::Access;

/// The pass's name in labels, timings and statistics.
pub const NAME: &str = "shadow";

/// Declares the pass: the skinned inputs in, the shadow map out.
pub fn declare(f: &mut FrameDeclaration) {
    let ids = f.ids;
    let mut p = f.pass(NAME, record);
    skinned_reads(&mut p, &ids);
    p.write(ids.shadow_map, Access::DepthAttachmentWrite)
        .finish();
}

fn record(r: &PassRecording<'_>) -> Result<(), GpuError> {
    let side = r.shared.shadow_size;
    let extent = vk::Extent2D {
        width: side,
        height: side,
    };
    let depth = r.attachment(r.ids.shadow_map, Some(FAR_DEPTH))?;
    r.begin_rendering(extent, &[], Some(&depth));
    let result = r.draw_characters(&r.shared.pipelines.shadow, false, VIEW_SHADOW);
    r.end_rendering();
    result
}
