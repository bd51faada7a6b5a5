//! Clusters and nodes to one skeleton, by the rules every throng loader keeps:
//!
//! - the joints are the nodes the skins' clusters bind, in the order the meshes and their
//!   clusters list them; a node two clusters bind must get the same offset from both (one
//!   skeleton cannot serve two bind poses);
//! - a node that is no cluster's bone but lies above one and moves in some animation stack
//!   (an armature carrying root motion) becomes a joint of its own, after the bones, with an
//!   identity offset and no vertex influences; a node that moves but has no bone below it
//!   moves nothing on the skin and is left out;
//! - every other node above or between joints (the scene root, a static armature, a helper)
//!   is folded into the joints below it ([`Similarity`]), keys included.

use glam::{DAffine3, Mat4};

use super::nodes::{Nodes, node_section};
use super::skin::Skinned;
use crate::anim::{Joint, MAX_JOINTS, Mat3x4, Skeleton};
use crate::asset::affine::nearly_equal;
use crate::asset::budget::{Budget, cost, times};
use crate::asset::gltf::fold::Similarity;
use crate::asset::{ErrorKind, LoadError};

/// How far two clusters' offsets for one bone may differ (relative to the largest entry).
const SAME_OFFSET: f32 = 1e-4;

/// The skeleton and the maps into it.
pub(super) struct Rig {
    pub skeleton: Skeleton,
    /// For each node, its joint, if it is one.
    pub node_joint: Vec<Option<usize>>,
    /// For each joint, its node.
    pub joint_node: Vec<usize>,
    /// For each joint, the folded static nodes above it (its keys go through it too).
    pub fold: Vec<Similarity>,
}

/// The bone nodes of every skin, each once, in the order they are first listed, with their
/// offsets; `bone_of[node]` is the node's position in that list.
pub(super) struct Bones {
    pub nodes: Vec<usize>,
    pub offsets: Vec<Mat4>,
    pub bone_of: Vec<Option<usize>>,
}

/// Collects the bones of `skins`, checking that a bone bound twice has one offset.
pub(super) fn bones(file: &str, nodes: &Nodes, skins: &[Skinned]) -> Result<Bones, LoadError> {
    let mut bones = Bones {
        nodes: Vec::new(),
        offsets: Vec::new(),
        bone_of: vec![None; nodes.len()],
    };
    for skinned in skins {
        for (c, cluster) in skinned.clusters.iter().enumerate() {
            match bones.bone_of[cluster.node] {
                Some(b) if !nearly_equal(&bones.offsets[b], &cluster.offset, SAME_OFFSET) => {
                    return Err(LoadError::new(
                        file,
                        ErrorKind::Unsupported,
                        format!(
                            "cluster {c} binds {} with another bind matrix than an earlier \
                             cluster; one skeleton cannot serve both",
                            node_section(&nodes.names[cluster.node])
                        ),
                    )
                    .in_section(super::skin::mesh_section(skinned.mesh)));
                }
                Some(_) => {}
                None => {
                    if bones.nodes.len() == MAX_JOINTS {
                        return Err(LoadError::new(
                            file,
                            ErrorKind::TooLarge,
                            format!(
                                "the skins bind more than {MAX_JOINTS} nodes (vertex joint \
                                 indices are 16-bit)"
                            ),
                        )
                        .in_section(super::skin::mesh_section(skinned.mesh)));
                    }
                    bones.bone_of[cluster.node] = Some(bones.nodes.len());
                    bones.nodes.push(cluster.node);
                    bones.offsets.push(cluster.offset);
                }
            }
        }
    }
    Ok(bones)
}

/// For each node, whether it is above a bone (not counting the bone itself): the nodes whose
/// motion can reach the skin without being a bone.
pub(super) fn above_bones(nodes: &Nodes, bones: &Bones) -> Vec<bool> {
    let at_or_above = nodes.at_or_above(|n| bones.bone_of[n].is_some());
    let mut above = vec![false; nodes.len()];
    for (&marked, parent) in at_or_above.iter().zip(&nodes.parent) {
        if let (true, Some(p)) = (marked, *parent) {
            above[p] = true;
        }
    }
    above
}

/// Builds the skeleton: the bones, then the nodes of `moving` (animated nodes above bones).
pub(super) fn build(
    file: &str,
    nodes: &Nodes,
    bones: &Bones,
    moving: &[bool],
    budget: &mut Budget,
) -> Result<Rig, LoadError> {
    let mut sources = bones.nodes.clone();
    let mut offsets = bones.offsets.clone();
    let mut node_source = bones.bone_of.clone();
    for n in 0..nodes.len() {
        if moving[n] && node_source[n].is_none() {
            node_source[n] = Some(sources.len());
            sources.push(n);
            offsets.push(Mat4::IDENTITY);
        }
    }
    let count = sources.len();
    if count > MAX_JOINTS {
        return Err(LoadError::new(
            file,
            ErrorKind::TooLarge,
            format!(
                "the bones and the animated nodes above them are {count}, more than the \
                 {MAX_JOINTS} supported (vertex joint indices are 16-bit)"
            ),
        )
        .in_section("nodes"));
    }
    budget
        .charge(times(count, cost::JOINT), || {
            format!("a skeleton of {count} joints")
        })
        .map_err(|e| e.into_load_error(file, "nodes"))?;
    // For each node, in one parent-first pass: its nearest joint above and the product of the
    // non-joint transforms from its parent up to (not including) that joint.
    let mut joint_above: Vec<Option<usize>> = vec![None; nodes.len()];
    let mut between = vec![DAffine3::IDENTITY; nodes.len()];
    for n in 0..nodes.len() {
        if let Some(p) = nodes.parent[n] {
            if node_source[p].is_some() {
                joint_above[n] = Some(p);
            } else {
                joint_above[n] = joint_above[p];
                between[n] = between[p] * nodes.rest_matrix[p];
            }
        }
    }
    let mut joints = Vec::with_capacity(count);
    let mut folds = Vec::with_capacity(count);
    for &n in &sources {
        let fold = Similarity::from_affine(&between[n]).ok_or_else(|| {
            LoadError::new(
                file,
                ErrorKind::Unsupported,
                "the static nodes above this joint combine into a transform with non-uniform \
                 scale or shear, which cannot be folded into the joint's rotation and scale",
            )
            .in_section(node_section(&nodes.names[n]))
        })?;
        joints.push(Joint::new(
            nodes.names[n].clone(),
            joint_above[n].and_then(|p| node_source[p]),
            fold.apply(&nodes.rest[n]),
        ));
        folds.push(fold);
    }
    let offsets = offsets.iter().map(Mat3x4::from_mat4).collect();
    let skeleton = Skeleton::from_unordered(joints, offsets)
        .map_err(|e| LoadError::from_anim(file, "nodes", e))?;
    let map = skeleton.index_from_source();
    let mut node_joint = vec![None; nodes.len()];
    let mut joint_node = vec![0; count];
    let mut fold = vec![Similarity::IDENTITY; count];
    for (source, (&n, f)) in sources.iter().zip(folds).enumerate() {
        node_joint[n] = Some(map[source]);
        joint_node[map[source]] = n;
        fold[map[source]] = f;
    }
    Ok(Rig {
        skeleton,
        node_joint,
        joint_node,
        fold,
    })
}
