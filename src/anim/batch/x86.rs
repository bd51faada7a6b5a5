//! The batch kernels compiled for the x86-64 vector extensions: eight lanes per vector with
//! AVX2 ([`F32x8`]), sixteen with AVX-512 ([`F32x16`]), and eight with AVX-512's encoding,
//! whose 32 vector registers (AVX2 has 16) spill less of the pose between instructions.
//! One macro writes every variant, so they differ only in lane type and instruction set.

use glam::Vec4;

use super::kernel::{Batch, BatchScratch, PaletteStores, run_kernel};
use crate::anim::matrix::Mat3x4;
use crate::anim::pose::soa::local_to_palette_with;
use crate::anim::sampler::ClipSampler;
use crate::anim::simd::{F32x8, F32x16, MAX_LANES, SoaMat, SoaTransform};
use crate::anim::skeleton::Skeleton;

/// `kernel!(module, "features", LaneType, scratch_field)`: a module whose `evaluate` runs the
/// batch kernel with `LaneType` lanes compiled for `features`, sampling and the hierarchy
/// pass each in a function of its own (LLVM inlines the vector code of smaller functions
/// more reliably than that of one large one).
macro_rules! kernel {
    ($module:ident, $features:literal, $lanes:ty, $scratch:ident) => {
        pub(super) mod $module {
            use super::*;

            /// The batch kernel (see the module documentation of `x86`).
            ///
            /// # Safety
            ///
            /// The processor must support every feature in the `target_feature` list.
            #[target_feature(enable = $features)]
            pub(in crate::anim::batch) unsafe fn evaluate(
                batch: &Batch<'_>,
                stores: PaletteStores,
                scratch: &mut BatchScratch,
                out: &mut [Mat3x4],
            ) {
                run_kernel::<$lanes>(
                    batch,
                    stores,
                    &mut scratch.$scratch,
                    out,
                    // SAFETY: this function only runs where the features are available.
                    |s, t, o| unsafe { sample(s, t, o) },
                    // SAFETY: as above.
                    |k, f, l, r, o, streaming| unsafe { pose(k, f, l, r, o, streaming) },
                );
            }

            #[target_feature(enable = $features)]
            unsafe fn sample(
                sampler: &ClipSampler,
                times: &[f32; MAX_LANES],
                out: &mut [SoaTransform<$lanes>],
            ) {
                sampler.sample_lanes(times, out);
            }

            #[target_feature(enable = $features)]
            unsafe fn pose(
                skeleton: &Skeleton,
                offsets: &[SoaMat<Vec4>],
                locals: &[SoaTransform<$lanes>],
                to_root: &mut [SoaMat<$lanes>],
                out: &mut [Mat3x4],
                streaming: bool,
            ) {
                local_to_palette_with(skeleton, offsets, locals, to_root, out, streaming);
            }
        }
    };
}

kernel!(avx2, "avx2", F32x8, eight);
kernel!(avx512_eight, "avx512f,avx512vl", F32x8, eight);
kernel!(avx512, "avx512f,avx512vl", F32x16, sixteen);
