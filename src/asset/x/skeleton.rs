//! Frames to joints.
//!
//! The joints are, in this order (the order `info` and `pose` report):
//!
//! 1. the bones `SkinWeights` name, in the order they first appear (a name drives the first
//!    frame of that name in the file; a name no frame has is an error);
//! 2. the frame of each mesh that has no `SkinWeights` (a rigid mesh follows its frame), and
//!    an implicit joint `root` for a rigid mesh outside any frame;
//! 3. every *animated* frame above those joints: one with an `Animation` whose keys differ
//!    from its `FrameTransformMatrix` somewhere. It gets no vertex influences and an identity
//!    offset; its name is the frame's.
//!
//! Every other frame above a joint is static: its matrix is folded into the joint below it,
//! exactly as the glTF loader folds non-joint nodes ([`Similarity`]), and so are the keys of
//! that joint.
//!
//! Offsets are `SkinWeights`' `matrixOffset`, which maps the mesh's own space to the bone's:
//! D3DX skins a vertex `v` of the mesh as `to_root(bone) * matrixOffset * v` and does not apply
//! the mesh's frame transform again, and neither does throng (the mesh keeps its own space, as
//! a glTF skin's mesh does; the renderer frames the bind pose skinned). A rigid mesh's joint has
//! an identity offset, so its palette is its frame's to-root, as D3DX draws it.

use glam::{DAffine3, Mat4};

use super::animation::KeyKind;
use super::document::Document;
use super::reader::Result;
use crate::anim::{Joint, Mat3x4, Skeleton, Transform};
use crate::asset::affine::nearly_equal;
use crate::asset::gltf::fold::Similarity;
use crate::asset::{ErrorKind, LoadError};

/// Name of the joint a rigid mesh outside any frame follows.
pub const IMPLICIT_ROOT: &str = "root";

/// Relative tolerance for "the key reproduces the frame matrix".
const SAME: f32 = 1e-4;

/// The skeleton and the maps from the file's frames and meshes into it.
pub(super) struct Rig {
    /// Joints parent-before-child; `source_index` is the reporting order above.
    pub skeleton: Skeleton,
    /// For each frame, its joint, if it is one.
    pub frame_joint: Vec<Option<usize>>,
    /// For each joint, the folded static frames above it (keys go through it too).
    pub fold: Vec<Similarity>,
    /// For each mesh without `SkinWeights`, the joint it follows.
    pub rigid_joint: Vec<Option<usize>>,
}

/// Builds the skeleton of `doc` (see the module documentation).
pub(super) fn build(file: &str, doc: &Document) -> Result<Rig> {
    let n = doc.frames.len();
    // Source order: joint k is frame `sources[k]` (or the implicit root when `None`).
    let mut sources: Vec<Option<usize>> = Vec::new();
    let mut offsets: Vec<Mat4> = Vec::new();
    let mut frame_source: Vec<Option<usize>> = vec![None; n];
    for mesh in &doc.meshes {
        for skin in &mesh.skins {
            let skin_offset = skin.offset;
            let Some(frame) = doc.frame_named(&skin.bone) else {
                return Err(LoadError::new(
                    file,
                    ErrorKind::IndexOutOfRange,
                    format!(
                        "names the bone '{}', but no frame has that name",
                        skin.bone.escape_debug()
                    ),
                )
                .in_section(skin.section.clone()));
            };
            match frame_source.get(frame).copied().flatten() {
                Some(k) => {
                    let earlier = offsets.get(k).copied().unwrap_or(Mat4::IDENTITY);
                    if !nearly_equal(&earlier, &skin_offset, SAME) {
                        return Err(LoadError::new(
                            file,
                            ErrorKind::Unsupported,
                            "this bone has another offset matrix in an earlier SkinWeights \
                             (meshes in different frames); one skeleton cannot serve both",
                        )
                        .in_section(skin.section.clone()));
                    }
                }
                None => {
                    frame_source[frame] = Some(sources.len());
                    sources.push(Some(frame));
                    offsets.push(skin_offset);
                }
            }
        }
    }
    let mut implicit_root = None;
    for mesh in doc.meshes.iter().filter(|m| m.skins.is_empty()) {
        match mesh.frame {
            Some(f) if frame_source.get(f).copied().flatten().is_none() => {
                frame_source[f] = Some(sources.len());
                sources.push(Some(f));
                offsets.push(Mat4::IDENTITY);
            }
            Some(_) => {}
            None => implicit_root = Some(()),
        }
    }
    // Animated frames above the joints so far, in file order (parents first).
    let animated = animated_frames(doc);
    let mut above = vec![false; n];
    for f in sources.iter().flatten() {
        let mut at = doc.frames.get(*f).and_then(|fr| fr.parent);
        while let Some(a) = at {
            if above.get(a).copied().unwrap_or(true) {
                break;
            }
            above[a] = true;
            at = doc.frames.get(a).and_then(|fr| fr.parent);
        }
    }
    for f in 0..n {
        if above[f] && animated[f] && frame_source[f].is_none() {
            frame_source[f] = Some(sources.len());
            sources.push(Some(f));
            offsets.push(Mat4::IDENTITY);
        }
    }
    if implicit_root.is_some() {
        sources.push(None);
        offsets.push(Mat4::IDENTITY);
    }
    if sources.is_empty() {
        return Err(LoadError::new(
            file,
            ErrorKind::Unsupported,
            "the file has no Mesh; throng loads characters",
        ));
    }

    let mut joints = Vec::with_capacity(sources.len());
    let mut folds = Vec::with_capacity(sources.len());
    for source in &sources {
        let Some(f) = *source else {
            joints.push(Joint::new(IMPLICIT_ROOT, None, Transform::IDENTITY));
            folds.push(Similarity::IDENTITY);
            continue;
        };
        let frame = &doc.frames[f];
        let section = format!("Frame '{}'", frame.name.escape_debug());
        // The static frames between this joint and its parent joint, top one first.
        let mut between = DAffine3::IDENTITY;
        let mut parent = None;
        let mut at = frame.parent;
        while let Some(a) = at {
            if let Some(k) = frame_source.get(a).copied().flatten() {
                parent = Some(k);
                break;
            }
            let m = DAffine3::from_mat4(doc.frames[a].matrix.as_dmat4());
            between = m * between;
            at = doc.frames[a].parent;
        }
        let fold = Similarity::from_affine(&between).ok_or_else(|| {
            LoadError::new(
                file,
                ErrorKind::Unsupported,
                "the static frames above this joint combine into a transform with non-uniform \
                 scale or shear, which cannot be folded into the joint's rotation and scale",
            )
            .in_section(section.clone())
        })?;
        let bind = decompose(&frame.matrix).ok_or_else(|| {
            LoadError::new(
                file,
                ErrorKind::Unsupported,
                "the FrameTransformMatrix has shear and cannot be decomposed into translation, \
                 rotation and scale",
            )
            .in_section(section)
        })?;
        joints.push(Joint::new(frame.name.clone(), parent, fold.apply(&bind)));
        folds.push(fold);
    }
    let offsets = offsets.iter().map(Mat3x4::from_mat4).collect();
    let skeleton = Skeleton::from_unordered(joints, offsets)
        .map_err(|e| LoadError::from_anim(file, "frames", e))?;
    let map = skeleton.index_from_source();
    let frame_joint = frame_source
        .iter()
        .map(|s| s.and_then(|k| map.get(k).copied()))
        .collect();
    let mut fold = vec![Similarity::IDENTITY; skeleton.len()];
    for (k, f) in folds.into_iter().enumerate() {
        if let Some(slot) = map.get(k).and_then(|&j| fold.get_mut(j)) {
            *slot = f;
        }
    }
    let root_joint = sources
        .iter()
        .position(Option::is_none)
        .and_then(|k| map.get(k).copied());
    let rigid_joint = doc
        .meshes
        .iter()
        .map(|m| match (m.skins.is_empty(), m.frame) {
            (false, _) => None,
            (true, Some(f)) => frame_source
                .get(f)
                .copied()
                .flatten()
                .and_then(|k| map.get(k).copied()),
            (true, None) => root_joint,
        })
        .collect();
    Ok(Rig {
        skeleton,
        frame_joint,
        fold,
        rigid_joint,
    })
}

/// A frame matrix as translation, rotation and scale, or `None` when that loses something
/// (shear).
pub(super) fn decompose(m: &Mat4) -> Option<Transform> {
    let affine = Mat3x4::from_mat4(m);
    let t = Transform::from_matrix(&affine);
    let scale = m
        .abs()
        .to_cols_array()
        .iter()
        .fold(1.0f32, |a, &b| a.max(b));
    (t.is_finite() && t.to_matrix().abs_diff_eq(&affine, SAME * scale)).then_some(t)
}

/// For each frame, whether some `Animation` moves it away from its `FrameTransformMatrix`.
fn animated_frames(doc: &Document) -> Vec<bool> {
    let mut animated = vec![false; doc.frames.len()];
    for animation in doc.sets.iter().flat_map(|s| &s.animations) {
        let Some(f) = doc.frame_named(&animation.target) else {
            continue;
        };
        let Some(bind) = doc.frames.get(f).and_then(|fr| decompose(&fr.matrix)) else {
            // A sheared frame cannot be a joint; if it must fold, the fold reports it.
            continue;
        };
        let moves = animation.keys.iter().any(|keys| {
            keys.values
                .chunks_exact(keys.kind.width())
                .any(|v| !key_matches(keys.kind, v, &bind, &doc.frames[f].matrix))
        });
        if moves {
            animated[f] = true;
        }
    }
    animated
}

/// Whether one key reproduces the frame's own transform.
fn key_matches(kind: KeyKind, v: &[f32], bind: &Transform, matrix: &Mat4) -> bool {
    let near = |a: glam::Vec3, b: glam::Vec3| {
        (a - b).abs().max_element()
            <= SAME * a.abs().max_element().max(b.abs().max_element()).max(1.0)
    };
    match (kind, v) {
        (KeyKind::Rotation, &[w, x, y, z]) => {
            let q = rotation_key(w, x, y, z);
            q.dot(bind.rotation).abs() >= 1.0 - 1e-6
        }
        (KeyKind::Scale, &[x, y, z]) => near(glam::Vec3::new(x, y, z), bind.scale.into()),
        (KeyKind::Position, &[x, y, z]) => near(glam::Vec3::new(x, y, z), bind.translation.into()),
        (KeyKind::Matrix, v) => {
            let mut m = [0.0; 16];
            m.iter_mut().zip(v).for_each(|(d, s)| *d = *s);
            nearly_equal(matrix, &Mat4::from_cols_array(&m), SAME)
        }
        _ => false,
    }
}

/// A rotation key `w x y z` as throng's quaternion. D3DX writes the conjugate of the rotation
/// its row-vector matrices apply (a frame's first key reproduces its `FrameTransformMatrix`
/// only this way round; `tests/x_loader.rs` checks it on both samples).
pub(super) fn rotation_key(w: f32, x: f32, y: f32, z: f32) -> glam::Quat {
    glam::Quat::from_xyzw(-x, -y, -z, w).normalize()
}
