//! The debug views: one fullscreen triangle that shows an intermediate image (ambient
//! occlusion, normals, depth or the shadow map) in the colour target instead of the frame
//! (`--view ao|normals|depth|shadow`).

use ash::vk;

use super::FrameDeclaration;
use super::depth_normal::DepthNormals;
use crate::gpu::device::pipeline::{
    Culling, GraphicsDesc, PipelineDesc, PipelineKind, VertexInput,
};
use crate::gpu::graph::{Access, ResourceId, Stages};
use crate::gpu::recording::pass::Bind;
use crate::gpu::settings::ViewMode;

/// The pass's name in labels, timings and statistics.
pub const NAME: &str = "debug_view";

/// Declares the pass for the debug views: it shows the prepass's depth or normals, the
/// shadow map or the ambient occlusion.
pub fn declare(
    f: &mut FrameDeclaration,
    prepass: &DepthNormals,
    shadow_map: ResourceId,
    ao: ResourceId,
) {
    let source = match f.shape.view {
        ViewMode::Final | ViewMode::Silhouette => return,
        ViewMode::Ao => ao,
        ViewMode::Normals => prepass.normals,
        ViewMode::Depth => prepass.depth,
        ViewMode::Shadow => shadow_map,
    };
    // Drawn straight into the target: one sample.
    let pipeline = f.pipeline(PipelineDesc {
        name: "debug view",
        kind: PipelineKind::Graphics(GraphicsDesc {
            vertex: "fullscreen.vert",
            fragment: Some("debug_view.frag"),
            input: VertexInput::Generated,
            color: Some(f.color_format),
            more_colors: &[],
            depth: None,
            culling: Culling::None,
            samples: vk::SampleCountFlags::TYPE_1,
        }),
    });
    let color = f.frame.color;
    f.pass(NAME, move |r| {
        let target = [r.attachment(color, None)?];
        let source = r.image_info(source, r.shared.samplers.screen)?;
        let frame = r.frame_info();
        let pipeline = r.pipeline(pipeline)?;
        r.begin_rendering(r.extent(), &target, None);
        r.bind(pipeline);
        let pushed = r.push(
            pipeline,
            &[
                Bind::buffer("Frame", &frame),
                Bind::image("source", &source),
            ],
        );
        // SAFETY: inside the rendering; three generated vertices.
        unsafe {
            r.ctx
                .cmd_set_front_face(r.cmd, vk::FrontFace::COUNTER_CLOCKWISE);
            r.ctx.device.cmd_draw(r.cmd, 3, 1, 0, 0);
        }
        r.end_rendering();
        pushed
    })
    .read(source, Access::Sampled(Stages::Fragment))
    .write(color, Access::ColorAttachmentWrite)
    .finish();
}
