//! Skins to one skeleton: the union of every skin's joints (in the order skins list them),
//! each joint's parent the nearest ancestor node that is also a joint, non-joint nodes in
//! between folded into the joint's transform (see [`super::fold`]), and inverse bind
//! matrices as offsets (identity when a skin has none).
//!
//! An animated node above the joints (an armature carrying root motion) cannot be folded:
//! its transform changes over time. It becomes a joint of its own, after the skins' joints
//! (so `info` and `pose` list it last), with an identity offset and no vertex influences.

use glam::Mat4;
use gltf::Document;

use crate::anim::{Joint, MAX_JOINTS, Mat3x4, Skeleton};
use crate::asset::affine::nearly_equal;
use crate::asset::budget::{cost, times};
use crate::asset::{ErrorKind, LoadError};

use super::accessor::{Components, Reader};
use super::animated::animated_nodes;
use super::context::Ctx;
use super::fold::Similarity;
use super::nodes::{JointFrames, Nodes};
use gltf::accessor::Dimensions;

/// The skeleton and the maps from glTF indices into it.
pub(super) struct Rig {
    /// Joints sorted parent-before-child; `source_index` is the position in the union of the
    /// skins' joint lists (the file's order for a single skin).
    pub skeleton: Skeleton,
    /// For each node, its joint in `skeleton`, if it is one.
    pub node_joint: Vec<Option<usize>>,
    /// For each skin, its joint list mapped into `skeleton` (what `JOINTS_0` values index).
    pub skin_joints: Vec<Vec<u16>>,
    /// For each joint of `skeleton`, the folded transform of the non-joint nodes above it,
    /// which animation keys must go through as well.
    pub fold: Vec<Similarity>,
    /// For every node, the nearest joint above it and the transform of the nodes between.
    pub frames: JointFrames,
}

/// Builds the skeleton of every skin in `doc`.
pub(super) fn build(
    ctx: &mut Ctx,
    doc: &Document,
    nodes: &Nodes,
    reader: &Reader,
) -> Result<Rig, LoadError> {
    if doc.skins().len() == 0 {
        return Err(ctx.error(
            ErrorKind::Unsupported,
            "skins",
            "the file has no skin; throng loads skinned characters",
        ));
    }
    // The union of joints, in the order the skins list them.
    let mut source_nodes: Vec<usize> = Vec::new();
    let mut source_ibm: Vec<Mat4> = Vec::new();
    let mut node_source: Vec<Option<usize>> = vec![None; nodes.len()];
    let mut skin_sources: Vec<Vec<usize>> = Vec::new();
    for skin in doc.skins() {
        let section = format!("skins[{}]", skin.index());
        let joints: Vec<usize> = skin.joints().map(|n| n.index()).collect();
        if joints.is_empty() {
            return Err(ctx.error(ErrorKind::Invalid, section, "has no joints"));
        }
        if joints.len() > MAX_JOINTS {
            return Err(ctx.error(
                ErrorKind::TooLarge,
                section,
                format!(
                    "lists {} joints, more than the {MAX_JOINTS} supported (vertex joint indices \
                     are 16-bit)",
                    joints.len()
                ),
            ));
        }
        let ibms = match skin.inverse_bind_matrices() {
            Some(acc) => {
                let m = reader.elements(
                    ctx,
                    &acc,
                    &format!("inverse bind matrices of {section}"),
                    (Dimensions::Mat4, Components::Float),
                    Mat4::from_cols_slice,
                )?;
                if m.len() < joints.len() {
                    return Err(ctx.error(
                        ErrorKind::CountMismatch,
                        section,
                        format!(
                            "{} inverse bind matrices for {} joints",
                            m.len(),
                            joints.len()
                        ),
                    ));
                }
                m
            }
            None => vec![Mat4::IDENTITY; joints.len()],
        };
        let mut sources = Vec::with_capacity(joints.len());
        for (k, (&node, ibm)) in joints.iter().zip(&ibms).enumerate() {
            let record = format!("joint {k} (nodes[{node}])");
            if !ibm.is_finite() {
                return Err(ctx
                    .error(
                        ErrorKind::NonFinite,
                        section.as_str(),
                        "inverse bind matrix is not finite",
                    )
                    .at_record(record));
            }
            if (ibm.row(3) - glam::Vec4::W).abs().max_element() > 1e-5 {
                return Err(ctx
                    .error(
                        ErrorKind::Unsupported,
                        section.as_str(),
                        "inverse bind matrix is projective (last row is not 0 0 0 1)",
                    )
                    .at_record(record));
            }
            let source = match node_source[node] {
                Some(existing) => {
                    if !nearly_equal(&source_ibm[existing], ibm, 1e-4) {
                        return Err(ctx
                            .error(
                                ErrorKind::Unsupported,
                                section.as_str(),
                                "this joint is shared with an earlier skin (or listed twice) with a \
                                 different inverse bind matrix; one skeleton cannot serve both",
                            )
                            .at_record(record));
                    }
                    existing
                }
                None => {
                    // Checked before the skeleton is built: the limit bounds that work.
                    if source_nodes.len() == MAX_JOINTS {
                        return Err(ctx
                            .error(
                                ErrorKind::TooLarge,
                                section.as_str(),
                                format!(
                                    "the skins have more than {MAX_JOINTS} joints (vertex joint \
                                     indices are 16-bit)"
                                ),
                            )
                            .at_record(record));
                    }
                    node_source[node] = Some(source_nodes.len());
                    source_nodes.push(node);
                    source_ibm.push(*ibm);
                    source_nodes.len() - 1
                }
            };
            sources.push(source);
        }
        skin_sources.push(sources);
    }

    add_animated_ancestors(
        doc,
        nodes,
        &mut node_source,
        &mut source_nodes,
        &mut source_ibm,
    );

    let count = source_nodes.len();
    // Animated ancestors add joints: the limit is checked again before the skeleton is built.
    if count > MAX_JOINTS {
        return Err(ctx.error(
            ErrorKind::TooLarge,
            "skins",
            format!(
                "the skins' joints and the animated nodes above them are {count}, more than the \
                 {MAX_JOINTS} supported (vertex joint indices are 16-bit)"
            ),
        ));
    }
    ctx.charge_for("skins", times(count, cost::JOINT), || {
        format!("a skeleton of {count} joints")
    })?;
    let frames = nodes.joint_frames(|i| node_source[i].is_some());
    let mut joints = Vec::with_capacity(source_nodes.len());
    let mut folds = Vec::with_capacity(source_nodes.len());
    for &node in &source_nodes {
        let section = format!("nodes[{node}]");
        let parent_node = frames.joint_above[node];
        let fold = Similarity::from_affine(&frames.between[node]).ok_or_else(|| {
            ctx.error(
                ErrorKind::Unsupported,
                section.as_str(),
                "the non-joint nodes above this joint combine into a transform with non-uniform \
                 scale or shear, which cannot be folded into the joint's rotation and scale",
            )
        })?;
        let bind = nodes.trs[node].ok_or_else(|| {
            ctx.error(
                ErrorKind::Unsupported,
                section.as_str(),
                "joint matrix has shear and cannot be decomposed into translation, rotation, scale",
            )
        })?;
        joints.push(Joint::new(
            Nodes::name(doc, node),
            parent_node.and_then(|p| node_source[p]),
            fold.apply(&bind),
        ));
        folds.push(fold);
    }
    let offsets = source_ibm.iter().map(Mat3x4::from_mat4).collect();
    let skeleton = Skeleton::from_unordered(joints, offsets)
        .map_err(|e| LoadError::from_anim(ctx.file.clone(), "skins", e))?;

    let map = skeleton.index_from_source();
    let mut node_joint = vec![None; nodes.len()];
    for (source, &node) in source_nodes.iter().enumerate() {
        node_joint[node] = Some(map[source]);
    }
    let skin_joints = skin_sources
        .iter()
        .map(|s| s.iter().map(|&source| map[source] as u16).collect())
        .collect();
    let mut fold = vec![Similarity::IDENTITY; skeleton.len()];
    for (source, f) in folds.into_iter().enumerate() {
        fold[map[source]] = f;
    }
    Ok(Rig {
        skeleton,
        node_joint,
        skin_joints,
        fold,
        frames,
    })
}

/// Appends, as extra joints after the skins' own, every animated node that is an ancestor of
/// a joint: its motion must reach the joints below, which folding a static transform cannot
/// do. Its offset is the identity: no vertex is bound to it, so only its children's palettes
/// see it, through their to-root. Static ancestors are left to folding.
fn add_animated_ancestors(
    doc: &Document,
    nodes: &Nodes,
    node_source: &mut [Option<usize>],
    source_nodes: &mut Vec<usize>,
    source_ibm: &mut Vec<Mat4>,
) {
    let animated = animated_nodes(doc, nodes.len());
    // Mark every ancestor of a joint; each node is marked once, so this is linear.
    let mut above_joint = vec![false; nodes.len()];
    for &joint in source_nodes.iter() {
        let mut at = nodes.parent[joint];
        while let Some(p) = at {
            if above_joint[p] {
                break;
            }
            above_joint[p] = true;
            at = nodes.parent[p];
        }
    }
    for node in 0..nodes.len() {
        if animated[node] && above_joint[node] && node_source[node].is_none() {
            node_source[node] = Some(source_nodes.len());
            source_nodes.push(node);
            source_ibm.push(Mat4::IDENTITY);
        }
    }
}
