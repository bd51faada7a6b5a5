//! `examples/walking_crowd.rs` runs: a program with only the library's public API lays out a
//! crowd, walks it with `motion::CrowdMotion` and renders it headless to PNG. The example's
//! own function is run here, on a renderer with validation on, so the example cannot rot
//! while the API it shows changes; and its picture must show its characters where they
//! stand (against the same frame drawn with the crowd left out).
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
    let picture = image::open(&png).expect("the example's PNG").to_rgba8();
    assert_eq!((picture.width(), picture.height()), (160, 90));
    let _ = std::fs::remove_file(&png);

    // The same frame with the crowd left out, through the example's camera: an empty crowd
    // of the same model on the renderer it drew with.
    let model = std::sync::Arc::new(throng::asset::load_model(None).expect("builtin"));
    let mut empty = throng::crowd::Crowd::new(0).expect("crowd");
    empty.add_model(model.clone());
    let background = renderer
        .render_pixels(&mut empty, &walked.inputs)
        .expect("the empty frame");
    let rest = throng::scene::bind_pose_bounds(&model).expect("the model has vertices");
    let s = gpu_common::shown::shown(
        picture.as_raw(),
        &background.rgba8,
        (160, 90),
        walked.inputs.view_proj,
        &walked.worlds,
        &rest,
    );
    eprintln!("{s:?}");
    // Measured: 99 characters wholly in view, 2,470 pixels differing (25 a character), 98% of
    // them within the characters' boxes, every chest; the bounds leave room for rounding,
    // not for a frame without the characters.
    assert!(
        s.in_view >= 90,
        "{} of the 100 characters wholly in view",
        s.in_view
    );
    assert!(
        s.differing >= 5 * s.in_view,
        "only {} pixels differ from the frame without the characters",
        s.differing
    );
    assert!(
        s.on_characters * 5 >= s.differing * 4,
        "{} of {} differing pixels lie within the characters' boxes",
        s.on_characters,
        s.differing
    );
    assert!(
        s.chests * 20 >= s.in_view * 19,
        "{} of {} characters differ at their chests",
        s.chests,
        s.in_view
    );
    gpu_common::assert_no_validation_messages();
}
