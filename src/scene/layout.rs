//! A seeded crowd: N instances of one or several models on a square grid centred on the
//! origin, each with a little jitter of position and heading, its own clip, phase and speed,
//! and with [`Variety`] its own look and height.

use std::sync::Arc;

use glam::{Quat, Vec3A};

use super::basis::{bind_pose_bounds, footprint, standing_basis, transform_bounds};
use super::placement::{grid_shape, independent_time};
use super::rng::SplitMix64;
use super::variety::{Variety, model_looks};
use crate::anim::{Bounds, Mat3x4, SkinnedModel};
use crate::crowd::{Crowd, CrowdError, ModelId};

/// Slowest and fastest playback speed an instance is given.
const SPEEDS: std::ops::Range<f32> = 0.8..1.2;
/// Grid pitch used when no model has a footprint (no vertices at all).
const FALLBACK_CELL: f32 = 1.0;
/// Mixed into the seed for the variety's draws: their own stream, so turning variety on
/// changes no instance's place, clip or speed.
const VARIETY_STREAM: u64 = 0x5641_5249_4554_5900;

/// How to lay out a crowd; the same layout and models always give the same crowd.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CrowdLayout {
    /// Number of instances, all models together.
    pub instances: usize,
    /// Seed of the jitter, clip and speed choices.
    pub seed: u64,
    /// Grid pitch as a multiple of the widest model's footprint diameter (see
    /// [`footprint`]); 1 lets the circles touch.
    pub spacing: f32,
    /// How far an instance may wander from its cell's centre, as a fraction (0 to 1) of the
    /// free space between footprints: up to 1, neighbours never overlap.
    pub jitter: f32,
    /// Largest turn, in radians either way, away from facing +Z (towards a front camera).
    pub heading_jitter: f32,
    /// How tall the models stand.
    pub height: ModelHeight,
    /// Looks and heights varied per instance ([`Variety`]); `None`: every instance wears its
    /// model's own colours at its model's height.
    pub variety: Option<Variety>,
}

/// How tall a crowd's models stand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ModelHeight {
    /// As their files make them.
    Native,
    /// As their files make them, unless the tallest is more than [`MATCH_RATIO`] times the
    /// shortest: then each is scaled to the tallest's height (a crowd of a 79-unit fox and a
    /// 4.5-unit robot would otherwise show specks beside giants).
    Matched,
    /// Every model scaled to stand this tall (world units).
    Fixed(f32),
}

/// Heights further apart than this are matched by [`ModelHeight::Matched`].
pub const MATCH_RATIO: f32 = 2.0;

impl ModelHeight {
    /// The uniform scale of each model (of the given standing heights); 1 for a model with
    /// no height (no vertices, or flat).
    pub fn scales(self, heights: &[f32]) -> Vec<f32> {
        let target = match self {
            Self::Native => None,
            Self::Fixed(h) => Some(h),
            Self::Matched => {
                let positive = heights.iter().copied().filter(|&h| h > 0.0);
                let tallest = positive.clone().fold(0.0, f32::max);
                let shortest = positive.fold(f32::INFINITY, f32::min);
                (tallest > MATCH_RATIO * shortest).then_some(tallest)
            }
        };
        heights
            .iter()
            .map(|&h| match target {
                Some(t) if h > 0.0 && t.is_finite() && t > 0.0 => t / h,
                _ => 1.0,
            })
            .collect()
    }
}

/// One instance as a layout places it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlacedInstance {
    /// Index into the models the layout was given.
    pub model: usize,
    /// Model space to world: grid position, heading, then
    /// [`standing_basis`].
    pub world: Mat3x4,
    /// The clip to play (`None` when the model has no clips).
    pub clip: Option<usize>,
    /// Start time in the clip, seconds.
    pub time: f32,
    /// Playback speed.
    pub speed: f32,
    /// With [`CrowdLayout::variety`]: which of its model's looks ([`model_looks`]) it wears.
    pub look: Option<usize>,
    /// Its height as a fraction of its model's at the layout's scale (1 without
    /// [`CrowdLayout::variety`]): a taller character's stride is longer in proportion.
    pub height: f32,
}

impl CrowdLayout {
    /// `instances` instances from `seed`, a quarter footprint of room around each, half of it
    /// used by jitter, headings within about 20 degrees of +Z.
    pub fn new(instances: usize, seed: u64) -> Self {
        Self {
            instances,
            seed,
            spacing: 1.25,
            jitter: 0.5,
            heading_jitter: 0.35,
            height: ModelHeight::Matched,
            variety: None,
        }
    }

    /// The uniform scale this layout gives each of `models` ([`CrowdLayout::height`]).
    pub fn model_scales(&self, models: &[Arc<SkinnedModel>]) -> Vec<f32> {
        let heights: Vec<f32> = models.iter().map(|m| footprint(m).1).collect();
        self.height.scales(&heights)
    }

    /// The grid pitch for `models`: [`CrowdLayout::spacing`] times the widest footprint (as
    /// the models are scaled).
    pub fn cell_size(&self, models: &[Arc<SkinnedModel>]) -> f32 {
        self.cell_for(widest_radius(models, &self.model_scales(models)))
    }

    /// The grid pitch around footprints of `radius`.
    fn cell_for(&self, radius: f32) -> f32 {
        let diameter = 2.0 * radius;
        if diameter > 0.0 {
            diameter * self.spacing.max(0.0)
        } else {
            FALLBACK_CELL * self.spacing.max(0.0)
        }
    }

    /// Places the crowd: cell `i` (row by row, rows from -z to +z) holds model `i % k` of the
    /// `k` models, so several models interleave. Empty when `models` is.
    pub fn place(&self, models: &[Arc<SkinnedModel>]) -> Vec<PlacedInstance> {
        if models.is_empty() {
            return Vec::new();
        }
        // Footprints skin each mesh once: computed here, not per instance.
        let scales = self.model_scales(models);
        let radius = widest_radius(models, &scales);
        // Scaled about the origin after the basis has stood the model on it: feet stay at 0.
        let bases: Vec<Mat3x4> = models
            .iter()
            .zip(&scales)
            .map(|(m, &s)| {
                Mat3x4::from_trs(Vec3A::ZERO, Quat::IDENTITY, Vec3A::splat(s))
                    .mul(&standing_basis(m))
            })
            .collect();
        let cell = self.cell_for(radius);
        let free = (cell - 2.0 * radius).max(0.0);
        let wander = 0.5 * free * self.jitter.clamp(0.0, 1.0);
        let (columns, rows) = grid_shape(self.instances);
        // Offsets that centre the grid on the origin.
        let x0 = 0.5 * (columns - 1) as f32;
        let z0 = 0.5 * (rows - 1) as f32;
        let mut rng = SplitMix64::new(self.seed);
        let mut variety_rng = SplitMix64::new(self.seed ^ VARIETY_STREAM);
        (0..self.instances)
            .map(|i| {
                let index = i % models.len();
                let model = &models[index];
                // Always the same number of draws per instance, so one model's lack of clips
                // does not shift the choices of every instance after it.
                let (dx, dz) = (rng.signed() * wander, rng.signed() * wander);
                let heading = rng.signed() * self.heading_jitter;
                let clip_draw = rng.next_u64();
                let speed = SPEEDS.start + rng.unit() * (SPEEDS.end - SPEEDS.start);
                let at = Vec3A::new(
                    ((i % columns) as f32 - x0) * cell + dx,
                    0.0,
                    ((i / columns) as f32 - z0) * cell + dz,
                );
                // Taller or shorter about the feet, which the basis stood on the origin.
                let (look, height) = match self.variety {
                    Some(v) => {
                        let pick = variety_rng.next_u64();
                        let height = 1.0 + v.height_spread * variety_rng.signed();
                        let look = (v.looks_per_model > 0)
                            .then(|| (pick % v.looks_per_model as u64) as usize);
                        (look, height)
                    }
                    None => (None, 1.0),
                };
                let turn =
                    Mat3x4::from_trs(at, Quat::from_rotation_y(heading), Vec3A::splat(height));
                let clips = model.clips();
                let clip = (!clips.is_empty()).then(|| (clip_draw % clips.len() as u64) as usize);
                let duration = clip.map_or(0.0, |c| clips[c].duration());
                PlacedInstance {
                    model: index,
                    world: turn.mul(&bases[index]),
                    clip,
                    time: independent_time(i, duration),
                    speed,
                    look,
                    height,
                }
            })
            .collect()
    }

    /// Places the crowd (see [`CrowdLayout::place`]) and spawns it into `crowd`; `models` are
    /// ids of models already added to it. Returns the placements, in spawn order.
    pub fn spawn(
        &self,
        crowd: &mut Crowd,
        models: &[ModelId],
    ) -> Result<Vec<PlacedInstance>, CrowdError> {
        let arcs = models
            .iter()
            .map(|&id| {
                crowd
                    .models()
                    .get(id.0 as usize)
                    .cloned()
                    .ok_or(CrowdError::UnknownModel(id.0 as usize))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let placed = self.place(&arcs);
        let looks = self.add_looks(crowd, &arcs)?;
        for p in &placed {
            let index = crowd.spawn(models[p.model], p.world)?;
            if let Some(look) = p.look.and_then(|l| looks.get(p.model)?.get(l)) {
                crowd.set_look(index, *look)?;
            }
            let instance = crowd.instance_mut(index);
            if let Some(clip) = p.clip {
                instance.play(clip, 0.0)?;
            }
            instance.set_time(p.time);
            instance.set_speed(p.speed);
        }
        Ok(placed)
    }
}

impl CrowdLayout {
    /// With [`CrowdLayout::variety`]: adds each of `models`' looks to `crowd`, returning their
    /// ids per model (each model's looks from its own seed).
    fn add_looks(
        &self,
        crowd: &mut Crowd,
        models: &[Arc<SkinnedModel>],
    ) -> Result<Vec<Vec<crate::crowd::LookId>>, CrowdError> {
        let Some(variety) = self.variety else {
            return Ok(Vec::new());
        };
        models
            .iter()
            .enumerate()
            .map(|(k, model)| {
                let seed = (self.seed ^ VARIETY_STREAM).wrapping_add(k as u64 + 1);
                model_looks(model, seed, variety.looks_per_model)
                    .into_iter()
                    .map(|look| crowd.add_look(look))
                    .collect()
            })
            .collect()
    }
}

/// The widest footprint radius among `models`, each scaled by its entry of `scales`.
fn widest_radius(models: &[Arc<SkinnedModel>], scales: &[f32]) -> f32 {
    models
        .iter()
        .zip(scales)
        .map(|(m, s)| footprint(m).0 * s)
        .fold(0.0, f32::max)
}

/// The world box around every placed instance's bind pose (what a camera should frame; clips
/// move limbs a little beyond it). `None` when nothing placed has vertices.
pub fn crowd_bounds(placed: &[PlacedInstance], models: &[Arc<SkinnedModel>]) -> Option<Bounds> {
    // One skinning per model, then eight corners per instance.
    let local: Vec<Option<Bounds>> = models.iter().map(|m| bind_pose_bounds(m)).collect();
    let boxes = placed
        .iter()
        .filter_map(|p| Some(transform_bounds(local.get(p.model)?.as_ref()?, &p.world)));
    Bounds::of_points(boxes.flat_map(|b| [b.min, b.max]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asset::builtin;

    fn models() -> Vec<Arc<SkinnedModel>> {
        let a = builtin::model().expect("builtin");
        // The same character again, from another format: a second model.
        let b = SkinnedModel::new(
            "second",
            "m3d",
            a.skeleton().clone(),
            a.clips().to_vec(),
            a.mesh().clone(),
        )
        .expect("model");
        vec![Arc::new(a), Arc::new(b)]
    }

    #[test]
    fn reproducible_from_the_seed_and_seeds_differ() {
        let models = models();
        let layout = CrowdLayout::new(50, 42);
        assert_eq!(layout.place(&models), layout.place(&models));
        let other = CrowdLayout { seed: 43, ..layout };
        assert_ne!(layout.place(&models), other.place(&models));
    }

    #[test]
    fn variety_changes_looks_and_heights_and_nothing_else() {
        let models = models();
        let plain = CrowdLayout::new(200, 9);
        let varied = CrowdLayout {
            variety: Some(Variety::default()),
            ..plain
        };
        let (a, b) = (plain.place(&models), varied.place(&models));
        let spread = Variety::default().height_spread;
        let mut looks = std::collections::BTreeSet::new();
        let mut heights = (f32::INFINITY, 0.0f32);
        for (p, q) in a.iter().zip(&b) {
            assert_eq!(
                (p.model, p.clip, p.time, p.speed),
                (q.model, q.clip, q.time, q.speed)
            );
            let moved = p.world.translation().distance(q.world.translation());
            assert!(moved < 1e-6, "moved {moved}");
            assert_eq!(p.look, None);
            looks.insert(q.look.expect("a look with variety"));
            // The same heading, scaled about the feet by 1 +- spread.
            let h = crate::crowd::visibility::max_scale(&q.world)
                / crate::crowd::visibility::max_scale(&p.world);
            assert!((h - 1.0).abs() <= spread + 1e-5, "height {h}");
            heights = (heights.0.min(h), heights.1.max(h));
        }
        assert!(looks.len() > 40, "{} of 64 looks worn", looks.len());
        assert!(heights.1 - heights.0 > spread, "heights from {heights:?}");

        // Spawned, each instance wears its model's look; the models' looks differ.
        let mut crowd = Crowd::new(1).expect("crowd");
        let ids: Vec<ModelId> = models.iter().map(|m| crowd.add_model(m.clone())).collect();
        varied.spawn(&mut crowd, &ids).expect("spawn");
        assert_eq!(crowd.looks().len(), 1 + 2 * 64);
        for (i, q) in b.iter().enumerate() {
            let id = crowd.look_of(i).0 as usize;
            assert_eq!(id, 1 + q.model * 64 + q.look.expect("a look"));
        }
        assert_ne!(
            crowd.looks()[1],
            crowd.looks()[65],
            "each model's looks its own"
        );
    }

    #[test]
    fn two_models_interleave_on_the_ground() {
        let models = models();
        let placed = CrowdLayout::new(25, 1).place(&models);
        assert_eq!(placed.len(), 25);
        for (i, p) in placed.iter().enumerate() {
            assert_eq!(p.model, i % 2);
            // Stood on the ground: the built-in feet are at y = 0 up to skinning's rounding.
            assert!(p.world.translation().y.abs() < 1e-6, "{:?}", p.world);
            assert!(!crate::scene::mirrors(&p.world));
            assert!(SPEEDS.contains(&p.speed));
            let clip = p.clip.expect("builtin has clips");
            assert!((0.0..=models[p.model].clips()[clip].duration()).contains(&p.time));
        }
        let clips: std::collections::BTreeSet<_> = placed.iter().map(|p| p.clip).collect();
        assert!(clips.len() > 1, "clips vary: {clips:?}");
    }

    #[test]
    fn grid_is_centred_and_neighbours_do_not_overlap() {
        let models = models();
        let layout = CrowdLayout {
            jitter: 1.0,
            ..CrowdLayout::new(64, 9)
        };
        let placed = layout.place(&models);
        let centre: glam::Vec3 = placed
            .iter()
            .map(|p| p.world.translation())
            .sum::<glam::Vec3>()
            / placed.len() as f32;
        let cell = layout.cell_size(&models);
        assert!(centre.length() < 0.25 * cell, "centre {centre}");
        let radius = footprint(&models[0]).0;
        for (i, a) in placed.iter().enumerate() {
            for b in &placed[i + 1..] {
                let d = a.world.translation().distance(b.world.translation());
                assert!(d >= 2.0 * radius - 1e-4, "{d} < {}", 2.0 * radius);
            }
        }
        let bounds = crowd_bounds(&placed, &models).expect("bounds");
        assert!(bounds.max.x > 3.0 * cell && bounds.min.x < -3.0 * cell);
    }

    #[test]
    fn spawning_fills_the_crowd_as_placed() {
        let models = models();
        let mut crowd = Crowd::new(1).expect("crowd");
        let ids: Vec<_> = models.iter().map(|m| crowd.add_model(m.clone())).collect();
        let placed = CrowdLayout::new(7, 3)
            .spawn(&mut crowd, &ids)
            .expect("spawn");
        assert_eq!(crowd.len(), 7);
        for (i, p) in placed.iter().enumerate() {
            assert_eq!(crowd.world(i), &p.world);
            assert_eq!(Some(crowd.instance(i).clip()), p.clip);
            assert_eq!(crowd.instance(i).speed(), p.speed);
        }
        assert!(CrowdLayout::new(1, 0).place(&[]).is_empty());
    }
}
