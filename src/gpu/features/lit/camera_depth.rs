//! The camera's depth as the ambient occlusion reads it when compute passes drew part of what
//! the camera sees: the meshes' resolved depth, the ground's where the ground pass drew it
//! (found where each pixel's ray meets the ground quad), and the nearest card's or mesh's where
//! cards or meshes were rasterized in compute (sample zero of the visibility buffer);
//! whichever is nearest, into a
//! single-channel image (`shaders/camera_depth.glsl`). Without either, the occlusion reads
//! the resolved depth itself. With multisampling and the ground in compute no lit pass
//! resolves the depth for it: this pass reads sample zero of the multisampled depth.

use ash::vk;

use crate::gpu::features::lit::depth_normal::DepthNormals;
use crate::gpu::frame::declaration::FrameDeclaration;
use crate::gpu::frame::declaration::compute;
use crate::gpu::frame::recording::pass::Bind;
use crate::gpu::frame::settings::SCALAR_FORMAT;
use crate::gpu::graph::{Access, Extent, ImageDesc, ImageKind, ResourceId, Stages};

/// The pass's name in labels, timings and statistics.
pub const NAME: &str = "camera_depth";

/// The depth the ambient occlusion reads: `images.depth`, or when the ground or the cards
/// (their `visibility` buffer) were drawn in compute, the image this declares the pass for.
pub fn declare(
    f: &mut FrameDeclaration,
    images: &DepthNormals,
    visibility: Option<ResourceId>,
) -> ResourceId {
    let ground = f.shape.ground_in_compute;
    if !ground && visibility.is_none() {
        return images.depth;
    }
    let out = f.image(ImageDesc {
        name: "camera depth",
        format: SCALAR_FORMAT,
        kind: ImageKind::Color,
        extent: Extent::Target,
        samples: vk::SampleCountFlags::TYPE_1,
    });
    // Where the lit passes leave the depth multisampled, its sample zero (what the resolve
    // would have kept) is read from it.
    let unresolved = f.lit_resolved_in_compute();
    let resolved = if unresolved {
        images.depth_samples
    } else {
        images.depth
    };
    let pipeline = f.pipeline(match (visibility, unresolved) {
        (Some(_), false) => compute("camera depth (cards)", "camera_depth_cards.comp"),
        (Some(_), true) => compute(
            "camera depth (cards, multisampled)",
            "camera_depth_cards_ms.comp",
        ),
        (None, false) => compute("camera depth", "camera_depth.comp"),
        (None, true) => compute("camera depth (multisampled)", "camera_depth_ms.comp"),
    });
    let samples = f.samples().as_raw();
    let mut p = f.pass(NAME, move |r| {
        let depth = r.image_info(resolved, r.shared.samplers.screen)?;
        let image = r.image_info(out, vk::Sampler::null())?;
        let frame = r.frame_info();
        let cards = match visibility {
            Some(v) => r.buffer_info(v)?,
            None => frame,
        };
        let binds = [
            Bind::buffer("Frame", &frame),
            Bind::image("depth_map", &depth),
            Bind::image("camera_depth", &image),
            Bind::buffer("Visibility", &cards),
        ];
        let count = if visibility.is_some() { 4 } else { 3 };
        let pipeline = r.pipeline(pipeline)?;
        r.push_constants(
            pipeline,
            bytemuck::bytes_of(&[u32::from(ground), samples, 0, 0]),
        )?;
        let extent = r.extent();
        r.dispatch(pipeline, &binds[..count], [extent.width, extent.height])
    });
    if let Some(v) = visibility {
        p.read(v, Access::StorageRead(Stages::Compute));
    }
    p.read(resolved, Access::Sampled(Stages::Compute))
        .write(out, Access::StorageWrite(Stages::Compute))
        .finish();
    out
}
