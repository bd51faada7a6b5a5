//! The skeleton: one joint per frame, in file order, named verbatim (empty and repeated names
//! included). A child may come before its parent in the file; the skeleton is then reordered
//! internally and remembers each joint's file position, so tools still report the file's
//! order. Bind local = the frame's matrix; offset = the inverse of the bind to-root.

use super::bytes::{Bytes, Result, show};
use super::frames::Frame;
use crate::anim::{Joint, Mat3x4, Skeleton, Transform};
use crate::asset::{ErrorKind, LoadError};

/// How far a frame matrix may be from its translation-rotation-scale decomposition before
/// the loader says the frame has shear (which throng's joints cannot hold).
const DECOMPOSITION_TOLERANCE: f32 = 1e-4;

/// Builds the skeleton of `frames`.
pub(super) fn build(b: &Bytes, frames: &[Frame]) -> Result<Skeleton> {
    let section = super::FRAMES;
    let wrap = |e| LoadError::from_anim(b.file, section, e);
    if let Some(i) = frames.iter().position(|f| f.matrix.inverse().is_none()) {
        let name = frames.get(i).map_or("", |f| f.name.as_str());
        return Err(b
            .error(
                section,
                ErrorKind::Invalid,
                "the matrix is singular (it flattens space)",
            )
            .at_record(format!("frame {i} ({})", show(name))));
    }
    let mut sheared = 0usize;
    let joints: Vec<Joint> = frames
        .iter()
        .map(|f| {
            let bind = Transform::from_matrix(&f.matrix);
            if !bind
                .to_matrix()
                .abs_diff_eq(&f.matrix, DECOMPOSITION_TOLERANCE)
            {
                sheared += 1;
            }
            Joint::new(f.name.clone(), f.parent, bind)
        })
        .collect();
    if sheared > 0 {
        log::warn!(
            "{}: {sheared} frame matrices have shear or a mirror, which joints cannot hold; \
             they are approximated by translation, rotation and scale",
            b.file
        );
    }
    // First pass: the parent-first order (and the cycle check), to compute to-roots.
    let ordered = Skeleton::from_unordered(joints.clone(), vec![Mat3x4::IDENTITY; joints.len()])
        .map_err(wrap)?;
    let mut offsets = vec![Mat3x4::IDENTITY; joints.len()];
    for (j, to_root) in ordered.bind_to_root().iter().enumerate() {
        let source = ordered.source_index(j);
        let offset = to_root.inverse().ok_or_else(|| {
            b.error(
                section,
                ErrorKind::Invalid,
                "the bind to-root matrix is singular, so it has no inverse (offset)",
            )
            .at_record(format!(
                "frame {source} ({})",
                show(joints.get(source).map_or("", |j| j.name.as_str()))
            ))
        })?;
        if let Some(slot) = offsets.get_mut(source) {
            *slot = offset;
        }
    }
    Skeleton::from_unordered(joints, offsets).map_err(wrap)
}
