//! `examples/steering_crowd.rs` runs: a program of its own drives a crowd through the public
//! API, its characters steering, changing clip by speed, leaving and joining while it runs.
//! The example's own scene is stepped and drawn here on a renderer with validation on, with a
//! counting allocator, with the crowd's state on the GPU and on the CPU: after warm-up, frames
//! in which characters are despawned and spawned allocate nothing on the CPU side. Then its headless entry point writes its picture, which
//! must show its characters: it differs from the same frame drawn with the crowd left out,
//! and the differences lie where the characters stand (their boxes projected through the
//! example's own camera, from a twin of its scene stepped as the entry point steps it).
//!
//! Without a Vulkan device this prints why and skips, except under `CI=true`, where it fails.

use std::path::Path;

#[path = "common/counting_alloc.rs"]
mod counting_alloc;
mod gpu_common;
#[path = "../examples/steering_crowd.rs"]
#[allow(dead_code)] // Its `main` and window, which open a display.
mod steering_crowd;

use steering_crowd::{DT, FEWEST, MOST, Scene, State};

#[global_allocator]
static ALLOCATOR: counting_alloc::Counting = counting_alloc::Counting;

#[test]
fn the_steering_crowd_example_comes_and_goes_without_allocating() {
    let _serial = counting_alloc::serial();
    for state in [State::Gpu, State::Cpu] {
        comes_and_goes_without_allocating(state);
    }
    gpu_common::assert_no_validation_messages();
}

/// The example's scene with its state where `state` says, 240 frames, small (what is counted
/// does not depend on the pixels; at 160x90 the 480 frames took a software rasterizer 75 s).
fn comes_and_goes_without_allocating(state: State) {
    let Some(mut r) = gpu_common::renderer_as_made(80, 45) else {
        return;
    };
    let mut scene = Scene::new(r.renderer(), state).expect("the scene");
    assert_eq!(r.renderer().has_crowd_state(), state == State::Gpu);
    assert_eq!(scene.crowd.len(), MOST);
    let extent = r.extent();
    let inputs = scene.inputs(extent.width as f32 / extent.height as f32);
    for _ in 0..20 {
        scene.step(DT, r.renderer()).expect("step");
        r.render(&mut scene.crowd, &inputs).expect("frame");
    }
    let warm = scene.tally;
    let mut seen = [0usize; 3];
    let before = counting_alloc::allocations();
    for _ in 0..220 {
        scene.step(DT, r.renderer()).expect("step");
        r.render(&mut scene.crowd, &inputs).expect("frame");
        for (s, g) in seen.iter_mut().zip(scene.tally.gaits) {
            *s = (*s).max(g);
        }
    }
    let during = counting_alloc::allocations() - before;
    let tally = scene.tally;
    eprintln!("{state:?}, after 240 frames: {tally:?}");
    assert_eq!(during, 0, "{state:?}: {during} allocations in 220 frames");
    assert!(
        tally.despawned > warm.despawned && tally.spawned > warm.spawned,
        "characters must leave and join in the counted frames: {warm:?} then {tally:?}"
    );
    assert!(
        (FEWEST..=MOST).contains(&scene.crowd.len()) && tally.fewest >= FEWEST,
        "{} characters, fewest {}",
        scene.crowd.len(),
        tally.fewest
    );
    assert!(
        seen.iter().all(|&n| n > 0),
        "idle, walking and running characters: at most {seen:?} at once"
    );
    assert!(tally.gait_changes > warm.gait_changes);
}

/// The example's headless picture, its size.
const WIDTH: u32 = 160;
const HEIGHT: u32 = 90;
/// Frames the headless entry point draws.
const FRAMES: u32 = 10;

/// The example's headless entry point writes a picture that shows its characters. Against
/// the same frame drawn with the crowd left out, through the example's own camera: most of
/// its 240 characters stand wholly in view (their bind pose's box where a twin of the scene
/// puts them, projected; measured 209); the pixels that differ are many (at least 5 a
/// character in view; measured 10.3), most of them within the characters' boxes (at least
/// 80%; measured 90%, the rest their shadows); and nearly every character in view (95%;
/// measured 207 of 209) differs at its chest (within a pixel of the projected point 60% up
/// its box). A picture without the characters (the entry point spawning none, or drawing
/// none) fails.
#[test]
fn the_steering_crowd_examples_picture_shows_its_characters() {
    let _serial = counting_alloc::serial();
    let Some(mut r) = gpu_common::renderer_as_made(WIDTH, HEIGHT) else {
        return;
    };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("example_steering_crowd");
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let png = dir.join(format!("picture-{}.png", std::process::id()));
    steering_crowd::run_headless(&mut r, State::Gpu, FRAMES, &png).expect("the example");
    let picture = image::open(&png).expect("the example's PNG").to_rgba8();
    let _ = std::fs::remove_file(&png);
    assert_eq!((picture.width(), picture.height()), (WIDTH, HEIGHT));

    // A twin of the example's scene (its own seed and fixed step put the same characters in
    // the same places), on a renderer of its own that draws nothing, and its camera.
    let mut elsewhere = gpu_common::renderer_as_made(16, 16).expect("a second renderer");
    let mut twin = Scene::new(elsewhere.renderer(), State::Cpu).expect("the scene");
    for _ in 0..FRAMES {
        twin.step(DT, elsewhere.renderer()).expect("step");
    }
    let inputs = twin.inputs(WIDTH as f32 / HEIGHT as f32);
    // The frame without its characters: an empty crowd of the same model, through the
    // example's camera, on the renderer the example drew with.
    let model = twin.crowd.models()[0].clone();
    let mut empty = throng::crowd::Crowd::new(0).expect("crowd");
    empty.add_model(model.clone());
    r.renderer()
        .set_crowd_state(&mut empty, None)
        .expect("the state back on the CPU");
    let background = r
        .render_pixels(&mut empty, &inputs)
        .expect("the empty frame");

    let rest = throng::scene::bind_pose_bounds(&model).expect("the model has vertices");
    let worlds: Vec<_> = (0..twin.crowd.len())
        .map(|i| *twin.crowd.world(i))
        .collect();
    let s = gpu_common::shown::shown(
        picture.as_raw(),
        &background.rgba8,
        (WIDTH, HEIGHT),
        inputs.view_proj,
        &worlds,
        &rest,
    );
    eprintln!("{s:?}");
    let (n, differing, on_characters, chests) = (s.in_view, s.differing, s.on_characters, s.chests);
    assert!(n >= 150, "{n} of the example's characters wholly in view");
    assert!(
        differing >= 5 * n,
        "only {differing} pixels differ from the frame without the {n} characters"
    );
    assert!(
        on_characters * 5 >= differing * 4,
        "{on_characters} of {differing} differing pixels lie within the characters' boxes"
    );
    assert!(
        chests * 20 >= n * 19,
        "{chests} of {n} characters differ at their chests"
    );
    gpu_common::assert_no_validation_messages();
}
