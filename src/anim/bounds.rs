//! A proof, at model construction, that evaluating the model never overflows: finite keys can
//! still compound into infinite palettes (a scale of 1e20 on two nested joints) or skinned
//! positions (a translation of 3e38). Checked once here, so every loader inherits it.
//!
//! The bound, per joint, in the spectral norm (which rotations leave unchanged and which is
//! submultiplicative, so a deep chain of unit scales does not inflate it):
//!
//! - a local transform `T·R·S` has a linear part of norm at most `s`, the largest |scale
//!   component| over the bind pose and every key of every clip, and a translation of length
//!   at most `t`, the largest key (or bind) translation length. Linear keys stay in the hull
//!   of their two keys (and cross-fades between clips in the hull of both), rotations are
//!   unit quaternions; cubic-spline values are bounded by the larger key value plus
//!   `4/27 · Δt · (|out-tangent| + |in-tangent|)` (the Hermite basis' extremes);
//! - a to-root transform `P·L` then has linear norm at most `a_P · s` and translation length at
//!   most `a_P · t + b_P`;
//! - a palette entry `M · offset` is bounded by `a · |offset linear|_F` and
//!   `a · |offset translation| + b`, and a skinned position by the weighted sum of
//!   `linear · |position| + translation` over the vertex's joints.
//!
//! Every matrix entry is at most its matrix's spectral norm, so keeping every bound within
//! [`MAX_MAGNITUDE`] keeps every value the pipeline computes finite, at any time of any clip.

use glam::{Vec3, Vec4};

use super::clip::AnimationClip;
use super::error::AnimError;
use super::mesh::Mesh;
use super::skeleton::Skeleton;
use super::track::{Channel, Interpolation};

/// The largest magnitude a palette entry or a skinned coordinate may reach: far beyond any
/// real model (1e18 metres is a hundred light years), and far enough below `f32::MAX` (3.4e38)
/// that the products the renderer takes (instance placement, view, projection) stay finite.
pub const MAX_MAGNITUDE: f64 = 1e18;

/// Bounds of one joint's local transforms over every pose the model can take.
#[derive(Clone, Copy, Default)]
struct LocalBound {
    /// Largest |scale component|.
    scale: f64,
    /// Largest translation length.
    translation: f64,
}

/// Checks the model as the module documentation says; the error names the first joint (or
/// vertex) whose bound exceeds [`MAX_MAGNITUDE`].
pub(crate) fn check(
    skeleton: &Skeleton,
    clips: &[AnimationClip],
    mesh: &Mesh,
) -> Result<(), AnimError> {
    let palette = palette_bounds(skeleton, clips)?;
    for (i, v) in mesh.vertices.iter().enumerate() {
        let distance = length(Vec3::from(v.position));
        let mut reach = 0.0;
        for (&j, &w) in v.joints.iter().zip(&v.weights) {
            if w != 0.0 {
                // Joint indices were checked by the mesh's own validation.
                let (l, t) = palette.get(usize::from(j)).copied().unwrap_or((0.0, 0.0));
                reach += f64::from(w.abs()) * (l * distance + t);
            }
        }
        if !(reach <= MAX_MAGNITUDE) {
            return Err(AnimError::Mesh(format!(
                "vertex {i} can reach {reach:.1e} when skinned, more than the {MAX_MAGNITUDE:.0e} \
                 that keeps skinned positions finite"
            )));
        }
    }
    Ok(())
}

/// For each joint, bounds on the magnitude of its palette's linear entries and translation
/// entries over every pose of every clip; an error for the first joint whose bounds (or
/// whose to-root transform's) exceed [`MAX_MAGNITUDE`].
fn palette_bounds(
    skeleton: &Skeleton,
    clips: &[AnimationClip],
) -> Result<Vec<(f64, f64)>, AnimError> {
    let n = skeleton.len();
    let mut local: Vec<LocalBound> = skeleton
        .bind_pose()
        .iter()
        .map(|b| LocalBound {
            scale: f64::from(Vec3::from(b.scale).abs().max_element()),
            translation: length(Vec3::from(b.translation)),
        })
        .collect();
    for clip in clips {
        for (j, track) in clip.tracks().iter().enumerate().take(n) {
            let bound = &mut local[j];
            if let Some(c) = &track.translation {
                bound.translation = bound.translation.max(channel_bound(c, length));
            }
            if let Some(c) = &track.scale {
                bound.scale = bound
                    .scale
                    .max(channel_bound(c, |v| f64::from(v.abs().max_element())));
            }
            if let Some(c) = &track.rotation {
                // Rotations are normalized when sampled, but a cubic spline's raw value must
                // itself be finite for that.
                let raw = channel_bound(c, |q| Vec4::from(q).as_dvec4().length());
                if !(raw <= MAX_MAGNITUDE) {
                    return Err(overflow(skeleton, j, raw));
                }
            }
        }
    }
    // Parent before child: one pass.
    let mut linear = vec![0f64; n];
    let mut palette = vec![(0f64, 0f64); n];
    let mut to_root_translation = vec![0f64; n];
    for j in 0..n {
        let (parent_linear, parent_translation) = match skeleton.parent(j) {
            Some(p) => (linear[p], to_root_translation[p]),
            None => (1.0, 0.0),
        };
        linear[j] = parent_linear * local[j].scale;
        to_root_translation[j] = parent_linear * local[j].translation + parent_translation;
        let offset = &skeleton.offsets()[j];
        let rows = offset.to_array();
        let offset_linear = [0, 1, 2, 4, 5, 6, 8, 9, 10]
            .iter()
            .map(|&i| f64::from(rows[i]).powi(2))
            .sum::<f64>()
            .sqrt();
        let offset_translation = length(offset.translation());
        let p_linear = linear[j] * offset_linear;
        let p_translation = linear[j] * offset_translation + to_root_translation[j];
        let worst = linear[j]
            .max(to_root_translation[j])
            .max(p_linear)
            .max(p_translation);
        if !(worst <= MAX_MAGNITUDE) {
            return Err(overflow(skeleton, j, worst));
        }
        palette[j] = (p_linear, p_translation);
    }
    Ok(palette)
}

/// The length of `v`, computed in `f64` so that a finite `f32` vector has a finite length.
fn length(v: Vec3) -> f64 {
    v.as_dvec3().length()
}

fn overflow(skeleton: &Skeleton, joint: usize, reach: f64) -> AnimError {
    AnimError::Overflow {
        joint,
        name: skeleton.names().get(joint).cloned().unwrap_or_default(),
        reach,
        limit: MAX_MAGNITUDE,
    }
}

/// The largest `size` of any value the channel can produce between its keys.
fn channel_bound<T: Copy>(channel: &Channel<T>, size: impl Fn(T) -> f64) -> f64 {
    let size = |v: &T| size(*v);
    match channel.interpolation {
        Interpolation::Linear | Interpolation::Step => {
            channel.values.iter().map(size).fold(0.0, f64::max)
        }
        Interpolation::CubicSpline => {
            // values: (in-tangent, value, out-tangent) per key.
            let keys: Vec<&[T]> = channel.values.chunks_exact(3).collect();
            let mut bound = keys.iter().map(|k| size(&k[1])).fold(0.0, f64::max);
            for (i, pair) in keys.windows(2).enumerate() {
                let dt = match (channel.times.get(i), channel.times.get(i + 1)) {
                    (Some(&a), Some(&b)) => f64::from(b) - f64::from(a),
                    _ => 0.0,
                };
                let (v0, out0, in1, v1) = (
                    size(&pair[0][1]),
                    size(&pair[0][2]),
                    size(&pair[1][0]),
                    size(&pair[1][1]),
                );
                bound = bound.max(v0.max(v1) + 4.0 / 27.0 * dt.abs() * (out0 + in1));
            }
            bound
        }
    }
}

#[cfg(test)]
mod tests {
    use glam::Quat;

    use super::*;
    use crate::anim::pose::{PoseScratch, local_to_palette};
    use crate::anim::skeleton::Joint;
    use crate::anim::track::JointTrack;
    use crate::anim::transform::Transform;

    /// xorshift: reproducible without a dependency.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> f32 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 >> 40) as f32 / (1u64 << 24) as f32
        }

        fn range(&mut self, lo: f32, hi: f32) -> f32 {
            lo + (hi - lo) * self.next()
        }

        fn transform(&mut self) -> Transform {
            let axis = Vec3::new(self.range(-1.0, 1.0), self.range(-1.0, 1.0), 1.0).normalize();
            Transform::new(
                Vec3::new(
                    self.range(-3.0, 3.0),
                    self.range(-3.0, 3.0),
                    self.range(-3.0, 3.0),
                ),
                Quat::from_axis_angle(axis, self.range(-3.0, 3.0)),
                Vec3::new(
                    self.range(0.2, 2.5),
                    self.range(0.2, 2.5),
                    self.range(-2.5, 2.5),
                ),
            )
        }
    }

    /// The bound holds against evaluation itself: random hierarchies with non-uniform (and
    /// mirroring) scales, sampled between and at keys, never exceed it.
    #[test]
    fn sampled_palettes_stay_within_the_bound() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..40 {
            let n = 1 + (rng.next() * 12.0) as usize;
            let joints: Vec<Joint> = (0..n)
                .map(|j| {
                    let parent = (j > 0).then(|| (rng.next() * j as f32) as usize);
                    Joint::new(format!("j{j}"), parent, rng.transform())
                })
                .collect();
            let skeleton = Skeleton::with_derived_offsets(joints).expect("invertible binds");
            let tracks: Vec<JointTrack> = (0..n)
                .map(|_| {
                    let keys: Vec<Transform> = (0..4).map(|_| rng.transform()).collect();
                    JointTrack::from_keys(vec![0.0, 0.3, 0.7, 1.0], &keys)
                })
                .collect();
            let clip = AnimationClip::new("c", tracks, &skeleton).expect("valid clip");
            let bounds = palette_bounds(&skeleton, std::slice::from_ref(&clip)).expect("small");
            let mut scratch = PoseScratch::new(n);
            let mut to_root = vec![crate::anim::Mat3x4::IDENTITY; n + 1];
            let mut palette = vec![crate::anim::Mat3x4::IDENTITY; n];
            for step in 0..=50 {
                let t = step as f32 / 50.0;
                clip.sample(t, &mut scratch.locals[..n]);
                local_to_palette(&skeleton, &scratch.locals, &mut to_root, &mut palette);
                for (j, m) in palette.iter().enumerate() {
                    let (linear, translation) = bounds[j];
                    let a = m.to_array();
                    for (i, x) in a.iter().enumerate() {
                        let limit = if i % 4 == 3 { translation } else { linear };
                        assert!(
                            f64::from(x.abs()) <= limit * (1.0 + 1e-4) + 1e-5,
                            "joint {j} entry {i} = {x} beyond {limit} at {t}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn compounding_scales_are_refused_at_the_joint_that_overflows() {
        let joints = vec![
            Joint::new("a", None, Transform::IDENTITY),
            Joint::new("b", Some(0), Transform::IDENTITY),
        ];
        let skeleton = Skeleton::with_derived_offsets(joints).expect("identity binds");
        let big = Transform::new(Vec3::ZERO, Quat::IDENTITY, Vec3::splat(1e10));
        let track = || JointTrack::from_keys(vec![0.0], &[big]);
        let clip = AnimationClip::new("c", vec![track(), track()], &skeleton).expect("clip");
        let err = palette_bounds(&skeleton, &[clip]).expect_err("1e20");
        assert!(matches!(err, AnimError::Overflow { joint: 1, .. }), "{err}");
    }
}
