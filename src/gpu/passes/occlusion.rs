//! Occlusion culling of the small instances: after the first prepass, the farthest depth of
//! each block (`shaders/occlusion_depth.comp`), the test of the instances the first culling
//! pass held back against it (`shaders/cull_late.comp`), and the indirect draws of what it
//! let through, which the late prepass and the forward pass draw. Declared only when the
//! frame tests occlusion (culling on, a prepass to test against).

use ash::vk;

use super::cull::{Output, declare_draws, dispatch, draws};
use super::{FrameDeclaration, PassRecording};
use crate::gpu::cull_data::{CULL_GROUP, OCCLUSION_BLOCK, VIEW_CAMERA_LATE};
use crate::gpu::device::error::GpuError;
use crate::gpu::graph::{Access, Extent, Stages};
use crate::gpu::pipeline_builder::{
    COMPUTE_DEPTH, COMPUTE_OUTPUT, CULL_CANDIDATES, CULL_OCCLUSION_DEPTH, CULL_OUTPUT,
};
use crate::gpu::shader_interface::OCCLUSION_GROUP as GROUP;

/// The occlusion image: the farthest depth of each 8x8 block after the early prepass.
pub const DEPTH: &str = "occlusion_depth";
/// Occlusion culling of the small instances in view.
pub const CULL_LATE: &str = "cull_late";
/// The indirect draws of what the occlusion test let through.
pub const DRAWS_LATE: &str = "cull_draws_late";

/// Declares the occlusion image, the late test and its draws. The small instances the large
/// ones may hide are tested against the depth so far, then drawn into it (the late prepass)
/// before anything reads it.
pub fn declare(f: &mut FrameDeclaration) {
    if !f.shape.occlusion {
        return;
    }
    let ids = f.ids;
    let read = Access::StorageRead(Stages::Compute);
    f.pass(DEPTH, record_depth)
        .read(ids.depth, Access::Sampled(Stages::Compute))
        .write(ids.occlusion_depth, Access::StorageWrite(Stages::Compute))
        .finish();
    f.pass(CULL_LATE, record_late)
        .read(ids.ring, read)
        .read(ids.cull_inputs, read)
        .read(ids.candidates, read)
        .read(ids.occlusion_depth, Access::Sampled(Stages::Compute))
        .write(ids.counters, Access::StorageReadWrite(Stages::Compute))
        .write(ids.lists, Access::StorageWrite(Stages::Compute))
        .finish();
    declare_draws(f, DRAWS_LATE, record_draws_late);
}

fn record_depth(r: &PassRecording<'_>) -> Result<(), GpuError> {
    let depth = r.image_info(r.ids.depth, r.shared.samplers.screen)?;
    let output = r.image_info(r.ids.occlusion_depth, vk::Sampler::null())?;
    let writes = [
        vk::WriteDescriptorSet::default()
            .dst_binding(COMPUTE_DEPTH)
            .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
            .image_info(&depth),
        vk::WriteDescriptorSet::default()
            .dst_binding(COMPUTE_OUTPUT)
            .descriptor_type(vk::DescriptorType::STORAGE_IMAGE)
            .image_info(&output),
    ];
    let size = Extent::TargetScaled(OCCLUSION_BLOCK).resolve(r.extent());
    r.dispatch(
        &r.shared.pipelines.occlusion_depth,
        r.shared.pipelines.layouts.compute,
        &writes,
        [size.width.div_ceil(GROUP), size.height.div_ceil(GROUP)],
    );
    Ok(())
}

/// One invocation per instance record (those past the candidates' count return at once).
fn record_late(r: &PassRecording<'_>) -> Result<(), GpuError> {
    let output = r.buffer_info(r.ids.lists)?;
    let candidates = r.buffer_info(r.ids.candidates)?;
    let occlusion = r.image_info(r.ids.occlusion_depth, r.shared.samplers.screen)?;
    dispatch(
        r,
        &r.shared.pipelines.cull_late,
        &[
            Output::Buffer(CULL_OUTPUT, &output),
            Output::Buffer(CULL_CANDIDATES, &candidates),
            Output::Image(CULL_OCCLUSION_DEPTH, &occlusion),
        ],
        r.shared.instances.div_ceil(CULL_GROUP),
    )
}

fn record_draws_late(r: &PassRecording<'_>) -> Result<(), GpuError> {
    draws(r, VIEW_CAMERA_LATE, 1)
}
