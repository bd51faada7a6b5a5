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

use glam::Vec4;

use rayon::prelude::*;

use super::baked::{BakeReport, BakeSettings, BakedFrames, BakedLibrary};
use super::dispatch::Dispatcher;
use super::error::{CrowdError, RingError};
use super::exact_cap::ExactCap;
use super::record::{InstanceRecord, MAX_MODELS, RECORD_BAKED};
use super::region::RegionAllocator;
use super::ring::{PaletteRing, ReleaseWait, Slot};
use super::visibility::{AnimationView, max_scale};
use crate::anim::{
    Batch, BatchScratch, Bounds, MAX_LANES, Mat3x4, PaletteStores, PoseScratch, SkinnedModel,
    SkinnedModelInstance, batch_lanes, bind_bounds, clip_bounds, evaluate_batch_unfenced,
    finish_streaming,
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
/// Samples per second of clip time at which clip bounds are computed (`anim::clip_bounds`
/// pads them for the motion between samples).
const BOUNDS_RATE: f32 = 60.0;
/// Bounds one model can have in an [`InstanceRecord`] (16 bits): a model with more clips
/// shares one bound, the union of them all, among every clip.
const MAX_BOUNDS_PER_MODEL: usize = 0xffff;

/// Where palettes come from (`--animation`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AnimationMode {
    /// Every instance's palette is evaluated on the CPU each frame.
    Exact,
    /// Every instance whose clip is baked reads the baked frames.
    Baked,
    /// Near instances exact, far ones baked: exact where the baked frames' error could show
    /// in the camera's view (see [`AnimationView`]).
    #[default]
    Auto,
}

/// How many instances of the last frame had exact palettes and how many baked frames.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AnimationCounts {
    /// Palettes evaluated on the CPU.
    pub exact: usize,
    /// Palettes read from baked frames.
    pub baked: usize,
    /// Palette matrices written into the ring.
    pub palette_matrices: usize,
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
    /// The largest stretch of `world` ([`max_scale`]), kept with it: the choice between exact
    /// and baked palettes needs it for every instance every frame.
    scale: f32,
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

/// Per model: the model-space boxes its mesh stays in.
#[derive(Clone, Debug)]
struct ModelBounds {
    /// Index of its first entry in the crowd's bound list.
    base: u32,
    /// Entries: one per clip, then the bind pose (or one, the union of all, for a model
    /// with more clips than a record can number).
    count: u32,
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
    /// Each model's bounds in `bounds`.
    model_bounds: Vec<ModelBounds>,
    /// Model-space boxes, model after model: each clip's over the whole clip, then the bind
    /// pose's. The renderer's culling reads them; records name them.
    bounds: Vec<Bounds>,
    /// The sphere around each box (xyz: centre, w: radius), for the choice between exact and
    /// baked palettes.
    spheres: Vec<Vec4>,
    /// Baked frames, indexed like `bounds` (empty until [`Crowd::bake`]).
    baked: BakedFrames,
    /// Where palettes come from.
    animation: AnimationMode,
    /// The camera of the next frame, for [`AnimationMode::Auto`].
    view: Option<AnimationView>,
    /// Per slot position, this frame: exact palette (true) or baked frames.
    exact: Vec<bool>,
    /// The same per member (decided in member order).
    exact_by_member: Vec<bool>,
    /// Per member, what the choice between exact and baked reads ([`Reach`]): kept beside
    /// the members, a tenth of their size, so that a frame's choice reads 2 MB at 100,000
    /// characters instead of the 16 MB the members take. Refreshed by `update` for every
    /// member, and for the members handed out by `instance_mut` or moved since.
    reach: Vec<Reach>,
    /// Members changed since their reach was computed.
    touched: Vec<u32>,
    /// Every reach needs computing again (the baked frames changed).
    reach_stale: bool,
    /// The last frame's counts.
    counts: AnimationCounts,
    /// The cap on a frame's exact palette matrices.
    cap: ExactCap,
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
            model_bounds: Vec::new(),
            bounds: Vec::new(),
            spheres: Vec::new(),
            baked: BakedFrames::default(),
            animation: AnimationMode::Exact,
            view: None,
            exact: Vec::new(),
            exact_by_member: Vec::new(),
            reach: Vec::new(),
            touched: Vec::new(),
            reach_stale: false,
            counts: AnimationCounts::default(),
            cap: ExactCap::default(),
        })
    }

    /// The most exact palette matrices one frame may hold (default: no limit). With
    /// [`AnimationMode::Auto`], when more instances need exact palettes than that, the
    /// farthest of those with baked frames read them instead; with
    /// [`AnimationMode::Exact`] nothing gives way, and writing the frame fails with the
    /// ring's error.
    pub fn set_max_exact_matrices(&mut self, max: usize) {
        self.cap.set_max(max);
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
        self.add_bounds(&model);
        self.models.push(model);
        self.bucket_start = vec![0; self.bucket_count() + 1];
        self.order_dirty = true;
        ModelId(self.models.len() as u32 - 1)
    }

    /// Computes `model`'s bounds (before it joins `models`).
    fn add_bounds(&mut self, model: &SkinnedModel) {
        let clips = model.clips().len();
        // A mesh with no vertices draws nothing: a point box keeps the rules total.
        let point = Bounds {
            min: glam::Vec3::ZERO,
            max: glam::Vec3::ZERO,
        };
        let bind = bind_bounds(model).unwrap_or(point);
        let mut boxes: Vec<Bounds> = (0..clips)
            .map(|c| {
                // Only a bad index or rate fails, neither possible here; the bind pose's box
                // is the fallback all the same.
                clip_bounds(model, c, BOUNDS_RATE)
                    .ok()
                    .flatten()
                    .unwrap_or(bind)
            })
            .collect();
        boxes.push(bind);
        if boxes.len() > MAX_BOUNDS_PER_MODEL {
            let union = boxes.iter().fold(bind, |a, b| Bounds {
                min: a.min.min(b.min),
                max: a.max.max(b.max),
            });
            boxes = vec![union];
        }
        self.model_bounds.push(ModelBounds {
            base: self.bounds.len() as u32,
            count: boxes.len() as u32,
        });
        self.spheres.extend(boxes.iter().map(sphere_of));
        self.bounds.extend(boxes);
    }

    /// Every model's bounds, model after model: for model `m`, its clips' boxes (model space,
    /// each holding the mesh over the whole clip) then its bind pose's, from
    /// [`Crowd::bounds_range`]`(m).start`. [`InstanceRecord::bounds`] indexes them from there.
    pub fn bounds(&self) -> &[Bounds] {
        &self.bounds
    }

    /// Where model `model`'s boxes are in [`Crowd::bounds`] (empty for an unknown model).
    pub fn bounds_range(&self, model: ModelId) -> Range<usize> {
        self.model_bounds
            .get(model.0 as usize)
            .map_or(0..0, |b| b.base as usize..(b.base + b.count) as usize)
    }

    /// Samples every clip of every model once at `settings.fps` into baked frames, within
    /// `settings.memory_limit` (a clip that does not fit is left out, and the report says so:
    /// its instances stay exact). Instances then read baked frames as the animation mode says.
    pub fn bake(&mut self, settings: BakeSettings) -> BakeReport {
        let counts: Vec<usize> = self.model_bounds.iter().map(|b| b.count as usize).collect();
        let report = self.baked.bake(&self.models, |m| counts[m], settings);
        self.reach_stale = true;
        report
    }

    /// The baked frames (empty until [`Crowd::bake`]).
    pub fn baked(&self) -> &BakedLibrary {
        self.baked.library()
    }

    /// Changes each time the baked frames do.
    pub fn baked_generation(&self) -> u64 {
        self.baked.generation()
    }

    /// Where palettes come from from the next frame on (the default: [`AnimationMode::Exact`]
    /// until a renderer or caller chooses).
    pub fn set_animation(&mut self, mode: AnimationMode) {
        self.animation = mode;
    }

    /// Where palettes come from.
    pub fn animation(&self) -> AnimationMode {
        self.animation
    }

    /// The camera of the next frame, which [`AnimationMode::Auto`] decides with (without
    /// one, every instance is exact).
    pub fn set_view(&mut self, view: Option<AnimationView>) {
        self.view = view;
    }

    /// How the last frame's palettes were made.
    pub fn counts(&self) -> AnimationCounts {
        self.counts
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
        if model.0 as usize >= MAX_MODELS {
            return Err(CrowdError::TooManyModels);
        }
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
            scale: max_scale(&world),
            model: model.0,
            joints: joints as u32,
            bucket,
        });
        self.joints = total;
        self.order_dirty = true;
        let i = self.members.len() - 1;
        let reach = self.reach_source().of(&self.members[i]);
        self.reach.push(reach);
        Ok(i)
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
        // The caller may change the clip or start a fade: re-check buckets and the choice's
        // inputs before the next evaluation.
        self.order_dirty = true;
        self.touched.push(i as u32);
        &mut self.members[i].anim
    }

    /// Where instance `i` stands.
    pub fn world(&self, i: usize) -> &Mat3x4 {
        &self.members[i].world
    }

    /// Moves instance `i`.
    pub fn set_world(&mut self, i: usize, world: Mat3x4) {
        self.members[i].world = world;
        self.members[i].scale = max_scale(&world);
        self.touched.push(i as u32);
    }

    /// Where instance `i`'s record and palette are written this frame.
    pub fn placement(&mut self, i: usize) -> Option<Placement> {
        self.choose_palettes();
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
        let source = ReachSource {
            model_bounds: &self.model_bounds,
            bounds: &self.bounds,
            spheres: &self.spheres,
            baked: self.baked.library(),
        };
        // Advances a chunk and, while each member is at hand, what the next choice between
        // exact and baked reads of it; reports whether an instance changed bucket (clip or
        // fade state).
        let advance = |(chunk, reach): (&mut [Member], &mut [Reach])| {
            let mut changed = false;
            for (m, r) in chunk.iter_mut().zip(reach.iter_mut()) {
                m.anim.advance(dt);
                let bucket = bucket_of(&m.anim, bases[m.model as usize]);
                changed |= bucket != m.bucket;
                m.bucket = bucket;
                *r = source.of(m);
            }
            changed
        };
        let members = &mut self.members;
        let reach = &mut self.reach;
        let changed = if self.pool.is_inline() || members.len() < self.serial_below_instances {
            advance((members, reach))
        } else {
            let mut changed = false;
            self.pool.run(|| {
                changed = members
                    .par_chunks_mut(INSTANCES_PER_UPDATE_TASK)
                    .zip(reach.par_chunks_mut(INSTANCES_PER_UPDATE_TASK))
                    .map(advance)
                    .reduce(|| false, |a, b| a | b);
            });
            changed
        };
        self.order_dirty |= changed;
        self.touched.clear();
        self.reach_stale = false;
    }

    /// What computes a member's [`Reach`].
    fn reach_source(&self) -> ReachSource<'_> {
        ReachSource {
            model_bounds: &self.model_bounds,
            bounds: &self.bounds,
            spheres: &self.spheres,
            baked: self.baked.library(),
        }
    }

    /// Brings every reach up to date: all of them after baking, else those of the members
    /// changed since the last update.
    fn refresh_reach(&mut self) {
        let source = ReachSource {
            model_bounds: &self.model_bounds,
            bounds: &self.bounds,
            spheres: &self.spheres,
            baked: self.baked.library(),
        };
        if self.reach_stale {
            for (m, r) in self.members.iter().zip(self.reach.iter_mut()) {
                *r = source.of(m);
            }
            self.reach_stale = false;
        } else {
            for &i in &self.touched {
                self.reach[i as usize] = source.of(&self.members[i as usize]);
            }
        }
        self.touched.clear();
    }

    /// Rebuilds the slot order if a bucket may have changed: a stable counting sort of the
    /// members by bucket.
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
        self.exact.resize(self.members.len(), true);
        self.exact_by_member.resize(self.members.len(), true);
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
    }

    /// Decides, for every slot position, between an exact palette and baked frames, and
    /// places the exact palettes one after another in slot order. Returns the palette
    /// matrices the frame writes.
    fn choose_palettes(&mut self) -> usize {
        self.refresh_order();
        self.refresh_reach();
        let rule = Rule {
            reach: &self.reach,
            any_baked: self.baked.library().matrices() > 0,
            mode: self.animation,
            view: self.view,
        };
        let all_exact = rule.all_exact();
        let by_member = &mut self.exact_by_member[..self.members.len()];
        if all_exact {
            // Nothing to decide.
        } else if self.pool.is_inline() || by_member.len() < self.serial_below_instances {
            rule.classify(0, by_member);
        } else {
            self.pool.run(|| {
                by_member
                    .par_chunks_mut(INSTANCES_PER_UPDATE_TASK)
                    .enumerate()
                    .for_each(|(k, out)| rule.classify(k * INSTANCES_PER_UPDATE_TASK, out));
            });
        }
        if !all_exact && let Some(view) = &self.view {
            let eye = view.scale.eye;
            let (members, reach) = (&self.members, &self.reach);
            self.cap.apply(
                by_member,
                self.joints,
                |i| members[i].joints,
                |i| {
                    let r = &reach[i];
                    r.error
                        .is_finite()
                        .then(|| eye.distance_squared(r.sphere.truncate()))
                },
            );
        }
        let mut base = 0u32;
        let mut exact_count = 0;
        let exact = &mut self.exact[..self.entries.len()];
        for (e, x) in self.entries.iter_mut().zip(exact.iter_mut()) {
            *x = all_exact || by_member[e.member as usize];
            e.palette_base = base;
            if *x {
                base += self.members[e.member as usize].joints;
                exact_count += 1;
            }
        }
        self.counts = AnimationCounts {
            exact: exact_count,
            baked: self.entries.len() - exact_count,
            palette_matrices: base as usize,
        };
        base as usize
    }

    /// Evaluates every instance in parallel, writing records (all of them) and exact
    /// palettes in slot order, in place in `slot`. The output is bit-identical whatever the
    /// thread count: each instance is computed by the same code with the same inputs, and a
    /// batch lane does not depend on its neighbours.
    pub fn write_palettes(&mut self, slot: &mut Slot<'_>) -> Result<(), CrowdError> {
        let joints = self.choose_palettes();
        self.write_chosen(slot, joints)
    }

    /// [`Crowd::write_palettes`] once [`Crowd::choose_palettes`] has decided the frame's
    /// `joints` palette matrices.
    fn write_chosen(&mut self, slot: &mut Slot<'_>, joints: usize) -> Result<(), CrowdError> {
        check_capacity("instance records", slot.records.len(), self.members.len())?;
        check_capacity("palette matrices", slot.palettes.len(), joints)?;
        let records = &mut slot.records[..self.members.len()];
        let palettes = &mut slot.palettes[..joints];
        let avg_joints = joints.div_ceil(self.counts.exact.max(1)).max(1);
        // A multiple of the lane count, so that only bucket ends leave lanes idle.
        // One thread, or a small frame: a single part, evaluated on the calling thread without
        // rayon.
        let serial = self.pool.is_inline()
            || (joints < self.serial_below_joints
                && self.members.len() < self.serial_below_instances);
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
            stores: self.palette_stores(joints * size_of::<Mat3x4>()),
            model_bounds: &self.model_bounds,
            baked: self.baked.library(),
        };
        let entries = &self.entries;
        let exact = &self.exact[..entries.len()];
        if serial {
            job.evaluate(entries, exact, records, palettes);
        } else {
            self.pool
                .run(|| job.evaluate(entries, exact, records, palettes));
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
        let joints = self.choose_palettes();
        // At least one matrix: the renderer binds the palettes even when all are baked.
        ring.reserve(self.members.len(), joints.max(1))?;
        let mut slot = ring.acquire(waiter)?;
        self.write_chosen(&mut slot, joints)?;
        Ok(slot.index)
    }
}

/// The sphere around `b` (xyz: centre, w: radius).
fn sphere_of(b: &Bounds) -> Vec4 {
    (0.5 * (b.min + b.max)).extend(0.5 * (b.max - b.min).length())
}

/// How many slot positions ahead members are fetched while records are written.
const PREFETCH_AHEAD: usize = 8;

/// Asks the processor to start loading `member` (its first two cache lines: world, model,
/// the instance's clock) into the cache; a hint, with no effect on results.
#[inline(always)]
fn prefetch(member: &Member) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let p = std::ptr::from_ref(member).cast::<i8>();
        // SAFETY: prefetching is a hint and never faults; both addresses lie in `member`
        // (160 bytes) or one line past its start.
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(p);
            _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(64));
            _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(128));
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = member;
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

/// The index among a model's bounds of `clip` (see [`ModelBounds`]).
fn bound_index(bounds: &ModelBounds, model: &SkinnedModel, clip: usize) -> u32 {
    let clips = model.clips().len();
    if bounds.count == 1 {
        0
    } else {
        clip.min(clips) as u32
    }
}

/// An instance's clips as bound indices: the one playing, and the one faded from (the same
/// when not fading).
fn clip_bounds_of(m: &Member, bounds: &ModelBounds) -> (u32, u32) {
    let model = m.anim.model();
    let now = bound_index(bounds, model, m.anim.clip());
    let from = m
        .anim
        .fade_source()
        .map_or(now, |(clip, _)| bound_index(bounds, model, clip));
    (now, from)
}

/// What the choice between exact palettes and baked frames reads of a member, computed when
/// it changes: its bounds as a world-space sphere (xyz: centre, w: radius) and how far its
/// baked frames may put a vertex, in world units (infinite when a clip it shows has none:
/// it can only be exact).
#[derive(Clone, Copy, Debug, Default)]
struct Reach {
    sphere: Vec4,
    error: f32,
}

/// The crowd data a [`Reach`] is computed from.
struct ReachSource<'a> {
    model_bounds: &'a [ModelBounds],
    bounds: &'a [Bounds],
    spheres: &'a [Vec4],
    baked: &'a BakedLibrary,
}

impl ReachSource<'_> {
    fn of(&self, m: &Member) -> Reach {
        let mb = &self.model_bounds[m.model as usize];
        let (now, from) = clip_bounds_of(m, mb);
        let table = |b: u32| self.baked.entry((mb.base + b) as usize);
        let error = match (table(now), table(from)) {
            (Some(a), Some(b)) => a.error.max(b.error) * m.scale,
            _ => f32::INFINITY,
        };
        let sphere = if now == from {
            self.spheres[(mb.base + now) as usize]
        } else {
            // A cross-fade shows poses of both clips.
            let (lo, hi) = (
                &self.bounds[(mb.base + now) as usize],
                &self.bounds[(mb.base + from) as usize],
            );
            sphere_of(&Bounds {
                min: lo.min.min(hi.min),
                max: lo.max.max(hi.max),
            })
        };
        Reach {
            sphere: m
                .world
                .transform_point3(sphere.truncate())
                .extend(sphere.w * m.scale),
            error,
        }
    }
}

/// What decides between exact palettes and baked frames this frame.
struct Rule<'a> {
    reach: &'a [Reach],
    any_baked: bool,
    mode: AnimationMode,
    view: Option<AnimationView>,
}

impl Rule<'_> {
    /// Whether every instance is exact whatever it plays.
    fn all_exact(&self) -> bool {
        match self.mode {
            AnimationMode::Exact => true,
            AnimationMode::Baked => !self.any_baked,
            AnimationMode::Auto => !self.any_baked || self.view.is_none(),
        }
    }

    /// Fills `exact` for the members from `first` on.
    fn classify(&self, first: usize, exact: &mut [bool]) {
        for (r, x) in self.reach[first..].iter().zip(exact.iter_mut()) {
            *x = self.needs_exact(r);
        }
    }

    fn needs_exact(&self, r: &Reach) -> bool {
        if r.error.is_infinite() {
            // A clip without frames (not baked, or the bind pose) can only be exact.
            return true;
        }
        match (self.mode, &self.view) {
            (AnimationMode::Baked, _) => false,
            (_, Some(view)) => view.needs_exact(r.sphere.truncate(), r.sphere.w, r.error),
            (_, None) => true,
        }
    }
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
    model_bounds: &'a [ModelBounds],
    baked: &'a BakedLibrary,
}

impl Job<'_> {
    /// Splits the slot positions in halves, and the outputs at the matching record and
    /// palette base, until a part is at most `grain` positions; each part is evaluated by
    /// whichever worker picks it up, with that worker's scratch. No allocation:
    /// `rayon::join` keeps its jobs on the stack.
    fn evaluate(
        &self,
        entries: &[Entry],
        exact: &[bool],
        records: &mut [InstanceRecord],
        palettes: &mut [Mat3x4],
    ) {
        if entries.len() <= self.grain {
            let worker = rayon::current_thread_index().unwrap_or(0) % self.scratch.len();
            let mut scratch = self.scratch[worker]
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            self.evaluate_serial(entries, exact, records, palettes, &mut scratch);
            return;
        }
        let mid = (entries.len() / 2)
            .next_multiple_of(self.lanes)
            .min(entries.len());
        let split = (entries[mid].palette_base - entries[0].palette_base) as usize;
        let (entries_a, entries_b) = entries.split_at(mid);
        let (exact_a, exact_b) = exact.split_at(mid);
        let (records_a, records_b) = records.split_at_mut(mid);
        let (palettes_a, palettes_b) = palettes.split_at_mut(split);
        rayon::join(
            || self.evaluate(entries_a, exact_a, records_a, palettes_a),
            || self.evaluate(entries_b, exact_b, records_b, palettes_b),
        );
    }

    /// The record of the member at slot position `e`.
    fn record(&self, e: &Entry, exact: bool) -> InstanceRecord {
        let m = &self.members[e.member as usize];
        let mb = &self.model_bounds[m.model as usize];
        let (now, from) = clip_bounds_of(m, mb);
        let mut r = InstanceRecord {
            world: m.world,
            palette_base: e.palette_base,
            joints: m.joints,
            model_flags: m.model,
            bounds: now | from << 16,
            ..InstanceRecord::default()
        };
        if exact {
            return r;
        }
        // Baked: `Rule::needs_exact` only says no when both clips have frames.
        let frame = |b: u32, time: f32| {
            self.baked.entry((mb.base + b) as usize).map(|entry| {
                let (f, w) = entry.clip.frame_at(time);
                (entry.base + f * m.joints, w)
            })
        };
        if let Some((base, w)) = frame(now, m.anim.time()) {
            r.model_flags |= RECORD_BAKED;
            r.palette_base = base;
            r.frame_weight = w;
            if let (Some((_, from_time)), Some(weight)) =
                (m.anim.fade_source(), m.anim.fade_weight())
                && let Some((base, w)) = frame(from, from_time)
            {
                r.fade_base = base;
                r.fade_frame_weight = w;
                r.fade = 1.0 - weight;
            }
        }
        r
    }

    /// Writes the records of `entries` and, walking runs of exact positions in the same
    /// bucket, their palettes: batches of up to [`batch_lanes`] for a shared clip, one by one
    /// for instances in a cross-fade. Baked positions take no palette space.
    fn evaluate_serial(
        &self,
        entries: &[Entry],
        exact: &[bool],
        records: &mut [InstanceRecord],
        palettes: &mut [Mat3x4],
        scratch: &mut WorkerScratch,
    ) {
        let base = entries.first().map_or(0, |e| e.palette_base);
        for (k, ((e, &x), r)) in entries
            .iter()
            .zip(exact)
            .zip(records.iter_mut())
            .enumerate()
        {
            // Slot order visits a bucket's members in index order, but with gaps no hardware
            // prefetcher follows: without this, a crowd of 100,000 spends most of its record
            // writing waiting for members to arrive from memory.
            if let Some(ahead) = entries.get(k + PREFETCH_AHEAD) {
                prefetch(&self.members[ahead.member as usize]);
            }
            *r = self.record(e, x);
        }
        let mut rest = palettes;
        let mut at = 0;
        while at < entries.len() {
            if !exact[at] {
                at += 1;
                continue;
            }
            let first = &self.members[entries[at].member as usize];
            let joints = first.joints as usize;
            let batchable = first.anim.fade_weight().is_none()
                && first.anim.clip() < self.models[first.model as usize].clips().len();
            // The exact positions of the batch (baked ones between them take no palette
            // space, so their palettes are adjacent).
            let mut lanes_at = [at; MAX_LANES];
            let mut lanes = 1;
            let mut next = at + 1;
            if batchable {
                while lanes < self.lanes
                    && next < entries.len()
                    && self.members[entries[next].member as usize].bucket == first.bucket
                {
                    if exact[next] {
                        lanes_at[lanes] = next;
                        lanes += 1;
                    }
                    next += 1;
                }
            }
            let (out, tail) = rest.split_at_mut(joints * lanes);
            rest = tail;
            if batchable {
                let mut times = [first.anim.time(); MAX_LANES];
                for (t, &p) in times.iter_mut().zip(&lanes_at[..lanes]) {
                    *t = self.members[entries[p].member as usize].anim.time();
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
            at = next;
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
