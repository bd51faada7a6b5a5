//! Turning about the planted foot. A person turns about the foot they stand on; a character
//! turned about its root swings that foot through the turn, and the foot slides (on the Jülich
//! corridor, turns were most of what slid: a foot swung at 20 degrees a second slid at 0.13
//! m/s against 0.04 going straight). So a turning pedestrian's root swings about the planted
//! foot instead, and stands a little off its path: an offset that fades and stays small.

use glam::DVec2;

/// The farthest turning about the planted foot may move a root from its path, metres.
pub(crate) const MAX_PIVOT: f64 = 0.08;
/// How fast that offset fades back to the path, per second: the fade slides the feet a
/// little, the offset moves the root from the file's path. Chosen on the Jülich corridor's
/// densest 20 s (robot.glb): fading at 0.5, 1 and 2 per second with offsets held within 4, 5
/// and 8 cm gave stance-foot medians of 0.013, 0.021 and 0.028 m/s, 95th percentiles of 0.24,
/// 0.23 and 0.18 m/s, and 97.2-97.5% of positions within 10 cm of the file's.
pub(crate) const PIVOT_FADE: f64 = 2.0;

/// A member's offset from its path after a step of `dt` seconds in which it turned from
/// `was` to `now` (world headings) with its root at `root` (file plane) and, when one is
/// planted, a foot at `foot` (standing frame, model units, times `scale`): a person turns
/// about the foot they stand on, so the root swings about that foot instead of the foot about
/// the root (which would slide it). Over a stride the swings mostly cancel (the foot is ahead,
/// then behind; left, then right); what is left fades, and is held within [`MAX_PIVOT`].
pub(super) fn pivoted(
    offset: DVec2,
    root: DVec2,
    was: f32,
    now: f32,
    foot: Option<[f32; 2]>,
    scale: f32,
    dt: f32,
) -> DVec2 {
    let mut offset = offset * (-PIVOT_FADE * f64::from(dt)).exp();
    if let Some([x, z]) = foot {
        // The foot in the file plane: the standing frame's (x, z) is the world's turned by
        // the heading, and the world's (x, z) the file's (x, -y); a world turn about +Y by a
        // is a counter-clockwise turn by a in the file's plane.
        let local = DVec2::new(f64::from(x), -f64::from(z)) * f64::from(scale);
        let at = root + DVec2::from_angle(f64::from(was)).rotate(local);
        let turn = DVec2::from_angle(f64::from(super::heading::wrap(now - was)));
        offset += turn.rotate(root - at) - (root - at);
    }
    let d = offset.length();
    if d > MAX_PIVOT {
        offset * (MAX_PIVOT / d)
    } else {
        offset
    }
}
