//! The `AnimationClips` section: per clip, one block of keyframes per bone, each bone on its
//! own key times (the soldier's bones have 73 to 76 keys in the same clip).
//!
//! A keyframe is `Time: t Pos: x y z Scale: x y z Quat: x y z w`, relative to the parent; it
//! becomes linear translation, rotation and scale channels of that bone's [`JointTrack`]. A
//! bone block with no keys gets no channels, so the bone holds its bind pose.

use std::collections::HashSet;

use glam::{Quat, Vec3};

use super::layout;
use super::reader::{Reader, Result, nest, show};
use crate::anim::{AnimationClip, JointTrack, Skeleton, Transform};
use crate::asset::{ErrorKind, LoadError};

/// Reads `count` clips for `skeleton` (one bone block per joint, in file order).
pub(super) fn read(
    r: &mut Reader,
    count: usize,
    skeleton: &Skeleton,
) -> Result<Vec<AnimationClip>> {
    r.enter(super::ANIMATION_CLIPS)?;
    let mut clips: Vec<AnimationClip> = Vec::with_capacity(count);
    let mut names = HashSet::new();
    for c in 0..count {
        let clip = read_clip(r, c, skeleton)?;
        if !names.insert(clip.name().to_string()) {
            return Err(r
                .error(
                    ErrorKind::Invalid,
                    format_args!(
                        "a clip named '{}' comes earlier",
                        show(clip.name().as_bytes())
                    ),
                )
                .at_record(format!("clip {}", show(clip.name().as_bytes()))));
        }
        clips.push(clip);
    }
    r.end_of_records(count, "clips", |t| t == b"AnimationClip")?;
    Ok(clips)
}

fn read_clip(r: &mut Reader, c: usize, skeleton: &Skeleton) -> Result<AnimationClip> {
    let name = r
        .keyword("AnimationClip")
        .and_then(|()| r.text())
        .map_err(|e| e.at_record(format!("clip {c}")))?;
    let record = format!("clip {}", show(name.as_bytes()));
    r.keyword("{").map_err(|e| e.at_record(record.clone()))?;
    let mut tracks = Vec::with_capacity(skeleton.len());
    for b in 0..skeleton.len() {
        let track = read_bone(r, b).map_err(|e| nest(e, format!("{record} bone {b}")))?;
        tracks.push(track);
    }
    r.keyword("}").map_err(|e| e.at_record(record.clone()))?;
    // Checked once the clip is read: the error points at its closing brace.
    AnimationClip::new(name, tracks, skeleton).map_err(|e| {
        let e = LoadError::from_anim(r.file(), super::ANIMATION_CLIPS, e).at_record(record);
        super::at_line(e, r.line())
    })
}

/// One bone block: `BoneK #Keyframes: n { keys }`.
fn read_bone(r: &mut Reader, b: usize) -> Result<JointTrack> {
    r.label("Bone", b, "")?;
    r.keyword("#Keyframes:")?;
    let n = r.count()?;
    r.fits(n, layout::KEYFRAME, "keyframes")?;
    r.keyword("{")?;
    let mut times = Vec::with_capacity(n);
    let mut keys = Vec::with_capacity(n);
    for k in 0..n {
        let (time, key) =
            read_key(r, times.last().copied()).map_err(|e| e.at_record(format!("key {k}")))?;
        times.push(time);
        keys.push(key);
    }
    r.keyword("}")?;
    if n == 0 {
        return Ok(JointTrack::default());
    }
    Ok(JointTrack::from_keys(times, &keys))
}

/// One keyframe; `previous` is the time of the key before it.
#[inline]
fn read_key(r: &mut Reader, previous: Option<f32>) -> Result<(f32, Transform)> {
    r.keyword("Time:")?;
    let time = r.f32()?;
    if time < 0.0 {
        return Err(r.error(ErrorKind::Invalid, format_args!("time {time} is negative")));
    }
    if let Some(previous) = previous.filter(|&p| time <= p) {
        return Err(r.error(
            ErrorKind::Invalid,
            format_args!("time {time} does not come after the previous key's {previous}"),
        ));
    }
    r.keyword("Pos:")?;
    let translation = Vec3::from_array(r.floats()?);
    r.keyword("Scale:")?;
    let scale = Vec3::from_array(r.floats()?);
    r.keyword("Quat:")?;
    let rotation = Quat::from_array(r.floats()?);
    let length = rotation.length();
    if !(length > 1e-6 && length.is_finite()) {
        return Err(r.error(
            ErrorKind::Invalid,
            format_args!("the rotation quaternion has length {length}"),
        ));
    }
    Ok((time, Transform::new(translation, rotation, scale)))
}
