//! Meshes to throng's vertex and index lists.
//!
//! A `.x` face indexes positions, and its `MeshNormals` face indexes normals separately: a
//! vertex is each distinct (position, normal) pair a subset uses, so a corner keeps its own
//! normal where the file gives one corner several (hard edges). Texture coordinates belong to
//! positions. Faces are grouped by material into subsets (one per material that has faces,
//! in the material list's order) and fanned into triangles `(0, i, i + 1)`. Normals the file
//! does not give are generated from the faces; tangents always are (the format has none).
//!
//! Influences: each `SkinWeights` adds its bone to the vertices it lists; a vertex keeps its
//! four largest weights, normalized to sum 1. A skinned vertex no `SkinWeights` lists follows
//! the mesh's first bone (with a warning). A mesh without `SkinWeights` follows its frame's
//! joint rigidly. Positions stay in the mesh's own space (see `skeleton`).

use std::collections::HashMap;

use glam::{Mat4, Vec2, Vec3};

use super::document::Document;
use super::materials::XMaterial;
use super::mesh::XMesh;
use super::reader::Result;
use super::skeleton::Rig;
use crate::anim::{Subset, Vertex};
use crate::asset::gltf::generate;
use crate::asset::{ErrorKind, LoadError};

/// How far a weight sum may be from 1 before it is worth a warning.
const SUM_TOLERANCE: f32 = 0.01;

/// A vertex's joints and weights.
type Influence = ([u16; 4], [f32; 4]);

/// The geometry of every mesh, and the file's materials its subsets index.
pub(super) struct Geometry {
    /// Vertices with positions, normals, tangents, UVs and influences.
    pub vertices: Vec<Vertex>,
    /// Triangle list.
    pub indices: Vec<u32>,
    /// One per material with faces, per mesh.
    pub subsets: Vec<Subset>,
    /// Every mesh's materials, one list after another.
    pub materials: Vec<XMaterial>,
}

/// Builds the geometry of `doc` for `rig`.
pub(super) fn build(file: &str, doc: &Document, rig: &Rig) -> Result<Geometry> {
    let mut out = Geometry {
        vertices: Vec::new(),
        indices: Vec::new(),
        subsets: Vec::new(),
        materials: Vec::new(),
    };
    let mut generated = Vec::new();
    let mut warned = Warned::default();
    for (m, mesh) in doc.meshes.iter().enumerate() {
        let rigid = rig.rigid_joint.get(m).copied().flatten();
        let influences = influences(file, doc, rig, mesh, rigid, &mut warned)?;
        let place = Placement::new(rigid_to_bind(rig, mesh, rigid));
        let default_list;
        let (per_face, list) = match &mesh.materials {
            Some((per_face, list)) => (per_face.as_slice(), list.as_slice()),
            None => {
                default_list = (vec![0u32; mesh.faces.len()], [XMaterial::default()]);
                (default_list.0.as_slice(), &default_list.1[..])
            }
        };
        let base = out.materials.len();
        out.materials.extend_from_slice(list);
        // Faces grouped by material, in face order within a material.
        let mut order: Vec<u32> = (0..mesh.faces.len() as u32).collect();
        order.sort_by_key(|&f| per_face.get(f as usize).copied().unwrap_or(0));
        let mut corner_vertex: HashMap<(u32, u32), u32> = HashMap::new();
        let mut polygon: Vec<u32> = Vec::new();
        let mut group_start = 0;
        while group_start < order.len() {
            let material = per_face
                .get(order[group_start] as usize)
                .copied()
                .unwrap_or(0);
            let group_end = order[group_start..]
                .iter()
                .position(|&f| per_face.get(f as usize).copied().unwrap_or(0) != material)
                .map_or(order.len(), |p| group_start + p);
            corner_vertex.clear();
            let vertex_start = out.vertices.len();
            let index_start = out.indices.len();
            for &f in &order[group_start..group_end] {
                let f = f as usize;
                let corners = mesh.faces.face(f);
                let normal_corners = mesh.normals.as_ref().map(|(_, nf)| nf.face(f));
                polygon.clear();
                for (c, &p) in corners.iter().enumerate() {
                    let n = normal_corners
                        .and_then(|nc| nc.get(c))
                        .copied()
                        .unwrap_or(u32::MAX);
                    let next = u32::try_from(out.vertices.len()).map_err(|_| {
                        LoadError::new(file, ErrorKind::TooLarge, "more than 2^32 vertices")
                            .in_section(mesh.section.clone())
                    })?;
                    let v = *corner_vertex.entry((p, n)).or_insert_with(|| {
                        let (vertex, needs_normal) = vertex(mesh, p, n, &influences, &place);
                        if needs_normal {
                            generated.push(next as usize);
                        }
                        out.vertices.push(vertex);
                        next
                    });
                    polygon.push(v);
                }
                fan(&mut out.indices, &polygon);
            }
            out.subsets.push(Subset {
                vertex_start: vertex_start as u32,
                vertex_count: (out.vertices.len() - vertex_start) as u32,
                index_start: index_start as u32,
                index_count: (out.indices.len() - index_start) as u32,
                material: base + material as usize,
            });
            group_start = group_end;
        }
    }
    finish_normals_and_tangents(&mut out, &generated);
    Ok(out)
}

/// Appends the triangle fan of `polygon` (its corners' vertices, in order).
fn fan(indices: &mut Vec<u32>, polygon: &[u32]) {
    if let Some((&a, rest)) = polygon.split_first() {
        for pair in rest.windows(2) {
            indices.extend_from_slice(&[a, pair[0], pair[1]]);
        }
    }
}

/// The matrix that takes a rigid mesh's vertices into its joint's bind space: the inverse of
/// the joint's offset, which is the identity unless the frame is also a bone with an offset of
/// its own. Identity for skinned meshes, which keep their own space.
fn rigid_to_bind(rig: &Rig, mesh: &XMesh, rigid: Option<usize>) -> Mat4 {
    match rigid.filter(|_| mesh.skins.is_empty()) {
        Some(j) => rig
            .skeleton
            .offsets()
            .get(j)
            .and_then(|o| o.inverse())
            .map_or(Mat4::IDENTITY, |m| m.to_mat4()),
        None => Mat4::IDENTITY,
    }
}

/// Where a mesh's vertices go, for points and (inverse transpose) for normals.
struct Placement {
    points: Mat4,
    normals: Mat4,
}

impl Placement {
    fn new(m: Mat4) -> Self {
        Self {
            points: m,
            normals: m.inverse().transpose(),
        }
    }
}

/// One output vertex; the flag says its normal must be generated.
fn vertex(
    mesh: &XMesh,
    p: u32,
    n: u32,
    influences: &[Influence],
    place: &Placement,
) -> (Vertex, bool) {
    let position = mesh
        .positions
        .get(p as usize)
        .copied()
        .unwrap_or(Vec3::ZERO);
    let normal = mesh
        .normals
        .as_ref()
        .and_then(|(list, _)| list.get(n as usize))
        .and_then(|v| v.try_normalize());
    let position = place.points.transform_point3(position);
    let normal = normal.and_then(|v| place.normals.transform_vector3(v).try_normalize());
    let uv = mesh
        .uvs
        .as_ref()
        .and_then(|uvs| uvs.get(p as usize))
        .copied()
        .unwrap_or(Vec2::ZERO);
    let (joints, weights) = influences
        .get(p as usize)
        .copied()
        .unwrap_or(([0; 4], [1.0, 0.0, 0.0, 0.0]));
    let vertex = Vertex {
        position: position.to_array(),
        normal: normal.unwrap_or(Vec3::Y).to_array(),
        tangent: [1.0, 0.0, 0.0, 1.0],
        uv: uv.to_array(),
        joints,
        weights,
    };
    (vertex, normal.is_none())
}

/// Generates the normals `generated` lists, and every tangent.
fn finish_normals_and_tangents(out: &mut Geometry, generated: &[usize]) {
    let positions: Vec<Vec3> = out
        .vertices
        .iter()
        .map(|v| Vec3::from(v.position))
        .collect();
    if !generated.is_empty() {
        let normals = generate::normals(&positions, &out.indices);
        for &v in generated {
            if let (Some(vertex), Some(n)) = (out.vertices.get_mut(v), normals.get(v)) {
                vertex.normal = n.to_array();
            }
        }
    }
    let normals: Vec<Vec3> = out.vertices.iter().map(|v| Vec3::from(v.normal)).collect();
    let uvs: Vec<Vec2> = out.vertices.iter().map(|v| Vec2::from(v.uv)).collect();
    let tangents = generate::tangents(&positions, &normals, &uvs, &out.indices);
    for (vertex, t) in out.vertices.iter_mut().zip(tangents) {
        vertex.tangent = t.to_array();
    }
}

/// Warnings said once per file.
#[derive(Default)]
struct Warned {
    unweighted: bool,
    sum: bool,
    more_than_four: bool,
}

/// Each position's influences.
fn influences(
    file: &str,
    doc: &Document,
    rig: &Rig,
    mesh: &XMesh,
    rigid: Option<usize>,
    warned: &mut Warned,
) -> Result<Vec<Influence>> {
    let count = mesh.positions.len();
    if mesh.skins.is_empty() {
        let Some(joint) = rigid else {
            return Err(LoadError::new(
                file,
                ErrorKind::Invalid,
                "the mesh has no joint to follow",
            )
            .in_section(mesh.section.clone()));
        };
        let one = ([joint as u16, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]);
        return Ok(vec![one; count]);
    }
    let mut all = vec![([0u16; 4], [0f32; 4]); count];
    let mut used = vec![0u8; count];
    let mut first_joint = None;
    let mut dropped = false;
    for skin in &mesh.skins {
        let joint = doc
            .frame_named(&skin.bone)
            .and_then(|f| rig.frame_joint.get(f).copied().flatten())
            .unwrap_or(0) as u16;
        first_joint.get_or_insert(joint);
        for (&v, &w) in skin.vertices.iter().zip(&skin.weights) {
            let (Some(slot), Some(n)) = (all.get_mut(v as usize), used.get_mut(v as usize)) else {
                continue;
            };
            if w == 0.0 {
                continue;
            }
            let (joints, weights) = slot;
            if (*n as usize) < 4 {
                joints[*n as usize] = joint;
                weights[*n as usize] = w;
                *n += 1;
            } else {
                dropped = true;
                // Replace the smallest if this one is larger (ties keep the earlier).
                let (k, smallest) =
                    weights
                        .iter()
                        .enumerate()
                        .fold(
                            (0, f32::INFINITY),
                            |a, (k, &x)| if x < a.1 { (k, x) } else { a },
                        );
                if w > smallest {
                    joints[k] = joint;
                    weights[k] = w;
                }
            }
        }
    }
    let first_joint = first_joint.unwrap_or(0);
    let mut unweighted = 0usize;
    let mut off_sum = 0usize;
    for (joints, weights) in &mut all {
        let sum: f32 = weights.iter().sum();
        if !(sum > 0.0) {
            unweighted += 1;
            *joints = [first_joint, 0, 0, 0];
            *weights = [1.0, 0.0, 0.0, 0.0];
            continue;
        }
        if (sum - 1.0).abs() > SUM_TOLERANCE {
            off_sum += 1;
        }
        for w in weights.iter_mut() {
            *w /= sum;
        }
    }
    if unweighted > 0 && !warned.unweighted {
        warned.unweighted = true;
        log::warn!(
            "{file}: {}: {unweighted} vertices have no skin weight; they follow the mesh's first bone",
            mesh.section
        );
    }
    if off_sum > 0 && !warned.sum {
        warned.sum = true;
        log::warn!(
            "{file}: {}: {off_sum} vertices have weights that do not sum to 1; renormalized",
            mesh.section
        );
    }
    if dropped && !warned.more_than_four {
        warned.more_than_four = true;
        log::warn!(
            "{file}: {}: vertices with more than four bones keep the four largest weights, renormalized",
            mesh.section
        );
    }
    Ok(all)
}
