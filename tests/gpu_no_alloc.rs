//! After warm-up, a rendered frame performs no heap allocation on the CPU side: the crowd's
//! choice of exact or baked palettes, its records and palettes in the ring, the culling
//! inputs, what the stateful features hand the frame (the heads-up display's text composed
//! anew each frame, auto exposure), the graph's replay with its barriers, the draws, the
//! submission, and the statistics read back; with the crowd's state on the GPU, and with a playback's pedestrians
//! placed there. Counted with a global allocator wrapper (the Vulkan driver and
//! layers allocate with their own allocators, outside it); one test in this binary, so no
//! other test allocates concurrently.

mod common;
mod gpu_common;

#[path = "common/counting_alloc.rs"]
mod counting_alloc;

use gpu_common::{assert_no_validation_messages, builtin, crowd_of, framing, inputs, renderer};
use throng::crowd::{AnimationMode, BakeSettings};
use throng::gpu::features::hud::HudText;
use throng::gpu::{RenderSettings, ViewMode};
use throng::motion::{ColorBy, DeviceStep, Playback, TracksOnDevice, WalkPaths};
use throng::scene::crowd_bounds;

#[global_allocator]
static ALLOCATOR: counting_alloc::Counting = counting_alloc::Counting;

#[test]
fn frames_after_warm_up_do_not_allocate() {
    let Some(mut r) = renderer(320, 180) else {
        return;
    };
    let model = builtin();
    let (mut crowd, bounds) = crowd_of(&mut r, std::slice::from_ref(&model), 300, 4);
    crowd.bake(BakeSettings::default());
    crowd.set_animation(AnimationMode::Auto);
    // With impostor cards, as `throng run` draws (a threshold at which the far half of this
    // view is cards, some cross-fading), and with the features that hand each frame their
    // state (the heads-up display, composed anew every frame; auto exposure) and the tone
    // curve.
    r.renderer()
        .set_settings(RenderSettings {
            impostors: true,
            impostor_px: Some(40.0),
            auto_exposure: true,
            tonemap: true,
            ..RenderSettings::default()
        })
        .expect("settings");
    let mut hud = HudText::new();
    // Close enough that some instances are exact, far enough that most are baked; clips
    // change and fade as the crowd plays.
    let mut camera = framing(&r, &bounds);
    camera.eye = camera.target + (camera.eye - camera.target) * 0.4;
    let frame = inputs(&r, &camera, &bounds, ViewMode::Final);
    for i in 0..crowd.len() {
        if i % 3 == 0 {
            let inst = crowd.instance_mut(i);
            let next = (inst.clip() + 1) % inst.model().clips().len();
            inst.enqueue(next, 0.2).expect("clip");
        }
    }
    let mut frame_with_hud = |r: &mut throng::gpu::HeadlessRenderer, crowd: &mut _, k: usize| {
        hud.clear();
        hud.line(if k.is_multiple_of(2) {
            "even frame"
        } else {
            "odd frame"
        });
        r.renderer().set_hud(Some(&hud));
        crowd_update_and_render(r, crowd, &frame);
    };
    for k in 0..6 {
        frame_with_hud(&mut r, &mut crowd, k);
    }
    let before = counting_alloc::allocations();
    for k in 0..30 {
        frame_with_hud(&mut r, &mut crowd, k);
    }
    let during = counting_alloc::allocations() - before;
    r.renderer().gpu_ms_average().expect("wait");
    assert_eq!(during, 0, "{during} allocations in 30 frames");
    let counts = crowd.counts();
    assert!(counts.exact > 0 && counts.baked > 0, "{counts:?}");
    let drawn = r.renderer().draw_stats().expect("statistics were read");
    let meshes: u64 = drawn.camera.iter().sum();
    assert!(
        drawn.camera_cards > 0 && meshes > 0,
        "meshes and cards both drawn: {drawn:?}"
    );
    frames_with_the_state_on_the_gpu_do_not_allocate(r, &model);
    frames_of_a_playback_on_the_gpu_do_not_allocate();
    assert_no_validation_messages();
}

/// One step of 1/30 s and its frame.
fn crowd_update_and_render(
    r: &mut throng::gpu::HeadlessRenderer,
    crowd: &mut throng::crowd::Crowd,
    frame: &throng::gpu::FrameInputs,
) {
    crowd.update(1.0 / 30.0);
    r.render(crowd, frame).expect("frame");
}

/// With the crowd's state on the GPU the CPU still allocates nothing per frame: the step,
/// the near list read back, the clocks brought up to date and their exact palettes.
fn frames_with_the_state_on_the_gpu_do_not_allocate(
    mut r: throng::gpu::HeadlessRenderer,
    model: &std::sync::Arc<throng::anim::SkinnedModel>,
) {
    // And with every compute path a GPU takes by default: cards, ground, skinning and the
    // coarser mesh levels (the passes record their own descriptors every frame).
    let compute = throng::gpu::Raster::Compute;
    r.renderer()
        .set_settings(RenderSettings {
            impostors: true,
            impostor_px: Some(40.0),
            card_raster: compute,
            ground: compute,
            skin: compute,
            mesh_raster: compute,
            ..RenderSettings::default()
        })
        .expect("settings");
    let (mut crowd, mut motion, placed) =
        gpu_common::walking_crowd(model, 300, 4, WalkPaths::Lanes);
    gpu_common::state_on_gpu(&mut r, &mut crowd, &motion);
    let bounds = crowd_bounds(&placed, std::slice::from_ref(model)).expect("bounds");
    let mut camera = framing(&r, &bounds);
    camera.eye = camera.target + (camera.eye - camera.target) * 0.4;
    let frame = inputs(&r, &camera, &bounds, ViewMode::Final);
    for _ in 0..6 {
        gpu_common::gpu_state_frame(&mut r, &mut crowd, &mut motion, &frame, 1.0 / 30.0);
    }
    let before = counting_alloc::allocations();
    for _ in 0..30 {
        gpu_common::gpu_state_frame(&mut r, &mut crowd, &mut motion, &frame, 1.0 / 30.0);
    }
    let during = counting_alloc::allocations() - before;
    r.renderer().gpu_ms_average().expect("wait");
    assert_eq!(
        during, 0,
        "{during} allocations in 30 frames with the state on the GPU"
    );
    let counts = r.renderer().crowd_state_counts(&crowd).expect("on the GPU");
    assert!(counts.exact > 0 && counts.baked > 0, "{counts:?}");
    let drawn = r.renderer().draw_stats().expect("statistics were read");
    assert!(
        drawn.camera_rasterized > 0 && drawn.shadow_rasterized > 0,
        "{drawn:?}"
    );
}

/// A playback whose pedestrians are placed on the GPU allocates nothing per frame either:
/// the chunks read ahead on the reader's thread, taken when due and handed to the renderer
/// (lists exchanged, not copied), the slots' changes and samples copied into the frame's
/// upload buffers, the track passes (coloured by density, so the passes counting neighbours
/// too) and the crowd state. Over 5 s of the streamed corridor
/// (two chunks and more) after 5 s of warm-up, in small frames: what is counted does not
/// depend on the pixels, and 300 frames of 320x180 took a software rasterizer 30 s.
fn frames_of_a_playback_on_the_gpu_do_not_allocate() {
    let Some(mut r) = renderer(160, 90) else {
        return;
    };
    let file = common::playback::streamed_corridor();
    let model = builtin();
    let mut crowd = throng::crowd::Crowd::new(2).expect("crowd");
    let m = common::playback::ramp_model(&mut crowd, &model);
    let settings = common::playback::settings_for(&file, Some(ColorBy::Density), 0.04);
    let (lo, hi) = file.bounds();
    let playback = Playback::new(file, vec![m], settings, 0);
    let mut tracks = TracksOnDevice::new(&playback).expect("tracks");
    tracks.spawn_pool(&playback, &mut crowd).expect("pool");
    crowd.bake(BakeSettings::default());
    crowd.set_animation(AnimationMode::Auto);
    r.add_model(&model, &throng::scene::model_basis(&model))
        .expect("model");
    r.renderer().upload_baked(&crowd).expect("baked");
    r.renderer().upload_looks(&crowd).expect("looks");
    r.renderer()
        .set_crowd_playback(&mut crowd, &tracks, &playback)
        .expect("playback on the GPU");
    let to_world = |p: [f64; 2]| playback.to_world(glam::DVec2::from(p));
    let bounds = throng::anim::Bounds {
        min: to_world(lo).min(to_world(hi)),
        max: to_world(lo).max(to_world(hi)) + glam::Vec3::Y * 2.0,
    };
    let frame = inputs(&r, &framing(&r, &bounds), &bounds, ViewMode::Final);
    let start = playback.start() + 20.0;
    let mut play = |r: &mut throng::gpu::HeadlessRenderer, f: usize| {
        let step = tracks
            .advance_to(&playback, start + f as f64 / 30.0)
            .expect("step");
        let (commands, writes) = tracks.uploads();
        r.renderer().step_crowd_tracks(step, commands, writes);
        r.renderer()
            .step_crowd_state(DeviceStep::held(crowd.len(), step.dt));
        r.render(&mut crowd, &frame).expect("frame");
    };
    for f in 0..150 {
        play(&mut r, f);
    }
    let before = counting_alloc::allocations();
    for f in 150..300 {
        play(&mut r, f);
    }
    let during = counting_alloc::allocations() - before;
    r.renderer().gpu_ms_average().expect("wait");
    assert_eq!(
        during, 0,
        "{during} allocations in 150 frames of a playback on the GPU"
    );
    assert!(tracks.present(&playback) > 20);
}
