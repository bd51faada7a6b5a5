//! How fast a clip carries a character forward when it is played in place: measured from the
//! feet. While a foot is planted it is the lowest joint, and in a clip that treads in place it
//! slides backwards under the body at exactly the speed the body should move forwards; moving
//! the character at that speed plants the foot on the ground. Measured once per clip, in the
//! standing frame the crowd layout gives a model (+Y up, facing +Z).

use super::basis::standing_basis;
use crate::anim::{Mat3x4, PoseScratch, SkinnedModel};

/// Samples per second of clip the stride is measured at.
const RATE: f32 = 60.0;
/// Below this speed (in model heights per second) a clip stands still: an idle's swaying
/// feet are not a walk.
const STANDING: f32 = 0.05;
/// How far above the lowest point of the clip (in model heights) a foot still counts as on
/// the ground.
const CONTACT: f32 = 0.02;
/// The share of a clip each of two feet must be planted for it to be a walk.
const ALTERNATE: f32 = 0.1;

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
    // Each joint's bind position, carried by its palette, is where the joint is.
    let bind: Vec<_> = model
        .skeleton()
        .offsets()
        .iter()
        .map(|o| o.inverse().map_or(glam::Vec3::ZERO, |i| i.translation()))
        .collect();
    let samples = ((duration * RATE).ceil() as usize).max(2);
    let mut scratch = PoseScratch::new(joints);
    let mut palette = vec![Mat3x4::IDENTITY; joints];
    let mut lowest_at = |t: f32| {
        model.evaluate(clip, t, &mut scratch, &mut palette);
        palette
            .iter()
            .zip(&bind)
            .enumerate()
            .map(|(j, (p, b))| (j, basis.transform_point3(p.transform_point3(*b))))
            .min_by(|a, b| a.1.y.total_cmp(&b.1.y))
    };
    let lowest: Vec<_> = (0..=samples)
        .map(|k| lowest_at(duration * k as f32 / samples as f32))
        .collect();
    let height = super::footprint(model).1;
    // A foot is planted while it is the lowest joint and on the ground: within a sliver of
    // the lowest any joint reaches in the clip (a swinging foot can be lowest for a moment
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
    // Walking plants one foot, then the other: a clip in which fewer than two joints are
    // planted for a tenth of it each (a jump, a shuffle on one foot) does not carry the
    // character anywhere.
    let feet = planted_by_joint
        .iter()
        .filter(|&&t| t >= ALTERNATE * duration)
        .count();
    if feet < 2 {
        return 0.0;
    }
    if planted_time <= 0.0 || height <= 0.0 {
        return 0.0;
    }
    let speed = travelled / planted_time;
    if speed.abs() < STANDING * height {
        0.0
    } else {
        speed
    }
}
