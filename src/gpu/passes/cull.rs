//! The culling passes: zero the counters, cull and choose levels per instance
//! (`shaders/cull.comp`), turn the counts into indirect draws (`shaders/cull_draws.comp`), and
//! copy the counters for the CPU's statistics. The graph puts the barriers between them and
//! before the draws that read their output.

use ash::vk;

use super::PassContext;
use crate::gpu::cull::CullBuffers;
use crate::gpu::cull_data::{CULL_GROUP, DrawViews, EARLY_VIEWS, VIEW_CAMERA_LATE};
use crate::gpu::graph::Extent;
use crate::gpu::pipeline::{
    COMPUTE_DEPTH, COMPUTE_OUTPUT, CULL_BOUNDS, CULL_CANDIDATES, CULL_COMMANDS, CULL_COUNTERS,
    CULL_DRAW_RANGES, CULL_FRAME, CULL_MODELS, CULL_OCCLUSION_DEPTH, CULL_OUTPUT, CULL_RECORDS,
    Pipeline,
};
use crate::gpu::shader_interface::OCCLUSION_GROUP;

/// Records the clear: every counter to zero.
pub fn record_clear(pc: &PassContext<'_>) {
    // SAFETY: recording outside rendering; the graph ordered this fill after the previous
    // use of the counters in this frame in flight.
    unsafe {
        pc.ctx
            .device
            .cmd_fill_buffer(pc.cmd, pc.cull.counters.buffer, 0, vk::WHOLE_SIZE, 0)
    };
}

/// Records the culling dispatch: one invocation per instance record.
pub fn record_cull(pc: &PassContext<'_>) {
    let cull = pc.cull;
    let output = whole(cull.lists.buffer);
    let candidates = whole(cull.candidates.buffer);
    dispatch(
        pc,
        &pc.pipelines.cull,
        &[
            Output::Buffer(CULL_OUTPUT, &output),
            Output::Buffer(CULL_CANDIDATES, &candidates),
        ],
        pc.instances.div_ceil(CULL_GROUP),
    );
}

/// Records the occlusion test of the small instances: one invocation per instance record
/// (those past the candidates' count return at once).
pub fn record_late(pc: &PassContext<'_>) {
    let cull = pc.cull;
    let output = whole(cull.lists.buffer);
    let candidates = whole(cull.candidates.buffer);
    let occlusion = PassContext::image_info(pc.occlusion_depth, pc.samplers.screen);
    dispatch(
        pc,
        &pc.pipelines.cull_late,
        &[
            Output::Buffer(CULL_OUTPUT, &output),
            Output::Buffer(CULL_CANDIDATES, &candidates),
            Output::Image(CULL_OCCLUSION_DEPTH, &occlusion),
        ],
        pc.instances.div_ceil(CULL_GROUP),
    );
}

/// Records the draws' dispatch of the views culled before the occlusion test: one invocation
/// per (view, model, subset).
pub fn record_draws(pc: &PassContext<'_>) {
    draws(pc, 0, EARLY_VIEWS);
}

/// Records the draws' dispatch of the camera's late view.
pub fn record_draws_late(pc: &PassContext<'_>) {
    draws(pc, VIEW_CAMERA_LATE, 1);
}

fn draws(pc: &PassContext<'_>, first: usize, count: usize) {
    let cull = pc.cull;
    let counts = whole(cull.draw_counts.buffer);
    let commands = whole(cull.commands.buffer);
    let views = DrawViews {
        first: first as u32,
        count: count as u32,
    };
    // SAFETY: recording; the layout has this push-constant range for compute.
    unsafe {
        pc.ctx.device.cmd_push_constants(
            pc.cmd,
            pc.pipelines.layouts.cull,
            vk::ShaderStageFlags::COMPUTE,
            0,
            bytemuck::bytes_of(&views),
        );
    }
    let per_view = cull.sizes.models * cull.sizes.subsets;
    dispatch(
        pc,
        &pc.pipelines.cull_draws,
        &[
            Output::Buffer(CULL_OUTPUT, &counts),
            Output::Buffer(CULL_COMMANDS, &commands),
        ],
        ((count * per_view) as u32).div_ceil(CULL_GROUP),
    );
}

/// Records the occlusion image: the farthest depth of each block of the prepass's depth.
pub fn record_occlusion_depth(pc: &PassContext<'_>) {
    let depth = PassContext::image_info(pc.depth, pc.samplers.screen);
    let output = [vk::DescriptorImageInfo {
        sampler: vk::Sampler::null(),
        image_view: pc.occlusion_depth,
        image_layout: vk::ImageLayout::GENERAL,
    }];
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
    let size = Extent::TargetScaled(crate::gpu::cull_data::OCCLUSION_BLOCK).resolve(pc.extent);
    let d = &pc.ctx.device;
    // SAFETY: recording outside rendering; the graph put the depth in
    // SHADER_READ_ONLY_OPTIMAL and the occlusion image in GENERAL.
    unsafe {
        d.cmd_bind_pipeline(
            pc.cmd,
            vk::PipelineBindPoint::COMPUTE,
            pc.pipelines.occlusion_depth.pipeline,
        );
        pc.ctx.push_descriptor.cmd_push_descriptor_set(
            pc.cmd,
            vk::PipelineBindPoint::COMPUTE,
            pc.pipelines.layouts.compute,
            0,
            &writes,
        );
        d.cmd_dispatch(
            pc.cmd,
            size.width.div_ceil(OCCLUSION_GROUP),
            size.height.div_ceil(OCCLUSION_GROUP),
            1,
        );
    }
}

/// What a culling dispatch writes or reads besides the inputs every one reads.
enum Output<'a> {
    Buffer(u32, &'a [vk::DescriptorBufferInfo; 1]),
    Image(u32, &'a [vk::DescriptorImageInfo; 1]),
}

/// Records the copy of the counters into the host-readable statistics buffer.
pub fn record_stats(pc: &PassContext<'_>) {
    let cull = pc.cull;
    let region = vk::BufferCopy::default().size(cull.counters.size.min(cull.stats.size));
    // SAFETY: recording outside rendering; both buffers hold the counters' size.
    unsafe {
        pc.ctx
            .device
            .cmd_copy_buffer(pc.cmd, cull.counters.buffer, cull.stats.buffer, &[region])
    };
}

fn whole(buffer: vk::Buffer) -> [vk::DescriptorBufferInfo; 1] {
    [vk::DescriptorBufferInfo {
        buffer,
        offset: 0,
        range: vk::WHOLE_SIZE,
    }]
}

/// Pushes the inputs every culling shader reads plus `outputs`, and dispatches `groups`.
fn dispatch(pc: &PassContext<'_>, pipeline: &Pipeline, outputs: &[Output<'_>], groups: u32) {
    let cull: &CullBuffers = pc.cull;
    let range = |r: &std::ops::Range<usize>| {
        [vk::DescriptorBufferInfo {
            buffer: cull.inputs.buffer,
            offset: r.start as u64,
            range: (r.end - r.start) as u64,
        }]
    };
    let records = [vk::DescriptorBufferInfo {
        buffer: pc.ring.buffer,
        offset: pc.ring.records.0,
        range: pc.ring.records.1,
    }];
    let frame = range(&cull.layout.frame);
    let models = range(&cull.layout.models);
    let bounds = range(&cull.layout.bounds);
    let draws = range(&cull.layout.draw_ranges);
    let counters = whole(cull.counters.buffer);
    fn write(binding: u32, info: &[vk::DescriptorBufferInfo; 1]) -> vk::WriteDescriptorSet<'_> {
        vk::WriteDescriptorSet::default()
            .dst_binding(binding)
            .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
            .buffer_info(info)
    }
    let mut writes = [vk::WriteDescriptorSet::default(); 9];
    writes[0] = write(CULL_RECORDS, &records);
    writes[1] = write(CULL_FRAME, &frame);
    writes[2] = write(CULL_MODELS, &models);
    writes[3] = write(CULL_BOUNDS, &bounds);
    writes[4] = write(CULL_DRAW_RANGES, &draws);
    writes[5] = write(CULL_COUNTERS, &counters);
    let mut n = 6;
    for output in outputs.iter().take(writes.len() - n) {
        writes[n] = match output {
            Output::Buffer(binding, info) => write(*binding, info),
            Output::Image(binding, info) => vk::WriteDescriptorSet::default()
                .dst_binding(*binding)
                .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                .image_info(*info),
        };
        n += 1;
    }
    let d = &pc.ctx.device;
    // SAFETY: recording outside rendering; the buffers live until the frame completes and
    // the graph made the inputs visible to compute.
    unsafe {
        d.cmd_bind_pipeline(pc.cmd, vk::PipelineBindPoint::COMPUTE, pipeline.pipeline);
        pc.ctx.push_descriptor.cmd_push_descriptor_set(
            pc.cmd,
            vk::PipelineBindPoint::COMPUTE,
            pc.pipelines.layouts.cull,
            0,
            &writes[..n],
        );
        if groups > 0 {
            d.cmd_dispatch(pc.cmd, groups, 1, 1);
        }
    }
}
