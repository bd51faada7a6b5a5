//! The built-in character's joints: a 22-joint humanoid, 1.84 m tall, standing on y = 0,
//! facing +Z with +Y up (glTF's convention), arms hanging at its sides, tilted a few degrees
//! outwards so the hands clear the hips. Every bind rotation is the identity, so a clip's
//! rotations read directly as joint angles.

use glam::{Quat, Vec3};

use crate::anim::{Joint, Transform};

/// Named joint indices, so clips and the mesh read as anatomy rather than numbers (the names
/// are the joints' own, in upper case).
#[allow(missing_docs)]
pub mod j {
    pub const PELVIS: u16 = 0;
    pub const SPINE_01: u16 = 1;
    pub const SPINE_02: u16 = 2;
    pub const SPINE_03: u16 = 3;
    pub const NECK: u16 = 4;
    pub const HEAD: u16 = 5;
    pub const CLAVICLE_L: u16 = 6;
    pub const UPPERARM_L: u16 = 7;
    pub const FOREARM_L: u16 = 8;
    pub const HAND_L: u16 = 9;
    pub const CLAVICLE_R: u16 = 10;
    pub const UPPERARM_R: u16 = 11;
    pub const FOREARM_R: u16 = 12;
    pub const HAND_R: u16 = 13;
    pub const THIGH_L: u16 = 14;
    pub const SHIN_L: u16 = 15;
    pub const FOOT_L: u16 = 16;
    pub const TOE_L: u16 = 17;
    pub const THIGH_R: u16 = 18;
    pub const SHIN_R: u16 = 19;
    pub const FOOT_R: u16 = 20;
    pub const TOE_R: u16 = 21;
    /// Number of joints.
    pub const COUNT: usize = 22;
}

/// Height of the pelvis joint above the ground in the bind pose, metres.
pub const PELVIS_HEIGHT: f32 = 1.0;
/// Shoulder joint offset from the body's centre line.
pub const SHOULDER_X: f32 = 0.19;
/// Hip joint offset from the centre line.
pub const HIP_X: f32 = 0.10;

/// Upper arm and forearm lengths.
pub const UPPERARM: f32 = 0.28;
pub const FOREARM: f32 = 0.26;
/// Sine and cosine of the arms' outward tilt at rest, 7 degrees: they hang clear of the
/// torso and the hands clear of the hips, so the body's surface keeps them apart.
pub const ARM_SIN: f32 = 0.121_869_34;
pub const ARM_COS: f32 = 0.992_546_15;

/// (name, parent, translation from the parent) for every joint, parents first.
const LAYOUT: [(&str, Option<usize>, [f32; 3]); j::COUNT] = [
    ("pelvis", None, [0.0, PELVIS_HEIGHT, 0.0]),
    ("spine_01", Some(0), [0.0, 0.10, 0.0]),
    ("spine_02", Some(1), [0.0, 0.15, 0.0]),
    ("spine_03", Some(2), [0.0, 0.15, 0.0]),
    ("neck", Some(3), [0.0, 0.12, 0.0]),
    ("head", Some(4), [0.0, 0.10, 0.0]),
    ("clavicle_l", Some(3), [0.04, 0.06, 0.0]),
    ("upperarm_l", Some(6), [SHOULDER_X - 0.04, 0.0, 0.0]),
    (
        "forearm_l",
        Some(7),
        [UPPERARM * ARM_SIN, -UPPERARM * ARM_COS, 0.0],
    ),
    (
        "hand_l",
        Some(8),
        [FOREARM * ARM_SIN, -FOREARM * ARM_COS, 0.0],
    ),
    ("clavicle_r", Some(3), [-0.04, 0.06, 0.0]),
    ("upperarm_r", Some(10), [-(SHOULDER_X - 0.04), 0.0, 0.0]),
    (
        "forearm_r",
        Some(11),
        [-UPPERARM * ARM_SIN, -UPPERARM * ARM_COS, 0.0],
    ),
    (
        "hand_r",
        Some(12),
        [-FOREARM * ARM_SIN, -FOREARM * ARM_COS, 0.0],
    ),
    ("thigh_l", Some(0), [HIP_X, -0.05, 0.0]),
    ("shin_l", Some(14), [0.0, -0.43, 0.0]),
    ("foot_l", Some(15), [0.0, -0.42, 0.0]),
    ("toe_l", Some(16), [0.0, -0.06, 0.13]),
    ("thigh_r", Some(0), [-HIP_X, -0.05, 0.0]),
    ("shin_r", Some(18), [0.0, -0.43, 0.0]),
    ("foot_r", Some(19), [0.0, -0.42, 0.0]),
    ("toe_r", Some(20), [0.0, -0.06, 0.13]),
];

/// The joints in parent-before-child order.
pub fn joints() -> Vec<Joint> {
    LAYOUT
        .iter()
        .map(|&(name, parent, t)| {
            Joint::new(
                name,
                parent,
                Transform::new(Vec3::from(t), Quat::IDENTITY, Vec3::ONE),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_arms_tilt_seven_degrees() {
        let tilt = 7.0f32.to_radians();
        assert!((ARM_SIN - tilt.sin()).abs() < 1e-7 && (ARM_COS - tilt.cos()).abs() < 1e-7);
    }
}
