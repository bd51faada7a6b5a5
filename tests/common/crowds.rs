//! A crowd mixing two models, several clips, cross-fades and clip queues, for crowd tests.

use std::sync::Arc;

use glam::{Quat, Vec3, Vec3A};
use throng::anim::{
    AnimationClip, Channel, Joint, JointTrack, Mat3x4, Mesh, Skeleton, SkinnedModel, Transform,
};
use throng::asset::builtin;
use throng::crowd::Crowd;

/// A three-joint arm with one 0.8 s clip, so crowds mix joint counts.
pub fn arm_model() -> Arc<SkinnedModel> {
    let at = |x| Transform::new(Vec3::new(x, 0.0, 0.0), Quat::IDENTITY, Vec3::ONE);
    let skeleton = Skeleton::with_derived_offsets(vec![
        Joint::new("upper", None, at(0.0)),
        Joint::new("fore", Some(0), at(1.0)),
        Joint::new("hand", Some(1), at(1.0)),
    ])
    .expect("arm");
    let bend = Channel::linear(
        vec![0.0, 0.8],
        vec![Quat::IDENTITY, Quat::from_rotation_z(1.2)],
    );
    let tracks = vec![
        JointTrack {
            rotation: Some(bend.clone()),
            ..JointTrack::default()
        },
        JointTrack {
            rotation: Some(bend),
            ..JointTrack::default()
        },
        JointTrack::default(),
    ];
    let clip = AnimationClip::new("bend", tracks, &skeleton).expect("clip");
    Arc::new(
        SkinnedModel::new("arm", "test", skeleton, vec![clip], Mesh::default()).expect("model"),
    )
}

/// `count` instances alternating between the built-in character (3 clips) and the arm, with
/// varied clips, times, speeds (some backwards), some cross-fading and some with queues. The
/// pool is used however small the crowd, so tests exercise the parallel paths.
pub fn mixed_crowd(threads: usize, count: usize) -> Crowd {
    let mut crowd = Crowd::new(threads).expect("pool");
    crowd.set_serial_below(0, 0);
    let human = crowd.add_model(Arc::new(builtin::model().expect("builtin")));
    let arm = crowd.add_model(arm_model());
    for i in 0..count {
        let model = if i % 5 == 4 { arm } else { human };
        let world = Mat3x4::from_trs(Vec3A::new(i as f32, 0.0, 0.0), Quat::IDENTITY, Vec3A::ONE);
        let index = crowd.spawn(model, world).expect("spawn");
        let inst = crowd.instance_mut(index);
        let clips = inst.model().clips().len();
        inst.play(i % clips, 0.0).expect("clip");
        inst.set_time(i as f32 * 0.0731);
        inst.set_speed(if i % 7 == 3 {
            -1.3
        } else {
            0.5 + (i % 4) as f32 * 0.25
        });
        if i % 6 == 1 {
            inst.play((i + 1) % clips, 0.7).expect("fade");
        }
        if i % 9 == 2 {
            inst.enqueue((i + 2) % clips, 0.2).expect("queue");
            inst.set_loop_queue(true);
        }
    }
    crowd
}
