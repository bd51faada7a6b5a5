//! Mesh nodes to one vertex and index list: every TRIANGLES primitive of every mesh node
//! becomes a subset.
//!
//! A node with a skin uses its skin (the node's own transform is ignored, as glTF says for
//! skinned meshes). A node without one that sits under a joint (or is one) is bound rigidly
//! to the nearest such joint, its vertices stored so that the bind palette puts them where
//! the scene puts them: `v' = offset⁻¹ · C · v`, with `C` the transform from the node up to
//! the joint (see [`super::binding`]). Mesh nodes that are neither are skipped with a warning.
//! Missing normals and tangents are generated (see [`super::generate`]), missing UVs are zero
//! (see [`super::primitive`]).

use gltf::Document;

use crate::anim::{Material, Mesh};
use crate::asset::LoadError;

use super::accessor::Reader;
use super::binding;
use super::context::Ctx;
use super::nodes::Nodes;
use super::primitive::primitive;
use super::skin::Rig;

/// Builds the mesh from every mesh node. `materials` are the file's materials; a default
/// one is appended when a primitive has none.
pub(super) fn build(
    ctx: &mut Ctx,
    doc: &Document,
    nodes: &Nodes,
    rig: &Rig,
    reader: &Reader,
    mut materials: Vec<Material>,
) -> Result<Mesh, LoadError> {
    let mut mesh = Mesh::default();
    let mut default_material = None;
    for node in doc.nodes() {
        let Some(gltf_mesh) = node.mesh() else {
            continue;
        };
        let Some(binding) = binding::of(ctx, nodes, rig, &node)? else {
            continue;
        };
        for prim in gltf_mesh.primitives() {
            let section = format!("meshes[{}].primitives[{}]", gltf_mesh.index(), prim.index());
            let material = match prim.material().index() {
                Some(m) => m,
                None => *default_material.get_or_insert_with(|| {
                    materials.push(Material::default());
                    materials.len() - 1
                }),
            };
            primitive(
                ctx, &section, &prim, &binding, rig, reader, material, &mut mesh,
            )?;
        }
    }
    mesh.materials = materials;
    Ok(mesh)
}
