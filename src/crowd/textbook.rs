//! The textbook demo's way of computing palettes, kept as the baseline that benchmarks compare
//! against: every call looks the clip up by name, allocates its working arrays, finds keys by
//! linear search, and works with 4x4 matrices. Correct, and what throng's crowd path replaces.

use std::collections::HashMap;

use glam::{Mat4, Quat, Vec3};

use crate::anim::{Channel, Mat3x4, SkinnedModel};

/// One key of one bone, all properties at one time (the textbook's `Keyframe`).
#[derive(Clone, Copy, Debug)]
struct Keyframe {
    time: f32,
    translation: Vec3,
    scale: Vec3,
    rotation: Quat,
}

/// The textbook's `SkinnedData`: parents, offsets and clips by name.
#[derive(Clone, Debug)]
pub struct TextbookModel {
    parents: Vec<Option<usize>>,
    offsets: Vec<Mat4>,
    /// Per clip name, per bone, the keyframes.
    clips: HashMap<String, Vec<Vec<Keyframe>>>,
}

impl TextbookModel {
    /// Converts a model. Each bone's keyframes are taken at the union of its channels' key
    /// times (exact for sources that share one time list per bone, as `.m3d` does).
    pub fn from_model(model: &SkinnedModel) -> Self {
        let skeleton = model.skeleton();
        let clips = model
            .clips()
            .iter()
            .map(|clip| {
                let bones = clip
                    .tracks()
                    .iter()
                    .zip(skeleton.bind_pose())
                    .map(|(track, bind)| {
                        let mut times: Vec<f32> = [
                            track.translation.as_ref().map(|c| &c.times[..]),
                            track.rotation.as_ref().map(|c| &c.times[..]),
                            track.scale.as_ref().map(|c| &c.times[..]),
                        ]
                        .into_iter()
                        .flatten()
                        .flatten()
                        .copied()
                        .collect();
                        times.sort_by(f32::total_cmp);
                        times.dedup();
                        if times.is_empty() {
                            times.push(0.0);
                        }
                        times
                            .iter()
                            .map(|&t| Keyframe {
                                time: t,
                                translation: track
                                    .translation
                                    .as_ref()
                                    .map_or(bind.translation.into(), |c| key_at(c, t, Vec3::lerp)),
                                scale: track
                                    .scale
                                    .as_ref()
                                    .map_or(bind.scale.into(), |c| key_at(c, t, Vec3::lerp)),
                                rotation: track
                                    .rotation
                                    .as_ref()
                                    .map_or(bind.rotation, |c| key_at(c, t, Quat::slerp)),
                            })
                            .collect()
                    })
                    .collect();
                (clip.name().to_string(), bones)
            })
            .collect();
        Self {
            parents: skeleton.parents().collect(),
            offsets: skeleton.offsets().iter().map(|m| m.to_mat4()).collect(),
            clips,
        }
    }

    /// The textbook's `GetFinalTransforms`: the palette of clip `clip_name` at `time` as 4x4
    /// matrices, in a freshly allocated vector (`None` for an unknown clip).
    pub fn final_transforms(&self, clip_name: &str, time: f32) -> Option<Vec<Mat4>> {
        let bones = self.clips.get(clip_name)?;
        let to_parent: Vec<Mat4> = bones.iter().map(|keys| interpolate(keys, time)).collect();
        let mut to_root: Vec<Mat4> = Vec::with_capacity(to_parent.len());
        for (i, local) in to_parent.iter().enumerate() {
            let m = match self.parents[i] {
                Some(p) => to_root[p] * *local,
                None => *local,
            };
            to_root.push(m);
        }
        Some(
            to_root
                .iter()
                .zip(&self.offsets)
                .map(|(r, o)| *r * *o)
                .collect(),
        )
    }
}

impl TextbookModel {
    /// One frame of the demo for a crowd: `final_transforms` per instance (at `times[i]`),
    /// each result copied into `out` as 3x4 rows, one palette after another.
    pub fn write_palettes(&self, clip_name: &str, times: &[f32], out: &mut [Mat3x4]) {
        let joints = self.parents.len().max(1);
        for (t, o) in times.iter().zip(out.chunks_exact_mut(joints)) {
            if let Some(finals) = self.final_transforms(clip_name, *t) {
                for (dst, m) in o.iter_mut().zip(&finals) {
                    *dst = Mat3x4::from_mat4(m);
                }
            }
        }
    }
}

fn interpolate(keys: &[Keyframe], t: f32) -> Mat4 {
    let key =
        |k: &Keyframe| Mat4::from_scale_rotation_translation(k.scale, k.rotation, k.translation);
    let first = &keys[0];
    let last = &keys[keys.len() - 1];
    if t <= first.time {
        return key(first);
    }
    if t >= last.time {
        return key(last);
    }
    for pair in keys.windows(2) {
        if t >= pair[0].time && t <= pair[1].time {
            let f = (t - pair[0].time) / (pair[1].time - pair[0].time);
            return Mat4::from_scale_rotation_translation(
                pair[0].scale.lerp(pair[1].scale, f),
                pair[0].rotation.slerp(pair[1].rotation, f),
                pair[0].translation.lerp(pair[1].translation, f),
            );
        }
    }
    key(last)
}

/// One channel's value at `t`, by linear search and `mix` (used to build keyframes at the
/// union of a bone's key times).
fn key_at<T: Copy>(c: &Channel<T>, t: f32, mix: impl Fn(T, T, f32) -> T) -> T {
    let k = c.times.iter().rposition(|&x| x <= t).unwrap_or(0);
    let next = (k + 1).min(c.times.len() - 1);
    if next == k {
        return *c.key_value(k);
    }
    let f = ((t - c.times[k]) / (c.times[next] - c.times[k])).clamp(0.0, 1.0);
    mix(*c.key_value(k), *c.key_value(next), f)
}
