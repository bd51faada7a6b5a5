//! `Mat3x4`: the affine 3x4 matrix that palettes, to-root transforms and offsets are kept in.
//!
//! Stored as three rows of a column-vector matrix (`p' = M * p`, translation in the fourth
//! column), exactly the layout the GPU reads: three `vec4` rows, 48 bytes. Keeping the CPU
//! representation identical to the GPU one lets palette workers write their result straight into
//! mapped memory with no transpose or copy.

use std::ops::{Mul, MulAssign};

use bytemuck::{Pod, Zeroable};
use glam::{Affine3A, Mat4, Quat, Vec3, Vec3A, Vec4};

/// An affine transform as three rows `[r0, r1, r2]`; the implied fourth row is `(0, 0, 0, 1)`.
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
#[repr(C)]
pub struct Mat3x4 {
    /// Rows of the matrix; `rows[r].w` is the translation's component `r`.
    pub rows: [Vec4; 3],
}

const W_ONLY: Vec4 = Vec4::new(0.0, 0.0, 0.0, 1.0);

impl Default for Mat3x4 {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Mat3x4 {
    /// The identity transform.
    pub const IDENTITY: Self = Self {
        rows: [Vec4::X, Vec4::Y, Vec4::Z],
    };

    /// Builds `T * R * S` (scale first, then rotate, then translate) from its parts.
    /// `rotation` must be normalized.
    #[inline(always)]
    #[must_use]
    pub fn from_trs(translation: Vec3A, rotation: Quat, scale: Vec3A) -> Self {
        let (x, y, z, w) = (rotation.x, rotation.y, rotation.z, rotation.w);
        let (x2, y2, z2) = (x + x, y + y, z + z);
        let (xx, yy, zz) = (x * x2, y * y2, z * z2);
        let (xy, xz, yz) = (x * y2, x * z2, y * z2);
        let (wx, wy, wz) = (w * x2, w * y2, w * z2);
        // Scaling the columns scales the basis vectors; w = 1 keeps the translation.
        let s = Vec4::new(scale.x, scale.y, scale.z, 1.0);
        Self {
            rows: [
                Vec4::new(1.0 - (yy + zz), xy - wz, xz + wy, translation.x) * s,
                Vec4::new(xy + wz, 1.0 - (xx + zz), yz - wx, translation.y) * s,
                Vec4::new(xz - wy, yz + wx, 1.0 - (xx + yy), translation.z) * s,
            ],
        }
    }

    /// Converts from glam's column-major affine type.
    #[must_use]
    pub fn from_affine(a: &Affine3A) -> Self {
        let m = a.matrix3;
        let t = a.translation;
        Self {
            rows: [
                Vec4::new(m.x_axis.x, m.y_axis.x, m.z_axis.x, t.x),
                Vec4::new(m.x_axis.y, m.y_axis.y, m.z_axis.y, t.y),
                Vec4::new(m.x_axis.z, m.y_axis.z, m.z_axis.z, t.z),
            ],
        }
    }

    /// Converts to glam's column-major affine type.
    #[must_use]
    pub fn to_affine(&self) -> Affine3A {
        let [r0, r1, r2] = self.rows;
        Affine3A::from_cols(
            Vec3A::new(r0.x, r1.x, r2.x),
            Vec3A::new(r0.y, r1.y, r2.y),
            Vec3A::new(r0.z, r1.z, r2.z),
            Vec3A::new(r0.w, r1.w, r2.w),
        )
    }

    /// Converts to a 4x4 matrix (column-major, column vectors).
    #[must_use]
    pub fn to_mat4(&self) -> Mat4 {
        Mat4::from(self.to_affine())
    }

    /// Reads a 4x4 matrix, dropping its last row (which must be `0 0 0 1` for an affine one).
    #[must_use]
    pub fn from_mat4(m: &Mat4) -> Self {
        let t = m.transpose();
        Self {
            rows: [t.x_axis, t.y_axis, t.z_axis],
        }
    }

    /// The matrix product `self * rhs` (apply `rhs` first, then `self`); the same as the `*`
    /// operator.
    #[inline(always)]
    #[must_use]
    pub fn mul(&self, rhs: &Self) -> Self {
        product(self, rhs)
    }

    /// The inverse transform, or `None` when the linear part is singular.
    #[must_use]
    pub fn inverse(&self) -> Option<Self> {
        let a = self.to_affine();
        let det = a.matrix3.determinant();
        if !det.is_finite() || det.abs() < 1e-20 {
            return None;
        }
        Some(Self::from_affine(&a.inverse()))
    }

    /// Transforms a point (applies translation).
    #[inline]
    #[must_use]
    pub fn transform_point3(&self, p: Vec3) -> Vec3 {
        let v = p.extend(1.0);
        Vec3::new(
            self.rows[0].dot(v),
            self.rows[1].dot(v),
            self.rows[2].dot(v),
        )
    }

    /// Transforms a direction (ignores translation).
    #[inline]
    #[must_use]
    pub fn transform_vector3(&self, d: Vec3) -> Vec3 {
        let v = d.extend(0.0);
        Vec3::new(
            self.rows[0].dot(v),
            self.rows[1].dot(v),
            self.rows[2].dot(v),
        )
    }

    /// The translation column.
    #[inline]
    #[must_use]
    pub fn translation(&self) -> Vec3 {
        Vec3::new(self.rows[0].w, self.rows[1].w, self.rows[2].w)
    }

    /// The twelve numbers row by row: `[m00 m01 m02 tx m10 m11 m12 ty m20 m21 m22 tz]`.
    #[must_use]
    pub fn to_array(&self) -> [f32; 12] {
        bytemuck::cast(self.rows)
    }

    /// Inverse of [`Mat3x4::to_array`].
    #[must_use]
    pub fn from_array(a: [f32; 12]) -> Self {
        Self {
            rows: bytemuck::cast(a),
        }
    }

    /// Whether every element is within `eps` of `other`'s.
    #[must_use]
    pub fn abs_diff_eq(&self, other: &Self, eps: f32) -> bool {
        self.rows
            .iter()
            .zip(other.rows.iter())
            .all(|(a, b)| a.abs_diff_eq(*b, eps))
    }

    /// Whether every element is finite.
    #[must_use]
    pub fn is_finite(&self) -> bool {
        self.rows.iter().all(|r| r.is_finite())
    }
}

/// The one definition of the product behind [`Mat3x4::mul`] and the `*` operators.
///
/// The batch's lane product (`anim::pose::soa`) computes the same matrix but cannot share
/// this definition: it adds the terms in another order (and without the `0 * a` term), so
/// sharing would change palette bits on one of the two paths.
#[inline(always)]
fn product(a: &Mat3x4, b: &Mat3x4) -> Mat3x4 {
    #[inline(always)]
    fn row(a: Vec4, b: &Mat3x4) -> Vec4 {
        Vec4::splat(a.x) * b.rows[0]
            + Vec4::splat(a.y) * b.rows[1]
            + (Vec4::splat(a.z) * b.rows[2] + a * W_ONLY)
    }
    Mat3x4 {
        rows: [row(a.rows[0], b), row(a.rows[1], b), row(a.rows[2], b)],
    }
}

impl Mul for Mat3x4 {
    type Output = Self;
    /// `self * rhs`: apply `rhs` first, then `self` (as glam's matrix types).
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        product(&self, &rhs)
    }
}

impl Mul<&Mat3x4> for Mat3x4 {
    type Output = Mat3x4;
    #[inline(always)]
    fn mul(self, rhs: &Mat3x4) -> Mat3x4 {
        product(&self, rhs)
    }
}

impl Mul<Mat3x4> for &Mat3x4 {
    type Output = Mat3x4;
    #[inline(always)]
    fn mul(self, rhs: Mat3x4) -> Mat3x4 {
        product(self, &rhs)
    }
}

impl Mul<&Mat3x4> for &Mat3x4 {
    type Output = Mat3x4;
    #[inline(always)]
    fn mul(self, rhs: &Mat3x4) -> Mat3x4 {
        product(self, rhs)
    }
}

impl MulAssign for Mat3x4 {
    /// `*self = *self * rhs`.
    #[inline(always)]
    fn mul_assign(&mut self, rhs: Self) {
        *self = product(self, &rhs);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trs_matches_glam() {
        let t = Vec3::new(1.0, -2.0, 3.5);
        let r = Quat::from_euler(glam::EulerRot::YXZ, 0.3, -1.1, 2.0);
        let s = Vec3::new(0.5, 2.0, 1.5);
        let ours = Mat3x4::from_trs(t.into(), r, s.into());
        let glam = Mat3x4::from_affine(&Affine3A::from_scale_rotation_translation(s, r, t));
        assert!(ours.abs_diff_eq(&glam, 1e-6), "{ours:?} vs {glam:?}");
    }

    #[test]
    #[allow(clippy::op_ref)] // every operand form is the point
    fn product_matches_glam() {
        let a = Affine3A::from_scale_rotation_translation(
            Vec3::new(1.0, 2.0, 3.0),
            Quat::from_rotation_y(0.7),
            Vec3::new(4.0, 5.0, 6.0),
        );
        let b = Affine3A::from_scale_rotation_translation(
            Vec3::splat(0.5),
            Quat::from_rotation_x(-1.2),
            Vec3::new(-1.0, 0.0, 2.0),
        );
        let (ma, mb) = (Mat3x4::from_affine(&a), Mat3x4::from_affine(&b));
        let ours = ma.mul(&mb);
        assert!(ours.abs_diff_eq(&Mat3x4::from_affine(&(a * b)), 1e-5));
        // Every spelling of the product is the same function.
        let mut assigned = ma;
        assigned *= mb;
        for other in [ma * mb, ma * &mb, &ma * mb, &ma * &mb, assigned] {
            assert_eq!(
                other.to_array().map(f32::to_bits),
                ours.to_array().map(f32::to_bits)
            );
        }
        let inv = Mat3x4::from_affine(&a).inverse().expect("invertible");
        assert!(
            inv.mul(&Mat3x4::from_affine(&a))
                .abs_diff_eq(&Mat3x4::IDENTITY, 1e-5)
        );
    }

    #[test]
    fn array_layout_is_rows_with_translation_last() {
        let m = Mat3x4::from_trs(Vec3A::new(7.0, 8.0, 9.0), Quat::IDENTITY, Vec3A::ONE);
        let a = m.to_array();
        assert_eq!([a[3], a[7], a[11]], [7.0, 8.0, 9.0]);
        assert_eq!([a[0], a[5], a[10]], [1.0, 1.0, 1.0]);
        assert_eq!(Mat3x4::from_array(a), m);
    }
}
