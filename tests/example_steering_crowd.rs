//! `examples/steering_crowd.rs` runs: a program of its own drives a crowd through the public
//! API, its characters steering, changing clip by speed, leaving and joining while it runs.
//! The example's own scene is stepped and drawn here on a renderer with validation on, with a
//! counting allocator: after warm-up, frames in which characters are despawned and spawned
//! allocate nothing on the CPU side. Then its headless entry point writes its picture.
//!
//! Without a Vulkan device this prints why and skips, except under `CI=true`, where it fails.

use std::path::Path;

#[path = "common/counting_alloc.rs"]
mod counting_alloc;
mod gpu_common;
#[path = "../examples/steering_crowd.rs"]
#[allow(dead_code)] // Its `main` and window, which open a display.
mod steering_crowd;

use steering_crowd::{DT, FEWEST, MOST, Scene};

#[global_allocator]
static ALLOCATOR: counting_alloc::Counting = counting_alloc::Counting;

#[test]
fn the_steering_crowd_example_comes_and_goes_without_allocating() {
    let _serial = counting_alloc::serial();
    let Some(mut r) = gpu_common::renderer_as_made(160, 90) else {
        return;
    };
    let mut scene = Scene::new(r.renderer()).expect("the scene");
    assert_eq!(scene.crowd.len(), MOST);
    let extent = r.extent();
    let inputs = scene.inputs(extent.width as f32 / extent.height as f32);
    for _ in 0..20 {
        scene.step(DT).expect("step");
        r.render(&mut scene.crowd, &inputs).expect("frame");
    }
    let warm = scene.tally;
    let mut seen = [0usize; 3];
    let before = counting_alloc::allocations();
    for _ in 0..220 {
        scene.step(DT).expect("step");
        r.render(&mut scene.crowd, &inputs).expect("frame");
        for (s, g) in seen.iter_mut().zip(scene.tally.gaits) {
            *s = (*s).max(g);
        }
    }
    let during = counting_alloc::allocations() - before;
    let tally = scene.tally;
    eprintln!("after 240 frames: {tally:?}");
    assert_eq!(during, 0, "{during} allocations in 220 frames");
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
    drop(_serial);
    drop(r);

    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("example_steering_crowd");
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let png = dir.join(format!("{}.png", std::process::id()));
    let mut r = gpu_common::renderer_as_made(160, 90).expect("a second renderer");
    steering_crowd::run_headless(&mut r, 10, &png).expect("the example");
    let picture = image::open(&png).expect("the example's PNG");
    assert_eq!((picture.width(), picture.height()), (160, 90));
    gpu_common::assert_no_validation_messages();
    let _ = std::fs::remove_file(&png);
}
