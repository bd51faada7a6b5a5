//! The impostor card passes: the characters the culling pass made cards (short on screen,
//! their model's atlas baked) drawn as one quad each (`shaders/impostor_card.glsl`), after
//! the pass that draws the meshes into the same images: into the shadow map after the
//! shadow pass, into depth and normals after the prepasses (or, at their quad's own depth
//! and without a prepass, after the forward passes; resolved again when multisampled), and
//! lit into the forward pass's targets after it (the last lit pass: it resolves them). One
//! indirect draw per model and view, its count written by the GPU. Declared only when the
//! settings turn impostors on.

use ash::vk;
use glam::{Vec3, Vec4};

use crate::gpu::device::buffer::whole_buffer;
use crate::gpu::device::error::GpuError;
use crate::gpu::device::pipeline::{
    Culling, DepthState, GraphicsDesc, Pipeline, PipelineDesc, PipelineKind, VertexInput,
};
use crate::gpu::features::cull::Culled;
use crate::gpu::features::impostors::atlases::ImpostorAtlases;
use crate::gpu::features::lit::depth_normal::DepthNormals;
use crate::gpu::features::lit::forward::{Forward, SKY_CLEAR};
use crate::gpu::frame::culling::data::{CardCommand, VIEW_CAMERA, VIEW_CAMERA_LATE, VIEW_SHADOW};
use crate::gpu::frame::declaration::FrameDeclaration;
pub use crate::gpu::frame::gpu_layouts::CardConstants;
use crate::gpu::frame::model_buffers::GpuModel;
use crate::gpu::frame::recording::draws::LitImages;
use crate::gpu::frame::recording::pass::{Bind, PassRecording};
use crate::gpu::frame::settings::{NORMAL_FORMAT, depth_test};
use crate::gpu::graph::{Access, ResourceId};

/// The cards' shadows' pass.
pub const SHADOW: &str = "impostor_shadow";
/// The cards' depth and normals.
pub const DEPTH_NORMAL: &str = "impostor_depth_normal";
/// The cards lit.
pub const FORWARD: &str = "impostor_forward";

/// Where a card pass draws from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Eye {
    Camera,
    Sun,
}

/// A card pipeline: generated quads (four-vertex strips), both faces, depth as given.
fn pipeline(
    f: &mut FrameDeclaration,
    name: &'static str,
    fragment: &'static str,
    color: Option<vk::Format>,
    depth: DepthState,
    samples: vk::SampleCountFlags,
) -> crate::gpu::frame::recording::pass::PipelineId {
    f.pipeline(PipelineDesc {
        name,
        kind: PipelineKind::Graphics(GraphicsDesc {
            vertex: "impostor.vert",
            fragment: Some(fragment),
            input: VertexInput::GeneratedStrip,
            color,
            more_colors: &[],
            depth: Some(depth),
            culling: Culling::None,
            samples,
        }),
    })
}

/// Declares the cards' shadows, drawn into `shadow_map` after the meshes'.
pub fn declare_shadow(f: &mut FrameDeclaration, culled: &Culled, shadow_map: ResourceId) {
    if !f.shape.cards || f.shape.shadow_cards_in_compute {
        return;
    }
    let one = vk::SampleCountFlags::TYPE_1;
    let id = pipeline(
        f,
        "impostor shadow",
        "impostor_shadow.frag",
        None,
        depth_test(vk::CompareOp::LESS, true),
        one,
    );
    let (culled, ring) = (*culled, f.frame.ring);
    let mut p = f.pass(SHADOW, move |r| {
        let side = r.shared.shadow_size;
        let extent = vk::Extent2D {
            width: side,
            height: side,
        };
        let depth = r.attachment(shadow_map, None)?;
        let pipeline = r.pipeline(id)?;
        r.begin_rendering(extent, &[], Some(&depth));
        let result = draw_cards(r, pipeline, &culled, None, (Eye::Sun, true), &[VIEW_SHADOW]);
        r.end_rendering();
        result
    });
    culled.reads_cards(&mut p, ring);
    p.write(shadow_map, Access::DepthAttachmentWrite).finish();
}

/// Declares the cards' depth and normals, drawn into the camera's depth and normals after
/// the passes that draw the meshes into them (both prepasses; without the prepass, both
/// forward passes, for cards at their quad's own depth) and resolved again when they are
/// multisampled.
pub fn declare_prepass(f: &mut FrameDeclaration, culled: &Culled, images: &DepthNormals) {
    if !f.shape.cards {
        return;
    }
    let samples = f.samples();
    let id = pipeline(
        f,
        if f.shape.card_plane_depth {
            "impostor depth+normal (card plane)"
        } else {
            "impostor depth+normal"
        },
        if f.shape.card_plane_depth {
            "impostor_depth_normal_plane.frag"
        } else {
            "impostor_depth_normal.frag"
        },
        Some(NORMAL_FORMAT),
        depth_test(vk::CompareOp::LESS, true),
        samples,
    );
    let (culled, ring, pre) = (*culled, f.frame.ring, *images);
    let picture_depth = !f.shape.card_plane_depth;
    let mut p = f.pass(DEPTH_NORMAL, move |r| {
        let color = [r.resolved_attachment(pre.normals_samples, pre.normals, None)?];
        let depth = r.resolved_attachment(pre.depth_samples, pre.depth, None)?;
        let pipeline = r.pipeline(id)?;
        r.begin_rendering(r.extent(), &color, Some(&depth));
        let eye = (Eye::Camera, picture_depth);
        let result = draw_cards(r, pipeline, &culled, None, eye, camera_views(r));
        r.end_rendering();
        result
    });
    culled.reads_cards(&mut p, ring);
    pre.draw_into(p);
}

/// Declares the cards lit, drawn into the forward pass's targets after it (and resolved
/// again when multisampled): EQUAL against the prepass's depth, or testing and writing the
/// camera's own (and then its normals and the light apart, as the forward pass does).
pub fn declare_forward(f: &mut FrameDeclaration, culled: &Culled, forward: Option<&Forward>) {
    let Some(fwd) = forward
        .copied()
        .filter(|_| f.shape.cards && !f.shape.camera_cards_in_compute)
    else {
        return;
    };
    let plane = f.shape.card_plane_depth;
    let fragment = match (fwd.ambient_apart, plane) {
        (false, false) => "impostor.frag",
        (false, true) => "impostor_plane.frag",
        (true, false) => "impostor_apart.frag",
        (true, true) => "impostor_plane_apart.frag",
    };
    let name = match (fwd.after_prepass, fwd.ambient_apart, plane) {
        (true, false, false) => "impostor forward (depth equal)",
        (true, false, true) => "impostor forward (card plane, depth equal)",
        (true, true, false) => "impostor forward (depth equal, ambient apart)",
        (true, true, true) => "impostor forward (card plane, depth equal, ambient apart)",
        (false, false, false) => "impostor forward (depth less)",
        (false, false, true) => "impostor forward (card plane, depth less)",
        (false, true, false) => "impostor forward (depth less, ambient apart)",
        (false, true, true) => "impostor forward (card plane, depth less, ambient apart)",
    };
    let (first, more) = fwd.formats(f.color_format);
    let samples = f.samples();
    let id = f.pipeline(PipelineDesc {
        name,
        kind: PipelineKind::Graphics(GraphicsDesc {
            vertex: "impostor.vert",
            fragment: Some(fragment),
            input: VertexInput::GeneratedStrip,
            color: Some(first),
            more_colors: more,
            depth: Some(fwd.depth_state()),
            culling: Culling::None,
            samples,
        }),
    });
    let (culled, ring) = (*culled, f.frame.ring);
    let mut p = f.pass(FORWARD, move |r| {
        let images = r.lit_images(fwd.lit)?;
        let pipeline = r.pipeline(id)?;
        // Drawn over the forward pass: its colours are loaded, the clear value never used.
        fwd.begin(r, SKY_CLEAR)?;
        let views = camera_views(r);
        let eye = (Eye::Camera, !plane);
        let result = draw_cards(r, pipeline, &culled, Some(&images), eye, views);
        r.end_rendering();
        result
    });
    culled.reads_cards(&mut p, ring);
    fwd.draw_into(p, true);
}

/// What every card pass binds and pushes for one model: its constants and its atlas (the
/// pictures' cameras, colour, normal and depth).
pub(super) struct ModelCards {
    /// The push constants of its cards.
    pub constants: CardConstants,
    /// The pictures' cameras.
    pub views: [vk::DescriptorBufferInfo; 1],
    /// Colour with coverage, filtered (its outline divided by its coverage in the shaders).
    pub color: [vk::DescriptorImageInfo; 1],
    /// Normal, material and depth, nearest: never a blend of the surface and the empty
    /// texels around it.
    pub normal_depth: [vk::DescriptorImageInfo; 1],
}

impl ModelCards {
    /// Model `m`'s cards seen from `eye`, writing the picture's depth or not; `None` when it
    /// has no atlas or no instances.
    pub fn of(r: &PassRecording<'_>, m: usize, eye: Eye, picture_depth: bool) -> Option<Self> {
        let shared = r.shared;
        let atlas = r.feature::<ImpostorAtlases>()?.atlas(m)?;
        let model = shared.crowd.models.get(m)?;
        if shared
            .crowd
            .ranges
            .get(m)
            .is_none_or(|range| range.is_empty())
        {
            return None;
        }
        let layout = &atlas.layout;
        let (width, height) = layout.size();
        let f0 = mean_reflectance(model);
        let samplers = &shared.samplers;
        Some(Self {
            constants: CardConstants {
                grid: [
                    layout.azimuths,
                    layout.elevations,
                    layout.frames,
                    layout.clips,
                ],
                cell: Vec4::new(
                    layout.cell as f32 / width as f32,
                    layout.cell as f32 / height as f32,
                    if eye == Eye::Sun { 1.0 } else { 0.0 },
                    if picture_depth { 1.0 } else { 0.0 },
                ),
                material: Vec4::new(0.0, f0.x, f0.y, f0.z),
            },
            views: whole_buffer(atlas.views.buffer),
            color: PassRecording::fixed_image(atlas.color.view, samplers.ao),
            normal_depth: PassRecording::fixed_image(atlas.normal_depth.view, samplers.screen),
        })
    }
}

/// The reflectance at normal incidence of `model`'s subsets, each weighed by its triangles:
/// what a card's surface reflects (its roughness is in the atlas, texel by texel).
fn mean_reflectance(model: &GpuModel) -> Vec3 {
    let (sum, weight) = model.subsets.iter().fold((Vec3::ZERO, 0.0), |(sum, w), s| {
        let n = s.index_count as f32;
        (sum + s.constants.fresnel0.truncate() * n, w + n)
    });
    if weight > 0.0 {
        sum / weight
    } else {
        Vec3::splat(0.04)
    }
}

/// The camera's card lists: the late one too when the occlusion test fills it (otherwise
/// nothing writes its draw).
fn camera_views(r: &PassRecording<'_>) -> &'static [usize] {
    if r.shared.shape.occlusion {
        &[VIEW_CAMERA, VIEW_CAMERA_LATE]
    } else {
        &[VIEW_CAMERA]
    }
}

/// Records the cards of `views` for every model with an atlas: one indirect draw per model
/// and view, its instance count written by the culling pass.
fn draw_cards(
    r: &PassRecording<'_>,
    pipeline: &Pipeline,
    culled: &Culled,
    lit: Option<&LitImages>,
    (eye, picture_depth): (Eye, bool),
    views: &[usize],
) -> Result<(), GpuError> {
    let shared = r.shared;
    let (records, _) = r.ring_infos()?;
    let visible = r.buffer_info(culled.draws.lists)?;
    let (commands, _, _) = r.buffer(culled.cards)?;
    let frame = r.frame_info();
    let looks = whole_buffer(shared.crowd.looks);
    let models = shared.crowd.models.len();
    r.bind(pipeline);
    // SAFETY: inside the pass's rendering; the cards need no vertex buffer.
    unsafe {
        r.ctx
            .cmd_set_front_face(r.cmd, vk::FrontFace::COUNTER_CLOCKWISE)
    };
    for m in 0..models {
        let Some(model) = ModelCards::of(r, m, eye, picture_depth) else {
            continue;
        };
        let (views_info, color, normal_depth) = (model.views, model.color, model.normal_depth);
        let constants = model.constants;
        let mut binds = [
            Bind::buffer("Records", &records),
            Bind::buffer("Visible", &visible),
            Bind::buffer("Frame", &frame),
            Bind::buffer("CardViews", &views_info),
            Bind::image("card_color", &color),
            Bind::image("card_normal_depth", &normal_depth),
            Bind::buffer("Looks", &looks),
            Bind::buffer("Frame", &frame),
            Bind::buffer("Frame", &frame),
        ];
        let count = match lit {
            Some(lit) => {
                binds[7..].copy_from_slice(&lit.binds());
                9
            }
            None => 7,
        };
        r.push(pipeline, &binds[..count])?;
        r.push_constants(pipeline, bytemuck::bytes_of(&constants))?;
        for &view in views {
            let offset = ((view * models + m) * size_of::<CardCommand>()) as u64;
            // The card command's own instance count is the draw count (the most is one): no
            // draw when no instance is a card. The plain vkCmdDrawIndirect drew nothing on
            // lavapipe (Mesa 22.3) whenever no mesh was drawn earlier in the frame, with the
            // same command in the buffer; this form, the meshes', draws it everywhere.
            // SAFETY: inside the rendering; the card commands hold one per view and model,
            // written by the culling passes the graph ordered before this one.
            unsafe {
                r.ctx.device.cmd_draw_indirect_count(
                    r.cmd,
                    commands,
                    offset,
                    commands,
                    offset + 4,
                    1,
                    size_of::<CardCommand>() as u32,
                )
            };
        }
    }
    Ok(())
}
