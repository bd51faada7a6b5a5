//! Skinned meshes to throng's mesh: polygons triangulated by ufbx (concave ones included),
//! one vertex per distinct combination of position, normal, UV and tangent, one subset per
//! mesh and material.
//!
//! Vertices are placed at the mesh's bind-time world placement (see `skin`). Normals come
//! from the file, or ufbx generates them; tangents come from the file or are generated from
//! the UVs afterwards; UVs are flipped to a top-left origin. Each vertex keeps its four
//! largest influences, renormalized (one warning counts the vertices that had more); a vertex
//! no cluster weights follows the skin's first bone (warned).

use std::collections::HashMap;

use glam::{DAffine3, DMat3, Vec2, Vec3, Vec4};

use super::skeleton::Rig;
use super::skin::{Skinned, mesh_section};
use super::values::{self, items};
use super::warnings::Warnings;
use crate::anim::{Subset, Vertex};
use crate::asset::budget::{Budget, cost, times};
use crate::asset::gltf::generate;
use crate::asset::{ErrorKind, LoadError};

/// What one face corner may cost on top of its vertex and triangle: its key in the
/// de-duplication map, the triangulation buffer and the generated tangents' sums.
const CORNER_EXTRA: u64 = 96;

/// One vertex's four largest influences (skeleton joints) and their weights.
type Influence = ([u16; 4], [f32; 4]);

/// The meshes' geometry; `material_slot` maps a ufbx material to throng's material index,
/// and `default_material` is the index to use for faces without one.
pub(super) struct Geometry {
    pub vertices: Vec<Vertex>,
    pub indices: Vec<u32>,
    pub subsets: Vec<Subset>,
    /// Whether some subset uses `default_material`.
    pub uses_default: bool,
}

/// Builds the geometry of every skinned mesh.
pub(super) fn build(
    file: &str,
    skins: &[Skinned],
    rig: &Rig,
    material_slot: &dyn Fn(&ufbx::Material) -> Option<usize>,
    default_material: usize,
    budget: &mut Budget,
    warn: &mut Warnings,
) -> Result<Geometry, LoadError> {
    let corners: usize = skins.iter().map(|s| s.mesh.num_indices).sum();
    let vertices: usize = skins.iter().map(|s| s.mesh.num_vertices).sum();
    budget
        .charge(
            times(corners, cost::VERTEX + cost::TRIANGLE + CORNER_EXTRA)
                .saturating_add(times(vertices, std::mem::size_of::<Influence>() as u64)),
            || format!("meshes of {corners} face corners"),
        )
        .map_err(|e| e.into_load_error(file, "meshes"))?;
    let mut out = Geometry {
        vertices: Vec::new(),
        indices: Vec::new(),
        subsets: Vec::new(),
        uses_default: false,
    };
    let mut more_than_four = 0usize;
    for skinned in skins {
        let ctx = MeshCtx {
            file,
            section: mesh_section(skinned.mesh),
        };
        let influences = influences(&ctx, skinned, rig, &mut more_than_four, warn)?;
        append(
            &ctx,
            skinned,
            &influences,
            material_slot,
            default_material,
            &mut out,
        )?;
    }
    if more_than_four > 0 {
        warn.once(
            "more than four",
            format!(
                "{more_than_four} vertices have more than four bone weights; the four largest \
                 are kept and renormalized"
            ),
        );
    }
    Ok(out)
}

/// Names the mesh in errors.
struct MeshCtx<'a> {
    file: &'a str,
    section: String,
}

impl MeshCtx<'_> {
    fn error(&self, kind: ErrorKind, message: impl Into<String>) -> LoadError {
        LoadError::new(self.file, kind, message).in_section(self.section.clone())
    }
}

/// The influences of every vertex of the mesh (ufbx's logical vertices, before splitting).
fn influences(
    ctx: &MeshCtx,
    skinned: &Skinned,
    rig: &Rig,
    more_than_four: &mut usize,
    warn: &mut Warnings,
) -> Result<Vec<Influence>, LoadError> {
    let mesh = skinned.mesh;
    let skin = skinned.skin;
    let bad = |what: &str| {
        ctx.error(
            ErrorKind::CountMismatch,
            format!("the skin's {what} do not fit the mesh"),
        )
    };
    let per_vertex = items(&skin.vertices).ok_or_else(|| bad("vertex list"))?;
    let weights = items(&skin.weights).ok_or_else(|| bad("weights"))?;
    if per_vertex.len() != mesh.num_vertices {
        return Err(ctx.error(
            ErrorKind::CountMismatch,
            format!(
                "the skin weights {} vertices, the mesh has {}",
                per_vertex.len(),
                mesh.num_vertices
            ),
        ));
    }
    // The joint of each cluster, and the first bone for vertices without weights.
    let cluster_joint: Vec<u16> = skinned
        .clusters
        .iter()
        .map(|c| rig.node_joint[c.node].and_then(|j| u16::try_from(j).ok()))
        .collect::<Option<_>>()
        .ok_or_else(|| ctx.error(ErrorKind::Invalid, "a cluster's bone is not a joint"))?;
    let fallback = *cluster_joint
        .first()
        .ok_or_else(|| ctx.error(ErrorKind::Invalid, "the skin has no clusters"))?;
    let mut unweighted = 0usize;
    let mut list: Vec<(u16, f32)> = Vec::new();
    let mut out = Vec::with_capacity(per_vertex.len());
    for (v, sv) in per_vertex.iter().enumerate() {
        let begin = sv.weight_begin as usize;
        let end = begin.checked_add(sv.num_weights as usize);
        let Some(these) = end.and_then(|end| weights.get(begin..end)) else {
            return Err(ctx
                .error(
                    ErrorKind::IndexOutOfRange,
                    format!("weights {begin}.. are past the skin's {}", weights.len()),
                )
                .at_record(format!("vertex {v}")));
        };
        list.clear();
        for w in these {
            let joint = *cluster_joint.get(w.cluster_index as usize).ok_or_else(|| {
                ctx.error(
                    ErrorKind::IndexOutOfRange,
                    format!(
                        "a weight names cluster {} of {}",
                        w.cluster_index,
                        cluster_joint.len()
                    ),
                )
                .at_record(format!("vertex {v}"))
            })?;
            let weight = w.weight as f32;
            if !(weight.is_finite() && weight >= 0.0) {
                return Err(ctx
                    .error(
                        ErrorKind::NonFinite,
                        format!(
                            "bone weight {} is not a finite non-negative number",
                            w.weight
                        ),
                    )
                    .at_record(format!("vertex {v}")));
            }
            if weight == 0.0 {
                continue;
            }
            // Two clusters of one bone add up.
            match list.iter_mut().find(|(j, _)| *j == joint) {
                Some(slot) => slot.1 += weight,
                None => list.push((joint, weight)),
            }
        }
        list.sort_by(|a, b| b.1.total_cmp(&a.1));
        if list.len() > 4 {
            *more_than_four += 1;
            list.truncate(4);
        }
        let total: f32 = list.iter().map(|i| i.1).sum();
        let mut influence: Influence = ([0; 4], [0.0; 4]);
        if total > 0.0 && total.is_finite() {
            for (k, (joint, weight)) in list.iter().enumerate() {
                influence.0[k] = *joint;
                influence.1[k] = weight / total;
            }
        } else {
            unweighted += 1;
            influence = ([fallback, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]);
        }
        out.push(influence);
    }
    if unweighted > 0 {
        warn.once(
            "unweighted",
            format!(
                "{}: {unweighted} vertices have no bone weight; they follow the skin's first \
                 bone",
                ctx.section
            ),
        );
    }
    Ok(out)
}

/// One vertex attribute's values and its per-corner indices, checked against the mesh's
/// corner count; `None` when the mesh does not have it.
struct Attribute<'m, T> {
    values: &'m [T],
    indices: &'m [u32],
}

impl<'m, T> Attribute<'m, T> {
    fn read(
        ctx: &MeshCtx,
        name: &str,
        exists: bool,
        values: &'m ufbx::List<T>,
        indices: &'m ufbx::List<u32>,
        corners: usize,
    ) -> Result<Option<Self>, LoadError> {
        if !exists {
            return Ok(None);
        }
        let (Some(values), Some(indices)) = (items(values), items(indices)) else {
            return Err(ctx.error(
                ErrorKind::Invalid,
                format!("the {name} arrays are unreadable"),
            ));
        };
        if indices.len() != corners {
            return Err(ctx.error(
                ErrorKind::CountMismatch,
                format!(
                    "{} {name} indices for {corners} face corners",
                    indices.len()
                ),
            ));
        }
        Ok(Some(Self { values, indices }))
    }

    /// The value index of `corner` and its value; an error when it is past the values.
    fn at(&self, ctx: &MeshCtx, name: &str, corner: usize) -> Result<(u32, &'m T), LoadError> {
        let index = self.indices[corner];
        match self.values.get(index as usize) {
            Some(v) => Ok((index, v)),
            None => Err(ctx.error(
                ErrorKind::IndexOutOfRange,
                format!(
                    "face corner {corner} uses {name} {index} of {}",
                    self.values.len()
                ),
            )),
        }
    }
}

/// What a face corner reads: the mesh's per-corner attributes and where the vertex goes.
struct Corners<'m> {
    vertex: &'m [u32],
    positions: Attribute<'m, ufbx::Vec3>,
    normals: Option<Attribute<'m, ufbx::Vec3>>,
    uvs: Option<Attribute<'m, ufbx::Vec2>>,
    tangents: Option<(Attribute<'m, ufbx::Vec3>, Attribute<'m, ufbx::Vec3>)>,
    influences: &'m [Influence],
    placement: DAffine3,
    normal_matrix: DMat3,
}

impl<'m> Corners<'m> {
    fn read(
        ctx: &MeshCtx,
        skinned: &'m Skinned,
        influences: &'m [Influence],
    ) -> Result<Self, LoadError> {
        let mesh = skinned.mesh;
        let corners = mesh.num_indices;
        let vertex = items(&mesh.vertex_indices)
            .ok_or_else(|| ctx.error(ErrorKind::Invalid, "the vertex index array is unreadable"))?;
        if vertex.len() != corners {
            return Err(ctx.error(
                ErrorKind::CountMismatch,
                format!("{} vertex indices for {corners} face corners", vertex.len()),
            ));
        }
        let (p, n, u) = (&mesh.vertex_position, &mesh.vertex_normal, &mesh.vertex_uv);
        let (t, b) = (&mesh.vertex_tangent, &mesh.vertex_bitangent);
        let positions = Attribute::read(ctx, "position", p.exists, &p.values, &p.indices, corners)?
            .ok_or_else(|| ctx.error(ErrorKind::Invalid, "the mesh has no vertex positions"))?;
        // ufbx's triangulation reads positions through these indices itself: all of them
        // are checked before it runs.
        if let Some(corner) = positions
            .indices
            .iter()
            .position(|&i| i as usize >= positions.values.len())
        {
            positions.at(ctx, "position", corner)?;
        }
        let tangents = Attribute::read(ctx, "tangent", t.exists, &t.values, &t.indices, corners)?;
        let bitangents =
            Attribute::read(ctx, "bitangent", b.exists, &b.values, &b.indices, corners)?;
        Ok(Self {
            vertex,
            positions,
            normals: Attribute::read(ctx, "normal", n.exists, &n.values, &n.indices, corners)?,
            uvs: Attribute::read(ctx, "UV", u.exists, &u.values, &u.indices, corners)?,
            tangents: tangents.zip(bitangents),
            influences,
            placement: skinned.placement,
            normal_matrix: normal_matrix(&skinned.placement.matrix3),
        })
    }

    /// The vertex at face corner `corner` (already checked to be one), placed in bind-time
    /// world space; its tangent is zero when the file has none usable.
    fn vertex(&self, ctx: &MeshCtx, corner: usize) -> Result<Vertex, LoadError> {
        let vertex = self.vertex[corner];
        let (joints, weights) = *self.influences.get(vertex as usize).ok_or_else(|| {
            ctx.error(
                ErrorKind::IndexOutOfRange,
                format!(
                    "face corner {corner} uses vertex {vertex} of {}",
                    self.influences.len()
                ),
            )
        })?;
        let (_, position) = self.positions.at(ctx, "position", corner)?;
        let position = self
            .placement
            .transform_point3(values::dvec3(position))
            .as_vec3();
        let normal = match &self.normals {
            Some(a) => {
                let (_, n) = a.at(ctx, "normal", corner)?;
                (self.normal_matrix * values::dvec3(n)).as_vec3()
            }
            None => Vec3::ZERO,
        };
        let normal = normal.try_normalize().unwrap_or(Vec3::Y);
        let uv = match &self.uvs {
            // FBX's UV origin is the bottom left; throng's the top left.
            Some(a) => {
                let uv = values::vec2(a.at(ctx, "UV", corner)?.1);
                Vec2::new(uv.x, 1.0 - uv.y)
            }
            None => Vec2::ZERO,
        };
        let tangent = match &self.tangents {
            Some((t, b)) => {
                let m = self.placement.matrix3;
                let t = (m * values::dvec3(t.at(ctx, "tangent", corner)?.1)).as_vec3();
                let b = (m * values::dvec3(b.at(ctx, "bitangent", corner)?.1)).as_vec3();
                tangent(normal, t, b)
            }
            None => Vec4::ZERO,
        };
        let out = Vertex {
            position: position.to_array(),
            normal: normal.to_array(),
            tangent: tangent.to_array(),
            uv: uv.to_array(),
            joints,
            weights,
        };
        if !(position.is_finite() && uv.is_finite()) {
            return Err(ctx
                .error(
                    ErrorKind::NonFinite,
                    "a position or UV is not finite in single precision",
                )
                .at_record(format!("face corner {corner}")));
        }
        Ok(out)
    }
}

/// Appends one mesh's vertices, triangles and subsets. Corners that give the same vertex
/// (position, normal, UV, tangent and influences, bit for bit) share it.
fn append(
    ctx: &MeshCtx,
    skinned: &Skinned,
    influences: &[Influence],
    material_slot: &dyn Fn(&ufbx::Material) -> Option<usize>,
    default_material: usize,
    out: &mut Geometry,
) -> Result<(), LoadError> {
    let mesh = skinned.mesh;
    let corners = mesh.num_indices;
    let unreadable = |what: &str| {
        ctx.error(
            ErrorKind::Invalid,
            format!("the {what} array is unreadable"),
        )
    };
    let faces = items(&mesh.faces).ok_or_else(|| unreadable("face"))?;
    let face_material = items(&mesh.face_material).ok_or_else(|| unreadable("face material"))?;
    if !face_material.is_empty() && face_material.len() != faces.len() {
        return Err(ctx.error(
            ErrorKind::CountMismatch,
            format!(
                "{} face materials for {} faces",
                face_material.len(),
                faces.len()
            ),
        ));
    }
    let reader = Corners::read(ctx, skinned, influences)?;
    // The mesh's materials as throng's, by their index in the mesh's list.
    let slots: Vec<usize> = mesh
        .materials
        .iter()
        .map(|m| material_slot(m).unwrap_or(default_material))
        .collect();
    let mirrored = skinned.placement.matrix3.determinant() < 0.0;

    let vertex_start = u32::try_from(out.vertices.len())
        .map_err(|_| ctx.error(ErrorKind::TooLarge, "more than 2^32 vertices in all"))?;
    let mut local: Vec<Vertex> = Vec::new();
    let mut by_value: HashMap<[u32; 18], u32> = HashMap::new();
    // Triangles (local vertex indices) per material slot, in order of first use.
    let mut groups: Vec<(usize, Vec<u32>)> = Vec::new();
    let largest = faces
        .iter()
        .map(|f| f.num_indices as usize)
        .max()
        .unwrap_or(0);
    let mut triangle = vec![0u32; largest.saturating_sub(2) * 3];
    for (f, face) in faces.iter().enumerate() {
        let count = face.num_indices as usize;
        let begin = face.index_begin as usize;
        if begin.checked_add(count).is_none_or(|end| end > corners) {
            return Err(ctx.error(
                ErrorKind::IndexOutOfRange,
                format!("face {f} runs past the {corners} face corners"),
            ));
        }
        // Points and lines draw nothing.
        if count < 3 {
            continue;
        }
        // Checked above: the face lies inside the mesh and the buffer holds its triangles, so
        // ufbx's triangulation has what it asks for.
        let buffer = &mut triangle[..(count - 2) * 3];
        let made = (ufbx::triangulate_face(buffer, mesh, *face) as usize).min(count - 2);
        let slot = match face_material.get(f) {
            Some(&m) => slots.get(m as usize).copied().unwrap_or(default_material),
            None => slots.first().copied().unwrap_or(default_material),
        };
        let group = match groups.iter().position(|(s, _)| *s == slot) {
            Some(g) => g,
            None => {
                groups.push((slot, Vec::new()));
                groups.len() - 1
            }
        };
        for tri in buffer[..made * 3].chunks_exact(3) {
            let mut ids = [0u32; 3];
            for (id, &corner) in ids.iter_mut().zip(tri) {
                let corner = corner as usize;
                if !(begin..begin + count).contains(&corner) {
                    return Err(ctx.error(
                        ErrorKind::IndexOutOfRange,
                        format!("face {f}'s triangulation uses corner {corner}, outside the face"),
                    ));
                }
                let vertex = reader.vertex(ctx, corner)?;
                let key: [u32; 18] = bytemuck::cast(vertex);
                *id = match by_value.get(&key) {
                    Some(&known) => known,
                    None => {
                        let id = u32::try_from(local.len()).map_err(|_| {
                            ctx.error(ErrorKind::TooLarge, "more than 2^32 vertices")
                        })?;
                        local.push(vertex);
                        by_value.insert(key, id);
                        id
                    }
                };
            }
            if mirrored {
                ids.swap(1, 2);
            }
            groups[group].1.extend_from_slice(&ids);
        }
    }
    drop(by_value);
    if local.iter().any(|v| v.tangent == [0.0; 4]) {
        generate_tangents(&mut local, &groups);
    }
    let vertex_count = u32::try_from(local.len())
        .ok()
        .filter(|c| vertex_start.checked_add(*c).is_some())
        .ok_or_else(|| ctx.error(ErrorKind::TooLarge, "more than 2^32 vertices in all"))?;
    out.vertices.extend(local);
    for (slot, triangles) in groups {
        if triangles.is_empty() {
            continue;
        }
        let index_start = u32::try_from(out.indices.len())
            .map_err(|_| ctx.error(ErrorKind::TooLarge, "more than 2^32 indices in all"))?;
        let index_count = u32::try_from(triangles.len())
            .map_err(|_| ctx.error(ErrorKind::TooLarge, "more than 2^32 indices"))?;
        out.indices
            .extend(triangles.iter().map(|&i| vertex_start + i));
        out.uses_default |= slot == default_material;
        out.subsets.push(Subset {
            vertex_start,
            vertex_count,
            index_start,
            index_count,
            material: slot,
        });
    }
    Ok(())
}

/// Tangents from the UVs, for meshes whose file has none (or unusable ones).
fn generate_tangents(vertices: &mut [Vertex], groups: &[(usize, Vec<u32>)]) {
    let indices: Vec<u32> = groups.iter().flat_map(|(_, t)| t.iter().copied()).collect();
    let positions: Vec<Vec3> = vertices.iter().map(|v| Vec3::from(v.position)).collect();
    let normals: Vec<Vec3> = vertices.iter().map(|v| Vec3::from(v.normal)).collect();
    let uvs: Vec<Vec2> = vertices.iter().map(|v| Vec2::from(v.uv)).collect();
    let tangents = generate::tangents(&positions, &normals, &uvs, &indices);
    for (v, t) in vertices.iter_mut().zip(tangents) {
        v.tangent = t.to_array();
    }
}

/// A unit tangent made orthogonal to `normal`, with the bitangent's handedness in `w`; zero
/// when the file's tangent is unusable.
fn tangent(normal: Vec3, t: Vec3, b: Vec3) -> Vec4 {
    let Some(t) = (t - normal * normal.dot(t)).try_normalize() else {
        return Vec4::ZERO;
    };
    let handedness = if normal.cross(t).dot(b) < 0.0 {
        -1.0
    } else {
        1.0
    };
    t.extend(handedness)
}

/// The matrix that carries normals through `m`: its inverse transpose (the identity when `m`
/// is singular, which the skin's checks already refuse).
fn normal_matrix(m: &DMat3) -> DMat3 {
    if m.determinant().abs() > 1e-300 {
        m.inverse().transpose()
    } else {
        DMat3::IDENTITY
    }
}
