//! Vertex reuse, made at load with meshoptimizer: within each subset, vertices identical in
//! every attribute are merged into one, the triangles are ordered so that a vertex shaded
//! once is reused by the triangles that follow (the post-transform cache), and the vertices
//! are ordered as the triangles first use them (fetch locality). The triangles themselves and
//! every vertex's attributes are unchanged; only duplicates go, and orders change.
//!
//! Each subset keeps a range of vertices of its own, as the mesh's rules want. What it bought
//! is reported as [`VertexReuse`]: vertices before and after, and the average number of
//! vertices shaded per triangle (ACMR, for a 16-entry cache) before and after.

use meshopt::{
    analyze_vertex_cache, generate_vertex_remap, optimize_vertex_cache,
    optimize_vertex_fetch_remap, remap_index_buffer, remap_vertex_buffer,
};

use crate::anim::{Mesh, MeshLod, Subset, Vertex};

/// Entries of the post-transform cache the figures are for (a common size; meshoptimizer's
/// ordering does not depend on it).
const CACHE: u32 = 16;

/// What vertex reuse did to a mesh.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct VertexReuse {
    /// Vertices before.
    pub vertices_before: usize,
    /// Vertices after (identical ones merged).
    pub vertices_after: usize,
    /// Vertices shaded per triangle before (between 0.5 and 3: 3 when nothing is reused).
    pub acmr_before: f32,
    /// And after.
    pub acmr_after: f32,
}

/// `mesh` with its vertices merged and reordered and its triangles reordered (see the module
/// documentation), its coarser `lods` (made from `mesh`) pointed at the new vertices with
/// their triangles reordered likewise, and what that did.
pub fn optimize(mesh: &Mesh, lods: &[MeshLod]) -> (Mesh, Vec<MeshLod>, VertexReuse) {
    if mesh.indices.is_empty() {
        // Nothing draws: nothing to reuse (and a mesh without triangles is refused, with its
        // own message, where it would be drawn).
        let same = VertexReuse {
            vertices_before: mesh.vertices.len(),
            vertices_after: mesh.vertices.len(),
            acmr_before: 0.0,
            acmr_after: 0.0,
        };
        return (mesh.clone(), lods.to_vec(), same);
    }
    let mut vertices: Vec<Vertex> = Vec::with_capacity(mesh.vertices.len());
    let mut indices: Vec<u32> = Vec::with_capacity(mesh.indices.len());
    let mut subsets = Vec::with_capacity(mesh.subsets.len());
    let mut levels: Vec<MeshLod> = lods
        .iter()
        .map(|l| MeshLod {
            indices: Vec::with_capacity(l.indices.len()),
            subsets: Vec::with_capacity(l.subsets.len()),
            error: l.error,
        })
        .collect();
    let (mut shaded_before, mut shaded_after) = (0.0f64, 0.0f64);
    for (s, subset) in mesh.subsets.iter().enumerate() {
        let (start, count) = (subset.vertex_start as usize, subset.vertex_count as usize);
        let local = &mesh.vertices[start..start + count];
        let to_local = |range: &[u32]| -> Vec<u32> {
            range.iter().map(|&i| i - subset.vertex_start).collect()
        };
        let first = subset.index_start as usize;
        let source = to_local(&mesh.indices[first..first + subset.index_count as usize]);
        shaded_before += shaded(&source, count);
        // Merge, order the triangles for the cache, then the vertices for fetching; the
        // levels' triangles follow every step (they use the full mesh's vertices).
        let (unique, merge) = generate_vertex_remap(local, Some(&source));
        let merged = remap_vertex_buffer(local, unique, &merge);
        let merged_order = remap_index_buffer(Some(&source), unique, &merge);
        let cache_order = optimize_vertex_cache(&merged_order, unique);
        // meshoptimizer's order is for a model of the cache; measured against a 16-entry
        // one, a mesh an exporter already ordered well can come out a hair worse: keep the
        // better of the two.
        let ordered = if shaded(&cache_order, unique) <= shaded(&merged_order, unique) {
            cache_order
        } else {
            merged_order
        };
        let fetch = optimize_vertex_fetch_remap(&ordered, unique);
        let ordered = remap_index_buffer(Some(&ordered), unique, &fetch);
        let reordered = remap_vertex_buffer(&merged, unique, &fetch);
        shaded_after += shaded(&ordered, reordered.len());
        let vertex_start = vertices.len() as u32;
        subsets.push(Subset {
            vertex_start,
            vertex_count: reordered.len() as u32,
            index_start: indices.len() as u32,
            index_count: ordered.len() as u32,
            material: subset.material,
        });
        indices.extend(ordered.iter().map(|&i| i + vertex_start));
        vertices.extend(reordered);
        for (level, old) in levels.iter_mut().zip(lods) {
            let (at, n) = old.subsets.get(s).copied().unwrap_or((0, 0));
            let range = &old.indices[at as usize..(at + n) as usize];
            let moved: Vec<u32> = to_local(range)
                .iter()
                .map(|&i| fetch[merge[i as usize] as usize])
                .collect();
            let moved = optimize_vertex_cache(&moved, unique);
            level
                .subsets
                .push((level.indices.len() as u32, moved.len() as u32));
            level
                .indices
                .extend(moved.iter().map(|&i| i + vertex_start));
        }
    }
    let triangles = (mesh.indices.len() / 3).max(1) as f64;
    let report = VertexReuse {
        vertices_before: mesh.vertices.len(),
        vertices_after: vertices.len(),
        acmr_before: (shaded_before / triangles) as f32,
        acmr_after: (shaded_after / triangles) as f32,
    };
    let optimized = Mesh {
        vertices,
        indices,
        subsets,
        materials: mesh.materials.clone(),
        textures: mesh.textures.clone(),
    };
    (optimized, levels, report)
}

/// Vertices a 16-entry post-transform cache shades for `indices` (over `vertex_count`).
fn shaded(indices: &[u32], vertex_count: usize) -> f64 {
    if indices.is_empty() {
        return 0.0;
    }
    let stats = analyze_vertex_cache(indices, vertex_count, CACHE, 0, 0);
    f64::from(stats.acmr) * (indices.len() / 3) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The built-in character's mesh with every triangle given vertices of its own (what an
    /// exporter writing flat-shaded or unindexed triangles makes), attributes kept.
    fn unwelded(mesh: &Mesh) -> Mesh {
        let mut vertices = Vec::new();
        let mut indices = Vec::new();
        let mut subsets = Vec::new();
        for s in &mesh.subsets {
            let vertex_start = vertices.len() as u32;
            let first = s.index_start as usize;
            for &i in &mesh.indices[first..first + s.index_count as usize] {
                indices.push(vertices.len() as u32);
                vertices.push(mesh.vertices[i as usize]);
            }
            subsets.push(Subset {
                vertex_start,
                vertex_count: vertices.len() as u32 - vertex_start,
                index_start: first as u32,
                index_count: s.index_count,
                material: s.material,
            });
        }
        Mesh {
            vertices,
            indices,
            subsets,
            materials: mesh.materials.clone(),
            textures: mesh.textures.clone(),
        }
    }

    /// Each triangle as its three vertices' bits, sorted: what the mesh draws, whatever the
    /// orders.
    fn triangles(mesh: &Mesh) -> Vec<Vec<u32>> {
        let bits =
            |v: &Vertex| bytemuck::cast_slice::<Vertex, u32>(std::slice::from_ref(v)).to_vec();
        let mut out: Vec<Vec<u32>> = mesh
            .indices
            .chunks_exact(3)
            .map(|t| {
                let mut corners: Vec<Vec<u32>> = t
                    .iter()
                    .map(|&i| bits(&mesh.vertices[i as usize]))
                    .collect();
                // A triangle's corners keep their winding: rotate the smallest first.
                let least = (0..3).min_by_key(|&k| corners[k].clone()).unwrap_or(0);
                corners.rotate_left(least);
                corners.concat()
            })
            .collect();
        out.sort();
        out
    }

    #[test]
    fn an_unwelded_mesh_gets_its_vertices_back_and_draws_the_same_triangles() {
        let model = crate::asset::builtin::model().expect("builtin");
        let flat = unwelded(model.mesh());
        assert_eq!(flat.vertices.len(), flat.indices.len());
        let (optimized, _, reuse) = optimize(&flat, &[]);
        optimized
            .validate(model.joint_count())
            .expect("a valid mesh");
        assert_eq!(reuse.vertices_before, flat.vertices.len());
        // Every vertex the original shares between triangles is shared again (at most as
        // many as the original had, and far fewer than one per corner).
        assert!(
            reuse.vertices_after <= model.mesh().vertices.len(),
            "{reuse:?}"
        );
        assert!(
            reuse.vertices_after * 2 < reuse.vertices_before,
            "{reuse:?}"
        );
        assert!((reuse.acmr_before - 3.0).abs() < 1e-3, "{reuse:?}");
        assert!(reuse.acmr_after < 1.5, "{reuse:?}");
        assert_eq!(triangles(&optimized), triangles(&flat));
        // Subset by subset: same material, same triangle count, vertices in its own range.
        for (a, b) in optimized.subsets.iter().zip(&flat.subsets) {
            assert_eq!((a.material, a.index_count), (b.material, b.index_count));
        }
    }

    #[test]
    fn a_mesh_already_reused_is_not_made_worse() {
        let model = crate::asset::builtin::model().expect("builtin");
        let (optimized, _, reuse) = optimize(model.mesh(), &[]);
        assert!(reuse.vertices_after <= reuse.vertices_before, "{reuse:?}");
        assert!(reuse.acmr_after <= reuse.acmr_before + 1e-3, "{reuse:?}");
        assert_eq!(triangles(&optimized), triangles(model.mesh()));
    }

    #[test]
    fn levels_keep_their_triangles_on_the_new_vertices() {
        let model = crate::asset::builtin::model().expect("builtin");
        let lods = crate::asset::lod::generate(&model);
        assert!(!lods.is_empty());
        let (optimized, levels, _) = optimize(model.mesh(), &lods);
        assert_eq!(levels.len(), lods.len());
        for (new, old) in levels.iter().zip(&lods) {
            assert_eq!(new.error, old.error);
            let as_mesh = |m: &Mesh, lod: &MeshLod| Mesh {
                vertices: m.vertices.clone(),
                indices: lod.indices.clone(),
                subsets: Vec::new(),
                materials: Vec::new(),
                textures: Vec::new(),
            };
            assert_eq!(
                triangles(&as_mesh(&optimized, new)),
                triangles(&as_mesh(model.mesh(), old))
            );
            for (a, b) in new.subsets.iter().zip(&old.subsets) {
                assert_eq!(a.1, b.1, "each subset keeps its triangle count");
            }
        }
        let mut checked = model.clone();
        checked.replace_mesh(optimized).expect("valid");
        checked
            .set_lods(levels)
            .expect("the levels fit the new mesh");
    }
}
