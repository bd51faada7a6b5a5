//! The `.sdkmesh_anim` file: one clip, bound to the model's frames by name.
//!
//! Layout: a 40-byte header (`Version u32` = 101, `IsBigEndian u8` padded, `FrameTransformType`,
//! `NumFrames`, `NumAnimationKeys`, `AnimationFPS` (u32), `AnimationDataSize`,
//! `AnimationDataOffset` (u64)); at `AnimationDataOffset`, `NumFrames` tracks of 112 bytes
//! (`FrameName char[100]`, padding, `DataOffset u64`); each track's `NumAnimationKeys` keys of
//! 40 bytes (translation 3 f32, orientation quaternion x y z w, scale 3 f32) start at
//! `DataOffset` counted from the end of the header (the SDK loaders add the header's size).
//!
//! Key `k` sits at `k / AnimationFPS` seconds; throng interpolates between keys (lerp, slerp).
//! An all-zero quaternion means identity (as the SDK's players read it).
//!
//! Tracks bind as the DirectX Tool Kit binds them (`AnimationSDKMESH::Bind`): each track, in
//! file order, drives the *first* frame whose name matches its own ignoring ASCII case
//! (`_wcsicmp`), so of two tracks that match one frame the later wins, and a later frame that
//! merely shares the name keeps its bind pose (the soldier's second `Head`, a child of `skin`
//! that no mesh's bone list names). Frames without a track keep their bind pose too.

use std::collections::HashMap;

use glam::{Quat, Vec3};

use super::bytes::{Bytes, Result, f32s_at, name_at, show, u8_at, u32_at, u64_at};
use crate::anim::{AnimationClip, JointTrack, Skeleton, Transform};
use crate::asset::budget::{Budget, cost};
use crate::asset::{ErrorKind, LoadError};

const HEADER_SIZE: usize = 40;
const TRACK_SIZE: usize = 112;
const KEY_SIZE: usize = 40;
const NAME_LEN: usize = 100;
const VERSION: u32 = 101;

/// Reads the animation file `b` into a clip named `clip_name` for `skeleton`, whose joints
/// came from frames named `frame_names` (file order).
pub(super) fn read(
    b: &Bytes,
    clip_name: &str,
    frame_names: &[String],
    skeleton: &Skeleton,
    budget: &mut Budget,
) -> Result<AnimationClip> {
    let header = b.table(super::ANIM_HEADER, 0, 1, HEADER_SIZE, "header")?;
    let fail = |kind, why: String| b.error(super::ANIM_HEADER, kind, why);
    let version = u32_at(header, 0);
    if version != VERSION {
        return Err(fail(
            ErrorKind::Unsupported,
            format!("version {version}; only version {VERSION} is read"),
        ));
    }
    if u8_at(header, 4) != 0 {
        return Err(fail(
            ErrorKind::Unsupported,
            "the file is big-endian; only little-endian files are read".into(),
        ));
    }
    let (tracks, keys, fps) = (u32_at(header, 12), u32_at(header, 16), u32_at(header, 20));
    if keys == 0 {
        return Err(fail(
            ErrorKind::CountMismatch,
            "the animation has no keys".into(),
        ));
    }
    // Every track holds `keys` keys, so even one must fit in the file; checked before any
    // allocation sized by the count (a file without tracks still has its key count read).
    if u64::from(keys) * KEY_SIZE as u64 > b.data.len() as u64 {
        return Err(fail(
            ErrorKind::TooLarge,
            format!(
                "{keys} keys of {KEY_SIZE} bytes per track cannot fit in the {}-byte file",
                b.data.len()
            ),
        ));
    }
    if fps == 0 {
        return Err(fail(ErrorKind::Invalid, "AnimationFPS is 0".into()));
    }
    let table = b.table(
        super::TRACKS,
        u64_at(header, 32),
        u64::from(tracks),
        TRACK_SIZE,
        "tracks",
    )?;

    // The first frame of each name, ignoring ASCII case; then each track, in file order,
    // binds the first frame of its name (a later track replacing an earlier one).
    let mut first_frame: HashMap<String, usize> = HashMap::new();
    for (f, name) in frame_names.iter().enumerate() {
        first_frame.entry(name.to_ascii_lowercase()).or_insert(f);
    }
    let mut frame_track: Vec<Option<(usize, &[u8])>> = vec![None; frame_names.len()];
    for (i, t) in table.chunks_exact(TRACK_SIZE).enumerate() {
        let name = name_at(t, 0, NAME_LEN);
        let record = format!("track {i} ({})", show(&name));
        let offset = u64_at(t, 104).saturating_add(HEADER_SIZE as u64);
        let data = b
            .table(super::TRACKS, offset, u64::from(keys), KEY_SIZE, "keys")
            .map_err(|e| e.at_record(record))?;
        if let Some(&f) = first_frame.get(&name.to_ascii_lowercase()) {
            frame_track[f] = Some((i, data));
        }
    }

    // Each bound frame gets a track of `keys` keys for translation, rotation and scale.
    let bound = frame_track.iter().flatten().count() as u64;
    let channels = 3 * bound.max(1);
    budget
        .charge(
            cost::clip(skeleton.len()).saturating_add(
                channels
                    .saturating_mul(u64::from(keys))
                    .saturating_mul(cost::KEY),
            ),
            || format!("{bound} tracks of {keys} keys"),
        )
        .map_err(|e| fail(ErrorKind::TooLarge, e.to_string()))?;
    let times: Vec<f32> = (0..keys)
        .map(|k| (f64::from(k) / f64::from(fps)) as f32)
        .collect();
    let mut joint_tracks = Vec::with_capacity(skeleton.len());
    for j in 0..skeleton.len() {
        let frame = skeleton.source_index(j);
        let Some(&Some((i, data))) = frame_track.get(frame) else {
            joint_tracks.push(JointTrack::default());
            continue;
        };
        let keys = decode_keys(data).map_err(|(k, why)| {
            let name = frame_names.get(frame).map_or("", String::as_str);
            b.error(super::TRACKS, ErrorKind::NonFinite, why)
                .at_record(format!("track {i} ({}) key {k}", show(name)))
        })?;
        joint_tracks.push(JointTrack::from_keys(times.clone(), &keys));
    }
    AnimationClip::new(clip_name, joint_tracks, skeleton)
        .map_err(|e| LoadError::from_anim(b.file, super::TRACKS, e))
}

/// The keys of one track, or the first bad key and why.
fn decode_keys(data: &[u8]) -> std::result::Result<Vec<Transform>, (usize, String)> {
    data.chunks_exact(KEY_SIZE)
        .enumerate()
        .map(|(k, key)| {
            let values: [f32; 10] = f32s_at(key, 0);
            if values.iter().any(|x| !x.is_finite()) {
                return Err((k, "a value is not finite".to_string()));
            }
            let [tx, ty, tz, qx, qy, qz, qw, sx, sy, sz] = values;
            let q = Quat::from_xyzw(qx, qy, qz, qw);
            let rotation = if q == Quat::from_xyzw(0.0, 0.0, 0.0, 0.0) {
                Quat::IDENTITY
            } else {
                q
            };
            Ok(Transform::new(
                Vec3::new(tx, ty, tz),
                rotation,
                Vec3::new(sx, sy, sz),
            ))
        })
        .collect()
}
