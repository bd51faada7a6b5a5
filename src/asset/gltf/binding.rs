//! How a mesh node's vertices follow the skeleton: through its skin, or rigidly to the
//! nearest joint at or above it. Decided per node by `mesh`, applied per vertex by
//! `primitive`.

use glam::Affine3A;

use crate::asset::{ErrorKind, LoadError};

use super::context::Ctx;
use super::nodes::Nodes;
use super::skin::Rig;

/// How a mesh node's vertices follow the skeleton.
pub(super) enum Binding {
    /// Through skin `index`'s `JOINTS_0`/`WEIGHTS_0`.
    Skin(usize),
    /// Rigidly to one joint, after the given transform.
    Rigid(u16, Affine3A),
}

/// How `node`'s mesh is bound, or `None` (warned) when it follows no joint.
pub(super) fn of(
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
