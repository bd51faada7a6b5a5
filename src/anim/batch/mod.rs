//! Four instances of one clip evaluated at once, one instance per SIMD lane.
//!
//! Every value of the pose (each component of a translation, rotation, scale and matrix
//! element) is a `Vec4` whose four lanes belong to four instances at four independent times.
//! The instances share the model and clip, so they share the key layout and the hierarchy:
//! the only per-lane difference is which frame pair each lane reads. The polynomial slerp, the
//! quaternion-to-matrix conversion and both matrix products then run four instances per
//! instruction, where the per-instance path spends most of its instructions moving single
//! floats in and out of vector registers. Results match the per-instance path to float
//! rounding and do not depend on which lane an instance lands in.

mod pose;
mod sample;

pub(crate) use pose::finish_streaming;

use glam::Vec4;

use super::matrix::Mat3x4;
use super::model::SkinnedModel;

/// Instances per batch.
pub const LANES: usize = 4;

/// Local transforms of four instances for one joint.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SoaTransform {
    pub(crate) t: [Vec4; 3],
    pub(crate) r: [Vec4; 4],
    pub(crate) s: [Vec4; 3],
}

impl Default for SoaTransform {
    fn default() -> Self {
        Self {
            t: [Vec4::ZERO; 3],
            r: [Vec4::ZERO, Vec4::ZERO, Vec4::ZERO, Vec4::ONE],
            s: [Vec4::ONE; 3],
        }
    }
}

/// A 3x4 affine matrix of four instances: `m[row][column]`, lanes are instances.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct SoaMat {
    pub(crate) m: [[Vec4; 4]; 3],
}

impl SoaMat {
    pub(crate) const IDENTITY: Self = Self {
        m: [
            [Vec4::ONE, Vec4::ZERO, Vec4::ZERO, Vec4::ZERO],
            [Vec4::ZERO, Vec4::ONE, Vec4::ZERO, Vec4::ZERO],
            [Vec4::ZERO, Vec4::ZERO, Vec4::ONE, Vec4::ZERO],
        ],
    };

    /// The same matrix in every lane.
    pub(crate) fn splat(a: &Mat3x4) -> Self {
        let mut m = Self::IDENTITY;
        for (r, row) in a.rows.iter().enumerate() {
            for c in 0..4 {
                m.m[r][c] = Vec4::splat(row[c]);
            }
        }
        m
    }
}

/// Working memory for batches of skeletons of up to a given size; one per thread, reused.
#[derive(Clone, Debug, Default)]
pub struct BatchScratch {
    locals: Vec<SoaTransform>,
    /// Slot 0 is the identity (the parent of roots); joint `j` is at `j + 1`.
    to_root: Vec<SoaMat>,
    /// Where the lanes of a partial batch write their (discarded) palettes.
    unused_lanes: Vec<Mat3x4>,
}

impl BatchScratch {
    /// Grows the buffers (never shrinks) so that skeletons of `joints` joints fit.
    pub fn reserve(&mut self, joints: usize) {
        if self.locals.len() < joints {
            self.locals.resize(joints, SoaTransform::default());
            self.to_root.resize(joints + 1, SoaMat::IDENTITY);
            self.unused_lanes
                .resize(joints * (LANES - 1), Mat3x4::IDENTITY);
        }
    }
}

/// Up to [`LANES`] instances of one model playing one clip, each at its own time.
#[derive(Clone, Copy, Debug)]
pub struct Batch<'a> {
    /// The model all instances use.
    pub model: &'a SkinnedModel,
    /// The clip all instances play.
    pub clip: usize,
    /// Instance `l`'s time on the clip (entries past `lanes` are ignored).
    pub times: [f32; LANES],
    /// How many instances (1 to [`LANES`]).
    pub lanes: usize,
}

/// Writes the palettes of the batch's instances one after another into `out` (`lanes` times
/// the joint count). Allocation-free once `scratch` has grown to the model's size.
///
/// On x86-64 processors with AVX2 the same code runs compiled for AVX2 (three-operand
/// instructions, no register copies); it uses no fused multiply-add, so both builds give
/// bit-identical results.
pub fn evaluate_batch(batch: &Batch<'_>, scratch: &mut BatchScratch, out: &mut [Mat3x4]) {
    evaluate_batch_unfenced(batch, scratch, out);
    finish_streaming();
}

/// [`evaluate_batch`] without the closing store fence: palettes are written with streaming
/// stores, so the caller must call [`finish_streaming`] before handing them to another thread
/// or device (the crowd does once per task rather than once per batch).
pub(crate) fn evaluate_batch_unfenced(
    batch: &Batch<'_>,
    scratch: &mut BatchScratch,
    out: &mut [Mat3x4],
) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor supports AVX2, checked just above.
        unsafe { evaluate_batch_avx2(batch, scratch, out) };
        return;
    }
    evaluate_batch_portable(batch, scratch, out);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn evaluate_batch_avx2(batch: &Batch<'_>, scratch: &mut BatchScratch, out: &mut [Mat3x4]) {
    evaluate_batch_portable(batch, scratch, out);
}

/// The kernel, inlined into each instruction-set variant above.
#[inline(always)]
fn evaluate_batch_portable(batch: &Batch<'_>, scratch: &mut BatchScratch, out: &mut [Mat3x4]) {
    let n = batch.model.joint_count();
    let lanes = batch.lanes;
    assert!(
        (1..=LANES).contains(&lanes) && out.len() == lanes * n,
        "{lanes} lanes of {n} joints need {} matrices, got {}",
        lanes * n,
        out.len()
    );
    scratch.reserve(n);
    batch.model.clips()[batch.clip]
        .sampler()
        .sample_lanes(batch.times, &mut scratch.locals[..n]);
    // Lanes past `lanes` write into scratch, so the kernel always writes four.
    let mut real = out.chunks_exact_mut(n);
    let mut spare = scratch.unused_lanes.chunks_exact_mut(n);
    let mut lane = || real.next().or_else(|| spare.next()).unwrap_or_default();
    let outputs = [lane(), lane(), lane(), lane()];
    pose::write_palettes(
        batch.model.skeleton(),
        &scratch.locals[..n],
        &mut scratch.to_root[..=n],
        outputs,
    );
}
