//! Which way a pedestrian faces: along its smoothed velocity, turning at a bounded rate, and
//! kept while it stands (a standing person's drift says nothing of where they look).

use std::f32::consts::{PI, TAU};

/// The fastest a pedestrian turns unless told otherwise, radians per second (270 degrees a
/// second: a person reverses in under a second, and one sample's jitter cannot spin them).
pub const DEFAULT_TURN_RATE: f32 = 270.0 * PI / 180.0;

/// `angle` wrapped into (-pi, pi].
pub fn wrap(angle: f32) -> f32 {
    let a = angle.rem_euclid(TAU);
    if a > PI { a - TAU } else { a }
}

/// The heading after `dt` seconds of turning from `heading` towards `target` at no more than
/// `rate` radians per second, the short way round.
pub fn turn_towards(heading: f32, target: f32, rate: f32, dt: f32) -> f32 {
    let most = (rate * dt).max(0.0);
    let diff = wrap(target - heading);
    wrap(heading + diff.clamp(-most, most))
}

/// The world heading (radians from +Z towards +X, as the crowd turns characters) of a
/// velocity on the file's ground plane: the file's x is the world's x and its y the world's
/// -z, so a map seen from above keeps its handedness.
pub fn heading_of(velocity: glam::Vec2) -> f32 {
    velocity.x.atan2(-velocity.y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns_the_short_way_at_the_rate() {
        let h = turn_towards(0.0, 1.0, 2.0, 0.1);
        assert!((h - 0.2).abs() < 1e-6);
        let h = turn_towards(3.0, -3.0, 10.0, 1.0);
        assert!((wrap(h - (-3.0))).abs() < 1e-5, "{h}");
        // The short way from 3 to -3 crosses pi: it goes up, not down.
        let h = turn_towards(3.0, -3.0, 0.1, 1.0);
        assert!((h - 3.1).abs() < 1e-6, "{h}");
    }

    #[test]
    fn the_file_plane_maps_to_world_headings() {
        // File +y is world -z; file +x is world +x (heading pi/2).
        assert!((heading_of(glam::Vec2::new(1.0, 0.0)) - PI / 2.0).abs() < 1e-6);
        assert!((wrap(heading_of(glam::Vec2::new(0.0, 1.0)) - PI)).abs() < 1e-6);
        assert!(heading_of(glam::Vec2::new(0.0, -1.0)).abs() < 1e-6);
    }
}
