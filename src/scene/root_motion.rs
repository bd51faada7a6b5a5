//! Root motion: a clip in which the whole character travels over its cycle, carried by the
//! translation keys of its root joint (or of the topmost joints that carry the body, such as
//! an animated armature above the skin's joints). Played as it is, such a clip walks the
//! character away from its place and snaps it back when the clip loops, and measuring its
//! stride from the feet would add the feet's speed on top of the travel.
//!
//! [`play_in_place`] finds those clips ([`root_motion`]) and takes the travel out of them: the
//! carriers' translation keys lose the straight-line horizontal drift from the clip's first
//! pose to its last, in proportion to each key's time (from the channel's first key to its
//! last), so the clip treads in place and loops without a jump; the vertical bob and
//! everything else stay. The travel per cycle over the clip's duration is how fast the
//! character should move instead ([`RootMotion::speed`]). Clips without root motion are left
//! exactly as they were.
//!
//! Measured in the standing frame the crowd layout gives a model (+Y up, facing +Z), once at
//! load.

use glam::Vec3;

use super::basis::{footprint, standing_basis};
use crate::anim::{
    AnimError, AnimationClip, Channel, Interpolation, Mat3x4, SkinnedModel, Transform,
    local_to_model,
};

/// Below this horizontal travel per cycle (in model heights) a clip has no root motion: a
/// loop that does not quite close, or a sway of the hips, is not a walk.
const MEANINGFUL: f32 = 0.05;
/// How far, as a share of the body's travel, one joint's travel over the cycle may differ
/// from the body's (the mean over the joints that move vertices) for the body to travel as
/// one. A fall or a sit
/// moves the hips one way and leaves the feet (or moves them the other way): that is a pose
/// changing, not a character going somewhere, and it keeps its keys.
const TOGETHER: f32 = 0.25;

/// A joint whose translation keys carry a clip's travel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Carrier {
    /// The joint.
    pub joint: usize,
    /// The horizontal part of its travel over one cycle, in its parent's space (model space
    /// for a root): what [`in_place_clip`] takes out of its keys.
    pub drift: Vec3,
}

/// What root motion one clip has; see the module documentation.
#[derive(Clone, Debug, PartialEq)]
pub struct RootMotion {
    /// The clip's index in its model.
    pub clip: usize,
    /// The topmost joints whose translation keys carry the body (usually one: the root).
    pub carriers: Vec<Carrier>,
    /// How far the body travels over one cycle, horizontally in the standing frame (y = 0).
    pub travel: Vec3,
    /// The clip's duration in seconds (greater than 0).
    pub duration: f32,
}

impl RootMotion {
    /// The forward speed (along +Z of the standing frame, model units per second) to move the
    /// in-place clip at: the travel's forward part. A clip that travels sideways (a strafe)
    /// plays in place and moves on only as far as it goes forward, as walkers keep to their
    /// lanes and face along them; [`RootMotion::off_forward`] says how far off it goes.
    pub fn speed(&self) -> f32 {
        self.travel.z / self.duration
    }

    /// The angle in radians (0 to pi) between the travel and forward (+Z).
    pub fn off_forward(&self) -> f32 {
        self.travel.angle_between(Vec3::Z)
    }
}

/// The root motion of clip `clip` of `model`, `None` when it has none (or for a clip index
/// out of range, a model without joints or vertices).
pub fn root_motion(model: &SkinnedModel, clip: usize) -> Option<RootMotion> {
    detect(model, clip, &Body::of(model))
}

/// Clip `motion.clip` of `model` with the travel of `motion` (from [`root_motion`] on the
/// same model) taken out of its carriers' translation keys.
pub fn in_place_clip(
    model: &SkinnedModel,
    motion: &RootMotion,
) -> Result<AnimationClip, AnimError> {
    let clips = model.clips();
    let clip = clips.get(motion.clip).ok_or(AnimError::ClipIndex {
        index: motion.clip,
        count: clips.len(),
    })?;
    let mut tracks = clip.tracks().to_vec();
    for carrier in &motion.carriers {
        if let Some(channel) = tracks
            .get_mut(carrier.joint)
            .and_then(|t| t.translation.as_mut())
        {
            remove_drift(channel, carrier.drift);
        }
    }
    AnimationClip::new(clip.name(), tracks, model.skeleton())
}

/// `model` with every clip that has root motion played in place ([`in_place_clip`]), and what
/// each of those clips' root motion was, in clip order; `None` when no clip has any, so the
/// caller keeps the model it has.
pub fn play_in_place(
    model: &SkinnedModel,
) -> Result<Option<(SkinnedModel, Vec<RootMotion>)>, AnimError> {
    // Once per model, not once per clip: finding the ground skins the mesh.
    let body = Body::of(model);
    let motions: Vec<RootMotion> = (0..model.clips().len())
        .filter_map(|c| detect(model, c, &body))
        .collect();
    if motions.is_empty() {
        return Ok(None);
    }
    let mut in_place = model.clone();
    for motion in &motions {
        in_place.replace_clip(motion.clip, in_place_clip(model, motion)?)?;
    }
    Ok(Some((in_place, motions)))
}

/// What every clip of one model is measured against.
struct Body {
    /// The model's standing basis.
    basis: Mat3x4,
    /// Its height.
    height: f32,
    /// Per joint, whether it moves vertices. Only those make the body that has to travel as
    /// one: a static joint above the body (a file's armature or scene root) or an IK target
    /// beside it moves nothing anybody sees. Every joint, for a mesh bound to none.
    skins: Vec<bool>,
}

impl Body {
    fn of(model: &SkinnedModel) -> Self {
        let n = model.joint_count();
        let mut skins = vec![false; n];
        for v in &model.mesh().vertices {
            for (&j, &w) in v.joints.iter().zip(&v.weights) {
                if w != 0.0
                    && let Some(s) = skins.get_mut(usize::from(j))
                {
                    *s = true;
                }
            }
        }
        if !skins.contains(&true) {
            skins.fill(true);
        }
        Self {
            basis: standing_basis(model),
            height: footprint(model).1,
            skins,
        }
    }
}

/// [`root_motion`] with the model's [`Body`] already known.
fn detect(model: &SkinnedModel, clip: usize, body: &Body) -> Option<RootMotion> {
    let c = model.clips().get(clip)?;
    let n = model.joint_count();
    let duration = c.duration();
    let (basis, height) = (&body.basis, body.height);
    if n == 0 || body.skins.len() != n || !(duration > 0.0) || !(height > 0.0) {
        return None;
    }
    let skeleton = model.skeleton();
    // The first and the last pose of the cycle: the loop jumps from one to the other.
    let pose_at = |t: f32| {
        let mut locals = vec![Transform::IDENTITY; n];
        c.sample(t, &mut locals);
        let mut to_model = vec![Mat3x4::IDENTITY; n];
        local_to_model(skeleton, &locals, &mut to_model);
        (locals, to_model)
    };
    let (first_locals, first) = pose_at(0.0);
    let (last_locals, last) = pose_at(duration);
    let travels: Vec<Vec3> = (0..n)
        .filter(|&j| body.skins[j])
        .map(|j| horizontal_in(basis, last[j].translation() - first[j].translation()))
        .collect();
    let travel = travels.iter().sum::<Vec3>() / travels.len() as f32;
    let reach = travel.length();
    if !(reach > MEANINGFUL * height) {
        return None;
    }
    let tolerance = TOGETHER * reach;
    if travels.iter().any(|t| (*t - travel).length() > tolerance) {
        return None;
    }
    // The topmost joints whose own translation keys move them with the body carry it; their
    // descendants ride along.
    let mut carried = vec![false; n];
    let mut carriers = Vec::new();
    for j in 0..n {
        let parent = skeleton.parent(j);
        if parent.is_some_and(|p| carried[p]) {
            carried[j] = true;
            continue;
        }
        if c.tracks()[j].translation.is_none() {
            continue;
        }
        // The joint's local travel, seen through its parent's frame at the start of the cycle
        // (the parents of a carrier do not travel, or they would carry it).
        let frame = basis.mul(&parent.map_or(Mat3x4::IDENTITY, |p| first[p]));
        let local = Vec3::from(last_locals[j].translation - first_locals[j].translation);
        let own = horizontal_in(&frame, local);
        if (own - travel).length() > tolerance {
            continue;
        }
        // Back into the parent's space: the part of the local travel that is horizontal in the
        // standing frame. A singular frame cannot carry anything.
        let Some(back) = frame.inverse() else {
            continue;
        };
        carried[j] = true;
        carriers.push(Carrier {
            joint: j,
            drift: back.transform_vector3(own),
        });
    }
    // A joint of the body under no carrier (its travel comes from a turning parent, or is
    // split across several levels of keys) would still travel after the drift is taken out:
    // such a clip is not one this can put in place.
    if carried.iter().zip(&body.skins).any(|(&c, &s)| s && !c) {
        return None;
    }
    Some(RootMotion {
        clip,
        carriers,
        travel,
        duration,
    })
}

/// The horizontal part of `d` (a direction in a frame that `frame` takes to the standing frame),
/// in the standing frame.
fn horizontal_in(frame: &Mat3x4, d: Vec3) -> Vec3 {
    let d = frame.transform_vector3(d);
    Vec3::new(d.x, 0.0, d.z)
}

/// Takes the straight-line `drift` out of `channel`: each key loses the share of it that the
/// time since the first key is of the time to the last, so the first and the last key agree
/// and anything else the keys do stays. The sampler holds the first key before it and the
/// last after it, so the drift is spread over the keyed span alone: spreading it over the
/// whole clip would leave a jump of the held stretch's share at the loop. Cubic-spline
/// tangents are slopes per second, so the drift's slope comes off each of them.
fn remove_drift(channel: &mut Channel<Vec3>, drift: Vec3) {
    let (Some(&first), Some(&last)) = (channel.times.first(), channel.times.last()) else {
        return;
    };
    if !(last > first) {
        return;
    }
    let rate = drift / (last - first);
    let cubic = channel.interpolation == Interpolation::CubicSpline;
    for (k, &t) in channel.times.iter().enumerate() {
        let gone = rate * (t - first);
        if cubic {
            if let Some([tangent_in, value, tangent_out]) = channel.values.get_mut(3 * k..3 * k + 3)
            {
                *tangent_in -= rate;
                *value -= gone;
                *tangent_out -= rate;
            }
        } else if let Some(value) = channel.values.get_mut(k) {
            *value -= gone;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::f32::consts::FRAC_PI_2;

    use glam::Quat;

    use super::*;
    use crate::anim::{Joint, JointTrack, Mesh, PoseScratch, Skeleton, Vertex};

    /// How fast the generated walks travel, units per second.
    const SPEED: f32 = 1.5;

    fn at(translation: Vec3) -> Transform {
        Transform::new(translation, Quat::IDENTITY, Vec3::ONE)
    }

    /// A model 2 units tall: one vertex bound to each joint in `skinned`, at its position.
    fn build_model(
        joints: Vec<Joint>,
        skinned: [(usize, [f32; 3]); 3],
        clips: impl FnOnce(&Skeleton) -> Vec<AnimationClip>,
    ) -> SkinnedModel {
        let skeleton = Skeleton::with_derived_offsets(joints).expect("skeleton");
        let clips = clips(&skeleton);
        let vertex = |(j, position): (usize, [f32; 3])| Vertex {
            position,
            normal: [0.0, 0.0, 1.0],
            joints: [j as u16, 0, 0, 0],
            weights: [1.0, 0.0, 0.0, 0.0],
            ..Vertex::default()
        };
        let mesh = Mesh {
            vertices: skinned.map(vertex).to_vec(),
            indices: vec![0, 1, 2],
            ..Mesh::default()
        };
        SkinnedModel::new("t", "gltf", skeleton, clips, mesh).expect("model")
    }

    /// A leg swinging about X over one second.
    fn swing() -> JointTrack {
        JointTrack {
            rotation: Some(Channel::linear(
                vec![0.0, 0.5, 1.0],
                [0.4, -0.4, 0.4].map(Quat::from_rotation_x).to_vec(),
            )),
            ..JointTrack::default()
        }
    }

    /// Hips 1 unit up with a leg below them; clips: `walk` (the hips travel +Z at [`SPEED`],
    /// bobbing), `idle` (they sway and come back), `walk_cubic` (the walk as a cubic spline).
    fn walker() -> SkinnedModel {
        let joints = vec![
            Joint::new("hips", None, at(Vec3::Y)),
            Joint::new("leg", Some(0), at(Vec3::NEG_Y)),
        ];
        let skinned = [
            (0, [-0.2, 2.0, 0.0]),
            (0, [0.2, 2.0, 0.0]),
            (1, [0.0, 0.0, 0.0]),
        ];
        build_model(joints, skinned, |skeleton| {
            let times = vec![0.0, 0.25, 0.5, 0.75, 1.0];
            let walk = times
                .iter()
                .enumerate()
                .map(|(k, &t)| Vec3::new(0.0, 1.0 + 0.05 * (k % 2) as f32, SPEED * t))
                .collect();
            let sway = vec![
                Vec3::new(0.01, 1.0, 0.0),
                Vec3::new(-0.01, 1.01, 0.005),
                Vec3::new(0.01, 1.0, 0.0),
            ];
            let cubic = [0.0f32, 0.5, 1.0]
                .iter()
                .enumerate()
                .flat_map(|(k, &t)| {
                    let slope = Vec3::new(0.0, 0.0, SPEED);
                    [
                        slope,
                        Vec3::new(0.0, 1.0 + 0.05 * (k % 2) as f32, SPEED * t),
                        slope,
                    ]
                })
                .collect();
            let hips = |channel| JointTrack {
                translation: Some(channel),
                ..JointTrack::default()
            };
            let clip = |name, channel| {
                AnimationClip::new(name, vec![hips(channel), swing()], skeleton).expect(name)
            };
            vec![
                clip("walk", Channel::linear(times, walk)),
                clip("idle", Channel::linear(vec![0.0, 0.5, 1.0], sway)),
                clip(
                    "walk_cubic",
                    Channel {
                        times: vec![0.0, 0.5, 1.0],
                        values: cubic,
                        interpolation: Interpolation::CubicSpline,
                    },
                ),
            ]
        })
    }

    fn locals(model: &SkinnedModel, clip: usize, t: f32) -> Vec<Transform> {
        let mut out = vec![Transform::IDENTITY; model.joint_count()];
        model.clips()[clip].sample(t, &mut out);
        out
    }

    fn palette(model: &SkinnedModel, clip: usize, t: f32) -> Vec<Mat3x4> {
        let n = model.joint_count();
        let mut out = vec![Mat3x4::IDENTITY; n];
        model.evaluate(clip, t, &mut PoseScratch::new(n), &mut out);
        out
    }

    #[test]
    fn a_travelling_root_is_root_motion_at_its_speed() {
        let model = walker();
        for clip in ["walk", "walk_cubic"] {
            let index = model.clip_index(clip).expect("clip");
            let motion = root_motion(&model, index).expect("root motion");
            assert!(
                (motion.speed() - SPEED).abs() < 0.01 * SPEED,
                "{clip}: {}",
                motion.speed()
            );
            assert!(motion.off_forward() < 1e-3, "{clip}");
            assert_eq!(motion.carriers.len(), 1, "{clip}");
            assert_eq!(motion.carriers[0].joint, 0, "{clip}: the hips carry it");
        }
        let idle = model.clip_index("idle").expect("idle");
        assert_eq!(root_motion(&model, idle), None, "a sway is not a walk");
    }

    #[test]
    fn the_in_place_clip_keeps_its_bob_and_loses_its_drift() {
        let model = walker();
        let (in_place, motions) = play_in_place(&model).expect("in place").expect("found");
        let found: Vec<usize> = motions.iter().map(|m| m.clip).collect();
        assert_eq!(found, [0, 2], "walk and walk_cubic");
        for &clip in &found {
            let start = locals(&in_place, clip, 0.0)[0].translation;
            for k in 0..=100 {
                let t = k as f32 / 100.0;
                let (was, now) = (locals(&model, clip, t)[0], locals(&in_place, clip, t)[0]);
                assert!(
                    (now.translation.x - start.x).abs() < 1e-5
                        && (now.translation.z - start.z).abs() < 1e-5,
                    "clip {clip} at {t}: {now:?} drifted from {start:?}"
                );
                assert!(
                    (now.translation.y - was.translation.y).abs() < 1e-6,
                    "clip {clip} at {t}: the bob changed"
                );
                assert_eq!(now.rotation, was.rotation, "clip {clip} at {t}");
            }
        }
    }

    #[test]
    fn clips_without_root_motion_keep_their_palettes_bit_for_bit() {
        let model = walker();
        let (in_place, _) = play_in_place(&model).expect("in place").expect("found");
        let idle = model.clip_index("idle").expect("idle");
        for k in 0..=60 {
            let t = k as f32 / 60.0;
            assert_eq!(palette(&model, idle, t), palette(&in_place, idle, t), "{t}");
        }
        // A model with no clip to put in place stays the model it was.
        let standing = build_model(
            vec![Joint::new("hips", None, at(Vec3::Y))],
            [
                (0, [-0.2, 2.0, 0.0]),
                (0, [0.2, 2.0, 0.0]),
                (0, [0.0, 0.0, 0.0]),
            ],
            |_| Vec::new(),
        );
        assert!(play_in_place(&standing).expect("in place").is_none());
    }

    #[test]
    fn a_clip_is_replaced_only_by_one_that_fits() {
        let mut model = walker();
        let walk = model.clips()[0].clone();
        assert!(matches!(
            model.replace_clip(3, walk.clone()),
            Err(AnimError::ClipIndex { index: 3, count: 3 })
        ));
        let skeleton = Skeleton::with_derived_offsets(vec![Joint::new("one", None, at(Vec3::Y))])
            .expect("skeleton");
        let other = AnimationClip::new("other", vec![JointTrack::default()], &skeleton)
            .expect("a clip of one joint");
        assert!(matches!(
            model.replace_clip(1, other),
            Err(AnimError::TrackCount { .. })
        ));
        assert_eq!(model.clips()[1].name(), "idle", "unchanged on error");
        let idle = model.replace_clip(1, walk).expect("fits");
        assert_eq!(idle.name(), "idle");
        assert_eq!(model.clips()[1].name(), "walk");
    }

    #[test]
    fn a_turned_armature_above_the_hips_is_seen_through() {
        // The armature turns the hips' +X to the model's +Z and holds still; the hips carry
        // the travel along their own +X.
        let joints = vec![
            Joint::new(
                "armature",
                None,
                Transform::new(Vec3::ZERO, Quat::from_rotation_y(-FRAC_PI_2), Vec3::ONE),
            ),
            Joint::new("hips", Some(0), at(Vec3::Y)),
            Joint::new("leg", Some(1), at(Vec3::NEG_Y)),
        ];
        let skinned = [
            (1, [-0.2, 2.0, 0.0]),
            (1, [0.2, 2.0, 0.0]),
            (2, [0.0, 0.0, 0.0]),
        ];
        let model = build_model(joints, skinned, |skeleton| {
            let still = JointTrack {
                translation: Some(Channel::linear(vec![0.0, 1.0], vec![Vec3::ZERO; 2])),
                ..JointTrack::default()
            };
            let hips = JointTrack {
                translation: Some(Channel::linear(
                    vec![0.0, 1.0],
                    vec![Vec3::Y, Vec3::new(SPEED, 1.0, 0.0)],
                )),
                ..JointTrack::default()
            };
            vec![AnimationClip::new("walk", vec![still, hips, swing()], skeleton).expect("walk")]
        });
        let motion = root_motion(&model, 0).expect("root motion");
        assert!((motion.speed() - SPEED).abs() < 0.01 * SPEED, "{motion:?}");
        assert_eq!(motion.carriers.len(), 1);
        assert_eq!(motion.carriers[0].joint, 1);
        assert!(
            motion.carriers[0]
                .drift
                .abs_diff_eq(Vec3::new(SPEED, 0.0, 0.0), 1e-5)
        );
        let (in_place, _) = play_in_place(&model).expect("in place").expect("found");
        let hips = |t: f32| palette(&in_place, 0, t)[1].translation();
        assert!(hips(1.0).abs_diff_eq(hips(0.0), 1e-5), "{:?}", hips(1.0));
    }

    #[test]
    fn a_body_that_does_not_travel_as_one_is_not_root_motion() {
        // The hips go forward and the foot stays where it was: a fall, not a walk.
        let joints = vec![
            Joint::new("hips", None, at(Vec3::Y)),
            Joint::new("foot", None, at(Vec3::ZERO)),
        ];
        let skinned = [
            (0, [-0.2, 2.0, 0.0]),
            (0, [0.2, 2.0, 0.0]),
            (1, [0.0, 0.0, 0.0]),
        ];
        let model = build_model(joints, skinned, |skeleton| {
            let hips = JointTrack {
                translation: Some(Channel::linear(
                    vec![0.0, 1.0],
                    vec![Vec3::Y, Vec3::new(0.0, 0.2, 1.0)],
                )),
                ..JointTrack::default()
            };
            let foot = JointTrack::default();
            vec![AnimationClip::new("fall", vec![hips, foot], skeleton).expect("fall")]
        });
        assert_eq!(root_motion(&model, 0), None);
        assert!(play_in_place(&model).expect("in place").is_none());
    }
}
