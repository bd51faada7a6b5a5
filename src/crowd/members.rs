//! Who is in the crowd: the models instances are spawned from, and the instances themselves
//! ([`Member`]: animation state, where it stands, its model, its bucket), in spawn order, each
//! keeping the index it was spawned with.
//!
//! A bucket groups the instances evaluated together: one per (model, clip), plus one per
//! model for instances evaluated alone (in a cross-fade, or of a model without clips). A
//! model's buckets follow those of the models added before it.

use std::ops::RangeInclusive;
use std::sync::Arc;

use super::error::CrowdError;
use super::record::MAX_MODELS;
use super::visibility::max_scale;
use crate::anim::{Mat3x4, SkinnedModel, SkinnedModelInstance};

/// Identifies a model added to a crowd.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ModelId(pub u32);

/// One member of the crowd.
#[derive(Clone, Debug)]
pub(crate) struct Member {
    pub(crate) anim: SkinnedModelInstance,
    pub(crate) world: Mat3x4,
    /// The largest stretch of `world` ([`max_scale`]), kept with it: the choice between exact
    /// and baked palettes needs it for every instance every frame.
    pub(crate) scale: f32,
    pub(crate) model: u32,
    pub(crate) joints: u32,
    /// The look it wears (an index into the crowd's looks).
    pub(crate) look: u32,
    /// Its bucket (see the module documentation).
    pub(crate) bucket: u32,
}

/// Where each model's buckets start: what tells a member's bucket from its state.
#[derive(Clone, Copy)]
pub(crate) struct Buckets<'a> {
    /// Bucket of each model's first clip; the model's "alone" bucket follows its clips.
    base: &'a [u32],
}

impl Buckets<'_> {
    /// The bucket of `anim`, an instance of model `model`.
    pub(crate) fn of(&self, anim: &SkinnedModelInstance, model: u32) -> u32 {
        let base = self.base[model as usize];
        let clips = anim.model().clips().len() as u32;
        if anim.fade_weight().is_some() || clips == 0 {
            base + clips
        } else {
            base + anim.clip() as u32
        }
    }
}

/// The crowd's models and instances; see the module documentation.
#[derive(Default)]
pub(crate) struct Members {
    models: Vec<Arc<SkinnedModel>>,
    /// Bucket of each model's first clip; the model's "alone" bucket follows its clips.
    bucket_base: Vec<u32>,
    list: Vec<Member>,
    /// Palette matrices of every member together.
    joints: usize,
}

impl Members {
    /// Adds a model instances can be spawned from.
    pub(crate) fn add_model(&mut self, model: Arc<SkinnedModel>) -> ModelId {
        self.bucket_base.push(self.bucket_count() as u32);
        self.models.push(model);
        ModelId(self.models.len() as u32 - 1)
    }

    /// The models added so far, indexed by [`ModelId`].
    pub(crate) fn models(&self) -> &[Arc<SkinnedModel>] {
        &self.models
    }

    /// Buckets of every model together.
    pub(crate) fn bucket_count(&self) -> usize {
        self.models.iter().map(|m| m.clips().len() + 1).sum()
    }

    /// The buckets of `model`, from its first clip's to its "alone" bucket; `None` for a model
    /// never added.
    pub(crate) fn buckets_of(&self, model: ModelId) -> Option<RangeInclusive<usize>> {
        let m = model.0 as usize;
        let first = *self.bucket_base.get(m)? as usize;
        Some(first..=first + self.models[m].clips().len())
    }

    /// Adds an instance of `model` placed at `world`, playing the model's first clip from 0.
    /// Returns its index (stable for the crowd's life).
    pub(crate) fn spawn(&mut self, model: ModelId, world: Mat3x4) -> Result<usize, CrowdError> {
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
        let bucket = self.buckets().of(&anim, model.0);
        self.list.push(Member {
            anim,
            world,
            scale: max_scale(&world),
            model: model.0,
            joints: joints as u32,
            look: 0,
            bucket,
        });
        self.joints = total;
        Ok(self.list.len() - 1)
    }

    /// Removes member `i`; the last member takes its index (`Vec::swap_remove`). The caller
    /// checked that `i` is a member.
    pub(crate) fn swap_remove(&mut self, i: usize) {
        let gone = self.list.swap_remove(i);
        self.joints -= gone.joints as usize;
    }

    /// Number of instances.
    pub(crate) fn len(&self) -> usize {
        self.list.len()
    }

    /// Palette matrices per frame were every instance exact (the sum of their joint counts).
    pub(crate) fn joints(&self) -> usize {
        self.joints
    }

    /// Every member, by index.
    pub(crate) fn all(&self) -> &[Member] {
        &self.list
    }

    /// The animation state of member `i`, to change.
    pub(crate) fn anim_mut(&mut self, i: usize) -> &mut SkinnedModelInstance {
        &mut self.list[i].anim
    }

    /// Moves member `i`.
    pub(crate) fn set_world(&mut self, i: usize, world: Mat3x4) {
        let m = &mut self.list[i];
        m.world = world;
        m.scale = max_scale(&world);
    }

    /// Dresses member `i` in look `look`.
    pub(crate) fn set_look(&mut self, i: usize, look: u32) {
        self.list[i].look = look;
    }

    /// Where each model's buckets start.
    pub(crate) fn buckets(&self) -> Buckets<'_> {
        Buckets {
            base: &self.bucket_base,
        }
    }

    /// Every member to change in place, with what tells their buckets.
    pub(crate) fn all_mut(&mut self) -> (Buckets<'_>, &mut [Member]) {
        (
            Buckets {
                base: &self.bucket_base,
            },
            &mut self.list,
        )
    }

    /// Sets every member's bucket from its clip and fade state, which the caller may have
    /// changed since.
    pub(crate) fn rebucket(&mut self) {
        let (buckets, list) = self.all_mut();
        for m in list {
            m.bucket = buckets.of(&m.anim, m.model);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crowd::test_models::stick;

    #[test]
    fn each_model_has_a_bucket_per_clip_then_one_for_instances_alone() {
        let mut members = Members::default();
        let two = members.add_model(stick(2));
        let three = members.add_model(stick(3));
        assert_eq!(members.bucket_count(), 3 + 4);
        assert_eq!(members.buckets_of(two), Some(0..=2));
        assert_eq!(members.buckets_of(three), Some(3..=6));
        assert_eq!(members.buckets_of(ModelId(2)), None);

        let a = members.spawn(three, Mat3x4::IDENTITY).expect("spawn");
        let b = members.spawn(two, Mat3x4::IDENTITY).expect("spawn");
        assert_eq!((a, b), (0, 1));
        assert_eq!(
            members.all()[a].bucket,
            3,
            "the first clip of the second model"
        );
        assert_eq!(members.joints(), 4);

        // A clip change moves it within its model's buckets; a fade to the "alone" bucket.
        members.anim_mut(a).play(2, 0.0).expect("clip");
        members.anim_mut(b).play(1, 0.5).expect("fade");
        members.rebucket();
        assert_eq!(members.all()[a].bucket, 5);
        assert_eq!(members.all()[b].bucket, 2);
    }

    #[test]
    fn spawning_an_unknown_model_is_an_error() {
        let mut members = Members::default();
        let err = members.spawn(ModelId(0), Mat3x4::IDENTITY);
        assert!(matches!(err, Err(CrowdError::UnknownModel(0))), "{err:?}");
        assert_eq!(members.len(), 0);
    }

    #[test]
    fn moving_a_member_keeps_its_scale_with_it() {
        let mut members = Members::default();
        let id = members.add_model(stick(1));
        let i = members.spawn(id, Mat3x4::IDENTITY).expect("spawn");
        assert_eq!(members.all()[i].scale, 1.0);
        let world = Mat3x4::from_trs(
            glam::Vec3A::X,
            glam::Quat::IDENTITY,
            glam::Vec3A::splat(3.0),
        );
        members.set_world(i, world);
        assert_eq!(members.all()[i].world, world);
        assert!((members.all()[i].scale - 3.0).abs() < 1e-6);
    }
}
