//! Attributes a primitive may lack: normals and tangents.
//!
//! Normals: each triangle adds its unnormalized face normal (cross product of two edges,
//! whose length is twice its area) to its three vertices, so larger triangles weigh more;
//! the sums are normalized. Tangents: each triangle's tangent and bitangent follow from its
//! UV gradients (Lengyel's method: solve `e1 = du1 T + dv1 B`, `e2 = du2 T + dv2 B`),
//! accumulated per vertex, made orthogonal to the normal (Gram-Schmidt), with the
//! handedness in `w` from the sign of `dot(cross(N, T), B)`. Vertices with no usable
//! normal or UV gradient get any unit vector perpendicular to what they have.

use glam::{Vec2, Vec3, Vec4};

/// Area-weighted vertex normals of an indexed triangle list (indices already checked).
pub(crate) fn normals(positions: &[Vec3], indices: &[u32]) -> Vec<Vec3> {
    let mut sum = vec![Vec3::ZERO; positions.len()];
    for tri in indices.chunks_exact(3) {
        let [a, b, c] = [tri[0] as usize, tri[1] as usize, tri[2] as usize];
        let n = (positions[b] - positions[a]).cross(positions[c] - positions[a]);
        if n.is_finite() {
            sum[a] += n;
            sum[b] += n;
            sum[c] += n;
        }
    }
    sum.into_iter()
        .map(|n| n.try_normalize().unwrap_or(Vec3::Y))
        .collect()
}

/// Tangents from UV gradients (see the module documentation).
pub(crate) fn tangents(
    positions: &[Vec3],
    normals: &[Vec3],
    uvs: &[Vec2],
    indices: &[u32],
) -> Vec<Vec4> {
    let mut tan = vec![Vec3::ZERO; positions.len()];
    let mut bit = vec![Vec3::ZERO; positions.len()];
    for tri in indices.chunks_exact(3) {
        let [a, b, c] = [tri[0] as usize, tri[1] as usize, tri[2] as usize];
        let (e1, e2) = (positions[b] - positions[a], positions[c] - positions[a]);
        let (d1, d2) = (uvs[b] - uvs[a], uvs[c] - uvs[a]);
        let det = d1.x * d2.y - d2.x * d1.y;
        if !(det.abs() > 1e-12) {
            continue;
        }
        let r = 1.0 / det;
        let t = (e1 * d2.y - e2 * d1.y) * r;
        let s = (e2 * d1.x - e1 * d2.x) * r;
        if !(t.is_finite() && s.is_finite()) {
            continue;
        }
        for v in [a, b, c] {
            tan[v] += t;
            bit[v] += s;
        }
    }
    (0..positions.len())
        .map(|v| {
            let n = normals[v];
            let t = (tan[v] - n * n.dot(tan[v]))
                .try_normalize()
                .unwrap_or_else(|| n.any_orthonormal_vector());
            let w = if n.cross(t).dot(bit[v]) < 0.0 {
                -1.0
            } else {
                1.0
            };
            t.extend(w)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quad_in_the_xy_plane_faces_z_with_tangent_along_u() {
        let p = [Vec3::ZERO, Vec3::X, Vec3::new(1.0, 1.0, 0.0), Vec3::Y];
        let uv = [
            Vec2::new(0.0, 1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(1.0, 0.0),
            Vec2::ZERO,
        ];
        let idx = [0, 1, 2, 0, 2, 3];
        let n = normals(&p, &idx);
        assert!(n.iter().all(|n| n.abs_diff_eq(Vec3::Z, 1e-6)));
        let t = tangents(&p, &n, &uv, &idx);
        // v grows downwards (glTF's UV origin is top left), so the bitangent is -Y and the
        // frame is left-handed relative to N x T = +Y.
        assert!(
            t.iter()
                .all(|t| t.abs_diff_eq(Vec4::new(1.0, 0.0, 0.0, -1.0), 1e-6)),
            "{t:?}"
        );
    }
}
