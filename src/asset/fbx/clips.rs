//! Animation stacks to clips, sampled: each stack is evaluated by ufbx (every layer, its
//! weights and blend modes, the curves' own interpolation, pivots and pre/post-rotations
//! included) at the file's frame rate over the stack's time range, and every joint's local
//! transform at each frame becomes a linear key (slerp for rotations). Sampling rather than
//! copying curves is what makes layers, Euler rotation orders and pivots come out exactly as
//! ufbx evaluates them; the price is a key per frame, so a channel whose samples are all equal
//! keeps one key.
//!
//! A clip's time 0 is the stack's start; its duration is the stack's length. The frame rate is
//! the scene's (`settings.frames_per_second`); a file that states none usable is sampled at
//! [`FALLBACK_FPS`] with a warning. The last sample is at the stack's end even when the length
//! is not a whole number of frames.

use glam::{Quat, Vec3};

use super::nodes::{Nodes, node_section};
use super::skeleton::Rig;
use super::values;
use super::warnings::Warnings;
use crate::anim::{AnimationClip, Channel, JointTrack, Transform};
use crate::asset::budget::{Budget, cost};
use crate::asset::{ErrorKind, LoadError};

/// The sampling rate of a file whose frame rate is missing or not a positive number.
pub const FALLBACK_FPS: f64 = 30.0;

/// The most samples one stack may take, whatever the budget allows: sample times are `f32`
/// seconds, which stop being distinct long before this.
const MAX_FRAMES: f64 = 16_777_216.0;

/// Relative tolerance for "this sample is the node's rest transform".
const SAME: f32 = 1e-5;

/// One animation stack, checked, and how it is sampled.
pub(super) struct Plan<'s> {
    stack: &'s ufbx::AnimStack,
    name: String,
    section: String,
    begin: f64,
    duration: f64,
    fps: f64,
    /// Samples, the first at the start and the last at the end.
    frames: usize,
}

impl Plan<'_> {
    /// The stack time of sample `k`.
    fn stack_time(&self, k: usize) -> f64 {
        self.begin + self.clip_time(k)
    }

    /// The clip time of sample `k`.
    fn clip_time(&self, k: usize) -> f64 {
        (k as f64 / self.fps).min(self.duration)
    }
}

/// Checks every stack of `scene` and works out its samples.
pub(super) fn plan<'s>(
    file: &str,
    scene: &'s ufbx::Scene,
    warn: &mut Warnings,
) -> Result<Vec<Plan<'s>>, LoadError> {
    let stated = scene.settings.frames_per_second;
    let fps = if stated.is_finite() && stated > 0.0 {
        stated
    } else {
        if !scene.anim_stacks.is_empty() {
            warn.once(
                "frame rate",
                format!(
                    "settings: the frame rate {stated} is not a positive number; animation \
                     stacks are sampled at {FALLBACK_FPS} per second"
                ),
            );
        }
        FALLBACK_FPS
    };
    let mut plans = Vec::with_capacity(scene.anim_stacks.len());
    for (i, stack) in scene.anim_stacks.iter().enumerate() {
        let name = match &*stack.element.name {
            "" => format!("clip{i}"),
            n => n.to_string(),
        };
        let section = format!("animation stack '{name}'");
        let error =
            |kind, message: String| LoadError::new(file, kind, message).in_section(section.clone());
        let (begin, end) = (stack.time_begin, stack.time_end);
        if !(begin.is_finite() && end.is_finite()) {
            return Err(error(
                ErrorKind::NonFinite,
                "the time range is not finite".to_string(),
            ));
        }
        if end < begin {
            return Err(error(
                ErrorKind::Invalid,
                format!("ends ({end} s) before it begins ({begin} s)"),
            ));
        }
        // Some exporters leave a stack's range empty: its curves' keys say how long it is.
        let (begin, end) = match (end > begin, key_range(stack)) {
            (false, Some((first, last))) if last > first => {
                warn.once(
                    format!("empty range {i}"),
                    format!(
                        "{section}: its time range is empty; the range of its keys, {first} to \
                         {last} s, is sampled"
                    ),
                );
                (first, last)
            }
            _ => (begin, end),
        };
        let duration = end - begin;
        let whole = (duration * fps + 1e-6).floor();
        if !(whole.is_finite() && whole < MAX_FRAMES) {
            return Err(error(
                ErrorKind::TooLarge,
                format!(
                    "{duration} s at {fps} frames per second is more than {MAX_FRAMES} samples"
                ),
            ));
        }
        let whole = whole as usize;
        // One more sample at the end when the length is not a whole number of frames.
        let partial = usize::from((whole as f64) / fps < duration - 1e-9);
        plans.push(Plan {
            stack,
            name,
            section,
            begin,
            duration,
            fps,
            frames: whole + 1 + partial,
        });
    }
    Ok(plans)
}

/// The earliest and latest key time of the curves in `stack`'s layers, when they are finite.
fn key_range(stack: &ufbx::AnimStack) -> Option<(f64, f64)> {
    let curves = stack
        .layers
        .iter()
        .flat_map(|layer| layer.anim_values.iter())
        .flat_map(|value| value.curves.iter().flatten());
    let mut range: Option<(f64, f64)> = None;
    for curve in curves {
        if curve.keyframes.count == 0 || !(curve.min_time.is_finite() && curve.max_time.is_finite())
        {
            continue;
        }
        let (lo, hi) = range.unwrap_or((curve.min_time, curve.max_time));
        range = Some((lo.min(curve.min_time), hi.max(curve.max_time)));
    }
    range
}

/// What the clips of `plans` hold for `joints` joints: every clip's per-joint tracks, and
/// three channels of keys per joint and sample (an upper bound: constant channels keep one).
pub(super) fn cost(plans: &[Plan], joints: usize) -> u64 {
    plans.iter().fold(0u64, |sum, p| {
        let keys = (p.frames as u64)
            .saturating_mul(joints as u64)
            .saturating_mul(3 * cost::KEY);
        sum.saturating_add(cost::clip(joints)).saturating_add(keys)
    })
}

/// Charges the clips of `plans` for `joints` joints, beyond `already` charged.
pub(super) fn charge(
    file: &str,
    plans: &[Plan],
    joints: usize,
    already: u64,
    budget: &mut Budget,
) -> Result<u64, LoadError> {
    let total = cost(plans, joints);
    let frames: usize = plans.iter().map(|p| p.frames).sum();
    budget
        .charge(total.saturating_sub(already), || {
            format!(
                "{} animation stacks of {frames} samples in all x {joints} joints of keys",
                plans.len()
            )
        })
        .map_err(|e| e.into_load_error(file, "animation stacks"))?;
    Ok(total)
}

/// For each node of `candidates`, whether some stack moves it away from its rest transform
/// (at some sample). Nodes that are not candidates are `false`.
pub(super) fn moving(
    file: &str,
    scene: &ufbx::Scene,
    nodes: &Nodes,
    plans: &[Plan],
    candidates: &[bool],
) -> Result<Vec<bool>, LoadError> {
    let mut moving = vec![false; nodes.len()];
    let watched: Vec<usize> = (0..nodes.len()).filter(|&n| candidates[n]).collect();
    if watched.is_empty() {
        return Ok(moving);
    }
    for plan in plans {
        for k in 0..plan.frames {
            let time = plan.stack_time(k);
            for &n in &watched {
                if moving[n] {
                    continue;
                }
                let local = sample(file, scene, nodes, plan, n, time)?;
                moving[n] = !same_transform(&local, &nodes.rest[n]);
            }
        }
    }
    Ok(moving)
}

/// Every stack of `plans` as a clip of `rig`'s skeleton.
pub(super) fn clips(
    file: &str,
    scene: &ufbx::Scene,
    nodes: &Nodes,
    rig: &Rig,
    plans: &[Plan],
) -> Result<Vec<AnimationClip>, LoadError> {
    let joints = rig.skeleton.len();
    let mut clips = Vec::with_capacity(plans.len());
    for plan in plans {
        let times: Vec<f32> = (0..plan.frames).map(|k| plan.clip_time(k) as f32).collect();
        let mut tracks = Vec::with_capacity(joints);
        for j in 0..joints {
            let n = rig.joint_node[j];
            let fold = &rig.fold[j];
            let mut t = Vec::with_capacity(plan.frames);
            let mut r: Vec<Quat> = Vec::with_capacity(plan.frames);
            let mut s = Vec::with_capacity(plan.frames);
            for k in 0..plan.frames {
                let local = fold.apply(&sample(file, scene, nodes, plan, n, plan.stack_time(k))?);
                t.push(Vec3::from(local.translation));
                // Each rotation on the side of the previous one, so the keys read as one path.
                let q = match r.last() {
                    Some(prev) if prev.dot(local.rotation) < 0.0 => -local.rotation,
                    _ => local.rotation,
                };
                r.push(q);
                s.push(Vec3::from(local.scale));
            }
            tracks.push(JointTrack {
                translation: Some(channel(&times, t)),
                rotation: Some(channel(&times, r)),
                scale: Some(channel(&times, s)),
            });
        }
        let clip = AnimationClip::new(plan.name.clone(), tracks, &rig.skeleton)
            .map_err(|e| LoadError::from_anim(file, &plan.section, e))?;
        clips.push(clip);
    }
    Ok(clips)
}

/// Node `n`'s local transform at stack time `time`, as ufbx evaluates it.
fn sample(
    file: &str,
    scene: &ufbx::Scene,
    nodes: &Nodes,
    plan: &Plan,
    n: usize,
    time: f64,
) -> Result<Transform, LoadError> {
    let not_finite = || {
        LoadError::new(
            file,
            ErrorKind::NonFinite,
            "the node's transform evaluates to a value that is not finite (or to a zero \
             rotation)",
        )
        .in_section(plan.section.clone())
        .at_record(format!(
            "{} at {:.4} s",
            node_section(&nodes.names[n]),
            time - plan.begin
        ))
    };
    let node = scene.nodes.get(n).ok_or_else(not_finite)?;
    let local = ufbx::evaluate_transform(&plan.stack.anim, node, time);
    values::transform(&local).ok_or_else(not_finite)
}

/// A linear channel on `times`, or one key when every value is the first.
fn channel<T: Copy + PartialEq>(times: &[f32], values: Vec<T>) -> Channel<T> {
    match values.first() {
        Some(&first) if values.iter().all(|v| *v == first) => {
            Channel::linear(vec![times[0]], vec![first])
        }
        _ => Channel::linear(times.to_vec(), values),
    }
}

/// Whether `a` is `b` to within rounding.
fn same_transform(a: &Transform, b: &Transform) -> bool {
    let near = |x: Vec3, y: Vec3| {
        (x - y).abs().max_element()
            <= SAME * x.abs().max_element().max(y.abs().max_element()).max(1.0)
    };
    near(a.translation.into(), b.translation.into())
        && values::same_rotation(a.rotation, b.rotation)
        && near(a.scale.into(), b.scale.into())
}
