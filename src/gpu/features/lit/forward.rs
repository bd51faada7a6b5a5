//! The skinned forward pass: clears colour, draws the ground (final view only) and every
//! model's subsets from the culled lists; lit by the sun through the shadow map, ambient
//! scaled by the occlusion. After the prepass it tests depth with EQUAL and writes none, so
//! each pixel is shaded once. Without it (the default), it tests and writes the camera's
//! depth itself, and the geometry goes through the vertex shaders once less: then, with
//! ambient occlusion on, it also writes the normals the occlusion reads, and, since the
//! occlusion is made only afterwards, the sun's light and the sky's light apart
//! (`shaders/camera_out.glsl`), which the composite pass adds. With occlusion culling and
//! no prepass it runs twice: the large instances, then (the late pass, after the occlusion
//! test against the depth the first resolved) the small ones it let through. With
//! multisampling it renders into multisampled images it makes; the depth is resolved at the
//! end of each camera pass, the colours only at the end of the last lit pass (the cards',
//! when graphics passes draw them). With the ground in compute no lit pass resolves the
//! colours: the ground pass reads their samples, and only the first pass resolves the depth,
//! for the occlusion test.

use ash::vk;

use crate::gpu::device::error::GpuError;
use crate::gpu::device::pipeline::{
    Culling, DepthState, GraphicsDesc, MAX_COLOR_TARGETS, PipelineDesc, PipelineKind, VertexInput,
};
use crate::gpu::features::cull::Culled;
use crate::gpu::features::lit::depth_normal::{DepthNormals, NO_NORMAL};
use crate::gpu::frame::culling::data::{VIEW_CAMERA, VIEW_CAMERA_LATE};
use crate::gpu::frame::declaration::{FAR_DEPTH, FrameDeclaration};
use crate::gpu::frame::recording::draws::LitInputs;
use crate::gpu::frame::recording::pass::{Bind, PassRecording, PipelineId};
use crate::gpu::frame::settings::{LIGHT_FORMAT, NORMAL_FORMAT, ViewMode, depth_test};
use crate::gpu::graph::{Access, Extent, ImageDesc, ImageKind, PassBuilder, ResourceId, Stages};

/// The pass's name in labels, timings and statistics.
pub const NAME: &str = "forward";
/// The late forward pass's name (no prepass, occlusion culling on).
pub const LATE: &str = "forward_late";

/// Background of the final view: a pale sky, in linear light.
pub const SKY_CLEAR: [f32; 4] = [0.36, 0.48, 0.62, 1.0];

/// The sky's light before occlusion is cleared to none: the sky colour is all direct.
const NO_LIGHT: vk::ClearValue = vk::ClearValue {
    color: vk::ClearColorValue {
        float32: [0.0, 0.0, 0.0, 0.0],
    },
};

/// What the camera's lit passes (the forward pass, its late pass, the cards) draw into and
/// shade with.
#[derive(Clone, Copy, Debug)]
pub struct Forward {
    /// Each colour target as (rendered, resolved into), in location order: the lit colour
    /// (into the target, or with the ambient apart into the sun's light), then with the
    /// ambient apart the sky's light and the normals. Rendered and resolved are the same
    /// image with one sample.
    colors: [(ResourceId, ResourceId); MAX_COLOR_TARGETS],
    /// How many of `colors` are drawn.
    color_count: usize,
    /// The depth they test (the prepass's, or the camera's own).
    depth: ResourceId,
    /// Where they resolve the depth to (no prepass, when the occlusion test or the ambient
    /// occlusion reads it and the depth is multisampled).
    depth_resolved: Option<ResourceId>,
    /// No lit pass resolves the colours: the ground pass reads their samples and writes the
    /// resolved images itself (multisampled, the ground in compute), so a lit pass that draws
    /// nothing (an empty late pass) costs no resolve.
    resolved_by_ground: bool,
    /// They test EQUAL against the prepass's depth and write none.
    pub after_prepass: bool,
    /// The sun's and the sky's light apart, added by the composite pass.
    pub ambient_apart: bool,
    /// The shadow map and ambient occlusion they read, where the frame has them.
    pub lit: LitInputs,
}

impl Forward {
    /// With the ambient apart, the sun's light and the sky's light, resolved.
    pub fn light_parts(&self) -> Option<(ResourceId, ResourceId)> {
        self.ambient_apart
            .then_some((self.colors[0].1, self.colors[1].1))
    }

    /// With the ambient apart, what its passes resolve and the compute passes after them
    /// merge into (the ground, the cards).
    pub fn resolved_light(&self) -> Option<ResolvedLight> {
        self.ambient_apart.then_some(ResolvedLight {
            sun: self.colors[0].1,
            sky: self.colors[1].1,
            normals: self.colors[2].1,
        })
    }

    /// When no lit pass resolves the colours, the multisampled images they leave, which the
    /// ground pass resolves.
    pub fn unresolved_light(&self) -> Option<ResolvedLight> {
        self.resolved_by_ground.then_some(ResolvedLight {
            sun: self.colors[0].0,
            sky: self.colors[1].0,
            normals: self.colors[2].0,
        })
    }

    /// Each colour target as (rendered, resolved at the end of the pass into): the same image
    /// twice where the pass resolves nothing.
    fn attachments(&self) -> impl Iterator<Item = (ResourceId, ResourceId)> + '_ {
        let keep = self.resolved_by_ground;
        self.colors[..self.color_count]
            .iter()
            .map(move |&(rendered, resolved)| (rendered, if keep { rendered } else { resolved }))
    }

    /// The colour formats of a pipeline drawing into these targets: the first, and the
    /// others.
    pub fn formats(&self, color_format: vk::Format) -> (vk::Format, &'static [vk::Format]) {
        if self.ambient_apart {
            (LIGHT_FORMAT, &[LIGHT_FORMAT, NORMAL_FORMAT])
        } else {
            (color_format, &[])
        }
    }

    /// The same targets for a pass drawn after a prepass of its own has drawn its depth (and
    /// resolved it): tested EQUAL, not written.
    pub fn after_own_prepass(self) -> Self {
        Self {
            after_prepass: true,
            depth_resolved: None,
            ..self
        }
    }

    /// The same targets for a pass another lit pass follows: its colours stay multisampled
    /// (the next pass loads them, the last one resolves them); the depth is resolved still,
    /// for the occlusion test between them.
    pub fn colours_resolved_later(self) -> Self {
        Self {
            colors: self.colors.map(|(rendered, _)| (rendered, rendered)),
            ..self
        }
    }

    /// The depth state of a pipeline drawing into these targets.
    pub fn depth_state(&self) -> DepthState {
        let compare = if self.after_prepass {
            vk::CompareOp::EQUAL
        } else {
            vk::CompareOp::LESS
        };
        depth_test(compare, !self.after_prepass)
    }

    /// Declares that a pass draws into these targets (resolving them when multisampled) and
    /// reads what they are lit with, then finishes it. A pass drawing `over` what an earlier
    /// lit pass drew loads its colours: it reads them too, which keeps that pass in the graph
    /// even when only this one resolves them.
    pub fn draw_into(&self, mut p: PassBuilder<'_>, over: bool) {
        let colour = if over {
            Access::ColorAttachmentReadWrite
        } else {
            Access::ColorAttachmentWrite
        };
        for (rendered, resolved) in self.attachments() {
            p.write(rendered, colour);
            if resolved != rendered {
                p.write(resolved, Access::ColorAttachmentWrite);
            }
        }
        if self.after_prepass {
            p.read(self.depth, Access::DepthAttachmentRead);
        } else {
            p.write(self.depth, Access::DepthAttachmentWrite);
            if let Some(resolved) = self.depth_resolved {
                p.write(resolved, Access::DepthResolveWrite);
            }
        }
        for image in [self.lit.shadow_map, self.lit.ao].into_iter().flatten() {
            p.read(image, Access::Sampled(Stages::Fragment));
        }
        p.finish();
    }

    /// Begins rendering into these targets: cleared by the pass that draws them first
    /// (colour to `background`), loaded by the others, as the graph says.
    pub fn begin(&self, r: &PassRecording<'_>, background: [f32; 4]) -> Result<(), GpuError> {
        let background = vk::ClearValue {
            color: vk::ClearColorValue {
                float32: background,
            },
        };
        let clears = [background, NO_LIGHT, NO_NORMAL];
        let mut color = [vk::RenderingAttachmentInfo::default(); MAX_COLOR_TARGETS];
        for (k, (rendered, resolved)) in self.attachments().enumerate() {
            color[k] = r.resolved_attachment(rendered, resolved, Some(clears[k]))?;
        }
        let depth = match self.depth_resolved {
            Some(resolved) => r.resolved_attachment(self.depth, resolved, Some(FAR_DEPTH))?,
            None => r.attachment(self.depth, Some(FAR_DEPTH))?,
        };
        r.begin_rendering(r.extent(), &color[..self.color_count], Some(&depth));
        Ok(())
    }
}

/// The single-sample images the lit passes resolve with the light apart: the sun's light, the
/// sky's light and the view-space normals, which the compute passes drawing after them read
/// and write as storage images (by the names `sun_light`, `sky_light`, `view_normals`); or
/// the same three multisampled, as the lit passes leave them for the ground pass to resolve
/// ([`Forward::unresolved_light`]).
#[derive(Clone, Copy, Debug)]
pub struct ResolvedLight {
    sun: ResourceId,
    sky: ResourceId,
    normals: ResourceId,
}

impl ResolvedLight {
    /// Declares that `p` reads and writes them in compute.
    pub fn merged_by(&self, p: &mut PassBuilder<'_>) {
        let merged = Access::StorageReadWrite(Stages::Compute);
        p.write(self.sun, merged)
            .write(self.sky, merged)
            .write(self.normals, merged);
    }

    /// Declares that `p` writes every pixel of them in compute, reading none.
    pub fn written_by(&self, p: &mut PassBuilder<'_>) {
        let written = Access::StorageWrite(Stages::Compute);
        p.write(self.sun, written)
            .write(self.sky, written)
            .write(self.normals, written);
    }

    /// Declares that `p` samples them (the multisampled images, sample by sample) in compute.
    pub fn sampled_by(&self, p: &mut PassBuilder<'_>) {
        let sampled = Access::Sampled(Stages::Compute);
        p.read(self.sun, sampled)
            .read(self.sky, sampled)
            .read(self.normals, sampled);
    }

    /// Their sampled-image descriptors, in the layout the graph put them in.
    pub fn sampled(
        &self,
        r: &PassRecording<'_>,
    ) -> Result<[[vk::DescriptorImageInfo; 1]; 3], GpuError> {
        self.infos(r, r.shared.samplers.screen)
    }

    /// [`ResolvedLight::sampled`] of the multisampled images as binds, by the ground
    /// resolve's names.
    pub fn sample_binds(images: &[[vk::DescriptorImageInfo; 1]; 3]) -> [Bind<'_>; 3] {
        [
            Bind::image("sun_samples", &images[0]),
            Bind::image("sky_samples", &images[1]),
            Bind::image("normal_samples", &images[2]),
        ]
    }

    /// Their storage-image descriptors, in the layout the graph put them in.
    pub fn images(
        &self,
        r: &PassRecording<'_>,
    ) -> Result<[[vk::DescriptorImageInfo; 1]; 3], GpuError> {
        self.infos(r, vk::Sampler::null())
    }

    /// Their descriptors with `sampler`.
    fn infos(
        &self,
        r: &PassRecording<'_>,
        sampler: vk::Sampler,
    ) -> Result<[[vk::DescriptorImageInfo; 1]; 3], GpuError> {
        Ok([
            r.image_info(self.sun, sampler)?,
            r.image_info(self.sky, sampler)?,
            r.image_info(self.normals, sampler)?,
        ])
    }

    /// [`ResolvedLight::images`] as binds, by the compute shaders' names.
    pub fn binds(images: &[[vk::DescriptorImageInfo; 1]; 3]) -> [Bind<'_>; 3] {
        [
            Bind::image("sun_light", &images[0]),
            Bind::image("sky_light", &images[1]),
            Bind::image("view_normals", &images[2]),
        ]
    }
}

/// What a colour target of the camera's passes is rendered into and resolved into: with
/// multisampling, an image of `name` it makes, resolved into `resolved`; with one sample,
/// `resolved` itself.
fn rendered_for(
    f: &mut FrameDeclaration,
    name: &'static str,
    format: vk::Format,
    resolved: ResourceId,
) -> (ResourceId, ResourceId) {
    let samples = f.samples();
    if samples == vk::SampleCountFlags::TYPE_1 {
        return (resolved, resolved);
    }
    let rendered = f.image(ImageDesc {
        name,
        format,
        kind: ImageKind::Color,
        extent: Extent::Target,
        samples,
    });
    (rendered, resolved)
}

/// A single-sample light image, what the composite pass reads.
fn light_image(f: &mut FrameDeclaration, name: &'static str) -> ResourceId {
    f.image(ImageDesc {
        name,
        format: LIGHT_FORMAT,
        kind: ImageKind::Color,
        extent: Extent::Target,
        samples: vk::SampleCountFlags::TYPE_1,
    })
}

/// The camera's lit targets for the frame's shape: after the prepass, the colour and its
/// depth; without it, the camera's own depth and normals too.
fn targets(f: &mut FrameDeclaration, depth_normals: &DepthNormals, ao: ResourceId) -> Forward {
    let shape = f.shape;
    let color = f.frame.scene;
    let ambient_apart = shape.ao && !shape.prepass;
    let mut colors = [(color, color); MAX_COLOR_TARGETS];
    let color_count = if ambient_apart {
        let sun = light_image(f, "sun light");
        let sky = light_image(f, "sky light");
        colors[0] = rendered_for(f, "sun light (multisampled)", LIGHT_FORMAT, sun);
        colors[1] = rendered_for(f, "sky light (multisampled)", LIGHT_FORMAT, sky);
        colors[2] = (depth_normals.normals_samples, depth_normals.normals);
        3
    } else {
        colors[0] = rendered_for(f, "colour (multisampled)", f.color_format, color);
        1
    };
    let resolved_by_ground = f.lit_resolved_in_compute();
    // The ambient occlusion reads single-sample depth (with the ground resolving, the camera
    // depth pass takes sample zero itself; only the first pass resolves it then, for the
    // occlusion test: see `declare`).
    let resolve_depth = !shape.prepass
        && (shape.occlusion || ambient_apart)
        && !resolved_by_ground
        && depth_normals.depth_samples != depth_normals.depth;
    Forward {
        colors,
        color_count,
        depth: depth_normals.depth_samples,
        depth_resolved: resolve_depth.then_some(depth_normals.depth),
        resolved_by_ground,
        after_prepass: shape.prepass,
        ambient_apart,
        lit: LitInputs {
            shadow_map: None,
            // After the prepass the lit passes read the occlusion; without it, the
            // composite pass does.
            ao: (shape.ao && shape.prepass).then_some(ao),
        },
    }
}

/// Declares the pass for the views that show the frame (`None` for the others): after the
/// prepass, or drawing the camera's depth and normals itself (and with occlusion culling
/// only the large instances; [`declare_late`] the rest).
pub fn declare(
    f: &mut FrameDeclaration,
    culled: &Culled,
    depth_normals: &DepthNormals,
    shadow_map: ResourceId,
    ao: ResourceId,
) -> Option<(Forward, ForwardPipelines)> {
    let shape = f.shape;
    if !shape.shows_frame {
        return None;
    }
    let mut fwd = targets(f, depth_normals, ao);
    fwd.lit.shadow_map = shape.shadows.then_some(shadow_map);
    let (first, more) = fwd.formats(f.color_format);
    let (depth_state, culling, samples) = (fwd.depth_state(), f.culling, f.samples());
    let mut pipeline = |name, vertex, fragment, input, culling| {
        f.pipeline(PipelineDesc {
            name,
            kind: PipelineKind::Graphics(GraphicsDesc {
                vertex,
                fragment: Some(fragment),
                input,
                color: Some(first),
                more_colors: more,
                depth: Some(depth_state),
                culling,
                samples,
            }),
        })
    };
    let (characters_name, ground_name, characters_frag, ground_frag) =
        match (fwd.after_prepass, fwd.ambient_apart) {
            (true, _) => (
                "forward (depth equal)",
                "ground (depth equal)",
                "skinned.frag",
                "ground.frag",
            ),
            (false, false) => (
                "forward (depth less)",
                "ground (depth less)",
                "skinned.frag",
                "ground.frag",
            ),
            (false, true) => (
                "forward (depth less, ambient apart)",
                "ground (depth less, ambient apart)",
                "skinned_apart.frag",
                "ground_apart.frag",
            ),
        };
    let characters = pipeline(
        characters_name,
        shape.skinned_vertex_shader(),
        characters_frag,
        VertexInput::Skinned,
        culling,
    );
    let ground = pipeline(
        ground_name,
        "ground.vert",
        ground_frag,
        VertexInput::Generated,
        Culling::None,
    );
    let pipelines = ForwardPipelines([characters, ground]);
    // After the prepass both lists are drawn here; without it the late list waits for the
    // occlusion test, which reads what this pass resolves.
    let lists: &'static [usize] = if shape.occlusion && shape.prepass {
        &[VIEW_CAMERA, VIEW_CAMERA_LATE]
    } else {
        &[VIEW_CAMERA]
    };
    // Graphics cards, or without a prepass the late pass, draw into the colours after this
    // pass (compute cards merge into what the last lit pass resolved).
    let followed = shape.camera_cards_in_graphics() || (shape.occlusion && !shape.prepass);
    let mut targets = if followed {
        fwd.colours_resolved_later()
    } else {
        fwd
    };
    if fwd.resolved_by_ground && shape.occlusion {
        // The occlusion test between the two passes reads this one's depth, resolved.
        targets.depth_resolved = Some(depth_normals.depth);
    }
    declare_pass(f, NAME, culled, &targets, pipelines, lists, true);
    Some((fwd, pipelines))
}

/// The forward pass's pipelines (characters, then the ground), for its late pass.
#[derive(Clone, Copy, Debug)]
pub struct ForwardPipelines([PipelineId; 2]);

/// Declares the late forward pass (no prepass, after the occlusion test): the small instances
/// the test let through, into what the first pass left.
pub fn declare_late(
    f: &mut FrameDeclaration,
    culled: &Culled,
    forward: &Forward,
    pipelines: ForwardPipelines,
) {
    let targets = if f.shape.camera_cards_in_graphics() {
        forward.colours_resolved_later()
    } else {
        *forward
    };
    declare_pass(
        f,
        LATE,
        culled,
        &targets,
        pipelines,
        &[VIEW_CAMERA_LATE],
        false,
    );
}

/// A forward pass drawing `lists`; the `first` of the lit passes also draws the ground (in
/// the final view, unless the ground pass draws it in compute), and the others draw over what
/// it drew.
fn declare_pass(
    f: &mut FrameDeclaration,
    name: &'static str,
    culled: &Culled,
    fwd: &Forward,
    ForwardPipelines(ids): ForwardPipelines,
    lists: &'static [usize],
    first: bool,
) {
    let (shape, draws, ring, fwd) = (f.shape, culled.draws, f.frame.ring, *fwd);
    let mut p = f.pass(name, move |r| {
        let background = match shape.view {
            ViewMode::Silhouette => [0.0, 0.0, 0.0, 1.0],
            // Nothing where no mesh is (alpha 0): the ground pass adds the ground and the sky
            // there, by the share of each pixel's samples left empty.
            _ if shape.ground_in_compute => [0.0; 4],
            _ => SKY_CLEAR,
        };
        let lit = r.lit_images(fwd.lit)?;
        let [characters, ground_pipeline] = ids.map(|p| r.pipeline(p));
        let (characters, ground_pipeline) = (characters?, ground_pipeline?);
        fwd.begin(r, background)?;
        let result = (|| {
            if first && shape.view == ViewMode::Final && !shape.ground_in_compute {
                r.draw_ground(ground_pipeline, &lit.binds())?;
            }
            for &list in lists {
                r.draw_characters(characters, None, &draws, Some(&lit), list)?;
            }
            Ok(())
        })();
        r.end_rendering();
        result
    });
    culled.reads(&mut p, ring);
    fwd.draw_into(p, !first);
}
