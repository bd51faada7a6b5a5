//! Recording a plan outside the frame: work that runs once in a command buffer of its own (an
//! impostor atlas baked at load, an atlas read back) declares its passes to a graph like a
//! frame's, and gets the same derived barriers, so no feature writes a barrier by hand.

use ash::vk;

use super::{BarrierScratch, Bound, Plan, ResourceId, Step, record_barriers};
use crate::gpu::device::context::GpuContext;
use crate::gpu::device::error::GpuError;

/// Records `plan` into `cmd` (recording, outside any rendering): before each step its
/// barriers, then `record` for the step; after the last, the final barriers (what imported
/// resources must be ready for afterwards). `bind` gives each resource's handle.
pub fn record_plan(
    ctx: &GpuContext,
    cmd: vk::CommandBuffer,
    plan: &Plan,
    bind: impl Fn(ResourceId) -> Bound,
    mut record: impl FnMut(&Step) -> Result<(), GpuError>,
) -> Result<(), GpuError> {
    let mut scratch = BarrierScratch::default();
    let emit = |barriers, scratch: &mut BarrierScratch| {
        record_barriers(barriers, &bind, scratch, |dependency| {
            // SAFETY: `cmd` is recording outside rendering; the caller's handles outlive it.
            unsafe { ctx.cmd_pipeline_barrier2(cmd, dependency) }
        })
        .map_err(|e| GpuError::Graph(e.to_string()))
    };
    for step in plan.steps() {
        emit(plan.barriers(step), &mut scratch)?;
        record(step)?;
    }
    emit(plan.final_barriers(), &mut scratch)
}
