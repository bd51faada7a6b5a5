//! Per-model clip bounds: for every model, one model-space box per clip, holding its mesh over
//! the whole clip, then one for the bind pose; the sphere around each box; and which of them
//! an instance's record names (the clip it plays and the one it fades from). The renderer's
//! culling reads the boxes, the choice between exact and baked palettes the spheres.

use std::ops::Range;

use glam::{Vec3, Vec4};

use crate::anim::{Bounds, SkinnedModel, SkinnedModelInstance, bind_bounds, clip_bounds};

/// Samples per second of clip time at which clip bounds are computed (`anim::clip_bounds`
/// pads them for the motion between samples).
const BOUNDS_RATE: f32 = 60.0;
/// Bounds one model can have in an [`InstanceRecord`](super::InstanceRecord) (16 bits): a
/// model with more clips shares one bound, the union of them all, among every clip.
const MAX_BOUNDS_PER_MODEL: usize = 0xffff;

/// Per model: where its boxes are in the table.
#[derive(Clone, Debug)]
pub(crate) struct ModelBounds {
    /// Index of its first entry in the table.
    pub(crate) base: u32,
    /// Entries: one per clip, then the bind pose (or one, the union of all, for a model
    /// with more clips than a record can number).
    pub(crate) count: u32,
}

/// Every model's boxes and spheres, model after model; see the module documentation.
#[derive(Default)]
pub(crate) struct BoundsTable {
    /// Each model's place in `boxes`.
    models: Vec<ModelBounds>,
    /// Model-space boxes, model after model: each clip's over the whole clip, then the bind
    /// pose's. The renderer's culling reads them; records name them.
    boxes: Vec<Bounds>,
    /// The sphere around each box (xyz: centre, w: radius), for the choice between exact and
    /// baked palettes.
    spheres: Vec<Vec4>,
}

impl BoundsTable {
    /// Computes the boxes of `model`, the next model of the crowd.
    pub(crate) fn add(&mut self, model: &SkinnedModel) {
        let clips = model.clips().len();
        // A mesh with no vertices draws nothing: a point box keeps the rules total.
        let point = Bounds {
            min: Vec3::ZERO,
            max: Vec3::ZERO,
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
            let union = boxes.iter().fold(bind, |a, b| union(&a, b));
            boxes = vec![union];
        }
        self.models.push(ModelBounds {
            base: self.boxes.len() as u32,
            count: boxes.len() as u32,
        });
        self.spheres.extend(boxes.iter().map(sphere_of));
        self.boxes.extend(boxes);
    }

    /// Every box, model after model.
    pub(crate) fn boxes(&self) -> &[Bounds] {
        &self.boxes
    }

    /// Where model `model`'s boxes are in [`BoundsTable::boxes`] (empty for an unknown model).
    pub(crate) fn range(&self, model: usize) -> Range<usize> {
        self.models
            .get(model)
            .map_or(0..0, |b| b.base as usize..(b.base + b.count) as usize)
    }

    /// Where model `model`'s boxes are, for a model the table has.
    pub(crate) fn of_model(&self, model: u32) -> &ModelBounds {
        &self.models[model as usize]
    }

    /// The sphere (xyz: centre, w: radius) around the boxes `now` and `from` of the model
    /// whose bounds are `mb`: a cross-fade shows poses of both clips.
    pub(crate) fn sphere_around(&self, mb: &ModelBounds, now: u32, from: u32) -> Vec4 {
        if now == from {
            self.spheres[(mb.base + now) as usize]
        } else {
            sphere_of(&union(
                &self.boxes[(mb.base + now) as usize],
                &self.boxes[(mb.base + from) as usize],
            ))
        }
    }
}

/// The box holding `a` and `b`.
fn union(a: &Bounds, b: &Bounds) -> Bounds {
    Bounds {
        min: a.min.min(b.min),
        max: a.max.max(b.max),
    }
}

/// The sphere around `b` (xyz: centre, w: radius).
pub(crate) fn sphere_of(b: &Bounds) -> Vec4 {
    (0.5 * (b.min + b.max)).extend(0.5 * (b.max - b.min).length())
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
pub(crate) fn clip_bounds_of(anim: &SkinnedModelInstance, bounds: &ModelBounds) -> (u32, u32) {
    let model = anim.model();
    let now = bound_index(bounds, model, anim.clip());
    let from = anim
        .fade_source()
        .map_or(now, |(clip, _)| bound_index(bounds, model, clip));
    (now, from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crowd::test_models::stick;

    #[test]
    fn each_model_has_a_box_per_clip_then_the_bind_pose() {
        let mut table = BoundsTable::default();
        table.add(&stick(2));
        table.add(&stick(1));
        assert_eq!(table.range(0), 0..3);
        assert_eq!(table.range(1), 3..5);
        assert_eq!(table.range(2), 0..0, "a model never added");
        let boxes = table.boxes();
        // The bind pose: the stick standing at the origin (within rounding, which the boxes
        // are padded for).
        assert!(boxes[2].min.distance(Vec3::ZERO) < 1e-4, "{:?}", boxes[2]);
        assert!(boxes[2].max.distance(Vec3::Y) < 1e-4, "{:?}", boxes[2]);
        // Clip c walks c + 1 units along x.
        assert!(boxes[0].max.x >= 1.0 && boxes[1].max.x >= 2.0, "{boxes:?}");
        assert!(boxes[1].max.x > boxes[0].max.x);
        assert_eq!(
            boxes[3].max.x, boxes[0].max.x,
            "the same clip in another model"
        );
    }

    #[test]
    fn a_sphere_holds_its_box() {
        let b = Bounds {
            min: Vec3::new(-1.0, 0.0, 0.0),
            max: Vec3::new(3.0, 0.0, 0.0),
        };
        assert_eq!(sphere_of(&b), Vec4::new(1.0, 0.0, 0.0, 2.0));
    }

    #[test]
    fn a_fading_instance_names_both_clips_and_its_sphere_holds_both_boxes() {
        let model = stick(3);
        let mut table = BoundsTable::default();
        table.add(&model);
        let mb = table.of_model(0).clone();
        let mut anim = SkinnedModelInstance::new(model);
        anim.play(2, 0.0).expect("clip");
        assert_eq!(clip_bounds_of(&anim, &mb), (2, 2));
        assert_eq!(table.sphere_around(&mb, 2, 2), sphere_of(&table.boxes()[2]));
        anim.play(1, 0.5).expect("fade");
        assert_eq!(clip_bounds_of(&anim, &mb), (1, 2));
        let both = union(&table.boxes()[1], &table.boxes()[2]);
        assert_eq!(table.sphere_around(&mb, 1, 2), sphere_of(&both));
    }
}
