//! CPU skinning, for tests and tools (the renderer skins on the GPU with the same math).

use glam::{Vec3, Vec4};

use super::matrix::Mat3x4;
use super::mesh::Vertex;

/// A vertex after skinning.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SkinnedVertex {
    /// Position in model space.
    pub position: Vec3,
    /// Unit normal.
    pub normal: Vec3,
    /// Unit tangent (xyz) and handedness (w, unchanged by skinning).
    pub tangent: Vec4,
}

/// Blends the palette matrices of a vertex's joints by its weights. Weights whose sum is off by
/// rounding are renormalized; a vertex with no weight at all follows joint 0 of its list.
///
/// # Panics
///
/// If a joint the vertex is weighted to (or its first joint) is not an index of `palette`.
#[inline]
#[must_use]
pub fn blend_matrix(v: &Vertex, palette: &[Mat3x4]) -> Mat3x4 {
    let sum: f32 = v.weights.iter().sum();
    if !(sum > 1e-6) {
        return palette[v.joints[0] as usize];
    }
    let scale = 1.0 / sum;
    let mut rows = [Vec4::ZERO; 3];
    for (&j, &w) in v.joints.iter().zip(&v.weights) {
        if w == 0.0 {
            continue;
        }
        let m = &palette[j as usize];
        for (acc, row) in rows.iter_mut().zip(&m.rows) {
            *acc += *row * (w * scale);
        }
    }
    Mat3x4 { rows }
}

/// Skins one vertex: position with the blended matrix, normal and tangent with its 3x3 part,
/// renormalized (uniform scale assumed, as the format's math does).
///
/// # Panics
///
/// As [`blend_matrix`].
#[must_use]
pub fn skin_vertex(v: &Vertex, palette: &[Mat3x4]) -> SkinnedVertex {
    let m = blend_matrix(v, palette);
    let t = Vec3::new(v.tangent[0], v.tangent[1], v.tangent[2]);
    SkinnedVertex {
        position: m.transform_point3(Vec3::from(v.position)),
        normal: m
            .transform_vector3(Vec3::from(v.normal))
            .normalize_or_zero(),
        tangent: m
            .transform_vector3(t)
            .normalize_or_zero()
            .extend(v.tangent[3]),
    }
}

/// Skins every vertex of `vertices` into the first `vertices.len()` entries of `out` (the
/// length rule of every stage: longer outputs keep their tail).
///
/// # Panics
///
/// If `out` is shorter than `vertices`, or as [`blend_matrix`].
pub fn skin_vertices(vertices: &[Vertex], palette: &[Mat3x4], out: &mut [SkinnedVertex]) {
    let out = &mut out[..vertices.len()];
    for (v, o) in vertices.iter().zip(out.iter_mut()) {
        *o = skin_vertex(v, palette);
    }
}
