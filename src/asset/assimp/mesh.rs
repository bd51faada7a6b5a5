//! Assimp's meshes to one skinned mesh: every triangle mesh with bones becomes a subset
//! (Assimp has already triangulated, split by primitive type, generated normals and
//! tangents where missing, limited weights to four per vertex and flipped texture
//! coordinates to a top-left origin). Materials keep their name and diffuse color; their
//! textures are not read through Assimp.

use super::ffi as sys;
use glam::Vec3;

use crate::anim::{Material, Mesh, Subset, Vertex};
use crate::asset::{ErrorKind, LoadError};

use super::raw;
use super::skeleton::BoneRef;

/// Builds the mesh. `bones[m]` are mesh `m`'s bones; `node_joint` maps a node to its joint.
pub(super) fn build(
    file: &str,
    meshes: &[&sys::aiMesh],
    bones: &[Vec<BoneRef>],
    node_joint: &[Option<usize>],
    materials: Vec<Material>,
    warn: &mut dyn FnMut(&str, String),
) -> Result<Mesh, LoadError> {
    let mut out = Mesh {
        materials,
        ..Mesh::default()
    };
    for (m, (mesh, refs)) in meshes.iter().zip(bones).enumerate() {
        let section = format!("meshes[{m}]");
        let error = |kind, message: String| {
            LoadError::new(file, kind, message).in_section(section.as_str())
        };
        if mesh.mPrimitiveTypes & sys::PRIMITIVE_TRIANGLE == 0 {
            warn(
                "not triangles",
                format!("{section}: holds points or lines, not triangles; such meshes are skipped"),
            );
            continue;
        }
        if refs.is_empty() {
            warn(
                "no bones",
                format!("{section}: has no bones; meshes that no bone moves are skipped"),
            );
            continue;
        }
        let count = mesh.mNumVertices as usize;
        let vertex_start = u32::try_from(out.vertices.len())
            .ok()
            .filter(|s| s.checked_add(mesh.mNumVertices).is_some())
            .ok_or_else(|| {
                error(
                    ErrorKind::TooLarge,
                    "more than 2^32 vertices in all".to_string(),
                )
            })?;
        // SAFETY (all of these): per-vertex arrays of `mNumVertices` elements (or null),
        // faces and bones of their counts, owned by the scene.
        let positions = unsafe { raw::items(mesh.mVertices, mesh.mNumVertices) };
        let normals = unsafe { raw::items(mesh.mNormals, mesh.mNumVertices) };
        let tangents = unsafe { raw::items(mesh.mTangents, mesh.mNumVertices) };
        let bitangents = unsafe { raw::items(mesh.mBitangents, mesh.mNumVertices) };
        let uvs = unsafe { raw::items(mesh.mTextureCoords[0], mesh.mNumVertices) };
        let faces = unsafe { raw::items(mesh.mFaces, mesh.mNumFaces) };
        let ai_bones = unsafe { raw::objects(mesh.mBones, mesh.mNumBones) };
        if positions.len() != count {
            return Err(error(
                ErrorKind::Invalid,
                "has no vertex positions".to_string(),
            ));
        }

        // Influences per vertex: (joint, weight), the four largest kept.
        let mut influences: Vec<Vec<(u16, f32)>> = vec![Vec::new(); count];
        for (bone, bone_ref) in ai_bones.iter().zip(refs) {
            let joint = node_joint[bone_ref.node]
                .and_then(|j| u16::try_from(j).ok())
                .ok_or_else(|| error(ErrorKind::Invalid, "a bone lost its joint".to_string()))?;
            // SAFETY: `mWeights` holds `mNumWeights` weights owned by the scene.
            for w in unsafe { raw::items(bone.mWeights, bone.mNumWeights) } {
                let slot = influences.get_mut(w.mVertexId as usize).ok_or_else(|| {
                    error(
                        ErrorKind::IndexOutOfRange,
                        format!(
                            "bone '{}' weights vertex {} of {count}",
                            raw::one_line(&raw::text(&bone.mName)),
                            w.mVertexId
                        ),
                    )
                })?;
                if !w.mWeight.is_finite() || w.mWeight < 0.0 {
                    return Err(error(
                        ErrorKind::NonFinite,
                        format!(
                            "bone weight {} is not a finite non-negative number",
                            w.mWeight
                        ),
                    ));
                }
                if w.mWeight > 0.0 {
                    slot.push((joint, w.mWeight));
                }
            }
        }

        for (v, position) in positions.iter().enumerate() {
            let mut list = std::mem::take(&mut influences[v]);
            list.sort_by(|a, b| b.1.total_cmp(&a.1));
            list.truncate(4);
            let total: f32 = list.iter().map(|i| i.1).sum();
            if !(total > 0.0) {
                return Err(error(
                    ErrorKind::Invalid,
                    format!("vertex {v} has no bone weights, so no joint moves it"),
                ));
            }
            let mut vertex = Vertex {
                position: raw::vec3(position).to_array(),
                ..Vertex::default()
            };
            for (k, (joint, weight)) in list.iter().enumerate() {
                vertex.joints[k] = *joint;
                vertex.weights[k] = weight / total;
            }
            let normal = normals
                .get(v)
                .map_or(Vec3::Z, raw::vec3)
                .normalize_or(Vec3::Z);
            vertex.normal = normal.to_array();
            let tangent = tangents.get(v).map_or(Vec3::ZERO, raw::vec3);
            let tangent = (tangent - normal * normal.dot(tangent))
                .normalize_or(normal.any_orthonormal_vector());
            let bitangent = bitangents.get(v).map_or(Vec3::ZERO, raw::vec3);
            let handedness = if normal.cross(tangent).dot(bitangent) < 0.0 {
                -1.0
            } else {
                1.0
            };
            vertex.tangent = tangent.extend(handedness).to_array();
            if let Some(uv) = uvs.get(v) {
                vertex.uv = [uv.x, uv.y];
            }
            out.vertices.push(vertex);
        }

        let index_start = u32::try_from(out.indices.len()).map_err(|_| {
            error(
                ErrorKind::TooLarge,
                "more than 2^32 indices in all".to_string(),
            )
        })?;
        for (f, face) in faces.iter().enumerate() {
            // SAFETY: `mIndices` holds `mNumIndices` indices owned by the scene.
            let corners = unsafe { raw::items(face.mIndices, face.mNumIndices) };
            if corners.len() != 3 {
                // Points and lines share a mesh with triangles only when Assimp did not sort.
                continue;
            }
            for &i in corners {
                if i >= mesh.mNumVertices {
                    return Err(error(
                        ErrorKind::IndexOutOfRange,
                        format!("face {f} uses vertex {i} of {count}"),
                    ));
                }
                out.indices.push(vertex_start + i);
            }
        }
        let index_end = u32::try_from(out.indices.len()).map_err(|_| {
            error(
                ErrorKind::TooLarge,
                "more than 2^32 indices in all".to_string(),
            )
        })?;
        let material = mesh.mMaterialIndex as usize;
        if material >= out.materials.len() {
            return Err(error(
                ErrorKind::IndexOutOfRange,
                format!("material {material} of {}", out.materials.len()),
            ));
        }
        out.subsets.push(Subset {
            vertex_start,
            vertex_count: mesh.mNumVertices,
            index_start,
            index_count: index_end - index_start,
            material,
        });
    }
    if out.subsets.is_empty() {
        return Err(LoadError::new(
            file,
            ErrorKind::Unsupported,
            "no triangle mesh with bones; throng loads skinned characters",
        )
        .in_section("meshes"));
    }
    Ok(out)
}

/// Every material's name and diffuse color.
pub(super) fn materials(scene: &sys::aiScene) -> Vec<Material> {
    // SAFETY: `mMaterials` holds `mNumMaterials` material pointers owned by the scene.
    let materials = unsafe { raw::objects(scene.mMaterials, scene.mNumMaterials) };
    let mut out: Vec<Material> = materials
        .iter()
        .enumerate()
        .map(|(i, material)| {
            let mut result = Material {
                name: format!("material{i}"),
                ..Material::default()
            };
            let mut name = sys::aiString {
                length: 0,
                data: [0; 1024],
            };
            // SAFETY: the material belongs to the scene; the key is a C string; the out
            // structures are ours.
            unsafe {
                if sys::aiGetMaterialString(*material, c"?mat.name".as_ptr(), 0, 0, &mut name)
                    == sys::RETURN_SUCCESS
                {
                    let text = raw::one_line(&raw::text(&name));
                    if !text.is_empty() {
                        result.name = text;
                    }
                }
                let mut color = sys::aiColor4D {
                    r: 0.0,
                    g: 0.0,
                    b: 0.0,
                    a: 0.0,
                };
                if sys::aiGetMaterialColor(*material, c"$clr.diffuse".as_ptr(), 0, 0, &mut color)
                    == sys::RETURN_SUCCESS
                {
                    let rgba = [color.r, color.g, color.b, color.a];
                    if rgba.iter().all(|c| c.is_finite()) {
                        result.base_color = rgba.map(|c| c.clamp(0.0, 1.0));
                    }
                }
            }
            result
        })
        .collect();
    if out.is_empty() {
        out.push(Material::default());
    }
    out
}
