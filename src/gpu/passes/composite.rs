//! The composite pass of a frame without a prepass: the camera's passes wrote the sun's
//! light and the sky's light apart, the ambient occlusion was made from their depth and
//! normals afterwards, and this adds them into the target, one fullscreen triangle
//! (`shaders/ambient_composite.frag`): sun + sky x occlusion, what the lit shaders add
//! themselves after a prepass.

use ash::vk;

use super::FrameDeclaration;
use crate::gpu::device::pipeline::{
    Culling, GraphicsDesc, PipelineDesc, PipelineKind, VertexInput,
};
use crate::gpu::graph::{Access, ResourceId, Stages};
use crate::gpu::recording::pass::Bind;

/// The pass's name in labels, timings and statistics.
pub const NAME: &str = "ambient_composite";

/// Declares the pass adding the sun's and the sky's light the forward pass wrote apart
/// ([`super::forward::Forward::light_parts`]), the sky's darkened by `ao`, the blurred
/// ambient occlusion.
pub fn declare(f: &mut FrameDeclaration, (sun, sky): (ResourceId, ResourceId), ao: ResourceId) {
    // Drawn straight into the target: one sample.
    let pipeline = f.pipeline(PipelineDesc {
        name: "ambient composite",
        kind: PipelineKind::Graphics(GraphicsDesc {
            vertex: "fullscreen.vert",
            fragment: Some("ambient_composite.frag"),
            input: VertexInput::Generated,
            color: Some(f.color_format),
            more_colors: &[],
            depth: None,
            culling: Culling::None,
            samples: vk::SampleCountFlags::TYPE_1,
        }),
    });
    let color = f.frame.color;
    let sampled = Access::Sampled(Stages::Fragment);
    f.pass(NAME, move |r| {
        let target = [r.attachment(color, None)?];
        let samplers = &r.shared.samplers;
        let sun = r.image_info(sun, samplers.screen)?;
        let sky = r.image_info(sky, samplers.screen)?;
        let occlusion = r.image_info(ao, samplers.ao)?;
        let frame = r.frame_info();
        let pipeline = r.pipeline(pipeline)?;
        r.begin_rendering(r.extent(), &target, None);
        r.bind(pipeline);
        let pushed = r.push(
            pipeline,
            &[
                Bind::buffer("Frame", &frame),
                Bind::image("direct_light", &sun),
                Bind::image("ambient_light", &sky),
                Bind::image("ambient_occlusion", &occlusion),
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
    .read(sun, sampled)
    .read(sky, sampled)
    .read(ao, sampled)
    .write(color, Access::ColorAttachmentWrite)
    .finish();
}
