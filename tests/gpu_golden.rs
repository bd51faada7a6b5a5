//! Golden images: whole frames compared with reference renders in `tests/golden/`, with a
//! tolerance, so a change anywhere between the animation and the shaders that alters what
//! is drawn shows up as a failing picture.
//!
//! - `builtin_walk_final.png`, `builtin_walk_silhouette.png`: the built-in character holding
//!   `walk` at 0.25 s, lit and as a silhouette.
//! - `crowd64_final.png`: 64 built-in characters laid out with seed 3, each frozen at the
//!   clip and phase the layout gave it.
//! - `crowd9_full.png`: 9 built-in characters holding `walk` at 0.25 s, every pass on
//!   (shadow map fitted to the crowd, SSAO with a radius of a fifth of their height), the
//!   camera leaving room on the ground for their shadows.
//! - `crowd9_ao.png`, `crowd9_normals.png`, `crowd9_depth.png`, `crowd9_shadow.png`: the same
//!   frame's debug views (blurred ambient occlusion, view-space normals, linear depth, the
//!   shadow map).
//!
//! All 256x256, rendered on lavapipe with validation on. A frame matches when fewer than
//! 0.5 % of its pixels differ from the golden by more than 8 in any channel. On a mismatch
//! the frame is written to `target/golden-actual/NAME.png` (with `NAME-diff.png` marking the
//! differing pixels in red) and the count is reported.
//!
//! After an intended change of the picture, refresh the goldens, look at them, and commit:
//!
//! ```text
//! THRONG_UPDATE_GOLDEN=1 cargo test --test gpu_golden
//! ```

mod gpu_common;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use throng::anim::SkinnedModel;
use throng::asset;
use throng::gpu::{HeadlessRenderer, Pixels, RenderSettings, ViewMode};

use gpu_common::*;

const SIZE: u32 = 256;

/// A renderer of the goldens' size drawing the frames the goldens were made with: default
/// settings but a 2048-texel shadow map, the default when they were made (the default now
/// follows the frame's size: 512 at this size, whose softer shadow edges the goldens would
/// report; its rule has a unit test of its own).
fn golden_renderer() -> Option<HeadlessRenderer> {
    let mut r = renderer(SIZE, SIZE)?;
    r.renderer()
        .set_settings(RenderSettings {
            shadow_size: Some(2048),
            ..RenderSettings::default()
        })
        .expect("settings");
    Some(r)
}
/// A channel may differ by this much before the pixel counts as different.
const CHANNEL_TOLERANCE: u8 = 8;
/// At most this fraction of the pixels may differ.
const MAX_DIFFERING: f64 = 0.005;

fn builtin() -> Arc<SkinnedModel> {
    Arc::new(asset::load_model(None).expect("the builtin character"))
}

fn golden_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(format!("{name}.png"))
}

/// `target/golden-actual` (next to `target/tmp`, wherever the target folder is).
fn actual_dir() -> PathBuf {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    tmp.parent().unwrap_or(tmp).join("golden-actual")
}

fn to_image(p: &Pixels) -> image::RgbaImage {
    image::RgbaImage::from_raw(p.width, p.height, p.rgba8.clone())
        .expect("the frame holds width x height RGBA pixels")
}

fn save(img: &image::RgbaImage, path: &Path) {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    }
    img.save(path)
        .unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
}

/// Compares `frame` with the golden `name` (or rewrites the golden under
/// `THRONG_UPDATE_GOLDEN=1`).
fn check_golden(name: &str, frame: &Pixels) {
    let actual = to_image(frame);
    let golden = golden_path(name);
    if std::env::var("THRONG_UPDATE_GOLDEN").as_deref() == Ok("1") {
        save(&actual, &golden);
        eprintln!("updated {}", golden.display());
        return;
    }
    let actual_path = actual_dir().join(format!("{name}.png"));
    let expected = match image::open(&golden) {
        Ok(img) => img.to_rgba8(),
        Err(e) => {
            save(&actual, &actual_path);
            panic!(
                "golden {}: {e}; this frame is in {}; create the goldens with \
                 THRONG_UPDATE_GOLDEN=1 cargo test --test gpu_golden",
                golden.display(),
                actual_path.display()
            );
        }
    };
    if expected.dimensions() != actual.dimensions() {
        save(&actual, &actual_path);
        panic!(
            "{name}: golden is {:?}, frame is {:?} (frame written to {})",
            expected.dimensions(),
            actual.dimensions(),
            actual_path.display()
        );
    }
    let mut diff = image::RgbaImage::new(actual.width(), actual.height());
    let mut differing = 0usize;
    for ((a, e), d) in actual
        .pixels()
        .zip(expected.pixels())
        .zip(diff.pixels_mut())
    {
        let off =
            a.0.iter()
                .zip(e.0.iter())
                .any(|(x, y)| x.abs_diff(*y) > CHANNEL_TOLERANCE);
        if off {
            differing += 1;
            *d = image::Rgba([255, 0, 0, 255]);
        } else {
            // The golden, dimmed, as context for the red pixels.
            let [r, g, b, _] = e.0;
            *d = image::Rgba([r / 3, g / 3, b / 3, 255]);
        }
    }
    let total = (actual.width() * actual.height()) as usize;
    let limit = (total as f64 * MAX_DIFFERING) as usize;
    eprintln!("{name}: {differing} of {total} pixels differ by more than {CHANNEL_TOLERANCE}");
    if differing > limit {
        save(&actual, &actual_path);
        let diff_path = actual_dir().join(format!("{name}-diff.png"));
        save(&diff, &diff_path);
        panic!(
            "{name}: {differing} of {total} pixels differ from {} by more than \
             {CHANNEL_TOLERANCE} (at most {limit} may); frame: {}, differences: {}",
            golden.display(),
            actual_path.display(),
            diff_path.display()
        );
    }
}

/// The built-in character alone, holding `walk` at 0.25 s, framed as `gpu_common` frames it.
fn one_character(view: ViewMode) -> Option<Pixels> {
    let mut r = golden_renderer()?;
    let model = builtin();
    let (mut crowd, bounds) = crowd_of(&mut r, std::slice::from_ref(&model), 1, 7);
    let walk = model
        .clip_index("walk")
        .expect("the builtin has a walk clip");
    hold_pose(&mut crowd, walk, 0.25);
    let camera = framing(&r, &bounds);
    let frame = render_view(&mut r, &mut crowd, &camera, &bounds, view);
    assert_no_validation_messages();
    Some(frame)
}

#[test]
fn builtin_walk_final() {
    let Some(frame) = one_character(ViewMode::Final) else {
        return;
    };
    // The frame itself is plausible before it is compared: sky, ground and a figure make
    // many colours (a blank or black frame would not).
    let mut colours: Vec<[u8; 4]> = frame
        .rgba8
        .chunks_exact(4)
        .map(|p| [p[0], p[1], p[2], p[3]])
        .collect();
    colours.sort_unstable();
    colours.dedup();
    assert!(colours.len() > 100, "only {} colours", colours.len());
    check_golden("builtin_walk_final", &frame);
}

#[test]
fn builtin_walk_silhouette() {
    let Some(frame) = one_character(ViewMode::Silhouette) else {
        return;
    };
    let total = (SIZE * SIZE) as usize;
    let white = count_white(&frame);
    assert!(
        white > total / 50 && white < total / 3,
        "{white} of {total} pixels white"
    );
    check_golden("builtin_walk_silhouette", &frame);
}

#[test]
fn crowd64_final() {
    let Some(mut r) = golden_renderer() else {
        return;
    };
    let (mut crowd, bounds) = crowd_of(&mut r, &[builtin()], 64, 3);
    // Freeze every instance where the layout put it (its own clip and phase): varied poses,
    // yet the same frame on every run.
    for i in 0..crowd.len() {
        crowd.instance_mut(i).set_speed(0.0);
    }
    crowd.update(0.0);
    let camera = framing(&r, &bounds);
    let frame = render_view(&mut r, &mut crowd, &camera, &bounds, ViewMode::Final);
    assert_no_validation_messages();
    check_golden("crowd64_final", &frame);
}

/// Nine built-in characters holding `walk` at 0.25 s, framed with room for their shadows,
/// every pass on with a 1024-texel shadow map; `view` of that frame.
fn crowd9(view: ViewMode) -> Option<Pixels> {
    let mut r = renderer(SIZE, SIZE)?;
    let model = builtin();
    let (mut crowd, bounds) = crowd_of(&mut r, std::slice::from_ref(&model), 9, 5);
    let walk = model
        .clip_index("walk")
        .expect("the builtin has a walk clip");
    hold_pose(&mut crowd, walk, 0.25);
    let mut frame = inputs_with_shadows(&r, &bounds, view);
    frame.ssao_radius = 0.2 * (bounds.max.y - bounds.min.y);
    r.renderer()
        .set_settings(RenderSettings {
            shadow_size: Some(1024),
            ..RenderSettings::default()
        })
        .expect("settings");
    let pixels = render(&mut r, &mut crowd, &frame);
    assert_no_validation_messages();
    Some(pixels)
}

#[test]
fn crowd9_full() {
    let Some(frame) = crowd9(ViewMode::Final) else {
        return;
    };
    check_golden("crowd9_full", &frame);
}

#[test]
fn crowd9_ao() {
    let Some(frame) = crowd9(ViewMode::Ao) else {
        return;
    };
    check_golden("crowd9_ao", &frame);
}

#[test]
fn crowd9_normals() {
    let Some(frame) = crowd9(ViewMode::Normals) else {
        return;
    };
    check_golden("crowd9_normals", &frame);
}

#[test]
fn crowd9_depth() {
    let Some(frame) = crowd9(ViewMode::Depth) else {
        return;
    };
    check_golden("crowd9_depth", &frame);
}

#[test]
fn crowd9_shadow() {
    let Some(frame) = crowd9(ViewMode::Shadow) else {
        return;
    };
    check_golden("crowd9_shadow", &frame);
}
