//! Baked animation on the GPU: at a frame's time the baked pose is the exact pose (the same
//! pixels), between frames it stays within the error the crowd measured for the clip, and a
//! cross-fade of two baked clips looks like the exact cross-fade.

mod common;
mod gpu_common;

use common::silhouette::{iou, mask_from_rgba8};
use glam::Vec3;
use gpu_common::{
    assert_no_validation_messages, builtin, count_white, crowd_of, differing, inputs, render,
    renderer,
};
use throng::anim::Bounds;
use throng::crowd::{AnimationMode, BakeSettings, Crowd, ModelId};
use throng::gpu::{HeadlessRenderer, Pixels, ViewMode};
use throng::scene::Camera;

const SIZE: u32 = 256;

/// A camera a few metres in front of a character standing at the origin.
fn close_camera(bounds: &Bounds) -> Camera {
    let centre = 0.5 * (bounds.min + bounds.max);
    Camera {
        eye: centre + Vec3::new(1.2, 0.3, 3.0),
        target: centre,
        up: Vec3::Y,
        fov_y: throng::scene::DEFAULT_FOV_Y,
        near: 0.1,
        far: 20.0,
    }
}

fn frame_of(
    r: &mut HeadlessRenderer,
    crowd: &mut Crowd,
    camera: &Camera,
    bounds: &Bounds,
    mode: AnimationMode,
) -> Pixels {
    crowd.set_animation(mode);
    let frame = inputs(r, camera, bounds, ViewMode::Silhouette);
    render(r, crowd, &frame)
}

/// Silhouette pixels with a pixel of another kind among their four neighbours.
fn edge_pixels(p: &Pixels) -> usize {
    let mask = mask_from_rgba8(&p.rgba8);
    let (w, h) = (p.width as usize, p.height as usize);
    (0..w * h)
        .filter(|&i| {
            let (x, y) = (i % w, i / w);
            let neighbours = [
                (x > 0).then(|| i - 1),
                (x + 1 < w).then(|| i + 1),
                (y > 0).then(|| i - w),
                (y + 1 < h).then(|| i + w),
            ];
            mask[i] && neighbours.iter().flatten().any(|&j| !mask[j])
        })
        .count()
}

#[test]
fn baked_frames_match_exact_palettes_at_frame_times_and_stay_close_between() {
    let Some(mut r) = renderer(SIZE, SIZE) else {
        return;
    };
    let model = builtin();
    let run = model.clip_index("run").expect("run");
    let (mut crowd, bounds) = crowd_of(&mut r, std::slice::from_ref(&model), 1, 1);
    crowd.bake(BakeSettings::default());
    let entry = crowd
        .baked()
        .entry(crowd.bounds_range(ModelId(0)).start + run);
    let entry = entry.expect("the run clip is baked").clone();
    let camera = close_camera(&bounds);
    // The error in pixels: model units times pixels per unit at the character's distance.
    let distance = camera.eye.distance(camera.target) - 1.0;
    let pixels_per_unit = SIZE as f32 / (2.0 * (0.5 * camera.fov_y).tan()) / distance;
    let error_px = entry.error * pixels_per_unit;
    eprintln!(
        "run at 30 fps: error bound {} units, {error_px:.2} px",
        entry.error
    );
    let frames = entry.clip.frames();
    for k in [0, 1, frames / 3, frames / 2, frames - 2] {
        for (half, time) in [
            (false, entry.clip.time_of(k)),
            (
                true,
                0.5 * (entry.clip.time_of(k) + entry.clip.time_of(k + 1)),
            ),
        ] {
            let inst = crowd.instance_mut(0);
            inst.play(run, 0.0).expect("run");
            inst.set_time(time);
            inst.set_speed(0.0);
            crowd.update(0.0);
            let exact = frame_of(&mut r, &mut crowd, &camera, &bounds, AnimationMode::Exact);
            let baked = frame_of(&mut r, &mut crowd, &camera, &bounds, AnimationMode::Baked);
            assert_eq!(
                crowd.counts().baked,
                1,
                "the instance read its baked frames"
            );
            assert!(
                count_white(&exact) > 2000,
                "the character fills part of the frame"
            );
            let off = differing(&exact, &baked, 0);
            if half {
                // Between frames every edge may move by the error, rounded up.
                let allowed = edge_pixels(&exact) * (error_px.ceil() as usize + 1);
                assert!(
                    off <= allowed,
                    "frame {k}: {off} pixels differ mid-interval, more than {allowed}"
                );
            } else {
                assert_eq!(
                    off, 0,
                    "frame {k} at {time} s: the baked pose is not the exact one"
                );
            }
        }
    }
    assert_no_validation_messages();
}

#[test]
fn a_baked_cross_fade_looks_like_the_exact_one() {
    let Some(mut r) = renderer(SIZE, SIZE) else {
        return;
    };
    let model = builtin();
    let (mut crowd, bounds) = crowd_of(&mut r, std::slice::from_ref(&model), 9, 3);
    crowd.bake(BakeSettings::default());
    let clips = model.clips().len();
    for i in 0..crowd.len() {
        let inst = crowd.instance_mut(i);
        let next = (inst.clip() + 1) % clips;
        inst.set_speed(0.0);
        inst.play(next, 0.6).expect("fade");
    }
    // Halfway through the fade (the clocks stand still, the fade goes on).
    crowd.update(0.3);
    assert!(
        (0..crowd.len()).all(|i| crowd.instance(i).fade_weight().is_some()),
        "every instance is fading"
    );
    let camera = gpu_common::framing(&r, &bounds);
    let exact = frame_of(&mut r, &mut crowd, &camera, &bounds, AnimationMode::Exact);
    let baked = frame_of(&mut r, &mut crowd, &camera, &bounds, AnimationMode::Baked);
    assert_eq!(crowd.counts().baked, crowd.len());
    let overlap = iou(
        &mask_from_rgba8(&exact.rgba8),
        &mask_from_rgba8(&baked.rgba8),
    );
    eprintln!("exact and baked cross-fades overlap {overlap:.4}");
    if let Ok(dir) = std::env::var("THRONG_TEST_PICTURES") {
        exact
            .save_png(&std::path::Path::new(&dir).join("fade_exact.png"))
            .expect("png");
        baked
            .save_png(&std::path::Path::new(&dir).join("fade_baked.png"))
            .expect("png");
    }
    // The baked fade blends palettes, the exact one joint rotations: mid-fade a limb between
    // two far-apart poses comes out a little shorter baked. On figures some 60 pixels tall,
    // with limbs a few pixels wide, that costs a tenth of the overlap (0.917 measured).
    assert!(overlap > 0.88, "IoU {overlap}");
    assert_no_validation_messages();
}
