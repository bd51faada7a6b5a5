//! `Matrix4x4` values (frame transforms, bone offsets): sixteen numbers in the file's
//! row-vector convention, read into throng's column-vector one.

use glam::Mat4;

use super::reader::{Reader, Result};
use crate::asset::ErrorKind;

/// How far a matrix's last column may be from `(0, 0, 0, 1)`.
const AFFINE_TOLERANCE: f32 = 1e-4;

/// A `Matrix4x4` as the file writes it (row-vector convention, translation in the last row),
/// returned in the column-vector convention: reading the 16 numbers as columns transposes.
pub(super) fn read(r: &mut Reader) -> Result<Mat4> {
    let m: [f32; 16] = r.floats()?;
    let last = [m[3], m[7], m[11], m[15]];
    let affine = last
        .iter()
        .zip([0.0, 0.0, 0.0, 1.0])
        .all(|(v, want)| (v - want).abs() <= AFFINE_TOLERANCE);
    if !affine {
        return Err(r.error(
            ErrorKind::Unsupported,
            format!("the matrix is projective: its last column is {last:?}, not [0, 0, 0, 1]"),
        ));
    }
    Ok(Mat4::from_cols_array(&m))
}
