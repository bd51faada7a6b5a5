//! The skin pass: after each culling pass, every vertex of every listed instance that the
//! culling's draws pass found room for is skinned once, in the world, by
//! `shaders/skin.comp` (one indirect dispatch per model, its workgroups counted by the draws
//! pass), and the skinned passes read it instead of skinning in their vertex shaders
//! ([`crate::gpu::frame::skinning`] says why). The skin table and the skinned vertices are
//! made here and handed on with the culled lists ([`DrawLists`]); the table is cleared with
//! the culling counters.

use ash::vk;

use crate::gpu::device::buffer::whole_buffer;
use crate::gpu::device::error::GpuError;
use crate::gpu::frame::culling::data::SkinTarget;
use crate::gpu::frame::declaration::{FrameDeclaration, compute};
use crate::gpu::frame::recording::draws::DrawLists;
use crate::gpu::frame::recording::pass::{Bind, PassRecording, PipelineId};
use crate::gpu::frame::resources::buffers::{BufferDesc, BufferSize};
use crate::gpu::frame::skinning::SkinTable;
use crate::gpu::graph::{Access, ResourceId, Stages};

/// The skin pass of the lists built before the occlusion test (the camera's and the sun's).
pub const NAME: &str = "skin";
/// The skin pass of the camera's late list (what the occlusion test let through).
pub const LATE: &str = "skin_late";

/// The skin table (`shaders/skin_table.glsl`): a 16-byte header, three indirect dispatches
/// per model (the skin pass's two, the mesh raster's) and an entry per view, model and mesh
/// level, 32 bytes each; sized by the counters (a view, model and list each, plus one), which
/// number more. Copied for the statistics.
const TABLE: BufferDesc = BufferDesc {
    name: "skin table",
    size: BufferSize {
        fixed: 16,
        per_counter: 32,
        ..BufferSize::ZERO
    },
    usage: vk::BufferUsageFlags::from_raw(
        vk::BufferUsageFlags::STORAGE_BUFFER.as_raw()
            | vk::BufferUsageFlags::INDIRECT_BUFFER.as_raw()
            | vk::BufferUsageFlags::TRANSFER_DST.as_raw()
            | vk::BufferUsageFlags::TRANSFER_SRC.as_raw(),
    ),
    host_read: false,
};

/// Declares the skin table and the skinned vertices' buffer, in that order. The buffer holds
/// what the crowd could fill, at most as many bytes as the settings give it (the culling
/// inputs' capacity is the same bound), and 16 when the vertex shaders skin (the shaders bind
/// it either way).
pub fn buffers(f: &mut FrameDeclaration) -> (ResourceId, ResourceId) {
    let most = u64::from(f.settings.skin_vec4s()) * 16;
    let size = match most {
        0 => BufferSize::ZERO,
        most => BufferSize {
            per_skin_vec4: 16,
            most,
            ..BufferSize::ZERO
        },
    };
    let table = f.buffer(TABLE);
    let vertices = f.buffer(BufferDesc {
        name: "skinned vertices",
        size,
        usage: vk::BufferUsageFlags::STORAGE_BUFFER,
        host_read: false,
    });
    (table, vertices)
}

/// Declares the skin pass `name` of `phase` (0: the lists before the occlusion test; 1: the
/// late one) after the draws pass that planned it, where the frame skins in compute.
pub fn declare(f: &mut FrameDeclaration, name: &'static str, lists: &DrawLists, phase: u32) {
    if !f.shape.skin_pass {
        return;
    }
    let frame = f.frame;
    let pipeline = f.pipeline(compute("skin", "skin.comp"));
    let read = Access::StorageRead(Stages::Compute);
    let lists = *lists;
    f.pass(name, move |r| record(r, pipeline, &lists, phase))
        .read(frame.ring, read)
        .read(lists.lists, read)
        .read(lists.skin_table, read)
        .read(lists.skin_table, Access::IndirectRead)
        .write(lists.skinned, Access::StorageWrite(Stages::Compute))
        .finish();
}

/// One indirect dispatch per model with instances.
fn record(
    r: &PassRecording<'_>,
    pipeline: PipelineId,
    lists: &DrawLists,
    phase: u32,
) -> Result<(), GpuError> {
    let crowd = &r.shared.crowd;
    let (records, palettes) = r.ring_infos()?;
    let baked = whole_buffer(crowd.baked);
    let visible = r.buffer_info(lists.lists)?;
    let table = r.buffer_info(lists.skin_table)?;
    let vertices = r.buffer_info(lists.skinned)?;
    let (table_buffer, table_offset, _) = r.buffer(lists.skin_table)?;
    let p = r.pipeline(pipeline)?;
    r.bind(p);
    let layout = SkinTable {
        models: crowd.models.len(),
    };
    for (m, (model, range)) in crowd.models.iter().zip(crowd.ranges).enumerate() {
        if range.is_empty() {
            continue;
        }
        let levels = whole_buffer(model.skin_levels.buffer);
        let mesh = whole_buffer(model.vertices.buffer);
        r.push(
            p,
            &[
                Bind::buffer("Records", &records),
                Bind::buffer("Palettes", &palettes),
                Bind::buffer("Baked", &baked),
                Bind::buffer("Visible", &visible),
                Bind::buffer("SkinTable", &table),
                Bind::buffer("Skinned", &vertices),
                Bind::buffer("SkinLevels", &levels),
                Bind::buffer("MeshVertices", &mesh),
            ],
        )?;
        let target = SkinTarget {
            model: m as u32,
            phase,
        };
        r.push_constants(p, bytemuck::bytes_of(&target))?;
        let args = table_offset + 4 * layout.args(phase as usize, m) as u64;
        // SAFETY: recording outside rendering; the draws pass the graph ordered before this
        // one wrote the dispatch (at most SKIN_MAX_VEC4S / SKIN_GROUP + 16 workgroups).
        unsafe {
            r.ctx
                .device
                .cmd_dispatch_indirect(r.cmd, table_buffer, args)
        };
    }
    Ok(())
}
