//! `Transform`: a joint's local transform as translation, rotation and scale, and the
//! interpolation used between keys and between clips.

use glam::{Quat, Vec3, Vec3A, Vec4};

use super::matrix::Mat3x4;
use super::simd::slerp_weights;

/// A decomposed local transform. The matrix it stands for is `T * R * S`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct Transform {
    /// Translation relative to the parent.
    pub translation: Vec3A,
    /// Rotation relative to the parent (unit quaternion).
    pub rotation: Quat,
    /// Scale along the joint's own axes.
    pub scale: Vec3A,
}

impl Default for Transform {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Transform {
    /// No translation, no rotation, unit scale.
    pub const IDENTITY: Self = Self {
        translation: Vec3A::ZERO,
        rotation: Quat::IDENTITY,
        scale: Vec3A::ONE,
    };

    /// Builds a transform from plain `Vec3` parts.
    pub fn new(translation: Vec3, rotation: Quat, scale: Vec3) -> Self {
        Self {
            translation: translation.into(),
            rotation,
            scale: scale.into(),
        }
    }

    /// The matrix `T * R * S`.
    #[must_use]
    #[inline(always)]
    pub fn to_matrix(&self) -> Mat3x4 {
        Mat3x4::from_trs(self.translation, self.rotation, self.scale)
    }

    /// Decomposes an affine matrix (scale must be positive on every axis for an exact round trip).
    #[must_use]
    pub fn from_matrix(m: &Mat3x4) -> Self {
        let (s, r, t) = m.to_affine().to_scale_rotation_translation();
        Self::new(t, r.normalize(), s)
    }

    /// Blends towards `other` by `weight` (0 keeps `self`, 1 gives `other`): translation and
    /// scale are lerped, rotation is nlerped along the shorter arc. Used for cross-fades.
    #[must_use]
    #[inline]
    pub fn blend(&self, other: &Self, weight: f32) -> Self {
        Self {
            translation: self.translation.lerp(other.translation, weight),
            rotation: nlerp_short(self.rotation, other.rotation, weight),
            scale: self.scale.lerp(other.scale, weight),
        }
    }

    /// Whether every component is finite.
    pub fn is_finite(&self) -> bool {
        self.translation.is_finite() && self.rotation.is_finite() && self.scale.is_finite()
    }
}

/// Linear interpolation written as `(1 - f) a + f b`, so that `f = 0` gives `a` and `f = 1`
/// gives `b` exactly (no rounding from `a + (b - a) f`): sampling at a key time returns the key.
#[must_use]
#[inline(always)]
pub fn lerp_exact(a: Vec4, b: Vec4, f: f32) -> Vec4 {
    a * (1.0 - f) + b * f
}

/// Normalized linear interpolation along the shorter arc.
#[must_use]
#[inline]
pub fn nlerp_short(a: Quat, b: Quat, f: f32) -> Quat {
    let b4 = if a.dot(b) < 0.0 {
        -Vec4::from(b)
    } else {
        Vec4::from(b)
    };
    Quat::from_vec4(lerp_exact(Vec4::from(a), b4, f).normalize())
}

/// Spherical linear interpolation between unit quaternions whose dot product is not negative
/// (the sampler flips keys at build time so that every pair of neighbours satisfies this, which
/// makes every interpolation take the short arc). Branch-free; see [`slerp_weights`].
#[must_use]
#[inline(always)]
pub fn slerp_positive(a: Vec4, b: Vec4, f: f32) -> Vec4 {
    let (wa, wb) = slerp_weights(a.dot(b), f);
    a * wa + b * wb
}

/// Shortest-arc slerp for any two unit quaternions.
#[must_use]
#[inline]
pub fn slerp_short(a: Quat, b: Quat, f: f32) -> Quat {
    let b4 = if a.dot(b) < 0.0 {
        -Vec4::from(b)
    } else {
        Vec4::from(b)
    };
    Quat::from_vec4(slerp_positive(Vec4::from(a), b4, f))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slerp_matches_reference_and_is_exact_at_ends() {
        let a = Quat::from_rotation_y(0.2);
        let b = Quat::from_euler(glam::EulerRot::XYZ, 1.0, 0.5, -0.3);
        for i in 0..=20 {
            let f = i as f32 / 20.0;
            let ours = slerp_short(a, b, f);
            let reference = a.slerp(b, f);
            assert!(
                ours.abs_diff_eq(reference, 2e-6),
                "f = {f}: {ours} vs {reference}"
            );
        }
        assert_eq!(slerp_short(a, b, 0.0), a);
        assert!(slerp_short(a, b, 1.0).abs_diff_eq(b, 1e-7));
    }

    #[test]
    fn slerp_of_nearly_equal_keys_stays_unit() {
        let a = Quat::from_rotation_z(0.5);
        let b = Quat::from_rotation_z(0.5 + 1e-6);
        let m = slerp_short(a, b, 0.5);
        assert!((m.length() - 1.0).abs() < 1e-6);
        assert!(m.abs_diff_eq(a, 1e-6));
    }

    #[test]
    fn nlerp_takes_short_arc() {
        let a = Quat::from_rotation_x(0.1);
        let b = -Quat::from_rotation_x(0.3);
        let m = nlerp_short(a, b, 0.5);
        assert!(
            m.abs_diff_eq(Quat::from_rotation_x(0.2), 1e-3)
                || m.abs_diff_eq(-Quat::from_rotation_x(0.2), 1e-3)
        );
        assert!(m.dot(a) > 0.0);
    }
}
