//! Baked clips: frames are exact palettes (bit for bit the crowd's evaluation, and within
//! rounding of an independent naive one), lookups are clamped and exact at frame times, the
//! measured error bounds the error between frames (against the naive evaluation too), and it
//! shrinks as the rate grows.

mod common;

use throng::anim::{
    AnimError, BakedClip, Mat3x4, PoseScratch, SkinnedModel, bake_clip, bake_error,
    gpu_skin_position,
};

fn builtin() -> SkinnedModel {
    throng::asset::builtin::model().expect("builtin")
}

fn bits(palettes: &[Mat3x4]) -> Vec<[u32; 12]> {
    palettes
        .iter()
        .map(|m| m.to_array().map(f32::to_bits))
        .collect()
}

#[test]
fn frames_are_the_exact_palettes_bit_for_bit() {
    let model = builtin();
    let joints = model.joint_count();
    let mut scratch = PoseScratch::new(joints);
    let mut exact = vec![Mat3x4::IDENTITY; joints];
    for (c, clip) in model.clips().iter().enumerate() {
        for fps in [15.0, 30.0, 60.0] {
            let baked = bake_clip(&model, c, fps).expect("bake");
            // The same product the baker takes, in f64, so a whole number stays whole.
            let intervals = (f64::from(clip.duration()) * f64::from(fps))
                .ceil()
                .max(1.0) as u32;
            assert_eq!(baked.frames(), intervals + 1, "{} at {fps}", clip.name());
            assert_eq!(baked.joints() as usize, joints);
            assert_eq!(baked.palettes().len(), (intervals as usize + 1) * joints);
            assert_eq!(baked.bytes(), baked.palettes().len() * 48);
            assert!(f64::from(baked.step()) <= (1.0 + 1e-6) / f64::from(fps) && baked.step() > 0.0);
            assert_eq!(baked.time_of(0), 0.0);
            assert_eq!(baked.time_of(intervals), clip.duration());
            for k in 0..baked.frames() {
                let t = baked.time_of(k);
                model.evaluate(c, t, &mut scratch, &mut exact);
                assert_eq!(
                    bits(baked.frame(k)),
                    bits(&exact),
                    "{} frame {k}",
                    clip.name()
                );
                // And against an evaluation that shares no code with the one the baker
                // calls (linear key search, glam's slerp, 4x4 matrices, recursive to-root):
                // equal up to rounding.
                let naive = common::naive::palette(&model, c, t);
                for (j, (got, want)) in baked.frame(k).iter().zip(&naive).enumerate() {
                    let diff = common::naive::relative_difference(got, want);
                    assert!(
                        diff < 1e-5,
                        "{} frame {k} joint {j}: {diff} from the naive evaluation",
                        clip.name()
                    );
                }
            }
        }
    }
}

#[test]
fn sampling_at_a_frame_time_gives_the_frame() {
    let model = builtin();
    let mut out = vec![Mat3x4::IDENTITY; model.joint_count()];
    for c in 0..model.clips().len() {
        let baked = bake_clip(&model, c, 30.0).expect("bake");
        for k in 0..baked.frames() {
            baked.sample(baked.time_of(k), &mut out);
            // Equal as numbers (a frame's -0.0 may come back as +0.0 from the blend).
            assert_eq!(out.as_slice(), baked.frame(k), "frame {k}");
        }
    }
}

#[test]
fn frame_at_clamps_every_edge() {
    let model = builtin();
    let walk = model.clip_index("walk").expect("walk");
    let baked = bake_clip(&model, walk, 30.0).expect("bake");
    let last = baked.frames() - 2;
    let end = baked.duration();
    assert_eq!(baked.frame_at(0.0), (0, 0.0));
    assert_eq!(baked.frame_at(-0.5), (0, 0.0));
    assert_eq!(baked.frame_at(f32::NAN), (0, 0.0), "NaN plays as 0");
    assert_eq!(baked.frame_at(end), (last, 1.0));
    assert_eq!(baked.frame_at(end + 10.0), (last, 1.0));
    assert_eq!(baked.frame_at(f32::INFINITY), (last, 1.0));
    // Just inside either end.
    let (f, w) = baked.frame_at(end - 1e-4);
    assert_eq!(f, last);
    assert!(w > 0.99 && w < 1.0, "{w}");
    let (f, w) = baked.frame_at(1e-4);
    assert_eq!(f, 0);
    assert!(w > 0.0 && w < 0.01, "{w}");
    // The palette at the end is the last frame.
    let mut out = vec![Mat3x4::IDENTITY; model.joint_count()];
    baked.sample(end + 1.0, &mut out);
    assert_eq!(out.as_slice(), baked.frame(baked.frames() - 1));
}

/// The largest joint-position and vertex distances between baked and exact at `time`, with
/// the exact pose from the naive evaluation (not the one the baker and its error measurement
/// call).
fn error_at(model: &SkinnedModel, clip: usize, baked: &BakedClip, time: f32) -> (f32, f32) {
    let n = model.joint_count();
    let exact: Vec<Mat3x4> = common::naive::palette(model, clip, time)
        .iter()
        .map(Mat3x4::from_mat4)
        .collect();
    let mut approx = vec![Mat3x4::IDENTITY; n];
    baked.sample(time, &mut approx);
    let mut joint = 0.0f32;
    for ((e, a), o) in exact.iter().zip(&approx).zip(model.skeleton().offsets()) {
        let bind = o.inverse().expect("invertible offset").translation();
        joint = joint.max(e.transform_point3(bind).distance(a.transform_point3(bind)));
    }
    let mut vertex = 0.0f32;
    for v in &model.mesh().vertices {
        vertex = vertex.max(gpu_skin_position(v, &exact).distance(gpu_skin_position(v, &approx)));
    }
    (joint, vertex)
}

#[test]
fn errors_between_frames_stay_within_the_measured_figure() {
    let model = builtin();
    for c in 0..model.clips().len() {
        let baked = bake_clip(&model, c, 30.0).expect("bake");
        let measured = bake_error(&model, c, &baked, 64).expect("measure");
        // The measurement takes 65 times per interval; the worst error between them can be
        // a little higher (the error is near its peak for a while mid-interval): 5% more.
        let (joint_limit, vertex_limit) = (measured.joint_position * 1.05, measured.vertex * 1.05);
        let duration = baked.duration();
        for k in 0..997 {
            let t = duration * (k as f32 + 0.5) / 997.0;
            let (joint, vertex) = error_at(&model, c, &baked, t);
            assert!(
                joint <= joint_limit,
                "clip {c} at {t}: {joint} > {joint_limit}"
            );
            assert!(
                vertex <= vertex_limit,
                "clip {c} at {t}: {vertex} > {vertex_limit}"
            );
        }
        // Something is measured at all: the clips move.
        assert!(measured.vertex > 0.0 && measured.joint_position > 0.0);
        // Both stay well under a limb's width on a 1.8 m character at 30 frames per second
        // (the run's swinging foot, the fastest point, is about 6 cm off between frames).
        assert!(measured.vertex < 0.08, "{measured:?}");
        assert!(measured.joint_position < 0.08, "{measured:?}");
    }
}

#[test]
fn error_shrinks_as_the_rate_grows() {
    let model = builtin();
    for name in ["walk", "run"] {
        let c = model.clip_index(name).expect("clip");
        let errors: Vec<_> = [15.0, 30.0, 60.0]
            .iter()
            .map(|&fps| {
                let baked = bake_clip(&model, c, fps).expect("bake");
                bake_error(&model, c, &baked, 8).expect("measure")
            })
            .collect();
        eprintln!("builtin {name} at 15, 30, 60 fps: {errors:?}");
        for pair in errors.windows(2) {
            assert!(
                pair[1].joint_position < pair[0].joint_position,
                "{name}: {errors:?}"
            );
            assert!(pair[1].vertex < pair[0].vertex, "{name}: {errors:?}");
        }
    }
}

#[test]
fn bad_clips_rates_and_mismatches_are_errors() {
    let model = builtin();
    let count = model.clips().len();
    assert_eq!(
        bake_clip(&model, count, 30.0),
        Err(AnimError::ClipIndex {
            index: count,
            count
        })
    );
    for fps in [0.0, -30.0, f32::NAN, f32::INFINITY] {
        assert!(matches!(
            bake_clip(&model, 0, fps),
            Err(AnimError::SampleRate { .. })
        ));
    }
    assert!(matches!(
        bake_clip(&model, 0, 1e9),
        Err(AnimError::TooManySamples { .. })
    ));
    let walk = model.clip_index("walk").expect("walk");
    let run = model.clip_index("run").expect("run");
    let baked = bake_clip(&model, walk, 30.0).expect("bake");
    assert!(bake_error(&model, count, &baked, 1).is_err());
    if model.clips()[run].duration() != baked.duration() {
        assert!(matches!(
            bake_error(&model, run, &baked, 1),
            Err(AnimError::BakedMismatch { .. })
        ));
    }
    let other = common::shared_asset("gltf/CesiumMan.glb");
    let other = throng::asset::load_file(&other).expect("CesiumMan");
    assert!(matches!(
        bake_error(&other, 0, &baked, 1),
        Err(AnimError::BakedMismatch { .. })
    ));
}

#[test]
fn real_models_bake_with_small_errors() {
    for relative in ["m3d/soldier.m3d", "gltf/CesiumMan.glb"] {
        let model = throng::asset::load_file(&common::shared_asset(relative)).expect("model");
        let height = model
            .mesh()
            .bounds()
            .expect("vertices")
            .size()
            .max_element();
        for c in 0..model.clips().len() {
            let baked = bake_clip(&model, c, 30.0).expect("bake");
            let e = bake_error(&model, c, &baked, 2).expect("measure");
            eprintln!("{relative} clip {c}: {e:?}, height {height}");
            assert!(e.vertex < 0.01 * height, "{relative} clip {c}: {e:?}");
        }
    }
}
