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
#[cfg(target_arch = "x86_64")]
mod x86;

use glam::Vec4;

pub use isa::{VectorIsa, vector_isa};

use super::matrix::Mat3x4;
use super::model::SkinnedModel;
use super::pose::soa::local_to_palette_with;
use super::sampler::ClipSampler;
pub use super::simd::MAX_LANES;
pub(crate) use super::simd::finish_streaming;
use super::simd::{Lanes, SoaMat, SoaTransform, store_row};
use super::skeleton::Skeleton;

/// How many instances one batch evaluates: 16 with AVX-512 (F and VL), 8 with AVX2, else 4
/// (see [`vector_isa`], which `THRONG_ISA` can lower).
#[must_use]
pub fn batch_lanes() -> usize {
    vector_isa().lanes()
}

/// Working memory for one lane width.
#[derive(Clone, Debug, Default)]
pub(crate) struct LaneScratch<L> {
    locals: Vec<SoaTransform<L>>,
    /// Slot 0 is the identity (the parent of roots); joint `j` is at `j + 1`.
    to_root: Vec<SoaMat<L>>,
    /// A full batch's palettes, for batches with fewer instances than lanes.
    partial: Vec<Mat3x4>,
}

impl<L: Lanes> LaneScratch<L> {
    fn reserve(&mut self, joints: usize) {
        if self.locals.len() < joints {
            self.locals.resize(joints, SoaTransform::default());
            self.to_root.resize(joints + 1, SoaMat::identity());
            self.partial.resize(joints * L::N, Mat3x4::IDENTITY);
        }
    }
}

/// Working memory for batches of skeletons of up to a given size; one per thread, reused.
#[derive(Clone, Debug, Default)]
pub struct BatchScratch {
    narrow: LaneScratch<Vec4>,
    #[cfg(target_arch = "x86_64")]
    eight: LaneScratch<super::simd::F32x8>,
    #[cfg(target_arch = "x86_64")]
    sixteen: LaneScratch<super::simd::F32x16>,
}

impl BatchScratch {
    /// Grows the buffers (never shrinks) so that skeletons of `joints` joints fit.
    pub fn reserve(&mut self, joints: usize) {
        self.narrow.reserve(joints);
        #[cfg(target_arch = "x86_64")]
        {
            // Only the widths this processor runs: the others would be memory never touched.
            let lanes = batch_lanes();
            if lanes >= 8 {
                self.eight.reserve(joints);
            }
            if lanes >= 16 {
                self.sixteen.reserve(joints);
            }
        }
    }
}

/// Up to [`batch_lanes`] instances of one model playing one clip, each at its own time.
#[derive(Clone, Copy, Debug)]
pub struct Batch<'a> {
    /// The model all instances use.
    pub model: &'a SkinnedModel,
    /// The clip all instances play.
    pub clip: usize,
    /// Instance `l`'s time on the clip (entries past `lanes` are ignored).
    pub times: [f32; MAX_LANES],
    /// How many instances (1 to [`batch_lanes`]).
    pub lanes: usize,
    /// Write the palettes with streaming stores, which skip the cache: worth it when the
    /// frame's palettes outgrow the last-level cache; ordinary stores otherwise.
    pub streaming: bool,
}

/// How a batch's palettes reach the output.
///
/// The hierarchy pass produces one row of one joint for every lane at once. Written straight
/// to the output it feeds as many store streams as there are lanes, each advancing 48 bytes
/// per joint in its own palette; staged, the pass writes into a scratch block that stays in
/// cache and the block is then copied out lane after lane, one sequential stream. Many
/// interleaved streaming-store streams were suspected of a slow mode (issue 12), and that is
/// what they are once the kernel is fast enough to feed them: measured by processor time on
/// an AMD EPYC (robot, 10,000 instances, one thread), sixteen direct streams (AVX-512) ran at
/// 64 M joints/s against 186 staged, eight (AVX2) at 160 against 176, while four (portable)
/// ran direct at 137 against 127 staged. The write-combining buffers that let a streaming
/// store skip the cache are few; more open streams than buffers flush partial lines. So
/// [`PaletteStores::for_batch`] stages beyond [`MAX_DIRECT_STREAMS`]. (With the slower
/// kernels of before, eight direct streams were 5-10% ahead of staged ones: the balance
/// depends on how fast the stores come.) Ordinary stores suffer the same way once the frame
/// outgrows the core's own caches: sixteen direct streams wrote a 17-joint crowd of 10,000
/// (8 MB) at 121 M joints/s against 178 staged, the robot at 4,000 (8 MB) at 170 against 188,
/// and only at 1,000 robots (2 MB) were they even (211 against 207); so
/// it stages ordinary stores beyond four lanes too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PaletteStores {
    /// Direct from the lanes, ordinary stores (frames that stay in cache for their reader).
    Cached,
    /// Direct from the lanes, streaming stores (frames larger than the last-level cache).
    Streaming,
    /// Staged in scratch, copied out with ordinary stores.
    StagedCached,
    /// Staged in scratch, copied out lane after lane with streaming stores.
    StagedStreaming,
}

/// The most palettes a batch writes at once with direct streaming stores; wider batches
/// stage them (see [`PaletteStores`]).
pub const MAX_DIRECT_STREAMS: usize = 4;

impl PaletteStores {
    /// The stores for batches of `lanes` instances, skipping the cache or not: direct from
    /// the lanes up to [`MAX_DIRECT_STREAMS`], staged beyond.
    #[must_use]
    pub fn for_batch(lanes: usize, streaming: bool) -> Self {
        match (lanes > MAX_DIRECT_STREAMS, streaming) {
            (false, false) => Self::Cached,
            (false, true) => Self::Streaming,
            (true, false) => Self::StagedCached,
            (true, true) => Self::StagedStreaming,
        }
    }

    /// Whether the stores skip the cache.
    #[must_use]
    pub fn streaming(self) -> bool {
        matches!(self, Self::Streaming | Self::StagedStreaming)
    }
}

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

/// The kernel for lane type `L`, inlined into each instruction-set variant above; `sample`
/// and `pose` are the two passes (a variant may compile them as functions of their own).
#[inline(always)]
fn run_kernel<L: Lanes>(
    batch: &Batch<'_>,
    stores: PaletteStores,
    scratch: &mut LaneScratch<L>,
    out: &mut [Mat3x4],
    sample: impl Fn(&ClipSampler, &[f32; MAX_LANES], &mut [SoaTransform<L>]),
    pose: impl Fn(&Skeleton, &[SoaMat<Vec4>], &[SoaTransform<L>], &mut [SoaMat<L>], &mut [Mat3x4], bool),
) {
    let n = batch.model.joint_count();
    let lanes = batch.lanes;
    assert!(
        (1..=L::N).contains(&lanes) && out.len() >= lanes * n,
        "{lanes} lanes of {n} joints need {} matrices, got {} (at most {} lanes)",
        lanes * n,
        out.len(),
        L::N
    );
    scratch.reserve(n);
    sample(
        batch.model.clips()[batch.clip].sampler(),
        &batch.times,
        &mut scratch.locals[..n],
    );
    let (skeleton, offsets) = (batch.model.skeleton(), batch.model.offset_lanes());
    let (locals, to_root) = (&scratch.locals[..n], &mut scratch.to_root[..=n]);
    let direct = matches!(stores, PaletteStores::Cached | PaletteStores::Streaming);
    if direct && lanes == L::N {
        pose(skeleton, offsets, locals, to_root, out, stores.streaming());
        return;
    }
    // Staged (and any partial batch: the end of a clip's group computes all lanes and keeps
    // the ones that exist): into scratch with ordinary stores, then out lane after lane.
    let staged = &mut scratch.partial[..L::N * n];
    pose(skeleton, offsets, locals, to_root, staged, false);
    copy_palettes(
        &staged[..lanes * n],
        &mut out[..lanes * n],
        stores.streaming(),
    );
}

/// Copies palettes in order, with streaming stores or ordinary ones: one sequential stream,
/// so a streaming copy fills every write-combining buffer completely before it leaves.
#[inline(always)]
fn copy_palettes(from: &[Mat3x4], to: &mut [Mat3x4], streaming: bool) {
    if !streaming {
        to.copy_from_slice(from);
        return;
    }
    for (t, f) in to.iter_mut().zip(from) {
        for (row, value) in t.rows.iter_mut().zip(f.rows) {
            store_row::<true>(row, value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
