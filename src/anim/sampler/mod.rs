//! `ClipSampler`: a clip compiled for sampling many instances at independent times.
//!
//! Channels are grouped by timeline (the exact list of key times they use) and interpolation.
//! Within a group, keys are stored frame-major: frame `k` holds the `k`-th key of every channel
//! in the group, one `Vec4` each (three for cubic splines). Sampling a group at time `t` finds
//! the frame pair once, then walks two contiguous blocks of memory with branch-free loops that
//! write each channel's joint. Channels whose value never changes (single keys, equal keys,
//! joints the clip does not animate) live in one constant group with a single frame.
//!
//! Frames of linearly interpolated groups end with the *arcs* of their rotations: for each
//! rotation, the angle to the same channel's next key and its `sinc`, two per `Vec4`. They
//! depend only on the keys, so the batch sampler reads them instead of computing an arc
//! cosine and a polynomial per rotation, lane and frame; they are computed with the very
//! operations the lanes would use ([`crate::anim::simd::arc`]), so the bits are the same.
//!
//! Key lookup is exact for any timeline: an O(1) guess from the timeline's average key spacing
//! (exact for the uniform rates that real clips use), verified against the key times, with a
//! binary search when the guess misses.

use std::collections::HashMap;

use glam::{Quat, Vec3A, Vec4};

mod soa;

use crate::anim::simd::arc;
use crate::anim::track::{Channel, Interpolation, JointTrack};
use crate::anim::transform::{Transform, lerp_exact, slerp_positive};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum GroupKind {
    Constant,
    Linear,
    Step,
    Cubic,
}

#[derive(Clone, Debug)]
struct Timeline {
    times: Vec<f32>,
    first: f32,
    last: f32,
    /// Keys per second if the keys were evenly spaced: the guess for the frame index.
    rate: f32,
}

impl Timeline {
    fn new(times: Vec<f32>) -> Self {
        let first = times[0];
        let last = times[times.len() - 1];
        let rate = (times.len() - 1) as f32 / (last - first);
        Self {
            times,
            first,
            last,
            rate,
        }
    }

    /// The frame `k` with `times[k] <= t < times[k+1]` (clamped to the ends) and the fraction
    /// of the way from key `k` to key `k + 1`. Before the first key: `(0, 0)`; at or after the
    /// last: `(n - 2, 1)`. A NaN time gives the first key.
    #[inline]
    fn locate(&self, t: f32) -> (usize, f32) {
        let n = self.times.len();
        if !(t > self.first) {
            return (0, 0.0);
        }
        if t >= self.last {
            return (n - 2, 1.0);
        }
        let mut k = (((t - self.first) * self.rate) as usize).min(n - 2);
        if !(self.times[k] <= t && t < self.times[k + 1]) {
            k = (self.times.partition_point(|&x| x <= t) - 1).min(n - 2);
        }
        let (t0, t1) = (self.times[k], self.times[k + 1]);
        (k, ((t - t0) / (t1 - t0)).clamp(0.0, 1.0))
    }
}

#[derive(Clone, Debug)]
struct KeyGroup {
    kind: GroupKind,
    timeline: usize,
    base: usize,
    /// `Vec4`s per frame (translations, then rotations, then scales; times three for cubic;
    /// then the rotations' arcs in linear groups).
    stride: usize,
    translations: Vec<u16>,
    rotations: Vec<u16>,
    scales: Vec<u16>,
}

impl KeyGroup {
    /// Where a frame's rotation arcs sit within it (empty except in linear groups with
    /// rotations): two rotations per `Vec4`, after the keys.
    fn arcs(&self) -> std::ops::Range<usize> {
        self.stride - arc_entries(self.kind, self.rotations.len())..self.stride
    }
}

/// `Vec4`s of rotation arcs per frame of a group of `kind` with `rotations` rotations.
fn arc_entries(kind: GroupKind, rotations: usize) -> usize {
    if kind == GroupKind::Linear {
        rotations.div_ceil(2)
    } else {
        0
    }
}

/// A clip compiled for fast exact sampling; see the module documentation.
#[derive(Clone, Debug)]
pub struct ClipSampler {
    joints: usize,
    timelines: Vec<Timeline>,
    groups: Vec<KeyGroup>,
    data: Vec<Vec4>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Property {
    Translation,
    Rotation,
    Scale,
}

/// A channel waiting to be placed in a group: its joint and its keys as `Vec4`s.
struct Pending {
    joint: u16,
    property: Property,
    keys: Vec<Vec4>,
}

impl ClipSampler {
    /// Compiles validated tracks (one per joint) with `bind` giving the value of every property
    /// that has no channel.
    pub(crate) fn build(tracks: &[JointTrack], bind: &[Transform]) -> Self {
        let mut timelines: Vec<Timeline> = Vec::new();
        let mut timeline_ids: HashMap<Vec<u32>, usize> = HashMap::new();
        let mut group_ids: HashMap<(GroupKind, usize), usize> = HashMap::new();
        let mut pending: Vec<(GroupKind, usize, Vec<Pending>)> = Vec::new();

        let mut place = |kind: GroupKind, times: Option<&[f32]>, p: Pending| {
            let timeline = match times {
                None => 0,
                Some(times) => {
                    let key: Vec<u32> = times.iter().map(|t| t.to_bits()).collect();
                    *timeline_ids.entry(key).or_insert_with(|| {
                        timelines.push(Timeline::new(times.to_vec()));
                        timelines.len() - 1
                    })
                }
            };
            let g = *group_ids.entry((kind, timeline)).or_insert_with(|| {
                pending.push((kind, timeline, Vec::new()));
                pending.len() - 1
            });
            pending[g].2.push(p);
        };

        for (j, (track, bind)) in tracks.iter().zip(bind).enumerate() {
            let joint = j as u16;
            let as_vec3 = |v: &glam::Vec3| Vec4::from((*v, 0.0));
            let props = [
                (
                    Property::Translation,
                    track
                        .translation
                        .as_ref()
                        .map(|c| to_vec4_channel(c, as_vec3)),
                    bind.translation.extend(0.0),
                ),
                (
                    Property::Rotation,
                    track.rotation.as_ref().map(rotation_channel),
                    Vec4::from(bind.rotation),
                ),
                (
                    Property::Scale,
                    track.scale.as_ref().map(|c| to_vec4_channel(c, as_vec3)),
                    bind.scale.extend(0.0),
                ),
            ];
            for (property, channel, bind_value) in props {
                match channel {
                    Some((times, keys, interpolation)) => {
                        match classify(&times, &keys, interpolation) {
                            Some(constant) => place(
                                GroupKind::Constant,
                                None,
                                Pending {
                                    joint,
                                    property,
                                    keys: vec![constant],
                                },
                            ),
                            None => {
                                let kind = match interpolation {
                                    Interpolation::Linear => GroupKind::Linear,
                                    Interpolation::Step => GroupKind::Step,
                                    Interpolation::CubicSpline => GroupKind::Cubic,
                                };
                                place(
                                    kind,
                                    Some(&times),
                                    Pending {
                                        joint,
                                        property,
                                        keys,
                                    },
                                );
                            }
                        }
                    }
                    None => place(
                        GroupKind::Constant,
                        None,
                        Pending {
                            joint,
                            property,
                            keys: vec![bind_value],
                        },
                    ),
                }
            }
        }

        let mut data = Vec::new();
        let mut groups = Vec::with_capacity(pending.len());
        for (kind, timeline, mut channels) in pending {
            // Translations, then rotations, then scales: each property gets one tight loop.
            channels.sort_by_key(|p| p.property as u8);
            let per_key = if kind == GroupKind::Cubic { 3 } else { 1 };
            let frames = if kind == GroupKind::Constant {
                1
            } else {
                timelines[timeline].times.len()
            };
            let rotations: Vec<&[Vec4]> = channels
                .iter()
                .filter(|c| c.property == Property::Rotation)
                .map(|c| c.keys.as_slice())
                .collect();
            let arcs = arc_entries(kind, rotations.len());
            let stride = channels.len() * per_key + arcs;
            let base = data.len();
            data.reserve(stride * frames);
            for k in 0..frames {
                for c in &channels {
                    data.extend_from_slice(&c.keys[k * per_key..(k + 1) * per_key]);
                }
                if arcs > 0 {
                    push_arcs(&mut data, &rotations, k);
                }
            }
            let joints_of = |property| {
                channels
                    .iter()
                    .filter(|c| c.property == property)
                    .map(|c| c.joint)
                    .collect()
            };
            groups.push(KeyGroup {
                kind,
                timeline,
                base,
                stride,
                translations: joints_of(Property::Translation),
                rotations: joints_of(Property::Rotation),
                scales: joints_of(Property::Scale),
            });
        }
        Self {
            joints: tracks.len(),
            timelines,
            groups,
            data,
        }
    }

    /// Number of distinct key-time lists.
    #[must_use]
    pub fn timeline_count(&self) -> usize {
        self.timelines.len()
    }

    /// Number of key groups (timeline x interpolation, plus the constant group).
    #[must_use]
    pub fn group_count(&self) -> usize {
        self.groups.len()
    }

    /// Bytes of key data.
    #[must_use]
    pub fn key_bytes(&self) -> usize {
        self.data.len() * std::mem::size_of::<Vec4>()
    }

    /// Number of joints (the length of one sampled pose).
    #[must_use]
    pub fn joint_count(&self) -> usize {
        self.joints
    }

    /// The sampling stage: writes every joint's local transform at `time` seconds into the
    /// first [`joint_count`](Self::joint_count) entries of `out`.
    ///
    /// Length rule (the same for every stage of [`crate::anim`]): outputs may be longer than
    /// needed, and only the first entries are written; a shorter output panics.
    ///
    /// # Panics
    ///
    /// If `out` is shorter than the joint count.
    pub fn sample(&self, time: f32, out: &mut [Transform]) {
        let out = &mut out[..self.joints];
        for g in &self.groups {
            let (k, f) = match g.kind {
                GroupKind::Constant => (0, 0.0),
                _ => self.timelines[g.timeline].locate(time),
            };
            let a = &self.data[g.base + k * g.stride..][..g.stride];
            match g.kind {
                GroupKind::Constant => write_keys(g, a, out),
                GroupKind::Step => {
                    // Hold key k; only at or past the last key does the next one show.
                    let b = &self.data[g.base + (k + 1) * g.stride..][..g.stride];
                    write_keys(g, if f >= 1.0 { b } else { a }, out);
                }
                GroupKind::Linear => {
                    let b = &self.data[g.base + (k + 1) * g.stride..][..g.stride];
                    interpolate_linear(g, a, b, f, out);
                }
                GroupKind::Cubic => {
                    let b = &self.data[g.base + (k + 1) * g.stride..][..g.stride];
                    let times = &self.timelines[g.timeline].times;
                    interpolate_cubic(g, a, b, f, times[k + 1] - times[k], out);
                }
            }
        }
    }
}

/// Copies one frame's values (no interpolation).
#[inline(always)]
fn write_keys(g: &KeyGroup, a: &[Vec4], out: &mut [Transform]) {
    let (ta, rest) = a.split_at(g.translations.len());
    let (ra, sa) = rest.split_at(g.rotations.len());
    for (&j, v) in g.translations.iter().zip(ta) {
        out[j as usize].translation = Vec3A::from_vec4(*v);
    }
    for (&j, v) in g.rotations.iter().zip(ra) {
        out[j as usize].rotation = Quat::from_vec4(*v);
    }
    for (&j, v) in g.scales.iter().zip(sa) {
        out[j as usize].scale = Vec3A::from_vec4(*v);
    }
}

#[inline(always)]
fn interpolate_linear(g: &KeyGroup, a: &[Vec4], b: &[Vec4], f: f32, out: &mut [Transform]) {
    let nt = g.translations.len();
    let nr = g.rotations.len();
    for (i, &j) in g.translations.iter().enumerate() {
        out[j as usize].translation = Vec3A::from_vec4(lerp_exact(a[i], b[i], f));
    }
    for (i, &j) in g.rotations.iter().enumerate() {
        out[j as usize].rotation = Quat::from_vec4(slerp_positive(a[nt + i], b[nt + i], f));
    }
    for (i, &j) in g.scales.iter().enumerate() {
        let i = nt + nr + i;
        out[j as usize].scale = Vec3A::from_vec4(lerp_exact(a[i], b[i], f));
    }
}

/// glTF cubic Hermite spline between key `k` (frame `a`) and key `k + 1` (frame `b`), whose
/// entries are (in-tangent, value, out-tangent) triples; `dt` is the key spacing in seconds.
fn interpolate_cubic(g: &KeyGroup, a: &[Vec4], b: &[Vec4], s: f32, dt: f32, out: &mut [Transform]) {
    let (s2, s3) = (s * s, s * s * s);
    let h00 = 2.0 * s3 - 3.0 * s2 + 1.0;
    let h10 = (s3 - 2.0 * s2 + s) * dt;
    let h01 = -2.0 * s3 + 3.0 * s2;
    let h11 = (s3 - s2) * dt;
    let eval =
        |i: usize| a[3 * i + 1] * h00 + a[3 * i + 2] * h10 + b[3 * i + 1] * h01 + b[3 * i] * h11;
    let nt = g.translations.len();
    let nr = g.rotations.len();
    for (i, &j) in g.translations.iter().enumerate() {
        out[j as usize].translation = Vec3A::from_vec4(eval(i));
    }
    for (i, &j) in g.rotations.iter().enumerate() {
        let q = eval(nt + i);
        let len = q.length();
        // A spline through unit keys can pass near zero only with absurd tangents; fall back
        // to the key itself rather than produce NaN.
        let q = if len > 1e-6 {
            q / len
        } else {
            a[3 * (nt + i) + 1]
        };
        out[j as usize].rotation = Quat::from_vec4(q);
    }
    for (i, &j) in g.scales.iter().enumerate() {
        out[j as usize].scale = Vec3A::from_vec4(eval(nt + nr + i));
    }
}

/// Appends the arcs from frame `k` to frame `k + 1` of `rotations` (lerped channels, keys
/// already on one hemisphere), two per `Vec4`: `(theta_0, sinc theta_0, theta_1, sinc
/// theta_1)`. The last frame has no next key; its arcs are zero and never read (sampling at
/// or past the last key interpolates from the frame before it).
fn push_arcs(data: &mut Vec<Vec4>, rotations: &[&[Vec4]], k: usize) {
    for pair in rotations.chunks(2) {
        let mut entry = [0.0f32; 4];
        for (slot, keys) in entry.chunks_exact_mut(2).zip(pair) {
            if let (Some(a), Some(b)) = (keys.get(k), keys.get(k + 1)) {
                // The dot product in the batch sampler's order of operations.
                let d = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
                let (theta, s) = arc(d);
                slot.copy_from_slice(&[theta, s]);
            }
        }
        data.push(Vec4::from_array(entry));
    }
}

type Vec4Channel = (Vec<f32>, Vec<Vec4>, Interpolation);

fn to_vec4_channel<T>(c: &Channel<T>, f: impl Fn(&T) -> Vec4) -> Vec4Channel {
    (
        c.times.clone(),
        c.values.iter().map(f).collect(),
        c.interpolation,
    )
}

/// Rotation keys as `Vec4`s; for lerped and stepped channels each key is flipped to the
/// hemisphere of its predecessor so that every neighbouring pair takes the short arc.
fn rotation_channel(c: &Channel<Quat>) -> Vec4Channel {
    let (times, mut keys, interpolation) = to_vec4_channel(c, |q| Vec4::from(*q));
    if interpolation != Interpolation::CubicSpline {
        for k in 1..keys.len() {
            if keys[k].dot(keys[k - 1]) < 0.0 {
                keys[k] = -keys[k];
            }
        }
    }
    (times, keys, interpolation)
}

/// The constant value of a channel that never changes, or `None` if it is animated.
fn classify(times: &[f32], keys: &[Vec4], interpolation: Interpolation) -> Option<Vec4> {
    match interpolation {
        Interpolation::CubicSpline => (times.len() == 1).then_some(keys[1]),
        _ => keys.iter().all(|k| *k == keys[0]).then_some(keys[0]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locate_finds_the_bracketing_keys() {
        let uniform = Timeline::new(vec![0.0, 0.5, 1.0, 1.5]);
        assert_eq!(uniform.locate(-1.0), (0, 0.0));
        assert_eq!(uniform.locate(f32::NAN), (0, 0.0));
        assert_eq!(uniform.locate(0.5), (1, 0.0));
        assert_eq!(uniform.locate(0.75), (1, 0.5));
        assert_eq!(uniform.locate(1.5), (2, 1.0));
        assert_eq!(uniform.locate(9.0), (2, 1.0));
        let uneven = Timeline::new(vec![0.0, 0.1, 0.2, 2.0, 2.1]);
        assert_eq!(uneven.locate(0.15).0, 1);
        let (k, f) = uneven.locate(1.1);
        assert_eq!(k, 2);
        assert!((f - 0.5).abs() < 1e-6);
        assert_eq!(uneven.locate(2.05).0, 3);
        for i in 0..=210 {
            let t = i as f32 / 100.0;
            let (k, f) = uneven.locate(t);
            assert!(
                uneven.times[k] <= t && (t < uneven.times[k + 1] || k == 3),
                "t = {t}"
            );
            assert!((0.0..=1.0).contains(&f));
        }
    }
}
