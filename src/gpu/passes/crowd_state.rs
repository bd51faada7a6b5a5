//! The crowd-state pass (when the crowd's state lives on the GPU): advances every instance's
//! clocks, clip changes and walk by one frame and writes its record into the ring slot, where
//! the CPU would otherwise have written it, listing the instances near enough to need exact
//! palettes (`shaders/crowd_state.comp`), after applying the changes made through the crowd's
//! API since the last frame (`shaders/crowd_state_apply.comp`); then points the records of the instances the CPU
//! evaluated exact palettes for at them (`shaders/crowd_state_exact.comp`). Its clocks
//! persist from frame to frame outside the graph ([`crate::gpu::crowd_state`]), so the pass
//! orders itself after the previous frame's copy of itself with a barrier of its own, and
//! makes its near list visible to the host with another.

use ash::vk;

use super::FrameDeclaration;
use super::cull::compute;
use crate::gpu::crowd_state::NEAR_HEADER;
use crate::gpu::device::buffer::whole_buffer;
use crate::gpu::device::error::GpuError;
use crate::gpu::graph::{Access, Stages};
use crate::gpu::recording::pass::{Bind, PassRecording, PipelineId};

/// The pass's name in labels, timings and statistics.
pub const NAME: &str = "crowd_state";

/// Declares the pass when the frame's key asks for the state on the GPU.
pub fn declare(f: &mut FrameDeclaration) {
    if !f.key.crowd_state {
        return;
    }
    let frame = f.frame;
    let pipelines = Pipelines {
        apply: f.pipeline(compute("crowd state changes", "crowd_state_apply.comp")),
        advance: f.pipeline(compute("crowd state", "crowd_state.comp")),
        exact: f.pipeline(compute("crowd state exact", "crowd_state_exact.comp")),
    };
    f.pass(NAME, move |r| record(r, pipelines))
        .read(frame.cull_inputs, Access::StorageRead(Stages::Compute))
        .write(frame.ring, Access::StorageReadWrite(Stages::Compute))
        .finish();
}

/// The pass's three dispatches' pipelines.
#[derive(Clone, Copy)]
struct Pipelines {
    /// The changes made through the crowd's API.
    apply: PipelineId,
    /// The frame's step and the records.
    advance: PipelineId,
    /// The near set's records pointed at their exact palettes.
    exact: PipelineId,
}

fn record(r: &PassRecording<'_>, pipelines: Pipelines) -> Result<(), GpuError> {
    let state = r.shared.crowd_state.ok_or_else(|| {
        GpuError::Graph("the crowd-state pass runs without the crowd's state".into())
    })?;
    // The near list's count and band counts start at zero (the host read the last list
    // before this frame was submitted).
    // SAFETY: recording outside rendering; the buffer holds its header.
    unsafe {
        r.ctx
            .device
            .cmd_fill_buffer(r.cmd, state.near, 0, NEAR_HEADER as u64, 0)
    };
    // The previous frame's pass read and wrote the clocks (earlier in this queue): a
    // dependency from its writes to this one's reads and writes; and from the count's fill.
    let from_fill = vk::MemoryBarrier2::default()
        .src_stage_mask(vk::PipelineStageFlags2::ALL_TRANSFER)
        .src_access_mask(vk::AccessFlags2::TRANSFER_WRITE)
        .dst_stage_mask(vk::PipelineStageFlags2::COMPUTE_SHADER)
        .dst_access_mask(READ_WRITE);
    barrier(r, &[after_compute(), from_fill]);
    let whole = whole_buffer;
    let (records, _) = r.ring_infos()?;
    let (walkers, clocks) = (whole(state.walkers), whole(state.clocks));
    let (models, clips) = (whole(state.models), whole(state.clips));
    let (times, near) = (whole(state.times), whole(state.near));
    let (exact, commands) = (whole(state.exact), whole(state.commands));
    let (inputs, base, _) = r.buffer(r.frame.cull_inputs)?;
    let frame = &r.shared.cull_layout.frame;
    let view = [vk::DescriptorBufferInfo {
        buffer: inputs,
        offset: base + frame.start as u64,
        range: (frame.end - frame.start) as u64,
    }];
    if state.command_count > 0 {
        // One invocation applies them all, in order.
        let binds = [
            Bind::buffer("Commands", &commands),
            Bind::buffer("Walkers", &walkers),
            Bind::buffer("Clocks", &clocks),
            Bind::buffer("Models", &models),
            Bind::buffer("Clips", &clips),
        ];
        let count = bytemuck::bytes_of(&state.command_count);
        run(r, pipelines.apply, count, &binds, 1)?;
        // The walkers and clocks it changed, read and written by the step.
        barrier(r, &[after_compute()]);
    }
    let binds = [
        Bind::buffer("Records", &records),
        Bind::buffer("Walkers", &walkers),
        Bind::buffer("Clocks", &clocks),
        Bind::buffer("Models", &models),
        Bind::buffer("Clips", &clips),
        Bind::buffer("CullFrame", &view),
        Bind::buffer("NearList", &near),
        Bind::buffer("FrameTimes", &times),
    ];
    let step = bytemuck::bytes_of(&state.step);
    run(r, pipelines.advance, step, &binds, state.step.count)?;
    if state.exact_count > 0 {
        // The records the step wrote, rewritten in part here.
        barrier(r, &[after_compute()]);
        let binds = [
            Bind::buffer("Records", &records),
            Bind::buffer("Exact", &exact),
        ];
        let count = bytemuck::bytes_of(&state.exact_count);
        run(r, pipelines.exact, count, &binds, state.exact_count)?;
    }
    // The near list, for the host once the frame is done.
    let to_host = vk::MemoryBarrier2::default()
        .src_stage_mask(vk::PipelineStageFlags2::COMPUTE_SHADER)
        .src_access_mask(vk::AccessFlags2::SHADER_STORAGE_WRITE)
        .dst_stage_mask(vk::PipelineStageFlags2::HOST)
        .dst_access_mask(vk::AccessFlags2::HOST_READ);
    barrier(r, &[to_host]);
    Ok(())
}

/// A compute shader's reads and writes of storage buffers.
const READ_WRITE: vk::AccessFlags2 = vk::AccessFlags2::from_raw(
    vk::AccessFlags2::SHADER_STORAGE_READ.as_raw()
        | vk::AccessFlags2::SHADER_STORAGE_WRITE.as_raw(),
);

/// Earlier compute writes of storage buffers before later compute reads and writes.
fn after_compute() -> vk::MemoryBarrier2<'static> {
    let compute = vk::PipelineStageFlags2::COMPUTE_SHADER;
    vk::MemoryBarrier2::default()
        .src_stage_mask(compute)
        .src_access_mask(vk::AccessFlags2::SHADER_STORAGE_WRITE)
        .dst_stage_mask(compute)
        .dst_access_mask(READ_WRITE)
}

/// Binds `pipeline`, pushes `constants` and `binds`, and dispatches `threads` invocations.
fn run(
    r: &PassRecording<'_>,
    pipeline: PipelineId,
    constants: &[u8],
    binds: &[Bind<'_>],
    threads: u32,
) -> Result<(), GpuError> {
    let p = r.pipeline(pipeline)?;
    r.bind(p);
    r.push_constants(p, constants)?;
    r.dispatch(p, binds, [threads, 1])
}

/// Records `barriers` (outside rendering).
fn barrier(r: &PassRecording<'_>, barriers: &[vk::MemoryBarrier2<'_>]) {
    // SAFETY: recording outside rendering.
    unsafe {
        r.ctx.cmd_pipeline_barrier2(
            r.cmd,
            &vk::DependencyInfo::default().memory_barriers(barriers),
        )
    };
}
