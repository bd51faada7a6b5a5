//! The camera's depth and view-space normals ([`images`]: what the ambient occlusion, the
//! occlusion test and the debug views read), and the depth/normal prepass that draws them
//! (`--prepass on`) before the forward pass tests against them. Without the prepass the
//! forward pass draws into the same images (see `forward.rs`). With occlusion culling the
//! prepass runs twice: first the ground and the instances large enough to hide others, then
//! (the late pass, loading what the first left) the small ones the occlusion test let
//! through. With multisampling both render into multisampled images and resolve them at
//! their end into the single-sample ones everything else reads.

use ash::vk;

use crate::gpu::device::pipeline::{
    Culling, GraphicsDesc, PipelineDesc, PipelineKind, VertexInput,
};
use crate::gpu::features::cull::Culled;
use crate::gpu::frame::culling::data::{VIEW_CAMERA, VIEW_CAMERA_LATE};
use crate::gpu::frame::declaration::{FAR_DEPTH, FrameDeclaration};
use crate::gpu::frame::recording::pass::PipelineId;
use crate::gpu::frame::settings::{DEPTH_FORMAT, NORMAL_FORMAT, depth_test};
use crate::gpu::graph::{Access, Extent, ImageDesc, ImageKind, PassBuilder, ResourceId};

/// The first prepass's name in labels, timings and statistics.
pub const NAME: &str = "depth_normal";
/// The late prepass's name.
pub const LATE: &str = "depth_normal_late";

/// The normals' clear value: alpha 0 marks "nothing drawn here" (the debug view shows it
/// black, the ambient occlusion leaves it alone).
pub const NO_NORMAL: vk::ClearValue = vk::ClearValue {
    color: vk::ClearColorValue {
        float32: [0.0, 0.0, 0.0, 0.0],
    },
};

/// The camera's depth and normals: drawn by the prepass, or without it by the forward pass.
#[derive(Clone, Copy, Debug)]
pub struct DepthNormals {
    /// Depth, one sample per pixel (what the ambient occlusion, the occlusion test and the
    /// depth view read).
    pub depth: ResourceId,
    /// View-space normals, one sample per pixel.
    pub normals: ResourceId,
    /// The depth the camera's passes render and test: `depth` itself, or with
    /// multisampling a multisampled image resolved into `depth` (sample 0).
    pub depth_samples: ResourceId,
    /// The normals they render: `normals`, or a multisampled image resolved (averaged) into
    /// `normals`.
    pub normals_samples: ResourceId,
}

/// What the prepass draws into and with.
#[derive(Clone, Copy, Debug)]
pub struct Prepass {
    /// Its images.
    pub images: DepthNormals,
    /// Its pipelines: characters, then the ground.
    pipelines: [PipelineId; 2],
}

impl DepthNormals {
    /// Whether they render several samples per pixel and resolve them.
    pub fn multisampled(&self) -> bool {
        self.depth_samples != self.depth
    }

    /// Declares that a pass draws into the prepass's depth and normals (and resolves them
    /// again when multisampled), then finishes it.
    pub fn draw_into(&self, mut p: PassBuilder<'_>) {
        p.write(self.depth_samples, Access::DepthAttachmentWrite)
            .write(self.normals_samples, Access::ColorAttachmentWrite);
        if self.multisampled() {
            p.write(self.depth, Access::DepthResolveWrite)
                .write(self.normals, Access::ColorAttachmentWrite);
        }
        p.finish();
    }
}

/// A camera-sized image of the prepass.
fn image(
    f: &mut FrameDeclaration,
    name: &'static str,
    format: vk::Format,
    kind: ImageKind,
    samples: vk::SampleCountFlags,
) -> ResourceId {
    f.image(ImageDesc {
        name,
        format,
        kind,
        extent: Extent::Target,
        samples,
    })
}

/// A prepass pipeline: `vertex` and `fragment` into normals, testing and writing depth.
fn pipeline(
    f: &mut FrameDeclaration,
    name: &'static str,
    shaders: (&'static str, &'static str),
    input: VertexInput,
    culling: Culling,
) -> PipelineId {
    let samples = f.samples();
    f.pipeline(PipelineDesc {
        name,
        kind: PipelineKind::Graphics(GraphicsDesc {
            vertex: shaders.0,
            fragment: Some(shaders.1),
            input,
            color: Some(NORMAL_FORMAT),
            more_colors: &[],
            depth: Some(depth_test(vk::CompareOp::LESS, true)),
            culling,
            samples,
        }),
    })
}

/// Declares the camera's depth and normals (made when a pass draws into them).
pub fn images(f: &mut FrameDeclaration) -> DepthNormals {
    let one = vk::SampleCountFlags::TYPE_1;
    let depth = image(f, "depth", DEPTH_FORMAT, ImageKind::Depth, one);
    let normals = image(f, "normals", NORMAL_FORMAT, ImageKind::Color, one);
    let samples = f.samples();
    let (depth_samples, normals_samples) = if samples == one {
        (depth, normals)
    } else {
        (
            image(
                f,
                "depth (multisampled)",
                DEPTH_FORMAT,
                ImageKind::Depth,
                samples,
            ),
            image(
                f,
                "normals (multisampled)",
                NORMAL_FORMAT,
                ImageKind::Color,
                samples,
            ),
        )
    };
    DepthNormals {
        depth,
        normals,
        depth_samples,
        normals_samples,
    }
}

/// Declares the first prepass (kept when depth or normals are read), drawing into `images`.
pub fn declare(f: &mut FrameDeclaration, culled: &Culled, images: &DepthNormals) -> Prepass {
    let vertex = f.shape.skinned_vertex_shader();
    let characters = pipeline(
        f,
        "depth+normal",
        (vertex, "depth_normal.frag"),
        VertexInput::Skinned,
        f.culling,
    );
    let ground = pipeline(
        f,
        "ground depth+normal",
        ("ground.vert", "ground_normal.frag"),
        VertexInput::Generated,
        Culling::None,
    );
    let prepass = Prepass {
        images: *images,
        pipelines: [characters, ground],
    };
    declare_pass(f, NAME, culled, &prepass, false);
    prepass
}

/// Declares the late prepass, after the occlusion test.
pub fn declare_late(f: &mut FrameDeclaration, culled: &Culled, prepass: &Prepass) {
    declare_pass(f, LATE, culled, prepass, true);
}

/// Both prepasses render depth and normals; multisampled, each resolves them at its end into
/// the single-sample images later passes read (the late one again, with what it added).
fn declare_pass(
    f: &mut FrameDeclaration,
    name: &'static str,
    culled: &Culled,
    prepass: &Prepass,
    late: bool,
) {
    let (ring, lists, pipelines, pre) = (
        f.frame.ring,
        culled.draws,
        prepass.pipelines,
        prepass.images,
    );
    let mut p = f.pass(name, move |r| {
        let color = [r.resolved_attachment(pre.normals_samples, pre.normals, Some(NO_NORMAL))?];
        let depth = r.resolved_attachment(pre.depth_samples, pre.depth, Some(FAR_DEPTH))?;
        let [characters, ground] = pipelines.map(|p| r.pipeline(p));
        let (characters, ground) = (characters?, ground?);
        r.begin_rendering(r.extent(), &color, Some(&depth));
        let result = if late {
            r.draw_characters(characters, None, &lists, None, VIEW_CAMERA_LATE)
        } else {
            r.draw_ground(ground, &[])
                .and_then(|()| r.draw_characters(characters, None, &lists, None, VIEW_CAMERA))
        };
        r.end_rendering();
        result
    });
    culled.reads(&mut p, ring);
    pre.draw_into(p);
}
