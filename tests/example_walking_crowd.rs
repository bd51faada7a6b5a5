//! `examples/walking_crowd.rs` runs: a program with only the library's public API lays out a
//! crowd, walks it with `motion::CrowdMotion` and renders it headless to PNG. The example's
//! own function is run here, on a renderer with validation on, so the example cannot rot
//! while the API it shows changes.
//!
//! Without a Vulkan device this prints why and skips, except under `CI=true`, where it fails.

use std::path::Path;

mod gpu_common;
#[path = "../examples/walking_crowd.rs"]
#[allow(dead_code)] // Its `main`, which makes a renderer of its own.
mod walking_crowd;

#[test]
fn the_walking_crowd_example_walks_changes_clips_and_writes_its_picture() {
    let Some(mut renderer) = gpu_common::renderer_as_made(160, 90) else {
        return;
    };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("example_walking_crowd");
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let png = dir.join(format!("{}.png", std::process::id()));

    // One second: each instance's turn to change clip comes every 4 s, so about a quarter of
    // the crowd changes.
    let walked = walking_crowd::walk_and_render(&mut renderer, 60, &png).expect("the example");

    assert_eq!(walked.instances, 100);
    // The built-in character's walk and run carry it; only its idlers stand.
    assert!(
        walked.moved > walked.instances / 4,
        "only {} of {} instances left their place",
        walked.moved,
        walked.instances
    );
    assert!(
        (20..=30).contains(&walked.clip_changes.changes),
        "{:?}",
        walked.clip_changes
    );
    let picture = image::open(&png).expect("the example's PNG");
    assert_eq!((picture.width(), picture.height()), (160, 90));
    gpu_common::assert_no_validation_messages();
    let _ = std::fs::remove_file(&png);
}
