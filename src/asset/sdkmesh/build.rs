//! Assembling the [`SkinnedModel`](crate::anim::SkinnedModel): every mesh's vertices (decoded once per vertex buffer and
//! binding), its subsets as triangle ranges of one index list, the skeleton and the clip.

use std::collections::HashMap;
use std::path::Path;

use super::buffers::{IndexBuffer, VertexBuffer};
use super::bytes::{Bytes, Result, show};
use super::frames::Frame;
use super::meshes::{Mesh as FileMesh, Subset as FileSubset};
use super::vertices::{self, Binding};
use crate::anim::{Mat3x4, Mesh, Skeleton, Subset};
use crate::asset::ErrorKind;
use crate::asset::budget::{Budget, cost, times};

/// Meshes may share a vertex or index buffer, and each sharing mesh gets its own copy (their
/// bone lists differ); copies are capped at this many times the file's own vertices and
/// indices, so a small file cannot ask for unbounded memory.
const MAX_COPIES: usize = 4;

/// What a mesh's vertices are decoded for: the buffer and how its vertices are bound.
#[derive(Clone, PartialEq, Eq, Hash)]
enum DecodeKey {
    Skinned(usize, Vec<usize>),
    Rigid(usize, Option<usize>),
}

/// The file's tables, checked.
pub(super) struct Parts<'s, 'a> {
    pub(super) vertex_buffers: &'s [VertexBuffer<'a>],
    pub(super) index_buffers: &'s [IndexBuffer<'a>],
    pub(super) subsets: &'s [FileSubset],
    pub(super) meshes: &'s [FileMesh],
    pub(super) frames: &'s [Frame],
}

/// The vertices, indices and subsets of every mesh (materials are filled in by the caller).
pub(super) fn geometry(
    b: &Bytes,
    parts: &Parts,
    skeleton: &Skeleton,
    budget: &mut Budget,
) -> Result<Mesh> {
    let file_vertices: usize = parts.vertex_buffers.iter().map(|v| v.count).sum();
    let file_indices: usize = parts.index_buffers.iter().map(|i| i.count).sum();
    let vertex_budget = file_vertices
        .saturating_mul(MAX_COPIES)
        .min(u32::MAX as usize);
    let index_budget = file_indices
        .saturating_mul(MAX_COPIES)
        .min(u32::MAX as usize);
    let joint_of_frame = skeleton.index_from_source();
    let to_root = skeleton.bind_to_root();
    let mut mesh = Mesh::default();
    let mut decoded: HashMap<DecodeKey, usize> = HashMap::new();
    let mut far_weights = 0usize;
    // The first frame that places each mesh, found in one pass.
    let mut placing: HashMap<usize, usize> = HashMap::new();
    for (f, frame) in parts.frames.iter().enumerate().rev() {
        if let Some(m) = frame.mesh {
            placing.insert(m, f);
        }
    }
    for (m, file_mesh) in parts.meshes.iter().enumerate() {
        let record = format!("mesh {m} ({})", show(&file_mesh.name));
        let fail = |kind, why: String| b.error(super::MESHES, kind, why).at_record(record.clone());
        let (Some(vb), Some(ib)) = (
            parts.vertex_buffers.get(file_mesh.vertex_buffer),
            parts.index_buffers.get(file_mesh.index_buffer),
        ) else {
            return Err(fail(
                ErrorKind::IndexOutOfRange,
                "a buffer that does not exist".into(),
            ));
        };
        let (key, binding) = binding(
            file_mesh,
            vb,
            placing.get(&m).copied(),
            &joint_of_frame,
            &to_root,
        );
        let base = match decoded.get(&key) {
            Some(&base) => base,
            None => {
                let base = mesh.vertices.len();
                if base + vb.count > vertex_budget {
                    return Err(fail(
                        ErrorKind::TooLarge,
                        format!(
                            "meshes reuse the vertex buffers more than {MAX_COPIES} times over"
                        ),
                    ));
                }
                budget
                    .charge(times(vb.count, cost::VERTEX), || {
                        format!("{} decoded vertices", vb.count)
                    })
                    .map_err(|e| fail(ErrorKind::TooLarge, e.to_string()))?;
                far_weights +=
                    vertices::decode(vb, &binding, &mut mesh.vertices).map_err(|(kind, why)| {
                        fail(kind, why).at_record(format!(
                            "{record} vertex buffer {}",
                            file_mesh.vertex_buffer
                        ))
                    })?;
                decoded.insert(key, base);
                base
            }
        };
        for &s in &file_mesh.subsets {
            let Some(subset) = parts.subsets.get(s) else {
                return Err(fail(
                    ErrorKind::IndexOutOfRange,
                    format!("subset {s} does not exist"),
                ));
            };
            if mesh.indices.len() + subset.index_count as usize > index_budget {
                return Err(fail(
                    ErrorKind::TooLarge,
                    format!("meshes reuse the subsets more than {MAX_COPIES} times over"),
                ));
            }
            let triangles = subset.index_count as usize / 3;
            budget
                .charge(times(triangles, cost::TRIANGLE), || {
                    format!("subset {s}'s {triangles} triangles")
                })
                .map_err(|e| fail(ErrorKind::TooLarge, e.to_string()))?;
            mesh.subsets
                .push(append_subset(&mut mesh.indices, subset, ib, base));
        }
    }
    if far_weights > 0 {
        log::warn!(
            "{}: {far_weights} vertices have blend weights that do not sum to 1; renormalized",
            b.file
        );
    }
    Ok(mesh)
}

/// How mesh `m`'s vertices follow the skeleton (see [`Binding`]).
fn binding(
    mesh: &FileMesh,
    vb: &VertexBuffer,
    frame: Option<usize>,
    joint_of_frame: &[usize],
    to_root: &[Mat3x4],
) -> (DecodeKey, Binding) {
    let joint = |frame: usize| joint_of_frame.get(frame).copied().unwrap_or(0);
    if !mesh.influences.is_empty() && vb.declaration.blend_indices.is_some() {
        let joints = mesh.influences.iter().map(|&f| joint(f) as u16).collect();
        return (
            DecodeKey::Skinned(mesh.vertex_buffer, mesh.influences.clone()),
            Binding::Skinned { joints },
        );
    }
    // A rigid mesh lives in the space of the first frame that places it; one that no frame
    // places is taken as already in model space, following the first joint.
    let (joint, to_root) = match frame {
        Some(f) => {
            let j = joint(f);
            (j, to_root.get(j).copied().unwrap_or_default())
        }
        None => (0, Mat3x4::IDENTITY),
    };
    (
        DecodeKey::Rigid(mesh.vertex_buffer, frame),
        Binding::Rigid {
            joint: joint as u16,
            to_root,
        },
    )
}

/// Appends the triangles of `subset` (already checked against `ib` and its vertex buffer),
/// with indices made absolute, and returns the throng subset over them.
fn append_subset(
    indices: &mut Vec<u32>,
    subset: &FileSubset,
    ib: &IndexBuffer,
    base: usize,
) -> Subset {
    let index_start = indices.len();
    let (mut lo, mut hi) = (u32::MAX, 0u32);
    let first = subset.index_start as usize;
    for i in first..first + subset.index_count as usize {
        // The budget keeps `base + vertex` below u32::MAX.
        let v = (base as u64 + subset.vertex_start + u64::from(ib.get(i))) as u32;
        lo = lo.min(v);
        hi = hi.max(v);
        indices.push(v);
    }
    let (vertex_start, vertex_count) = if indices.len() > index_start {
        (lo, hi - lo + 1)
    } else {
        (0, 0)
    };
    Subset {
        vertex_start,
        vertex_count,
        index_start: index_start as u32,
        index_count: (indices.len() - index_start) as u32,
        material: subset.material,
    }
}

/// The model's name: the stem of `file`.
pub(super) fn stem(file: &str) -> String {
    Path::new(file)
        .file_stem()
        .map_or_else(|| file.to_string(), |s| s.to_string_lossy().into_owned())
}
