//! Skeleton hierarchy and palettes against hand-computed matrices.

use glam::{Quat, Vec3};
use throng::anim::{
    AnimError, AnimationClip, Channel, Joint, JointTrack, Mat3x4, Mesh, PoseScratch, Skeleton,
    SkinnedModel, Transform, palette_from_locals,
};

fn at(x: f32, y: f32, z: f32) -> Transform {
    Transform::new(Vec3::new(x, y, z), Quat::IDENTITY, Vec3::ONE)
}

/// Upper arm at the origin, forearm one unit along +x, hand one more unit along +x.
fn arm() -> Skeleton {
    Skeleton::with_derived_offsets(vec![
        Joint::new("upper_arm", None, at(0.0, 0.0, 0.0)),
        Joint::new("forearm", Some(0), at(1.0, 0.0, 0.0)),
        Joint::new("hand", Some(1), at(1.0, 0.0, 0.0)),
    ])
    .expect("valid arm")
}

fn rows(r: [[f32; 4]; 3]) -> Mat3x4 {
    Mat3x4::from_array([
        r[0][0], r[0][1], r[0][2], r[0][3], r[1][0], r[1][1], r[1][2], r[1][3], r[2][0], r[2][1],
        r[2][2], r[2][3],
    ])
}

fn assert_mat(actual: &Mat3x4, expected: &Mat3x4, what: &str) {
    assert!(
        actual.abs_diff_eq(expected, 1e-6),
        "{what}:\n  actual   {:?}\n  expected {:?}",
        actual.to_array(),
        expected.to_array()
    );
}

fn pose(skeleton: &Skeleton, locals: &[Transform]) -> (Vec<Mat3x4>, Vec<Mat3x4>) {
    let mut scratch = PoseScratch::new(skeleton.len());
    let mut palette = vec![Mat3x4::IDENTITY; skeleton.len()];
    palette_from_locals(skeleton, locals, &mut scratch, &mut palette);
    (scratch.to_root(skeleton.len()).to_vec(), palette)
}

#[test]
fn offsets_are_inverse_bind_translations() {
    let s = arm();
    assert_mat(
        &s.offsets()[2],
        &rows([[1., 0., 0., -2.], [0., 1., 0., 0.], [0., 0., 1., 0.]]),
        "hand offset",
    );
    let (_, palette) = pose(&s, s.bind_pose());
    for (j, m) in palette.iter().enumerate() {
        assert_mat(m, &Mat3x4::IDENTITY, &format!("bind palette {j}"));
    }
}

#[test]
fn rotating_the_upper_arm_carries_forearm_and_hand() {
    let s = arm();
    let mut locals = s.bind_pose().to_vec();
    locals[0].rotation = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
    let (to_root, palette) = pose(&s, &locals);
    // Rz(90) maps x to y: the forearm joint moves to (0,1,0), the hand to (0,2,0).
    let rz90 = |tx: f32, ty: f32| rows([[0., -1., 0., tx], [1., 0., 0., ty], [0., 0., 1., 0.]]);
    assert_mat(&to_root[0], &rz90(0.0, 0.0), "upper arm to-root");
    assert_mat(&to_root[1], &rz90(0.0, 1.0), "forearm to-root");
    assert_mat(&to_root[2], &rz90(0.0, 2.0), "hand to-root");
    // Palette = to-root x offset: every joint rotates rigidly about the shoulder.
    for (j, m) in palette.iter().enumerate() {
        assert_mat(m, &rz90(0.0, 0.0), &format!("palette {j}"));
    }
}

#[test]
fn rotating_both_upper_arm_and_forearm() {
    let s = arm();
    let mut locals = s.bind_pose().to_vec();
    locals[0].rotation = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
    locals[1].rotation = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
    let (to_root, palette) = pose(&s, &locals);
    let rz180 = |tx: f32, ty: f32| rows([[-1., 0., 0., tx], [0., -1., 0., ty], [0., 0., 1., 0.]]);
    assert_mat(&to_root[1], &rz180(0.0, 1.0), "forearm to-root");
    assert_mat(&to_root[2], &rz180(-1.0, 1.0), "hand to-root");
    // Forearm palette: Rz180 about the elbow at (0,1,0) after the shoulder's turn:
    // to-root(forearm) * T(-1,0,0) = [Rz180 | (0,1,0) + (1,0,0)].
    assert_mat(&palette[1], &rz180(1.0, 1.0), "forearm palette");
    assert_mat(&palette[2], &rz180(1.0, 1.0), "hand palette");
    // A hand vertex half a unit past the wrist (2.5,0,0) ends at (-1.5,1,0).
    let p = palette[2].transform_point3(Vec3::new(2.5, 0.0, 0.0));
    assert!(p.abs_diff_eq(Vec3::new(-1.5, 1.0, 0.0), 1e-6), "{p}");
}

#[test]
fn clip_keys_drive_the_same_pose() {
    let s = arm();
    let quarter = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
    let mut tracks = vec![JointTrack::default(); 3];
    for t in &mut tracks[..2] {
        t.rotation = Some(Channel::linear(
            vec![0.0, 1.0],
            vec![Quat::IDENTITY, quarter],
        ));
    }
    let clip = AnimationClip::new("bend", tracks, &s).expect("valid clip");
    let model = SkinnedModel::new("arm", "test", s, vec![clip], Mesh::default()).expect("model");
    let mut scratch = PoseScratch::new(3);
    let mut palette = vec![Mat3x4::IDENTITY; 3];
    model.evaluate(0, 1.0, &mut scratch, &mut palette);
    let p = palette[2].transform_point3(Vec3::new(2.5, 0.0, 0.0));
    assert!(p.abs_diff_eq(Vec3::new(-1.5, 1.0, 0.0), 1e-6), "{p}");
    // Halfway: both joints at 45 degrees; the hand joint sits at Rz45(1,0,0) + Rz90(1,0,0).
    model.evaluate(0, 0.5, &mut scratch, &mut palette);
    let h = std::f32::consts::FRAC_1_SQRT_2;
    let wrist = scratch.to_root(3)[2].translation();
    assert!(
        wrist.abs_diff_eq(Vec3::new(h, h + 1.0, 0.0), 1e-6),
        "{wrist}"
    );
}

#[test]
fn parent_after_child_is_rejected() {
    let err = Skeleton::with_derived_offsets(vec![
        Joint::new("root", None, Transform::IDENTITY),
        Joint::new("a", Some(2), Transform::IDENTITY),
        Joint::new("b", Some(0), Transform::IDENTITY),
    ])
    .unwrap_err();
    assert_eq!(
        err,
        AnimError::ParentOrder {
            joint: 1,
            name: "a".into(),
            parent: 2
        }
    );
    assert_eq!(
        err.to_string(),
        "joint 1 (a) has parent 2, which does not come before it"
    );
}

#[test]
fn self_parent_and_out_of_range_parents_are_rejected() {
    let own = Skeleton::with_derived_offsets(vec![Joint::new("x", Some(0), Transform::IDENTITY)]);
    assert!(matches!(own, Err(AnimError::ParentOrder { joint: 0, .. })));
    let far = Skeleton::with_derived_offsets(vec![
        Joint::new("root", None, Transform::IDENTITY),
        Joint::new("a", Some(7), Transform::IDENTITY),
    ])
    .unwrap_err();
    assert_eq!(
        far.to_string(),
        "joint 1 (a) has parent 7, but there are only 2 joints"
    );
    assert_eq!(
        Skeleton::with_derived_offsets(vec![]).unwrap_err(),
        AnimError::NoJoints
    );
    let offsets = Skeleton::new(vec![Joint::new("r", None, Transform::IDENTITY)], vec![]);
    assert!(matches!(
        offsets,
        Err(AnimError::OffsetCount {
            offsets: 0,
            joints: 1
        })
    ));
}

#[test]
fn several_roots_are_allowed() {
    let s = Skeleton::with_derived_offsets(vec![
        Joint::new("a", None, at(1.0, 0.0, 0.0)),
        Joint::new("b", None, at(0.0, 2.0, 0.0)),
        Joint::new("c", Some(1), at(0.0, 1.0, 0.0)),
    ])
    .expect("two roots");
    let (to_root, palette) = pose(&s, s.bind_pose());
    assert_eq!(to_root[2].translation(), Vec3::new(0.0, 3.0, 0.0));
    assert!(
        palette
            .iter()
            .all(|m| m.abs_diff_eq(&Mat3x4::IDENTITY, 1e-6))
    );
}

#[test]
fn non_finite_bind_pose_is_rejected() {
    let err = Skeleton::with_derived_offsets(vec![Joint::new("r", None, at(f32::NAN, 0.0, 0.0))]);
    assert!(matches!(err, Err(AnimError::NonFinite { joint: 0, .. })));
}
