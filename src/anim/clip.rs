//! `AnimationClip`: per-joint tracks of translation, rotation and scale keys, validated and
//! compiled into a [`ClipSampler`] for fast, exact sampling.

use glam::{Quat, Vec4};

use super::error::AnimError;
use super::sampler::ClipSampler;
use super::skeleton::Skeleton;
use super::track::{Channel, Interpolation, JointTrack};
use super::transform::Transform;

/// A named animation for one skeleton: one [`JointTrack`] per joint, in skeleton order.
///
/// Times are seconds on the clip's own timeline, whose origin is 0 (not the first key):
/// sampling before a channel's first key holds that key, after its last key holds the last.
#[derive(Clone, Debug)]
pub struct AnimationClip {
    name: String,
    tracks: Vec<JointTrack>,
    start: f32,
    end: f32,
    sampler: ClipSampler,
}

impl AnimationClip {
    /// Validates `tracks` against `skeleton` (one track per joint, finite values, strictly
    /// increasing non-negative times, matching key counts), normalizes rotation keys and
    /// compiles the sampler. Joints without a channel keep the skeleton's bind pose.
    pub fn new(
        name: impl Into<String>,
        mut tracks: Vec<JointTrack>,
        skeleton: &Skeleton,
    ) -> Result<Self, AnimError> {
        let name = name.into();
        if tracks.len() != skeleton.len() {
            return Err(AnimError::TrackCount {
                clip: name,
                tracks: tracks.len(),
                joints: skeleton.len(),
            });
        }
        let mut start = f32::INFINITY;
        let mut end = 0.0f32;
        for (joint, track) in tracks.iter_mut().enumerate() {
            let fail = |channel: &'static str, message: String| AnimError::Channel {
                clip: name.clone(),
                joint,
                channel,
                message,
            };
            if let Some(c) = &track.translation {
                check_channel(c, |v| Vec4::from((*v, 0.0))).map_err(|m| fail("translation", m))?;
            }
            if let Some(c) = &mut track.rotation {
                check_channel(c, |q| Vec4::from(*q)).map_err(|m| fail("rotation", m))?;
                normalize_rotations(c).map_err(|m| fail("rotation", m))?;
            }
            if let Some(c) = &track.scale {
                check_channel(c, |v| Vec4::from((*v, 0.0))).map_err(|m| fail("scale", m))?;
            }
            for times in track_times(track) {
                start = start.min(times[0]);
                end = end.max(times[times.len() - 1]);
            }
        }
        if !start.is_finite() {
            start = 0.0;
        }
        let sampler = ClipSampler::build(&tracks, skeleton.bind_pose());
        Ok(Self {
            name,
            tracks,
            start,
            end,
            sampler,
        })
    }

    /// Like [`AnimationClip::new`], for key times given in ticks at `ticks_per_second` (as
    /// Assimp-style sources store them); times are converted to seconds.
    pub fn from_ticks(
        name: impl Into<String>,
        mut tracks: Vec<JointTrack>,
        ticks_per_second: f64,
        skeleton: &Skeleton,
    ) -> Result<Self, AnimError> {
        let name = name.into();
        if !(ticks_per_second.is_finite() && ticks_per_second > 0.0) {
            return Err(AnimError::TickRate {
                clip: name,
                rate: ticks_per_second,
            });
        }
        for track in &mut tracks {
            let to_seconds = |times: &mut Vec<f32>| {
                for t in times.iter_mut() {
                    *t = (f64::from(*t) / ticks_per_second) as f32;
                }
            };
            if let Some(c) = &mut track.translation {
                to_seconds(&mut c.times);
            }
            if let Some(c) = &mut track.rotation {
                to_seconds(&mut c.times);
            }
            if let Some(c) = &mut track.scale {
                to_seconds(&mut c.times);
            }
        }
        Self::new(name, tracks, skeleton)
    }

    /// The clip's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Gives the clip another name (loaders name unnamed clips).
    pub fn set_name(&mut self, name: impl Into<String>) {
        self.name = name.into();
    }

    /// The source tracks, one per joint, after validation.
    pub fn tracks(&self) -> &[JointTrack] {
        &self.tracks
    }

    /// The earliest first-key time over all channels (0 for a clip with no keys).
    pub fn start(&self) -> f32 {
        self.start
    }

    /// The latest last-key time over all channels.
    pub fn end(&self) -> f32 {
        self.end
    }

    /// The clip's length: the time of its last key (the timeline starts at 0).
    pub fn duration(&self) -> f32 {
        self.end
    }

    /// The compiled sampler.
    pub fn sampler(&self) -> &ClipSampler {
        &self.sampler
    }

    /// Samples every joint's local transform at `time` seconds into `out` (one entry per
    /// joint). Exact at any time: no resampling, no state. The sampling stage's length rule:
    /// see [`ClipSampler::sample`].
    ///
    /// # Panics
    ///
    /// If `out` is shorter than the joint count.
    #[inline]
    pub fn sample(&self, time: f32, out: &mut [Transform]) {
        self.sampler.sample(time, out);
    }
}

fn track_times(track: &JointTrack) -> impl Iterator<Item = &[f32]> {
    let t = track.translation.as_ref().map(|c| c.times.as_slice());
    let r = track.rotation.as_ref().map(|c| c.times.as_slice());
    let s = track.scale.as_ref().map(|c| c.times.as_slice());
    [t, r, s].into_iter().flatten()
}

fn check_channel<T>(c: &Channel<T>, as_vec4: impl Fn(&T) -> Vec4) -> Result<(), String> {
    if c.times.is_empty() {
        return Err("has no keys".into());
    }
    let per_key = if c.interpolation == Interpolation::CubicSpline {
        3
    } else {
        1
    };
    if c.values.len() != c.times.len() * per_key {
        return Err(format!(
            "{} values for {} keys (expected {})",
            c.values.len(),
            c.times.len(),
            c.times.len() * per_key
        ));
    }
    for (k, &t) in c.times.iter().enumerate() {
        if !t.is_finite() || t < 0.0 {
            return Err(format!("key {k} has time {t} (must be finite and >= 0)"));
        }
        if k > 0 && t <= c.times[k - 1] {
            return Err(format!(
                "key {k} has time {t}, not after key {} at {}",
                k - 1,
                c.times[k - 1]
            ));
        }
    }
    if let Some(k) = c.values.iter().position(|v| !as_vec4(v).is_finite()) {
        return Err(format!("key value {} is not finite", k / per_key));
    }
    Ok(())
}

/// Rotation keys must be unit quaternions; tangents of cubic splines are left alone.
fn normalize_rotations(c: &mut Channel<Quat>) -> Result<(), String> {
    let cubic = c.interpolation == Interpolation::CubicSpline;
    for (i, q) in c.values.iter_mut().enumerate() {
        if cubic && i % 3 != 1 {
            continue;
        }
        let len = q.length();
        if !(len > 1e-6) {
            return Err(format!(
                "key {} is a zero quaternion",
                if cubic { i / 3 } else { i }
            ));
        }
        *q = Quat::from_vec4(Vec4::from(*q) / len);
    }
    Ok(())
}
