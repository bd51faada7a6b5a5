//! Running a plan outside the frame: work that runs once in a command buffer of its own (an
//! impostor atlas baked at load, an atlas read back) declares its passes to a graph like a
//! frame's, and gets the same derived barriers, so no feature writes a barrier by hand.

use ash::vk;

use super::{BarrierScratch, Bound, Plan, ResourceId, Step, record_barriers};
use crate::gpu::device::context::GpuContext;
use crate::gpu::device::error::GpuError;

/// Records `plan` into a throwaway command buffer, submits it and waits
/// ([`GpuContext::run_once`], `what` naming it): before each step its barriers, then
/// `record(cmd, step)`; after the last, the final barriers (what imported resources must be
/// ready for afterwards). `bound` gives the handle of each resource the plan names.
pub fn run_plan_once(
    ctx: &GpuContext,
    what: &str,
    plan: &Plan,
    bound: &[(ResourceId, Bound)],
    mut record: impl FnMut(vk::CommandBuffer, &Step),
) -> Result<(), GpuError> {
    // A resource nothing stands for gets no barrier (the plan only puts barriers on the
    // resources its steps use, which all are bound).
    let bind = |id| {
        bound.iter().find(|(i, _)| *i == id).map_or(
            Bound::Buffer {
                buffer: vk::Buffer::null(),
                offset: 0,
                size: 0,
            },
            |&(_, b)| b,
        )
    };
    let mut scratch = BarrierScratch::default();
    let mut recorded = Ok(());
    ctx.run_once(what, |cmd| {
        let mut emit = |barriers| {
            record_barriers(barriers, bind, &mut scratch, |dependency| {
                // SAFETY: `cmd` is recording outside rendering; the caller's handles outlive
                // the wait run_once does.
                unsafe { ctx.cmd_pipeline_barrier2(cmd, dependency) }
            })
            .map_err(|e| GpuError::Graph(format!("{what}: {e}")))
        };
        recorded = (|| {
            for step in plan.steps() {
                emit(plan.barriers(step))?;
                record(cmd, step);
            }
            emit(plan.final_barriers())
        })();
    })?;
    recorded
}
