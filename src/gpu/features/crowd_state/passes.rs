//! The crowd-state passes (when the crowd's state lives on the GPU): apply the changes made
//! through the crowd's API since the last frame (`shaders/crowd_state_apply.comp`), advance
//! every instance's clocks, clip changes and walk by one frame and write its record into the
//! ring slot, where the CPU would otherwise have written it, listing the instances near
//! enough to need exact palettes (`shaders/crowd_state.comp`), then point the records of the
//! instances the CPU evaluated exact palettes for at them (`shaders/crowd_state_exact.comp`).
//!
//! The state is the feature's own ([`crate::gpu::features::crowd_state::state`]), imported into the graph each
//! frame: the walkers and clocks as persistent buffers (the graph orders their first use
//! after the previous frame's last), the near list as a buffer the host reads afterwards, and
//! the changes and exact instances as host-written buffers. Every barrier is the graph's.

use ash::vk;

use crate::gpu::device::buffer::whole_buffer;
use crate::gpu::device::error::GpuError;
use crate::gpu::features::crowd_state::state::{CrowdStateBinding, NEAR_HEADER};
use crate::gpu::frame::declaration::FrameDeclaration;
use crate::gpu::frame::declaration::compute;
use crate::gpu::frame::recording::pass::{Bind, PassRecording, PipelineId};
use crate::gpu::graph::{Access, Stages};

/// The main pass's name in labels, timings and statistics (the step and the records).
pub const NAME: &str = "crowd_state";
/// The pass applying the changes made through the crowd's API.
pub const APPLY: &str = "crowd_state_apply";
/// The pass pointing the near set's records at their exact palettes.
pub const EXACT: &str = "crowd_state_exact";
/// The pass clearing the near list's counts.
pub const CLEAR: &str = "crowd_state_clear";
/// The host's part: the changes and the exact instances written before submission.
pub const HOST: &str = "crowd_state_host";

/// The buffers the renderer binds by these names (from [`CrowdStateBinding`]).
pub const WALKERS: &str = "crowd state walkers";
/// See [`WALKERS`].
pub const CLOCKS: &str = "crowd state clocks";
/// See [`WALKERS`].
pub const NEAR: &str = "crowd state near list";
/// See [`WALKERS`].
pub const EXACT_LIST: &str = "crowd state exact instances";
/// See [`WALKERS`].
pub const COMMANDS: &str = "crowd state changes";

/// The buffers of `state` by the names the passes import them under (its tracks' too).
pub fn imports(state: &CrowdStateBinding) -> [(&'static str, vk::Buffer); 11] {
    let [a, b, c, d, e, g] =
        crate::gpu::features::crowd_state::track_passes::imports(state.tracks.as_ref());
    [
        (WALKERS, state.walkers),
        (CLOCKS, state.clocks),
        (NEAR, state.near),
        (EXACT_LIST, state.exact),
        (COMMANDS, state.commands),
        a,
        b,
        c,
        d,
        e,
        g,
    ]
}

/// Declares the passes when the frame's key asks for the state on the GPU.
pub fn declare(f: &mut FrameDeclaration) {
    if !f.key.crowd_state {
        return;
    }
    let frame = f.frame;
    let apply = f.pipeline(compute("crowd state changes", "crowd_state_apply.comp"));
    let advance = f.pipeline(compute("crowd state", "crowd_state.comp"));
    let exact = f.pipeline(compute("crowd state exact", "crowd_state_exact.comp"));
    let walkers = f.persistent_buffer(WALKERS);
    let clocks = f.persistent_buffer(CLOCKS);
    let near = f.host_read_buffer(NEAR);
    let exact_list = f.imported_buffer(EXACT_LIST);
    let commands = f.imported_buffer(COMMANDS);
    let read = Access::StorageRead(Stages::Compute);
    let read_write = Access::StorageReadWrite(Stages::Compute);
    f.host_step(HOST)
        .write(commands, Access::HostWrite)
        .write(exact_list, Access::HostWrite)
        .finish();
    f.pass(CLEAR, record_clear)
        .write(near, Access::TransferDst)
        .finish();
    f.pass(APPLY, move |r| record_apply(r, apply))
        .read(commands, read)
        .write(walkers, read_write)
        .write(clocks, read_write)
        .finish();
    crate::gpu::features::crowd_state::track_passes::declare(f, walkers, clocks);
    f.pass(NAME, move |r| record_advance(r, advance))
        .read(frame.cull_inputs, read)
        .read(walkers, read)
        .write(clocks, read_write)
        .write(frame.ring, read_write)
        .write(near, read_write)
        .finish();
    f.pass(EXACT, move |r| record_exact(r, exact))
        .read(exact_list, read)
        .write(frame.ring, read_write)
        .finish();
}

/// The crowd's state this frame, which the passes run with.
fn state(r: &PassRecording<'_>) -> Result<CrowdStateBinding, GpuError> {
    r.feature::<CrowdStateBinding>().copied().ok_or_else(|| {
        GpuError::Graph("the crowd-state passes run without the crowd's state".into())
    })
}

/// The near list's count and band counts start at zero (the host read the last list before
/// this frame was submitted).
fn record_clear(r: &PassRecording<'_>) -> Result<(), GpuError> {
    let state = state(r)?;
    // SAFETY: recording outside rendering; the buffer holds its header.
    unsafe {
        r.ctx
            .device
            .cmd_fill_buffer(r.cmd, state.near, 0, NEAR_HEADER as u64, 0)
    };
    Ok(())
}

/// The changes, one invocation applying them all in order (none: nothing to dispatch).
fn record_apply(r: &PassRecording<'_>, pipeline: PipelineId) -> Result<(), GpuError> {
    let state = state(r)?;
    if state.command_count == 0 {
        return Ok(());
    }
    let whole = whole_buffer;
    let (commands, walkers) = (whole(state.commands), whole(state.walkers));
    let (clocks, models, clips) = (whole(state.clocks), whole(state.models), whole(state.clips));
    let binds = [
        Bind::buffer("Commands", &commands),
        Bind::buffer("Walkers", &walkers),
        Bind::buffer("Clocks", &clocks),
        Bind::buffer("Models", &models),
        Bind::buffer("Clips", &clips),
    ];
    let count = bytemuck::bytes_of(&state.command_count);
    r.run_compute(pipeline, count, &binds, 1)
}

/// The frame's step: every instance advanced and its record written.
fn record_advance(r: &PassRecording<'_>, pipeline: PipelineId) -> Result<(), GpuError> {
    let state = state(r)?;
    let whole = whole_buffer;
    let (records, _) = r.ring_infos()?;
    let view = r.cull_input(&r.shared.crowd.cull_layout.frame)?;
    let (walkers, clocks) = (whole(state.walkers), whole(state.clocks));
    let (models, clips) = (whole(state.models), whole(state.clips));
    let (near, times) = (whole(state.near), whole(state.times));
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
    r.run_compute(pipeline, step, &binds, state.step.count)
}

/// The records of the instances the CPU evaluated exact palettes for, pointed at them.
fn record_exact(r: &PassRecording<'_>, pipeline: PipelineId) -> Result<(), GpuError> {
    let state = state(r)?;
    if state.exact_count == 0 {
        return Ok(());
    }
    let (records, _) = r.ring_infos()?;
    let exact = whole_buffer(state.exact);
    let binds = [
        Bind::buffer("Records", &records),
        Bind::buffer("Exact", &exact),
    ];
    let count = bytemuck::bytes_of(&state.exact_count);
    r.run_compute(pipeline, count, &binds, state.exact_count)
}
