//! The skeleton of an `.m3d` model.
//!
//! The file names no bones and stores no bind pose: bones are called `bone0`, `bone1`, ... and
//! each bind local transform is derived from the offsets (bind to-root = offset⁻¹, local =
//! parent to-root⁻¹ · to-root = parent offset · to-root). The file's offsets are kept as they
//! are. A static model gets one implicit joint, `root`, with identity bind and offset.

use crate::anim::{Joint, Mat3x4, Skeleton, Transform};
use crate::asset::{ErrorKind, LoadError};

/// Name of the implicit joint of a static model.
pub const STATIC_ROOT: &str = "root";

/// The skeleton of a skinned model from its offsets and parents (parents already checked to
/// come before their children).
pub(super) fn skinned(
    file: &str,
    offsets: Vec<Mat3x4>,
    offset_lines: &[usize],
    parents: &[Option<usize>],
) -> Result<Skeleton, LoadError> {
    let line = |i: usize| offset_lines.get(i).copied().unwrap_or(0);
    let mut joints = Vec::with_capacity(offsets.len());
    for (i, (offset, &parent)) in offsets.iter().zip(parents).enumerate() {
        let bind_to_root = offset.inverse().ok_or_else(|| {
            LoadError::new(
                file,
                ErrorKind::Invalid,
                format!(
                    "the offset matrix is singular, so the bind pose cannot be derived (line {})",
                    line(i)
                ),
            )
            .in_section(super::BONE_OFFSETS)
            .at_record(format!("bone {i}"))
        })?;
        let local = match parent.and_then(|p| offsets.get(p)) {
            Some(parent_offset) => parent_offset.mul(&bind_to_root),
            None => bind_to_root,
        };
        joints.push(Joint::new(
            format!("bone{i}"),
            parent,
            Transform::from_matrix(&local),
        ));
    }
    Skeleton::new(joints, offsets).map_err(|e| {
        let at = e.joint().map_or(0, line);
        super::at_line(LoadError::from_anim(file, super::BONE_OFFSETS, e), at)
    })
}

/// The one-joint skeleton of a static model.
pub(super) fn implicit_root(file: &str) -> Result<Skeleton, LoadError> {
    let root = Joint::new(STATIC_ROOT, None, Transform::IDENTITY);
    // Cannot fail (one finite root); line 1 keeps the format's promise all the same.
    Skeleton::new(vec![root], vec![Mat3x4::IDENTITY])
        .map_err(|e| super::at_line(LoadError::from_anim(file, super::BONE_HIERARCHY, e), 1))
}
