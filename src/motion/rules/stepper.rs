//! One frame of a placed crowd's motion: the clip changes that fall due, the walkers' steps
//! and every instance's clock, in that order (the walkers' speeds are read from the clips and
//! fades the changes just set, and the clocks advance last, as the palettes will show them).

use super::change_log::{ClipChangeCounts, ClipChangeLog};
use super::paths::WalkPaths;
use super::route::Route;
use super::schedule::ClipChangeSchedule;
use super::walking::Walking;
use crate::anim::AnimError;
use crate::crowd::Crowd;
use crate::scene::{CrowdLayout, ModelsInPlace, PlacedInstance};

/// Seconds between one instance's changes of clip, whatever the crowd's size.
pub const CLIP_CHANGE_INTERVAL: f32 = 4.0;
/// How long the cross-fade of a clip change lasts, seconds (well under the interval, so a
/// fade ends before the instance's next turn).
pub const CLIP_FADE: f32 = 0.3;

/// How a placed crowd moves: each instance cross-fades to its model's next clip every
/// [`CLIP_CHANGE_INTERVAL`] seconds, and walkers move along their [`WalkPaths`] at the pace
/// of the clips they play.
///
/// Made once for the crowd a layout spawned, then [`CrowdMotion::advance`] once a frame,
/// before the frame's palettes are written.
pub struct CrowdMotion {
    pub(super) schedule: ClipChangeSchedule,
    pub(super) log: ClipChangeLog,
    /// `None` when everyone treads in place.
    pub(super) walking: Option<Walking>,
}

impl CrowdMotion {
    /// The motion of the crowd `layout` spawned as `placed`, of `models` (in the order the
    /// layout was given them), along `paths`. `layout` should have been prepared for the
    /// paths ([`WalkPaths::prepare_layout`]) before it placed the crowd.
    pub fn new(
        paths: WalkPaths,
        layout: &CrowdLayout,
        models: &ModelsInPlace,
        placed: &[PlacedInstance],
    ) -> Self {
        let walking = paths
            .route(layout, &models.models, placed)
            .map(|route| Walking::new(models, &layout.model_scales(&models.models), placed, route));
        Self {
            schedule: ClipChangeSchedule::new(CLIP_CHANGE_INTERVAL),
            log: ClipChangeLog::new(placed.len()),
            walking,
        }
    }

    /// The motion of a crowd of `instances` that stand where they are put and change clips
    /// only when told (a playback places and paces them itself): what [`Self::on_device`]
    /// needs to move such a crowd's state to the GPU, whose steps are then
    /// [`DeviceStep::held`](crate::motion::DeviceStep::held).
    pub fn still(instances: usize) -> Self {
        Self {
            schedule: ClipChangeSchedule::new(CLIP_CHANGE_INTERVAL),
            log: ClipChangeLog::new(instances),
            walking: None,
        }
    }

    /// Moves `crowd` on by `dt` seconds: starts the clip changes that fall due, moves the
    /// walkers, then advances every instance's clock ([`Crowd::update`]). An error is a clip
    /// the crowd refused, which leaves this frame's walkers and clocks where they were.
    pub fn advance(&mut self, crowd: &mut Crowd, dt: f32) -> Result<(), AnimError> {
        self.change_clips(crowd, dt)?;
        if let Some(walking) = &mut self.walking {
            walking.advance(crowd, dt);
        }
        crowd.update(dt);
        Ok(())
    }

    /// The box (`lo`, `hi`) of every place the walkers can reach, given the box of where they
    /// were placed: the lanes' whole length, or the square around the widest ring. Unchanged
    /// in place.
    pub fn reach_of(&self, lo: glam::Vec3, hi: glam::Vec3) -> (glam::Vec3, glam::Vec3) {
        match self.walking.as_ref().map(|w| w.route()) {
            None => (lo, hi),
            Some(Route::Lanes { front, depth }) => (
                lo.with_z(lo.z.min(front)),
                hi.with_z(hi.z.max(front + depth)),
            ),
            Some(Route::Rings { .. }) => {
                let r = [lo.x, hi.x, lo.z, hi.z]
                    .into_iter()
                    .fold(0.0f32, |r, v| r.max(v.abs()))
                    * std::f32::consts::SQRT_2;
                (glam::Vec3::new(-r, lo.y, -r), glam::Vec3::new(r, hi.y, r))
            }
        }
    }

    /// What the clip-change schedule has done so far.
    pub fn clip_changes(&self) -> ClipChangeCounts {
        self.log.counts()
    }

    /// Cross-fades each instance whose turn comes in this frame to its model's next clip.
    fn change_clips(&mut self, crowd: &mut Crowd, dt: f32) -> Result<(), AnimError> {
        let log = &mut self.log;
        let mut failed = None;
        log.tick(dt);
        self.schedule.due(crowd.len(), dt, |i| {
            let clips = crowd.instance(i).model().clips().len();
            if clips < 2 {
                return;
            }
            // A fade still under way ends first (it is much shorter than the interval, so
            // this only happens after a stall).
            if crowd.instance(i).fade_weight().is_some() {
                log.deferred();
                return;
            }
            let inst = crowd.instance_mut(i);
            let next = (inst.clip() + 1) % clips;
            match inst.play(next, CLIP_FADE) {
                Ok(()) => log.changed(i),
                Err(e) => failed = Some(e),
            }
        });
        failed.map_or(Ok(()), Err)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::asset::builtin;

    /// A crowd of `n` built-in characters laid out for `paths`, its placements and its
    /// motion.
    fn walking_crowd(n: usize, paths: WalkPaths) -> (Crowd, Vec<PlacedInstance>, CrowdMotion) {
        let model = Arc::new(builtin::model().expect("builtin"));
        crate::motion::rules::spawn_walking(vec![model], n, 5, paths)
    }

    /// Instances standing somewhere other than where they were placed.
    fn moved(crowd: &Crowd, placed: &[PlacedInstance]) -> usize {
        (0..crowd.len())
            .filter(|&i| crowd.world(i) != &placed[i].world)
            .count()
    }

    #[test]
    fn every_instance_changes_clip_once_an_interval_and_walkers_leave_their_place() {
        let (mut crowd, placed, mut motion) = walking_crowd(16, WalkPaths::Lanes);
        let time_before = crowd.instance(0).time();
        let dt = 1.0 / 60.0;
        for _ in 0..(CLIP_CHANGE_INTERVAL / dt).round() as usize {
            motion.advance(&mut crowd, dt).expect("advance");
        }
        let counts = motion.clip_changes();
        // 16 changes owed over one interval; the balance may leave the last one owed.
        assert!((15..=16).contains(&counts.changes), "{counts:?}");
        assert_eq!(counts.deferred, 0);
        assert!((counts.seconds - f64::from(CLIP_CHANGE_INTERVAL)).abs() < 1e-3);
        assert!(moved(&crowd, &placed) > 0, "nobody walked");
        assert_ne!(
            crowd.instance(0).time(),
            time_before,
            "the clocks advance too"
        );
    }

    #[test]
    fn in_place_nobody_moves_but_clips_still_change() {
        let (mut crowd, placed, mut motion) = walking_crowd(16, WalkPaths::InPlace);
        for _ in 0..120 {
            motion.advance(&mut crowd, 1.0 / 60.0).expect("advance");
        }
        assert_eq!(moved(&crowd, &placed), 0);
        assert!(motion.clip_changes().changes > 0);
    }
}
