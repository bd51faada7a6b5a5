//! Baked animation on the GPU: at a frame's time the baked pose is the exact pose (the same
//! pixels); between frames only pixels within the error the crowd measured for the clip (plus
//! a stated margin) of the exact silhouette's edge change; the GPU draws the blend of the
//! frames it was given (a coarse table whose blend is visibly not the exact pose); and a
//! cross-fade of two baked clips looks like the exact cross-fade.

mod common;
mod gpu_common;

use common::silhouette::{iou, mask_from_rgba8, silhouette};
use glam::Vec3;
use gpu_common::{
    assert_no_validation_messages, builtin, count_white, crowd_of, differing, inputs, render,
    renderer, single_sample_renderer,
};
use throng::anim::{Bounds, Mat3x4, PoseScratch};
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

/// For every pixel, the distance (in pixels, Euclidean) to the nearest pixel on the edge of
/// `mask`: a covered pixel with an uncovered 4-neighbour or the reverse. Brute force over
/// the edge pixels: the frames here are small.
fn distance_to_edge(mask: &[bool], w: usize, h: usize) -> Vec<f32> {
    let edge: Vec<(i64, i64)> = (0..w * h)
        .filter(|&i| {
            let (x, y) = (i % w, i / w);
            let neighbours = [
                (x > 0).then(|| i - 1),
                (x + 1 < w).then(|| i + 1),
                (y > 0).then(|| i - w),
                (y + 1 < h).then(|| i + w),
            ];
            neighbours.iter().flatten().any(|&j| mask[j] != mask[i])
        })
        .map(|i| ((i % w) as i64, (i / w) as i64))
        .collect();
    (0..w * h)
        .map(|i| {
            let (x, y) = ((i % w) as i64, (i / w) as i64);
            edge.iter()
                .map(|&(ex, ey)| (((ex - x).pow(2) + (ey - y).pow(2)) as f32).sqrt())
                .fold(f32::INFINITY, f32::min)
        })
        .collect()
}

/// Holds instance 0 of `crowd` at `time` of `clip`.
fn hold(crowd: &mut Crowd, clip: usize, time: f32) {
    let inst = crowd.instance_mut(0);
    inst.play(clip, 0.0).expect("clip");
    inst.set_time(time);
    inst.set_speed(0.0);
    crowd.update(0.0);
}

/// How far a pixel that changes between the exact and the baked frame may lie from the exact
/// silhouette's edge beyond the measured error: the edge pixels themselves flip when the edge
/// moves by less than a pixel (their centres sit up to half a pixel, diagonally 0.71, from
/// the edge), and the baked frames' error is measured at vertices while a triangle's edge
/// between two vertices may come a little nearer.
const EDGE_MARGIN_PX: f32 = 1.5;

#[test]
fn baked_frames_match_exact_palettes_at_frame_times_and_stay_close_between() {
    let Some(mut r) = single_sample_renderer(SIZE, SIZE) else {
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
    // The error in pixels: model units times pixels per unit, at a metre nearer than the
    // character's centre (its nearest part is nearer than the centre, and looks larger).
    let distance = camera.eye.distance(camera.target) - 1.0;
    let pixels_per_unit = SIZE as f32 / (2.0 * (0.5 * camera.fov_y).tan()) / distance;
    let error_px = entry.error * pixels_per_unit;
    let allowed_px = error_px + EDGE_MARGIN_PX;
    eprintln!(
        "run at 30 fps: error bound {} units, {error_px:.2} px; changed pixels allowed within \
         {allowed_px:.2} px of the exact edge",
        entry.error
    );
    let frames = entry.clip.frames();
    let (mut changed_between, mut farthest_between) = (0, 0.0f32);
    for k in [0, 1, frames / 3, frames / 2, frames - 2] {
        let (at, between) = (
            entry.clip.time_of(k),
            0.5 * (entry.clip.time_of(k) + entry.clip.time_of(k + 1)),
        );
        for (half, time) in [(false, at), (true, between)] {
            hold(&mut crowd, run, time);
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
            if !half {
                assert_eq!(
                    differing(&exact, &baked, 0),
                    0,
                    "frame {k} at {time} s: the baked pose is not the exact one"
                );
                continue;
            }
            // Between frames the baked pose may differ, but only where an edge of the
            // exact silhouette moved by at most the measured error.
            let (e, b) = (mask_from_rgba8(&exact.rgba8), mask_from_rgba8(&baked.rgba8));
            let distance = distance_to_edge(&e, SIZE as usize, SIZE as usize);
            let changed: Vec<usize> = (0..e.len()).filter(|&i| e[i] != b[i]).collect();
            changed_between += changed.len();
            let farthest = changed.iter().map(|&i| distance[i]).fold(0.0f32, f32::max);
            farthest_between = farthest_between.max(farthest);
            // And the picture is the blend of the two frames the CPU computes from the same
            // table (a wrong weight or frame would move the edges within the bound above).
            let mut palette = vec![Mat3x4::IDENTITY; model.joint_count()];
            entry.clip.sample(time, &mut palette);
            let view_proj = inputs(&r, &camera, &bounds, ViewMode::Silhouette).view_proj;
            let cpu = silhouette(
                &model,
                &palette,
                crowd.world(0),
                view_proj,
                SIZE as usize,
                SIZE as usize,
            );
            let overlap = iou(&b, &cpu);
            assert!(
                overlap >= 0.98,
                "frame {k}, mid-interval: the GPU's baked picture overlaps the CPU's blend of \
                 frames {k} and {} only {overlap:.3}",
                k + 1
            );
            assert!(
                farthest <= allowed_px,
                "frame {k}, mid-interval: a pixel {farthest:.2} px from the exact silhouette's \
                 edge changed, more than the measured error ({error_px:.2} px) and the margin \
                 ({EDGE_MARGIN_PX} px); {} pixels changed",
                changed.len()
            );
        }
    }
    eprintln!(
        "{changed_between} pixels changed mid-interval over the five intervals, the farthest \
         {farthest_between:.2} px from the exact edge"
    );
    assert_no_validation_messages();
}

#[test]
fn the_gpu_draws_the_baked_frames_it_was_given() {
    // Baked at 2 frames per second, the run's pose halfway between two frames is a blend of
    // palettes far apart: visibly not the exact pose. The GPU's picture must be that blend,
    // as the CPU computes it from the same table, and not the exact pose (which a renderer
    // ignoring the table, or reading the wrong frame, would draw).
    let Some(mut r) = single_sample_renderer(SIZE, SIZE) else {
        return;
    };
    let model = builtin();
    let run = model.clip_index("run").expect("run");
    let (mut crowd, bounds) = crowd_of(&mut r, std::slice::from_ref(&model), 1, 1);
    crowd.bake(BakeSettings {
        fps: 2.0,
        ..BakeSettings::default()
    });
    let entry = crowd
        .baked()
        .entry(crowd.bounds_range(ModelId(0)).start + run)
        .expect("the run clip is baked")
        .clone();
    assert!(entry.clip.frames() >= 2, "{} frames", entry.clip.frames());
    let time = 0.5 * (entry.clip.time_of(0) + entry.clip.time_of(1));
    hold(&mut crowd, run, time);
    let camera = close_camera(&bounds);
    let exact = frame_of(&mut r, &mut crowd, &camera, &bounds, AnimationMode::Exact);
    let baked = frame_of(&mut r, &mut crowd, &camera, &bounds, AnimationMode::Baked);
    assert_eq!(crowd.counts().baked, 1);

    let n = model.joint_count();
    let mut exact_palette = vec![Mat3x4::IDENTITY; n];
    model.evaluate(run, time, &mut PoseScratch::new(n), &mut exact_palette);
    let mut baked_palette = vec![Mat3x4::IDENTITY; n];
    entry.clip.sample(time, &mut baked_palette);
    let frame = inputs(&r, &camera, &bounds, ViewMode::Silhouette);
    let cpu = |palette: &[Mat3x4]| {
        silhouette(
            &model,
            palette,
            crowd.world(0),
            frame.view_proj,
            SIZE as usize,
            SIZE as usize,
        )
    };
    let (cpu_exact, cpu_baked) = (cpu(&exact_palette), cpu(&baked_palette));
    let (gpu_exact, gpu_baked) = (mask_from_rgba8(&exact.rgba8), mask_from_rgba8(&baked.rgba8));
    let scores = [
        iou(&gpu_exact, &cpu_exact),
        iou(&gpu_baked, &cpu_baked),
        iou(&gpu_baked, &cpu_exact),
        iou(&cpu_baked, &cpu_exact),
    ];
    eprintln!(
        "IoU: exact GPU/CPU {:.3}, baked GPU/CPU {:.3}, baked GPU / exact CPU {:.3}, the two \
         CPU poses {:.3}",
        scores[0], scores[1], scores[2], scores[3]
    );
    // The two poses are far apart, so the comparisons below can tell them apart.
    assert!(
        scores[3] < 0.85,
        "the blended pose is too close to the exact one ({:.3}) for this test",
        scores[3]
    );
    assert!(
        scores[0] >= 0.95,
        "exact: GPU and CPU overlap {:.3}",
        scores[0]
    );
    assert!(
        scores[1] >= 0.95,
        "baked: the GPU's picture overlaps the CPU's blend of the same frames {:.3}",
        scores[1]
    );
    assert!(
        scores[2] < scores[1] - 0.05,
        "baked: the GPU's picture is as close to the exact pose ({:.3}) as to the baked one \
         ({:.3})",
        scores[2],
        scores[1]
    );
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
