//! The debug views: one fullscreen triangle that shows an intermediate image (ambient
//! occlusion, normals, depth or the shadow map) in the colour target instead of the frame
//! (`--view ao|normals|depth|shadow`).

use crate::gpu::features::lit::depth_normal::DepthNormals;
use crate::gpu::frame::declaration::FrameDeclaration;
use crate::gpu::frame::over_target;
use crate::gpu::frame::recording::pass::Bind;
use crate::gpu::frame::settings::ViewMode;
use crate::gpu::graph::{Access, ResourceId, Stages};

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
    let pipeline = over_target::fullscreen(f, "debug view", "debug_view.frag");
    let color = f.frame.scene;
    f.pass(NAME, move |r| {
        let source = r.image_info(source, r.shared.samplers.screen)?;
        let frame = r.frame_info();
        let binds = [
            Bind::buffer("Frame", &frame),
            Bind::image("source", &source),
        ];
        over_target::draw(r, color, pipeline, &binds, &[], (3, 1))
    })
    .read(source, Access::Sampled(Stages::Fragment))
    .write(color, Access::ColorAttachmentWrite)
    .finish();
}
