//! The composite pass of a frame without a prepass: the camera's passes wrote the sun's
//! light and the sky's light apart, the ambient occlusion was made from their depth and
//! normals afterwards, and this adds them into the target, one fullscreen triangle
//! (`shaders/ambient_composite.frag`): sun + sky x occlusion, what the lit shaders add
//! themselves after a prepass.

use crate::gpu::frame::declaration::FrameDeclaration;
use crate::gpu::frame::over_target;
use crate::gpu::frame::recording::pass::Bind;
use crate::gpu::graph::{Access, ResourceId, Stages};

/// The pass's name in labels, timings and statistics.
pub const NAME: &str = "ambient_composite";

/// Declares the pass adding the sun's and the sky's light the forward pass wrote apart
/// ([`crate::gpu::features::lit::forward::Forward::light_parts`]), the sky's darkened by `ao`, the blurred
/// ambient occlusion.
pub fn declare(f: &mut FrameDeclaration, (sun, sky): (ResourceId, ResourceId), ao: ResourceId) {
    let pipeline = over_target::fullscreen(f, "ambient composite", "ambient_composite.frag");
    let color = f.frame.scene;
    let sampled = Access::Sampled(Stages::Fragment);
    f.pass(NAME, move |r| {
        let samplers = &r.shared.samplers;
        let sun = r.image_info(sun, samplers.screen)?;
        let sky = r.image_info(sky, samplers.screen)?;
        let occlusion = r.image_info(ao, samplers.ao)?;
        let frame = r.frame_info();
        let binds = [
            Bind::buffer("Frame", &frame),
            Bind::image("direct_light", &sun),
            Bind::image("ambient_light", &sky),
            Bind::image("ambient_occlusion", &occlusion),
        ];
        over_target::draw(r, color, pipeline, &binds, &[], (3, 1))
    })
    .read(sun, sampled)
    .read(sky, sampled)
    .read(ao, sampled)
    .write(color, Access::ColorAttachmentWrite)
    .finish();
}
