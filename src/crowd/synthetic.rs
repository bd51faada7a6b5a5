//! Generated models of any joint count, for benchmarks: a joint count that falls badly on
//! cache lines or pages shows up as a dip when a sweep walks the counts one by one, which the
//! few real models on hand cannot show.
//!
//! The skeleton is a chain or a binary tree of unit-length bones; two clips animate every
//! joint's rotation and translation (scale stays at bind, as in most exported clips): `even`,
//! 31 keys at 30 Hz over one second (keys found in O(1)), and `uneven`, the same number of keys
//! at irregular times (keys found by binary search).

use glam::{Quat, Vec3};

use crate::anim::{
    AnimError, AnimationClip, Channel, Joint, JointTrack, Mesh, Skeleton, SkinnedModel, Transform,
};

/// Keys per clip.
const KEYS: usize = 31;
/// Key rate of the evenly keyed clip, keys per second.
const RATE: f32 = 30.0;

/// How the generated joints hang together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SyntheticShape {
    /// Joint `j`'s parent is `j - 1`.
    Chain,
    /// Joint `j`'s parent is `(j - 1) / 2`.
    Tree,
}

/// A model of `joints` joints (at least one) shaped as `shape`, with the clips `even` and
/// `uneven` described in the module documentation, and no mesh.
pub fn synthetic_model(joints: usize, shape: SyntheticShape) -> Result<SkinnedModel, AnimError> {
    let joints = joints.max(1);
    let parent = |j: usize| match (j, shape) {
        (0, _) => None,
        (j, SyntheticShape::Chain) => Some(j - 1),
        (j, SyntheticShape::Tree) => Some((j - 1) / 2),
    };
    let bind = Transform::new(Vec3::Y, Quat::IDENTITY, Vec3::ONE);
    let skeleton = Skeleton::with_derived_offsets(
        (0..joints)
            .map(|j| Joint::new(format!("joint{j}"), parent(j), bind))
            .collect(),
    )?;
    let even: Vec<f32> = (0..KEYS).map(|k| k as f32 / RATE).collect();
    // Strictly increasing: each time moves by less than half a key interval.
    let uneven: Vec<f32> = (0..KEYS)
        .map(|k| (k as f32 + 0.35 * (k as f32 * 1.7).sin()).max(0.0) / RATE)
        .collect();
    let clip = |name: &str, times: &[f32]| {
        let tracks = (0..joints).map(|j| track(j, times)).collect();
        AnimationClip::new(name, tracks, &skeleton)
    };
    let clips = vec![clip("even", &even)?, clip("uneven", &uneven)?];
    let name = match shape {
        SyntheticShape::Chain => format!("synthetic-chain-{joints}"),
        SyntheticShape::Tree => format!("synthetic-tree-{joints}"),
    };
    SkinnedModel::new(name, "synthetic", skeleton, clips, Mesh::default())
}

/// Joint `j`'s keys: a swing about a per-joint axis and a small bob, out of phase between
/// joints so that no two joints share values.
fn track(j: usize, times: &[f32]) -> JointTrack {
    let phase = j as f32 * 0.4;
    let axis = Vec3::new((j as f32).sin(), (j as f32 * 0.7).cos(), 0.3).normalize();
    let angle = |t: f32| 0.5 * (std::f32::consts::TAU * t + phase).sin();
    JointTrack {
        translation: Some(Channel::linear(
            times.to_vec(),
            times
                .iter()
                .map(|&t| Vec3::new(0.0, 1.0 + 0.05 * angle(t), 0.0))
                .collect(),
        )),
        rotation: Some(Channel::linear(
            times.to_vec(),
            times
                .iter()
                .map(|&t| Quat::from_axis_angle(axis, angle(t)))
                .collect(),
        )),
        scale: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::{Mat3x4, PoseScratch};

    /// Every count and shape builds, and its palettes are finite and differ between joints.
    #[test]
    fn builds_every_count_with_distinct_finite_palettes() {
        for shape in [SyntheticShape::Chain, SyntheticShape::Tree] {
            for joints in [1, 2, 8, 24, 43, 128] {
                let model = synthetic_model(joints, shape).expect("model");
                assert_eq!(model.joint_count(), joints);
                let mut scratch = PoseScratch::new(joints);
                let mut out = vec![Mat3x4::IDENTITY; joints];
                for clip in 0..2 {
                    model.evaluate(clip, 0.37, &mut scratch, &mut out);
                    assert!(
                        out.iter()
                            .all(|m| m.to_array().iter().all(|v| v.is_finite()))
                    );
                    if joints > 1 {
                        assert_ne!(out[0], out[1]);
                    }
                }
            }
        }
    }
}
