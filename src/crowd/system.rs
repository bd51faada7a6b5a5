//! `Crowd`: many instances, possibly of several models, advanced and evaluated in parallel on
//! a rayon pool, writing palettes and instance records straight into a ring slot.
//!
//! Instances keep the index they were spawned with, but a slot lists them in *slot order*:
//! grouped by model (so each model's records are one contiguous range, ready for one instanced
//! draw per subset), and within a model by clip. Instances playing the same clip are evaluated
//! sixteen at a time with AVX-512, eight with AVX2 (four elsewhere), one per SIMD lane
//! ([`evaluate_batch`]); an instance in a cross-fade is evaluated on its own. The order is
//! rebuilt (a counting sort, no allocation) only when a clip or fade state changed.

use std::ops::Range;
use std::sync::{Arc, Mutex, PoisonError};

use rayon::prelude::*;
use thiserror::Error;

use super::dispatch::Dispatcher;
use super::error::RingError;
use super::record::InstanceRecord;
use super::region::RegionAllocator;
use super::ring::{PaletteRing, ReleaseWait, Slot};
use crate::anim::{
    Batch, BatchScratch, MAX_LANES, Mat3x4, PaletteStores, PoseScratch, SkinnedModel,
    SkinnedModelInstance, batch_lanes, evaluate_batch_unfenced, finish_streaming,
};

/// Joints per parallel task: big enough that scheduling is noise (a few microseconds of
/// work), small enough that two threads finish together.
const JOINTS_PER_TASK: usize = 4096;
/// Instances per task when advancing clocks (tiny work per instance).
const INSTANCES_PER_UPDATE_TASK: usize = 1024;
/// Below this many palette matrices per frame, or instances per update, the work runs on the
/// calling thread by default: handing it to the pool and hearing back costs tens of
/// microseconds on a virtual machine, which a frame this small (under half a millisecond)
/// cannot win back. See [`Crowd::set_serial_below`].
const PARALLEL_MIN_JOINTS: usize = 32_768;
/// Palette bytes per frame from which palettes are written with streaming stores: past a few
/// megabytes a frame's palettes no longer stay in the caches, and skipping the cache saves
/// reading each line before writing it; below, ordinary stores keep them cached for the
/// reader. Measured (robot, one thread, sixteen lanes, staged): ordinary stores ahead at 2 MB
/// and 4 MB frames (200 against 191 M joints/s), streaming ahead at 6 MB (185 against 177) and
/// 8 MB (190 against 178).
const STREAMING_MIN_BYTES: usize = 5 << 20;
const PARALLEL_MIN_INSTANCES: usize = 32_768;

/// Why a crowd operation failed.
#[derive(Debug, Error)]
pub enum CrowdError {
    /// The thread pool could not be started.
    #[error("starting {threads} worker threads: {message}")]
    Pool {
        /// Threads asked for.
        threads: usize,
        /// Why the pool could not be built.
        message: String,
    },
    /// A model id that was never added.
    #[error("model {0} was never added to this crowd")]
    UnknownModel(usize),
    /// More palette entries than a 32-bit palette base can address.
    #[error("the crowd would need {0} palette matrices; at most 4294967295 are addressable")]
    TooManyJoints(usize),
    /// The ring could not provide or hold the frame.
    #[error(transparent)]
    Ring(#[from] RingError),
    /// An instance was asked to play a clip its model does not have.
    #[error(transparent)]
    Anim(#[from] crate::anim::AnimError),
}

/// Identifies a model added to a crowd.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ModelId(pub u32);

/// Where an instance's data sits in a slot this frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// Index of its record in the slot's record array.
    pub record: usize,
    /// Index of its first matrix in the slot's palette array.
    pub palette_base: usize,
}

/// One member of the crowd.
#[derive(Clone, Debug)]
struct Member {
    anim: SkinnedModelInstance,
    world: Mat3x4,
    model: u32,
    joints: u32,
    /// Its bucket: one per (model, clip), plus one per model for instances evaluated alone.
    bucket: u32,
}

/// What one slot position holds (slot order).
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    member: u32,
    palette_base: u32,
}

/// Per worker thread: scratch for single instances and for batches.
#[derive(Default)]
struct WorkerScratch {
    pose: PoseScratch,
    batch: BatchScratch,
}

/// A set of animated instances evaluated in parallel; see the module documentation.
pub struct Crowd {
    models: Vec<Arc<SkinnedModel>>,
    /// Bucket of each model's first clip; the model's "alone" bucket follows its clips.
    bucket_base: Vec<u32>,
    members: Vec<Member>,
    /// Slot order, and each position's palette base.
    entries: Vec<Entry>,
    /// Start of each bucket in slot order (one more entry than buckets).
    bucket_start: Vec<u32>,
    /// Working copy of `bucket_start` for the counting sort (kept to avoid reallocating).
    bucket_fill: Vec<u32>,
    order_dirty: bool,
    joints: usize,
    pool: Dispatcher,
    /// Instances per batch on this processor ([`batch_lanes`]).
    lanes: usize,
    /// Work below these sizes runs on the calling thread (see `set_serial_below`).
    serial_below_joints: usize,
    serial_below_instances: usize,
    /// The palette stores asked for with [`Crowd::set_palette_stores`]; `None`: by frame size.
    stores: Option<PaletteStores>,
    /// One per worker thread, grown when a bigger model is added and reused every frame:
    /// evaluation itself never allocates.
    scratch: Vec<Mutex<WorkerScratch>>,
}

impl Crowd {
    /// An empty crowd evaluated by `threads` worker threads (0: one per core).
    pub fn new(threads: usize) -> Result<Self, CrowdError> {
        let pool = Dispatcher::new(threads).map_err(|e| CrowdError::Pool {
            threads,
            message: e.to_string(),
        })?;
        let scratch = (0..pool.threads())
            .map(|_| Mutex::new(WorkerScratch::default()))
            .collect();
        Ok(Self {
            models: Vec::new(),
            bucket_base: Vec::new(),
            members: Vec::new(),
            entries: Vec::new(),
            bucket_start: vec![0],
            bucket_fill: Vec::new(),
            order_dirty: false,
            joints: 0,
            pool,
            lanes: batch_lanes(),
            serial_below_joints: PARALLEL_MIN_JOINTS,
            serial_below_instances: PARALLEL_MIN_INSTANCES,
            stores: None,
            scratch,
        })
    }

    /// Worker threads evaluating this crowd.
    pub fn threads(&self) -> usize {
        self.pool.threads()
    }

    /// Frames with fewer than `joints` palette matrices are evaluated, and updates of fewer
    /// than `instances` instances run, on the calling thread instead of the pool (defaults:
    /// 32,768 each). 0 always uses the pool.
    pub fn set_serial_below(&mut self, joints: usize, instances: usize) {
        self.serial_below_joints = joints;
        self.serial_below_instances = instances;
    }

    /// How palettes are stored: `None` (the default) picks streaming stores for frames of
    /// palettes larger than the last-level cache and ordinary ones below; `Some` forces a kind
    /// (benchmarks compare them). The palettes' values are the same whatever the stores.
    pub fn set_palette_stores(&mut self, stores: Option<PaletteStores>) {
        self.stores = stores;
    }

    /// The stores a frame of `bytes` bytes of palettes is written with.
    fn palette_stores(&self, bytes: usize) -> PaletteStores {
        self.stores
            .unwrap_or_else(|| PaletteStores::for_batch(self.lanes, bytes >= STREAMING_MIN_BYTES))
    }

    /// Adds a model instances can be spawned from.
    pub fn add_model(&mut self, model: Arc<SkinnedModel>) -> ModelId {
        let joints = model.joint_count();
        for s in &mut self.scratch {
            let s = s.get_mut().unwrap_or_else(PoisonError::into_inner);
            s.pose.reserve(joints);
            s.batch.reserve(joints);
        }
        let base = self.bucket_count() as u32;
        self.bucket_base.push(base);
        self.models.push(model);
        self.bucket_start = vec![0; self.bucket_count() + 1];
        self.order_dirty = true;
        ModelId(self.models.len() as u32 - 1)
    }

    fn bucket_count(&self) -> usize {
        self.models.iter().map(|m| m.clips().len() + 1).sum()
    }

    /// The models added so far, indexed by [`ModelId`].
    pub fn models(&self) -> &[Arc<SkinnedModel>] {
        &self.models
    }

    /// Adds an instance of `model` placed at `world`, playing the model's first clip from 0.
    /// Returns its index (stable for the crowd's life).
    pub fn spawn(&mut self, model: ModelId, world: Mat3x4) -> Result<usize, CrowdError> {
        let m = self
            .models
            .get(model.0 as usize)
            .ok_or(CrowdError::UnknownModel(model.0 as usize))?;
        let joints = m.joint_count();
        let total = self.joints + joints;
        if total > u32::MAX as usize {
            return Err(CrowdError::TooManyJoints(total));
        }
        let anim = SkinnedModelInstance::new(m.clone());
        let bucket = bucket_of(&anim, self.bucket_base[model.0 as usize]);
        self.members.push(Member {
            anim,
            world,
            model: model.0,
            joints: joints as u32,
            bucket,
        });
        self.joints = total;
        self.order_dirty = true;
        Ok(self.members.len() - 1)
    }

    /// Number of instances.
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// Whether the crowd has no instances.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// Palette matrices per frame (the sum of every instance's joint count).
    pub fn joint_count(&self) -> usize {
        self.joints
    }

    /// The animation state of instance `i`.
    pub fn instance(&self, i: usize) -> &SkinnedModelInstance {
        &self.members[i].anim
    }

    /// The animation state of instance `i`, to change its clip, time, speed or queue.
    pub fn instance_mut(&mut self, i: usize) -> &mut SkinnedModelInstance {
        // The caller may change the clip or start a fade: re-check buckets before the next
        // evaluation.
        self.order_dirty = true;
        &mut self.members[i].anim
    }

    /// Where instance `i` stands.
    pub fn world(&self, i: usize) -> &Mat3x4 {
        &self.members[i].world
    }

    /// Moves instance `i`.
    pub fn set_world(&mut self, i: usize, world: Mat3x4) {
        self.members[i].world = world;
    }

    /// Where instance `i`'s record and palette are written this frame.
    pub fn placement(&mut self, i: usize) -> Option<Placement> {
        self.refresh_order();
        self.entries
            .iter()
            .position(|e| e.member as usize == i)
            .map(|record| Placement {
                record,
                palette_base: self.entries[record].palette_base as usize,
            })
    }

    /// The range of records of each model in slot order (the `m`-th item is [`ModelId`]`(m)`'s):
    /// one instanced draw per model and subset covers exactly its range. Allocates nothing.
    pub fn model_ranges(&mut self) -> impl ExactSizeIterator<Item = Range<usize>> + '_ {
        self.refresh_order();
        let crowd = &*self;
        (0..crowd.models.len()).map(|m| crowd.ordered_range(ModelId(m as u32)))
    }

    /// The range of records of model `model` in slot order, without allocating (the renderer
    /// asks every frame); empty for a model with no instances or that was never added.
    pub fn model_range(&mut self, model: ModelId) -> Range<usize> {
        self.refresh_order();
        self.ordered_range(model)
    }

    /// [`Crowd::model_range`] once the slot order is current.
    fn ordered_range(&self, model: ModelId) -> Range<usize> {
        let m = model.0 as usize;
        let Some(&first) = self.bucket_base.get(m) else {
            return 0..0;
        };
        let first = first as usize;
        let last = first + self.models[m].clips().len();
        self.bucket_start[first] as usize..self.bucket_start[last + 1] as usize
    }

    /// Advances every instance's clocks, clip queue and cross-fade by `dt` seconds.
    pub fn update(&mut self, dt: f32) {
        let bases = &self.bucket_base;
        // Advances a chunk; reports whether an instance changed bucket (clip or fade state).
        let advance = |chunk: &mut [Member]| {
            let mut changed = false;
            for m in chunk {
                m.anim.advance(dt);
                let bucket = bucket_of(&m.anim, bases[m.model as usize]);
                changed |= bucket != m.bucket;
                m.bucket = bucket;
            }
            changed
        };
        let members = &mut self.members;
        let changed = if self.pool.is_inline() || members.len() < self.serial_below_instances {
            advance(members)
        } else {
            let mut changed = false;
            self.pool.run(|| {
                changed = members
                    .par_chunks_mut(INSTANCES_PER_UPDATE_TASK)
                    .map(advance)
                    .reduce(|| false, |a, b| a | b);
            });
            changed
        };
        self.order_dirty |= changed;
    }

    /// Rebuilds the slot order if a bucket may have changed: a stable counting sort of the
    /// members by bucket, then palette bases along that order.
    fn refresh_order(&mut self) {
        if !self.order_dirty {
            return;
        }
        self.order_dirty = false;
        let bases = &self.bucket_base;
        for m in &mut self.members {
            m.bucket = bucket_of(&m.anim, bases[m.model as usize]);
        }
        let starts = &mut self.bucket_start;
        starts.fill(0);
        for m in &self.members {
            starts[m.bucket as usize + 1] += 1;
        }
        for b in 1..starts.len() {
            starts[b] += starts[b - 1];
        }
        self.entries.resize(self.members.len(), Entry::default());
        // Place members bucket by bucket, in index order within a bucket; `fill` counts
        // through each bucket and ends as the start of the next.
        self.bucket_fill.clear();
        self.bucket_fill
            .extend_from_slice(&starts[..starts.len() - 1]);
        for (i, m) in self.members.iter().enumerate() {
            let at = &mut self.bucket_fill[m.bucket as usize];
            self.entries[*at as usize].member = i as u32;
            *at += 1;
        }
        let mut base = 0u32;
        for e in &mut self.entries {
            e.palette_base = base;
            base += self.members[e.member as usize].joints;
        }
    }

    /// Evaluates every instance in parallel, writing records and palettes in slot order, in
    /// place in `slot`. The output is bit-identical whatever the thread count: each instance
    /// is computed by the same code with the same inputs, and a batch lane does not depend on
    /// its neighbours.
    pub fn write_palettes(&mut self, slot: &mut Slot<'_>) -> Result<(), CrowdError> {
        check_capacity("instance records", slot.records.len(), self.members.len())?;
        check_capacity("palette matrices", slot.palettes.len(), self.joints)?;
        self.refresh_order();
        let records = &mut slot.records[..self.members.len()];
        let palettes = &mut slot.palettes[..self.joints];
        let avg_joints = self.joints.div_ceil(self.members.len().max(1)).max(1);
        // A multiple of the lane count, so that only bucket ends leave lanes idle.
        // One thread, or a small frame: a single part, evaluated on the calling thread without
        // rayon.
        let serial = self.pool.is_inline() || self.joints < self.serial_below_joints;
        let grain = if serial {
            usize::MAX
        } else {
            (JOINTS_PER_TASK / avg_joints)
                .max(1)
                .next_multiple_of(self.lanes)
        };
        let job = Job {
            members: &self.members,
            models: &self.models,
            scratch: &self.scratch,
            grain,
            lanes: self.lanes,
            stores: self.palette_stores(self.joints * size_of::<Mat3x4>()),
        };
        let entries = &self.entries;
        if serial {
            job.evaluate(entries, records, palettes);
        } else {
            self.pool.run(|| job.evaluate(entries, records, palettes));
        }
        Ok(())
    }

    /// Grows `ring` if needed, waits for its next slot, writes the frame, and returns the
    /// slot index (for the consumer to bind and then [`PaletteRing::submit`]).
    pub fn write_frame<A: RegionAllocator>(
        &mut self,
        ring: &mut PaletteRing<A>,
        waiter: &mut impl ReleaseWait,
    ) -> Result<usize, CrowdError> {
        ring.reserve(self.members.len(), self.joints)?;
        let mut slot = ring.acquire(waiter)?;
        self.write_palettes(&mut slot)?;
        Ok(slot.index)
    }
}

/// The bucket of an instance whose model's buckets start at `base`.
fn bucket_of(anim: &SkinnedModelInstance, base: u32) -> u32 {
    let clips = anim.model().clips().len() as u32;
    if anim.fade_weight().is_some() || clips == 0 {
        base + clips
    } else {
        base + anim.clip() as u32
    }
}

fn check_capacity(what: &'static str, capacity: usize, needed: usize) -> Result<(), RingError> {
    if capacity < needed {
        return Err(RingError::SlotTooSmall {
            what,
            capacity,
            needed,
        });
    }
    Ok(())
}

/// The read-only inputs of one frame's evaluation.
struct Job<'a> {
    members: &'a [Member],
    models: &'a [Arc<SkinnedModel>],
    scratch: &'a [Mutex<WorkerScratch>],
    grain: usize,
    /// Instances per batch on this processor.
    lanes: usize,
    /// How batches write their palettes.
    stores: PaletteStores,
}

impl Job<'_> {
    /// Splits the slot positions in halves, and the outputs at the matching record and
    /// palette base, until a part is at most `grain` positions; each part is evaluated by
    /// whichever worker picks it up, with that worker's scratch. No allocation:
    /// `rayon::join` keeps its jobs on the stack.
    fn evaluate(&self, entries: &[Entry], records: &mut [InstanceRecord], palettes: &mut [Mat3x4]) {
        if entries.len() <= self.grain {
            let worker = rayon::current_thread_index().unwrap_or(0) % self.scratch.len();
            let mut scratch = self.scratch[worker]
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            self.evaluate_serial(entries, records, palettes, &mut scratch);
            return;
        }
        let mid = (entries.len() / 2)
            .next_multiple_of(self.lanes)
            .min(entries.len());
        let split = (entries[mid].palette_base - entries[0].palette_base) as usize;
        let (entries_a, entries_b) = entries.split_at(mid);
        let (records_a, records_b) = records.split_at_mut(mid);
        let (palettes_a, palettes_b) = palettes.split_at_mut(split);
        rayon::join(
            || self.evaluate(entries_a, records_a, palettes_a),
            || self.evaluate(entries_b, records_b, palettes_b),
        );
    }

    /// Walks runs of positions in the same bucket: batches of up to [`batch_lanes`] for a shared clip,
    /// one by one for instances in a cross-fade.
    fn evaluate_serial(
        &self,
        entries: &[Entry],
        records: &mut [InstanceRecord],
        palettes: &mut [Mat3x4],
        scratch: &mut WorkerScratch,
    ) {
        let base = entries.first().map_or(0, |e| e.palette_base);
        for (e, r) in entries.iter().zip(records.iter_mut()) {
            let m = &self.members[e.member as usize];
            *r = InstanceRecord {
                world: m.world,
                palette_base: e.palette_base,
                model: m.model,
                joints: m.joints,
                reserved: 0,
            };
        }
        let mut rest = palettes;
        let mut at = 0;
        while at < entries.len() {
            let first = &self.members[entries[at].member as usize];
            let joints = first.joints as usize;
            let batchable = first.anim.fade_weight().is_none()
                && first.anim.clip() < self.models[first.model as usize].clips().len();
            let mut lanes = 1;
            if batchable {
                while lanes < self.lanes
                    && at + lanes < entries.len()
                    && self.members[entries[at + lanes].member as usize].bucket == first.bucket
                {
                    lanes += 1;
                }
            }
            let (out, tail) = rest.split_at_mut(joints * lanes);
            rest = tail;
            if batchable {
                let mut times = [first.anim.time(); MAX_LANES];
                for (l, t) in times.iter_mut().enumerate().take(lanes) {
                    *t = self.members[entries[at + l].member as usize].anim.time();
                }
                let batch = Batch {
                    model: &self.models[first.model as usize],
                    clip: first.anim.clip(),
                    times,
                    lanes,
                    streaming: self.stores.streaming(),
                };
                evaluate_batch_unfenced(&batch, self.stores, &mut scratch.batch, out);
            } else {
                first.anim.evaluate(&mut scratch.pose, out);
            }
            at += lanes;
        }
        debug_assert_eq!(
            rest.len(),
            0,
            "palette range of positions starting at base {base} fully written"
        );
        // Batches write with streaming stores: order them before the task completes.
        finish_streaming();
    }
}
