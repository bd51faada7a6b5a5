//! Four-instance batch evaluation against the per-instance path.

use glam::{Quat, Vec3};
use throng::anim::{
    AnimationClip, Batch, BatchScratch, Channel, Interpolation, Joint, JointTrack, MAX_LANES,
    Mat3x4, Mesh, PoseScratch, Skeleton, SkinnedModel, Transform, batch_lanes, evaluate_batch,
};
use throng::asset::builtin;

fn assert_close(a: &[Mat3x4], b: &[Mat3x4], what: &str) {
    for (j, (x, y)) in a.iter().zip(b).enumerate() {
        let scale = y.to_array().iter().fold(1.0f32, |m, v| m.max(v.abs()));
        assert!(
            x.abs_diff_eq(y, 2e-6 * scale),
            "{what}: joint {j}\n {:?}\n {:?}",
            x.to_array(),
            y.to_array()
        );
    }
}

fn check_model(model: &SkinnedModel, times: &[f32]) {
    let n = model.joint_count();
    let mut batch = BatchScratch::default();
    let mut pose = PoseScratch::new(n);
    for clip in 0..model.clips().len() {
        for window in times.chunks(batch_lanes()) {
            let mut lane_times = [window[0]; MAX_LANES];
            lane_times[..window.len()].copy_from_slice(window);
            let mut outs = vec![Mat3x4::IDENTITY; n * window.len()];
            let request = Batch {
                model,
                clip,
                times: lane_times,
                lanes: window.len(),
                streaming: clip % 2 == 1,
            };
            evaluate_batch(&request, &mut batch, &mut outs);
            for (l, out) in outs.chunks_exact(n).enumerate() {
                let mut single = vec![Mat3x4::IDENTITY; n];
                model.evaluate(clip, window[l], &mut pose, &mut single);
                assert_close(out, &single, &format!("clip {clip} at {}", window[l]));
            }
        }
    }
}

#[test]
fn builtin_batches_match_single_instances() {
    let model = builtin::model().expect("builtin");
    let times: Vec<f32> = (0..23).map(|i| i as f32 * 0.137 - 0.2).collect();
    check_model(&model, &times);
}

/// Three joints; the clip mixes linear, STEP and CUBICSPLINE channels with different times.
fn mixed_model() -> SkinnedModel {
    let bind = |y| Transform::new(Vec3::new(0.0, y, 0.0), Quat::IDENTITY, Vec3::ONE);
    let skeleton = Skeleton::with_derived_offsets(vec![
        Joint::new("a", None, bind(0.0)),
        Joint::new("b", Some(0), bind(1.0)),
        Joint::new("c", Some(1), bind(1.0)),
    ])
    .expect("skeleton");
    let q = |a: f32| Quat::from_rotation_z(a) * Quat::from_rotation_x(0.5 * a);
    let z = Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);
    let tracks = vec![
        JointTrack {
            translation: Some(Channel::linear(
                vec![0.0, 0.4, 1.0],
                vec![Vec3::ZERO, Vec3::X, Vec3::Y],
            )),
            rotation: Some(Channel::linear(vec![0.1, 0.9], vec![q(0.0), q(2.5)])),
            scale: None,
        },
        JointTrack {
            translation: Some(Channel {
                times: vec![0.0, 0.5, 1.0],
                values: vec![Vec3::ZERO, Vec3::ONE, Vec3::ZERO],
                interpolation: Interpolation::Step,
            }),
            rotation: Some(Channel {
                times: vec![0.0, 1.0],
                values: vec![z, q(0.0), Quat::from_xyzw(0.1, 0.0, 0.0, 0.0), z, q(1.0), z],
                interpolation: Interpolation::CubicSpline,
            }),
            scale: Some(Channel::linear(
                vec![0.0, 1.0],
                vec![Vec3::ONE, Vec3::splat(2.0)],
            )),
        },
        JointTrack {
            translation: Some(Channel {
                times: vec![0.2, 0.7],
                values: vec![Vec3::ZERO, Vec3::Z, Vec3::X, Vec3::X, Vec3::Y, Vec3::ZERO],
                interpolation: Interpolation::CubicSpline,
            }),
            rotation: Some(Channel {
                times: vec![0.0, 0.3],
                values: vec![q(0.3), -q(1.3)],
                interpolation: Interpolation::Step,
            }),
            scale: None,
        },
    ];
    let clip = AnimationClip::new("mixed", tracks, &skeleton).expect("clip");
    SkinnedModel::new("mixed", "test", skeleton, vec![clip], Mesh::default()).expect("model")
}

#[test]
fn every_interpolation_kind_matches_single_instances() {
    let times: Vec<f32> = (0..29)
        .map(|i| i as f32 * 0.05 - 0.1)
        .chain([0.5, 0.3, 1.0, 0.4])
        .collect();
    check_model(&mixed_model(), &times);
}

#[test]
fn a_lane_does_not_depend_on_its_neighbours() {
    let model = builtin::model().expect("builtin");
    let n = model.joint_count();
    let mut scratch = BatchScratch::default();
    let lanes = batch_lanes();
    let evaluate = |times: [f32; MAX_LANES], scratch: &mut BatchScratch| {
        let mut outs = vec![Mat3x4::IDENTITY; n * lanes];
        let batch = Batch {
            model: &model,
            clip: 1,
            times,
            lanes,
            streaming: true,
        };
        evaluate_batch(&batch, scratch, &mut outs);
        outs
    };
    let a = evaluate(
        [
            0.3, 0.1, 0.7, 0.9, 0.2, 0.05, 0.6, 0.8, 0.33, 0.44, 0.15, 0.25, 0.66, 0.07, 0.81, 0.5,
        ],
        &mut scratch,
    );
    let b = evaluate(
        [
            0.55, 0.01, 0.3, 0.42, 0.77, 0.3, 0.12, 0.99, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2,
        ],
        &mut scratch,
    );
    assert_eq!(
        bytemuck::cast_slice::<Mat3x4, u32>(&a[..n]),
        bytemuck::cast_slice::<Mat3x4, u32>(&b[2 * n..3 * n]),
        "the same time gives the same bits in lane 0 and lane 2"
    );
}
