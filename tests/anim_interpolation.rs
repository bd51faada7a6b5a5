//! Clip sampling: exact keys, midpoints, short-arc rotations, clamping, STEP, CUBICSPLINE,
//! independent key times per channel, ticks.

use glam::{Quat, Vec3};
use throng::anim::{
    AnimError, AnimationClip, Channel, Interpolation, Joint, JointTrack, Skeleton, Transform,
};

fn one_joint() -> Skeleton {
    Skeleton::with_derived_offsets(vec![Joint::new(
        "j",
        None,
        Transform::new(
            Vec3::new(9.0, 9.0, 9.0),
            Quat::from_rotation_x(0.3),
            Vec3::splat(2.0),
        ),
    )])
    .expect("valid")
}

fn sample(clip: &AnimationClip, t: f32) -> Transform {
    let mut out = [Transform::IDENTITY];
    clip.sample(t, &mut out);
    out[0]
}

fn clip_with(track: JointTrack) -> AnimationClip {
    AnimationClip::new("c", vec![track], &one_joint()).expect("valid clip")
}

fn translation(times: &[f32], xs: &[f32], interpolation: Interpolation) -> JointTrack {
    JointTrack {
        translation: Some(Channel {
            times: times.to_vec(),
            values: xs.iter().map(|&x| Vec3::new(x, 2.0 * x, -x)).collect(),
            interpolation,
        }),
        ..JointTrack::default()
    }
}

#[test]
fn linear_is_exact_at_keys_and_halfway_between() {
    let c = clip_with(translation(
        &[0.0, 0.5, 1.25],
        &[1.0, 3.0, -2.0],
        Interpolation::Linear,
    ));
    assert_eq!(
        sample(&c, 0.0).translation,
        Vec3::new(1.0, 2.0, -1.0).into()
    );
    assert_eq!(
        sample(&c, 0.5).translation,
        Vec3::new(3.0, 6.0, -3.0).into()
    );
    assert_eq!(
        sample(&c, 1.25).translation,
        Vec3::new(-2.0, -4.0, 2.0).into()
    );
    assert!(
        sample(&c, 0.25)
            .translation
            .abs_diff_eq(Vec3::new(2.0, 4.0, -2.0).into(), 1e-6)
    );
    assert!(
        sample(&c, 0.875)
            .translation
            .abs_diff_eq(Vec3::new(0.5, 1.0, -0.5).into(), 1e-6)
    );
    // Untracked properties keep the bind pose.
    let s = sample(&c, 0.3);
    assert_eq!(s.rotation, Quat::from_rotation_x(0.3));
    assert_eq!(s.scale, Vec3::splat(2.0).into());
    assert_eq!((c.start(), c.end(), c.duration()), (0.0, 1.25, 1.25));
}

#[test]
fn sampling_holds_the_first_and_last_keys() {
    let c = clip_with(translation(
        &[0.25, 1.0],
        &[4.0, 8.0],
        Interpolation::Linear,
    ));
    assert_eq!(sample(&c, 0.0).translation.x, 4.0);
    assert_eq!(sample(&c, -3.0).translation.x, 4.0);
    assert_eq!(sample(&c, 1.0).translation.x, 8.0);
    assert_eq!(sample(&c, 50.0).translation.x, 8.0);
    assert_eq!(sample(&c, f32::NAN).translation.x, 4.0);
    assert_eq!(c.start(), 0.25);
    assert_eq!(c.duration(), 1.0);
}

#[test]
fn rotations_slerp_along_the_short_arc() {
    let a = Quat::from_rotation_z(0.0);
    let b = -Quat::from_rotation_z(std::f32::consts::FRAC_PI_2); // same rotation as +90 degrees
    let track = JointTrack {
        rotation: Some(Channel::linear(vec![0.0, 1.0], vec![a, b])),
        ..JointTrack::default()
    };
    let c = clip_with(track);
    for (t, degrees) in [(0.25f32, 22.5f32), (0.5, 45.0), (0.75, 67.5)] {
        let q = sample(&c, t).rotation;
        let x = q * Vec3::X;
        let expected = Vec3::new(degrees.to_radians().cos(), degrees.to_radians().sin(), 0.0);
        assert!(x.abs_diff_eq(expected, 1e-6), "t = {t}: {x} vs {expected}");
    }
    // Slerp moves at constant angular speed (a lerp would not): a 160 degree arc at t = 0.25.
    let wide = clip_with(JointTrack {
        rotation: Some(Channel::linear(
            vec![0.0, 1.0],
            vec![Quat::IDENTITY, Quat::from_rotation_y(160f32.to_radians())],
        )),
        ..JointTrack::default()
    });
    let q = sample(&wide, 0.25).rotation;
    assert!((q.angle_between(Quat::IDENTITY).to_degrees() - 40.0).abs() < 1e-3);
}

#[test]
fn rotation_keys_are_normalized() {
    let track = JointTrack {
        rotation: Some(Channel::linear(
            vec![0.0],
            vec![Quat::from_xyzw(0.0, 0.0, 0.0, 3.0)],
        )),
        ..JointTrack::default()
    };
    assert_eq!(sample(&clip_with(track), 0.0).rotation, Quat::IDENTITY);
    let zero = JointTrack {
        rotation: Some(Channel::linear(
            vec![0.0],
            vec![Quat::from_xyzw(0.0, 0.0, 0.0, 0.0)],
        )),
        ..JointTrack::default()
    };
    assert!(AnimationClip::new("z", vec![zero], &one_joint()).is_err());
}

#[test]
fn step_holds_each_key_until_the_next() {
    let c = clip_with(translation(
        &[0.0, 1.0, 2.0],
        &[5.0, 7.0, 11.0],
        Interpolation::Step,
    ));
    for (t, x) in [
        (0.0, 5.0),
        (0.99, 5.0),
        (1.0, 7.0),
        (1.5, 7.0),
        (1.999, 7.0),
        (2.0, 11.0),
        (3.0, 11.0),
    ] {
        assert_eq!(sample(&c, t).translation.x, x, "t = {t}");
    }
}

#[test]
fn cubic_spline_matches_hand_computed_hermite() {
    // Keys at t = 0 and t = 2: value 0 with out-tangent 2, then value 1 with in-tangent -1.
    // At s = 0.5 (t = 1): h00 = 0.5, h10 = 0.125, h01 = 0.5, h11 = -0.125, dt = 2:
    // 0.5*0 + 0.125*2*2 + 0.5*1 + (-0.125)*2*(-1) = 0.5 + 0.5 + 0.25 = 1.25.
    // At s = 0.25 (t = 0.5): h10 = 0.140625, h01 = 0.15625, h11 = -0.046875:
    // 0.140625*4 + 0.15625 + 0.09375 = 0.8125.
    let values = [(-9.0, 0.0, 2.0), (-1.0, 1.0, 9.0)]
        .iter()
        .flat_map(|&(a, v, b)| [Vec3::splat(a), Vec3::splat(v), Vec3::splat(b)])
        .collect();
    let c = clip_with(JointTrack {
        translation: Some(Channel {
            times: vec![0.0, 2.0],
            values,
            interpolation: Interpolation::CubicSpline,
        }),
        ..JointTrack::default()
    });
    assert_eq!(sample(&c, 0.0).translation.x, 0.0);
    assert!((sample(&c, 1.0).translation.x - 1.25).abs() < 1e-6);
    assert!((sample(&c, 0.5).translation.x - 0.8125).abs() < 1e-6);
    assert_eq!(sample(&c, 2.0).translation.x, 1.0);
    assert_eq!(sample(&c, 5.0).translation.x, 1.0);
}

#[test]
fn cubic_spline_rotations_are_normalized() {
    let q0 = Quat::IDENTITY;
    let q1 = Quat::from_rotation_y(1.0);
    let zero = Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);
    let c = clip_with(JointTrack {
        rotation: Some(Channel {
            times: vec![0.0, 1.0],
            values: vec![zero, q0, zero, zero, q1, zero],
            interpolation: Interpolation::CubicSpline,
        }),
        ..JointTrack::default()
    });
    let q = sample(&c, 0.5).rotation;
    assert!((q.length() - 1.0).abs() < 1e-6);
    // With zero tangents the spline is a smoothstep blend of the two keys, normalized.
    let expected = Quat::from_vec4((glam::Vec4::from(q0) + glam::Vec4::from(q1)).normalize());
    assert!(q.abs_diff_eq(expected, 1e-6));
}

#[test]
fn channels_keep_their_own_key_times() {
    let track = JointTrack {
        translation: Some(Channel::linear(vec![0.0, 1.0], vec![Vec3::ZERO, Vec3::X])),
        rotation: Some(Channel::linear(
            vec![0.0, 0.2, 2.0],
            vec![
                Quat::IDENTITY,
                Quat::from_rotation_z(1.0),
                Quat::from_rotation_z(1.0),
            ],
        )),
        scale: Some(Channel::linear(
            vec![0.5, 1.5],
            vec![Vec3::ONE, Vec3::splat(3.0)],
        )),
    };
    let c = clip_with(track);
    let s = sample(&c, 0.1);
    assert!(
        s.translation
            .abs_diff_eq(Vec3::new(0.1, 0.0, 0.0).into(), 1e-6)
    );
    assert!(s.rotation.abs_diff_eq(Quat::from_rotation_z(0.5), 1e-6));
    assert_eq!(s.scale, Vec3::ONE.into());
    let s = sample(&c, 1.0);
    assert_eq!(s.translation, Vec3::X.into());
    assert!(s.rotation.abs_diff_eq(Quat::from_rotation_z(1.0), 1e-6));
    assert!(s.scale.abs_diff_eq(Vec3::splat(2.0).into(), 1e-6));
    assert_eq!((c.start(), c.end()), (0.0, 2.0));
}

#[test]
fn ticks_are_converted_to_seconds() {
    let track = translation(&[0.0, 12.0, 48.0], &[0.0, 1.0, 2.0], Interpolation::Linear);
    let c = AnimationClip::from_ticks("t", vec![track.clone()], 24.0, &one_joint()).expect("valid");
    assert_eq!(c.duration(), 2.0);
    assert_eq!(sample(&c, 0.5).translation.x, 1.0);
    assert!((sample(&c, 1.25).translation.x - 1.5).abs() < 1e-6);
    let bad = AnimationClip::from_ticks("t", vec![track], 0.0, &one_joint());
    assert!(matches!(bad, Err(AnimError::TickRate { .. })));
}

#[test]
fn bad_keys_are_rejected_with_the_joint_and_channel() {
    let joint = one_joint();
    let cases: Vec<(JointTrack, &str)> = vec![
        (
            translation(&[0.0, 0.0], &[1.0, 2.0], Interpolation::Linear),
            "not after key 0",
        ),
        (
            translation(&[1.0, 0.5], &[1.0, 2.0], Interpolation::Linear),
            "not after key 0",
        ),
        (
            translation(&[-1.0, 0.5], &[1.0, 2.0], Interpolation::Linear),
            "must be finite and >= 0",
        ),
        (
            translation(&[0.0, f32::NAN], &[1.0, 2.0], Interpolation::Linear),
            "must be finite",
        ),
        (
            translation(&[0.0, 1.0], &[1.0, f32::INFINITY], Interpolation::Linear),
            "not finite",
        ),
        (
            translation(&[0.0, 1.0], &[1.0], Interpolation::Linear),
            "1 values for 2 keys",
        ),
        (
            translation(&[0.0, 1.0], &[1.0, 2.0], Interpolation::CubicSpline),
            "expected 6",
        ),
        (translation(&[], &[], Interpolation::Linear), "has no keys"),
    ];
    for (track, expected) in cases {
        let err = AnimationClip::new("bad", vec![track], &joint).unwrap_err();
        let text = err.to_string();
        assert!(
            text.starts_with("clip 'bad': joint 0 translation: "),
            "{text}"
        );
        assert!(text.contains(expected), "{text} should contain {expected}");
    }
    let err = AnimationClip::new("short", vec![], &joint).unwrap_err();
    assert_eq!(err.to_string(), "clip 'short': 0 tracks for 1 joints");
}
