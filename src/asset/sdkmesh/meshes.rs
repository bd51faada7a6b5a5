//! Meshes and subsets.
//!
//! A mesh (224 bytes) is `Name char[100]`, `NumVertexBuffers u8`, `VertexBuffers u32[16]`,
//! `IndexBuffer u32`, `NumSubsets u32`, `NumFrameInfluences u32`, a bounding box (6 f32, not
//! needed), then the offsets (u64) of its subset list (u32 subset indices) and of its bone list
//! (u32 frame indices, which its vertices' blend indices index). A subset (144 bytes) is
//! `Name char[100]`, `MaterialID u32`, `PrimitiveType u32`, then `IndexStart`, `IndexCount`,
//! `VertexStart`, `VertexCount` (u64), ranges of the mesh's buffers; a subset's index `i` names
//! vertex `VertexStart + i` (Direct3D's base vertex).

use super::buffers::{IndexBuffer, VertexBuffer};
use super::bytes::{Bytes, Result, name_at, show, u8_at, u32_at, u64_at};
use super::header::Table;
use crate::asset::ErrorKind;

const MESH_SIZE: usize = 224;
const SUBSET_SIZE: usize = 144;
const NAME_LEN: usize = 100;
/// Vertex streams a mesh may name (`MAX_VERTEX_STREAMS`).
const MAX_STREAMS: u8 = 16;

/// The primitive types of the format (`SDKMESH_PRIMITIVE_TYPE`), for error messages.
const PRIMITIVE_NAMES: [&str; 10] = [
    "triangle list",
    "triangle strip",
    "line list",
    "line strip",
    "point list",
    "triangle list with adjacency",
    "triangle strip with adjacency",
    "line list with adjacency",
    "line strip with adjacency",
    "quad patch list",
];

/// One mesh, its references checked.
pub(super) struct Mesh {
    pub(super) name: String,
    pub(super) vertex_buffer: usize,
    pub(super) index_buffer: usize,
    pub(super) subsets: Vec<usize>,
    /// Frame indices (file order) the blend indices of its vertices index.
    pub(super) influences: Vec<usize>,
}

/// One subset, its material checked.
pub(super) struct Subset {
    pub(super) material: usize,
    pub(super) index_start: u64,
    pub(super) index_count: u64,
    pub(super) vertex_start: u64,
}

/// Reads the subset table (`materials` materials exist).
pub(super) fn read_subsets(b: &Bytes, table: Table, materials: usize) -> Result<Vec<Subset>> {
    let section = super::SUBSETS;
    let records = b.table(
        section,
        table.offset,
        u64::from(table.count),
        SUBSET_SIZE,
        "subsets",
    )?;
    let mut subsets = Vec::with_capacity(table.count as usize);
    for (i, s) in records.chunks_exact(SUBSET_SIZE).enumerate() {
        let name = name_at(s, 0, NAME_LEN);
        let record = format!("subset {i} ({})", show(&name));
        let fail = |kind, why: String| b.error(section, kind, why).at_record(record.clone());
        let (material, primitive) = (u32_at(s, 100), u32_at(s, 104));
        if primitive != 0 {
            let what = PRIMITIVE_NAMES.get(primitive as usize).map_or_else(
                || format!("unknown primitive type {primitive}"),
                |n| (*n).to_string(),
            );
            return Err(fail(
                ErrorKind::Unsupported,
                format!("{what}; only triangle lists are drawn"),
            ));
        }
        if material as usize >= materials {
            return Err(fail(
                ErrorKind::IndexOutOfRange,
                format!("material {material}, but there are {materials} materials"),
            ));
        }
        let index_count = u64_at(s, 120);
        if !index_count.is_multiple_of(3) {
            return Err(fail(
                ErrorKind::Invalid,
                format!("{index_count} indices is not a whole number of triangles"),
            ));
        }
        subsets.push(Subset {
            material: material as usize,
            index_start: u64_at(s, 112),
            index_count,
            vertex_start: u64_at(s, 128),
        });
    }
    Ok(subsets)
}

/// The file's buffers and tables meshes refer to, for checking references.
pub(super) struct Targets<'s, 'a> {
    pub(super) vertex_buffers: &'s [VertexBuffer<'a>],
    pub(super) index_buffers: &'s [IndexBuffer<'a>],
    pub(super) subsets: &'s [Subset],
    pub(super) frames: usize,
}

/// Meshes may list the same subsets many times; the indices checked across all meshes are
/// capped at this many times the file's indices, so checking cannot take quadratic time.
const MAX_CHECKS: u64 = 4;

/// Reads the mesh table and checks every reference and every index of every subset.
pub(super) fn read_meshes(b: &Bytes, table: Table, targets: &Targets) -> Result<Vec<Mesh>> {
    let section = super::MESHES;
    let records = b.table(
        section,
        table.offset,
        u64::from(table.count),
        MESH_SIZE,
        "meshes",
    )?;
    let mut meshes = Vec::with_capacity(table.count as usize);
    let file_indices: u64 = targets.index_buffers.iter().map(|i| i.count as u64).sum();
    let mut budget = file_indices.saturating_mul(MAX_CHECKS);
    for (i, m) in records.chunks_exact(MESH_SIZE).enumerate() {
        let name = name_at(m, 0, NAME_LEN);
        let record = format!("mesh {i} ({})", show(&name));
        let mesh = read_mesh(b, m, name, targets, &mut budget).map_err(|e| {
            let e = if e.section.is_none() {
                e.in_section(section)
            } else {
                e
            };
            match e.record.clone() {
                Some(inner) => e.at_record(format!("{record} {inner}")),
                None => e.at_record(record.clone()),
            }
        })?;
        meshes.push(mesh);
    }
    Ok(meshes)
}

fn read_mesh(b: &Bytes, m: &[u8], name: String, t: &Targets, budget: &mut u64) -> Result<Mesh> {
    let section = super::MESHES;
    let fail = |kind, why: String| b.error(section, kind, why);
    let streams = u8_at(m, 100);
    if streams != 1 {
        let kind = if streams == 0 || streams > MAX_STREAMS {
            ErrorKind::Invalid
        } else {
            ErrorKind::Unsupported
        };
        return Err(fail(
            kind,
            format!("{streams} vertex streams; throng reads meshes of exactly one"),
        ));
    }
    let vertex_buffer = u32_at(m, 104) as usize;
    let index_buffer = u32_at(m, 168) as usize;
    let (Some(vb), Some(ib)) = (
        t.vertex_buffers.get(vertex_buffer),
        t.index_buffers.get(index_buffer),
    ) else {
        let (which, index, count) = if vertex_buffer >= t.vertex_buffers.len() {
            ("vertex buffer", vertex_buffer, t.vertex_buffers.len())
        } else {
            ("index buffer", index_buffer, t.index_buffers.len())
        };
        return Err(fail(
            ErrorKind::IndexOutOfRange,
            format!("{which} {index}, but there are {count}"),
        ));
    };
    let subset_list = u32_list(b, u64_at(m, 208), u32_at(m, 172), "subset indices")?;
    let mut subsets = Vec::with_capacity(subset_list.len());
    for s in subset_list {
        let Some(subset) = t.subsets.get(s) else {
            return Err(fail(
                ErrorKind::IndexOutOfRange,
                format!("subset {s}, but there are {}", t.subsets.len()),
            ));
        };
        if subset.index_count > *budget {
            return Err(fail(
                ErrorKind::TooLarge,
                format!("meshes list the subsets more than {MAX_CHECKS} times over"),
            ));
        }
        *budget -= subset.index_count;
        check_subset_ranges(subset, vb, ib).map_err(|why| {
            fail(ErrorKind::IndexOutOfRange, why).at_record(format!("subset {s}"))
        })?;
        subsets.push(s);
    }
    let influences = u32_list(b, u64_at(m, 216), u32_at(m, 176), "frame influences")?;
    if let Some((k, &f)) = influences.iter().enumerate().find(|(_, f)| **f >= t.frames) {
        return Err(fail(
            ErrorKind::IndexOutOfRange,
            format!(
                "frame influence {k} is frame {f}, but there are {} frames",
                t.frames
            ),
        ));
    }
    Ok(Mesh {
        name,
        vertex_buffer,
        index_buffer,
        subsets,
        influences,
    })
}

/// A list of `count` u32 at `offset`.
fn u32_list(b: &Bytes, offset: u64, count: u32, what: &str) -> Result<Vec<usize>> {
    let bytes = b.table(super::MESHES, offset, u64::from(count), 4, what)?;
    Ok(bytes
        .chunks_exact(4)
        .map(|c| u32_at(c, 0) as usize)
        .collect())
}

/// Every index of the subset inside the index buffer, and every vertex it names inside the
/// vertex buffer.
fn check_subset_ranges(
    s: &Subset,
    vb: &VertexBuffer,
    ib: &IndexBuffer,
) -> std::result::Result<(), String> {
    let end = s.index_start.checked_add(s.index_count);
    if end.is_none_or(|end| end > ib.count as u64) {
        return Err(format!(
            "indices {}..+{} are outside the index buffer's {}",
            s.index_start, s.index_count, ib.count
        ));
    }
    let start = s.index_start as usize;
    for i in start..start + s.index_count as usize {
        let v = u64::from(ib.get(i)).saturating_add(s.vertex_start);
        if v >= vb.count as u64 {
            return Err(format!(
                "index {} names vertex {v} (base {} + {}), but the vertex buffer has {}",
                i - start,
                s.vertex_start,
                ib.get(i),
                vb.count
            ));
        }
    }
    Ok(())
}
