//! The skinning blend exactly as the shaders write it (`skin_matrix` in `shaders/skinning.glsl`),
//! mirrored on the CPU so that bounds and error measurements judge the positions the GPU
//! draws. It differs from [`crate::anim::skin_vertex`]'s blend, which renormalizes the weights
//! and sends a weightless vertex to its first joint: here the first slot always counts (with
//! its weight, even zero), the others only when their weight is positive, and nothing is
//! renormalized. For weights that are non-negative and sum to 1, as every loader writes
//! them, the two agree to rounding.

use glam::{Vec3, Vec4};

use super::matrix::Mat3x4;
use super::mesh::Vertex;

/// The blended skinning matrix of `v`, term by term in the shader's order.
///
/// A first joint outside `palette` with weight 0 contributes nothing (the shader reads some
/// other palette there and multiplies it by 0; a mesh's validation only checks the joints of
/// non-zero weights).
///
/// # Panics
///
/// If the vertex's joint of a non-zero first weight, or of a positive other weight, is not an
/// index of `palette`.
#[inline]
#[must_use]
pub fn gpu_blend_matrix(v: &Vertex, palette: &[Mat3x4]) -> Mat3x4 {
    let first = usize::from(v.joints[0]);
    let w = Vec4::splat(v.weights[0]);
    let mut rows = if v.weights[0] == 0.0 && first >= palette.len() {
        [Vec4::ZERO; 3]
    } else {
        palette[first].rows.map(|r| r * w)
    };
    for (&j, &weight) in v.joints.iter().zip(&v.weights).skip(1) {
        if weight > 0.0 {
            let m = &palette[usize::from(j)];
            for (acc, row) in rows.iter_mut().zip(&m.rows) {
                *acc += *row * Vec4::splat(weight);
            }
        }
    }
    Mat3x4 { rows }
}

/// The model-space position of `v` skinned by `palette` as the GPU computes it.
///
/// # Panics
///
/// As [`gpu_blend_matrix`].
#[inline]
#[must_use]
pub fn gpu_skin_position(v: &Vertex, palette: &[Mat3x4]) -> Vec3 {
    gpu_blend_matrix(v, palette).transform_point3(Vec3::from(v.position))
}

#[cfg(test)]
mod tests {
    use glam::{Quat, Vec3A};

    use super::*;

    fn vertex(joints: [u16; 4], weights: [f32; 4]) -> Vertex {
        Vertex {
            position: [1.0, 2.0, 3.0],
            joints,
            weights,
            ..Vertex::default()
        }
    }

    #[test]
    fn agrees_with_the_cpu_blend_for_convex_weights() {
        let palette = [
            Mat3x4::from_trs(
                Vec3A::new(1.0, 0.0, 0.0),
                Quat::from_rotation_y(0.4),
                Vec3A::ONE,
            ),
            Mat3x4::from_trs(
                Vec3A::new(0.0, 2.0, 0.0),
                Quat::from_rotation_x(-0.3),
                Vec3A::ONE,
            ),
            Mat3x4::IDENTITY,
        ];
        let v = vertex([0, 1, 2, 0], [0.5, 0.3, 0.2, 0.0]);
        let cpu = crate::anim::skinning::skin_vertex(&v, &palette).position;
        assert!(gpu_skin_position(&v, &palette).abs_diff_eq(cpu, 1e-6));
    }

    #[test]
    fn the_first_slot_always_counts_and_nothing_is_renormalized() {
        let palette = [Mat3x4::IDENTITY, Mat3x4::IDENTITY];
        // Weights summing to one half scale the position by one half.
        let half = vertex([0, 1, 0, 0], [0.25, 0.25, 0.0, 0.0]);
        assert_eq!(gpu_skin_position(&half, &palette), Vec3::new(0.5, 1.0, 1.5));
        // A weightless vertex collapses to the origin (the CPU blend follows joint 0).
        let none = vertex([1, 0, 0, 0], [0.0; 4]);
        assert_eq!(gpu_skin_position(&none, &palette), Vec3::ZERO);
        // A negative weight counts in the first slot only.
        let negative = vertex([0, 1, 0, 0], [-1.0, -1.0, 0.0, 0.0]);
        assert_eq!(
            gpu_skin_position(&negative, &palette),
            Vec3::new(-1.0, -2.0, -3.0)
        );
    }
}
