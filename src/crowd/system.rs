//! `Crowd`: many instances, possibly of several models, advanced and evaluated in parallel on
//! a rayon pool, writing palettes and instance records straight into a ring slot.
//!
//! Instances keep the index they were spawned with, but a slot lists them in *slot order*:
//! grouped by model (so each model's records are one contiguous range, ready for one instanced
//! draw per subset), and within a model by clip. Instances playing the same clip are evaluated
//! sixteen at a time with AVX-512, eight with AVX2 (four elsewhere), one per SIMD lane
//! ([`evaluate_batch`](crate::anim::evaluate_batch)); an instance in a cross-fade is evaluated
//! on its own. The order is rebuilt (a counting sort, no allocation) only when a clip or fade
//! state changed.
//!
//! `Crowd` ties the rooms together and holds what belongs to none of them alone: who is in the
//! crowd (`members`), slot order (`slot_order`), the models' clip bounds (`model_bounds`), the
//! baked frames (`baked`), what the choice between exact and baked reads of each member
//! (`reach`), the choice itself (`palette_choice`, within `exact_cap`), the worker threads
//! (`workers`), and the update and evaluation jobs (`advance`, `evaluate`).

use std::ops::Range;
use std::sync::Arc;

use super::advance::advance;
use super::baked::{BakeReport, BakeSettings, BakedFrames, BakedLibrary};
use super::error::CrowdError;
use super::evaluate::{Frame, write_slot};
use super::looks::{Look, LookId, LookTable};
use super::members::{Members, ModelId};
use super::model_bounds::BoundsTable;
use super::palette_choice::{AnimationCounts, AnimationMode, PaletteChoice};
use super::reach::{ReachSource, Reaches};
use super::region::RegionAllocator;
use super::ring::{PaletteRing, ReleaseWait, Slot};
use super::slot_order::{Placement, SlotOrder};
use super::visibility::AnimationView;
use super::workers::Workers;
use crate::anim::{Bounds, Mat3x4, PaletteStores, SkinnedModel, SkinnedModelInstance};

/// A set of animated instances evaluated in parallel; see the module documentation.
pub struct Crowd {
    members: Members,
    order: SlotOrder,
    workers: Workers,
    bounds: BoundsTable,
    baked: BakedFrames,
    /// Per member, what the choice between exact and baked reads, refreshed by `update` for
    /// every member, and for the members handed out by `instance_mut` or moved since.
    reach: Reaches,
    choice: PaletteChoice,
    /// What the application changed since the last [`Crowd::take_changes`], while a copy of
    /// the crowd's state kept elsewhere (the GPU's) needs to hear of it.
    changes: Vec<InstanceChange>,
    tracking: bool,
    looks: LookTable,
}

/// A change made to one instance through the crowd's API, for a copy of the crowd's state
/// kept elsewhere (the GPU's) to apply in turn ([`Crowd::set_change_tracking`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum InstanceChange {
    /// [`Crowd::set_world`]: it stands (or starts its walk) where it was put.
    Moved(usize),
    /// [`Crowd::play`]: it plays `clip`, cross-fading from where it is over `fade` seconds.
    Played {
        /// The instance.
        instance: usize,
        /// The clip.
        clip: usize,
        /// The cross-fade, seconds (0: a cut).
        fade: f32,
    },
    /// [`Crowd::instance_mut`]: its whole clock is the crowd's copy from now on (clip, time,
    /// speed, playback, fade).
    Replaced(usize),
    /// [`Crowd::set_look`]: it wears another look.
    Restyled(usize),
    /// [`Crowd::set_speed`]: it plays at another rate.
    Paced {
        /// The instance.
        instance: usize,
        /// The playback rate.
        speed: f32,
    },
    /// [`Crowd::spawn`]: a new instance at this index (the crowd's length before the call).
    Spawned(usize),
    /// [`Crowd::despawn`]: `instance` was removed and the instance at `last` took its index
    /// (`instance == last`: the last was removed).
    Despawned {
        /// The index removed.
        instance: usize,
        /// The crowd's last index before the call.
        last: usize,
    },
}

impl InstanceChange {
    /// The index of the instance changed, as it was when the change was made (for a despawn,
    /// the index removed).
    pub fn instance(&self) -> usize {
        match *self {
            Self::Moved(i) | Self::Replaced(i) | Self::Restyled(i) | Self::Spawned(i) => i,
            Self::Played { instance, .. }
            | Self::Paced { instance, .. }
            | Self::Despawned { instance, .. } => instance,
        }
    }
}

impl Crowd {
    /// An empty crowd evaluated by `threads` worker threads (0: one per core).
    pub fn new(threads: usize) -> Result<Self, CrowdError> {
        Ok(Self {
            members: Members::default(),
            order: SlotOrder::default(),
            workers: Workers::new(threads)?,
            bounds: BoundsTable::default(),
            baked: BakedFrames::default(),
            reach: Reaches::default(),
            choice: PaletteChoice::default(),
            changes: Vec::new(),
            tracking: false,
            looks: LookTable::default(),
        })
    }

    /// The most exact palette matrices one frame may hold (default: no limit). With
    /// [`AnimationMode::Auto`], when more instances need exact palettes than that, the
    /// farthest of those with baked frames read them instead; with
    /// [`AnimationMode::Exact`] nothing gives way, and writing the frame fails with the
    /// ring's error.
    pub fn set_max_exact_matrices(&mut self, max: usize) {
        self.choice.set_max_exact_matrices(max);
    }

    /// Worker threads evaluating this crowd.
    pub fn threads(&self) -> usize {
        self.workers.threads()
    }

    /// Frames with fewer than `joints` palette matrices are evaluated, and updates of fewer
    /// than `instances` instances run, on the calling thread instead of the pool (defaults:
    /// 32,768 each). 0 always uses the pool.
    pub fn set_serial_below(&mut self, joints: usize, instances: usize) {
        self.workers.set_serial_below(joints, instances);
    }

    /// How palettes are stored: `None` (the default) picks streaming stores for frames of
    /// palettes larger than the last-level cache and ordinary ones below; `Some` forces a kind
    /// (benchmarks compare them). The palettes' values are the same whatever the stores.
    pub fn set_palette_stores(&mut self, stores: Option<PaletteStores>) {
        self.workers.set_palette_stores(stores);
    }

    /// Adds a model instances can be spawned from.
    pub fn add_model(&mut self, model: Arc<SkinnedModel>) -> ModelId {
        self.workers.reserve(model.joint_count());
        self.bounds.add(&model);
        self.order.invalidate();
        self.members.add_model(model)
    }

    /// Every model's bounds, model after model: for model `m`, its clips' boxes (model space,
    /// each holding the mesh over the whole clip) then its bind pose's, from
    /// [`Crowd::bounds_range`]`(m).start`. [`InstanceRecord::bounds`] indexes them from there.
    ///
    /// [`InstanceRecord::bounds`]: super::InstanceRecord::bounds
    pub fn bounds(&self) -> &[Bounds] {
        self.bounds.boxes()
    }

    /// Where model `model`'s boxes are in [`Crowd::bounds`] (empty for an unknown model).
    pub fn bounds_range(&self, model: ModelId) -> Range<usize> {
        self.bounds.range(model.0 as usize)
    }

    /// Samples every clip of every model once at `settings.fps` into baked frames, within
    /// `settings.memory_limit` (a clip that does not fit is left out, and the report says so:
    /// its instances stay exact). Instances then read baked frames as the animation mode says.
    pub fn bake(&mut self, settings: BakeSettings) -> BakeReport {
        let bounds = &self.bounds;
        let slots = |m: usize| bounds.range(m).len();
        let report = self.baked.bake(self.members.models(), slots, settings);
        self.reach.invalidate_all();
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
        self.choice.set_mode(mode);
    }

    /// Where palettes come from.
    pub fn animation(&self) -> AnimationMode {
        self.choice.mode()
    }

    /// The camera of the next frame, which [`AnimationMode::Auto`] decides with (without
    /// one, every instance is exact).
    pub fn set_view(&mut self, view: Option<AnimationView>) {
        self.choice.set_view(view);
    }

    /// How the last frame's palettes were made.
    pub fn counts(&self) -> AnimationCounts {
        self.choice.counts()
    }

    /// The models added so far, indexed by [`ModelId`].
    pub fn models(&self) -> &[Arc<SkinnedModel>] {
        self.members.models()
    }

    /// Adds an instance of `model` placed at `world`, playing the model's first clip from 0,
    /// in the plain look. Returns its index: `len()` before the call, kept until a
    /// [`Crowd::despawn`] moves it. Allocates only while the crowd is larger than it ever was.
    pub fn spawn(&mut self, model: ModelId, world: Mat3x4) -> Result<usize, CrowdError> {
        let i = self.members.spawn(model, world)?;
        self.order.invalidate();
        let reach = reach_source(&self.bounds, &self.baked).of(&self.members.all()[i]);
        self.reach.push(reach);
        if self.tracking {
            self.changes.push(InstanceChange::Spawned(i));
        }
        Ok(i)
    }

    /// Removes instance `i`. The last instance takes its index (the crowd stays dense, so a
    /// frame still costs what is there): returns that instance's index before the call, `None`
    /// when `i` was the last. Allocates nothing; a later [`Crowd::spawn`] reuses the room.
    /// With the crowd's state on the GPU ([`Crowd::set_change_tracking`]) its copy does the
    /// same, in the order of the calls.
    pub fn despawn(&mut self, i: usize) -> Result<Option<usize>, CrowdError> {
        if i >= self.members.len() {
            return Err(CrowdError::UnknownInstance(i));
        }
        let last = self.members.len() - 1;
        if self.tracking {
            self.changes
                .push(InstanceChange::Despawned { instance: i, last });
        }
        self.members.swap_remove(i);
        self.reach.swap_remove(i);
        self.order.invalidate();
        Ok((i != last).then_some(last))
    }

    /// Number of instances.
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// Whether the crowd has no instances.
    pub fn is_empty(&self) -> bool {
        self.members.len() == 0
    }

    /// Palette matrices per frame (the sum of every instance's joint count).
    pub fn joint_count(&self) -> usize {
        self.members.joints()
    }

    /// The animation state of instance `i`.
    pub fn instance(&self, i: usize) -> &SkinnedModelInstance {
        &self.members.all()[i].anim
    }

    /// The animation state of instance `i`, to change its clip, time, speed or queue.
    ///
    /// While changes are tracked ([`Crowd::set_change_tracking`]: the crowd's state lives on
    /// the GPU), the instance's whole clock as this crowd holds it replaces the GPU's; to play
    /// a clip from where the instance is on the GPU, use [`Crowd::play`].
    pub fn instance_mut(&mut self, i: usize) -> &mut SkinnedModelInstance {
        // The caller may change the clip or start a fade: re-check buckets and the choice's
        // inputs before the next evaluation.
        self.order.invalidate();
        self.reach.touch(i);
        if self.tracking {
            self.changes.push(InstanceChange::Replaced(i));
        }
        self.members.anim_mut(i)
    }

    /// Instance `i` plays `clip` from its start, cross-fading from where it is over `fade`
    /// seconds ([`SkinnedModelInstance::play`]); with the crowd's state on the GPU, from where
    /// it is there.
    pub fn play(&mut self, i: usize, clip: usize, fade: f32) -> Result<(), CrowdError> {
        self.members.anim_mut(i).play(clip, fade)?;
        self.order.invalidate();
        self.reach.touch(i);
        if self.tracking {
            self.changes.push(InstanceChange::Played {
                instance: i,
                clip,
                fade,
            });
        }
        Ok(())
    }

    /// Instance `i` plays at `speed` times its clip's pace (negative: backwards), from where it
    /// is; with the crowd's state on the GPU, from where it is there (unlike
    /// [`Crowd::instance_mut`], which hands the GPU this crowd's whole clock).
    pub fn set_speed(&mut self, i: usize, speed: f32) {
        self.members.anim_mut(i).set_speed(speed);
        self.reach.touch(i);
        if self.tracking {
            self.changes
                .push(InstanceChange::Paced { instance: i, speed });
        }
    }

    /// Starts (`true`) or stops recording the changes made through [`Crowd::spawn`],
    /// [`Crowd::despawn`], [`Crowd::set_world`], [`Crowd::play`], [`Crowd::set_speed`],
    /// [`Crowd::set_look`] and [`Crowd::instance_mut`], for a copy of the crowd's state kept
    /// elsewhere; either way the changes recorded so far are forgotten.
    pub fn set_change_tracking(&mut self, on: bool) {
        self.tracking = on;
        self.changes.clear();
    }

    /// The changes recorded since the last call, in order (none unless tracked).
    pub fn take_changes(&mut self) -> std::vec::Drain<'_, InstanceChange> {
        self.changes.drain(..)
    }

    /// The model instance `i` was spawned from.
    pub fn model_of(&self, i: usize) -> ModelId {
        ModelId(self.members.all()[i].model)
    }

    /// Where instance `i` stands.
    pub fn world(&self, i: usize) -> &Mat3x4 {
        &self.members.all()[i].world
    }

    /// Moves instance `i`.
    pub fn set_world(&mut self, i: usize, world: Mat3x4) {
        self.members.set_world(i, world);
        self.reach.touch(i);
        if self.tracking {
            self.changes.push(InstanceChange::Moved(i));
        }
    }

    /// Adds a look instances can wear ([`Crowd::set_look`]); refused when a tint is not a
    /// finite, non-negative number or the crowd holds [`MAX_LOOKS`](super::MAX_LOOKS)
    /// already. A renderer uploads the crowd's looks when they change (waiting for the frames
    /// in flight): add them before the first frame rather than one per frame.
    pub fn add_look(&mut self, look: Look) -> Result<LookId, CrowdError> {
        self.looks.add(look)
    }

    /// Changes look `id` for every instance wearing it ([`LookId::PLAIN`] included: what every
    /// instance wears until told otherwise).
    pub fn replace_look(&mut self, id: LookId, look: Look) -> Result<(), CrowdError> {
        self.looks.replace(id, look)
    }

    /// Dresses instance `i` in look `id`.
    pub fn set_look(&mut self, i: usize, id: LookId) -> Result<(), CrowdError> {
        self.looks.check(id)?;
        self.members.set_look(i, id.0);
        if self.tracking {
            self.changes.push(InstanceChange::Restyled(i));
        }
        Ok(())
    }

    /// The look instance `i` wears.
    pub fn look_of(&self, i: usize) -> LookId {
        LookId(self.members.all()[i].look)
    }

    /// Every look, by id ([`LookId::PLAIN`] first).
    pub fn looks(&self) -> &[Look] {
        self.looks.all()
    }

    /// How many times the looks changed (added or replaced): a copy elsewhere holding another
    /// count is stale.
    pub fn looks_generation(&self) -> u64 {
        self.looks.generation()
    }

    /// Where instance `i`'s record and palette are written this frame.
    pub fn placement(&mut self, i: usize) -> Option<Placement> {
        self.choose_palettes();
        self.order.placement(i)
    }

    /// The range of records of each model in slot order (the `m`-th item is [`ModelId`]`(m)`'s):
    /// one instanced draw per model and subset covers exactly its range. Allocates nothing.
    pub fn model_ranges(&mut self) -> impl ExactSizeIterator<Item = Range<usize>> + '_ {
        self.order.refresh(&mut self.members);
        let (order, members) = (&self.order, &self.members);
        (0..members.models().len()).map(|m| order.model_range(members, ModelId(m as u32)))
    }

    /// The range of records of model `model` in slot order, without allocating (the renderer
    /// asks every frame); empty for a model with no instances or that was never added.
    pub fn model_range(&mut self, model: ModelId) -> Range<usize> {
        self.order.refresh(&mut self.members);
        self.order.model_range(&self.members, model)
    }

    /// Advances every instance's clocks, clip queue and cross-fade by `dt` seconds.
    pub fn update(&mut self, dt: f32) {
        let source = reach_source(&self.bounds, &self.baked);
        let changed = advance(
            &mut self.members,
            &mut self.reach,
            &source,
            &mut self.workers,
            dt,
        );
        if changed {
            self.order.invalidate();
        }
    }

    /// Decides, for every slot position, between an exact palette and baked frames, and
    /// places the exact palettes one after another in slot order. Returns the palette
    /// matrices the frame writes.
    fn choose_palettes(&mut self) -> usize {
        self.order.refresh(&mut self.members);
        let source = reach_source(&self.bounds, &self.baked);
        self.reach.refresh(self.members.all(), &source);
        self.choice.choose(
            &self.members,
            self.order.entries_mut(),
            self.reach.all(),
            self.baked.library().matrices() > 0,
            &mut self.workers,
        )
    }

    /// Evaluates every instance in parallel, writing records (all of them) and exact
    /// palettes in slot order, in place in `slot`. The output is bit-identical whatever the
    /// thread count: each instance is computed by the same code with the same inputs, and a
    /// batch lane does not depend on its neighbours.
    pub fn write_palettes(&mut self, slot: &mut Slot<'_>) -> Result<(), CrowdError> {
        self.choose_palettes();
        self.write_chosen(slot)
    }

    /// [`Crowd::write_palettes`] once [`Crowd::choose_palettes`] has decided the frame.
    fn write_chosen(&mut self, slot: &mut Slot<'_>) -> Result<(), CrowdError> {
        let counts = self.choice.counts();
        let frame = Frame {
            members: &self.members,
            entries: self.order.entries(),
            exact: self.choice.exact(),
            exact_count: counts.exact,
            palette_matrices: counts.palette_matrices,
            bounds: &self.bounds,
            baked: self.baked.library(),
        };
        write_slot(&frame, &mut self.workers, slot)
    }

    /// Writes the palettes of `instances`, instances this crowd does not hold (of its models:
    /// the near set of a crowd whose state lives on the GPU), one after another into `out`
    /// (each its model's joint count; `out` must hold their sum), on the crowd's worker
    /// threads when they are many. The values are [`SkinnedModelInstance::evaluate`]'s.
    ///
    /// # Panics
    ///
    /// If `out` is shorter than the instances' joint counts together.
    pub fn evaluate_detached(&mut self, instances: &[SkinnedModelInstance], out: &mut [Mat3x4]) {
        super::detached::evaluate_detached(&mut self.workers, instances, out);
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
        self.write_chosen(&mut slot)?;
        Ok(slot.index)
    }
}

/// What computes a member's reach, from the crowd's bounds and baked frames.
fn reach_source<'a>(bounds: &'a BoundsTable, baked: &'a BakedFrames) -> ReachSource<'a> {
    ReachSource {
        bounds,
        baked: baked.library(),
    }
}
