//! The evenly spaced times a clip is sampled at, for baking and for its bounds: `n` intervals
//! over the clip's timeline, `n + 1` times `k * duration / n`, both ends exact. One rule in one
//! place, so that a baked frame and a bounds sample at the same index are the same time.

use super::clip::AnimationClip;
use super::error::AnimError;

/// The most intervals one clip is cut into (about five hours at 60 per second): a bound on
/// the work and memory a rate can ask for.
pub(crate) const MAX_INTERVALS: u32 = 1 << 20;

/// `max(1, ceil(duration * rate))`: the fewest equal intervals no longer than `1 / rate`
/// seconds (so the effective rate is `rate` or a little more); a clip of no length gets one.
///
/// An error for a rate that is not positive and finite, or one that needs more than `max`
/// intervals (at most [`MAX_INTERVALS`]).
pub(crate) fn intervals(clip: &AnimationClip, rate: f32, max: u32) -> Result<u32, AnimError> {
    if !(rate.is_finite() && rate > 0.0) {
        return Err(AnimError::SampleRate { rate });
    }
    let max = max.min(MAX_INTERVALS);
    // In f64 the product is exact enough that a whole number of frames stays whole.
    let wanted = (f64::from(clip.duration()) * f64::from(rate))
        .ceil()
        .max(1.0);
    if wanted > f64::from(max) {
        return Err(AnimError::TooManySamples {
            clip: clip.name().to_string(),
            duration: clip.duration(),
            rate,
            samples: wanted as u64 + 1,
            max: u64::from(max) + 1,
        });
    }
    Ok(wanted as u32)
}

/// Time `k` of `n` intervals over `duration` seconds: `k * duration / n`, computed in f64 and
/// rounded once, so time 0 is 0 and time `n` is `duration` exactly.
#[inline]
pub(crate) fn time(k: u32, n: u32, duration: f32) -> f32 {
    (f64::from(k) * f64::from(duration) / f64::from(n)) as f32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::skeleton::{Joint, Skeleton};
    use crate::anim::track::{Channel, JointTrack};
    use crate::anim::transform::Transform;
    use glam::Vec3;

    fn clip(duration: f32) -> AnimationClip {
        let skeleton =
            Skeleton::with_derived_offsets(vec![Joint::new("j", None, Transform::IDENTITY)])
                .expect("skeleton");
        let times = if duration > 0.0 {
            vec![0.0, duration]
        } else {
            vec![0.0]
        };
        let values = vec![Vec3::ZERO; times.len()];
        let track = JointTrack {
            translation: Some(Channel::linear(times, values)),
            ..JointTrack::default()
        };
        AnimationClip::new("c", vec![track], &skeleton).expect("clip")
    }

    #[test]
    fn intervals_round_up_and_never_vanish() {
        assert_eq!(intervals(&clip(1.0), 30.0, MAX_INTERVALS), Ok(30));
        assert_eq!(intervals(&clip(1.01), 30.0, MAX_INTERVALS), Ok(31));
        assert_eq!(intervals(&clip(0.0), 30.0, MAX_INTERVALS), Ok(1));
        assert_eq!(intervals(&clip(0.001), 30.0, MAX_INTERVALS), Ok(1));
    }

    #[test]
    fn bad_and_huge_rates_are_errors() {
        for rate in [0.0, -1.0, f32::NAN, f32::INFINITY] {
            assert!(matches!(
                intervals(&clip(1.0), rate, MAX_INTERVALS),
                Err(AnimError::SampleRate { .. })
            ));
        }
        assert!(matches!(
            intervals(&clip(10.0), 1e6, MAX_INTERVALS),
            Err(AnimError::TooManySamples {
                samples: 10_000_001,
                ..
            })
        ));
        assert!(matches!(
            intervals(&clip(1.0), 30.0, 10),
            Err(AnimError::TooManySamples { max: 11, .. })
        ));
    }

    #[test]
    fn both_ends_are_exact() {
        for duration in [0.1f32, 1.0 / 3.0, 2.7, 41.3] {
            for n in [1, 3, 7, 30, 999] {
                assert_eq!(time(0, n, duration), 0.0);
                assert_eq!(time(n, n, duration), duration);
            }
        }
    }
}
