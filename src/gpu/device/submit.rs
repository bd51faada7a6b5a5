//! Submitting a recorded frame: it waits for the swapchain image where the graph first
//! touches it, and signals the timeline value that releases the frame in flight and its
//! ring slot (plus the semaphore presentation waits on, in a window).

use ash::vk;

use super::context::GpuContext;
use super::error::GpuError;
use super::targets::FrameSync;

/// Submits `cmd`. `wait_stage`: where the graph first uses the target, at which the
/// acquire semaphore (if any) is waited on; `timeline` is signalled to `value` when every
/// command has completed.
pub fn submit_frame(
    ctx: &GpuContext,
    cmd: vk::CommandBuffer,
    sync: FrameSync,
    wait_stage: vk::PipelineStageFlags2,
    timeline: (vk::Semaphore, u64),
) -> Result<(), GpuError> {
    let cmds = [vk::CommandBufferSubmitInfo::default().command_buffer(cmd)];
    // The graph's first barrier on the target waits at exactly these stages, which chains
    // it after the semaphore wait (see the graph's rules on imports).
    let waits = sync.wait.map(|s| {
        vk::SemaphoreSubmitInfo::default()
            .semaphore(s)
            .stage_mask(wait_stage)
    });
    let mut signals = [
        vk::SemaphoreSubmitInfo::default()
            .semaphore(timeline.0)
            .value(timeline.1)
            .stage_mask(vk::PipelineStageFlags2::ALL_COMMANDS),
        vk::SemaphoreSubmitInfo::default(),
    ];
    let signal_count = match sync.signal {
        Some(s) => {
            signals[1] = vk::SemaphoreSubmitInfo::default()
                .semaphore(s)
                .stage_mask(vk::PipelineStageFlags2::ALL_COMMANDS);
            2
        }
        None => 1,
    };
    let submit = vk::SubmitInfo2::default()
        .wait_semaphore_infos(waits.as_slice())
        .command_buffer_infos(&cmds)
        .signal_semaphore_infos(&signals[..signal_count]);
    ctx.submit(&[submit], vk::Fence::null())
}
