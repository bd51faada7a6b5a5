//! The culling passes before the draws: zero the counters, cull and choose levels per
//! instance for the camera and the shadow map (`shaders/cull.comp`), turn the counts into
//! indirect draws (`shaders/cull_draws.comp`); and, after every draw, copy the counters for
//! the CPU's statistics. The graph puts the barriers between them and before the draws that
//! read their output. The occlusion test's passes are in [`super::occlusion`].

use ash::vk;

use super::{FrameDeclaration, PassRecording};
use crate::gpu::cull_data::{CULL_GROUP, DrawViews, EARLY_VIEWS};
use crate::gpu::device::error::GpuError;
use crate::gpu::graph::{Access, Stages};
use crate::gpu::pipeline_builder::{
    CULL_BOUNDS, CULL_CANDIDATES, CULL_COMMANDS, CULL_COUNTERS, CULL_DRAW_RANGES, CULL_FRAME,
    CULL_MODELS, CULL_OUTPUT, CULL_RECORDS, Pipeline,
};

/// Zeroes the culling counters.
pub const CLEAR: &str = "cull_clear";
/// Culling and level selection per instance, for the camera and the shadow map.
pub const CULL: &str = "cull";
/// The indirect draws of the culled lists.
pub const DRAWS: &str = "cull_draws";
/// The culling counters copied for the CPU's statistics.
pub const STATS: &str = "cull_stats";

/// Declares the clear, the culling and the draws' dispatch.
pub fn declare(f: &mut FrameDeclaration) {
    let ids = f.ids;
    let read = Access::StorageRead(Stages::Compute);
    f.pass(CLEAR, record_clear)
        .write(ids.counters, Access::TransferDst)
        .finish();
    f.pass(CULL, record_cull)
        .read(ids.ring, read)
        .read(ids.cull_inputs, read)
        .write(ids.counters, Access::StorageReadWrite(Stages::Compute))
        .write(ids.lists, Access::StorageWrite(Stages::Compute))
        .write(ids.candidates, Access::StorageWrite(Stages::Compute))
        .finish();
    declare_draws(f, DRAWS, record_draws);
}

/// Declares a dispatch turning counts into indirect draws (early or late views).
pub(super) fn declare_draws(f: &mut FrameDeclaration, name: &'static str, record: super::RecordFn) {
    let ids = f.ids;
    let read = Access::StorageRead(Stages::Compute);
    // The ring is bound like in every culling dispatch (the shaders share one layout).
    f.pass(name, record)
        .read(ids.ring, read)
        .read(ids.cull_inputs, read)
        .read(ids.counters, read)
        .write(ids.draw_counts, Access::StorageWrite(Stages::Compute))
        .write(ids.commands, Access::StorageWrite(Stages::Compute))
        .finish();
}

/// Declares the copy of every frame's counts, after every culling pass, for the statistics
/// (read a frame late, never waited for).
pub fn declare_stats(f: &mut FrameDeclaration) {
    let ids = f.ids;
    f.pass(STATS, record_stats)
        .read(ids.counters, Access::TransferSrc)
        .write(ids.stats, Access::TransferDst)
        .finish();
}

fn record_clear(r: &PassRecording<'_>) -> Result<(), GpuError> {
    let (counters, offset, size) = r.buffer(r.ids.counters)?;
    // SAFETY: recording outside rendering; the graph ordered this fill after the previous
    // use of the counters in this frame in flight.
    unsafe {
        r.ctx
            .device
            .cmd_fill_buffer(r.cmd, counters, offset, size, 0)
    };
    Ok(())
}

fn record_cull(r: &PassRecording<'_>) -> Result<(), GpuError> {
    let output = r.buffer_info(r.ids.lists)?;
    let candidates = r.buffer_info(r.ids.candidates)?;
    dispatch(
        r,
        &r.shared.pipelines.cull,
        &[
            Output::Buffer(CULL_OUTPUT, &output),
            Output::Buffer(CULL_CANDIDATES, &candidates),
        ],
        r.shared.instances.div_ceil(CULL_GROUP),
    )
}

fn record_draws(r: &PassRecording<'_>) -> Result<(), GpuError> {
    draws(r, 0, EARLY_VIEWS)
}

fn record_stats(r: &PassRecording<'_>) -> Result<(), GpuError> {
    let (counters, _, _) = r.buffer(r.ids.counters)?;
    let (stats, _, _) = r.buffer(r.ids.stats)?;
    let size = r
        .bindings
        .cull
        .counters
        .size
        .min(r.bindings.cull.stats.size);
    let region = vk::BufferCopy::default().size(size);
    // SAFETY: recording outside rendering; both buffers hold the counters' size.
    unsafe {
        r.ctx
            .device
            .cmd_copy_buffer(r.cmd, counters, stats, &[region])
    };
    Ok(())
}

/// Records the draws' dispatch of `count` views from `first`: one invocation per (view,
/// model, subset).
pub(super) fn draws(r: &PassRecording<'_>, first: usize, count: usize) -> Result<(), GpuError> {
    let counts = r.buffer_info(r.ids.draw_counts)?;
    let commands = r.buffer_info(r.ids.commands)?;
    let views = DrawViews {
        first: first as u32,
        count: count as u32,
    };
    // SAFETY: recording; the layout has this push-constant range for compute.
    unsafe {
        r.ctx.device.cmd_push_constants(
            r.cmd,
            r.shared.pipelines.layouts.cull,
            vk::ShaderStageFlags::COMPUTE,
            0,
            bytemuck::bytes_of(&views),
        );
    }
    let sizes = r.shared.cull_sizes;
    let per_view = sizes.models * sizes.subsets;
    dispatch(
        r,
        &r.shared.pipelines.cull_draws,
        &[
            Output::Buffer(CULL_OUTPUT, &counts),
            Output::Buffer(CULL_COMMANDS, &commands),
        ],
        ((count * per_view) as u32).div_ceil(CULL_GROUP),
    )
}

/// What a culling dispatch writes or reads besides the inputs every one reads.
pub(super) enum Output<'a> {
    Buffer(u32, &'a [vk::DescriptorBufferInfo; 1]),
    Image(u32, &'a [vk::DescriptorImageInfo; 1]),
}

/// Pushes the inputs every culling shader reads plus `outputs`, and dispatches `groups`.
pub(super) fn dispatch(
    r: &PassRecording<'_>,
    pipeline: &Pipeline,
    outputs: &[Output<'_>],
    groups: u32,
) -> Result<(), GpuError> {
    let (inputs, base, _) = r.buffer(r.ids.cull_inputs)?;
    let range = |range: &std::ops::Range<usize>| {
        [vk::DescriptorBufferInfo {
            buffer: inputs,
            offset: base + range.start as u64,
            range: (range.end - range.start) as u64,
        }]
    };
    let (records, _) = r.ring_infos()?;
    let layout = &r.shared.cull_layout;
    let frame = range(&layout.frame);
    let models = range(&layout.models);
    let bounds = range(&layout.bounds);
    let draws = range(&layout.draw_ranges);
    let counters = r.buffer_info(r.ids.counters)?;
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
    r.dispatch(
        pipeline,
        r.shared.pipelines.layouts.cull,
        &writes[..n],
        [groups, 1],
    );
    Ok(())
}
