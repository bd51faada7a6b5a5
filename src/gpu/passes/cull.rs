//! The culling passes: zero the counters, cull and choose levels per instance
//! (`shaders/cull.comp`), turn the counts into indirect draws (`shaders/cull_draws.comp`), and
//! copy the counters for the CPU's statistics. The graph puts the barriers between them and
//! before the draws that read their output.

use ash::vk;

use super::PassContext;
use crate::gpu::cull::CullBuffers;
use crate::gpu::cull_data::CULL_GROUP;
use crate::gpu::pipeline::{
    CULL_BOUNDS, CULL_COMMANDS, CULL_COUNTERS, CULL_DRAW_RANGES, CULL_FRAME, CULL_MODELS,
    CULL_OUTPUT, CULL_RECORDS, Pipeline,
};

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
    dispatch(
        pc,
        &pc.pipelines.cull,
        &[(CULL_OUTPUT, &output)],
        pc.instances.div_ceil(CULL_GROUP),
    );
}

/// Records the draws' dispatch: one invocation per (view, model, subset).
pub fn record_draws(pc: &PassContext<'_>) {
    let cull = pc.cull;
    let counts = whole(cull.draw_counts.buffer);
    let commands = whole(cull.commands.buffer);
    dispatch(
        pc,
        &pc.pipelines.cull_draws,
        &[(CULL_OUTPUT, &counts), (CULL_COMMANDS, &commands)],
        (cull.sizes.draws() as u32).div_ceil(CULL_GROUP),
    );
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
fn dispatch(
    pc: &PassContext<'_>,
    pipeline: &Pipeline,
    outputs: &[(u32, &[vk::DescriptorBufferInfo; 1])],
    groups: u32,
) {
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
    let mut writes = [vk::WriteDescriptorSet::default(); 8];
    writes[0] = write(CULL_RECORDS, &records);
    writes[1] = write(CULL_FRAME, &frame);
    writes[2] = write(CULL_MODELS, &models);
    writes[3] = write(CULL_BOUNDS, &bounds);
    writes[4] = write(CULL_DRAW_RANGES, &draws);
    writes[5] = write(CULL_COUNTERS, &counters);
    let mut n = 6;
    for (binding, info) in outputs.iter().take(2) {
        writes[n] = write(*binding, info);
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
