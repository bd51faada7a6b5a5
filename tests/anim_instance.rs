//! Instance clocks: looping, clamping, backwards play, the clip queue and cross-fades.

use std::sync::Arc;

use glam::{Quat, Vec3};
use throng::anim::{
    AnimationClip, Channel, Joint, JointTrack, Mat3x4, Mesh, Playback, PoseScratch, Skeleton,
    SkinnedModel, SkinnedModelInstance, Transform,
};

/// One joint; clip `slide` (1 s) moves it from x = 0 to x = 1; clip `lift` (2 s) from y = 0
/// to y = 2; clip `turn` (0.5 s) rotates it a quarter turn about z.
fn model() -> Arc<SkinnedModel> {
    let skeleton = Skeleton::with_derived_offsets(vec![Joint::new("j", None, Transform::IDENTITY)])
        .expect("skeleton");
    let track = |times: Vec<f32>, to: Vec3| JointTrack {
        translation: Some(Channel::linear(times, vec![Vec3::ZERO, to])),
        ..JointTrack::default()
    };
    let turn = JointTrack {
        rotation: Some(Channel::linear(
            vec![0.0, 0.5],
            vec![
                Quat::IDENTITY,
                Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
            ],
        )),
        ..JointTrack::default()
    };
    let clips = vec![
        AnimationClip::new("slide", vec![track(vec![0.0, 1.0], Vec3::X)], &skeleton)
            .expect("slide"),
        AnimationClip::new(
            "lift",
            vec![track(vec![0.0, 2.0], Vec3::Y * 2.0)],
            &skeleton,
        )
        .expect("lift"),
        AnimationClip::new("turn", vec![turn], &skeleton).expect("turn"),
    ];
    Arc::new(SkinnedModel::new("m", "test", skeleton, clips, Mesh::default()).expect("model"))
}

fn translation(inst: &SkinnedModelInstance) -> Vec3 {
    let mut scratch = PoseScratch::new(1);
    let mut palette = [Mat3x4::IDENTITY];
    inst.evaluate(&mut scratch, &mut palette);
    palette[0].translation()
}

fn close(a: f32, b: f32) -> bool {
    (a - b).abs() < 1e-5
}

#[test]
fn looping_wraps_time_into_the_clip() {
    let mut i = SkinnedModelInstance::new(model());
    assert_eq!((i.clip(), i.clip_name()), (0, "slide"));
    i.advance(0.25);
    assert!(close(i.time(), 0.25));
    assert!(translation(&i).abs_diff_eq(Vec3::new(0.25, 0.0, 0.0), 1e-6));
    i.advance(2.5);
    assert!(close(i.time(), 0.75), "{}", i.time());
    i.advance(0.25);
    assert!(close(i.time(), 0.0) || close(i.time(), 1.0), "{}", i.time());
}

#[test]
fn clamping_holds_the_last_pose() {
    let mut i = SkinnedModelInstance::new(model());
    i.set_playback(Playback::Clamp);
    i.advance(3.0);
    assert_eq!(i.time(), 1.0);
    assert_eq!(translation(&i), Vec3::X);
    i.set_speed(-1.0);
    i.advance(5.0);
    assert_eq!(i.time(), 0.0);
}

#[test]
fn negative_speed_plays_backwards_and_wraps() {
    let mut i = SkinnedModelInstance::new(model());
    i.set_time(0.2);
    i.set_speed(-2.0);
    i.advance(0.05);
    assert!(close(i.time(), 0.1), "{}", i.time());
    i.advance(0.25);
    assert!(close(i.time(), 0.6), "{}", i.time());
    assert!(translation(&i).abs_diff_eq(Vec3::new(0.6, 0.0, 0.0), 1e-5));
}

#[test]
fn clips_are_found_by_name_once() {
    let mut i = SkinnedModelInstance::new(model());
    i.set_clip_by_name("lift").expect("exists");
    assert_eq!(i.clip(), 1);
    i.advance(1.0);
    assert!(translation(&i).abs_diff_eq(Vec3::new(0.0, 1.0, 0.0), 1e-6));
    assert!(i.set_clip_by_name("nope").is_err());
    assert!(i.play(7, 0.0).is_err());
}

#[test]
fn the_queue_plays_clips_in_sequence_carrying_leftover_time() {
    let mut i = SkinnedModelInstance::new(model());
    i.enqueue(1, 0.0).expect("lift");
    i.enqueue(2, 0.0).expect("turn");
    i.advance(0.9);
    assert_eq!(i.clip(), 0);
    i.advance(0.35); // 0.25 s past the end of slide
    assert_eq!(i.clip(), 1);
    assert!(close(i.time(), 0.25), "{}", i.time());
    i.advance(2.0); // lift ends at 2.0: 0.25 s into turn
    assert_eq!(i.clip(), 2);
    assert!(close(i.time(), 0.25), "{}", i.time());
    // Queue empty: turn loops.
    i.advance(0.5);
    assert_eq!(i.clip(), 2);
    assert!(close(i.time(), 0.25), "{}", i.time());
}

#[test]
fn a_looping_queue_cycles_forever() {
    let mut i = SkinnedModelInstance::new(model());
    i.set_loop_queue(true);
    i.enqueue(2, 0.0).expect("turn");
    let mut seen = Vec::new();
    for _ in 0..12 {
        i.advance(0.5);
        seen.push(i.clip());
    }
    // slide (1 s) then turn (0.5 s), repeating.
    assert_eq!(seen, [0, 2, 0, 0, 2, 0, 0, 2, 0, 0, 2, 0]);
    assert_eq!(i.queue().count(), 1);
}

#[test]
fn cross_fade_weights_rise_linearly_and_blend_the_pose() {
    let mut i = SkinnedModelInstance::new(model());
    i.set_time(0.5);
    i.play(1, 0.4).expect("lift");
    assert_eq!(i.fade_weight(), Some(0.0));
    // At the start of the fade the pose is still the outgoing clip's.
    assert!(translation(&i).abs_diff_eq(Vec3::new(0.5, 0.0, 0.0), 1e-6));
    i.advance(0.1);
    assert!(close(i.fade_weight().expect("fading"), 0.25));
    // Outgoing slide at 0.6 (x = 0.6), incoming lift at 0.1 (y = 0.1), weight 0.25.
    let expected = Vec3::new(0.6 * 0.75, 0.1 * 0.25, 0.0);
    assert!(
        translation(&i).abs_diff_eq(expected, 1e-5),
        "{}",
        translation(&i)
    );
    i.advance(0.2);
    assert!(close(i.fade_weight().expect("fading"), 0.75));
    i.advance(0.1);
    assert_eq!(i.fade_weight(), None);
    assert!(translation(&i).abs_diff_eq(Vec3::new(0.0, 0.4, 0.0), 1e-5));
}

/// The columns of the rotation matrix of the unit quaternion `(x, y, z, w)`, by the textbook
/// formula (written out here, not taken from glam or `anim`).
fn rotation_columns([x, y, z, w]: [f32; 4]) -> [Vec3; 3] {
    [
        Vec3::new(
            1.0 - 2.0 * (y * y + z * z),
            2.0 * (x * y + w * z),
            2.0 * (x * z - w * y),
        ),
        Vec3::new(
            2.0 * (x * y - w * z),
            1.0 - 2.0 * (x * x + z * z),
            2.0 * (y * z + w * x),
        ),
        Vec3::new(
            2.0 * (x * z + w * y),
            2.0 * (y * z - w * x),
            1.0 - 2.0 * (x * x + y * y),
        ),
    ]
}

/// Two clips with different, non-trivial rotations, so a wrong weight, a slerp instead of the
/// documented nlerp, a missing normalization or a long-arc blend each move the result.
#[test]
fn cross_faded_rotations_are_nlerped_along_the_short_arc() {
    use std::f32::consts::FRAC_PI_2;
    let skeleton = Skeleton::with_derived_offsets(vec![Joint::new("j", None, Transform::IDENTITY)])
        .expect("skeleton");
    // `yaw` (1 s): turns a quarter turn about z while x goes from 0 to 1.
    let yaw = JointTrack {
        translation: Some(Channel::linear(vec![0.0, 1.0], vec![Vec3::ZERO, Vec3::X])),
        rotation: Some(Channel::linear(
            vec![0.0, 1.0],
            vec![Quat::IDENTITY, Quat::from_rotation_z(FRAC_PI_2)],
        )),
        ..JointTrack::default()
    };
    // `pitch` (1 s): held a quarter turn about x, stored with the sign that makes its dot
    // product with `yaw`'s rotations negative, at y = 2.
    let h = std::f32::consts::FRAC_1_SQRT_2;
    let pitch_key = Quat::from_xyzw(-h, 0.0, 0.0, -h);
    let pitch = JointTrack {
        translation: Some(Channel::linear(vec![0.0, 1.0], vec![Vec3::Y * 2.0; 2])),
        rotation: Some(Channel::linear(vec![0.0, 1.0], vec![pitch_key; 2])),
        ..JointTrack::default()
    };
    let clips = vec![
        AnimationClip::new("yaw", vec![yaw], &skeleton).expect("yaw"),
        AnimationClip::new("pitch", vec![pitch], &skeleton).expect("pitch"),
    ];
    let model =
        Arc::new(SkinnedModel::new("m", "test", skeleton, clips, Mesh::default()).expect("model"));

    let mut i = SkinnedModelInstance::new(model);
    i.set_time(0.25);
    i.play(1, 0.4).expect("pitch");
    i.advance(0.1);
    assert!(close(i.fade_weight().expect("fading"), 0.25));

    // By hand: the outgoing `yaw` is at 0.35 s, a turn of 0.35 * 90 degrees about z, so its
    // quaternion is (0, 0, sin a, cos a) with a = 0.35 * 45 degrees; the incoming `pitch` is
    // (-h, 0, 0, -h), whose dot product with it is negative, so the short arc blends with
    // (h, 0, 0, h). Weight 0.25: 0.75 * yaw + 0.25 * pitch, normalized.
    let a = 0.35 * std::f32::consts::FRAC_PI_4;
    let (s, c) = a.sin_cos();
    let lerped = [0.25 * h, 0.0, 0.75 * s, 0.75 * c + 0.25 * h];
    let norm = lerped.iter().map(|v| v * v).sum::<f32>().sqrt();
    let want = rotation_columns(lerped.map(|v| v / norm));
    // Translations lerp: 0.75 * (0.35, 0, 0) + 0.25 * (0, 2, 0).
    let want_t = Vec3::new(0.2625, 0.5, 0.0);

    let mut scratch = PoseScratch::new(1);
    let mut got = [Mat3x4::IDENTITY];
    i.evaluate(&mut scratch, &mut got);
    for (axis, want) in [Vec3::X, Vec3::Y, Vec3::Z].into_iter().zip(want) {
        let col = got[0].transform_vector3(axis);
        assert!(col.abs_diff_eq(want, 1e-5), "{axis}: {col} vs {want}");
    }
    assert!(
        got[0].translation().abs_diff_eq(want_t, 1e-5),
        "{}",
        got[0].translation()
    );
}
