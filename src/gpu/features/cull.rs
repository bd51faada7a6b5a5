//! The culling passes before the draws: zero the counters, cull and choose levels per
//! instance for the camera and the shadow map (`shaders/cull.comp`), turn the counts into
//! indirect draws (`shaders/cull_draws.comp`), which the skin pass ([`skin`]) follows; and,
//! after every draw, copy the counters and the skin table for the CPU's statistics. The
//! culling pass makes the buffers it fills (counters, visible lists, indirect draws, the
//! impostor cards' draws, the instances held back for the occlusion test) and hands them on
//! as [`Culled`]. The occlusion test's passes are in [`crate::gpu::features::occlusion`].

use ash::vk;

use crate::crowd::visibility::LOD_LEVELS;
use crate::gpu::device::error::GpuError;
use crate::gpu::features::skin;
use crate::gpu::frame::culling::data::{
    CardCommand, DrawCommand, DrawViews, EARLY_VIEWS, LIST_LEVELS, VIEWS,
};
use crate::gpu::frame::declaration::{FrameDeclaration, compute};
use crate::gpu::frame::recording::draws::DrawLists;
use crate::gpu::frame::recording::pass::PipelineId;
use crate::gpu::frame::recording::pass::{Bind, PassRecording};
use crate::gpu::frame::resources::buffers::{BufferDesc, BufferSize};
use crate::gpu::graph::{Access, PassBuilder, ResourceId, Stages};

/// Zeroes the culling counters.
pub const CLEAR: &str = "cull_clear";
/// Culling and level selection per instance, for the camera and the shadow map.
pub const CULL: &str = "cull";
/// The indirect draws of the culled lists.
pub const DRAWS: &str = "cull_draws";
/// The culling counters copied for the CPU's statistics.
pub const STATS: &str = "cull_stats";

const STORAGE: u32 = vk::BufferUsageFlags::STORAGE_BUFFER.as_raw();
const INDIRECT: u32 = STORAGE | vk::BufferUsageFlags::INDIRECT_BUFFER.as_raw();
const NONE: BufferSize = BufferSize::ZERO;

/// Instances per view, model and list (mesh levels, cards), then the instances waiting for
/// the occlusion test.
const COUNTERS: BufferDesc = BufferDesc {
    name: "culling counters",
    size: BufferSize {
        per_counter: 4,
        ..NONE
    },
    usage: vk::BufferUsageFlags::from_raw(
        STORAGE
            | vk::BufferUsageFlags::TRANSFER_DST.as_raw()
            | vk::BufferUsageFlags::TRANSFER_SRC.as_raw(),
    ),
    host_read: false,
};
/// Record indices per view and list (mesh levels, cards).
const LISTS: BufferDesc = BufferDesc {
    name: "visible lists",
    size: BufferSize {
        per_instance: (VIEWS * LIST_LEVELS * 4) as u64,
        ..NONE
    },
    usage: vk::BufferUsageFlags::from_raw(STORAGE),
    host_read: false,
};
/// Commands per indirect draw.
const DRAW_COUNTS: BufferDesc = BufferDesc {
    name: "draw counts",
    size: BufferSize {
        per_draw: 4,
        ..NONE
    },
    usage: vk::BufferUsageFlags::from_raw(INDIRECT),
    host_read: false,
};
/// The indirect commands, up to one per level of each draw.
const COMMANDS: BufferDesc = BufferDesc {
    name: "draw commands",
    size: BufferSize {
        per_draw: (LOD_LEVELS * size_of::<DrawCommand>()) as u64,
        ..NONE
    },
    usage: vk::BufferUsageFlags::from_raw(INDIRECT),
    host_read: false,
};
/// The impostor cards' indirect draws, one per view and model.
const CARD_COMMANDS: BufferDesc = BufferDesc {
    name: "card commands",
    size: BufferSize {
        per_card_draw: size_of::<CardCommand>() as u64,
        ..NONE
    },
    usage: vk::BufferUsageFlags::from_raw(INDIRECT),
    host_read: false,
};
/// The instances waiting for the occlusion test.
const CANDIDATES: BufferDesc = BufferDesc {
    name: "occlusion candidates",
    size: BufferSize {
        per_instance: 4,
        ..NONE
    },
    usage: vk::BufferUsageFlags::from_raw(STORAGE),
    host_read: false,
};
/// The counters and the skin table copied for the CPU's statistics (read a frame late, never
/// waited for): room for both ([`skin`]'s table is sized by the counters too).
pub const STATISTICS: BufferDesc = BufferDesc {
    name: "draw statistics",
    size: BufferSize {
        fixed: 16,
        per_counter: 4 + 32,
        ..NONE
    },
    usage: vk::BufferUsageFlags::TRANSFER_DST,
    host_read: true,
};

/// What the culling pass made and filled.
#[derive(Clone, Copy, Debug)]
pub struct Culled {
    /// Instances per view, model and level (and the occlusion test's candidates' count).
    pub counters: ResourceId,
    /// The instances waiting for the occlusion test.
    pub candidates: ResourceId,
    /// What the skinned passes draw.
    pub draws: DrawLists,
    /// The impostor cards' draws, `[view][model]` ([`CardCommand`]); their instances are in
    /// the visible lists.
    pub cards: ResourceId,
}

impl Culled {
    /// A skinned pass's reads: the ring (records and palettes), the visible lists and the
    /// indirect draws.
    pub fn reads(&self, p: &mut PassBuilder<'_>, ring: ResourceId) {
        let vertex = Access::StorageRead(Stages::Vertex);
        p.read(ring, vertex)
            .read(self.draws.lists, vertex)
            .read(self.draws.draw_counts, Access::IndirectRead)
            .read(self.draws.commands, Access::IndirectRead)
            .read(self.draws.skin_table, vertex)
            .read(self.draws.skinned, vertex);
    }

    /// A card pass's reads: the records, the visible lists and the cards' draws.
    pub fn reads_cards(&self, p: &mut PassBuilder<'_>, ring: ResourceId) {
        let vertex = Access::StorageRead(Stages::Vertex);
        p.read(ring, vertex)
            .read(self.draws.lists, vertex)
            .read(self.cards, Access::IndirectRead);
    }
}

/// Declares the clear, the culling and the draws' dispatch; returns what they fill.
pub fn declare(f: &mut FrameDeclaration) -> Culled {
    let (skin_table, skinned) = skin::buffers(f);
    let culled = Culled {
        counters: f.buffer(COUNTERS),
        candidates: f.buffer(CANDIDATES),
        draws: DrawLists {
            lists: f.buffer(LISTS),
            draw_counts: f.buffer(DRAW_COUNTS),
            commands: f.buffer(COMMANDS),
            skin_table,
            skinned,
        },
        cards: f.buffer(CARD_COMMANDS),
    };
    let frame = f.frame;
    let read = Access::StorageRead(Stages::Compute);
    let counters = culled.counters;
    let table = culled.draws.skin_table;
    f.pass(CLEAR, move |r| clear(r, &[counters, table]))
        .write(culled.counters, Access::TransferDst)
        .write(table, Access::TransferDst)
        .finish();
    let cull = f.pipeline(compute("cull", "cull.comp"));
    f.pass(CULL, move |r| {
        let lists = r.buffer_info(culled.draws.lists)?;
        let candidates = r.buffer_info(culled.candidates)?;
        dispatch(
            r,
            cull,
            &culled,
            &[
                Bind::buffer("Lists", &lists),
                Bind::buffer("Candidates", &candidates),
            ],
            r.shared.crowd.instances,
        )
    })
    .read(frame.ring, read)
    .read(frame.cull_inputs, read)
    .write(culled.counters, Access::StorageReadWrite(Stages::Compute))
    .write(culled.draws.lists, Access::StorageWrite(Stages::Compute))
    .write(culled.candidates, Access::StorageWrite(Stages::Compute))
    .finish();
    declare_draws(f, DRAWS, &culled, 0, EARLY_VIEWS);
    skin::declare(f, skin::NAME, &culled.draws, 0);
    culled
}

/// Declares a dispatch turning the counts of `count` views from `first` into indirect
/// draws.
pub(super) fn declare_draws(
    f: &mut FrameDeclaration,
    name: &'static str,
    culled: &Culled,
    first: usize,
    count: usize,
) {
    let frame = f.frame;
    let read = Access::StorageRead(Stages::Compute);
    let pipeline = f.pipeline(compute("cull draws", "cull_draws.comp"));
    let culled = *culled;
    f.pass(name, move |r| draws(r, pipeline, &culled, first, count))
        .read(frame.ring, read)
        .read(frame.cull_inputs, read)
        .read(culled.counters, read)
        .write(
            culled.draws.draw_counts,
            Access::StorageWrite(Stages::Compute),
        )
        .write(culled.draws.commands, Access::StorageWrite(Stages::Compute))
        .write(culled.cards, Access::StorageWrite(Stages::Compute))
        .write(
            culled.draws.skin_table,
            Access::StorageReadWrite(Stages::Compute),
        )
        .finish();
}

/// Declares the copy of every frame's counts and skin table, after every culling pass, for
/// the statistics (read a frame late, never waited for).
pub fn declare_stats(f: &mut FrameDeclaration, culled: &Culled) {
    let stats = f.buffer(STATISTICS);
    let counters = culled.counters;
    let table = culled.draws.skin_table;
    f.pass(STATS, move |r| copy_stats(r, [counters, table], stats))
        .read(counters, Access::TransferSrc)
        .read(table, Access::TransferSrc)
        .write(stats, Access::TransferDst)
        .finish();
}

fn clear(r: &PassRecording<'_>, buffers: &[ResourceId]) -> Result<(), GpuError> {
    for &id in buffers {
        let (buffer, offset, size) = r.buffer(id)?;
        // SAFETY: recording outside rendering; the graph ordered this fill after the previous
        // use of the buffer in this frame in flight.
        unsafe { r.ctx.device.cmd_fill_buffer(r.cmd, buffer, offset, size, 0) };
    }
    Ok(())
}

fn copy_stats(
    r: &PassRecording<'_>,
    sources: [ResourceId; 2],
    stats: ResourceId,
) -> Result<(), GpuError> {
    let (stats, stats_offset, stats_size) = r.buffer(stats)?;
    let mut at = 0;
    for id in sources {
        let (source, offset, size) = r.buffer(id)?;
        let size = size.min(stats_size.saturating_sub(at));
        let region = vk::BufferCopy::default()
            .src_offset(offset)
            .dst_offset(stats_offset + at)
            .size(size);
        if size > 0 {
            // SAFETY: recording outside rendering; the region lies within both buffers.
            unsafe {
                r.ctx
                    .device
                    .cmd_copy_buffer(r.cmd, source, stats, &[region])
            };
        }
        at += size;
    }
    Ok(())
}

/// Records the draws' dispatch of `count` views from `first`: one invocation per (view,
/// model, subset).
fn draws(
    r: &PassRecording<'_>,
    pipeline: PipelineId,
    culled: &Culled,
    first: usize,
    count: usize,
) -> Result<(), GpuError> {
    let counts = r.buffer_info(culled.draws.draw_counts)?;
    let commands = r.buffer_info(culled.draws.commands)?;
    let cards = r.buffer_info(culled.cards)?;
    let table = r.buffer_info(culled.draws.skin_table)?;
    let views = DrawViews {
        first: first as u32,
        count: count as u32,
    };
    let p = r.pipeline(pipeline)?;
    r.bind(p);
    r.push_constants(p, bytemuck::bytes_of(&views))?;
    let sizes = r.shared.crowd.cull_sizes;
    let per_view = sizes.models * sizes.subsets;
    dispatch(
        r,
        pipeline,
        culled,
        &[
            Bind::buffer("DrawCounts", &counts),
            Bind::buffer("DrawCommands", &commands),
            Bind::buffer("CardCommands", &cards),
            Bind::buffer("SkinTable", &table),
        ],
        (count * per_view) as u32,
    )
}

/// Pushes the inputs every culling shader reads plus `outputs`, and dispatches an
/// invocation for each of `threads`.
pub(super) fn dispatch(
    r: &PassRecording<'_>,
    pipeline: PipelineId,
    culled: &Culled,
    outputs: &[Bind<'_>],
    threads: u32,
) -> Result<(), GpuError> {
    let (records, _) = r.ring_infos()?;
    let layout = &r.shared.crowd.cull_layout;
    let frame = r.cull_input(&layout.frame)?;
    let models = r.cull_input(&layout.models)?;
    let bounds = r.cull_input(&layout.bounds)?;
    let draw_ranges = r.cull_input(&layout.draw_ranges)?;
    let counters = r.buffer_info(culled.counters)?;
    let mut binds = [Bind::buffer("Records", &records); 11];
    let inputs = [
        Bind::buffer("CullFrame", &frame),
        Bind::buffer("Models", &models),
        Bind::buffer("Bounds", &bounds),
        Bind::buffer("DrawRanges", &draw_ranges),
        Bind::buffer("Counters", &counters),
    ];
    binds[1..6].copy_from_slice(&inputs);
    let n = 6 + outputs.len().min(binds.len() - 6);
    binds[6..n].copy_from_slice(&outputs[..n - 6]);
    r.dispatch(r.pipeline(pipeline)?, &binds[..n], [threads, 1])
}
