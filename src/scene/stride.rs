//! How fast a clip carries a character forward when it is played in place: measured from the
//! feet. While a foot is planted it is the lowest joint, and in a clip that treads in place it
//! slides backwards under the body at exactly the speed the body should move forwards; moving
//! the character at that speed plants the foot on the ground. Feet are the joints that move
//! vertices and stand near the ground in the bind pose: a skeleton may keep a joint nothing is
//! skinned to at ground level (robot.glb's `Bone`), and a long-armed character's hands may
//! swing lower than its feet (robot.glb's, running); either would be the lowest joint and hide
//! the steps. Measured once per clip, in the standing frame the crowd layout gives a model (+Y
//! up, facing +Z).

use super::basis::standing_basis;
use crate::anim::{Mat3x4, PoseScratch, SkinnedModel};

/// Samples per second of clip the stride is measured at.
const RATE: f32 = 60.0;
/// Below this speed (in model heights per second) a clip stands still: an idle's swaying
/// feet are not a walk.
const STANDING: f32 = 0.05;
/// How far above the lowest point of the clip (in model heights) a foot still counts as on
/// the ground.
pub(super) const CONTACT: f32 = 0.02;
/// The share of the time feet are planted that each of two feet must carry for a clip to be a
/// walk. A share of the planted time, not of the clip: a run plants each foot only briefly
/// (robot.glb's right foot for a thirtieth of its cycle, as the other swings low past it),
/// while a walk or run shares its contacts between two feet (three tenths or more each in the
/// assets; four feet a quarter each) and a jump or a shuffle on one foot leaves them all to one.
const ALTERNATE: f32 = 0.2;
/// The weight some vertex must give a joint for the joint to be a foot. Above 0 so that a
/// stray influence (rounding left by quantized or renormalized weights) does not make a joint
/// visible; a joint weighted this little moves no vertex by more than a twentieth of its own
/// motion. Far below any real foot's: the assets' lightest skinned joints (soldier.sdkmesh's
/// root and toe, soldier.m3d's first bone) give some vertex 0.07 to 0.18, a foot most of 1.
const SKINNED: f32 = 0.05;
/// How far above the lowest skinned joint of the bind pose (in model heights) a joint may stand
/// in it and still be a foot. Ankles and toes stand lower than this (the assets' ankles at 3% to
/// 8% above their toes), knees higher (a quadruped's fore knee at 11%, others 20% and up),
/// hands far higher.
const LOW: f32 = 0.1;

/// The forward speed (along +Z of the standing frame, in model units per second) at which clip
/// `clip` of `model` moves a character so that its planted feet stay put; 0 for a clip that
/// does not walk, a model without joints, or a clip index out of range.
pub fn stride_speed(model: &SkinnedModel, clip: usize) -> f32 {
    let Some(c) = model.clips().get(clip) else {
        return 0.0;
    };
    let joints = model.joint_count();
    let duration = c.duration();
    if joints == 0 || !(duration > 0.0) {
        return 0.0;
    }
    let basis = standing_basis(model);
    let height = super::footprint(model).1;
    // Each joint's bind position, carried by its palette, is where the joint is.
    let bind = bind_positions(model);
    let feet = feet(model, &basis, &bind, height);
    let samples = ((duration * RATE).ceil() as usize).max(2);
    let mut scratch = PoseScratch::new(joints);
    let mut palette = vec![Mat3x4::IDENTITY; joints];
    let mut lowest_at = |t: f32| {
        model.evaluate(clip, t, &mut scratch, &mut palette);
        palette
            .iter()
            .zip(&bind)
            .enumerate()
            .filter(|&(j, _)| feet[j])
            .map(|(j, (p, b))| (j, basis.transform_point3(p.transform_point3(*b))))
            .min_by(|a, b| a.1.y.total_cmp(&b.1.y))
    };
    let lowest: Vec<_> = (0..=samples)
        .map(|k| lowest_at(duration * k as f32 / samples as f32))
        .collect();
    // A foot is planted while it is the lowest foot and on the ground: within a sliver of
    // the lowest any foot reaches in the clip (a swinging foot can be lowest for a moment
    // while the other lands, higher up).
    let ground = lowest
        .iter()
        .flatten()
        .map(|(_, p)| p.y)
        .fold(f32::INFINITY, f32::min);
    let on_ground = |y: f32| y <= ground + CONTACT * height;
    // Which way the character faces along z. A planted foot moves backwards under the body
    // and a foot swinging forwards low over the ground must not count as planted; a stance
    // lasts longer than a swing, so the direction feet on the ground move in most of the time
    // is backwards.
    let forward_sign = {
        let (mut back, mut fore) = (0usize, 0usize);
        for pair in lowest.windows(2) {
            if let [Some((a, pa)), Some((b, pb))] = pair
                && a == b
                && on_ground(pa.y)
                && on_ground(pb.y)
            {
                if pb.z < pa.z {
                    back += 1;
                } else if pb.z > pa.z {
                    fore += 1;
                }
            }
        }
        if back >= fore { 1.0 } else { -1.0 }
    };
    let mut travelled = 0.0f32;
    let mut planted_time = 0.0f32;
    let mut planted_by_joint = vec![0.0f32; joints];
    for pair in lowest.windows(2) {
        if let [Some((a, pa)), Some((b, pb))] = pair
            && a == b
            && on_ground(pa.y)
            && on_ground(pb.y)
            && pb.z * forward_sign < pa.z * forward_sign
        {
            // The same foot stays planted, and slides back as the body goes on.
            travelled -= pb.z - pa.z;
            planted_time += duration / samples as f32;
            planted_by_joint[*a] += duration / samples as f32;
        }
    }
    if planted_time <= 0.0 || height <= 0.0 {
        return 0.0;
    }
    // Walking plants one foot, then the other: a clip in which fewer than two joints carry a
    // fifth of the planted time each (a jump, a shuffle on one foot) does not carry the
    // character anywhere.
    let planted_feet = planted_by_joint
        .iter()
        .filter(|&&t| t > 0.0 && t >= ALTERNATE * planted_time)
        .count();
    if planted_feet < 2 {
        return 0.0;
    }
    let speed = travelled / planted_time;
    if speed.abs() < STANDING * height {
        0.0
    } else {
        speed
    }
}

/// The joints of `model` that can be feet ([`stride_speed`] measures the stride from the
/// lowest of them): skinned joints near the ground in the bind pose, in joint order.
pub fn foot_joints(model: &SkinnedModel) -> Vec<usize> {
    let basis = standing_basis(model);
    let height = super::footprint(model).1;
    let bind = bind_positions(model);
    feet(model, &basis, &bind, height)
        .iter()
        .enumerate()
        .filter_map(|(j, &f)| f.then_some(j))
        .collect()
}

/// Each joint's position in the bind pose, in model space (the inverse of its offset carries
/// the origin there).
pub fn bind_positions(model: &SkinnedModel) -> Vec<glam::Vec3> {
    model
        .skeleton()
        .offsets()
        .iter()
        .map(|o| o.inverse().map_or(glam::Vec3::ZERO, |i| i.translation()))
        .collect()
}

/// Per joint, whether it can be a foot: it moves vertices (some vertex gives it more than
/// [`SKINNED`] of its weight), as only those are seen to tread, and it stands near the ground
/// in the bind pose (within [`LOW`] of the lowest such joint). For a mesh weighted to no joint
/// every joint counts as moving it, so that such a model still has feet.
pub(super) fn feet(
    model: &SkinnedModel,
    basis: &Mat3x4,
    bind: &[glam::Vec3],
    height: f32,
) -> Vec<bool> {
    let mut feet = vec![false; model.joint_count()];
    for v in &model.mesh().vertices {
        for (&j, &w) in v.joints.iter().zip(&v.weights) {
            if w > SKINNED
                && let Some(s) = feet.get_mut(usize::from(j))
            {
                *s = true;
            }
        }
    }
    if !feet.contains(&true) {
        feet.fill(true);
    }
    // Where each joint stands in the bind pose (its palette there is the identity only for
    // offsets consistent with the bind pose; CesiumMan's carry its mesh's turn to Y up).
    let joints = feet.len();
    let mut palette = vec![Mat3x4::IDENTITY; joints];
    model.bind_palette(&mut PoseScratch::new(joints), &mut palette);
    let standing_y = |j: usize| {
        basis
            .transform_point3(palette[j].transform_point3(bind[j]))
            .y
    };
    let lowest = (0..feet.len())
        .filter(|&j| feet[j])
        .map(standing_y)
        .fold(f32::INFINITY, f32::min);
    for (j, f) in feet.iter_mut().enumerate() {
        *f = *f && standing_y(j) <= lowest + LOW * height;
    }
    feet
}

#[cfg(test)]
mod tests {
    use glam::{Quat, Vec3};

    use super::*;
    use crate::anim::{
        AnimationClip, Channel, Joint, JointTrack, Mesh, Skeleton, Transform, Vertex,
    };

    /// How fast the generated feet slide back while planted, units per second.
    const SPEED: f32 = 1.2;

    fn at(x: f32, y: f32, z: f32) -> Transform {
        Transform::new(Vec3::new(x, y, z), Quat::IDENTITY, Vec3::ONE)
    }

    /// A model 2 units tall facing +Z: a joint `ground` at the origin, hips 1 up, a hand beside
    /// them 1.5 up, and two feet 0.05 up keyed as a walk (each planted for half a second,
    /// sliding back at [`SPEED`], then lifted and carried forward), all under `ground` as
    /// robot.glb's are under its `Bone`. The hips' vertex gives `ground` `ground_weight` of its
    /// weight. Clips: `walk`, and `walk_hand_low` with the hand held below the ground.
    fn walker(ground_weight: f32) -> SkinnedModel {
        let joints = vec![
            Joint::new("ground", None, at(0.0, 0.0, 0.0)),
            Joint::new("hips", Some(0), at(0.0, 1.0, 0.0)),
            Joint::new("foot_l", Some(0), at(0.2, 0.05, 0.0)),
            Joint::new("foot_r", Some(0), at(-0.2, 0.05, 0.0)),
            Joint::new("hand", Some(1), at(0.5, 0.5, 0.0)),
        ];
        let skeleton = Skeleton::with_derived_offsets(joints).expect("skeleton");
        let foot = |x: f32, times: Vec<f32>, keys: [(f32, f32); 4]| JointTrack {
            translation: Some(Channel::linear(
                times,
                keys.iter().map(|&(y, z)| Vec3::new(x, y, z)).collect(),
            )),
            ..JointTrack::default()
        };
        let (planted, lifted) = (0.05, 0.25);
        let tracks = |hand: JointTrack| {
            vec![
                JointTrack::default(),
                JointTrack::default(),
                foot(
                    0.2,
                    vec![0.0, 0.5, 0.75, 1.0],
                    [
                        (planted, 0.3),
                        (planted, -0.3),
                        (lifted, 0.0),
                        (planted, 0.3),
                    ],
                ),
                foot(
                    -0.2,
                    vec![0.0, 0.25, 0.5, 1.0],
                    [
                        (planted, -0.3),
                        (lifted, 0.0),
                        (planted, 0.3),
                        (planted, -0.3),
                    ],
                ),
                hand,
            ]
        };
        let hand_low = JointTrack {
            translation: Some(Channel::linear(vec![0.0], vec![Vec3::new(0.5, -1.2, 0.0)])),
            ..JointTrack::default()
        };
        let clips = vec![
            AnimationClip::new("walk", tracks(JointTrack::default()), &skeleton).expect("walk"),
            AnimationClip::new("walk_hand_low", tracks(hand_low), &skeleton).expect("hand low"),
        ];
        let vertex = |position: [f32; 3], joints: [u16; 4], weights: [f32; 4]| Vertex {
            position,
            normal: [0.0, 0.0, 1.0],
            joints,
            weights,
            ..Vertex::default()
        };
        let mesh = Mesh {
            vertices: vec![
                vertex(
                    [0.0, 2.0, 0.0],
                    [1, 0, 0, 0],
                    [1.0 - ground_weight, ground_weight, 0.0, 0.0],
                ),
                vertex([0.2, 0.0, 0.0], [2, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]),
                vertex([-0.2, 0.0, 0.0], [3, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]),
                vertex([0.5, 1.5, 0.0], [4, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]),
            ],
            indices: vec![0, 1, 2, 0, 2, 3],
            ..Mesh::default()
        };
        SkinnedModel::new("t", "gltf", skeleton, clips, mesh).expect("model")
    }

    #[test]
    fn a_joint_nothing_is_skinned_to_does_not_hide_the_feet() {
        // `ground` stays put below the feet: counted as a foot it would be planted all along
        // and never slide, so the walk would stand.
        for weight in [0.0, 0.02] {
            let model = walker(weight);
            let speed = stride_speed(&model, 0);
            assert!(
                (speed - SPEED).abs() < 0.02 * SPEED,
                "weight {weight}: {speed}"
            );
        }
        assert_eq!(stride_speed(&walker(1.0), 0), 0.0, "skinned, it is a foot");
    }

    #[test]
    fn a_hand_below_the_feet_does_not_hide_them() {
        let model = walker(0.0);
        let speed = stride_speed(&model, 1);
        assert!((speed - SPEED).abs() < 0.02 * SPEED, "{speed}");
    }
}
