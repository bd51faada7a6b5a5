//! A walking crowd through the library alone: the built-in character laid out on a grid,
//! walking along lanes and changing clips with [`CrowdMotion`], rendered headless with
//! [`HeadlessRenderer`], and the last frame written as PNG.
//!
//! ```sh
//! cargo run --example walking_crowd -- [FRAMES] [PNG]   # 120 frames, walking-crowd.png
//! ```
//!
//! Once, before the first frame ([`walk_and_render`] does all of it):
//!
//! 1. load the models and make clips that carry root motion tread in place
//!    ([`play_models_in_place`]): the motion moves walkers at their root's speed instead;
//! 2. add the models to the [`Crowd`] and to the renderer, in the same order;
//! 3. prepare the layout for the paths ([`WalkPaths::prepare_layout`]), spawn the crowd with
//!    it, and make the crowd's [`CrowdMotion`] from the paths, the layout, the models and the
//!    placements;
//! 4. frame the camera on the placed crowd (lanes and rings keep it in place).
//!
//! Then every frame, in this order:
//!
//! 1. [`CrowdMotion::advance`]: the clip changes that fall due start their cross-fades, the
//!    walkers step on at their clips' pace, and every instance's clock advances;
//! 2. [`HeadlessRenderer::render`]: the crowd's palettes are written into the ring and drawn
//!    ([`HeadlessRenderer::render_for_readback`] for a frame to read back);
//! 3. after the last frame, [`HeadlessRenderer::pixels`] waits for it and returns it.

use std::error::Error;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use glam::{Vec3, Vec4};
use throng::anim::Mat3x4;
use throng::crowd::{Crowd, ModelId};
use throng::gpu::{ContextOptions, FrameInputs, HeadlessRenderer, ViewMode, validation_wanted};
use throng::motion::{ClipChangeCounts, CrowdMotion, WalkPaths};
use throng::scene::{Camera, CrowdLayout, Light, crowd_bounds, model_basis, play_models_in_place};

/// Instances in the crowd.
const INSTANCES: usize = 100;
/// Seed of the layout: where each stands, its clip, phase and speed.
const SEED: u64 = 1;
/// One frame's step, seconds (a fixed step: the same frames always give the same picture).
const DT: f32 = 1.0 / 60.0;

fn main() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let frames = match args.next() {
        Some(n) => n
            .parse()
            .map_err(|_| format!("'{n}' is not a whole number of frames"))?,
        None => 120,
    };
    let png = args
        .next()
        .map_or_else(|| PathBuf::from("walking-crowd.png"), PathBuf::from);
    let options = ContextOptions {
        device: None,
        validation: validation_wanted(),
    };
    let mut renderer = HeadlessRenderer::new(&options, 640, 360)?;
    let walked = walk_and_render(&mut renderer, frames, &png)?;
    println!(
        "{} of {} instances walked, {} clip changes in {:.2} s; wrote {}",
        walked.moved,
        walked.instances,
        walked.clip_changes.changes,
        walked.clip_changes.seconds,
        png.display()
    );
    Ok(())
}

/// What a walk came to.
pub struct Walked {
    /// Instances in the crowd.
    pub instances: usize,
    /// Instances that ended somewhere other than where the layout put them.
    pub moved: usize,
    /// What the clip-change schedule did.
    pub clip_changes: ClipChangeCounts,
    /// What the frames were drawn with (camera, light, ground).
    pub inputs: FrameInputs,
    /// Where each instance stands after the last frame.
    pub worlds: Vec<Mat3x4>,
}

/// Lays out a crowd of the built-in character walking along lanes, renders `frames` frames
/// (at least one) of it with `renderer`, and writes the last as PNG to `png`; see the module
/// documentation for the order of the calls.
pub fn walk_and_render(
    renderer: &mut HeadlessRenderer,
    frames: u32,
    png: &Path,
) -> Result<Walked, Box<dyn Error>> {
    // Once: the models, the crowd placed for its paths, and its motion.
    let models = play_models_in_place(vec![Arc::new(throng::asset::load_model(None)?)])?;
    let mut crowd = Crowd::new(0)?;
    let mut ids: Vec<ModelId> = Vec::new();
    for model in &models.models {
        ids.push(crowd.add_model(model.clone()));
        renderer.add_model(model, &model_basis(model))?;
    }
    // `WalkPaths::Rings` walks them round the centre instead; `InPlace` keeps them still.
    let paths = WalkPaths::Lanes;
    let layout = paths.prepare_layout(CrowdLayout::new(INSTANCES, SEED));
    let placed = layout.spawn(&mut crowd, &ids)?;
    let mut motion = CrowdMotion::new(paths, &layout, &models, &placed);

    // The camera frames where the crowd was placed: walkers on lanes or rings stay there.
    let bounds = crowd_bounds(&placed, &models.models).ok_or("the crowd has no vertices")?;
    let extent = renderer.extent();
    let aspect = extent.width as f32 / extent.height as f32;
    let camera = Camera::framing(bounds.min, bounds.max, aspect);
    let centre = 0.5 * (bounds.min + bounds.max);
    let size = bounds.max - bounds.min;
    let ground = Vec4::new(centre.x, centre.z, size.x.max(size.z), 0.0);
    let inputs = FrameInputs::new(
        &camera,
        aspect,
        &Light::default_sun(),
        ground,
        0.5 * size.y.max(1e-3),
        ViewMode::Final,
    );

    // Every frame: motion first, then the palettes and the drawing.
    for frame in 1..=frames.max(1) {
        motion.advance(&mut crowd, DT)?;
        if frame == frames.max(1) {
            renderer.render_for_readback(&mut crowd, &inputs)?;
        } else {
            renderer.render(&mut crowd, &inputs)?;
        }
    }
    renderer.pixels()?.save_png(png)?;

    let moved = placed
        .iter()
        .enumerate()
        .filter(|(i, p)| {
            let now: Vec3 = crowd.world(*i).translation();
            now != p.world.translation()
        })
        .count();
    Ok(Walked {
        instances: crowd.len(),
        moved,
        clip_changes: motion.clip_changes(),
        inputs,
        worlds: (0..crowd.len()).map(|i| *crowd.world(i)).collect(),
    })
}
