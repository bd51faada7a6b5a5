//! Ambient occlusion and its blur: two compute dispatches over the screen (see
//! `shaders/ssao.comp` for why compute).

use ash::vk;

use super::PassContext;
use crate::gpu::frame_graph::AO_SCALE;
use crate::gpu::graph::Extent;
use crate::gpu::pipeline::{
    COMPUTE_DEPTH, COMPUTE_FRAME, COMPUTE_INPUT, COMPUTE_NOISE, COMPUTE_OUTPUT, Pipeline,
};
use crate::gpu::shader_interface::SSAO_GROUP as GROUP;

/// Records the occlusion pass: depth and normals in, raw AO out.
pub fn record(pc: &PassContext<'_>) {
    dispatch(
        pc,
        &pc.pipelines.ssao,
        pc.normals,
        Some(pc.samplers.noise),
        pc.ao.0,
    );
}

/// Records the blur: raw AO and depth in, blurred AO out.
pub fn record_blur(pc: &PassContext<'_>) {
    dispatch(pc, &pc.pipelines.ssao_blur, pc.ao.0, None, pc.ao.1);
}

fn dispatch(
    pc: &PassContext<'_>,
    pipeline: &Pipeline,
    input: vk::ImageView,
    noise: Option<vk::ImageView>,
    output: vk::ImageView,
) {
    let screen = pc.samplers.screen;
    let depth = PassContext::image_info(pc.depth, screen);
    let input = PassContext::image_info(input, screen);
    let noise = PassContext::image_info(noise.unwrap_or(pc.samplers.white), screen);
    let frame = [pc.frame_info()];
    let output = [vk::DescriptorImageInfo {
        sampler: vk::Sampler::null(),
        image_view: output,
        image_layout: vk::ImageLayout::GENERAL,
    }];
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
    let d = &pc.ctx.device;
    // SAFETY: recording outside rendering; the graph put the inputs in
    // SHADER_READ_ONLY_OPTIMAL and the output in GENERAL.
    unsafe {
        d.cmd_bind_pipeline(pc.cmd, vk::PipelineBindPoint::COMPUTE, pipeline.pipeline);
        pc.ctx.push_descriptor.cmd_push_descriptor_set(
            pc.cmd,
            vk::PipelineBindPoint::COMPUTE,
            pc.pipelines.layouts.compute,
            0,
            &writes,
        );
        let size = Extent::TargetScaled(AO_SCALE).resolve(pc.extent);
        d.cmd_dispatch(
            pc.cmd,
            size.width.div_ceil(GROUP),
            size.height.div_ceil(GROUP),
            1,
        );
    }
}
