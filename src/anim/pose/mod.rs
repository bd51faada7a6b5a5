//! The stages after sampling, for one instance: blending two poses, local-to-model (to-root
//! transforms, top-down) and the skinning palette (`palette = to_root * offset`), each on its
//! own or local-to-palette fused in one pass. [`soa`] is the same pass for a batch, one
//! instance per SIMD lane.
//!
//! Every stage follows one length rule: `N` is the skeleton's joint count; inputs and outputs
//! may be longer than `N` and only their first `N` entries are read or written; a shorter one
//! panics (each function's `# Panics` says which).

pub(crate) mod soa;

use super::matrix::Mat3x4;
use super::skeleton::Skeleton;
use super::transform::Transform;

/// Working memory for evaluating poses of skeletons of up to a given size. Allocate one per
/// thread, once, and reuse it: evaluation itself never allocates.
#[derive(Clone, Debug, Default)]
pub struct PoseScratch {
    /// The pose that goes into local-to-palette (during a cross-fade: the blend).
    pub(crate) locals: Vec<Transform>,
    /// The outgoing clip's pose of a cross-fade.
    pub(crate) outgoing: Vec<Transform>,
    /// The incoming clip's pose of a cross-fade.
    pub(crate) incoming: Vec<Transform>,
    /// Slot 0 is the identity (the parent of roots); joint `j` is at `j + 1`.
    pub(crate) to_root: Vec<Mat3x4>,
}

impl PoseScratch {
    /// Scratch for skeletons of up to `max_joints` joints.
    #[must_use]
    pub fn new(max_joints: usize) -> Self {
        let mut s = Self::default();
        s.reserve(max_joints);
        s
    }

    /// Grows the buffers (never shrinks) so that skeletons of `joints` joints fit.
    pub fn reserve(&mut self, joints: usize) {
        if self.locals.len() < joints {
            self.locals.resize(joints, Transform::IDENTITY);
            self.outgoing.resize(joints, Transform::IDENTITY);
            self.incoming.resize(joints, Transform::IDENTITY);
            self.to_root.resize(joints + 1, Mat3x4::IDENTITY);
        }
    }

    /// The largest skeleton this scratch holds without growing.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.locals.len()
    }

    /// The to-root (model-space) transforms of the last evaluation, one per joint of that
    /// skeleton. [`local_to_model`] writes them into memory of the caller's instead.
    ///
    /// # Panics
    ///
    /// If `joints` exceeds [`capacity`](Self::capacity).
    #[must_use]
    pub fn to_root(&self, joints: usize) -> &[Mat3x4] {
        &self.to_root[1..=joints]
    }

    /// The local transforms of the last evaluation (for a cross-fade: the blended pose).
    ///
    /// # Panics
    ///
    /// If `joints` exceeds [`capacity`](Self::capacity).
    #[must_use]
    pub fn locals(&self, joints: usize) -> &[Transform] {
        &self.locals[..joints]
    }
}

/// The blending stage: `out[j] = from[j].blend(&to[j], weight)` for every joint, that is
/// translation and scale lerped and rotation nlerped along the shorter arc; `weight` 0 keeps
/// `from`, 1 gives `to` (see [`Transform::blend`]).
///
/// # Panics
///
/// If `from`, `to` or `out` is shorter than the skeleton (see the module's length rule).
pub fn blend_poses(
    skeleton: &Skeleton,
    from: &[Transform],
    to: &[Transform],
    weight: f32,
    out: &mut [Transform],
) {
    let n = skeleton.len();
    for ((out, from), to) in out[..n].iter_mut().zip(&from[..n]).zip(&to[..n]) {
        *out = from.blend(to, weight);
    }
}

/// The local-to-model stage on its own: writes every joint's to-root (model-space) transform
/// `to_root[j] = to_root[parent(j)] * local[j]` into `out`, for attachments, inverse
/// kinematics or bounds. The values are bit for bit those [`local_to_palette`] computes.
///
/// # Panics
///
/// If `locals` or `out` is shorter than the skeleton (see the module's length rule).
pub fn local_to_model(skeleton: &Skeleton, locals: &[Transform], out: &mut [Mat3x4]) {
    let n = skeleton.len();
    let (locals, out) = (&locals[..n], &mut out[..n]);
    for j in 0..n {
        let parent = match skeleton.parent(j) {
            Some(p) => out[p],
            None => Mat3x4::IDENTITY,
        };
        out[j] = parent * locals[j].to_matrix();
    }
}

/// The palette stage on its own: `out[j] = to_root[j] * offset[j]`, from model-space
/// transforms such as [`local_to_model`] writes.
///
/// # Panics
///
/// If `to_root` or `out` is shorter than the skeleton (see the module's length rule).
pub fn model_to_palette(skeleton: &Skeleton, to_root: &[Mat3x4], out: &mut [Mat3x4]) {
    let n = skeleton.len();
    let offsets = skeleton.offsets();
    for ((out, world), offset) in out[..n].iter_mut().zip(&to_root[..n]).zip(offsets) {
        *out = *world * *offset;
    }
}

/// Local-to-model and palette fused in one pass: computes to-root transforms top-down into
/// `to_root[1..=N]` (slot 0 is set to the identity, the parent of roots) and writes
/// `palette[j] = to_root[j] * offset[j]` into `out`.
///
/// Each joint is one pass of the loop: local matrix, parent product, offset product, store.
/// The parent of a root is the identity slot, so the loop has no branch.
///
/// # Panics
///
/// If `locals` or `out` is shorter than the skeleton, or `to_root` shorter than one more
/// (see the module's length rule).
#[inline]
pub fn local_to_palette(
    skeleton: &Skeleton,
    locals: &[Transform],
    to_root: &mut [Mat3x4],
    out: &mut [Mat3x4],
) {
    let n = skeleton.len();
    let locals = &locals[..n];
    let out = &mut out[..n];
    let to_root = &mut to_root[..=n];
    to_root[0] = Mat3x4::IDENTITY;
    let slots = skeleton.parent_slots();
    let offsets = skeleton.offsets();
    for j in 0..n {
        let parent = to_root[slots[j] as usize];
        let world = parent.mul(&locals[j].to_matrix());
        to_root[j + 1] = world;
        out[j] = world.mul(&offsets[j]);
    }
}

/// The former name of [`local_to_palette`].
#[deprecated(since = "0.2.0", note = "renamed to `local_to_palette`")]
#[inline]
pub fn write_palette(
    skeleton: &Skeleton,
    locals: &[Transform],
    to_root: &mut [Mat3x4],
    out: &mut [Mat3x4],
) {
    local_to_palette(skeleton, locals, to_root, out);
}

/// Convenience for tools and tests: [`local_to_palette`] with `scratch` holding the to-root
/// transforms (read them back with [`PoseScratch::to_root`]). Grows `scratch` if needed.
///
/// # Panics
///
/// If `locals` or `out` is shorter than the skeleton (see the module's length rule).
pub fn palette_from_locals(
    skeleton: &Skeleton,
    locals: &[Transform],
    scratch: &mut PoseScratch,
    out: &mut [Mat3x4],
) {
    scratch.reserve(skeleton.len());
    local_to_palette(skeleton, locals, &mut scratch.to_root, out);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asset::builtin;

    /// The separate stages give the fused pass's bits, and blending is the transforms' blend.
    #[test]
    fn separate_stages_match_the_fused_pass() {
        let model = builtin::model().expect("builtin");
        let skeleton = model.skeleton();
        let n = skeleton.len();
        let (mut a, mut b) = (vec![Transform::IDENTITY; n], vec![Transform::IDENTITY; n]);
        model.clips()[0].sample(0.3, &mut a);
        model.clips()[model.clips().len() - 1].sample(0.7, &mut b);
        // Outputs longer than needed keep their tail.
        let mut blended = vec![Transform::IDENTITY; n + 1];
        blend_poses(skeleton, &a, &b, 0.25, &mut blended);
        for j in 0..n {
            assert_eq!(blended[j], a[j].blend(&b[j], 0.25));
        }
        let mut scratch = PoseScratch::new(n);
        let mut fused = vec![Mat3x4::IDENTITY; n];
        palette_from_locals(skeleton, &blended, &mut scratch, &mut fused);
        let mut model_space = vec![Mat3x4::IDENTITY; n + 2];
        local_to_model(skeleton, &blended, &mut model_space);
        let mut palette = vec![Mat3x4::IDENTITY; n];
        model_to_palette(skeleton, &model_space, &mut palette);
        let bits = |m: &[Mat3x4]| bytemuck::cast_slice::<Mat3x4, u32>(m).to_vec();
        assert_eq!(bits(&model_space[..n]), bits(scratch.to_root(n)));
        assert_eq!(model_space[n..], [Mat3x4::IDENTITY; 2]);
        assert_eq!(bits(&palette), bits(&fused));
    }

    #[test]
    #[should_panic]
    fn a_short_output_panics() {
        let model = builtin::model().expect("builtin");
        let n = model.joint_count();
        let locals = vec![Transform::IDENTITY; n];
        local_to_model(
            model.skeleton(),
            &locals,
            &mut vec![Mat3x4::IDENTITY; n - 1],
        );
    }
}
