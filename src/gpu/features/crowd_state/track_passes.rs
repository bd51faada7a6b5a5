//! The playback's passes (when the crowd's state on the GPU holds a playback's pedestrians,
//! [`crate::gpu::features::crowd_state::tracks`]), between applying the crowd's changes and advancing it: the
//! slots the host assigned or emptied (`shaders/track_apply.comp`), the samples it read into
//! the slots' rings (`shaders/track_samples.comp`), then every slot's pedestrian entered,
//! placed, turned and paced (`shaders/track_step.comp`), which writes the walkers and clocks
//! the crowd-state pass then advances and records.
//!
//! Coloured by density, three more follow the step: the hash of cells is emptied
//! (`track_density_clear`), every pedestrian present is listed in its cell's bucket
//! (`shaders/track_density_insert.comp`), and each counts its neighbours in the nine cells
//! around its own and wears the ramp's look for its density (`shaders/track_density.comp`),
//! as [`crate::motion::DensityGrid`] counts them on the CPU.
//!
//! The slots and their rings are persistent buffers (the graph orders their first use after
//! the previous frame's last); the changes and samples are host-written.

use ash::vk;

use crate::gpu::device::buffer::whole_buffer;
use crate::gpu::device::error::GpuError;
use crate::gpu::features::crowd_state::state::CrowdStateBinding;
use crate::gpu::features::crowd_state::tracks::TracksBinding;
use crate::gpu::frame::declaration::FrameDeclaration;
use crate::gpu::frame::declaration::compute;
use crate::gpu::frame::recording::pass::{Bind, PassRecording, PipelineId};
use crate::gpu::graph::{Access, ResourceId, Stages};

/// The pass applying the slots' changes.
pub const APPLY: &str = "track_apply";
/// The pass writing the samples into the rings.
pub const SAMPLES: &str = "track_samples";
/// The pass placing and pacing every slot's pedestrian.
pub const STEP: &str = "track_step";
/// Colouring by density: the pass emptying the hash of cells.
pub const DENSITY_CLEAR: &str = "track_density_clear";
/// Colouring by density: the pass listing the pedestrians present by cell.
pub const DENSITY_INSERT: &str = "track_density_insert";
/// Colouring by density: the pass counting neighbours and choosing the looks.
pub const DENSITY: &str = "track_density";

/// The buffers the renderer binds by these names (from [`TracksBinding`]).
pub const TRACKS: &str = "crowd tracks";
/// See [`TRACKS`].
pub const RINGS: &str = "crowd track samples";
/// See [`TRACKS`].
pub const CHANGES: &str = "crowd track changes";
/// See [`TRACKS`].
pub const WRITES: &str = "crowd track writes";
/// See [`TRACKS`].
pub const DENSITY_HEADS: &str = "crowd track density cells";
/// See [`TRACKS`].
pub const DENSITY_NEXT: &str = "crowd track density lists";

/// The buffers of `tracks` by the names the passes import them under (null handles when the
/// crowd has none: the graph then declares none of these names).
pub fn imports(tracks: Option<&TracksBinding>) -> [(&'static str, vk::Buffer); 6] {
    let t = |f: fn(&TracksBinding) -> vk::Buffer| tracks.map_or(vk::Buffer::null(), f);
    [
        (TRACKS, t(|b| b.tracks)),
        (RINGS, t(|b| b.samples)),
        (CHANGES, t(|b| b.commands)),
        (WRITES, t(|b| b.writes)),
        (DENSITY_HEADS, t(|b| b.density_heads)),
        (DENSITY_NEXT, t(|b| b.density_next)),
    ]
}

/// Declares the passes when the frame's key asks for tracks, writing the crowd state's
/// `walkers` and `clocks`; `host` is the crowd state's host step, which also writes the
/// changes and samples.
pub fn declare(f: &mut FrameDeclaration, walkers: ResourceId, clocks: ResourceId) {
    if !f.key.tracks {
        return;
    }
    let apply = f.pipeline(compute("track changes", "track_apply.comp"));
    let samples = f.pipeline(compute("track samples", "track_samples.comp"));
    let advance = f.pipeline(compute("track step", "track_step.comp"));
    let tracks = f.persistent_buffer(TRACKS);
    let rings = f.persistent_buffer(RINGS);
    let changes = f.imported_buffer(CHANGES);
    let writes = f.imported_buffer(WRITES);
    let read = Access::StorageRead(Stages::Compute);
    let read_write = Access::StorageReadWrite(Stages::Compute);
    f.host_step("track_host")
        .write(changes, Access::HostWrite)
        .write(writes, Access::HostWrite)
        .finish();
    f.pass(APPLY, move |r| record_apply(r, apply))
        .read(changes, read)
        .write(tracks, read_write)
        .finish();
    f.pass(SAMPLES, move |r| record_samples(r, samples))
        .read(writes, read)
        .write(tracks, read_write)
        .write(rings, read_write)
        .finish();
    f.pass(STEP, move |r| record_step(r, advance))
        .read(rings, read)
        .write(tracks, read_write)
        .write(walkers, read_write)
        .write(clocks, read_write)
        .finish();
    if f.key.density {
        declare_density(f, tracks, walkers);
    }
}

/// Declares the passes counting each pedestrian's neighbours after the step has placed them
/// all (`tracks`), which dress `walkers` in their density's look.
fn declare_density(f: &mut FrameDeclaration, tracks: ResourceId, walkers: ResourceId) {
    let insert = f.pipeline(compute("track density cells", "track_density_insert.comp"));
    let count = f.pipeline(compute("track density", "track_density.comp"));
    let heads = f.persistent_buffer(DENSITY_HEADS);
    let next = f.persistent_buffer(DENSITY_NEXT);
    let read = Access::StorageRead(Stages::Compute);
    let read_write = Access::StorageReadWrite(Stages::Compute);
    f.pass(DENSITY_CLEAR, record_density_clear)
        .write(heads, Access::TransferDst)
        .finish();
    f.pass(DENSITY_INSERT, move |r| record_density(r, insert))
        .read(tracks, read)
        .write(heads, read_write)
        .write(next, read_write)
        .finish();
    f.pass(DENSITY, move |r| record_density(r, count))
        .read(heads, read)
        .read(next, read)
        .write(tracks, read_write)
        .write(walkers, read_write)
        .finish();
}

/// The crowd's state and its tracks this frame.
fn state(r: &PassRecording<'_>) -> Result<(CrowdStateBinding, TracksBinding), GpuError> {
    r.feature::<CrowdStateBinding>()
        .and_then(|s| s.tracks.map(|t| (*s, t)))
        .ok_or_else(|| GpuError::Graph("the track passes run without tracks".into()))
}

fn record_apply(r: &PassRecording<'_>, pipeline: PipelineId) -> Result<(), GpuError> {
    let (_, t) = state(r)?;
    if t.step.commands == 0 {
        return Ok(());
    }
    let (commands, tracks) = (whole_buffer(t.commands), whole_buffer(t.tracks));
    let binds = [
        Bind::buffer("Commands", &commands),
        Bind::buffer("Tracks", &tracks),
    ];
    r.run_compute(
        pipeline,
        bytemuck::bytes_of(&t.step.commands),
        &binds,
        t.step.commands,
    )
}

fn record_samples(r: &PassRecording<'_>, pipeline: PipelineId) -> Result<(), GpuError> {
    let (_, t) = state(r)?;
    if t.step.writes == 0 {
        return Ok(());
    }
    let (writes, tracks, rings) = (
        whole_buffer(t.writes),
        whole_buffer(t.tracks),
        whole_buffer(t.samples),
    );
    let binds = [
        Bind::buffer("Writes", &writes),
        Bind::buffer("Tracks", &tracks),
        Bind::buffer("Samples", &rings),
    ];
    let constants = [t.step.writes, t.step.ring];
    r.run_compute(
        pipeline,
        bytemuck::cast_slice(&constants),
        &binds,
        t.step.writes,
    )
}

fn record_step(r: &PassRecording<'_>, pipeline: PipelineId) -> Result<(), GpuError> {
    let (s, t) = state(r)?;
    if t.step.count == 0 {
        return Ok(());
    }
    let whole = whole_buffer;
    let (tracks, rings) = (whole(t.tracks), whole(t.samples));
    let (gaits, stances) = (whole(t.gaits), whole(t.stances));
    let (walkers, clocks) = (whole(s.walkers), whole(s.clocks));
    let (models, clips) = (whole(s.models), whole(s.clips));
    let binds = [
        Bind::buffer("Tracks", &tracks),
        Bind::buffer("Samples", &rings),
        Bind::buffer("GaitTable", &gaits),
        Bind::buffer("Stances", &stances),
        Bind::buffer("Walkers", &walkers),
        Bind::buffer("Clocks", &clocks),
        Bind::buffer("Models", &models),
        Bind::buffer("Clips", &clips),
    ];
    r.run_compute(pipeline, bytemuck::bytes_of(&t.step), &binds, t.step.count)
}

/// Empties every bucket of the hash of cells (all ones: no slot).
fn record_density_clear(r: &PassRecording<'_>) -> Result<(), GpuError> {
    let (_, t) = state(r)?;
    if t.density_heads == vk::Buffer::null() {
        return Err(GpuError::Graph(
            "density passes without a hash of cells".into(),
        ));
    }
    // SAFETY: recording outside rendering; the buffer was made with TRANSFER_DST.
    unsafe {
        r.ctx
            .device
            .cmd_fill_buffer(r.cmd, t.density_heads, 0, vk::WHOLE_SIZE, u32::MAX)
    };
    Ok(())
}

/// Lists every pedestrian present in its cell's bucket, or counts each one's neighbours and
/// dresses it in its density's look (the pipeline says which; it binds what it names of
/// these); one invocation per slot.
fn record_density(r: &PassRecording<'_>, pipeline: PipelineId) -> Result<(), GpuError> {
    let (s, t) = state(r)?;
    if t.step.count == 0 || t.step.density_buckets == 0 {
        return Ok(());
    }
    let whole = whole_buffer;
    let (tracks, heads, next) = (
        whole(t.tracks),
        whole(t.density_heads),
        whole(t.density_next),
    );
    let (walkers, gaits) = (whole(s.walkers), whole(t.gaits));
    let binds = [
        Bind::buffer("Tracks", &tracks),
        Bind::buffer("Heads", &heads),
        Bind::buffer("Next", &next),
        Bind::buffer("Walkers", &walkers),
        Bind::buffer("GaitTable", &gaits),
    ];
    r.run_compute(pipeline, bytemuck::bytes_of(&t.step), &binds, t.step.count)
}
