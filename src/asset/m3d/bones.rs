//! The `BoneOffsets` and `BoneHierarchy` sections.
//!
//! Offsets are written row by row in the row-vector convention (`p' = p * M`, translation in
//! the last row). Reading the 16 numbers as the *columns* of a glam matrix transposes them into
//! the column-vector convention throng uses; the file's last column (elements 3, 7, 11, 15)
//! becomes the last row, which must be `0 0 0 1` for an affine transform.

use glam::Mat4;

use super::reader::{Reader, Result};
use crate::anim::Mat3x4;
use crate::asset::ErrorKind;

/// How far the file's last column may be from `(0, 0, 0, 1)`.
const AFFINE_TOLERANCE: f32 = 1e-4;

/// Whether a token looks like the start of a `BoneOffsets` record.
fn is_offset_label(token: &[u8]) -> bool {
    token.starts_with(b"BoneOffset")
}

/// Whether a token looks like the start of a `BoneHierarchy` record.
fn is_parent_label(token: &[u8]) -> bool {
    token.starts_with(b"ParentIndexOfBone")
}

/// Reads `bones` offset matrices.
/// The offsets and the line each was read from (errors found once the skeleton is
/// assembled point back there).
pub(super) fn read_offsets(r: &mut Reader, bones: usize) -> Result<(Vec<Mat3x4>, Vec<usize>)> {
    r.enter(super::BONE_OFFSETS)?;
    let mut offsets = Vec::with_capacity(bones);
    let mut positions = Vec::with_capacity(bones);
    for i in 0..bones {
        let offset = read_offset(r, i).map_err(|e| e.at_record(format!("bone {i}")))?;
        offsets.push(offset);
        positions.push(r.position());
    }
    r.end_of_records(bones, "bones", is_offset_label)?;
    Ok((offsets, r.lines_at(&positions)))
}

fn read_offset(r: &mut Reader, i: usize) -> Result<Mat3x4> {
    r.label("BoneOffset", i, "")?;
    let m: [f32; 16] = r.floats()?;
    let last_column = [m[3], m[7], m[11], m[15]];
    let affine = last_column
        .iter()
        .zip([0.0, 0.0, 0.0, 1.0])
        .all(|(v, want)| (v - want).abs() <= AFFINE_TOLERANCE);
    if !affine {
        return Err(r.error(
            ErrorKind::Invalid,
            format_args!(
                "the offset matrix is not affine: its last column is {last_column:?}, not \
                 [0, 0, 0, 1]"
            ),
        ));
    }
    let offset = Mat3x4::from_mat4(&Mat4::from_cols_array(&m));
    // The bind pose is derived from the offset's inverse.
    if offset.inverse().is_none() {
        return Err(r.error(
            ErrorKind::Invalid,
            "the offset matrix is singular, so the bind pose cannot be derived",
        ));
    }
    Ok(offset)
}

/// Reads `bones` parent indices (`None` for a root), each of which must come before its child.
pub(super) fn read_parents(r: &mut Reader, bones: usize) -> Result<Vec<Option<usize>>> {
    r.enter(super::BONE_HIERARCHY)?;
    let mut parents = Vec::with_capacity(bones);
    for i in 0..bones {
        let parent = read_parent(r, i, bones).map_err(|e| e.at_record(format!("bone {i}")))?;
        parents.push(parent);
    }
    r.end_of_records(bones, "bones", is_parent_label)?;
    Ok(parents)
}

fn read_parent(r: &mut Reader, i: usize, bones: usize) -> Result<Option<usize>> {
    r.label("ParentIndexOfBone", i, ":")?;
    let parent = r.int()?;
    if parent == -1 {
        return Ok(None);
    }
    if parent < 0 || parent >= bones as i64 {
        return Err(r.error(
            ErrorKind::IndexOutOfRange,
            format_args!("bone {i} has parent {parent}, but there are only {bones} bones"),
        ));
    }
    if parent >= i as i64 {
        return Err(r.error(
            ErrorKind::ParentOrder,
            format_args!("bone {i} has parent {parent}, which does not come before it"),
        ));
    }
    Ok(Some(parent as usize))
}
