//! `MeshLod`: a coarser version of a model's mesh, for instances seen small. It keeps the
//! mesh's vertices (so skin weights, normals and texture coordinates are the full mesh's, and
//! one vertex buffer serves every level) and has fewer triangles. `asset::lod` makes them.

use super::error::AnimError;
use super::mesh::Mesh;

/// One coarser level of a mesh; see the module documentation.
#[derive(Clone, Debug, PartialEq)]
pub struct MeshLod {
    /// Triangle indices (into the mesh's vertices) of every subset at this level, subset after
    /// subset.
    pub indices: Vec<u32>,
    /// Per subset, in the mesh's subset order: its first index in `indices` and its index
    /// count (a multiple of three; zero when the subset vanishes at this level).
    pub subsets: Vec<(u32, u32)>,
    /// How far the coarse surface may stray from the full one, in model units.
    pub error: f32,
}

/// Checks `lods` against `mesh`: one range per subset inside `indices`, whole triangles,
/// every index inside its subset's vertices, errors finite, non-negative and non-decreasing
/// from level to level (a renderer picks the coarsest level whose error it can afford).
pub(crate) fn validate(mesh: &Mesh, lods: &[MeshLod]) -> Result<(), AnimError> {
    let mut previous = 0.0f32;
    for (k, lod) in lods.iter().enumerate() {
        let level = k + 1;
        let fail = |why: String| Err(AnimError::Mesh(format!("level of detail {level}: {why}")));
        if lod.subsets.len() != mesh.subsets.len() {
            return fail(format!(
                "{} subset ranges for {} subsets",
                lod.subsets.len(),
                mesh.subsets.len()
            ));
        }
        if !(lod.error.is_finite() && lod.error >= previous) {
            return fail(format!(
                "error {} after {previous} (errors must be finite and non-decreasing)",
                lod.error
            ));
        }
        previous = lod.error;
        for (s, (&(first, count), subset)) in lod.subsets.iter().zip(&mesh.subsets).enumerate() {
            let end = u64::from(first) + u64::from(count);
            if end > lod.indices.len() as u64 || count % 3 != 0 {
                return fail(format!(
                    "subset {s}: indices {first}..{end} of {} are not whole triangles inside \
                     the level",
                    lod.indices.len()
                ));
            }
            let vertices = u64::from(subset.vertex_start)
                ..u64::from(subset.vertex_start) + u64::from(subset.vertex_count);
            let range = first as usize..end as usize;
            if let Some(&i) = lod.indices[range]
                .iter()
                .find(|&&i| !vertices.contains(&u64::from(i)))
            {
                return fail(format!(
                    "subset {s}: vertex {i} is outside the subset's vertices {}..{}",
                    vertices.start, vertices.end
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::{Material, Subset, Vertex};

    /// Two subsets of two triangles each, over vertices 0..4 and 4..8.
    fn mesh() -> Mesh {
        let subset = |s: u32| Subset {
            vertex_start: 4 * s,
            vertex_count: 4,
            index_start: 6 * s,
            index_count: 6,
            material: 0,
        };
        Mesh {
            vertices: vec![Vertex::default(); 8],
            indices: vec![0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7],
            subsets: vec![subset(0), subset(1)],
            materials: vec![Material::default()],
            textures: Vec::new(),
        }
    }

    fn level(indices: Vec<u32>, subsets: Vec<(u32, u32)>, error: f32) -> MeshLod {
        MeshLod {
            indices,
            subsets,
            error,
        }
    }

    #[test]
    fn levels_that_fit_are_taken() {
        let one = level(vec![0, 1, 2, 4, 5, 6], vec![(0, 3), (3, 3)], 0.1);
        let two = level(vec![0, 1, 2], vec![(0, 3), (3, 0)], 0.2);
        assert!(validate(&mesh(), &[one, two]).is_ok());
    }

    #[test]
    fn each_rule_refuses_what_breaks_it() {
        let m = mesh();
        let refused = |lods: Vec<MeshLod>, why: &str| {
            let err = validate(&m, &lods).expect_err(why).to_string();
            assert!(err.contains("level of detail"), "{why}: {err}");
        };
        refused(
            vec![level(vec![0, 1, 2], vec![(0, 3)], 0.1)],
            "a subset missing",
        );
        refused(
            vec![level(vec![0, 1, 2], vec![(0, 6), (0, 0)], 0.1)],
            "a range past the end",
        );
        refused(
            vec![level(vec![0, 1, 2, 3], vec![(0, 4), (0, 0)], 0.1)],
            "not whole triangles",
        );
        refused(
            vec![level(vec![4, 5, 6], vec![(0, 3), (0, 0)], 0.1)],
            "another subset's vertices",
        );
        refused(
            vec![level(vec![0, 1, 2], vec![(0, 3), (0, 0)], f32::NAN)],
            "a NaN error",
        );
        refused(
            vec![
                level(vec![0, 1, 2], vec![(0, 3), (0, 0)], 0.2),
                level(vec![0, 1, 2], vec![(0, 3), (0, 0)], 0.1),
            ],
            "a decreasing error",
        );
    }
}
