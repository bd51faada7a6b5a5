//! The `SubsetTable` section: one draw range per material. Subset `i` is drawn with material
//! `i`; `FaceStart`/`FaceCount` count triangles, so a subset's first index is `3 * FaceStart`.

use super::header::Header;
use super::reader::{Reader, Result};
use crate::anim::Subset;
use crate::asset::{ErrorKind, LoadError};

/// Reads one subset per material and checks its ranges against the header's counts.
pub(super) fn read(r: &mut Reader, header: &Header) -> Result<Vec<Subset>> {
    r.enter(super::SUBSET_TABLE)?;
    let mut subsets = Vec::with_capacity(header.materials);
    for i in 0..header.materials {
        let subset = read_one(r, i, header).map_err(|e| e.at_record(format!("subset {i}")))?;
        subsets.push(subset);
    }
    r.end_of_records(header.materials, "subsets", |t| t == b"SubsetID:")?;
    Ok(subsets)
}

fn read_one(r: &mut Reader, i: usize, header: &Header) -> Result<Subset> {
    r.keyword("SubsetID:")?;
    let id = r.index(header.materials, "material")?;
    if id as usize != i {
        return Err(r.error(
            ErrorKind::Invalid,
            format_args!("SubsetID is {id}, but subset {i} is drawn with material {i}"),
        ));
    }
    let (vertex_start, vertex_count) = range(
        r,
        ["VertexStart:", "VertexCount:"],
        header.vertices,
        "vertices",
    )?;
    let (face_start, face_count) = range(
        r,
        ["FaceStart:", "FaceCount:"],
        header.triangles,
        "triangles",
    )?;
    // Both fit: face_start + face_count <= triangles <= u32::MAX / 3 (checked by the header).
    Ok(Subset {
        vertex_start,
        vertex_count,
        index_start: face_start * 3,
        index_count: face_count * 3,
        material: i,
    })
}

/// Reads `StartKeyword start CountKeyword count` and checks `start + count <= len`.
fn range(
    r: &mut Reader,
    [start_keyword, count_keyword]: [&'static str; 2],
    len: usize,
    noun: &str,
) -> Result<(u32, u32)> {
    r.keyword(start_keyword)?;
    let start = r.count()?;
    r.keyword(count_keyword)?;
    let count = r.count()?;
    if start as u64 + count as u64 > len as u64 {
        return Err(r.error(
            ErrorKind::IndexOutOfRange,
            format_args!(
                "{noun} {start}..{} are outside the {len} {noun} the header promises",
                start as u64 + count as u64
            ),
        ));
    }
    // `count()` guarantees both fit in u32.
    Ok((start as u32, count as u32))
}

/// Checks that every triangle of a subset only uses the subset's own vertices (the real files
/// all keep this promise, and a renderer may rely on it to draw a subset from its vertex
/// range alone), and that every triangle belongs to a subset (one that none covers would be
/// silently never drawn). `line` finds a triangle's line, for the error.
pub(super) fn check_triangles(
    file: &str,
    subsets: &[Subset],
    indices: &[u32],
    line: impl Fn(usize) -> usize,
) -> Result<()> {
    let mut covered = vec![false; indices.len() / 3];
    for s in subsets {
        let first = s.index_start as usize / 3;
        let count = s.index_count as usize / 3;
        if let Some(range) = covered.get_mut(first..first + count) {
            range.fill(true);
        }
    }
    if let Some(t) = covered.iter().position(|&c| !c) {
        return Err(LoadError::new(
            file,
            ErrorKind::Invalid,
            format!(
                "triangle {t} is in no subset, so it would never be drawn (line {})",
                line(t)
            ),
        )
        .in_section(super::TRIANGLES)
        .at_record(format!("triangle {t}")));
    }
    for (i, s) in subsets.iter().enumerate() {
        let first = s.index_start as usize;
        let range = indices
            .get(first..first + s.index_count as usize)
            .unwrap_or_default();
        let vertices = s.vertex_start..s.vertex_start + s.vertex_count;
        if let Some(k) = range.iter().position(|v| !vertices.contains(v)) {
            return Err(LoadError::new(
                file,
                ErrorKind::IndexOutOfRange,
                format!(
                    "triangle {} uses vertex {}, outside the subset's vertices {}..{} (line {})",
                    (first + k) / 3,
                    range.get(k).copied().unwrap_or_default(),
                    vertices.start,
                    vertices.end,
                    line((first + k) / 3)
                ),
            )
            .in_section(super::SUBSET_TABLE)
            .at_record(format!("subset {i}")));
        }
    }
    Ok(())
}
