//! Animations to clips: one clip per glTF animation (unnamed ones are `clip{index}`), with
//! translation, rotation and scale channels of joints passed through the fold of the
//! non-joint nodes above them. Animated nodes above the joints are joints themselves (see
//! [`super::skin`]), so their channels are kept like any joint's. Samplers may be LINEAR,
//! STEP or CUBICSPLINE; key times are kept on the file's own timeline.

use glam::{Quat, Vec3};
use gltf::Document;
use gltf::accessor::{DataType, Dimensions};
use gltf::animation::{Interpolation as GltfInterpolation, Property};
use gltf::json::validation::Checked;

use crate::anim::{AnimationClip, Channel, Interpolation, JointTrack};
use crate::asset::budget::{self, cost};
use crate::asset::{ErrorKind, LoadError};

use super::accessor::{Components, Reader};
use super::context::Ctx;
use super::skin::Rig;

/// Translation and scale outputs.
const VEC3_FLOAT: (Dimensions, Components) = (Dimensions::Vec3, Components::Float);

/// Rotation outputs may be normalized integers (glTF 2.0, animation samplers).
const ROTATION_INTS: &[DataType] = &[DataType::I8, DataType::U8, DataType::I16, DataType::U16];

/// Converts every animation of `doc`.
pub(super) fn clips(
    ctx: &mut Ctx,
    doc: &Document,
    rig: &Rig,
    reader: &Reader,
) -> Result<Vec<AnimationClip>, LoadError> {
    // Every clip holds a track for every joint, animated or not: charged for all clips at
    // once, before the first is built, so thousands of empty animations over thousands of
    // joints are refused up front.
    let (count, joints) = (doc.animations().len(), rig.skeleton.len());
    let tracks = cost::clip(joints).saturating_mul(count as u64);
    ctx.charge_for("animations", tracks, || {
        format!("{count} clips x {joints} joints of tracks")
    })?;
    let mut clips = Vec::with_capacity(count);
    for animation in doc.animations() {
        let a = animation.index();
        let name = match animation.name() {
            Some(n) if !n.is_empty() => n.to_string(),
            _ => format!("clip{a}"),
        };
        let mut tracks = vec![JointTrack::default(); rig.skeleton.len()];
        for channel in animation.channels() {
            let section = format!("animations[{a}].channels[{}]", channel.index());
            let (node, property) = checked_target(ctx, doc, &section, a, channel.index())?;
            if property == Property::MorphTargetWeights {
                ctx.warn_once(
                    "weights",
                    format!("{section}: morph target weights are not supported; such channels are ignored"),
                );
                continue;
            }
            let Some(joint) = rig.node_joint[node] else {
                ctx.warn_once(
                    "non-joint channel",
                    format!(
                        "{section}: animates nodes[{node}], which is not a joint nor above one; \
                         channels of such nodes are ignored"
                    ),
                );
                continue;
            };
            let sampler = channel.sampler();
            let interpolation = match sampler.interpolation() {
                GltfInterpolation::Linear => Interpolation::Linear,
                GltfInterpolation::Step => Interpolation::Step,
                GltfInterpolation::CubicSpline => Interpolation::CubicSpline,
            };
            let per_key = if interpolation == Interpolation::CubicSpline {
                3
            } else {
                1
            };
            let input = sampler.input();
            let keys = input.count().saturating_mul(per_key);
            ctx.charge_for(&section, budget::times(keys, cost::KEY), || {
                format!("{keys} keys of a channel")
            })?;
            let times = reader.scalar(ctx, &input, &format!("input of {section}"))?;
            let output = sampler.output();
            let usage = format!("output of {section}");
            let fold = &rig.fold[joint];
            let track = &mut tracks[joint];
            let replaced = match property {
                Property::Translation => {
                    let v = reader.elements(ctx, &output, &usage, VEC3_FLOAT, Vec3::from_slice)?;
                    let v = fold_vec3(&v, per_key, |p| fold.point(p), |d| fold.vector(d));
                    let c = channel_of(ctx, &section, times, v, interpolation)?;
                    track.translation.replace(c).is_some()
                }
                Property::Rotation => {
                    let v = reader.elements(
                        ctx,
                        &output,
                        &usage,
                        (
                            Dimensions::Vec4,
                            Components::FloatOrNormalized(ROTATION_INTS),
                        ),
                        Quat::from_slice,
                    )?;
                    let v: Vec<Quat> = v.into_iter().map(|q| fold.rotation(q)).collect();
                    let c = channel_of(ctx, &section, times, v, interpolation)?;
                    track.rotation.replace(c).is_some()
                }
                Property::Scale => {
                    let v = reader.elements(ctx, &output, &usage, VEC3_FLOAT, Vec3::from_slice)?;
                    let v: Vec<Vec3> = v.into_iter().map(|s| fold.scale(s)).collect();
                    let c = channel_of(ctx, &section, times, v, interpolation)?;
                    track.scale.replace(c).is_some()
                }
                Property::MorphTargetWeights => false,
            };
            if replaced {
                ctx.warn_once(
                    "duplicate channel",
                    format!("{section}: a second channel for the same joint and property; the later one is used"),
                );
            }
        }
        let clip = AnimationClip::new(name, tracks, &rig.skeleton)
            .map_err(|e| LoadError::from_anim(ctx.file.clone(), &format!("animations[{a}]"), e))?;
        clips.push(clip);
    }
    Ok(clips)
}

/// The target node and property of a channel, read from the JSON: the `gltf` crate's
/// validation does not check channel targets, and its accessors unwrap them.
fn checked_target(
    ctx: &Ctx,
    doc: &Document,
    section: &str,
    animation: usize,
    channel: usize,
) -> Result<(usize, Property), LoadError> {
    let json = doc
        .as_json()
        .animations
        .get(animation)
        .and_then(|a| a.channels.get(channel))
        .ok_or_else(|| ctx.error(ErrorKind::IndexOutOfRange, section, "does not exist"))?;
    let node = json.target.node.value();
    if node >= doc.nodes().len() {
        return Err(ctx.error(
            ErrorKind::IndexOutOfRange,
            section,
            format!(
                "target node {node} does not exist ({} nodes)",
                doc.nodes().len()
            ),
        ));
    }
    match json.target.path {
        Checked::Valid(property) => Ok((node, property)),
        Checked::Invalid => Err(ctx.error(
            ErrorKind::Invalid,
            section,
            "target path is not translation, rotation, scale or weights",
        )),
    }
}

/// Translation values and cubic-spline tangents transform differently (tangents are
/// directions), so the triple layout decides which map applies.
fn fold_vec3(
    v: &[Vec3],
    per_key: usize,
    point: impl Fn(Vec3) -> Vec3,
    vector: impl Fn(Vec3) -> Vec3,
) -> Vec<Vec3> {
    v.iter()
        .enumerate()
        .map(|(i, &x)| {
            if per_key == 3 && i % 3 != 1 {
                vector(x)
            } else {
                point(x)
            }
        })
        .collect()
}

/// Key values whose finiteness a channel checks (named by key, in the file's terms, rather
/// than later by the animation core in its own).
trait Finite {
    fn finite(&self) -> bool;
}

impl Finite for Vec3 {
    fn finite(&self) -> bool {
        self.is_finite()
    }
}

impl Finite for Quat {
    fn finite(&self) -> bool {
        self.is_finite()
    }
}

/// A channel from raw times and values: checks counts and times. Keys that repeat the
/// previous key's time (some exporters write them at clip boundaries) are dropped, keeping
/// the later one, with a warning; times that go backwards or are negative are errors.
fn channel_of<T: Copy + Finite>(
    ctx: &mut Ctx,
    section: &str,
    times: Vec<f32>,
    values: Vec<T>,
    interpolation: Interpolation,
) -> Result<Channel<T>, LoadError> {
    let per_key = if interpolation == Interpolation::CubicSpline {
        3
    } else {
        1
    };
    if times.is_empty() {
        return Err(ctx.error(ErrorKind::Invalid, section, "sampler input has no keys"));
    }
    if values.len() != times.len() * per_key {
        return Err(ctx.error(
            ErrorKind::CountMismatch,
            section,
            format!(
                "sampler has {} output values for {} key times (expected {})",
                values.len(),
                times.len(),
                times.len() * per_key
            ),
        ));
    }
    let mut keep_times: Vec<f32> = Vec::with_capacity(times.len());
    let mut keep_values: Vec<T> = Vec::with_capacity(values.len());
    let mut dropped = 0usize;
    for (k, &t) in times.iter().enumerate() {
        let record = format!("key {k}");
        if !t.is_finite() {
            return Err(ctx
                .error(ErrorKind::NonFinite, section, "key time is not finite")
                .at_record(record));
        }
        if t < 0.0 {
            return Err(ctx
                .error(
                    ErrorKind::Invalid,
                    section,
                    format!("key time {t} is negative"),
                )
                .at_record(record));
        }
        let key = &values[k * per_key..(k + 1) * per_key];
        // Named by the key's index in the file, before duplicates are dropped.
        for (slot, v) in key.iter().enumerate() {
            if !v.finite() {
                let what = match (per_key, slot) {
                    (3, 0) => " in-tangent",
                    (3, 2) => " out-tangent",
                    _ => "",
                };
                return Err(ctx
                    .error(
                        ErrorKind::NonFinite,
                        section,
                        format!("{record}{what} is not finite"),
                    )
                    .at_record(record));
            }
        }
        match keep_times.last() {
            Some(&prev) if t < prev => {
                return Err(ctx
                    .error(
                        ErrorKind::Invalid,
                        section,
                        format!("key time {t} comes before the previous key's {prev}: times must increase"),
                    )
                    .at_record(record));
            }
            Some(&prev) if t == prev => {
                let at = keep_values.len() - per_key;
                keep_values[at..].copy_from_slice(key);
                dropped += 1;
            }
            _ => {
                keep_times.push(t);
                keep_values.extend_from_slice(key);
            }
        }
    }
    if dropped > 0 {
        ctx.warn_once(
            "duplicate key times",
            format!("{section}: {dropped} key(s) repeat the previous key's time; the later key of each pair is kept"),
        );
    }
    Ok(Channel {
        times: keep_times,
        values: keep_values,
        interpolation,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Integers stand for key values where only their order matters.
    impl Finite for i32 {
        fn finite(&self) -> bool {
            true
        }
    }

    #[test]
    fn repeated_times_keep_the_later_key() {
        let mut ctx = Ctx::new("t.gltf", 0);
        let c = channel_of(
            &mut ctx,
            "s",
            vec![0.0, 1.0, 1.0, 2.0],
            vec![1, 2, 3, 4],
            Interpolation::Linear,
        )
        .expect("valid");
        assert_eq!((c.times, c.values), (vec![0.0, 1.0, 2.0], vec![1, 3, 4]));
        assert_eq!(ctx.into_warnings().len(), 1);
        let mut ctx = Ctx::new("t.gltf", 0);
        let err = channel_of(
            &mut ctx,
            "s",
            vec![0.0, 2.0, 1.0],
            vec![1, 2, 3],
            Interpolation::Step,
        )
        .expect_err("decreasing");
        assert_eq!(err.kind, ErrorKind::Invalid);
    }
}
