//! Assimp's node tree and bones to one skeleton, by the rules the glTF loader keeps:
//!
//! - joints are the nodes the meshes' bones name (a bone binds the first node of its name in
//!   depth-first order), in the order the meshes list their bones; a bone no node carries is
//!   an error (Assimp accepts such files: `anim_test.x`);
//! - offsets come from each bone's `mOffsetMatrix`; a bone listed by two meshes must have
//!   the same offset in both;
//! - a node that is not a bone but is animated and lies above a joint (root motion on an
//!   armature, an animated FBX pivot helper `$AssimpFbx$...`) becomes a joint of its own, after
//!   the bones, with an identity offset and no vertex influences;
//! - every other node between joints or above them (Assimp's `$dummy_root`, static
//!   `$AssimpFbx$` helpers, armatures) is folded into the joints below, as
//!   [`crate::asset::gltf::fold`] describes.

use std::collections::HashMap;

use super::ffi as sys;
use glam::{DAffine3, Mat4};

use crate::anim::{Joint, MAX_JOINTS, Mat3x4, Skeleton};
use crate::asset::affine::{decompose, nearly_equal};
use crate::asset::gltf::fold::Similarity;
use crate::asset::{ErrorKind, LoadError};

use super::raw;

/// Assimp's nodes flattened in depth-first pre-order (parents before children).
pub(super) struct Nodes {
    pub names: Vec<String>,
    pub parent: Vec<Option<usize>>,
    pub local: Vec<DAffine3>,
    /// The first node of each name.
    pub by_name: HashMap<String, usize>,
}

impl Nodes {
    /// Walks the tree from `root` without recursion (a deep tree cannot exhaust the stack).
    pub fn read(file: &str, root: &sys::aiNode) -> Result<Self, LoadError> {
        let mut nodes = Self {
            names: Vec::new(),
            parent: Vec::new(),
            local: Vec::new(),
            by_name: HashMap::new(),
        };
        let mut stack: Vec<(&sys::aiNode, Option<usize>)> = vec![(root, None)];
        while let Some((node, parent)) = stack.pop() {
            let index = nodes.names.len();
            let name = raw::text(&node.mName);
            let local = raw::affine(&node.mTransformation).ok_or_else(|| {
                LoadError::new(
                    file,
                    ErrorKind::NonFinite,
                    "the node's transform is not finite or is projective",
                )
                .in_section(format!("node '{}'", raw::one_line(&name)))
            })?;
            nodes.by_name.entry(name.clone()).or_insert(index);
            nodes.names.push(name);
            nodes.parent.push(parent);
            nodes.local.push(local);
            // SAFETY: the children array holds `mNumChildren` node pointers owned by the scene.
            let children = unsafe { raw::objects(node.mChildren, node.mNumChildren) };
            // Reversed, so that the stack pops them in the file's order.
            for child in children.into_iter().rev() {
                stack.push((child, Some(index)));
            }
        }
        Ok(nodes)
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }
}

/// The skeleton and the maps into it.
pub(super) struct Rig {
    pub skeleton: Skeleton,
    /// For each node, its joint in `skeleton`, if it is one.
    pub node_joint: Vec<Option<usize>>,
    /// For each joint, the folded transform of the non-joint nodes above it, which its
    /// animation keys go through as well.
    pub fold: Vec<Similarity>,
}

/// A bone as a mesh lists it: the node it binds and its offset.
pub(super) struct BoneRef {
    pub node: usize,
    pub offset: Mat4,
}

/// Finds the node of every bone of `meshes`, in order; the outer list is per mesh.
pub(super) fn bone_refs(
    file: &str,
    nodes: &Nodes,
    meshes: &[&sys::aiMesh],
) -> Result<Vec<Vec<BoneRef>>, LoadError> {
    let mut out = Vec::with_capacity(meshes.len());
    for (m, mesh) in meshes.iter().enumerate() {
        // SAFETY: `mBones` holds `mNumBones` bone pointers owned by the scene.
        let bones = unsafe { raw::objects(mesh.mBones, mesh.mNumBones) };
        let mut refs = Vec::with_capacity(bones.len());
        for (b, bone) in bones.iter().enumerate() {
            let name = raw::text(&bone.mName);
            let section = format!("meshes[{m}]");
            let record = format!("bone {b} '{}'", raw::one_line(&name));
            let node = *nodes.by_name.get(&name).ok_or_else(|| {
                LoadError::new(
                    file,
                    ErrorKind::IndexOutOfRange,
                    "no node of the scene has this bone's name, so nothing moves it",
                )
                .in_section(section.as_str())
                .at_record(record.as_str())
            })?;
            let offset = raw::affine(&bone.mOffsetMatrix).ok_or_else(|| {
                LoadError::new(
                    file,
                    ErrorKind::NonFinite,
                    "offset matrix is not finite or is projective",
                )
                .in_section(section.as_str())
                .at_record(record.as_str())
            })?;
            refs.push(BoneRef {
                node,
                offset: Mat4::from(offset.as_affine3a()),
            });
        }
        out.push(refs);
    }
    Ok(out)
}

/// Builds the skeleton from the bones of every mesh and the animated nodes.
pub(super) fn build(
    file: &str,
    nodes: &Nodes,
    bones: &[Vec<BoneRef>],
    animated: &[bool],
) -> Result<Rig, LoadError> {
    let error = |kind, section: &str, message: &str| {
        LoadError::new(file, kind, message).in_section(section.to_string())
    };
    // The union of bones, in the order the meshes list them.
    let mut node_source: Vec<Option<usize>> = vec![None; nodes.len()];
    let mut source_nodes: Vec<usize> = Vec::new();
    let mut offsets: Vec<Mat4> = Vec::new();
    for (m, refs) in bones.iter().enumerate() {
        for bone in refs {
            match node_source[bone.node] {
                Some(s) if !nearly_equal(&offsets[s], &bone.offset, 1e-4) => {
                    return Err(error(
                        ErrorKind::Unsupported,
                        &format!("meshes[{m}]"),
                        &format!(
                            "bone '{}' has a different offset matrix than in an earlier mesh; one \
                             skeleton cannot serve both",
                            raw::one_line(&nodes.names[bone.node])
                        ),
                    ));
                }
                Some(_) => {}
                None => {
                    node_source[bone.node] = Some(source_nodes.len());
                    source_nodes.push(bone.node);
                    offsets.push(bone.offset);
                }
            }
        }
    }
    if source_nodes.is_empty() {
        return Err(error(
            ErrorKind::Unsupported,
            "meshes",
            "no mesh has bones; throng loads skinned characters",
        ));
    }
    // Animated nodes above a joint join as joints of their own. Nodes come parent first, so
    // walking them backwards marks every ancestor of a joint in one pass.
    let mut above_joint = vec![false; nodes.len()];
    for n in (0..nodes.len()).rev() {
        if let Some(p) = nodes.parent[n]
            && (above_joint[n] || node_source[n].is_some())
        {
            above_joint[p] = true;
        }
    }
    for n in 0..nodes.len() {
        if animated[n] && above_joint[n] && node_source[n].is_none() {
            node_source[n] = Some(source_nodes.len());
            source_nodes.push(n);
            offsets.push(Mat4::IDENTITY);
        }
    }
    if source_nodes.len() > MAX_JOINTS {
        return Err(error(
            ErrorKind::TooLarge,
            "nodes",
            &format!("{} joints, more than {MAX_JOINTS}", source_nodes.len()),
        ));
    }
    // For each node, in one parent-first pass: its nearest joint ancestor and the product of
    // the non-joint transforms from its parent up to (excluding) that ancestor.
    let mut joint_above: Vec<Option<usize>> = vec![None; nodes.len()];
    let mut between: Vec<DAffine3> = vec![DAffine3::IDENTITY; nodes.len()];
    for n in 0..nodes.len() {
        if let Some(p) = nodes.parent[n] {
            if node_source[p].is_some() {
                joint_above[n] = Some(p);
            } else {
                joint_above[n] = joint_above[p];
                between[n] = between[p] * nodes.local[p];
            }
        }
    }
    let mut joints = Vec::with_capacity(source_nodes.len());
    let mut folds = Vec::with_capacity(source_nodes.len());
    for &n in &source_nodes {
        let section = format!("node '{}'", raw::one_line(&nodes.names[n]));
        let fold = Similarity::from_affine(&between[n]).ok_or_else(|| {
            error(
                ErrorKind::Unsupported,
                &section,
                "the non-joint nodes above this joint combine into a transform with non-uniform \
                 scale or shear, which cannot be folded into the joint's rotation and scale",
            )
        })?;
        let bind = decompose(&nodes.local[n]).ok_or_else(|| {
            error(
                ErrorKind::Unsupported,
                &section,
                "joint matrix has shear and cannot be decomposed into translation, rotation, scale",
            )
        })?;
        joints.push(Joint::new(
            nodes.names[n].clone(),
            joint_above[n].and_then(|p| node_source[p]),
            fold.apply(&bind),
        ));
        folds.push(fold);
    }
    let offsets = offsets.iter().map(Mat3x4::from_mat4).collect();
    let skeleton = Skeleton::from_unordered(joints, offsets)
        .map_err(|e| LoadError::from_anim(file, "nodes", e))?;
    let map = skeleton.index_from_source();
    let mut node_joint = vec![None; nodes.len()];
    let mut fold = vec![Similarity::IDENTITY; skeleton.len()];
    for (source, (&n, f)) in source_nodes.iter().zip(folds).enumerate() {
        node_joint[n] = Some(map[source]);
        fold[map[source]] = f;
    }
    Ok(Rig {
        skeleton,
        node_joint,
        fold,
    })
}
