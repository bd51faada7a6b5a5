//! Matrix checks every loader that reads node or bone matrices shares: splitting an affine
//! matrix into translation, rotation and scale (throng's joints hold TRS, so a sheared matrix
//! cannot be a joint), and comparing two matrices up to the rounding of their writers.

use glam::{DAffine3, Mat4};

use crate::anim::Transform;

/// Translation, rotation and scale of `m`, if recomposing them reproduces it (no shear, no
/// zero scale), to a relative 1e-5 of its largest entry.
pub(crate) fn decompose(m: &DAffine3) -> Option<Transform> {
    let (s, r, t) = m.to_scale_rotation_translation();
    if !(s.is_finite() && r.is_finite() && t.is_finite()) || s.min_element().abs() < 1e-12 {
        return None;
    }
    let r = r.normalize();
    let back = DAffine3::from_scale_rotation_translation(s, r, t);
    let size = largest(&m.matrix3.abs().to_cols_array());
    let err = (back.matrix3 - m.matrix3)
        .abs()
        .to_cols_array()
        .iter()
        .fold(0.0f64, |a, &b| a.max(b));
    (err <= 1e-5 * size).then(|| Transform::new(t.as_vec3(), r.as_quat(), s.as_vec3()))
}

/// Whether `a` and `b` agree entry by entry to `relative` times `a`'s largest entry (at least
/// 1): two files, or two meshes of one file, that write the same offset matrix rarely write the
/// same bits.
pub(crate) fn nearly_equal(a: &Mat4, b: &Mat4, relative: f32) -> bool {
    let size = a
        .abs()
        .to_cols_array()
        .iter()
        .fold(1.0f32, |m, &x| m.max(x));
    a.abs_diff_eq(*b, relative * size)
}

fn largest(entries: &[f64]) -> f64 {
    entries.iter().fold(1.0f64, |a, &b| a.max(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DQuat, DVec3};

    #[test]
    fn decomposes_trs_and_refuses_shear() {
        let m = DAffine3::from_scale_rotation_translation(
            DVec3::new(2.0, 2.0, 2.0),
            DQuat::from_rotation_y(0.5),
            DVec3::new(1.0, 2.0, 3.0),
        );
        let t = decompose(&m).expect("TRS");
        assert!((t.translation.y - 2.0).abs() < 1e-6);
        let mut sheared = m;
        sheared.matrix3.y_axis.x += 0.5;
        assert!(decompose(&sheared).is_none());
    }

    #[test]
    fn nearly_equal_is_relative() {
        let a = Mat4::from_scale(glam::Vec3::splat(1000.0));
        let mut b = a;
        b.x_axis.x += 0.05;
        assert!(nearly_equal(&a, &b, 1e-4));
        b.x_axis.x += 1.0;
        assert!(!nearly_equal(&a, &b, 1e-4));
    }
}
