//! The skinned meshes and their clusters: which node each cluster binds, and the matrices
//! that place the mesh and its bones at bind time.
//!
//! A mesh is kept in its bind-time world space: its vertices go through the mesh's placement
//! when it was bound (from the first cluster: its bone's bind matrix times the mesh's place
//! relative to that bone), so every bone's offset is the same whichever mesh it skins: the
//! cluster's `geometry_to_bone` times the inverse of that placement, which is the inverse of
//! the bone's bind-time world transform. Each cluster's vertices are skinned exactly as its
//! own matrices say even where a file's clusters disagree on the mesh's placement.
//! A mesh without a skin deformer is skipped with a warning (nothing moves it), and so is a
//! skin without clusters; a mesh with several skin deformers uses the first (warned).

use glam::{DAffine3, Mat4};

use super::nodes::{Nodes, node_section};
use super::values;
use super::warnings::Warnings;
use crate::asset::{ErrorKind, LoadError};

/// One cluster: the node it binds and the offset (inverse bind) matrix it gives that node.
pub(super) struct Cluster {
    pub node: usize,
    pub offset: Mat4,
}

/// A mesh with a skin, ready to be converted.
pub(super) struct Skinned<'s> {
    pub mesh: &'s ufbx::Mesh,
    pub skin: &'s ufbx::SkinDeformer,
    /// Where the mesh's geometry was when it was bound, in world space.
    pub placement: DAffine3,
    /// The skin's clusters, in its order (what its weights' `cluster_index` counts).
    pub clusters: Vec<Cluster>,
}

/// How errors name a mesh.
pub(super) fn mesh_section(mesh: &ufbx::Mesh) -> String {
    format!("mesh '{}'", &*mesh.element.name)
}

/// Every skinned mesh of `scene`, in its order.
pub(super) fn read<'s>(
    file: &str,
    scene: &'s ufbx::Scene,
    nodes: &Nodes,
    warn: &mut Warnings,
) -> Result<Vec<Skinned<'s>>, LoadError> {
    let mut out = Vec::new();
    for mesh in &scene.meshes {
        let section = mesh_section(mesh);
        let Some(skin) = mesh.skin_deformers.first() else {
            warn.once(
                "no skin",
                format!("{section}: has no skin deformer; meshes that no bone moves are skipped"),
            );
            continue;
        };
        if !mesh.blend_deformers.is_empty() {
            warn.once(
                "blend shapes",
                format!("{section}: has blend shapes (morph targets); they are not read"),
            );
        }
        if mesh.skin_deformers.len() > 1 {
            warn.once(
                "several skins",
                format!(
                    "{section}: has {} skin deformers; only the first ('{}') is used",
                    mesh.skin_deformers.len(),
                    &*skin.element.name
                ),
            );
        }
        let Some(first) = skin.clusters.first() else {
            warn.once(
                "no clusters",
                format!(
                    "{section}: its skin has no clusters; meshes that no bone moves are skipped"
                ),
            );
            continue;
        };
        let error = |kind, record: String, message: &str| {
            LoadError::new(file, kind, message)
                .in_section(section.as_str())
                .at_record(record)
        };
        let cluster_record = |c: &ufbx::SkinCluster| format!("cluster '{}'", &*c.element.name);
        // Where the mesh was when it was bound: the first cluster's bone at bind time, times
        // the mesh's place relative to that bone. (ufbx's `geometry_to_world` is the same
        // product with the bone's rest transform, which need not be its bind transform.)
        let placement = values::affine(&first.bind_to_world)
            .zip(values::affine(&first.geometry_to_bone))
            .map(|(bone, to_bone)| bone * to_bone)
            .filter(|m| m.is_finite() && m.matrix3.determinant().abs() > 1e-12)
            .ok_or_else(|| {
                error(
                    ErrorKind::NonFinite,
                    cluster_record(first),
                    "the mesh's bind placement (the bone's bind matrix times the mesh's place \
                     relative to it) is not finite or is singular",
                )
            })?;
        let unplace = placement.inverse();
        let mut clusters = Vec::with_capacity(skin.clusters.len());
        for cluster in &skin.clusters {
            let record = cluster_record(cluster);
            let node = cluster
                .bone_node
                .as_ref()
                .and_then(|bone| nodes.index_of(scene, bone))
                .ok_or_else(|| {
                    error(
                        ErrorKind::IndexOutOfRange,
                        record.clone(),
                        "the cluster binds no node of the scene, so nothing moves its vertices",
                    )
                })?;
            let offset = values::affine(&cluster.geometry_to_bone)
                .map(|to_bone| to_bone * unplace)
                .filter(DAffine3::is_finite)
                .ok_or_else(|| {
                    error(
                        ErrorKind::NonFinite,
                        format!("{record} (bone {})", node_section(&nodes.names[node])),
                        "the cluster's bind matrix (geometry to bone) is not finite",
                    )
                })?;
            clusters.push(Cluster {
                node,
                offset: Mat4::from(offset.as_affine3a()),
            });
        }
        out.push(Skinned {
            mesh,
            skin,
            placement,
            clusters,
        });
    }
    if out.is_empty() {
        return Err(LoadError::new(
            file,
            ErrorKind::Unsupported,
            "no mesh has a skin with clusters; throng loads skinned characters",
        )
        .in_section("meshes"));
    }
    Ok(out)
}
