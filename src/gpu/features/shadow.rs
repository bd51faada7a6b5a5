//! The shadow pass: every character's skinned depth seen from the sun, into the shadow map it
//! makes. Declared in every frame; kept only when something reads the shadow map (the
//! forward pass with shadows on, or the shadow debug view).

use ash::vk;

use crate::gpu::device::pipeline::{
    Culling, DepthBias, DepthState, GraphicsDesc, PipelineDesc, PipelineKind, VertexInput,
};
use crate::gpu::features::cull::Culled;
use crate::gpu::frame::culling::data::VIEW_SHADOW;
use crate::gpu::frame::declaration::{FAR_DEPTH, FrameDeclaration};
use crate::gpu::frame::recording::pass::PipelineId;
use crate::gpu::frame::settings::{DEPTH_FORMAT, depth_test};
use crate::gpu::graph::{Access, Extent, ImageDesc, ImageKind, ResourceId};

/// The pass's name in labels, timings and statistics.
pub const NAME: &str = "shadow";

/// The near cascade's pass ([`crate::scene::NearCascade`]): the sun's casters again, through
/// the near cascade's matrix, into the square beside the whole box's.
pub const NEAR_NAME: &str = "shadow_near";

/// Depth bias (constant, slope): enough that lit surfaces do not shadow themselves at
/// grazing angles, little enough that feet keep their contact shadows.
pub(crate) const BIAS: DepthBias = DepthBias {
    constant: 1.5,
    slope: 2.0,
};

/// Declares the shadow map: what the shadow passes draw into. A square of `shadow_size`
/// texels, the whole box's, at the image's origin (where every pass but the near cascade's
/// draws), and where the frame has the near cascade, its square beside it.
pub fn map(f: &mut FrameDeclaration) -> ResourceId {
    let side = f.key.shadow_size.max(1);
    let squares = if f.shape.shadow_cascade { 2 } else { 1 };
    f.image(ImageDesc {
        name: "shadow map",
        format: DEPTH_FORMAT,
        kind: ImageKind::Depth,
        extent: Extent::Fixed(side * squares, side),
        samples: vk::SampleCountFlags::TYPE_1,
    })
}

/// Declares the pass: the skinned inputs in, drawn into `shadow_map` (cleared first unless a
/// pass before it wrote the cards' shadows there).
pub fn declare(f: &mut FrameDeclaration, culled: &Culled, shadow_map: ResourceId) {
    // Back faces cast (front faces culled, with each model's own front face): half the
    // triangles to rasterize, and the surfaces facing the sun are not in the map to shadow
    // themselves.
    let caster = |name, vertex, fragment, input| PipelineDesc {
        name,
        kind: PipelineKind::Graphics(GraphicsDesc {
            vertex,
            fragment,
            input,
            color: None,
            more_colors: &[],
            depth: Some(DepthState {
                bias: Some(BIAS),
                ..depth_test(vk::CompareOp::LESS, true)
            }),
            culling: Culling::Front,
            samples: vk::SampleCountFlags::TYPE_1,
        }),
    };
    let vertex = f.shape.shadow_vertex_shader();
    let pipeline = f.pipeline(caster("shadow", vertex, None, VertexInput::SkinnedPosition));
    // Alpha-clipped materials need a fragment stage to clip with; the others cast faster
    // without one.
    let clip = f.key.alpha_clip.then(|| {
        let vertex = f.shape.shadow_clip_vertex_shader();
        let desc = caster(
            "shadow clip",
            vertex,
            Some("shadow_clip.frag"),
            VertexInput::SkinnedPositionUv,
        );
        f.pipeline(desc)
    });
    let lists = culled.draws;
    let ring = f.frame.ring;
    let mut p = f.pass(NAME, move |r| {
        let side = r.shared.shadow_size;
        let extent = vk::Extent2D {
            width: side,
            height: side,
        };
        let depth = r.attachment(shadow_map, Some(FAR_DEPTH))?;
        let pipeline = r.pipeline(pipeline)?;
        let clip = clip.map(|c| r.pipeline(c)).transpose()?;
        r.begin_rendering(extent, &[], Some(&depth));
        let result = r.draw_characters(pipeline, clip, &lists, None, VIEW_SHADOW);
        r.end_rendering();
        result
    });
    culled.reads(&mut p, ring);
    p.write(shadow_map, Access::DepthAttachmentWrite).finish();
    if f.shape.shadow_cascade {
        declare_near(f, culled, shadow_map, (pipeline, clip));
    }
}

/// Declares the near cascade's pass (in the frames whose key has it): the sun's lists drawn
/// again through the near cascade's copy of the frame's uniforms (whose vertex
/// shaders drop the meshes the culling did not mark as within its reach), into the square
/// beside the whole box's: cleared there first, or, where the sun's mesh raster splatted
/// the coarser levels into that square of its depths (`mesh_shadow_near`), loaded as the
/// copy left it.
fn declare_near(
    f: &mut FrameDeclaration,
    culled: &Culled,
    shadow_map: ResourceId,
    (pipeline, clip): (PipelineId, Option<PipelineId>),
) {
    let lists = culled.draws;
    let ring = f.frame.ring;
    let mut p = f.pass(NEAR_NAME, move |r| {
        let side = r.shared.shadow_size;
        let area = vk::Rect2D {
            offset: vk::Offset2D {
                x: side as i32,
                y: 0,
            },
            extent: vk::Extent2D {
                width: side,
                height: side,
            },
        };
        // The map holds the whole box's square, drawn before: loaded, and this square
        // cleared, unless the sun's mesh raster's depths were copied into it.
        let depth = r.attachment(shadow_map, None)?;
        let pipeline = r.pipeline(pipeline)?;
        let clip = clip.map(|c| r.pipeline(c)).transpose()?;
        let frame = r.near_frame_info();
        r.begin_rendering_in(area, &[], Some(&depth));
        if !r.shared.shape.shadow_meshes_in_compute {
            r.clear_depth(area, FAR_DEPTH);
        }
        let result = r.draw_characters_seen(&frame, pipeline, clip, &lists, None, VIEW_SHADOW);
        r.end_rendering();
        result
    });
    culled.reads(&mut p, ring);
    p.write(shadow_map, Access::DepthAttachmentWrite).finish();
}
