//! Animation sets to clips: one clip per `AnimationSet` (an unnamed set is `clip{index}`),
//! key times in ticks converted at the file's `AnimTicksPerSecond` (4800, D3DX's default,
//! when it has none).
//!
//! Rotation, scale and position keys become linear channels on their own times; matrix keys
//! are decomposed into all three on the same times. Keys pass through the fold of the static
//! frames above their joint. A property with no keys keeps the joint's bind value. An
//! `Animation` of a frame that is not a joint (a leaf helper, the mesh's frame) cannot move
//! the skin and is dropped; one naming no frame is dropped with a warning.

use std::collections::HashSet;

use glam::{Mat4, Quat, Vec3};

use super::animation::{KeyKind, Keys};
use super::document::Document;
use super::reader::Result;
use super::skeleton::{Rig, decompose, rotation_key};
use crate::anim::{AnimationClip, Channel, JointTrack};
use crate::asset::budget::{Budget, cost, times};
use crate::asset::gltf::fold::Similarity;
use crate::asset::{ErrorKind, LoadError};

/// D3DX's tick rate for files without `AnimTicksPerSecond`.
pub const DEFAULT_TICKS_PER_SECOND: u32 = 4800;

/// Every set of `doc` as a clip of `rig`'s skeleton.
pub(super) fn read(
    file: &str,
    doc: &Document,
    rig: &Rig,
    budget: &mut Budget,
) -> Result<Vec<AnimationClip>> {
    let rate = f64::from(doc.ticks_per_second.unwrap_or(DEFAULT_TICKS_PER_SECOND));
    // Every clip holds a track per joint: many (even empty) sets times many joints could ask
    // for far more memory than the file's size justifies; charged before the first is built.
    let keys: usize = doc
        .sets
        .iter()
        .flat_map(|s| &s.animations)
        .flat_map(|a| &a.keys)
        .map(|k| k.times.len())
        .sum();
    let joints = rig.skeleton.len();
    budget
        .charge(
            times(doc.sets.len(), cost::clip(joints)).saturating_add(times(keys, cost::KEY)),
            || {
                format!(
                    "{} animation sets x {joints} joints of tracks",
                    doc.sets.len()
                )
            },
        )
        .map_err(|e| e.into_load_error(file, "AnimationSet"))?;
    let mut clips = Vec::with_capacity(doc.sets.len());
    let mut names = HashSet::new();
    let mut warned_missing = false;
    for (i, set) in doc.sets.iter().enumerate() {
        let name = set.name.clone().unwrap_or_else(|| format!("clip{i}"));
        let section = format!("AnimationSet '{}'", name.escape_debug());
        if !names.insert(name.clone()) {
            return Err(LoadError::new(
                file,
                ErrorKind::Invalid,
                "an earlier AnimationSet has the same name",
            )
            .in_section(section));
        }
        let mut tracks = vec![JointTrack::default(); rig.skeleton.len()];
        let mut driven = HashSet::new();
        for animation in &set.animations {
            let Some(frame) = doc.frame_named(&animation.target) else {
                if !warned_missing {
                    log::warn!(
                        "{file}: {}: drives the frame '{}', which does not exist; ignored",
                        animation.section,
                        animation.target.escape_debug()
                    );
                    warned_missing = true;
                }
                continue;
            };
            let Some(joint) = rig.frame_joint.get(frame).copied().flatten() else {
                continue;
            };
            if !driven.insert(joint) {
                log::warn!(
                    "{file}: {}: a second Animation of the same frame; the later one is used",
                    animation.section
                );
                tracks[joint] = JointTrack::default();
            }
            let fold = rig.fold.get(joint).copied().unwrap_or(Similarity::IDENTITY);
            for keys in &animation.keys {
                add_keys(&mut tracks[joint], keys, &fold).map_err(|message| {
                    LoadError::new(file, ErrorKind::Unsupported, message)
                        .in_section(animation.section.clone())
                })?;
            }
        }
        let clip = AnimationClip::from_ticks(name, tracks, rate, &rig.skeleton)
            .map_err(|e| LoadError::from_anim(file, &section, e))?;
        clips.push(clip);
    }
    Ok(clips)
}

/// Adds one `AnimationKey`'s channels to `track`, through `fold`.
fn add_keys(
    track: &mut JointTrack,
    keys: &Keys,
    fold: &Similarity,
) -> std::result::Result<(), String> {
    if keys.times.is_empty() {
        return Ok(());
    }
    let times = keys.times.clone();
    let values = keys.values.chunks_exact(keys.kind.width());
    match keys.kind {
        KeyKind::Rotation => {
            let q: Vec<Quat> = values
                .map(|v| match v {
                    &[w, x, y, z] => fold.rotation(rotation_key(w, x, y, z)),
                    _ => Quat::IDENTITY,
                })
                .collect();
            track.rotation = Some(Channel::linear(times, q));
        }
        KeyKind::Scale => {
            let s: Vec<Vec3> = values.map(|v| fold.scale(Vec3::from_slice(v))).collect();
            track.scale = Some(Channel::linear(times, s));
        }
        KeyKind::Position => {
            let t: Vec<Vec3> = values.map(|v| fold.point(Vec3::from_slice(v))).collect();
            track.translation = Some(Channel::linear(times, t));
        }
        KeyKind::Matrix => {
            let mut t = Vec::with_capacity(times.len());
            let mut r = Vec::with_capacity(times.len());
            let mut s = Vec::with_capacity(times.len());
            for (k, v) in values.enumerate() {
                let mut m = [0.0; 16];
                m.iter_mut().zip(v).for_each(|(d, s)| *d = *s);
                let key = decompose(&Mat4::from_cols_array(&m)).ok_or_else(|| {
                    format!("matrix key {k} has shear and cannot be decomposed into translation, rotation and scale")
                })?;
                let key = fold.apply(&key);
                t.push(Vec3::from(key.translation));
                r.push(key.rotation);
                s.push(Vec3::from(key.scale));
            }
            track.translation = Some(Channel::linear(times.clone(), t));
            track.rotation = Some(Channel::linear(times.clone(), r));
            track.scale = Some(Channel::linear(times, s));
        }
    }
    Ok(())
}
