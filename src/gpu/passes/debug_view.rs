//! The debug views: one fullscreen triangle that shows an intermediate image (ambient
//! occlusion, normals, depth or the shadow map) in the colour target instead of the frame
//! (`--view ao|normals|depth|shadow`).

use ash::vk;

use super::{FrameDeclaration, PassRecording};
use crate::gpu::device::error::GpuError;
use crate::gpu::graph::{Access, ResourceId, Stages};
use crate::gpu::pipeline_builder::BINDING_DEBUG_SOURCE;
use crate::gpu::uniforms::ViewMode;

/// The pass's name in labels, timings and statistics.
pub const NAME: &str = "debug_view";

/// The image `view` shows, `None` for the views the forward pass draws.
fn source(f: &super::FrameIds, view: ViewMode) -> Option<ResourceId> {
    match view {
        ViewMode::Final | ViewMode::Silhouette => None,
        ViewMode::Ao => Some(f.ao),
        ViewMode::Normals => Some(f.normals),
        ViewMode::Depth => Some(f.depth),
        ViewMode::Shadow => Some(f.shadow_map),
    }
}

/// Declares the pass for the debug views.
pub fn declare(f: &mut FrameDeclaration) {
    let ids = f.ids;
    let Some(source) = source(&ids, f.shape.view) else {
        return;
    };
    f.pass(NAME, record)
        .read(source, Access::Sampled(Stages::Fragment))
        .write(ids.color, Access::ColorAttachmentWrite)
        .finish();
}

fn record(r: &PassRecording<'_>) -> Result<(), GpuError> {
    let source = source(&r.ids, r.shared.shape.view)
        .ok_or_else(|| GpuError::Graph("the debug view has no image to show".into()))?;
    let color = [r.attachment(r.ids.color, None)?];
    let source = r.image_info(source, r.shared.samplers.screen)?;
    let extra = [vk::WriteDescriptorSet::default()
        .dst_binding(BINDING_DEBUG_SOURCE)
        .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
        .image_info(&source)];
    r.begin_rendering(r.extent(), &color, None);
    r.bind_with_frame(&r.shared.pipelines.debug_view, &extra);
    // SAFETY: inside the rendering; three generated vertices.
    unsafe {
        r.ctx
            .cmd_set_front_face(r.cmd, vk::FrontFace::COUNTER_CLOCKWISE);
        r.ctx.device.cmd_draw(r.cmd, 3, 1, 0, 0);
    }
    r.end_rendering();
    Ok(())
}
