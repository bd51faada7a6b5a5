//! Occlusion culling of the small instances: after the first prepass, the farthest depth of
//! each block (`shaders/occlusion_depth.comp`, into the occlusion image this pass makes), the
//! test of the instances the first culling pass held back against it
//! (`shaders/cull_late.comp`), and the indirect draws of what it let through, which the late
//! prepass and the forward pass draw. Declared only when the frame tests occlusion (culling
//! on, a prepass to test against).

use ash::vk;

use crate::gpu::features::cull::{Culled, declare_draws, dispatch};
use crate::gpu::features::lit::depth_normal::DepthNormals;
use crate::gpu::features::skin;
use crate::gpu::frame::culling::data::{OCCLUSION_BLOCK, VIEW_CAMERA_LATE};
use crate::gpu::frame::declaration::FrameDeclaration;
use crate::gpu::frame::declaration::compute;
use crate::gpu::frame::recording::pass::Bind;
use crate::gpu::frame::settings::SCALAR_FORMAT;
use crate::gpu::graph::{Access, Extent, ImageDesc, ImageKind, Stages};

/// The occlusion image: the farthest depth of each 8x8 block after the early prepass.
pub const DEPTH: &str = "occlusion_depth";
/// Occlusion culling of the small instances in view.
pub const CULL_LATE: &str = "cull_late";
/// The indirect draws of what the occlusion test let through.
pub const DRAWS_LATE: &str = "cull_draws_late";

/// Declares the occlusion image, the late test and its draws when the frame tests
/// occlusion; whether it does. The small instances the large ones may hide are tested
/// against the depth so far, then drawn into it (the late prepass) before anything reads it.
pub fn declare(f: &mut FrameDeclaration, culled: &Culled, prepass: &DepthNormals) -> bool {
    if !f.shape.occlusion {
        return false;
    }
    let extent = Extent::TargetScaled(OCCLUSION_BLOCK);
    let occlusion = f.image(ImageDesc {
        name: "occlusion depth",
        format: SCALAR_FORMAT,
        kind: ImageKind::Color,
        extent,
        samples: vk::SampleCountFlags::TYPE_1,
    });
    let frame = f.frame;
    let read = Access::StorageRead(Stages::Compute);
    let depth = prepass.depth;
    let farthest = f.pipeline(compute("occlusion depth", "occlusion_depth.comp"));
    f.pass(DEPTH, move |r| {
        let depth = r.image_info(depth, r.shared.samplers.screen)?;
        let output = r.image_info(occlusion, vk::Sampler::null())?;
        let size = extent.resolve(r.extent());
        r.dispatch(
            r.pipeline(farthest)?,
            &[
                Bind::image("depth_map", &depth),
                Bind::image("occlusion_out", &output),
            ],
            [size.width, size.height],
        )
    })
    .read(depth, Access::Sampled(Stages::Compute))
    .write(occlusion, Access::StorageWrite(Stages::Compute))
    .finish();
    let late = f.pipeline(compute("cull late", "cull_late.comp"));
    let c = *culled;
    // One invocation per instance record (those past the candidates' count return at once).
    f.pass(CULL_LATE, move |r| {
        let lists = r.buffer_info(c.draws.lists)?;
        let candidates = r.buffer_info(c.candidates)?;
        let occlusion = r.image_info(occlusion, r.shared.samplers.screen)?;
        dispatch(
            r,
            late,
            &c,
            &[
                Bind::buffer("Lists", &lists),
                Bind::buffer("Candidates", &candidates),
                Bind::image("occlusion_depth", &occlusion),
            ],
            r.shared.crowd.instances,
        )
    })
    .read(frame.ring, read)
    .read(frame.cull_inputs, read)
    .read(culled.candidates, read)
    .read(occlusion, Access::Sampled(Stages::Compute))
    .write(culled.counters, Access::StorageReadWrite(Stages::Compute))
    .write(culled.draws.lists, Access::StorageWrite(Stages::Compute))
    .finish();
    declare_draws(f, DRAWS_LATE, culled, VIEW_CAMERA_LATE, 1);
    skin::declare(f, skin::LATE, &culled.draws, 1);
    true
}
