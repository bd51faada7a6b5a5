//! `SkinnedModel`: the in-memory model every loader produces and everything downstream reads.

use glam::Vec4;

use super::bounds;
use super::clip::AnimationClip;
use super::error::AnimError;
use super::lod::MeshLod;
use super::matrix::Mat3x4;
use super::mesh::Mesh;
use super::pose::{PoseScratch, local_to_palette};
use super::simd::SoaMat;
use super::skeleton::Skeleton;

/// A skeleton, its clips and the mesh skinned to it. Shared read-only (`Arc`) by instances.
#[derive(Clone, Debug)]
pub struct SkinnedModel {
    name: String,
    format: String,
    skeleton: Skeleton,
    clips: Vec<AnimationClip>,
    mesh: Mesh,
    /// The skeleton's offsets with every element splatted across four lanes: derived data
    /// for the batch, computed once here so the skeleton knows nothing of batches.
    offset_lanes: Vec<SoaMat<Vec4>>,
    /// Coarser versions of the mesh (empty unless given with [`SkinnedModel::set_lods`]).
    lods: Vec<MeshLod>,
}

impl SkinnedModel {
    /// Assembles a model, checking that every clip has one track per joint, that the mesh
    /// only references joints, vertices, materials and textures that exist, and that no
    /// pose of any clip can overflow into an infinite palette or skinned position (the
    /// bound of `anim::bounds`, so every loader refuses such files the same way).
    pub fn new(
        name: impl Into<String>,
        format: impl Into<String>,
        skeleton: Skeleton,
        clips: Vec<AnimationClip>,
        mesh: Mesh,
    ) -> Result<Self, AnimError> {
        for clip in &clips {
            if clip.tracks().len() != skeleton.len() {
                return Err(AnimError::TrackCount {
                    clip: clip.name().to_string(),
                    tracks: clip.tracks().len(),
                    joints: skeleton.len(),
                });
            }
        }
        mesh.validate(skeleton.len())?;
        bounds::check(&skeleton, &clips, &mesh)?;
        let offset_lanes = skeleton.offsets().iter().map(SoaMat::splat).collect();
        Ok(Self {
            name: name.into(),
            format: format.into(),
            skeleton,
            clips,
            mesh,
            offset_lanes,
            lods: Vec::new(),
        })
    }

    /// The model's name (file stem, or `builtin`).
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Where it came from: `builtin`, `m3d`, `gltf`, `glb`, ...
    #[must_use]
    pub fn format(&self) -> &str {
        &self.format
    }

    /// The joint hierarchy.
    #[must_use]
    pub fn skeleton(&self) -> &Skeleton {
        &self.skeleton
    }

    /// All clips, addressable by index.
    #[must_use]
    pub fn clips(&self) -> &[AnimationClip] {
        &self.clips
    }

    /// Puts `clip` in place of clip `index` and returns the clip it replaces; every other clip
    /// stays as it was. For tools that rework one clip of a loaded model (such as taking root
    /// motion out of it, `scene::play_in_place`) without building the model again. `clip` is
    /// checked as [`SkinnedModel::new`] checks clips (one track per joint, no pose that can
    /// overflow the palette or a skinned position); on error the model is unchanged.
    pub fn replace_clip(
        &mut self,
        index: usize,
        clip: AnimationClip,
    ) -> Result<AnimationClip, AnimError> {
        let count = self.clips.len();
        if index >= count {
            return Err(AnimError::ClipIndex { index, count });
        }
        if clip.tracks().len() != self.skeleton.len() {
            return Err(AnimError::TrackCount {
                clip: clip.name().to_string(),
                tracks: clip.tracks().len(),
                joints: self.skeleton.len(),
            });
        }
        bounds::check(&self.skeleton, std::slice::from_ref(&clip), &self.mesh)?;
        Ok(std::mem::replace(&mut self.clips[index], clip))
    }

    /// Puts `mesh` in place of the model's mesh (a mesh reworked at load: vertices merged,
    /// triangles reordered) and returns the old one. `mesh` is checked as
    /// [`SkinnedModel::new`] checks a mesh; its coarser levels index the old mesh, so they are
    /// dropped (make them again with [`SkinnedModel::set_lods`]). On error the model is
    /// unchanged.
    pub fn replace_mesh(&mut self, mesh: Mesh) -> Result<Mesh, AnimError> {
        mesh.validate(self.skeleton.len())?;
        bounds::check(&self.skeleton, &self.clips, &mesh)?;
        self.lods.clear();
        Ok(std::mem::replace(&mut self.mesh, mesh))
    }

    /// The offsets splatted across batch lanes (see [`crate::anim::Batch`]).
    pub(crate) fn offset_lanes(&self) -> &[SoaMat<Vec4>] {
        &self.offset_lanes
    }

    /// Coarser versions of the mesh, finest first (the full mesh itself is not among them).
    #[must_use]
    pub fn lods(&self) -> &[MeshLod] {
        &self.lods
    }

    /// Gives the model coarser versions of its mesh (see [`MeshLod`]), checked against the
    /// mesh so that nothing downstream checks them again: an error names the level and
    /// subset that does not fit.
    pub fn set_lods(&mut self, lods: Vec<MeshLod>) -> Result<(), AnimError> {
        super::lod::validate(&self.mesh, &lods)?;
        self.lods = lods;
        Ok(())
    }

    /// The skinned mesh.
    #[must_use]
    pub fn mesh(&self) -> &Mesh {
        &self.mesh
    }

    /// Number of joints (palette entries per instance).
    #[must_use]
    pub fn joint_count(&self) -> usize {
        self.skeleton.len()
    }

    /// Index of the first clip named `name` (see [`SkinnedModel::unique_clip`] for a look-up
    /// that refuses a name several clips share).
    #[must_use]
    pub fn clip_index(&self, name: &str) -> Option<usize> {
        self.clips.iter().position(|c| c.name() == name)
    }

    /// Index of the clip named `name`: `None` when no clip has it, an error when several do.
    pub fn unique_clip(&self, name: &str) -> Result<Option<usize>, AnimError> {
        let count = self.clips.iter().filter(|c| c.name() == name).count();
        if count > 1 {
            return Err(AnimError::AmbiguousName {
                what: "clip",
                name: name.to_string(),
                count,
            });
        }
        Ok(self.clip_index(name))
    }

    /// Finds a clip by name, or else by index when `name_or_index` is a number. A name that
    /// several clips share is refused.
    pub fn resolve_clip(&self, name_or_index: &str) -> Result<usize, AnimError> {
        if let Some(i) = self.unique_clip(name_or_index)? {
            return Ok(i);
        }
        match name_or_index.parse::<usize>() {
            Ok(index) if index < self.clips.len() => Ok(index),
            Ok(index) => Err(AnimError::ClipIndex {
                index,
                count: self.clips.len(),
            }),
            Err(_) => Err(AnimError::UnknownClip(name_or_index.to_string())),
        }
    }

    /// Writes the palette of `clip` at `time` seconds (clamped by the sampler to the keys)
    /// into the first [`joint_count`](Self::joint_count) entries of `out` (sample, then
    /// local-to-palette; the length rule of [`crate::anim::local_to_palette`]).
    ///
    /// # Panics
    ///
    /// If `clip` is not a clip index or `out` is shorter than the joint count.
    pub fn evaluate(&self, clip: usize, time: f32, scratch: &mut PoseScratch, out: &mut [Mat3x4]) {
        let n = self.skeleton.len();
        scratch.reserve(n);
        self.clips[clip].sample(time, &mut scratch.locals[..n]);
        local_to_palette(&self.skeleton, &scratch.locals, &mut scratch.to_root, out);
    }

    /// Writes the bind-pose palette (identity for consistent offsets) into the first
    /// [`joint_count`](Self::joint_count) entries of `out`.
    ///
    /// # Panics
    ///
    /// If `out` is shorter than the joint count.
    pub fn bind_palette(&self, scratch: &mut PoseScratch, out: &mut [Mat3x4]) {
        let n = self.skeleton.len();
        scratch.reserve(n);
        scratch.locals[..n].copy_from_slice(self.skeleton.bind_pose());
        local_to_palette(&self.skeleton, &scratch.locals, &mut scratch.to_root, out);
    }
}
