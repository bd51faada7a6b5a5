//! `SkinnedModelInstance`: one character playing clips of a shared model.

use std::collections::VecDeque;
use std::sync::Arc;

use super::error::AnimError;
use super::matrix::Mat3x4;
use super::model::SkinnedModel;
use super::pose::{PoseScratch, blend_poses, local_to_palette};

/// What happens when the current clip reaches its end and nothing is queued.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Playback {
    /// Wrap around to the other end of the clip.
    #[default]
    Loop,
    /// Stop at the end (or at 0 when playing backwards) and hold that pose.
    Clamp,
}

/// A clip waiting in an instance's queue.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QueuedClip {
    /// Clip index in the model.
    pub clip: usize,
    /// Cross-fade from the previous clip over this many seconds (0: cut).
    pub fade: f32,
}

/// The clip being faded out while the current one fades in.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Fade {
    from_clip: usize,
    from_time: f32,
    elapsed: f32,
    duration: f32,
}

/// One animated character: a shared model, the clip it plays, its clock and what comes next.
///
/// Time is in seconds on the clip's own timeline (0 to the clip's duration). `speed` scales
/// elapsed time; a negative speed plays backwards. When the clip ends, the next queued clip
/// starts (carrying over the time left in the step, so long runs do not drift); with nothing
/// queued, [`Playback`] decides. A clip change may cross-fade: the outgoing clip keeps playing
/// and its local transforms are blended into the incoming clip's (nlerp for rotations).
#[derive(Clone, Debug)]
pub struct SkinnedModelInstance {
    model: Arc<SkinnedModel>,
    clip: usize,
    time: f32,
    speed: f32,
    playback: Playback,
    queue: VecDeque<QueuedClip>,
    loop_queue: bool,
    fade: Option<Fade>,
}

impl SkinnedModelInstance {
    /// An instance playing clip 0 (if any) from time 0, looping at normal speed.
    pub fn new(model: Arc<SkinnedModel>) -> Self {
        Self {
            model,
            clip: 0,
            time: 0.0,
            speed: 1.0,
            playback: Playback::Loop,
            queue: VecDeque::new(),
            loop_queue: false,
            fade: None,
        }
    }

    /// An instance whose clock was kept elsewhere (the crowd's state on the GPU): playing
    /// `clip` at `time` at rate `speed`, and, with `fade`, cross-fading from clip `fade.0`
    /// (at its time `fade.1`) with `fade.2` of `fade.3` seconds gone. Nothing queued.
    pub fn restored(
        model: Arc<SkinnedModel>,
        clip: usize,
        time: f32,
        speed: f32,
        playback: Playback,
        fade: Option<(usize, f32, f32, f32)>,
    ) -> Result<Self, AnimError> {
        let mut inst = Self::new(model);
        inst.check_clip(clip)?;
        inst.clip = clip;
        inst.playback = playback;
        inst.set_speed(speed);
        inst.time = inst.settle(clip, time);
        if let Some((from_clip, from_time, elapsed, duration)) = fade {
            inst.check_clip(from_clip)?;
            inst.fade = (duration > 0.0).then_some(Fade {
                from_clip,
                from_time: inst.settle(from_clip, from_time),
                elapsed,
                duration,
            });
        }
        Ok(inst)
    }

    /// The shared model.
    pub fn model(&self) -> &Arc<SkinnedModel> {
        &self.model
    }

    /// Index of the clip playing.
    pub fn clip(&self) -> usize {
        self.clip
    }

    /// Name of the clip playing (empty for a model without clips).
    pub fn clip_name(&self) -> &str {
        self.model.clips().get(self.clip).map_or("", |c| c.name())
    }

    /// Position in the current clip, seconds.
    pub fn time(&self) -> f32 {
        self.time
    }

    /// Playback rate (1 is normal, negative plays backwards).
    pub fn speed(&self) -> f32 {
        self.speed
    }

    /// What happens at the end of a clip when nothing is queued.
    pub fn playback(&self) -> Playback {
        self.playback
    }

    /// Clips waiting to play.
    pub fn queue(&self) -> impl Iterator<Item = &QueuedClip> {
        self.queue.iter()
    }

    /// Weight of the incoming clip during a cross-fade (0 to 1), `None` when not fading.
    pub fn fade_weight(&self) -> Option<f32> {
        self.fade.map(|f| (f.elapsed / f.duration).clamp(0.0, 1.0))
    }

    /// The clip being faded from and its time, during a cross-fade.
    pub fn fade_source(&self) -> Option<(usize, f32)> {
        self.fade.map(|f| (f.from_clip, f.from_time))
    }

    /// Seconds of the cross-fade gone and its length, during one: what
    /// [`fade_weight`](Self::fade_weight) divides, for a copy of the clock kept elsewhere
    /// (the crowd's state on the GPU) that must end the fade in the same frame.
    pub fn fade_progress(&self) -> Option<(f32, f32)> {
        self.fade.map(|f| (f.elapsed, f.duration))
    }

    /// Switches to the clip named `name` at once (looked up by name here, by index from then
    /// on).
    pub fn set_clip_by_name(&mut self, name: &str) -> Result<(), AnimError> {
        let clip = self
            .model
            .unique_clip(name)?
            .ok_or_else(|| AnimError::UnknownClip(name.to_string()))?;
        self.play(clip, 0.0)
    }

    /// Starts `clip` from its beginning (its end when playing backwards), cross-fading from
    /// the current pose over `fade` seconds (0: cut).
    pub fn play(&mut self, clip: usize, fade: f32) -> Result<(), AnimError> {
        self.check_clip(clip)?;
        self.start_clip(clip, fade, 0.0);
        Ok(())
    }

    /// Sets the position in the current clip (wrapped or clamped to it by the playback mode).
    pub fn set_time(&mut self, time: f32) {
        self.time = self.settle(self.clip, time);
    }

    /// Sets the playback rate; negative plays backwards.
    pub fn set_speed(&mut self, speed: f32) {
        self.speed = if speed.is_finite() { speed } else { 0.0 };
    }

    /// Sets what happens at the end of a clip when nothing is queued.
    pub fn set_playback(&mut self, playback: Playback) {
        self.playback = playback;
    }

    /// Appends a clip to play after the current one (and after those already queued).
    pub fn enqueue(&mut self, clip: usize, fade: f32) -> Result<(), AnimError> {
        self.check_clip(clip)?;
        self.queue.push_back(QueuedClip {
            clip,
            fade: fade.max(0.0),
        });
        Ok(())
    }

    /// Forgets every queued clip.
    pub fn clear_queue(&mut self) {
        self.queue.clear();
    }

    /// With `true`, a clip that finishes goes to the back of the queue, so the queue plays
    /// forever in order.
    pub fn set_loop_queue(&mut self, looping: bool) {
        self.loop_queue = looping;
    }

    /// Advances the clocks by `dt` seconds of real time (scaled by the speed).
    pub fn advance(&mut self, dt: f32) {
        if !(dt.is_finite() && dt > 0.0) {
            return;
        }
        let step = dt * self.speed;
        if let Some(fade) = &mut self.fade {
            fade.elapsed += dt;
            if fade.elapsed >= fade.duration {
                self.fade = None;
            }
        }
        if let Some(fade) = self.fade {
            let from_time = self.settle(fade.from_clip, fade.from_time + step);
            if let Some(f) = &mut self.fade {
                f.from_time = from_time;
            }
        }
        let mut time = self.time + step;
        // Hand over to queued clips while the step runs past the end of the current one. Each
        // pass consumes a whole clip, so bound the passes for zero-length clips and huge steps.
        for _ in 0..64 {
            let duration = self.duration(self.clip);
            let overrun = if self.speed >= 0.0 {
                time - duration
            } else {
                -time
            };
            if self.queue.is_empty() || overrun < 0.0 {
                break;
            }
            let Some(next) = self.queue.pop_front() else {
                break;
            };
            if self.loop_queue {
                self.queue.push_back(QueuedClip {
                    clip: self.clip,
                    fade: next.fade,
                });
            }
            self.time = if self.speed >= 0.0 { duration } else { 0.0 };
            self.start_clip(next.clip, next.fade, overrun);
            time = self.time;
        }
        self.time = self.settle(self.clip, time);
    }

    /// Writes this instance's palette into the first joint-count entries of `out`: sample,
    /// blend (during a cross-fade), local-to-palette (the length rule of
    /// [`crate::anim::local_to_palette`]).
    ///
    /// # Panics
    ///
    /// If `out` is shorter than the model's joint count.
    pub fn evaluate(&self, scratch: &mut PoseScratch, out: &mut [Mat3x4]) {
        let model = &*self.model;
        let skeleton = model.skeleton();
        let n = model.joint_count();
        scratch.reserve(n);
        // The pose that goes into local-to-palette always ends in `scratch.locals`; during a
        // cross-fade the two clips are sampled beside it and blended into it.
        let target = match self.fade {
            Some(_) => &mut scratch.incoming[..n],
            None => &mut scratch.locals[..n],
        };
        match model.clips().get(self.clip) {
            Some(clip) => clip.sample(self.time, target),
            None => target.copy_from_slice(skeleton.bind_pose()),
        }
        if let Some(fade) = self.fade {
            let outgoing = &mut scratch.outgoing[..n];
            model.clips()[fade.from_clip].sample(fade.from_time, outgoing);
            let w = (fade.elapsed / fade.duration).clamp(0.0, 1.0);
            let (outgoing, incoming) = (&scratch.outgoing[..n], &scratch.incoming[..n]);
            blend_poses(skeleton, outgoing, incoming, w, &mut scratch.locals[..n]);
        }
        local_to_palette(skeleton, &scratch.locals, &mut scratch.to_root, out);
    }

    fn check_clip(&self, clip: usize) -> Result<(), AnimError> {
        if clip < self.model.clips().len() {
            Ok(())
        } else {
            Err(AnimError::ClipIndex {
                index: clip,
                count: self.model.clips().len(),
            })
        }
    }

    fn duration(&self, clip: usize) -> f32 {
        self.model.clips().get(clip).map_or(0.0, |c| c.duration())
    }

    /// Begins `clip`, `overrun` seconds past its start (in the playing direction), fading
    /// from the current clip at its current time when `fade > 0`.
    fn start_clip(&mut self, clip: usize, fade: f32, overrun: f32) {
        self.fade = (fade > 0.0 && !self.model.clips().is_empty()).then_some(Fade {
            from_clip: self.clip,
            from_time: self.time,
            elapsed: 0.0,
            duration: fade,
        });
        self.clip = clip;
        self.time = if self.speed >= 0.0 {
            overrun
        } else {
            self.duration(clip) - overrun
        };
    }

    /// Brings `time` into `[0, duration]` of `clip`: wrapped when looping, clamped otherwise.
    fn settle(&self, clip: usize, time: f32) -> f32 {
        let duration = self.duration(clip);
        if !(duration > 0.0) || !time.is_finite() {
            return 0.0;
        }
        match self.playback {
            Playback::Loop if !(0.0..duration).contains(&time) => time.rem_euclid(duration),
            Playback::Loop => time,
            Playback::Clamp => time.clamp(0.0, duration),
        }
    }
}
