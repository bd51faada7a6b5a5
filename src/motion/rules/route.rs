//! Where a walker is after walking a distance along its path: straight lanes front to back
//! that wrap at the crowd's edges, or circles about the crowd's centre, walked turning as they
//! go. Either way the crowd keeps its place on the ground and in the camera's view.

use glam::{Quat, Vec2, Vec3A};

use crate::anim::Mat3x4;
use crate::scene::PlacedInstance;

/// The paths walkers follow, sized to a placed crowd.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Route {
    /// Straight lanes along +Z, wrapping within world z from `front` to `front + depth`.
    Lanes {
        /// Where the footprint starts along the lanes (world z).
        front: f32,
        /// Its depth.
        depth: f32,
    },
    /// Circles about the crowd's centre (the origin), all walked the same way round; walkers
    /// nearer the centre than `min_radius` stand.
    Rings {
        /// The smallest ring walked.
        min_radius: f32,
    },
}

impl Route {
    /// Lanes through the footprint of `placed`, a crowd on a grid of `cell` pitch.
    pub(crate) fn lanes(placed: &[PlacedInstance], cell: f32) -> Self {
        // Lanes wrap a cell beyond the first and last rows, so spacing holds at the seam.
        let zs = placed.iter().map(|p| p.world.translation().z);
        let front = zs.clone().fold(f32::INFINITY, f32::min) - 0.5 * cell;
        let back = zs.fold(f32::NEG_INFINITY, f32::max) + 0.5 * cell;
        Self::Lanes {
            front,
            depth: back - front,
        }
    }

    /// Rings about the centre of a crowd on a grid of `cell` pitch; the innermost cell stands,
    /// as a circle that small would spin its walker round on the spot.
    pub(crate) fn rings(cell: f32) -> Self {
        Self::Rings {
            min_radius: 0.5 * cell,
        }
    }

    /// Where an instance the layout put at `start` (facing +Z) is after walking `distance`
    /// along its path; `None` for one that stands.
    pub(crate) fn place(&self, start: &Mat3x4, distance: f32) -> Option<Mat3x4> {
        let from = start.translation();
        let shift =
            |to: Vec3A, turn: f32| {
                // Back to the origin, turned, then out to the new place: the model's scale and
                // basis stay as the layout made them.
                Mat3x4::from_trs(to, Quat::from_rotation_y(turn), Vec3A::ONE).mul(
                    &Mat3x4::from_trs(-Vec3A::from(from), Quat::IDENTITY, Vec3A::ONE),
                )
            };
        match *self {
            Self::Lanes { front, depth } => {
                let z =
                    front + (from.z + distance - front).rem_euclid(depth.max(f32::MIN_POSITIVE));
                Some(shift(Vec3A::new(from.x, from.y, z), 0.0).mul(start))
            }
            Self::Rings { min_radius } => {
                let radius = from.x.hypot(from.z);
                if radius < min_radius {
                    return None;
                }
                let angle = distance / radius;
                let start_angle = from.z.atan2(from.x);
                let now = start_angle - angle;
                let at = Vec3A::new(radius * now.cos(), from.y, radius * now.sin());
                // Facing the way the circle goes: the tangent, from +Z turned about Y.
                let tangent = Vec2::new(now.sin(), -now.cos());
                let turn = tangent.x.atan2(tangent.y);
                Some(shift(at, turn).mul(start))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(x: f32, z: f32) -> Mat3x4 {
        Mat3x4::from_trs(Vec3A::new(x, 0.0, z), Quat::IDENTITY, Vec3A::ONE)
    }

    #[test]
    fn lanes_carry_walkers_forward_and_wrap_at_the_back() {
        let lanes = Route::Lanes {
            front: -2.0,
            depth: 4.0,
        };
        let start = at(1.0, 0.0);
        let moved = lanes.place(&start, 1.5).expect("lanes move everyone");
        assert!(
            moved
                .translation()
                .abs_diff_eq(glam::Vec3::new(1.0, 0.0, 1.5), 1e-6)
        );
        // 3 units on from z = 0 passes the back at z = 2 and comes in again from the front.
        let wrapped = lanes.place(&start, 3.0).expect("lanes move everyone");
        assert!(
            wrapped
                .translation()
                .abs_diff_eq(glam::Vec3::new(1.0, 0.0, -1.0), 1e-6)
        );
    }

    #[test]
    fn rings_keep_their_radius_and_face_along_the_circle() {
        let rings = Route::Rings { min_radius: 1.0 };
        assert_eq!(
            rings.place(&at(0.5, 0.0), 1.0),
            None,
            "inside the smallest ring"
        );
        let start = at(2.0, 0.0);
        let quarter = rings
            .place(&start, std::f32::consts::PI)
            .expect("on a ring");
        // A quarter of a circle of radius 2 on from +X: every ring is walked the same way
        // round, from +X towards -Z.
        let t = quarter.translation();
        assert!(t.abs_diff_eq(glam::Vec3::new(0.0, 0.0, -2.0), 1e-5), "{t}");
        // Facing the circle's tangent there: -X.
        let forward = quarter.transform_vector3(glam::Vec3::Z);
        assert!(forward.abs_diff_eq(glam::Vec3::NEG_X, 1e-5), "{forward}");
    }
}
