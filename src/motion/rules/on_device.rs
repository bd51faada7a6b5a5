//! The crowd's motion as the GPU advances it: the same rules as [`CrowdMotion::advance`]
//! (clip changes on the schedule's turns, walkers along their route at their clips' speed,
//! clocks, loops and cross-fades), packed into tables a compute pass reads
//! (`shaders/crowd_state.comp`), so that a frame's CPU work does not grow with the crowd.
//!
//! Made once from a crowd and its motion ([`CrowdMotion::on_device`]): per instance what
//! stays ([`DeviceWalker`]: where the layout put it, its turn in the schedule's round, its
//! record's place) and what the GPU advances every frame ([`DeviceClock`]); per model and clip
//! what the rules read ([`DeviceModel`], [`DeviceClip`]). Each frame the CPU only hands out
//! the schedule's turns ([`CrowdMotion::advance_on_device`], a few numbers: [`DeviceStep`]).
//! Knows nothing of Vulkan; the renderer uploads the tables and runs the pass. The tables'
//! layouts are defined once for Rust and GLSL in `motion/device_layouts.rs`.
//!
//! What the device copy does not do: clip queues (an instance with clips queued is refused),
//! and exact palettes: every record it writes reads the baked frames, so every clip must be
//! baked. The CPU path ([`CrowdMotion::advance`], [`Crowd::update`]) stays the reference the
//! GPU's state is tested against.

use std::sync::Arc;

use super::route::Route;
use super::schedule::TurnOrder;
use super::stepper::{CLIP_FADE, CrowdMotion};
use crate::anim::{Mat3x4, Playback, SkinnedModel, SkinnedModelInstance};
use crate::crowd::{Crowd, RECORD_JOINTS_MASK, RECORD_LOOK_SHIFT, RECORD_MODEL_MASK};
use crate::motion::device_codes::{ROUTE_IN_PLACE, ROUTE_LANES, ROUTE_RINGS, WALKER_CLAMP};
use crate::motion::gpu_layouts::{
    DeviceClip, DeviceClock, DeviceModel, DeviceStep, DeviceWalker, NearInstance,
};

impl DeviceClock {
    /// The clip playing.
    pub fn clip(&self) -> usize {
        (self.clips & 0xffff) as usize
    }

    /// The clip faded from and the incoming clip's weight, during a fade.
    pub fn fade(&self) -> Option<(usize, f32)> {
        (self.fade_duration > 0.0).then(|| {
            (
                (self.clips >> 16) as usize,
                (self.fade_elapsed / self.fade_duration).clamp(0.0, 1.0),
            )
        })
    }
}

impl DeviceStep {
    /// A frame of `dt` seconds for a crowd of `count` whose clips change only when told
    /// ([`CrowdMotion::still`]): clocks advance, nobody walks or takes a turn.
    pub fn held(count: usize, dt: f32) -> Self {
        Self {
            dt,
            count: count as u32,
            route: ROUTE_IN_PLACE,
            near_within: f32::MAX,
            ..Self::default()
        }
    }
}

/// [`DeviceWalker::flags`] for `playback` and look `look`.
pub(super) fn walker_flags(playback: Playback, look: u32) -> u32 {
    let clamp = if playback == Playback::Clamp {
        WALKER_CLAMP
    } else {
        0
    };
    clamp | look << RECORD_LOOK_SHIFT
}

/// `inst`'s clock as the GPU keeps it, having walked `distance` at `stride` times its model's
/// speeds.
pub(super) fn clock_of(inst: &SkinnedModelInstance, distance: f32, stride: f32) -> DeviceClock {
    let (from, from_time) = inst.fade_source().unwrap_or((inst.clip(), 0.0));
    let (fade_elapsed, fade_duration) = inst.fade_progress().unwrap_or((0.0, 0.0));
    DeviceClock {
        clips: inst.clip() as u32 | (from as u32) << 16,
        time: inst.time(),
        from_time,
        fade_elapsed,
        fade_duration,
        speed: inst.speed(),
        distance,
        stride,
    }
}

/// `near`'s model instance after the frames of `steps` (those after the frame that listed
/// it, in order), by the CPU's own rules: the clip change a step's turn brings
/// ([`SkinnedModelInstance::play`] with the step's fade, unless a fade is under way), then
/// [`SkinnedModelInstance::advance`]. `None` when the clock names a clip `model` does not
/// have.
pub fn catch_up(
    near: &NearInstance,
    model: &Arc<SkinnedModel>,
    steps: &[DeviceStep],
) -> Option<SkinnedModelInstance> {
    let c = &near.clock;
    let playback = if near.flags & WALKER_CLAMP != 0 {
        Playback::Clamp
    } else {
        Playback::Loop
    };
    let fade = c
        .fade()
        .map(|(from, _)| (from, c.from_time, c.fade_elapsed, c.fade_duration));
    let mut inst =
        SkinnedModelInstance::restored(model.clone(), c.clip(), c.time, c.speed, playback, fade)
            .ok()?;
    let clips = model.clips().len();
    for step in steps {
        let n = step.count.max(1);
        let due = (near.turn % n + n - step.turn % n) % n < step.changes;
        if due && clips >= 2 && inst.fade_weight().is_none() {
            inst.play((inst.clip() + 1) % clips, step.fade).ok()?;
        }
        inst.advance(step.dt);
    }
    Some(inst)
}

/// The tables the GPU's copy of a crowd's motion starts from; see the module documentation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DeviceMotion {
    /// Per instance, by spawn index.
    pub walkers: Vec<DeviceWalker>,
    /// Per instance, by spawn index: the clocks as they stand.
    pub clocks: Vec<DeviceClock>,
    /// Per model.
    pub models: Vec<DeviceModel>,
    /// Per model clip, model after model.
    pub clips: Vec<DeviceClip>,
    /// Every clip's baked frames' times, clip after clip ([`BakedClip::time_of`]): the
    /// pass finds a time's frame and weight on them, as the CPU does.
    ///
    /// [`BakedClip::time_of`]: crate::anim::BakedClip::time_of
    pub frame_times: Vec<f32>,
}

/// Why a crowd's motion cannot move to the GPU.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotOnDevice(pub String);

impl std::fmt::Display for NotOnDevice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the crowd's state cannot move to the GPU: {}", self.0)
    }
}

impl std::error::Error for NotOnDevice {}

impl CrowdMotion {
    /// The tables the GPU advances `crowd` from, as it stands now (spawned, baked, clocks
    /// where they are). Refused for a crowd with a clip that is not baked, a model without
    /// clips, an instance with clips queued, a model of more than 65,535 clips or joints, or
    /// more models than a record can name.
    pub fn on_device(&self, crowd: &Crowd) -> Result<DeviceMotion, NotOnDevice> {
        let n = crowd.len();
        let refuse = |why: String| Err(NotOnDevice(why));
        if crowd.models().len() > RECORD_MODEL_MASK as usize + 1 {
            return refuse(format!("{} models", crowd.models().len()));
        }
        let mut models = Vec::with_capacity(crowd.models().len());
        let mut clips = Vec::new();
        let mut frame_times = Vec::new();
        // Records in slot order: each model's instances together, models in order (the
        // ranges the crowd's own slot order gives them), spawn order within a model.
        let mut per_model = vec![0u32; crowd.models().len()];
        for i in 0..n {
            per_model[crowd.model_of(i).0 as usize] += 1;
        }
        let mut first_slot = Vec::with_capacity(crowd.models().len());
        let mut slot = 0u32;
        for (m, model) in crowd.models().iter().enumerate() {
            let id = crate::crowd::ModelId(m as u32);
            if model.clips().len() > 0xffff || model.joint_count() > RECORD_JOINTS_MASK as usize {
                return refuse(format!(
                    "{}: {} clips and {} joints (65,535 at most)",
                    crate::text::printable(model.name()),
                    model.clips().len(),
                    model.joint_count()
                ));
            }
            if model.clips().is_empty() {
                // Its instances stand in the bind pose, which only the CPU path draws.
                return refuse(format!(
                    "{} has no clips",
                    crate::text::printable(model.name())
                ));
            }
            let bounds = crowd.bounds_range(id);
            models.push(DeviceModel {
                first_clip: clips.len() as u32,
                clips: model.clips().len() as u32,
                joints: model.joint_count() as u32,
                pad: 0,
            });
            for (c, clip) in model.clips().iter().enumerate() {
                // As the crowd numbers bounds: one per clip, or a single union for all.
                let bound = if bounds.len() == 1 { 0 } else { c as u32 };
                let Some(entry) = crowd.baked().entry(bounds.start + bound as usize) else {
                    return refuse(format!(
                        "{}'s clip {} is not baked",
                        crate::text::printable(model.name()),
                        crate::text::printable(clip.name())
                    ));
                };
                let b = crowd.bounds()[bounds.start + bound as usize];
                let times_base = frame_times.len() as u32;
                frame_times.extend((0..entry.clip.frames()).map(|k| entry.clip.time_of(k)));
                let centre = 0.5 * (b.min + b.max);
                clips.push(DeviceClip {
                    duration: clip.duration(),
                    walk_speed: self.walk_speed(m, c),
                    baked_base: entry.base,
                    baked_frames: entry.clip.frames(),
                    bound,
                    baked_error: entry.error,
                    times_base,
                    pad: 0,
                    sphere: centre.extend(0.5 * (b.max - b.min).length()).to_array(),
                });
            }
            first_slot.push(slot);
            slot += per_model[m];
        }
        let order = TurnOrder::new(n);
        let mut next_slot = first_slot;
        let mut walkers = Vec::with_capacity(n);
        let mut clocks = Vec::with_capacity(n);
        for i in 0..n {
            let inst = crowd.instance(i);
            if inst.queue().next().is_some() {
                return refuse(format!("instance {i} has clips queued"));
            }
            let model = crowd.model_of(i).0;
            let slot = &mut next_slot[model as usize];
            let (start, distance, stride) =
                self.walker_start(i).unwrap_or((*crowd.world(i), 0.0, 1.0));
            walkers.push(DeviceWalker {
                start,
                turn: order.map_or(0, |o| o.turn_of(i)),
                slot: *slot,
                model,
                flags: walker_flags(inst.playback(), crowd.look_of(i).0),
            });
            *slot += 1;
            clocks.push(clock_of(inst, distance, stride));
        }
        Ok(DeviceMotion {
            walkers,
            clocks,
            models,
            clips,
            frame_times,
        })
    }

    /// Moves the schedule on by a frame of `dt` seconds for a crowd of `n` whose state the
    /// GPU advances, and returns the frame's step for it: the CPU visits no instance. The
    /// clip-change counts then count turns given ([`ClipChangeCounts::changes`]); a turn the
    /// GPU skips because a fade is still under way is not seen here.
    ///
    /// [`ClipChangeCounts::changes`]: super::ClipChangeCounts::changes
    pub fn advance_on_device(&mut self, n: usize, dt: f32) -> DeviceStep {
        self.log.tick(dt);
        let (first, changes) = self.schedule.take(n, dt);
        self.log.turns(changes);
        let (route, route_a, route_b) = match self.walking.as_ref().map(|w| w.route()) {
            None => (ROUTE_IN_PLACE, 0.0, 0.0),
            Some(Route::Lanes { front, depth }) => (ROUTE_LANES, front, depth),
            Some(Route::Rings { min_radius }) => (ROUTE_RINGS, min_radius, 0.0),
        };
        DeviceStep {
            dt,
            count: n as u32,
            turn: if n == 0 { 0 } else { (first % n as u64) as u32 },
            changes: changes.min(n as u64) as u32,
            fade: CLIP_FADE,
            route,
            route_a,
            route_b,
            // The renderer decides (it knows the animation mode and its lists' room).
            near_capacity: 0,
            near_within: f32::MAX,
            pad: [0; 2],
        }
    }

    /// Model `model`'s clip `clip`'s walking speed (0 in place).
    fn walk_speed(&self, model: usize, clip: usize) -> f32 {
        self.walking
            .as_ref()
            .map_or(0.0, |w| w.clip_speed(model, clip))
    }

    /// Walker `i`'s start, distance walked and stride's scale (`None` in place).
    fn walker_start(&self, i: usize) -> Option<(Mat3x4, f32, f32)> {
        self.walking.as_ref().and_then(|w| w.walker(i))
    }
}

#[cfg(test)]
mod tests;
