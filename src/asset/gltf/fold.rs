//! Folding the static transform of non-joint nodes into the joint below them.
//!
//! A joint's to-root must equal its global transform in scene space, but the nodes between it
//! and its parent joint (or above a root joint) are not joints. Their combined transform `P`
//! is applied to the joint's own transform: `P * T R S = T(P t) * (R_p R) * (s_p S)`, which
//! is exact when `P` is a similarity (rotation `R_p`, uniform scale `s_p`, translation), and
//! which commutes with interpolation: lerp of translations, slerp of rotations and lerp of
//! scales are all preserved by these maps, so animation keys can be transformed one by one.

use glam::{DAffine3, DMat3, DQuat, Quat, Vec3};

use crate::anim::Transform;

/// Relative tolerance for "orthogonal columns of equal length".
const TOLERANCE: f64 = 1e-4;

/// A similarity transform `x -> t + s R x` (`s` may be negative: a point reflection, which
/// keeps `R` a proper rotation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Similarity {
    translation: Vec3,
    rotation: Quat,
    scale: f32,
}

impl Similarity {
    /// The identity.
    pub const IDENTITY: Self = Self {
        translation: Vec3::ZERO,
        rotation: Quat::IDENTITY,
        scale: 1.0,
    };

    /// `m` as a similarity, or `None` when its linear part is not a rotation times a uniform
    /// scale (non-uniform scale or shear), or is singular.
    pub fn from_affine(m: &DAffine3) -> Option<Self> {
        let lin = m.matrix3;
        let lengths = [
            lin.x_axis.length(),
            lin.y_axis.length(),
            lin.z_axis.length(),
        ];
        let s = (lengths[0] + lengths[1] + lengths[2]) / 3.0;
        if !(s > 1e-12) || !s.is_finite() {
            return None;
        }
        let equal = lengths.iter().all(|l| (l - s).abs() <= TOLERANCE * s);
        let dots = [
            lin.x_axis.dot(lin.y_axis),
            lin.y_axis.dot(lin.z_axis),
            lin.z_axis.dot(lin.x_axis),
        ];
        let orthogonal = dots.iter().all(|d| d.abs() <= TOLERANCE * s * s);
        if !(equal && orthogonal) {
            return None;
        }
        let signed = if lin.determinant() < 0.0 { -s } else { s };
        let rotation = DQuat::from_mat3(&orthonormalize(lin * (1.0 / signed)));
        Some(Self {
            translation: m.translation.as_vec3(),
            rotation: rotation.normalize().as_quat(),
            scale: signed as f32,
        })
    }

    /// `P * local`, for a joint's bind transform.
    pub fn apply(&self, local: &Transform) -> Transform {
        Transform::new(
            self.point(Vec3::from(local.translation)),
            self.rotation(local.rotation),
            self.scale(Vec3::from(local.scale)),
        )
    }

    /// A translation key: `P` applied to a point.
    pub fn point(&self, t: Vec3) -> Vec3 {
        self.translation + self.rotation * (t * self.scale)
    }

    /// A translation tangent (cubic splines): the linear part only.
    pub fn vector(&self, v: Vec3) -> Vec3 {
        self.rotation * (v * self.scale)
    }

    /// A rotation key or tangent: `R_p * r` (quaternion product is linear in `r`, so
    /// tangents transform the same way).
    pub fn rotation(&self, r: Quat) -> Quat {
        self.rotation * r
    }

    /// A scale key or tangent: `s_p * s`.
    pub fn scale(&self, s: Vec3) -> Vec3 {
        s * self.scale
    }
}

/// Removes rounding from a nearly orthonormal matrix (Gram-Schmidt), so the quaternion
/// conversion sees a proper rotation.
fn orthonormalize(m: DMat3) -> DMat3 {
    let x = m.x_axis.normalize();
    let y = (m.y_axis - x * x.dot(m.y_axis)).normalize();
    let z = x.cross(y);
    DMat3::from_cols(x, y, z)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DQuat, DVec3};

    #[test]
    fn folding_matches_the_matrix_product() {
        let p = DAffine3::from_scale_rotation_translation(
            DVec3::splat(2.5),
            DQuat::from_rotation_x(-std::f64::consts::FRAC_PI_2),
            DVec3::new(1.0, 2.0, 3.0),
        );
        let sim = Similarity::from_affine(&p).expect("similarity");
        let local = Transform::new(
            Vec3::new(0.3, -1.0, 2.0),
            Quat::from_euler(glam::EulerRot::XYZ, 0.4, 1.1, -0.2),
            Vec3::new(1.0, 2.0, 0.5),
        );
        let want =
            crate::anim::Mat3x4::from_affine(&glam::Affine3A::from_mat4(p.as_affine3a().into()))
                .mul(&local.to_matrix());
        assert!(sim.apply(&local).to_matrix().abs_diff_eq(&want, 1e-5));
    }

    #[test]
    fn mirrors_fold_and_shear_does_not() {
        let mirror = DAffine3::from_mat3(DMat3::from_diagonal(DVec3::new(-2.0, -2.0, -2.0)));
        assert_eq!(
            Similarity::from_affine(&mirror).map(|s| s.scale),
            Some(-2.0)
        );
        let stretch = DAffine3::from_mat3(DMat3::from_diagonal(DVec3::new(1.0, 2.0, 1.0)));
        assert!(Similarity::from_affine(&stretch).is_none());
        let shear = DAffine3::from_mat3(DMat3::from_cols(
            DVec3::X,
            DVec3::new(0.5, 1.0, 0.0),
            DVec3::Z,
        ));
        assert!(Similarity::from_affine(&shear).is_none());
    }
}
