//! Several instances of one clip evaluated at once, one instance per SIMD lane.
//!
//! Every value of the pose (each component of a translation, rotation, scale and matrix
//! element) is a vector whose lanes belong to different instances at independent times: four
//! with `Vec4` on any target, eight with AVX2 registers and sixteen with AVX-512 where the
//! processor has them. The
//! instances share the model and clip, so they share the key layout and the hierarchy: the
//! only per-lane difference is which frame pair each lane reads. The polynomial slerp, the
//! quaternion-to-matrix conversion and both matrix products then run several instances per
//! instruction, where the per-instance path spends most of its instructions moving single
//! floats in and out of vector registers.
//!
//! Every lane performs the same IEEE operations in the same order (no fused multiply-add), so
//! an instance's palette is bit-identical whatever its lane, its batch width and the
//! processor's instruction set; it matches the per-instance path to float rounding.

mod isa;
mod kernel;
#[cfg(target_arch = "x86_64")]
mod x86;

use glam::Vec4;

pub use isa::{VectorIsa, batch_lanes, vector_isa};
use kernel::run_kernel;
pub use kernel::{Batch, BatchScratch, MAX_DIRECT_STREAMS, PaletteStores};

use super::matrix::Mat3x4;
use super::pose::soa::local_to_palette_with;
pub use super::simd::MAX_LANES;
pub(crate) use super::simd::finish_streaming;

/// The batch stage: writes the palettes of the batch's instances one after another into the
/// first `lanes` times joint-count entries of `out`. Allocation-free once `scratch` has grown
/// to the model's size. `batch.streaming` picks [`PaletteStores::Streaming`] or
/// [`PaletteStores::Cached`].
///
/// Length rule (the same for every stage of [`crate::anim`]): `out` may be longer than needed,
/// and only its first entries are written; a shorter one panics.
///
/// # Panics
///
/// If `lanes` is not in `1..=batch_lanes()`, `clip` is not a clip index of the model, or `out`
/// is shorter than `lanes` times the joint count.
pub fn evaluate_batch(batch: &Batch<'_>, scratch: &mut BatchScratch, out: &mut [Mat3x4]) {
    let stores = if batch.streaming {
        PaletteStores::Streaming
    } else {
        PaletteStores::Cached
    };
    evaluate_batch_unfenced(batch, stores, scratch, out);
    finish_streaming();
}

/// [`evaluate_batch`] with the stores named, and without the closing store fence: with
/// streaming stores the caller must call [`finish_streaming`] before handing the palettes to
/// another thread or device (the crowd does once per task rather than once per batch).
/// `batch.streaming` is ignored.
pub(crate) fn evaluate_batch_unfenced(
    batch: &Batch<'_>,
    stores: PaletteStores,
    scratch: &mut BatchScratch,
    out: &mut [Mat3x4],
) {
    // The narrowest kernel that holds the batch: a partial batch (the end of a clip's group)
    // computes every lane of its kernel, so a short one is cheaper in a narrower kernel.
    #[cfg(target_arch = "x86_64")]
    match vector_isa() {
        // SAFETY (both arms): `vector_isa` names only a family the processor supports
        // (AVX-512 F and VL imply AVX2).
        VectorIsa::Avx512 => unsafe {
            match batch.lanes {
                9.. => x86::avx512::evaluate(batch, stores, scratch, out),
                5..=8 => x86::avx512_eight::evaluate(batch, stores, scratch, out),
                _ => evaluate_narrow_avx2(batch, stores, scratch, out),
            }
            return;
        },
        VectorIsa::Avx2 => unsafe {
            if batch.lanes > 4 {
                x86::avx2::evaluate(batch, stores, scratch, out);
            } else {
                evaluate_narrow_avx2(batch, stores, scratch, out);
            }
            return;
        },
        VectorIsa::Portable => {}
    }
    run_narrow(batch, stores, scratch, out);
}

/// The four-lane kernel, inlined into the portable and the AVX2 variant.
#[inline(always)]
fn run_narrow(
    batch: &Batch<'_>,
    stores: PaletteStores,
    scratch: &mut BatchScratch,
    out: &mut [Mat3x4],
) {
    run_kernel::<Vec4>(
        batch,
        stores,
        &mut scratch.narrow,
        out,
        |s, t, o| s.sample_lanes(t, o),
        local_to_palette_with,
    );
}

/// The four-lane kernel compiled for AVX2 (three-operand instructions, fewer copies).
///
/// # Safety
///
/// The processor must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn evaluate_narrow_avx2(
    batch: &Batch<'_>,
    stores: PaletteStores,
    scratch: &mut BatchScratch,
    out: &mut [Mat3x4],
) {
    run_narrow(batch, stores, scratch, out);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::model::SkinnedModel;
    use crate::asset::builtin;

    fn bits(m: &[Mat3x4]) -> Vec<u32> {
        bytemuck::cast_slice::<Mat3x4, u32>(m).to_vec()
    }

    /// `lanes` instances of `clip` at `times[first..]` (lanes past the end read time 0).
    fn batch<'a>(
        model: &'a SkinnedModel,
        clip: usize,
        times: &[f32; MAX_LANES],
        first: usize,
        lanes: usize,
    ) -> Batch<'a> {
        let mut shifted = [0.0; MAX_LANES];
        shifted[..MAX_LANES - first].copy_from_slice(&times[first..]);
        Batch {
            model,
            clip,
            times: shifted,
            lanes,
            streaming: false,
        }
    }

    const ALL_STORES: [PaletteStores; 4] = [
        PaletteStores::Cached,
        PaletteStores::Streaming,
        PaletteStores::StagedCached,
        PaletteStores::StagedStreaming,
    ];

    /// A kernel under test: its name, the most lanes it takes, and a call returning the
    /// batch's palettes.
    type Kernel = (
        &'static str,
        usize,
        fn(&Batch<'_>, PaletteStores, &mut BatchScratch) -> Vec<Mat3x4>,
    );

    /// The portable four-lane kernel, whatever the processor.
    fn portable(
        batch: &Batch<'_>,
        stores: PaletteStores,
        scratch: &mut BatchScratch,
    ) -> Vec<Mat3x4> {
        let mut out = vec![Mat3x4::IDENTITY; batch.lanes * batch.model.joint_count()];
        run_kernel::<Vec4>(
            batch,
            stores,
            &mut scratch.narrow,
            &mut out,
            |s, t, o| s.sample_lanes(t, o),
            local_to_palette_with,
        );
        finish_streaming();
        out
    }

    /// A kernel compiled for an instruction set, as a test's call.
    #[cfg(target_arch = "x86_64")]
    macro_rules! isa_kernel {
        ($name:ident, $evaluate:path) => {
            fn $name(
                batch: &Batch<'_>,
                stores: PaletteStores,
                scratch: &mut BatchScratch,
            ) -> Vec<Mat3x4> {
                let mut out = vec![Mat3x4::IDENTITY; batch.lanes * batch.model.joint_count()];
                // SAFETY: only reached through `isa_kernels`, which checked the features.
                unsafe { $evaluate(batch, stores, scratch, &mut out) };
                finish_streaming();
                out
            }
        };
    }

    #[cfg(target_arch = "x86_64")]
    isa_kernel!(avx2_narrow, evaluate_narrow_avx2);
    #[cfg(target_arch = "x86_64")]
    isa_kernel!(avx2_eight, x86::avx2::evaluate);
    #[cfg(target_arch = "x86_64")]
    isa_kernel!(avx512_eight, x86::avx512_eight::evaluate);
    #[cfg(target_arch = "x86_64")]
    isa_kernel!(avx512_sixteen, x86::avx512::evaluate);

    /// The kernels compiled for this processor's vector extensions (AVX2: four and eight
    /// lanes; AVX-512: eight and sixteen lanes), and a line naming those it cannot run.
    #[cfg(target_arch = "x86_64")]
    fn isa_kernels() -> (Vec<Kernel>, Option<&'static str>) {
        let mut kernels: Vec<Kernel> = Vec::new();
        let detected = VectorIsa::detected();
        if detected < VectorIsa::Avx2 {
            return (
                kernels,
                Some("no AVX2: the AVX2 and AVX-512 kernels were NOT compared"),
            );
        }
        kernels.push(("four-lane AVX2", 4, avx2_narrow));
        kernels.push(("eight-lane AVX2", 8, avx2_eight));
        if detected < VectorIsa::Avx512 {
            return (kernels, Some("no AVX-512: its kernels were NOT compared"));
        }
        kernels.push(("eight-lane AVX-512", 8, avx512_eight));
        kernels.push(("sixteen-lane AVX-512", 16, avx512_sixteen));
        (kernels, None)
    }

    #[cfg(not(target_arch = "x86_64"))]
    fn isa_kernels() -> (Vec<Kernel>, Option<&'static str>) {
        (Vec::new(), Some("not x86-64: only the portable kernel ran"))
    }

    /// Every kernel this processor can run (the portable four-lane kernel and those of
    /// [`isa_kernels`]) must give the bits of the portable kernel for every instance, in full
    /// and partial batches, with every kind of store (direct or staged, streaming or not):
    /// the crowd mixes them (partial batches end each clip's group). A kernel the processor
    /// lacks is reported on stderr, so a run that compared less says so.
    #[test]
    fn every_kernel_gives_the_same_bits() {
        let model = builtin::model().expect("builtin");
        let n = model.joint_count();
        let times: [f32; MAX_LANES] = std::array::from_fn(|i| (i as f32 * 0.41 + 0.11) % 1.0);
        let (kernels, missing) = isa_kernels();
        if let Some(missing) = missing {
            eprintln!("every_kernel_gives_the_same_bits: {missing}");
        }
        let mut scratch = BatchScratch::default();
        for clip in 0..model.clips().len() {
            // The reference: instances in fours through the portable kernel.
            let cached = PaletteStores::Cached;
            let mut reference = Vec::new();
            for first in (0..MAX_LANES).step_by(4) {
                reference.extend(portable(
                    &batch(&model, clip, &times, first, 4),
                    cached,
                    &mut scratch,
                ));
            }
            let expect = |got: &[Mat3x4], first: usize, what: &str| {
                let want = &reference[first * n..first * n + got.len()];
                assert_eq!(bits(got), bits(want), "clip {clip}: {what}");
            };
            for stores in ALL_STORES {
                for lanes in 1..=4 {
                    for first in (0..MAX_LANES).step_by(4) {
                        let b = batch(&model, clip, &times, first, lanes);
                        let what = format!("portable, {lanes} lanes from {first}, {stores:?}");
                        expect(&portable(&b, stores, &mut scratch), first, &what);
                    }
                }
                for (name, max, kernel) in &kernels {
                    for lanes in 1..=*max {
                        let starts = (0..MAX_LANES).step_by(4).filter(|f| f + lanes <= MAX_LANES);
                        for first in starts {
                            let b = batch(&model, clip, &times, first, lanes);
                            let what = format!("{name}, {lanes} lanes from {first}, {stores:?}");
                            expect(&kernel(&b, stores, &mut scratch), first, &what);
                        }
                    }
                }
            }
            // And the dispatcher the crowd calls, at this processor's width.
            let lanes = batch_lanes();
            let mut dispatched = vec![Mat3x4::IDENTITY; lanes * n];
            for streaming in [false, true] {
                let b = Batch {
                    streaming,
                    ..batch(&model, clip, &times, 0, lanes)
                };
                evaluate_batch(&b, &mut scratch, &mut dispatched);
                expect(&dispatched, 0, "evaluate_batch");
            }
        }
    }
}
