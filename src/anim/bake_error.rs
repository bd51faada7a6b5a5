//! How far a baked clip strays from the exact clip: the worst distance, in model units,
//! between what the baked table draws and what exact sampling draws, over the frame times and
//! times between them. Between frames the baked palette is a blend of two matrices, not a
//! rotation, so errors are largest mid-interval and grow with the joint's angular speed.

use glam::Vec3;

use super::bake::BakedClip;
use super::error::AnimError;
use super::matrix::Mat3x4;
use super::model::SkinnedModel;
use super::pose::PoseScratch;
use super::skin_gpu::gpu_skin_position;

/// The worst distances between baked and exact, model units.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BakeError {
    /// Joint positions: each joint's palette applied to its bind position (its model-space
    /// position, the to-root translation). Joints whose offset cannot be inverted have no
    /// bind position and are left out.
    pub joint_position: f32,
    /// Skinned vertices: bind positions under the blend of their four palettes, as the GPU
    /// skins them.
    pub vertex: f32,
}

/// Measures `baked` against clip `clip` of `model` at every frame time and at `subsamples`
/// evenly spaced times inside each frame interval (`subsamples` 0: frame times only, which
/// measures nothing but rounding). The cost is frames x (subsamples + 1) evaluations and
/// vertex skinnings: a tool's measurement, not a per-frame one.
///
/// An error when `clip` is not a clip index of `model`, or when `baked` was not baked from a
/// clip of its joint count and duration.
pub fn bake_error(
    model: &SkinnedModel,
    clip: usize,
    baked: &BakedClip,
    subsamples: u32,
) -> Result<BakeError, AnimError> {
    let source = model.clips().get(clip).ok_or(AnimError::ClipIndex {
        index: clip,
        count: model.clips().len(),
    })?;
    let joints = model.joint_count();
    if baked.joints() as usize != joints || baked.duration() != source.duration() {
        return Err(AnimError::BakedMismatch {
            clip: source.name().to_string(),
            duration: source.duration(),
            joints,
            baked_duration: baked.duration(),
            baked_joints: baked.joints() as usize,
        });
    }
    // The offset takes bind-pose model space into the joint's own frame; its inverse takes the
    // joint's origin to the joint's bind position: the inverse's translation.
    let bind: Vec<Option<Vec3>> = model
        .skeleton()
        .offsets()
        .iter()
        .map(|o| o.inverse().map(|m| m.translation()))
        .collect();
    let mut measure = Measure {
        model,
        clip,
        baked,
        bind,
        scratch: PoseScratch::new(joints),
        exact: vec![Mat3x4::IDENTITY; joints],
        approx: vec![Mat3x4::IDENTITY; joints],
        worst: BakeError::default(),
    };
    let n = baked.frames() - 1;
    let parts = subsamples as f32 + 1.0;
    for k in 0..n {
        let (t0, t1) = (baked.time_of(k), baked.time_of(k + 1));
        for s in 0..=subsamples {
            measure.at(t0 + (t1 - t0) * (s as f32 / parts));
        }
    }
    measure.at(baked.time_of(n));
    Ok(measure.worst)
}

/// The buffers of one measurement and the worst seen so far.
struct Measure<'a> {
    model: &'a SkinnedModel,
    clip: usize,
    baked: &'a BakedClip,
    bind: Vec<Option<Vec3>>,
    scratch: PoseScratch,
    exact: Vec<Mat3x4>,
    approx: Vec<Mat3x4>,
    worst: BakeError,
}

impl Measure<'_> {
    fn at(&mut self, time: f32) {
        self.model
            .evaluate(self.clip, time, &mut self.scratch, &mut self.exact);
        self.baked.sample(time, &mut self.approx);
        let worst = &mut self.worst;
        for ((e, a), b) in self.exact.iter().zip(&self.approx).zip(&self.bind) {
            if let Some(b) = b {
                let d = e.transform_point3(*b).distance(a.transform_point3(*b));
                worst.joint_position = worst.joint_position.max(d);
            }
        }
        for v in &self.model.mesh().vertices {
            let d = gpu_skin_position(v, &self.exact).distance(gpu_skin_position(v, &self.approx));
            worst.vertex = worst.vertex.max(d);
        }
    }
}
