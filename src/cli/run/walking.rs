//! Characters that walk: each instance playing a clip that carries it forward (a walk, a run)
//! moves along its lane at the clip's own speed, times its playback speed, blended through
//! cross-fades, so its planted feet stay put; idle ones stand. A clip's speed is its root
//! motion's when it has root motion (the session plays such clips in place: see
//! [`RootMotion`]), otherwise the stride measured from its feet ([`stride_speed`]). Lanes run
//! front to back through the crowd's footprint and wrap at its edges, or are rings around the
//! crowd's centre that walkers follow, turning as they go; either way the crowd keeps its
//! place on the ground and in the camera's view.

use glam::{Quat, Vec3A};
use throng::anim::{Mat3x4, SkinnedModel};
use throng::crowd::Crowd;
use throng::scene::{PlacedInstance, RootMotion, stride_speed};

/// One instance's lane.
#[derive(Clone, Copy, Debug)]
struct Lane {
    /// Where the layout put it.
    start: Mat3x4,
    /// How far along its lane it has gone.
    distance: f32,
}

/// The paths walkers follow.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Paths {
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

/// The crowd's lanes; see the module documentation.
pub struct Walking {
    lanes: Vec<Lane>,
    /// Per model, per clip: forward speed in world units per second.
    speeds: Vec<Vec<f32>>,
    paths: Paths,
}

impl Walking {
    /// Paths for `placed` (models scaled by `scales`, as the layout scaled them; facing +Z).
    /// `root_motion` holds, per model, the clips that had root motion and now play in place.
    pub fn new(
        models: &[std::sync::Arc<SkinnedModel>],
        scales: &[f32],
        root_motion: &[Vec<RootMotion>],
        placed: &[PlacedInstance],
        paths: Paths,
    ) -> Self {
        let speeds = models
            .iter()
            .zip(scales)
            .enumerate()
            .map(|(i, (m, s))| {
                let motions = root_motion.get(i).map_or(&[][..], Vec::as_slice);
                (0..m.clips().len())
                    .map(|c| {
                        motions
                            .iter()
                            .find(|r| r.clip == c)
                            .map_or_else(|| stride_speed(m, c), RootMotion::speed)
                            * s
                    })
                    .collect()
            })
            .collect();
        Self {
            lanes: placed
                .iter()
                .map(|p| Lane {
                    start: p.world,
                    distance: 0.0,
                })
                .collect(),
            speeds,
            paths,
        }
    }

    /// Moves every walking instance on by `dt` seconds of its clips.
    pub fn advance(&mut self, crowd: &mut Crowd, models: &[usize], dt: f32) {
        for (i, lane) in self.lanes.iter_mut().enumerate() {
            let inst = crowd.instance(i);
            let model = models.get(i).copied().unwrap_or(0);
            let now = speed_of(&self.speeds, model, inst.clip());
            // Through a cross-fade the speed goes from the old clip's to the new one's.
            let speed = match (inst.fade_source(), inst.fade_weight()) {
                (Some((from, _)), Some(w)) => {
                    (1.0 - w) * speed_of(&self.speeds, model, from) + w * now
                }
                _ => now,
            } * inst.speed();
            if speed == 0.0 {
                continue;
            }
            lane.distance += speed * dt;
            if let Some(world) = self.paths.place(&lane.start, lane.distance) {
                crowd.set_world(i, world);
            }
        }
    }
}

impl Paths {
    /// Where an instance the layout put at `start` (facing +Z) is after walking `distance`
    /// along its path; `None` for one that stands.
    fn place(&self, start: &Mat3x4, distance: f32) -> Option<Mat3x4> {
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
                let tangent = glam::Vec2::new(now.sin(), -now.cos());
                let turn = tangent.x.atan2(tangent.y);
                Some(shift(at, turn).mul(start))
            }
        }
    }
}

/// The forward speed of model `model`'s clip `clip` (0 for one that does not walk).
fn speed_of(speeds: &[Vec<f32>], model: usize, clip: usize) -> f32 {
    speeds
        .get(model)
        .and_then(|s| s.get(clip))
        .copied()
        .unwrap_or(0.0)
}
