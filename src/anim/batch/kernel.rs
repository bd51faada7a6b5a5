//! What a batch is and the kernel every instruction-set variant inlines: the batch, its
//! scratch, how its palettes reach the output, and the two passes (sampling, hierarchy) over
//! one lane type.

use glam::Vec4;

use super::isa::batch_lanes;
use crate::anim::matrix::Mat3x4;
use crate::anim::model::SkinnedModel;
use crate::anim::sampler::ClipSampler;
use crate::anim::simd::{Lanes, MAX_LANES, SoaMat, SoaTransform, store_row};
use crate::anim::skeleton::Skeleton;

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
    pub(super) narrow: LaneScratch<Vec4>,
    #[cfg(target_arch = "x86_64")]
    pub(super) eight: LaneScratch<crate::anim::simd::F32x8>,
    #[cfg(target_arch = "x86_64")]
    pub(super) sixteen: LaneScratch<crate::anim::simd::F32x16>,
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

/// The kernel for lane type `L`, inlined into each instruction-set variant above; `sample`
/// and `pose` are the two passes (a variant may compile them as functions of their own).
#[inline(always)]
pub(super) fn run_kernel<L: Lanes>(
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
