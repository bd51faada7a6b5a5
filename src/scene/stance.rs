//! How fast the planted foot slides back under the body at each moment of a clip played in
//! place: the stance profile. [`stride_speed`](super::stride_speed) is its average; few clips
//! move the planted foot at one steady speed (a heel strikes, the body rolls over the foot,
//! the toe pushes off), so a character moved at a steady speed and played at one rate keeps
//! its foot planted only on average. Played at the rate `speed / profile(phase)` instead, the
//! planted foot keeps still at every moment it moves backwards in the clip.

use super::basis::{footprint, standing_basis};
use super::stride::{CONTACT, bind_positions, feet};
use crate::anim::{Mat3x4, PoseScratch, SkinnedModel};

/// The stance profile of one clip: its duration split into equal bins, and for each the
/// planted foot's backward speed (model units per second of clip at rate 1), or `None` where
/// no foot is planted (a swing's flight, a run's float) or the lowest foot skates forwards
/// (a landing foot in many clips), which no rate can keep still: there the clip hurries.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StanceProfile {
    duration: f32,
    speeds: Vec<Option<f32>>,
    /// Where the planted foot stands at each bin's start, in the standing frame (x across,
    /// z forward; model units), while one is on the ground.
    feet: Vec<Option<[f32; 2]>>,
    /// How far the body moves from the clip's start to each bin's start (model units), the
    /// planted foot's backward speed integrated (the stride speed where none is planted); one
    /// more entry than bins: the whole cycle.
    travel: Vec<f32>,
}

/// A [`StanceProfile`]'s tables ([`StanceProfile::tables`]).
#[derive(Clone, Copy, Debug)]
pub struct StanceTables<'a> {
    /// The clip's duration, seconds.
    pub duration: f32,
    /// Per bin, the planted foot's backward speed (model units per second at rate 1).
    pub speeds: &'a [Option<f32>],
    /// Per bin, where the planted foot stands (standing frame x, z; model units).
    pub feet: &'a [Option<[f32; 2]>],
    /// The travel at each bin's start, and the cycle's (one more entry than bins).
    pub travel: &'a [f32],
}

/// Bins per clip: fine enough that a step's stance spans tens of them.
const BINS: usize = 240;

impl StanceProfile {
    /// The profile of `clip` of `model` (empty for a clip out of range, without time or
    /// without feet).
    pub fn of(model: &SkinnedModel, clip: usize) -> Self {
        let Some(c) = model.clips().get(clip) else {
            return Self::default();
        };
        let duration = c.duration();
        let joints = model.joint_count();
        if joints == 0 || !(duration > 0.0) {
            return Self::default();
        }
        let basis = standing_basis(model);
        let height = footprint(model).1;
        let bind = bind_positions(model);
        let feet = feet(model, &basis, &bind, height);
        let mut scratch = PoseScratch::new(joints);
        let mut palette = vec![Mat3x4::IDENTITY; joints];
        // Each foot's position at the bins' edges (the last edge is the first again).
        let positions: Vec<Vec<Option<glam::Vec3>>> = (0..=BINS)
            .map(|k| {
                model.evaluate(
                    clip,
                    duration * k as f32 / BINS as f32,
                    &mut scratch,
                    &mut palette,
                );
                (0..joints)
                    .map(|j| {
                        feet[j]
                            .then(|| basis.transform_point3(palette[j].transform_point3(bind[j])))
                    })
                    .collect()
            })
            .collect();
        let ground = positions
            .iter()
            .flatten()
            .flatten()
            .map(|p| p.y)
            .fold(f32::INFINITY, f32::min);
        let on_ground = |y: f32| y <= ground + CONTACT * height;
        let dt = duration / BINS as f32;
        // Per bin, the lowest foot's backward speed while it stays on the ground (negative:
        // it skates forwards, as many clips' feet do as they land), or `None` in the air.
        let planted: Vec<Option<(f32, [f32; 2])>> = (0..BINS)
            .map(|k| {
                let (j, a) = positions[k]
                    .iter()
                    .enumerate()
                    .filter_map(|(j, p)| p.map(|p| (j, p)))
                    .min_by(|x, y| x.1.y.total_cmp(&y.1.y))?;
                let b = positions[k + 1][j]?;
                // Forward is +Z of the standing frame: a planted foot goes towards -Z.
                (on_ground(a.y) && on_ground(b.y)).then_some(((a.z - b.z) / dt, [a.x, a.z]))
            })
            .collect();
        let grounded: Vec<Option<f32>> = planted.iter().map(|p| p.map(|p| p.0)).collect();
        let feet = planted.iter().map(|p| p.map(|p| p.1)).collect();
        let speeds: Vec<Option<f32>> = grounded
            .iter()
            .map(|g| g.filter(|&back| back > 0.0))
            .collect();
        let stride = super::stride_speed(model, clip).max(0.0);
        let mut travel = Vec::with_capacity(BINS + 1);
        let mut sum = 0.0f32;
        travel.push(0.0);
        for g in &grounded {
            // A skating foot cannot be kept still by any rate: the clip hurries through it
            // (a third of the stride's travel per bin, so three times the steady rate), which
            // leaves the body less time to carry the skating foot along.
            sum += match g {
                Some(back) if *back > 0.0 => *back,
                Some(_) => stride / 3.0,
                None => stride,
            } * dt;
            travel.push(sum);
        }
        Self {
            duration,
            speeds,
            feet,
            travel,
        }
    }

    /// How far the body travels (model units) over the clip from its start to `time` (not
    /// wrapped: whole cycles count).
    fn travelled(&self, time: f32) -> f32 {
        let cycle = self.travel[self.travel.len() - 1];
        let bins = self.speeds.len();
        let cycles = (time / self.duration).floor();
        let within = (time - cycles * self.duration) / self.duration * bins as f32;
        let k = (within.floor() as usize).min(bins - 1);
        let f = within - k as f32;
        cycles * cycle + self.travel[k] + f * (self.travel[k + 1] - self.travel[k])
    }

    /// The clip time after `time` at which the body has travelled `distance` further (model
    /// units): the planted foot, sliding back by the same distance in the clip, stays where it
    /// was in the world, whatever the step. `None` for a profile that travels nowhere.
    pub fn time_after(&self, time: f32, distance: f32) -> Option<f32> {
        let cycle = *self.travel.last()?;
        if !(cycle > 0.0) || !time.is_finite() || !distance.is_finite() {
            return None;
        }
        let target = self.travelled(time) + distance.max(0.0);
        let cycles = (target / cycle).floor();
        let rest = target - cycles * cycle;
        // The bin whose travel holds `rest` (travel never decreases).
        let k = self
            .travel
            .partition_point(|&t| t <= rest)
            .clamp(1, self.speeds.len())
            - 1;
        let span = self.travel[k + 1] - self.travel[k];
        let f = if span > 0.0 {
            ((rest - self.travel[k]) / span).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let bins = self.speeds.len() as f32;
        Some(cycles * self.duration + (k as f32 + f) * self.duration / bins)
    }

    /// The planted foot's backward speed at `time` in the clip (wrapped to it), if a foot is
    /// planted and moving backwards then.
    pub fn at(&self, time: f32) -> Option<f32> {
        if self.speeds.is_empty() {
            return None;
        }
        let phase = (time / self.duration).rem_euclid(1.0);
        let k = ((phase * self.speeds.len() as f32) as usize).min(self.speeds.len() - 1);
        self.speeds[k]
    }

    /// Where the foot on the ground stands at `time` in the clip (wrapped to it), in the
    /// standing frame (x across, z forward; model units): the point a turning character
    /// pivots about. `None` while no foot is on the ground.
    pub fn planted_foot(&self, time: f32) -> Option<[f32; 2]> {
        if self.feet.is_empty() {
            return None;
        }
        let phase = (time / self.duration).rem_euclid(1.0);
        let k = ((phase * self.feet.len() as f32) as usize).min(self.feet.len() - 1);
        self.feet[k]
    }

    /// The profile's tables, for a copy elsewhere (the GPU's playback reads them as
    /// [`StanceProfile::at`], [`StanceProfile::planted_foot`] and
    /// [`StanceProfile::time_after`] do): the clip's duration, and per bin the planted foot's
    /// backward speed and where it stands, then the travel at each bin's start and the
    /// cycle's end (one more). `None` for a profile without bins.
    pub fn tables(&self) -> Option<StanceTables<'_>> {
        (!self.speeds.is_empty() && self.travel.len() == self.speeds.len() + 1).then_some(
            StanceTables {
                duration: self.duration,
                speeds: &self.speeds,
                feet: &self.feet,
                travel: &self.travel,
            },
        )
    }

    /// Whether the clip plants any foot at all.
    pub fn is_empty(&self) -> bool {
        self.speeds.iter().all(Option::is_none)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walk_duration(model: &SkinnedModel) -> f32 {
        model.clips()[model.resolve_clip("walk").expect("walk")].duration()
    }

    #[test]
    fn the_builtin_walk_plants_its_feet_for_most_of_its_cycle_around_its_stride() {
        let model = crate::asset::load_model(None).expect("builtin");
        let walk = model.resolve_clip("walk").expect("walk");
        let p = StanceProfile::of(&model, walk);
        let planted: Vec<f32> = p.speeds.iter().flatten().copied().collect();
        assert!(
            planted.len() > BINS / 2,
            "{} of {BINS} bins planted",
            planted.len()
        );
        let mean = planted.iter().sum::<f32>() / planted.len() as f32;
        let stride = super::super::stride_speed(&model, walk);
        assert!(
            (mean / stride - 1.0).abs() < 0.1,
            "mean {mean} against stride {stride}"
        );
        // The idle plants nothing that moves.
        let idle = StanceProfile::of(&model, model.resolve_clip("idle").expect("idle"));
        assert!(idle.speeds.iter().flatten().all(|&s| s < 0.05 * stride));
        assert_eq!(StanceProfile::of(&model, 99), StanceProfile::default());
        assert_eq!(StanceProfile::default().at(0.3), None);
        assert_eq!(StanceProfile::default().time_after(0.3, 1.0), None);
        // Travelling a whole cycle's distance comes back to the same phase, a cycle later;
        // no distance stays put; a short one moves on by distance over the local speed.
        let cycle = p.travel[BINS];
        let d = walk_duration(&model);
        let t = p.time_after(0.3, cycle).expect("time");
        assert!((t - (0.3 + d)).abs() < 1e-4, "{t}");
        assert!((p.time_after(0.3, 0.0).expect("time") - 0.3).abs() < 1e-5);
        let (k, back) = p
            .speeds
            .iter()
            .enumerate()
            .find_map(|(k, s)| s.map(|s| (k, s)))
            .expect("planted");
        let start = (k as f32 + 0.25) * d / BINS as f32;
        let small = back * 0.1 * d / BINS as f32;
        let t = p.time_after(start, small).expect("time");
        assert!(
            (t - start - 0.1 * d / BINS as f32).abs() < 1e-5,
            "{t} {start}"
        );
    }
}
