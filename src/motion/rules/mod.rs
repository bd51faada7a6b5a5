//! The built-in rules a placed crowd moves by from frame to frame: the rules the `throng`
//! program walks its crowds by, for any program that renders one. (Crowds that move as a file
//! says are the trajectory playback, beside this in [`crate::motion`].)
//!
//! Every instance cross-fades to its model's next clip every [`CLIP_CHANGE_INTERVAL`]
//! seconds, whatever the crowd's size: the crowd owes `n * dt / interval` changes a frame,
//! kept as a fractional balance and handed out in a fixed shuffled order. Walkers, the
//! instances playing a clip that carries them forward, move along [`WalkPaths`] (straight lanes
//! that wrap at the crowd's edge, or circles about its centre) at their clip's own speed,
//! blended through fades, so their feet do not slide. A clip's speed is its root motion's,
//! taken out of the clip by [`play_models_in_place`], or its stride, measured from its planted
//! feet ([`stride_speed`]). Both of those are the scene's: these rules read the scene (its
//! layouts, strides and standing bases), never the reverse.
//!
//! A frame, in order:
//!
//! ```text
//! let models = play_models_in_place(models)?;          // once: clips tread in place
//! let layout = paths.prepare_layout(CrowdLayout::new(n, seed));
//! let placed = layout.spawn(&mut crowd, &ids)?;         // once: the crowd on its grid
//! let mut motion = CrowdMotion::new(paths, &layout, &models, &placed);
//! loop {
//!     motion.advance(&mut crowd, dt)?;                  // changes, steps, clocks
//!     // ... then write the crowd's palettes (render it)
//! }
//! ```
//!
//! Rooms, each using only those above it: `schedule` (which instances change clip in a
//! frame), `change_log` (what the schedule did, [`ClipChangeCounts`]), `route` (where a walker
//! is after walking a distance along lanes or a ring), `paths` ([`WalkPaths`], the choice of
//! route), `walking` (each walker's distance and the speed its clips carry it at), `stepper`
//! ([`CrowdMotion`], one frame of all of it), `on_device` (the same rules as tables the GPU
//! advances: [`DeviceMotion`]) and `device_changes` (the crowd's changes as the commands the
//! GPU's copy applies). The numbers the tables code routes, flags and commands with are
//! motion's `device_codes`, shared with the playback's tables and read by the shaders too.
//!
//! [`play_models_in_place`]: crate::scene::play_models_in_place
//! [`stride_speed`]: crate::scene::stride_speed

mod change_log;
mod device_changes;
mod on_device;
mod paths;
mod route;
mod schedule;
mod stepper;
mod walking;

pub use change_log::ClipChangeCounts;
pub use device_changes::DeviceChanges;
pub use on_device::{DeviceMotion, NotOnDevice, catch_up};
pub use paths::WalkPaths;
pub use stepper::{CLIP_CHANGE_INTERVAL, CLIP_FADE, CrowdMotion};

/// For this module's tests: a crowd of `models`, `n` instances laid out for `paths` from
/// `seed`, where they were placed, and its motion.
#[cfg(test)]
fn spawn_walking(
    models: Vec<std::sync::Arc<crate::anim::SkinnedModel>>,
    n: usize,
    seed: u64,
    paths: WalkPaths,
) -> (
    crate::crowd::Crowd,
    Vec<crate::scene::PlacedInstance>,
    CrowdMotion,
) {
    let models = crate::scene::play_models_in_place(models).expect("in place");
    let mut crowd = crate::crowd::Crowd::new(1).expect("crowd");
    let ids: Vec<crate::crowd::ModelId> = models
        .models
        .iter()
        .map(|m| crowd.add_model(m.clone()))
        .collect();
    let layout = paths.prepare_layout(crate::scene::CrowdLayout::new(n, seed));
    let placed = layout.spawn(&mut crowd, &ids).expect("spawn");
    let motion = CrowdMotion::new(paths, &layout, &models, &placed);
    (crowd, placed, motion)
}

/// A crowd of two models (the built-in character twice, the second with one clip fewer),
/// `n` instances laid out for `paths`, and its motion; baked when `bake`.
#[cfg(test)]
fn two_models(n: usize, paths: WalkPaths, bake: bool) -> (crate::crowd::Crowd, CrowdMotion) {
    let full = crate::asset::builtin::model().expect("builtin");
    let fewer = crate::anim::SkinnedModel::new(
        "fewer",
        "test",
        full.skeleton().clone(),
        full.clips()[..full.clips().len() - 1].to_vec(),
        full.mesh().clone(),
    )
    .expect("model");
    let models = vec![std::sync::Arc::new(full), std::sync::Arc::new(fewer)];
    let (mut crowd, _, motion) = crate::motion::rules::spawn_walking(models, n, 3, paths);
    if bake {
        crowd.bake(crate::crowd::BakeSettings::default());
    }
    (crowd, motion)
}
