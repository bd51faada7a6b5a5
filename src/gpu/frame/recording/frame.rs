//! Records a compiled frame graph into a frame in flight's command buffer: for each step,
//! its barriers (one `vkCmdPipelineBarrier2`, built by
//! [`crate::gpu::graph::record_barriers`]), a debug label and a timestamp pair around the
//! pass's own recording; then the final barriers. Allocates nothing once the scratch arrays
//! have grown.

use ash::vk;

use crate::gpu::device::context::GpuContext;
use crate::gpu::device::error::GpuError;
use crate::gpu::frame::in_flight::{InFlightFrame, MAX_PASSES};
use crate::gpu::frame::recording::bindings::FrameBindings;
use crate::gpu::frame::recording::compiled::CompiledFrame;
use crate::gpu::frame::recording::pass::{FrameShared, PassRecording};
use crate::gpu::graph::{Barrier, BarrierScratch, record_barriers};

/// Records `frame`'s graph; the command buffer is begun and ended here.
pub fn record_frame(
    ctx: &GpuContext,
    frame: &mut InFlightFrame,
    compiled: &CompiledFrame,
    shared: &FrameShared<'_>,
    bindings: &FrameBindings<'_>,
    scratch: &mut BarrierScratch,
) -> Result<vk::CommandBuffer, GpuError> {
    let cmd = frame.begin()?;
    frame.timestamp(0, vk::PipelineStageFlags2::TOP_OF_PIPE);
    frame.pass_names.clear();
    let plan = &compiled.plan;
    for step in plan.steps() {
        barriers(ctx, cmd, plan.barriers(step), bindings, scratch)?;
        // A host step (the CPU's writes) records nothing and is not timed.
        let Some(record) = compiled.recorder(step) else {
            continue;
        };
        ctx.begin_label(cmd, step.name);
        let k = frame.pass_names.len();
        let timed = k < MAX_PASSES;
        if timed {
            frame.timestamp(2 + 2 * k as u32, vk::PipelineStageFlags2::ALL_COMMANDS);
            frame.pass_names.push(step.name);
        }
        record(&PassRecording {
            ctx,
            cmd,
            shared,
            frame: compiled.frame,
            plan,
            step,
            bindings,
            pipelines: &compiled.pipelines,
        })?;
        if timed {
            frame.timestamp(3 + 2 * k as u32, vk::PipelineStageFlags2::ALL_COMMANDS);
        }
        ctx.end_label(cmd);
    }
    barriers(ctx, cmd, plan.final_barriers(), bindings, scratch)?;
    frame.timestamp(1, vk::PipelineStageFlags2::ALL_COMMANDS);
    // SAFETY: the command buffer is recording.
    unsafe { ctx.device.end_command_buffer(cmd) }
        .map_err(|result| GpuError::vulkan("ending the frame's commands", result))?;
    Ok(cmd)
}

fn barriers(
    ctx: &GpuContext,
    cmd: vk::CommandBuffer,
    barriers: &[Barrier],
    bindings: &FrameBindings<'_>,
    scratch: &mut BarrierScratch,
) -> Result<(), GpuError> {
    record_barriers(
        barriers,
        |id| bindings.bound(id),
        scratch,
        |dependency| {
            // SAFETY: `cmd` is recording outside any rendering; the handles come from this
            // frame's bindings and live until it completes.
            unsafe { ctx.cmd_pipeline_barrier2(cmd, dependency) }
        },
    )
    .map_err(|e| GpuError::Graph(e.to_string()))
}
