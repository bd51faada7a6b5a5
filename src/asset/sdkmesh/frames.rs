//! Frames (184 bytes each): `Name char[100]`, `Mesh`, `ParentFrame`, `ChildFrame`,
//! `SiblingFrame` (u32, 0xFFFFFFFF for none), `Matrix` (16 f32), `AnimationDataIndex` (u32).
//!
//! Every frame is a joint, in file order: the parent comes from `ParentFrame` alone (the child
//! and sibling links say the same thing again and are not needed). The matrix is Direct3D's
//! row-vector layout (`p' = p * M`, translation in the fourth row), so throng's column-vector
//! matrix is its transpose.

use glam::Vec4;

use super::bytes::{Bytes, Result, f32s_at, name_at, show, u32_at};
use super::header::Table;
use crate::anim::Mat3x4;
use crate::asset::ErrorKind;

const FRAME_SIZE: usize = 184;
const NAME_LEN: usize = 100;
/// "No frame" / "no mesh" in a u32 field.
pub(super) const NONE: u32 = u32::MAX;

/// One frame as the file gives it.
pub(super) struct Frame {
    pub(super) name: String,
    pub(super) parent: Option<usize>,
    /// The mesh this frame places, if any.
    pub(super) mesh: Option<usize>,
    /// The bind local transform, column-vector.
    pub(super) matrix: Mat3x4,
}

/// Reads the frame table; `meshes` meshes exist.
pub(super) fn read(b: &Bytes, table: Table, meshes: usize) -> Result<Vec<Frame>> {
    let section = super::FRAMES;
    if table.count == 0 {
        return Err(b.error(
            section,
            ErrorKind::CountMismatch,
            "the file has no frames, so the model has no joints",
        ));
    }
    let count = table.count as usize;
    let records = b.table(
        section,
        table.offset,
        u64::from(table.count),
        FRAME_SIZE,
        "frames",
    )?;
    let mut frames = Vec::with_capacity(count);
    for (i, f) in records.chunks_exact(FRAME_SIZE).enumerate() {
        let name = name_at(f, 0, NAME_LEN);
        let record = format!("frame {i} ({})", show(&name));
        let fail = |kind, why: String| b.error(section, kind, why).at_record(record.clone());
        let (mesh, parent) = (u32_at(f, 100), u32_at(f, 104));
        let parent = match parent {
            NONE => None,
            p if p as usize >= count => {
                return Err(fail(
                    ErrorKind::IndexOutOfRange,
                    format!("parent frame {p}, but there are {count} frames"),
                ));
            }
            p if p as usize == i => {
                return Err(fail(ErrorKind::ParentOrder, "is its own parent".into()));
            }
            p => Some(p as usize),
        };
        let mesh = match mesh {
            NONE => None,
            m if m as usize >= meshes => {
                return Err(fail(
                    ErrorKind::IndexOutOfRange,
                    format!("mesh {m}, but there are {meshes} meshes"),
                ));
            }
            m => Some(m as usize),
        };
        let m: [f32; 16] = f32s_at(f, 116);
        if m.iter().any(|x| !x.is_finite()) {
            return Err(fail(
                ErrorKind::NonFinite,
                "the matrix has a value that is not finite".into(),
            ));
        }
        // The fourth column of a row-vector affine matrix is (0, 0, 0, 1).
        let projective = [m[3], m[7], m[11], m[15] - 1.0];
        if projective.iter().any(|x| x.abs() > 1e-5) {
            return Err(fail(
                ErrorKind::Invalid,
                format!(
                    "the matrix's fourth column is {:?}, not (0, 0, 0, 1): not an affine transform",
                    [m[3], m[7], m[11], m[15]]
                ),
            ));
        }
        frames.push(Frame {
            name,
            parent,
            mesh,
            matrix: from_row_vector(&m),
        });
    }
    Ok(frames)
}

/// Throng's column-vector matrix from Direct3D's row-vector one: the transpose.
pub(super) fn from_row_vector(m: &[f32; 16]) -> Mat3x4 {
    let row = |r: usize| Vec4::new(m[r], m[4 + r], m[8 + r], m[12 + r]);
    Mat3x4 {
        rows: [row(0), row(1), row(2)],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    #[test]
    fn a_row_vector_translation_becomes_the_fourth_column() {
        let mut m = [0.0f32; 16];
        m[0] = 1.0;
        m[5] = 1.0;
        m[10] = 1.0;
        m[15] = 1.0;
        m[12..15].copy_from_slice(&[1.0, 2.0, 3.0]);
        // A quarter turn about z, row-vector: x maps to y.
        m[0] = 0.0;
        m[1] = 1.0;
        m[4] = -1.0;
        m[5] = 0.0;
        let c = from_row_vector(&m);
        assert_eq!(c.translation(), Vec3::new(1.0, 2.0, 3.0));
        let x = c.transform_vector3(Vec3::X);
        assert!((x - Vec3::Y).length() < 1e-6, "{x}");
    }
}
