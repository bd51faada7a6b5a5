//! Assimp's animations to clips. Key times are ticks: seconds are ticks over the
//! animation's `mTicksPerSecond`, and where Assimp leaves that 0 (the file did not say) the
//! format's own default applies: 4800 for `.x` (D3DX's), otherwise 25, the default Assimp's
//! own viewer assumes. Keys are interpolated linearly (slerp for rotations), as Assimp's
//! evaluator does; channels go through the fold of the nodes above their joint.

use super::ffi as sys;
use glam::{Quat, Vec3};

use crate::anim::{AnimationClip, Channel, Interpolation, JointTrack};
use crate::asset::{ErrorKind, LoadError};

use super::raw;
use super::skeleton::{Nodes, Rig};

/// Ticks per second of a `.x` file without `AnimTicksPerSecond` (D3DX's default).
pub(super) const X_TICKS_PER_SECOND: f64 = 4800.0;
/// Ticks per second Assimp's own tools assume when a file does not say.
pub(super) const ASSIMP_TICKS_PER_SECOND: f64 = 25.0;

/// For each node, whether some channel of some animation targets it (by name, the first
/// node of that name) with at least one key.
pub(super) fn animated_nodes(nodes: &Nodes, animations: &[&sys::aiAnimation]) -> Vec<bool> {
    let mut animated = vec![false; nodes.len()];
    for animation in animations {
        // SAFETY: `mChannels` holds `mNumChannels` channel pointers owned by the scene.
        for channel in unsafe { raw::objects(animation.mChannels, animation.mNumChannels) } {
            let keys =
                channel.mNumPositionKeys + channel.mNumRotationKeys + channel.mNumScalingKeys;
            if let (true, Some(&n)) = (keys > 0, nodes.by_name.get(&raw::text(&channel.mNodeName)))
            {
                animated[n] = true;
            }
        }
    }
    animated
}

/// Converts every animation. `default_ticks` stands in for a tick rate of 0; `warn` receives
/// one line per kind of thing ignored.
pub(super) fn clips(
    file: &str,
    nodes: &Nodes,
    rig: &Rig,
    animations: &[&sys::aiAnimation],
    default_ticks: f64,
    warn: &mut dyn FnMut(&str, String),
) -> Result<Vec<AnimationClip>, LoadError> {
    let mut clips = Vec::with_capacity(animations.len());
    for (a, animation) in animations.iter().enumerate() {
        let section = format!("animations[{a}]");
        let name = match raw::text(&animation.mName) {
            n if n.is_empty() => format!("clip{a}"),
            n => n,
        };
        let ticks = animation.mTicksPerSecond;
        let ticks = if ticks == 0.0 {
            default_ticks
        } else if ticks.is_finite() && ticks > 0.0 {
            ticks
        } else {
            return Err(LoadError::new(
                file,
                ErrorKind::Invalid,
                format!("ticks per second {ticks} is not a positive number"),
            )
            .in_section(section));
        };
        let mut tracks = vec![JointTrack::default(); rig.skeleton.len()];
        // SAFETY: `mChannels` holds `mNumChannels` channel pointers owned by the scene.
        let channels = unsafe { raw::objects(animation.mChannels, animation.mNumChannels) };
        for (c, channel) in channels.iter().enumerate() {
            let target = raw::text(&channel.mNodeName);
            let joint = nodes.by_name.get(&target).and_then(|&n| rig.node_joint[n]);
            let Some(joint) = joint else {
                warn(
                    "non-joint channel",
                    format!(
                        "{section}: channel {c} animates '{}', which is not a joint nor above one; \
                         channels of such nodes are ignored",
                        raw::one_line(&target)
                    ),
                );
                continue;
            };
            let at = |what: &str| format!("{section}.channels[{c}] ({what} keys)");
            let fold = &rig.fold[joint];
            let track = &mut tracks[joint];
            if track.translation.is_some() || track.rotation.is_some() || track.scale.is_some() {
                warn(
                    "duplicate channel",
                    format!(
                        "{section}: two channels animate '{}'; the later one is used",
                        raw::one_line(&target)
                    ),
                );
            }
            // SAFETY (all three): key arrays of the given counts, owned by the scene.
            let positions = unsafe { raw::items(channel.mPositionKeys, channel.mNumPositionKeys) };
            let rotations = unsafe { raw::items(channel.mRotationKeys, channel.mNumRotationKeys) };
            let scales = unsafe { raw::items(channel.mScalingKeys, channel.mNumScalingKeys) };
            track.translation = channel_of(
                file,
                &at("position"),
                ticks,
                positions
                    .iter()
                    .map(|k| (k.mTime, fold.point(raw::vec3(&k.mValue)))),
            )?;
            track.rotation = channel_of(
                file,
                &at("rotation"),
                ticks,
                rotations.iter().map(|k| {
                    let q = &k.mValue;
                    (k.mTime, fold.rotation(Quat::from_xyzw(q.x, q.y, q.z, q.w)))
                }),
            )?;
            track.scale = channel_of(
                file,
                &at("scaling"),
                ticks,
                scales
                    .iter()
                    .map(|k| (k.mTime, fold.scale(raw::vec3(&k.mValue)))),
            )?;
        }
        let clip = AnimationClip::new(name, tracks, &rig.skeleton)
            .map_err(|e| LoadError::from_anim(file, &section, e))?;
        clips.push(clip);
    }
    Ok(clips)
}

/// A linear channel from (tick, value) keys, `None` when there are none. Times must be finite,
/// not negative and never decreasing; a key at the previous key's time replaces it.
fn channel_of<T: Copy + Finite>(
    file: &str,
    section: &str,
    ticks_per_second: f64,
    keys: impl ExactSizeIterator<Item = (f64, T)>,
) -> Result<Option<Channel<T>>, LoadError> {
    if keys.len() == 0 {
        return Ok(None);
    }
    let mut times: Vec<f32> = Vec::with_capacity(keys.len());
    let mut values: Vec<T> = Vec::with_capacity(keys.len());
    for (k, (tick, value)) in keys.enumerate() {
        let error = |kind, message: String| {
            LoadError::new(file, kind, message)
                .in_section(section)
                .at_record(format!("key {k}"))
        };
        let t = (tick / ticks_per_second) as f32;
        if !t.is_finite() || !value.finite() {
            return Err(error(ErrorKind::NonFinite, "key is not finite".to_string()));
        }
        if t < 0.0 {
            return Err(error(
                ErrorKind::Invalid,
                format!("key time {t} s is negative"),
            ));
        }
        match times.last() {
            Some(&prev) if t < prev => {
                return Err(error(
                    ErrorKind::Invalid,
                    format!("key time {t} s comes before the previous key's {prev} s"),
                ));
            }
            Some(&prev) if t == prev => {
                if let Some(last) = values.last_mut() {
                    *last = value;
                }
            }
            _ => {
                times.push(t);
                values.push(value);
            }
        }
    }
    Ok(Some(Channel {
        times,
        values,
        interpolation: Interpolation::Linear,
    }))
}

/// Key values that can be checked for NaN and infinity.
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

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(ticks: &[f64]) -> Vec<(f64, Vec3)> {
        ticks.iter().map(|&t| (t, Vec3::splat(t as f32))).collect()
    }

    #[test]
    fn ticks_become_seconds_and_a_repeated_time_keeps_the_later_key() {
        let c = channel_of(
            "f.x",
            "s",
            4800.0,
            keys(&[0.0, 2400.0, 2400.0, 4800.0]).into_iter(),
        )
        .expect("valid")
        .expect("keys");
        assert_eq!(c.times, [0.0, 0.5, 1.0]);
        assert_eq!(c.values[1], Vec3::splat(2400.0));
        assert!(
            channel_of("f.x", "s", 25.0, keys(&[]).into_iter())
                .expect("valid")
                .is_none()
        );
    }

    #[test]
    fn backwards_negative_and_infinite_times_are_errors() {
        for (ticks, kind) in [
            (vec![0.0, 2.0, 1.0], ErrorKind::Invalid),
            (vec![-1.0], ErrorKind::Invalid),
            (vec![f64::INFINITY], ErrorKind::NonFinite),
        ] {
            let err = channel_of("f.x", "s", 25.0, keys(&ticks).into_iter()).expect_err("bad");
            assert_eq!(err.kind, kind, "{ticks:?}: {err}");
        }
    }
}
