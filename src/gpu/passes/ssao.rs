//! Ambient occlusion and its blur: two compute dispatches over the half-size screen (see
//! `shaders/ssao.comp` for why compute). Kept when the forward pass or the AO view reads
//! the result.

use ash::vk;

use super::{AO_SCALE, FrameDeclaration, PassRecording};
use crate::gpu::device::error::GpuError;
use crate::gpu::graph::{Access, Extent, ResourceId, Stages};
use crate::gpu::pipeline_builder::{
    COMPUTE_DEPTH, COMPUTE_FRAME, COMPUTE_INPUT, COMPUTE_NOISE, COMPUTE_OUTPUT, Pipeline,
};
use crate::gpu::shader_interface::SSAO_GROUP as GROUP;

/// The occlusion pass's name in labels, timings and statistics.
pub const NAME: &str = "ssao";
/// The blur's name.
pub const BLUR: &str = "ssao_blur";

/// Declares the occlusion (depth and normals in, raw AO out) and its blur (raw AO and depth
/// in, blurred AO out).
pub fn declare(f: &mut FrameDeclaration) {
    let ids = f.ids;
    let compute = Access::Sampled(Stages::Compute);
    f.pass(NAME, record)
        .read(ids.depth, compute)
        .read(ids.normals, compute)
        .write(ids.ao_raw, Access::StorageWrite(Stages::Compute))
        .finish();
    f.pass(BLUR, record_blur)
        .read(ids.ao_raw, compute)
        .read(ids.depth, compute)
        .write(ids.ao, Access::StorageWrite(Stages::Compute))
        .finish();
}

fn record(r: &PassRecording<'_>) -> Result<(), GpuError> {
    let noise = PassRecording::fixed_image(r.shared.samplers.noise, r.shared.samplers.screen);
    dispatch(
        r,
        &r.shared.pipelines.ssao,
        r.ids.normals,
        noise,
        r.ids.ao_raw,
    )
}

fn record_blur(r: &PassRecording<'_>) -> Result<(), GpuError> {
    // The blur reads no noise; the binding still needs a valid image.
    let white = PassRecording::fixed_image(r.shared.samplers.white, r.shared.samplers.screen);
    dispatch(
        r,
        &r.shared.pipelines.ssao_blur,
        r.ids.ao_raw,
        white,
        r.ids.ao,
    )
}

fn dispatch(
    r: &PassRecording<'_>,
    pipeline: &Pipeline,
    input: ResourceId,
    noise: [vk::DescriptorImageInfo; 1],
    output: ResourceId,
) -> Result<(), GpuError> {
    let screen = r.shared.samplers.screen;
    let depth = r.image_info(r.ids.depth, screen)?;
    let input = r.image_info(input, screen)?;
    let output = r.image_info(output, vk::Sampler::null())?;
    let frame = r.frame_info();
    let sampled = vk::DescriptorType::COMBINED_IMAGE_SAMPLER;
    let writes = [
        vk::WriteDescriptorSet::default()
            .dst_binding(COMPUTE_DEPTH)
            .descriptor_type(sampled)
            .image_info(&depth),
        vk::WriteDescriptorSet::default()
            .dst_binding(COMPUTE_INPUT)
            .descriptor_type(sampled)
            .image_info(&input),
        vk::WriteDescriptorSet::default()
            .dst_binding(COMPUTE_FRAME)
            .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER)
            .buffer_info(&frame),
        vk::WriteDescriptorSet::default()
            .dst_binding(COMPUTE_NOISE)
            .descriptor_type(sampled)
            .image_info(&noise),
        vk::WriteDescriptorSet::default()
            .dst_binding(COMPUTE_OUTPUT)
            .descriptor_type(vk::DescriptorType::STORAGE_IMAGE)
            .image_info(&output),
    ];
    let size = Extent::TargetScaled(AO_SCALE).resolve(r.extent());
    r.dispatch(
        pipeline,
        r.shared.pipelines.layouts.compute,
        &writes,
        [size.width.div_ceil(GROUP), size.height.div_ceil(GROUP)],
    );
    Ok(())
}
