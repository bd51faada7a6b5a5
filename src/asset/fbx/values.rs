//! ufbx's values in throng's types, each checked: ufbx computes in doubles and passes on
//! whatever a file holds, so a matrix or transform can be infinite, and a list's pointer is
//! only as good as its count. Nothing here trusts a value it converts.

use glam::{DAffine3, DMat3, DQuat, DVec3, Quat, Vec2};

use crate::anim::Transform;

/// The elements of a ufbx list, or `None` when its pointer cannot hold its count (null with
/// elements, misaligned, or more bytes than an allocation can have).
pub(super) fn items<T>(list: &ufbx::List<T>) -> Option<&[T]> {
    if list.count == 0 {
        return Some(&[]);
    }
    let aligned = list.data.align_offset(std::mem::align_of::<T>()) == 0;
    let fits = list
        .count
        .checked_mul(std::mem::size_of::<T>())
        .is_some_and(|bytes| bytes <= isize::MAX as usize);
    (!list.data.is_null() && aligned && fits).then(|| list.as_ref())
}

/// A ufbx matrix (columns `m_0`, `m_1`, `m_2` and the translation `m_3`, column vectors as
/// glam's) as an affine transform, or `None` when an entry is not finite.
pub(super) fn affine(m: &ufbx::Matrix) -> Option<DAffine3> {
    let a = DAffine3 {
        matrix3: DMat3::from_cols(
            DVec3::new(m.m00, m.m10, m.m20),
            DVec3::new(m.m01, m.m11, m.m21),
            DVec3::new(m.m02, m.m12, m.m22),
        ),
        translation: DVec3::new(m.m03, m.m13, m.m23),
    };
    a.is_finite().then_some(a)
}

/// A ufbx transform in double precision, or `None` when it is not finite or its rotation is
/// not a usable quaternion.
pub(super) fn dtransform(t: &ufbx::Transform) -> Option<(DVec3, DQuat, DVec3)> {
    let translation = dvec3(&t.translation);
    let r = &t.rotation;
    let q = DQuat::from_xyzw(r.x, r.y, r.z, r.w);
    let scale = dvec3(&t.scale);
    let length = q.length();
    let usable = translation.is_finite()
        && scale.is_finite()
        && q.is_finite()
        && length > 1e-6
        && length.is_finite();
    usable.then(|| (translation, q / length, scale))
}

/// A ufbx transform as throng's, or `None` as [`dtransform`] says, or when a value does not
/// fit in `f32`.
pub(super) fn transform(t: &ufbx::Transform) -> Option<Transform> {
    let (translation, rotation, scale) = dtransform(t)?;
    let out = Transform::new(
        translation.as_vec3(),
        rotation.as_quat().normalize(),
        scale.as_vec3(),
    );
    out.is_finite().then_some(out)
}

/// The matrix of a ufbx transform.
pub(super) fn transform_matrix(t: &ufbx::Transform) -> Option<DAffine3> {
    let (translation, rotation, scale) = dtransform(t)?;
    let m = DAffine3::from_scale_rotation_translation(scale, rotation, translation);
    m.is_finite().then_some(m)
}

/// A ufbx vector in double precision.
pub(super) fn dvec3(v: &ufbx::Vec3) -> DVec3 {
    DVec3::new(v.x, v.y, v.z)
}

/// A ufbx 2-vector in single precision.
pub(super) fn vec2(v: &ufbx::Vec2) -> Vec2 {
    Vec2::new(v.x as f32, v.y as f32)
}

/// Whether two rotations are the same turn (either sign), to within rounding.
pub(super) fn same_rotation(a: Quat, b: Quat) -> bool {
    a.dot(b).abs() >= 1.0 - 1e-6
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_translation_is_the_fourth_column() {
        let m = ufbx::Matrix {
            m00: 0.0,
            m10: 1.0,
            m20: 0.0,
            m01: -1.0,
            m11: 0.0,
            m21: 0.0,
            m02: 0.0,
            m12: 0.0,
            m22: 1.0,
            m03: 5.0,
            m13: 6.0,
            m23: 7.0,
        };
        let a = affine(&m).expect("finite");
        assert_eq!(a.translation, DVec3::new(5.0, 6.0, 7.0));
        // A quarter turn about z: x goes to y.
        assert!((a.transform_vector3(DVec3::X) - DVec3::Y).length() < 1e-12);
        let bad = ufbx::Matrix { m13: f64::NAN, ..m };
        assert!(affine(&bad).is_none());
    }

    #[test]
    fn transforms_need_a_finite_value_and_a_usable_rotation() {
        let t = ufbx::Transform {
            translation: ufbx::Vec3 {
                x: 1.0,
                y: 2.0,
                z: 3.0,
            },
            rotation: ufbx::Quat {
                x: 0.0,
                y: 0.0,
                z: 0.0,
                w: 2.0,
            },
            scale: ufbx::Vec3 {
                x: 1.0,
                y: 1.0,
                z: 1.0,
            },
        };
        let out = transform(&t).expect("usable");
        assert_eq!(out.rotation, Quat::IDENTITY, "normalized");
        let zero = ufbx::Transform {
            rotation: ufbx::Quat {
                x: 0.0,
                y: 0.0,
                z: 0.0,
                w: 0.0,
            },
            ..t
        };
        assert!(transform(&zero).is_none());
        let huge = ufbx::Transform {
            translation: ufbx::Vec3 {
                x: 1e300,
                y: 0.0,
                z: 0.0,
            },
            ..t
        };
        assert!(transform(&huge).is_none(), "does not fit in f32");
    }
}
