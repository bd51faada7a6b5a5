//! The crowd-state pass (when the crowd's state lives on the GPU): advances every instance's
//! clocks, clip changes and walk by one frame and writes its record into the ring slot, where
//! the CPU would otherwise have written it (`shaders/crowd_state.comp`). Its clocks persist
//! from frame to frame outside the graph ([`crate::gpu::crowd_state`]), so the pass orders
//! itself after the previous frame's copy of itself with a barrier of its own.

use ash::vk;

use super::FrameDeclaration;
use super::cull::compute;
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
    let pipeline = f.pipeline(compute("crowd state", "crowd_state.comp"));
    f.pass(NAME, move |r| record(r, pipeline))
        .write(frame.ring, Access::StorageWrite(Stages::Compute))
        .finish();
}

fn record(r: &PassRecording<'_>, pipeline: PipelineId) -> Result<(), GpuError> {
    let state = r.shared.crowd_state.ok_or_else(|| {
        GpuError::Graph("the crowd-state pass runs without the crowd's state".into())
    })?;
    // The previous frame's pass read and wrote the clocks (earlier in this queue): a
    // dependency from its writes to this one's reads and writes.
    let compute = vk::PipelineStageFlags2::COMPUTE_SHADER;
    let after_previous = [vk::MemoryBarrier2::default()
        .src_stage_mask(compute)
        .src_access_mask(vk::AccessFlags2::SHADER_STORAGE_WRITE)
        .dst_stage_mask(compute)
        .dst_access_mask(
            vk::AccessFlags2::SHADER_STORAGE_READ | vk::AccessFlags2::SHADER_STORAGE_WRITE,
        )];
    // SAFETY: recording outside rendering.
    unsafe {
        r.ctx.cmd_pipeline_barrier2(
            r.cmd,
            &vk::DependencyInfo::default().memory_barriers(&after_previous),
        )
    };
    let whole = |buffer| {
        [vk::DescriptorBufferInfo {
            buffer,
            offset: 0,
            range: vk::WHOLE_SIZE,
        }]
    };
    let (records, _) = r.ring_infos()?;
    let (walkers, clocks) = (whole(state.walkers), whole(state.clocks));
    let (models, clips) = (whole(state.models), whole(state.clips));
    let p = r.pipeline(pipeline)?;
    r.bind(p);
    r.push_constants(p, bytemuck::bytes_of(&state.step))?;
    r.dispatch(
        p,
        &[
            Bind::buffer("Records", &records),
            Bind::buffer("Walkers", &walkers),
            Bind::buffer("Clocks", &clocks),
            Bind::buffer("Models", &models),
            Bind::buffer("Clips", &clips),
        ],
        [state.step.count, 1],
    )
}
