//! Characters that walk: each instance playing a clip that carries it forward (a walk, a run)
//! moves along its path ([`Route`]) at the clip's own speed, times its playback speed and its
//! height (a character made taller by the layout's variety strides further in proportion),
//! blended through cross-fades, so its planted feet stay put; idle ones stand. A clip's
//! speed is its root motion's when it has root motion (such clips are played in place: see
//! [`ModelsInPlace`]), otherwise the stride measured from its feet ([`stride_speed`]).

use std::sync::Arc;

use super::route::Route;
use crate::anim::{Mat3x4, SkinnedModel};
use crate::crowd::Crowd;
use crate::scene::{ModelsInPlace, PlacedInstance, RootMotion, stride_speed};

/// One instance on its path.
#[derive(Clone, Copy, Debug)]
struct Walker {
    /// Where the layout put it.
    start: Mat3x4,
    /// Which of the models it is.
    model: usize,
    /// How far along its path it has gone.
    distance: f32,
    /// Its height as a fraction of its model's ([`PlacedInstance::height`]): what its
    /// model's speeds are scaled by.
    stride: f32,
}

/// The crowd's walkers; see the module documentation.
pub(crate) struct Walking {
    walkers: Vec<Walker>,
    /// Per model, per clip: forward speed in world units per second.
    speeds: Vec<Vec<f32>>,
    route: Route,
}

impl Walking {
    /// Walkers for `placed` (facing +Z), of `models` scaled by `scales` as the layout scaled
    /// them, along `route`.
    pub(crate) fn new(
        models: &ModelsInPlace,
        scales: &[f32],
        placed: &[PlacedInstance],
        route: Route,
    ) -> Self {
        let speeds = models
            .models
            .iter()
            .zip(scales)
            .enumerate()
            .map(|(i, (m, s))| {
                let motions = models.root_motion.get(i).map_or(&[][..], Vec::as_slice);
                clip_speeds(m, motions, *s)
            })
            .collect();
        Self {
            walkers: placed
                .iter()
                .map(|p| Walker {
                    start: p.world,
                    model: p.model,
                    distance: 0.0,
                    stride: p.height,
                })
                .collect(),
            speeds,
            route,
        }
    }

    /// Moves every walking instance on by `dt` seconds of its clips (instances of `crowd`
    /// past those placed stay where they are).
    pub(crate) fn advance(&mut self, crowd: &mut Crowd, dt: f32) {
        let count = crowd.len();
        for (i, walker) in self.walkers.iter_mut().enumerate().take(count) {
            let inst = crowd.instance(i);
            let now = speed_of(&self.speeds, walker.model, inst.clip());
            // Through a cross-fade the speed goes from the old clip's to the new one's.
            let speed = match (inst.fade_source(), inst.fade_weight()) {
                (Some((from, _)), Some(w)) => {
                    (1.0 - w) * speed_of(&self.speeds, walker.model, from) + w * now
                }
                _ => now,
            } * inst.speed()
                * walker.stride;
            if speed == 0.0 {
                continue;
            }
            walker.distance += speed * dt;
            if let Some(world) = self.route.place(&walker.start, walker.distance) {
                crowd.set_world(i, world);
            }
        }
    }
}

impl Walking {
    /// The route every walker follows.
    pub(crate) fn route(&self) -> Route {
        self.route
    }

    /// Model `model`'s clip `clip`'s forward speed, world units per second.
    pub(crate) fn clip_speed(&self, model: usize, clip: usize) -> f32 {
        speed_of(&self.speeds, model, clip)
    }

    /// Walker `i`'s start, how far it has walked and its stride's scale (`None` past those
    /// placed).
    pub(crate) fn walker(&self, i: usize) -> Option<(Mat3x4, f32, f32)> {
        self.walkers.get(i).map(|w| (w.start, w.distance, w.stride))
    }
}

/// The forward speed of each of `model`'s clips, in world units per second at `scale`: the
/// root's travel for a clip in `motions`, the planted feet's stride otherwise.
fn clip_speeds(model: &Arc<SkinnedModel>, motions: &[RootMotion], scale: f32) -> Vec<f32> {
    (0..model.clips().len())
        .map(|c| {
            motions
                .iter()
                .find(|r| r.clip == c)
                .map_or_else(|| stride_speed(model, c), RootMotion::speed)
                * scale
        })
        .collect()
}

/// The forward speed of model `model`'s clip `clip` (0 for one that does not walk).
fn speed_of(speeds: &[Vec<f32>], model: usize, clip: usize) -> f32 {
    speeds
        .get(model)
        .and_then(|s| s.get(clip))
        .copied()
        .unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asset::builtin;
    use crate::scene::{CrowdLayout, Variety, play_models_in_place};

    /// Characters of the same model playing the same walk at the same rate: each covers its
    /// model's stride times its height, so those the variety made taller walk further in
    /// proportion (their feet, longer by as much, stay planted).
    #[test]
    fn a_taller_walker_strides_further_in_proportion() {
        let model = Arc::new(builtin::model().expect("builtin"));
        let models = play_models_in_place(vec![model]).expect("in place");
        let mut crowd = Crowd::new(1).expect("crowd");
        let id = crowd.add_model(models.models[0].clone());
        let layout = CrowdLayout {
            variety: Some(Variety::default()),
            ..CrowdLayout::new(16, 7)
        };
        let placed = layout.spawn(&mut crowd, &[id]).expect("spawn");
        let walk = models.models[0].clip_index("walk").expect("a walk");
        for i in 0..crowd.len() {
            crowd.instance_mut(i).play(walk, 0.0).expect("play");
            crowd.instance_mut(i).set_speed(1.0);
        }
        let route = Route::Lanes {
            front: -1e6,
            depth: 2e6,
        };
        let scales = layout.model_scales(&models.models);
        let mut walking = Walking::new(&models, &scales, &placed, route);
        walking.advance(&mut crowd, 0.5);
        let model_speed = walking.clip_speed(0, walk);
        assert!(model_speed > 0.0, "the walk carries the character");
        let heights: Vec<f32> = placed.iter().map(|p| p.height).collect();
        assert!(
            heights.iter().any(|&h| h > 1.01) && heights.iter().any(|&h| h < 0.99),
            "the variety made some taller and some shorter: {heights:?}"
        );
        for (i, p) in placed.iter().enumerate() {
            let (_, walked, _) = walking.walker(i).expect("a walker");
            let expected = model_speed * 0.5 * p.height;
            assert!(
                (walked - expected).abs() <= 1e-5 * expected,
                "instance {i} of height {}: walked {walked}, its stride carries it {expected}",
                p.height
            );
        }
    }
}
