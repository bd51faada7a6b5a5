//! The skinned forward pass: clears colour, draws the ground (final view only) and every
//! model's subsets from the culled lists; lit by the sun through the shadow map, ambient
//! scaled by the occlusion. After the prepass it tests depth with EQUAL and writes none, so
//! each pixel is shaded once; without it, it tests and writes a depth of its own (which it
//! makes). With multisampling it renders into a multisampled image it makes and resolves it
//! into the target.

use ash::vk;

use super::cull::Culled;
use super::depth_normal::Prepass;
use super::{FAR_DEPTH, FrameDeclaration};
use crate::gpu::culling::data::{VIEW_CAMERA, VIEW_CAMERA_LATE};
use crate::gpu::device::pipeline::{
    Culling, DepthState, GraphicsDesc, PipelineDesc, PipelineKind, VertexInput,
};
use crate::gpu::graph::{Access, Extent, ImageDesc, ImageKind, ResourceId, Stages};
use crate::gpu::recording::draws::LitInputs;
use crate::gpu::settings::{DEPTH_FORMAT, ViewMode};

/// The pass's name in labels, timings and statistics.
pub const NAME: &str = "forward";

/// Background of the final view: a pale sky, in linear light.
pub const SKY_CLEAR: [f32; 4] = [0.36, 0.48, 0.62, 1.0];

/// What the forward pass draws into and shades with, for the passes that draw after it.
#[derive(Clone, Copy, Debug)]
pub struct Forward {
    /// The colour target.
    pub color: ResourceId,
    /// What it renders colour into: `color`, or a multisampled image resolved into it.
    pub color_samples: ResourceId,
    /// The depth it tests (the prepass's, or its own).
    pub depth: ResourceId,
    /// The shadow map and ambient occlusion it reads, where the frame has them.
    pub lit: LitInputs,
}

/// Declares the pass for the views that show the frame (`None` for the others).
pub fn declare(
    f: &mut FrameDeclaration,
    culled: &Culled,
    prepass: &Prepass,
    shadow_map: ResourceId,
    ao: ResourceId,
) -> Option<Forward> {
    let shape = f.shape;
    if !shape.shows_frame {
        return None;
    }
    let samples = f.samples();
    let color = f.frame.color;
    let color_samples = if samples == vk::SampleCountFlags::TYPE_1 {
        color
    } else {
        f.image(ImageDesc {
            name: "colour (multisampled)",
            format: f.color_format,
            kind: ImageKind::Color,
            extent: Extent::Target,
            samples,
        })
    };
    let depth = if shape.prepass {
        prepass.depth_samples
    } else {
        f.image(ImageDesc {
            name: "forward depth",
            format: DEPTH_FORMAT,
            kind: ImageKind::Depth,
            extent: Extent::Target,
            samples,
        })
    };
    // After the prepass: equal depth, no writes; without it, depth of its own.
    let depth_state = DepthState {
        format: DEPTH_FORMAT,
        compare: if shape.prepass {
            vk::CompareOp::EQUAL
        } else {
            vk::CompareOp::LESS
        },
        write: !shape.prepass,
        bias: None,
    };
    let (color_format, culling) = (f.color_format, f.culling);
    let mut pipeline = |name, vertex, fragment, input, culling| {
        f.pipeline(PipelineDesc {
            name,
            kind: PipelineKind::Graphics(GraphicsDesc {
                vertex,
                fragment: Some(fragment),
                input,
                color: Some(color_format),
                second_color: None,
                depth: Some(depth_state),
                culling,
                samples,
            }),
        })
    };
    let (characters_name, ground_name) = if shape.prepass {
        ("forward (depth equal)", "ground (depth equal)")
    } else {
        ("forward (depth less)", "ground (depth less)")
    };
    let characters = pipeline(
        characters_name,
        "skinned.vert",
        "skinned.frag",
        VertexInput::Skinned,
        culling,
    );
    let ground = pipeline(
        ground_name,
        "ground.vert",
        "ground.frag",
        VertexInput::Generated,
        Culling::None,
    );
    let lit = LitInputs {
        shadow_map: shape.shadows.then_some(shadow_map),
        ao: shape.ao.then_some(ao),
    };
    let (lists, ring) = (culled.draws, f.frame.ring);
    let mut p = f.pass(NAME, move |r| {
        let clear = match shape.view {
            ViewMode::Silhouette => [0.0, 0.0, 0.0, 1.0],
            _ => SKY_CLEAR,
        };
        let clear = vk::ClearValue {
            color: vk::ClearColorValue { float32: clear },
        };
        let color = [r.resolved_attachment(color_samples, color, Some(clear))?];
        let depth = r.attachment(depth, Some(FAR_DEPTH))?;
        let lit = r.lit_images(lit)?;
        let (characters, ground) = (r.pipeline(characters)?, r.pipeline(ground)?);
        r.begin_rendering(r.extent(), &color, Some(&depth));
        let result = (|| {
            if shape.view == ViewMode::Final {
                r.draw_ground(ground, &lit.binds())?;
            }
            r.draw_characters(characters, &lists, Some(&lit), VIEW_CAMERA)?;
            if shape.occlusion {
                r.draw_characters(characters, &lists, Some(&lit), VIEW_CAMERA_LATE)?;
            }
            Ok(())
        })();
        r.end_rendering();
        result
    });
    culled.reads(&mut p, ring);
    p.write(color_samples, Access::ColorAttachmentWrite);
    if color_samples != color {
        // Resolved into the target at the end of the pass.
        p.write(color, Access::ColorAttachmentWrite);
    }
    if shape.prepass {
        p.read(depth, Access::DepthAttachmentRead);
    } else {
        p.write(depth, Access::DepthAttachmentWrite);
    }
    if let Some(shadow_map) = lit.shadow_map {
        p.read(shadow_map, Access::Sampled(Stages::Fragment));
    }
    if let Some(ao) = lit.ao {
        p.read(ao, Access::Sampled(Stages::Fragment));
    }
    p.finish();
    Some(Forward {
        color,
        color_samples,
        depth,
        lit,
    })
}
