//! From local transforms to the palette: to-root top-down, then `palette = to_root * offset`.

use super::matrix::Mat3x4;
use super::skeleton::Skeleton;
use super::transform::Transform;

/// Working memory for evaluating poses of skeletons of up to a given size. Allocate one per
/// thread, once, and reuse it: evaluation itself never allocates.
#[derive(Clone, Debug, Default)]
pub struct PoseScratch {
    pub(crate) locals: Vec<Transform>,
    pub(crate) blend: Vec<Transform>,
    /// Slot 0 is the identity (the parent of roots); joint `j` is at `j + 1`.
    pub(crate) to_root: Vec<Mat3x4>,
}

impl PoseScratch {
    /// Scratch for skeletons of up to `max_joints` joints.
    pub fn new(max_joints: usize) -> Self {
        let mut s = Self::default();
        s.reserve(max_joints);
        s
    }

    /// Grows the buffers (never shrinks) so that skeletons of `joints` joints fit.
    pub fn reserve(&mut self, joints: usize) {
        if self.locals.len() < joints {
            self.locals.resize(joints, Transform::IDENTITY);
            self.blend.resize(joints, Transform::IDENTITY);
            self.to_root.resize(joints + 1, Mat3x4::IDENTITY);
        }
    }

    /// The largest skeleton this scratch holds without growing.
    pub fn capacity(&self) -> usize {
        self.locals.len()
    }

    /// The to-root transforms of the last evaluation, one per joint of that skeleton.
    pub fn to_root(&self, joints: usize) -> &[Mat3x4] {
        &self.to_root[1..=joints]
    }

    /// The local transforms of the last evaluation.
    pub fn locals(&self, joints: usize) -> &[Transform] {
        &self.locals[..joints]
    }
}

/// Computes to-root transforms top-down into `to_root[1..]` (slot 0 must hold the identity)
/// and writes `palette[j] = to_root[j] * offset[j]` into `out`.
///
/// Each joint is one pass of the loop: local matrix, parent product, offset product, store.
/// The parent of a root is the identity slot, so the loop has no branch.
#[inline]
pub fn write_palette(
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

/// Convenience for tools and tests: palette of `locals` using `scratch` for the to-root
/// transforms.
pub fn palette_from_locals(
    skeleton: &Skeleton,
    locals: &[Transform],
    scratch: &mut PoseScratch,
    out: &mut [Mat3x4],
) {
    scratch.reserve(skeleton.len());
    write_palette(skeleton, locals, &mut scratch.to_root, out);
}
