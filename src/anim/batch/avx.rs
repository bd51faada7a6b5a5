//! The batch kernels compiled for AVX2: eight lanes per vector ([`F32x8`]), with sampling
//! and the hierarchy pass each in an AVX2 function of its own.

use glam::Vec4;

use super::{Batch, BatchScratch, PaletteStores, run_kernel};
use crate::anim::matrix::Mat3x4;
use crate::anim::pose::soa::local_to_palette_with;
use crate::anim::sampler::ClipSampler;
use crate::anim::simd::{F32x8, MAX_LANES, SoaMat, SoaTransform};
use crate::anim::skeleton::Skeleton;

/// The batch kernel with eight lanes, compiled for AVX2.
///
/// # Safety
///
/// The processor must support AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn evaluate_avx2(
    batch: &Batch<'_>,
    stores: PaletteStores,
    scratch: &mut BatchScratch,
    out: &mut [Mat3x4],
) {
    run_kernel::<F32x8>(
        batch,
        stores,
        &mut scratch.wide,
        out,
        // SAFETY: this function only runs where AVX2 is available.
        |s, t, o| unsafe { sample(s, t, o) },
        // SAFETY: as above.
        |k, f, l, r, o, streaming| unsafe { pose(k, f, l, r, o, streaming) },
    );
}

/// Sampling, in its own AVX2 function: LLVM inlines the intrinsics of smaller functions
/// more reliably than those of one large one.
#[target_feature(enable = "avx2")]
unsafe fn sample(sampler: &ClipSampler, times: &[f32; MAX_LANES], out: &mut [SoaTransform<F32x8>]) {
    sampler.sample_lanes(times, out);
}

/// The hierarchy pass, in its own AVX2 function (see `sample`).
#[target_feature(enable = "avx2")]
unsafe fn pose(
    skeleton: &Skeleton,
    offsets: &[SoaMat<Vec4>],
    locals: &[SoaTransform<F32x8>],
    to_root: &mut [SoaMat<F32x8>],
    out: &mut [Mat3x4],
    streaming: bool,
) {
    local_to_palette_with(skeleton, offsets, locals, to_root, out, streaming);
}
