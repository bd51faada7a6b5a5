//! Mesh nodes to one vertex and index list: every TRIANGLES primitive of every mesh node
//! becomes a subset.
//!
//! A node with a skin uses its skin (the node's own transform is ignored, as glTF says for
//! skinned meshes). A node without one that sits under a joint (or is one) is bound rigidly
//! to the nearest such joint, its vertices stored so that the bind palette puts them where
//! the scene puts them: `v' = offset⁻¹ · C · v`, with `C` the transform from the node up to
//! the joint. Mesh nodes that are neither are skipped with a warning. Missing normals and
//! tangents are generated (see [`super::generate`]), missing UVs are zero (see
//! [`super::primitive`]).

use glam::Affine3A;
use gltf::Document;

use crate::anim::{Material, Mesh};
use crate::asset::{ErrorKind, LoadError};

use super::accessor::Reader;
use super::context::Ctx;
use super::nodes::Nodes;
use super::primitive::primitive;
use super::skin::Rig;

/// How a mesh node's vertices follow the skeleton.
pub(super) enum Binding {
    /// Through skin `index`'s `JOINTS_0`/`WEIGHTS_0`.
    Skin(usize),
    /// Rigidly to one joint, after the given transform.
    Rigid(u16, Affine3A),
}

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
        let Some(binding) = binding(ctx, nodes, rig, &node)? else {
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

/// How `node`'s mesh is bound, or `None` (warned) when it follows no joint.
fn binding(
    ctx: &mut Ctx,
    nodes: &Nodes,
    rig: &Rig,
    node: &gltf::Node,
) -> Result<Option<Binding>, LoadError> {
    if let Some(skin) = node.skin() {
        return Ok(Some(Binding::Skin(skin.index())));
    }
    let i = node.index();
    let joint_node = match rig.node_joint[i] {
        Some(_) => Some(i),
        None => rig.frames.joint_above[i],
    };
    let Some(joint_node) = joint_node else {
        ctx.warn_once(
            "unbound mesh",
            format!(
                "nodes[{i}]: a mesh node with no skin and no joint above it is skipped (throng \
                 draws only what the skeleton moves)"
            ),
        );
        return Ok(None);
    };
    let Some(joint) = rig.node_joint[joint_node] else {
        return Ok(None);
    };
    // From the mesh node's space up to the joint's (identity when the node is the joint).
    let to_joint = if joint_node == i {
        glam::DAffine3::IDENTITY
    } else {
        rig.frames.between[i] * nodes.local[i]
    };
    let offset = rig.skeleton.offsets()[joint];
    let inverse = offset.inverse().ok_or_else(|| {
        ctx.error(
            ErrorKind::Unsupported,
            format!("nodes[{i}]"),
            format!(
                "the mesh is bound rigidly to joint '{}', whose inverse bind matrix is singular",
                rig.skeleton.names()[joint]
            ),
        )
    })?;
    let transform = inverse.to_affine() * to_joint.as_affine3a();
    Ok(Some(Binding::Rigid(joint as u16, transform)))
}
