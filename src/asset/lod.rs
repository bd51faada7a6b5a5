//! Mesh levels of detail, made at load with meshoptimizer (the `meshopt` crate): up to four
//! coarser versions of a model's mesh, with about 1/2, 1/4, 1/8 and 1/16 of its triangles.
//!
//! - **Each level from the full mesh**, not from the level before: meshoptimizer's error is
//!   then the distance from the full surface, which is what a renderer weighs against a
//!   pixel, and errors do not compound.
//! - **Subset by subset, borders locked**: subsets meet at open edges (a sleeve meets a hand,
//!   a shirt a neck); vertices on those edges keep their place, so no gap opens between
//!   materials. Vertices at one position with different normals or texture coordinates
//!   (seams) are kept together by meshoptimizer itself.
//! - **Attribute-aware**: normals and texture coordinates weigh in, so shading and textures do
//!   not tear; and so does where each vertex goes in two poses of the model's first clip, so a
//!   collapse that looks harmless in the bind pose but folds an elbow in motion costs what it
//!   should. Vertices keep their skin weights: levels only drop triangles.
//! - **Stop where it stalls**: simplification stops short of its triangle count rather than
//!   stray more than 5% of the mesh's size; a level that then keeps more than nine tenths of
//!   the previous one's triangles is not worth its memory, and it and every coarser level
//!   are left out.
//!
//! Errors are in model units (meshoptimizer's relative error times its scale of the mesh) and
//! never decrease from one level to the next.

use meshopt::{
    SimplifyOptions, VertexDataAdapter, simplify_scale, simplify_with_attributes_and_locks,
};

use crate::anim::{Mat3x4, MeshLod, PoseScratch, SkinnedModel, Vertex, skin_vertex};

/// The coarser levels made: 1/2, 1/4, 1/8 and 1/16 of the triangles.
pub const LEVELS: usize = 4;
/// A level keeping more than this share of the previous level's triangles has stalled.
const STALL: f64 = 0.9;
/// No level strays further than this share of the mesh's size from the full mesh: past it a
/// character loses limbs, and a level that cannot reach its triangle count within it has
/// stalled (at the sizes where such a level would be drawn, a pixel or two, the previous
/// level costs next to nothing anyway).
const MAX_RELATIVE_ERROR: f32 = 0.05;
/// Subsets smaller than this many triangles are kept whole at every level: there is nothing
/// to gain, and meshoptimizer can only make a mess of them.
const SMALLEST_SUBSET: usize = 8;
/// Weight of normals and of texture coordinates against position (relative to the mesh's
/// size): enough to keep creases and seams, little enough not to freeze smooth areas.
const NORMAL_WEIGHT: f32 = 0.5;
const UV_WEIGHT: f32 = 0.5;
/// Weight of a vertex's posed positions (in units of the mesh's size, like its position).
const POSE_WEIGHT: f32 = 1.0;
/// Poses sampled from the first clip, at these fractions of its duration.
const POSES: [f32; 2] = [0.3, 0.7];
/// Floats of attributes per vertex: normal (3), uv (2), a position per pose (3 each).
const ATTRIBUTES: usize = 5 + 3 * POSES.len();

/// The model's coarser levels (possibly none); see the module documentation.
pub fn generate(model: &SkinnedModel) -> Vec<MeshLod> {
    let mesh = model.mesh();
    let total: usize = mesh
        .subsets
        .iter()
        .map(|s| s.index_count as usize / 3)
        .sum();
    if mesh.vertices.is_empty() || total < SMALLEST_SUBSET * 2 {
        return Vec::new();
    }
    let Ok(adapter) = VertexDataAdapter::new(
        bytemuck::cast_slice(&mesh.vertices),
        size_of::<Vertex>(),
        std::mem::offset_of!(Vertex, position),
    ) else {
        return Vec::new();
    };
    let scale = simplify_scale(&adapter);
    if !(scale.is_finite() && scale > 0.0) {
        return Vec::new();
    }
    let attributes = attributes(model, scale);
    let weights = attribute_weights();
    // Nothing locked by hand: LockBorder keeps subset borders.
    let unlocked = vec![false; mesh.vertices.len()];
    let mut levels = Vec::new();
    let mut previous = total;
    let mut worst = 0.0f32;
    for k in 1..=LEVELS {
        let mut lod = MeshLod {
            indices: Vec::new(),
            subsets: Vec::with_capacity(mesh.subsets.len()),
            error: 0.0,
        };
        for subset in &mesh.subsets {
            let start = subset.index_start as usize;
            let source = &mesh.indices[start..start + subset.index_count as usize];
            let triangles = source.len() / 3;
            let target = (triangles >> k).max(1) * 3;
            let mut relative = 0.0f32;
            let kept = if triangles < SMALLEST_SUBSET {
                source.to_vec()
            } else {
                simplify_with_attributes_and_locks(
                    source,
                    &adapter,
                    &attributes,
                    &weights,
                    ATTRIBUTES * size_of::<f32>(),
                    &unlocked,
                    target,
                    MAX_RELATIVE_ERROR,
                    SimplifyOptions::LockBorder,
                    Some(&mut relative),
                )
            };
            let kept = without_degenerates(kept);
            let first = lod.indices.len() as u32;
            lod.subsets.push((first, kept.len() as u32));
            lod.indices.extend_from_slice(&kept);
            if relative.is_finite() {
                worst = worst.max(relative * scale);
            }
        }
        let triangles = lod.indices.len() / 3;
        if triangles as f64 > previous as f64 * STALL || triangles == 0 {
            break;
        }
        lod.error = worst;
        previous = triangles;
        levels.push(lod);
    }
    levels
}

/// Per vertex: its normal, texture coordinate and posed positions, scaled so that a unit of
/// each is worth a unit of the mesh's size (what meshoptimizer's weights are relative to).
fn attributes(model: &SkinnedModel, scale: f32) -> Vec<f32> {
    let mesh = model.mesh();
    let n = mesh.vertices.len();
    let mut out = vec![0.0f32; n * ATTRIBUTES];
    for (v, a) in mesh.vertices.iter().zip(out.chunks_exact_mut(ATTRIBUTES)) {
        a[..3].copy_from_slice(&v.normal);
        a[3..5].copy_from_slice(&v.uv);
    }
    let joints = model.joint_count();
    let mut palette = vec![Mat3x4::IDENTITY; joints];
    let mut scratch = PoseScratch::new(joints);
    for (p, &fraction) in POSES.iter().enumerate() {
        match model.clips().first() {
            Some(clip) => model.evaluate(0, clip.duration() * fraction, &mut scratch, &mut palette),
            None => model.bind_palette(&mut scratch, &mut palette),
        }
        let at = 5 + 3 * p;
        for (v, a) in mesh.vertices.iter().zip(out.chunks_exact_mut(ATTRIBUTES)) {
            let posed = skin_vertex(v, &palette).position / scale;
            // A pose that throws a vertex to infinity would poison the quadrics: leave it at
            // the origin (such a model is refused at construction anyway).
            let posed = if posed.is_finite() {
                posed
            } else {
                glam::Vec3::ZERO
            };
            a[at..at + 3].copy_from_slice(&posed.to_array());
        }
    }
    out
}

fn attribute_weights() -> Vec<f32> {
    let mut w = vec![NORMAL_WEIGHT; 3];
    w.extend([UV_WEIGHT; 2]);
    w.extend(std::iter::repeat_n(POSE_WEIGHT, 3 * POSES.len()));
    w
}

/// `indices` without triangles that use a vertex twice (they draw nothing).
fn without_degenerates(indices: Vec<u32>) -> Vec<u32> {
    if indices
        .chunks_exact(3)
        .all(|t| t[0] != t[1] && t[1] != t[2] && t[0] != t[2])
    {
        return indices;
    }
    indices
        .chunks_exact(3)
        .filter(|t| t[0] != t[1] && t[1] != t[2] && t[0] != t[2])
        .flatten()
        .copied()
        .collect()
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::anim::{Material, Mesh, Skeleton, Subset};

    fn builtin() -> SkinnedModel {
        crate::asset::builtin::model().expect("builtin")
    }

    /// The vertices on edges used by one triangle only (the subset's open borders), welded by
    /// position first: vertices split at a seam (same place, other normal or texture
    /// coordinate) are one point of the surface, and the edge between them no border. Each
    /// is named by the mesh's first vertex at its position.
    fn border_vertices(mesh: &Mesh, indices: &[u32]) -> Vec<u32> {
        let mut first_at: HashMap<[u32; 3], u32> = HashMap::new();
        for (i, v) in mesh.vertices.iter().enumerate() {
            first_at
                .entry(v.position.map(f32::to_bits))
                .or_insert(i as u32);
        }
        let weld = |i: u32| first_at[&mesh.vertices[i as usize].position.map(f32::to_bits)];
        let mut edges: HashMap<(u32, u32), u32> = HashMap::new();
        for t in indices.chunks_exact(3) {
            let t = [t[0], t[1], t[2]].map(weld);
            for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
                *edges.entry((a.min(b), a.max(b))).or_default() += 1;
            }
        }
        let mut v: Vec<u32> = edges
            .iter()
            .filter(|(_, n)| **n == 1)
            .flat_map(|((a, b), _)| [*a, *b])
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    #[test]
    fn the_builtin_character_halves_level_by_level() {
        let model = builtin();
        let full = model.mesh().triangle_count() as f64;
        let levels = generate(&model);
        assert!(levels.len() >= 3, "{} levels", levels.len());
        for (k, lod) in levels.iter().enumerate() {
            let ratio = (lod.indices.len() / 3) as f64 / full;
            let want = 0.5f64.powi(k as i32 + 1);
            assert!(
                ratio <= want * 1.3 && ratio >= want * 0.7,
                "level {}: {ratio:.3} of the triangles, about {want} wanted",
                k + 1
            );
        }
        let errors: Vec<f32> = levels.iter().map(|l| l.error).collect();
        assert!(errors.windows(2).all(|w| w[0] <= w[1]), "{errors:?}");
        // A few millimetres at the first level, under 5% of its 1.85 m at the last.
        assert!(errors[0] > 0.0 && errors[0] < 0.01, "{errors:?}");
        assert!(
            *errors.last().expect("levels") <= 0.05 * 1.85 * 1.01,
            "{errors:?}"
        );
        // The levels are valid for the model, and it takes them.
        let mut model = model;
        model.set_lods(levels).expect("valid levels");
    }

    #[test]
    fn subset_borders_stay_where_they_are() {
        let model = builtin();
        let mesh = model.mesh();
        for (k, lod) in generate(&model).iter().enumerate() {
            for (s, (subset, &(first, count))) in mesh.subsets.iter().zip(&lod.subsets).enumerate()
            {
                let start = subset.index_start as usize;
                let full = &mesh.indices[start..start + subset.index_count as usize];
                let coarse = &lod.indices[first as usize..(first + count) as usize];
                let kept = border_vertices(mesh, coarse);
                for v in border_vertices(mesh, full) {
                    assert!(
                        kept.binary_search(&v).is_ok(),
                        "level {}, subset {s}: border vertex {v} was moved or dropped",
                        k + 1
                    );
                }
                assert!(
                    coarse
                        .chunks_exact(3)
                        .all(|t| t[0] != t[1] && t[1] != t[2] && t[0] != t[2]),
                    "level {}, subset {s}: a degenerate triangle",
                    k + 1
                );
            }
        }
    }

    #[test]
    fn a_tetrahedron_has_nothing_to_give() {
        let corner = |x: f32, y: f32, z: f32| Vertex {
            position: [x, y, z],
            normal: [0.0, 1.0, 0.0],
            weights: [1.0, 0.0, 0.0, 0.0],
            ..Vertex::default()
        };
        let mesh = Mesh {
            vertices: vec![
                corner(0.0, 0.0, 0.0),
                corner(1.0, 0.0, 0.0),
                corner(0.0, 1.0, 0.0),
                corner(0.0, 0.0, 1.0),
            ],
            indices: vec![0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3],
            subsets: vec![Subset {
                vertex_start: 0,
                vertex_count: 4,
                index_start: 0,
                index_count: 12,
                material: 0,
            }],
            materials: vec![Material::default()],
            textures: Vec::new(),
        };
        let skeleton = Skeleton::with_derived_offsets(vec![crate::anim::Joint::new(
            "root",
            None,
            crate::anim::Transform::IDENTITY,
        )])
        .expect("skeleton");
        let model =
            SkinnedModel::new("tetrahedron", "test", skeleton, Vec::new(), mesh).expect("model");
        assert!(generate(&model).is_empty());
    }

    #[test]
    fn real_models_get_levels() {
        let shared = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/assets");
        for (file, at_least) in [
            ("m3d/soldier.m3d", 3),
            ("gltf/CesiumMan.glb", 2),
            ("dxsdk/tiny.x", 3),
        ] {
            let path = shared.join(file);
            let model = crate::asset::load_file(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let levels = generate(&model);
            assert!(levels.len() >= at_least, "{file}: {} levels", levels.len());
            let mut model = model;
            model.set_lods(levels).expect("valid levels");
        }
    }
}
