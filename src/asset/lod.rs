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
//! - **Split surfaces welded**: where a mesh's triangles share no vertex (flat shading, hard
//!   edges: every corner has a vertex of its own with its face's normal), no edge can be
//!   collapsed and the levels above stall at once. Such a mesh is simplified again on a copy
//!   welded by position (each subset's vertices at one place made one), weighing only where
//!   the vertices go in the poses; each corner of a kept triangle is then given back the
//!   original vertex at its place whose normal is nearest the triangle's own, which restores
//!   the flat shading and the texture seams. The welded levels are used when they go further.
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
    let levels = simplify(model, Weld::None);
    if levels.len() < LEVELS && has_split_vertices(model.mesh()) {
        let welded = simplify(model, Weld::ByPosition);
        if welded.len() > levels.len() {
            return welded;
        }
    }
    levels
}

/// Whether the mesh is simplified as it stands or welded by position first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Weld {
    None,
    ByPosition,
}

/// Whether at least a tenth of the mesh's vertices share their place with another vertex of
/// their subset (a surface split by normals or texture coordinates).
fn has_split_vertices(mesh: &crate::anim::Mesh) -> bool {
    let places: usize = mesh
        .subsets
        .iter()
        .map(|s| {
            let range = s.vertex_start as usize..(s.vertex_start + s.vertex_count) as usize;
            let mut seen = std::collections::HashSet::new();
            mesh.vertices[range]
                .iter()
                .filter(|v| seen.insert(v.position.map(f32::to_bits)))
                .count()
        })
        .sum();
    places * 10 < mesh.vertices.len() * 9
}

/// Per subset: the first vertex at each vertex's place (`canonical`), and every vertex at
/// each canonical vertex's place (`at_place`).
struct Welding {
    canonical: Vec<u32>,
    at_place: std::collections::HashMap<u32, Vec<u32>>,
}

impl Welding {
    fn new(mesh: &crate::anim::Mesh) -> Self {
        let mut canonical: Vec<u32> = (0..mesh.vertices.len() as u32).collect();
        let mut at_place: std::collections::HashMap<u32, Vec<u32>> = Default::default();
        for s in &mesh.subsets {
            let mut first: std::collections::HashMap<[u32; 3], u32> = Default::default();
            for i in s.vertex_start..s.vertex_start + s.vertex_count {
                let key = mesh.vertices[i as usize].position.map(f32::to_bits);
                let c = *first.entry(key).or_insert(i);
                canonical[i as usize] = c;
                at_place.entry(c).or_default().push(i);
            }
        }
        Self {
            canonical,
            at_place,
        }
    }

    /// The welded vertex buffer (one vertex per place of each subset), and the maps from the
    /// mesh's vertices into it and back (to each place's first vertex).
    fn compact(&self, mesh: &crate::anim::Mesh) -> (Vec<Vertex>, Vec<u32>, Vec<u32>) {
        let mut to = vec![0u32; mesh.vertices.len()];
        let mut from = Vec::new();
        let mut vertices = Vec::new();
        let mut index_of: std::collections::HashMap<u32, u32> = Default::default();
        for (i, &c) in self.canonical.iter().enumerate() {
            let j = *index_of.entry(c).or_insert_with(|| {
                from.push(c);
                vertices.push(mesh.vertices[c as usize]);
                (from.len() - 1) as u32
            });
            to[i] = j;
        }
        (vertices, to, from)
    }

    /// A welded triangle list given back vertices of the mesh: each corner the vertex at its
    /// place whose normal is nearest the triangle's.
    fn restore(&self, mesh: &crate::anim::Mesh, welded: &[u32]) -> Vec<u32> {
        let mut out = Vec::with_capacity(welded.len());
        for t in welded.chunks_exact(3) {
            let p = |i: u32| glam::Vec3::from(mesh.vertices[i as usize].position);
            let face = (p(t[1]) - p(t[0]))
                .cross(p(t[2]) - p(t[0]))
                .normalize_or_zero();
            for &c in t {
                let nearest = self.at_place.get(&c).and_then(|candidates| {
                    candidates.iter().copied().max_by(|&a, &b| {
                        let dot =
                            |i: u32| face.dot(glam::Vec3::from(mesh.vertices[i as usize].normal));
                        dot(a).total_cmp(&dot(b))
                    })
                });
                out.push(nearest.unwrap_or(c));
            }
        }
        out
    }
}

/// The levels of `model`'s mesh, simplified as it stands or welded (see the module
/// documentation).
fn simplify(model: &SkinnedModel, weld: Weld) -> Vec<MeshLod> {
    let mesh = model.mesh();
    let total: usize = mesh
        .subsets
        .iter()
        .map(|s| s.index_count as usize / 3)
        .sum();
    if mesh.vertices.is_empty() || total < SMALLEST_SUBSET * 2 {
        return Vec::new();
    }
    // Welded, meshoptimizer sees one vertex per place: a vertex buffer still holding the
    // other corners at each place would make it treat every place as a seam and keep it.
    let welding = (weld == Weld::ByPosition).then(|| Welding::new(mesh));
    let (vertices, to_simplified, from_simplified) = match &welding {
        Some(w) => w.compact(mesh),
        None => {
            let all: Vec<u32> = (0..mesh.vertices.len() as u32).collect();
            (mesh.vertices.clone(), all.clone(), all)
        }
    };
    let Ok(adapter) = VertexDataAdapter::new(
        bytemuck::cast_slice(&vertices),
        size_of::<Vertex>(),
        std::mem::offset_of!(Vertex, position),
    ) else {
        return Vec::new();
    };
    let scale = simplify_scale(&adapter);
    if !(scale.is_finite() && scale > 0.0) {
        return Vec::new();
    }
    let all_attributes = attributes(model, scale);
    let attributes: Vec<f32> = from_simplified
        .iter()
        .flat_map(|&i| {
            let at = i as usize * ATTRIBUTES;
            all_attributes[at..at + ATTRIBUTES].iter().copied()
        })
        .collect();
    // Welded, a place's normal and texture coordinate are one arbitrary corner's: only where
    // it goes in the poses says anything.
    let weights = attribute_weights(weld);
    // Nothing locked by hand: LockBorder keeps subset borders.
    let unlocked = vec![false; vertices.len()];
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
            let original = &mesh.indices[start..start + subset.index_count as usize];
            let triangles = original.len() / 3;
            let target = (triangles >> k).max(1) * 3;
            let mut relative = 0.0f32;
            let kept = if triangles < SMALLEST_SUBSET {
                original.to_vec()
            } else {
                let source: Vec<u32> = original
                    .iter()
                    .map(|&i| to_simplified[i as usize])
                    .collect();
                let kept = simplify_with_attributes_and_locks(
                    &source,
                    &adapter,
                    &attributes,
                    &weights,
                    ATTRIBUTES * size_of::<f32>(),
                    &unlocked,
                    target,
                    MAX_RELATIVE_ERROR,
                    SimplifyOptions::LockBorder,
                    Some(&mut relative),
                );
                let kept: Vec<u32> = kept.iter().map(|&i| from_simplified[i as usize]).collect();
                match &welding {
                    Some(w) => w.restore(mesh, &kept),
                    None => kept,
                }
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

fn attribute_weights(weld: Weld) -> Vec<f32> {
    let (normal, uv) = match weld {
        Weld::None => (NORMAL_WEIGHT, UV_WEIGHT),
        Weld::ByPosition => (0.0, 0.0),
    };
    let mut w = vec![normal; 3];
    w.extend([uv; 2]);
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

    /// The built-in character flat shaded: every triangle with vertices of its own carrying
    /// the triangle's normal (what an exporter writes for hard edges or flat shading).
    fn flat_builtin() -> SkinnedModel {
        let mut model = builtin();
        let mesh = model.mesh();
        let mut vertices = Vec::new();
        let mut subsets = Vec::new();
        let mut indices = Vec::new();
        for s in &mesh.subsets {
            let vertex_start = vertices.len() as u32;
            let first = s.index_start as usize;
            for t in mesh.indices[first..first + s.index_count as usize].chunks_exact(3) {
                let p = |i: u32| glam::Vec3::from(mesh.vertices[i as usize].position);
                let n = (p(t[1]) - p(t[0]))
                    .cross(p(t[2]) - p(t[0]))
                    .normalize_or(glam::Vec3::Y);
                for &i in t {
                    let mut v = mesh.vertices[i as usize];
                    v.normal = n.to_array();
                    indices.push(vertices.len() as u32);
                    vertices.push(v);
                }
            }
            subsets.push(Subset {
                vertex_start,
                vertex_count: vertices.len() as u32 - vertex_start,
                index_start: s.index_start,
                index_count: s.index_count,
                material: s.material,
            });
        }
        let flat = Mesh {
            vertices,
            indices,
            subsets,
            materials: mesh.materials.clone(),
            textures: mesh.textures.clone(),
        };
        model.replace_mesh(flat).expect("a valid mesh");
        model
    }

    #[test]
    fn a_flat_shaded_mesh_gets_levels_with_its_flat_shading() {
        let model = flat_builtin();
        let mesh = model.mesh();
        assert_eq!(mesh.vertices.len(), mesh.indices.len(), "no vertex shared");
        // As it stands, nothing collapses.
        assert!(simplify(&model, Weld::None).is_empty());
        let levels = generate(&model);
        eprintln!(
            "flat built-in: {:?}",
            levels
                .iter()
                .map(|l| (l.indices.len() / 3, l.error))
                .collect::<Vec<_>>()
        );
        assert!(levels.len() >= 3, "{} levels", levels.len());
        let full = mesh.triangle_count() as f64;
        let (mut corners, mut facing) = (0usize, 0usize);
        for (k, lod) in levels.iter().enumerate() {
            let ratio = (lod.indices.len() / 3) as f64 / full;
            let want = 0.5f64.powi(k as i32 + 1);
            assert!(
                ratio <= want * 1.3 && ratio >= want * 0.6,
                "level {}: {ratio:.3} of the triangles, about {want} wanted",
                k + 1
            );
            // Each corner's normal is near its triangle's: the flat shading came back.
            for t in lod.indices.chunks_exact(3) {
                let p = |i: u32| glam::Vec3::from(mesh.vertices[i as usize].position);
                let face = (p(t[1]) - p(t[0]))
                    .cross(p(t[2]) - p(t[0]))
                    .normalize_or_zero();
                for &i in t {
                    corners += 1;
                    let n = glam::Vec3::from(mesh.vertices[i as usize].normal);
                    facing += usize::from(n.dot(face) > 0.8);
                }
            }
        }
        eprintln!("{facing} of {corners} corners keep a normal near their triangle's");
        assert!(
            facing * 10 >= corners * 9,
            "only {facing} of {corners} corners keep a normal near their triangle's"
        );
        let errors: Vec<f32> = levels.iter().map(|l| l.error).collect();
        assert!(errors.windows(2).all(|w| w[0] <= w[1]), "{errors:?}");
        assert!(
            *errors.last().expect("levels") <= 0.05 * 1.85 * 1.01,
            "{errors:?}"
        );
        let mut model = model;
        model.set_lods(levels).expect("valid levels");
    }

    #[test]
    fn the_builtin_character_halves_level_by_level() {
        let model = builtin();
        let full = model.mesh().triangle_count() as f64;
        let levels = generate(&model);
        assert!(levels.len() >= 3, "{} levels", levels.len());
        let mut previous = full;
        for (k, lod) in levels.iter().enumerate() {
            let triangles = (lod.indices.len() / 3) as f64;
            let ratio = triangles / full;
            let want = 0.5f64.powi(k as i32 + 1);
            // The first three levels halve; further ones stop short where the borders between
            // materials (kept whole) hold most of what is left.
            if k < 3 {
                assert!(
                    ratio <= want * 1.3 && ratio >= want * 0.7,
                    "level {}: {ratio:.3} of the triangles, about {want} wanted",
                    k + 1
                );
            } else {
                assert!(triangles <= previous * 0.8, "level {}: {triangles}", k + 1);
            }
            previous = triangles;
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
