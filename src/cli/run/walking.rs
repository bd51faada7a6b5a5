//! Characters that walk: each instance playing a clip that carries it forward (a walk, a run:
//! see [`stride_speed`]) moves along its lane at the clip's own speed, times its playback
//! speed, blended through cross-fades, so its planted feet stay put; idle ones stand. Lanes run
//! front to back through the crowd's footprint and wrap at its edges, so the crowd keeps its
//! place on the ground and in the camera's view.

use glam::{Quat, Vec3A};
use throng::anim::{Mat3x4, SkinnedModel};
use throng::crowd::Crowd;
use throng::scene::{PlacedInstance, stride_speed};

/// One instance's lane.
#[derive(Clone, Copy, Debug)]
struct Lane {
    /// Where the layout put it.
    start: Mat3x4,
    /// How far along its lane it has gone.
    distance: f32,
}

/// The crowd's lanes; see the module documentation.
pub struct Walking {
    lanes: Vec<Lane>,
    /// Per model, per clip: forward speed in world units per second.
    speeds: Vec<Vec<f32>>,
    /// Where the footprint starts along the lanes (world z), and its depth.
    front: f32,
    depth: f32,
}

impl Walking {
    /// Lanes for `placed` (models scaled by `scales`, as the layout scaled them), wrapping
    /// within world z from `z_min` to `z_max`.
    pub fn new(
        models: &[std::sync::Arc<SkinnedModel>],
        scales: &[f32],
        placed: &[PlacedInstance],
        z_min: f32,
        z_max: f32,
    ) -> Self {
        let speeds = models
            .iter()
            .zip(scales)
            .map(|(m, s)| {
                (0..m.clips().len())
                    .map(|c| stride_speed(m, c) * s)
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
            front: z_min,
            depth: (z_max - z_min).max(f32::MIN_POSITIVE),
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
            // Lanes face +Z (the layout gives walkers no heading jitter): forward is world +Z,
            // wrapped to the footprint.
            let from = lane.start.translation();
            let z = self.front + (from.z + lane.distance - self.front).rem_euclid(self.depth);
            let shift =
                Mat3x4::from_trs(Vec3A::new(0.0, 0.0, z - from.z), Quat::IDENTITY, Vec3A::ONE);
            crowd.set_world(i, shift.mul(&lane.start));
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
