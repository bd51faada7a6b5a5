//! The built-in character's clips, `idle`, `walk` and `run`, generated from periodic joint-angle
//! curves and sampled at 30 keys per second. The first and last keys are computed from the same
//! phase, so every clip loops without a seam. Each key's pelvis height is chosen so that the
//! lowest point of either sole touches y = 0: the character walks in place on the ground.

use std::f32::consts::TAU;

use glam::{Quat, Vec3};

use super::skeleton::j;
use crate::anim::{
    AnimError, AnimationClip, JointTrack, Mat3x4, PoseScratch, Skeleton, Transform,
    palette_from_locals,
};

/// Keys per second of the generated clips.
const KEY_RATE: f32 = 30.0;

/// Parameters of a locomotion cycle (walk and run share the curves).
struct Gait {
    /// Cycle length in keys (at [`KEY_RATE`]).
    keys: usize,
    /// Hip flexion amplitude and its forward offset, degrees.
    hip_amp: f32,
    hip_offset: f32,
    /// Fraction of the cycle a foot is on the ground.
    stance: f32,
    /// Knee flexion peaks during stance (loading) and swing, degrees.
    knee_load: f32,
    knee_swing: f32,
    /// Arm swing amplitude and elbow bend, degrees.
    arm_swing: f32,
    elbow: f32,
    /// Forward lean of the spine, degrees.
    lean: f32,
    /// Sideways sway of the pelvis, metres, and its twist, degrees.
    sway: f32,
    twist: f32,
}

const WALK: Gait = Gait {
    keys: 30,
    hip_amp: 24.0,
    hip_offset: 4.0,
    stance: 0.6,
    knee_load: 12.0,
    knee_swing: 58.0,
    arm_swing: 18.0,
    elbow: 14.0,
    lean: 3.0,
    sway: 0.02,
    twist: 4.0,
};

const RUN: Gait = Gait {
    keys: 20,
    hip_amp: 34.0,
    hip_offset: 12.0,
    stance: 0.4,
    knee_load: 30.0,
    knee_swing: 100.0,
    arm_swing: 32.0,
    elbow: 80.0,
    lean: 10.0,
    sway: 0.012,
    twist: 7.0,
};

const IDLE_KEYS: usize = 90;

/// Builds `idle`, `walk` and `run` for the built-in skeleton.
pub fn clips(skeleton: &Skeleton) -> Result<Vec<AnimationClip>, AnimError> {
    Ok(vec![
        clip("idle", IDLE_KEYS, skeleton, idle_pose)?,
        clip("walk", WALK.keys, skeleton, |p, s| gait_pose(&WALK, p, s))?,
        clip("run", RUN.keys, skeleton, |p, s| gait_pose(&RUN, p, s))?,
    ])
}

/// Samples `pose(phase)` at every key, grounds it, and stores one shared timeline per joint.
fn clip(
    name: &str,
    keys: usize,
    skeleton: &Skeleton,
    pose: impl Fn(f32, &Skeleton) -> Vec<Transform>,
) -> Result<AnimationClip, AnimError> {
    let times: Vec<f32> = (0..=keys).map(|k| k as f32 / KEY_RATE).collect();
    let mut scratch = PoseScratch::new(skeleton.len());
    let mut palette = vec![Mat3x4::IDENTITY; skeleton.len()];
    let poses: Vec<Vec<Transform>> = (0..=keys)
        .map(|k| {
            // The last key repeats the first phase exactly: a seamless loop.
            let mut locals = pose((k % keys) as f32 / keys as f32, skeleton);
            palette_from_locals(skeleton, &locals, &mut scratch, &mut palette);
            let lowest = lowest_sole_point(scratch.to_root(skeleton.len()));
            locals[j::PELVIS as usize].translation.y -= lowest;
            locals
        })
        .collect();
    let tracks = (0..skeleton.len())
        .map(|joint| {
            let keys: Vec<Transform> = poses.iter().map(|p| p[joint]).collect();
            JointTrack::from_keys(times.clone(), &keys)
        })
        .collect();
    AnimationClip::new(name, tracks, skeleton)
}

/// Height of the lowest sole point (heel, ball, toe tip of both feet) for the given to-root
/// transforms. The points are in their joint's local frame (bind rotations are identity).
fn lowest_sole_point(to_root: &[Mat3x4]) -> f32 {
    let points = [
        (j::FOOT_L, Vec3::new(0.0, -0.10, -0.07)),
        (j::TOE_L, Vec3::new(0.0, -0.04, 0.0)),
        (j::TOE_L, Vec3::new(0.0, -0.04, 0.07)),
        (j::FOOT_R, Vec3::new(0.0, -0.10, -0.07)),
        (j::TOE_R, Vec3::new(0.0, -0.04, 0.0)),
        (j::TOE_R, Vec3::new(0.0, -0.04, 0.07)),
    ];
    points
        .iter()
        .map(|&(joint, p)| to_root[joint as usize].transform_point3(p).y)
        .fold(f32::INFINITY, f32::min)
}

fn rx(deg: f32) -> Quat {
    Quat::from_rotation_x(deg.to_radians())
}
fn ry(deg: f32) -> Quat {
    Quat::from_rotation_y(deg.to_radians())
}
fn rz(deg: f32) -> Quat {
    Quat::from_rotation_z(deg.to_radians())
}

fn bind_locals(skeleton: &Skeleton) -> Vec<Transform> {
    skeleton.bind_pose().to_vec()
}

/// Leg angles (hip flexion, knee flexion, ankle) in degrees at `phase`, where phase 0 is this
/// leg's heel strike. Positive hip flexion swings the leg forward; the ankle keeps the foot
/// flat on the ground through stance and lifts the toe during swing.
fn leg_angles(g: &Gait, phase: f32) -> (f32, f32, f32) {
    let hip = g.hip_amp * (TAU * phase).cos() + g.hip_offset;
    let (knee, swing) = if phase < g.stance {
        (
            g.knee_load * (std::f32::consts::PI * phase / g.stance).sin(),
            0.0,
        )
    } else {
        let s = (std::f32::consts::PI * (phase - g.stance) / (1.0 - g.stance)).sin();
        (g.knee_swing * s, s)
    };
    // Rotations about x add up along the leg: -hip + knee + ankle is the foot's pitch.
    let ankle = hip - knee - 12.0 * swing;
    (hip, knee, ankle)
}

fn set_leg(locals: &mut [Transform], thigh: u16, (hip, knee, ankle): (f32, f32, f32), roll: f32) {
    let t = thigh as usize;
    locals[t].rotation = rz(roll) * rx(-hip);
    locals[t + 1].rotation = rx(knee);
    locals[t + 2].rotation = rx(ankle) * rz(-roll);
}

fn set_arm(locals: &mut [Transform], upperarm: u16, swing: f32, elbow: f32) {
    let u = upperarm as usize;
    // The rest pose already holds the arm out from the body; the swing is about x alone.
    locals[u].rotation = rx(swing);
    locals[u + 1].rotation = rx(-elbow);
}

fn gait_pose(g: &Gait, phase: f32, skeleton: &Skeleton) -> Vec<Transform> {
    let mut l = bind_locals(skeleton);
    let c = (TAU * phase).cos();
    let s = (TAU * phase).sin();
    l[j::PELVIS as usize].translation.x += g.sway * s;
    l[j::PELVIS as usize].rotation = ry(-g.twist * c);
    l[j::SPINE_01 as usize].rotation = rx(g.lean);
    l[j::SPINE_02 as usize].rotation = ry(0.6 * g.twist * c);
    l[j::SPINE_03 as usize].rotation = ry(0.6 * g.twist * c) * rx(1.0 * s);
    l[j::HEAD as usize].rotation = rx(-g.lean) * ry(-0.2 * g.twist * c);
    // Hips roll against the sway so the feet stay under the body.
    let roll = -(g.sway * s / 0.85).asin().to_degrees();
    set_leg(&mut l, j::THIGH_L, leg_angles(g, phase), roll);
    set_leg(
        &mut l,
        j::THIGH_R,
        leg_angles(g, (phase + 0.5).fract()),
        roll,
    );
    // Arms swing against the leg on the same side; elbows bend more on the forward swing.
    let left = g.arm_swing * c;
    set_arm(
        &mut l,
        j::UPPERARM_L,
        left,
        g.elbow + 0.5 * g.elbow * (-c).max(0.0),
    );
    set_arm(
        &mut l,
        j::UPPERARM_R,
        -left,
        g.elbow + 0.5 * g.elbow * c.max(0.0),
    );
    l
}

fn idle_pose(phase: f32, skeleton: &Skeleton) -> Vec<Transform> {
    let mut l = bind_locals(skeleton);
    let s = (TAU * phase).sin();
    let breath = (2.0 * TAU * phase).sin();
    let sway = 0.015 * s;
    l[j::PELVIS as usize].translation.x += sway;
    l[j::SPINE_02 as usize].rotation = rx(1.5 * breath);
    l[j::SPINE_03 as usize].rotation = rx(1.0 * breath) * rz(-2.0 * s);
    l[j::CLAVICLE_L as usize].rotation = rz(1.5 * breath);
    l[j::CLAVICLE_R as usize].rotation = rz(-1.5 * breath);
    l[j::HEAD as usize].rotation = ry(8.0 * (TAU * phase + 1.0).sin()) * rx(2.0 * s);
    let roll = -(sway / 0.85).asin().to_degrees();
    let stand = |hip: f32, knee: f32| (hip, knee, hip - knee);
    set_leg(
        &mut l,
        j::THIGH_L,
        stand(2.0 + 1.5 * s, 4.0 + 3.0 * s),
        roll,
    );
    set_leg(
        &mut l,
        j::THIGH_R,
        stand(2.0 - 1.5 * s, 4.0 - 3.0 * s),
        roll,
    );
    set_arm(&mut l, j::UPPERARM_L, 3.0 * breath, 8.0);
    set_arm(&mut l, j::UPPERARM_R, -3.0 * breath, 8.0);
    l
}
