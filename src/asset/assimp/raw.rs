//! Reading Assimp's C structures safely: arrays from (pointer, count) pairs, names, matrices.
//! Every raw pointer of the scene is read through here, so the conversion code holds only
//! slices and references whose lifetime is the scene's.

use std::os::raw::c_uint;

use super::ffi as sys;
use glam::{DAffine3, DMat3, DVec3};

/// The `count` elements at `ptr`, or nothing when `ptr` is null.
///
/// # Safety
/// A non-null `ptr` must point to `count` initialized elements that live as long as `'a`
/// (Assimp's scene arrays do, once `aiProcess_ValidateDataStructure` accepted them).
pub(super) unsafe fn items<'a, T>(ptr: *const T, count: c_uint) -> &'a [T] {
    if ptr.is_null() || count == 0 {
        return &[];
    }
    // SAFETY: per the contract above.
    unsafe { std::slice::from_raw_parts(ptr, count as usize) }
}

/// The objects behind an array of `count` pointers at `ptr`; null entries are skipped
/// (validation forbids them, but skipping costs nothing).
///
/// # Safety
/// As for [`items`], and every non-null entry must point to an object living as long as `'a`.
pub(super) unsafe fn objects<'a, T>(ptr: *const *mut T, count: c_uint) -> Vec<&'a T> {
    // SAFETY: per the contract above.
    unsafe { items(ptr, count) }
        .iter()
        .filter_map(|&p| unsafe { p.cast_const().as_ref() })
        .collect()
}

/// An `aiString` as text (invalid UTF-8 replaced), bounded by its buffer.
pub(super) fn text(s: &sys::aiString) -> String {
    let len = (s.length as usize).min(s.data.len());
    let bytes: Vec<u8> = s.data[..len].iter().map(|&c| c as u8).collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Control characters (line breaks included) become spaces, so errors stay one line.
pub(super) fn one_line(s: &str) -> String {
    s.trim()
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// An `aiMatrix4x4` (row-major, column vectors: the translation is the fourth column) as an
/// affine transform, or `None` when it is not finite or is projective.
pub(super) fn affine(m: &sys::aiMatrix4x4) -> Option<DAffine3> {
    let rows = [
        [m.a1, m.a2, m.a3, m.a4],
        [m.b1, m.b2, m.b3, m.b4],
        [m.c1, m.c2, m.c3, m.c4],
        [m.d1, m.d2, m.d3, m.d4],
    ];
    if !rows.iter().flatten().all(|x| x.is_finite()) {
        return None;
    }
    let last = [m.d1, m.d2, m.d3, m.d4];
    let projective = last
        .iter()
        .zip([0.0, 0.0, 0.0, 1.0])
        .any(|(a, b)| (f64::from(*a) - b).abs() > 1e-5);
    if projective {
        return None;
    }
    let col = |c: usize| DVec3::new(rows[0][c].into(), rows[1][c].into(), rows[2][c].into());
    Some(DAffine3 {
        matrix3: DMat3::from_cols(col(0), col(1), col(2)),
        translation: col(3),
    })
}

/// A vector as glam's.
pub(super) fn vec3(v: &sys::aiVector3D) -> glam::Vec3 {
    glam::Vec3::new(v.x, v.y, v.z)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matrix(rows: [[f32; 4]; 4]) -> sys::aiMatrix4x4 {
        let [a, b, c, d] = rows;
        sys::aiMatrix4x4 {
            a1: a[0],
            a2: a[1],
            a3: a[2],
            a4: a[3],
            b1: b[0],
            b2: b[1],
            b3: b[2],
            b4: b[3],
            c1: c[0],
            c2: c[1],
            c3: c[2],
            c4: c[3],
            d1: d[0],
            d2: d[1],
            d3: d[2],
            d4: d[3],
        }
    }

    #[test]
    fn rows_are_rows_and_the_translation_is_the_fourth_column() {
        let m = matrix([
            [0.0, -1.0, 0.0, 5.0],
            [1.0, 0.0, 0.0, 6.0],
            [0.0, 0.0, 1.0, 7.0],
            [0.0, 0.0, 0.0, 1.0],
        ]);
        let a = affine(&m).expect("affine");
        assert_eq!(a.translation, DVec3::new(5.0, 6.0, 7.0));
        // A quarter turn about z: x goes to y.
        assert!((a.transform_vector3(DVec3::X) - DVec3::Y).length() < 1e-12);
    }

    #[test]
    fn projective_and_non_finite_matrices_are_refused() {
        let mut rows = [
            [1.0, 0.0, 0.0, 0.0],
            [0.0, 1.0, 0.0, 0.0],
            [0.0, 0.0, 1.0, 0.0],
            [0.0; 4],
        ];
        rows[3] = [0.0, 0.0, 0.5, 1.0];
        assert!(affine(&matrix(rows)).is_none());
        rows[3] = [0.0, 0.0, 0.0, 1.0];
        rows[0][0] = f32::NAN;
        assert!(affine(&matrix(rows)).is_none());
    }

    #[test]
    fn strings_are_bounded_by_their_buffer_and_errors_are_one_line() {
        let mut s = sys::aiString {
            length: 5000,
            data: [b'a' as _; 1024],
        };
        assert_eq!(text(&s).len(), 1024);
        s.length = 3;
        s.data[1] = b'\n' as _;
        assert_eq!(one_line(&text(&s)), "a a");
    }
}
