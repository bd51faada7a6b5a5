//! Small models for the unit tests of the crowd's rooms, with meshes (so their clips have
//! boxes of their own) and as many clips as a test needs.

use std::sync::Arc;

use glam::{Quat, Vec3};

use crate::anim::{
    AnimationClip, Channel, Joint, JointTrack, Mesh, Skeleton, SkinnedModel, Transform, Vertex,
};

/// A two-joint stick, one unit tall with a vertex at each end, whose clip `c` (of `clips`)
/// carries the root from x = 0 to x = c + 1 in one second: each clip's box is its own.
pub(crate) fn stick(clips: usize) -> Arc<SkinnedModel> {
    let at = |y| Transform::new(Vec3::new(0.0, y, 0.0), Quat::IDENTITY, Vec3::ONE);
    let skeleton = Skeleton::with_derived_offsets(vec![
        Joint::new("root", None, at(0.0)),
        Joint::new("tip", Some(0), at(1.0)),
    ])
    .expect("skeleton");
    let clips = (0..clips)
        .map(|c| {
            let walk = Channel::linear(vec![0.0, 1.0], vec![Vec3::ZERO, Vec3::X * (c + 1) as f32]);
            let tracks = vec![
                JointTrack {
                    translation: Some(walk),
                    ..JointTrack::default()
                },
                JointTrack::default(),
            ];
            AnimationClip::new(format!("walk{c}"), tracks, &skeleton).expect("clip")
        })
        .collect();
    let vertex = |y: f32, joint: u16| Vertex {
        position: [0.0, y, 0.0],
        joints: [joint, 0, 0, 0],
        weights: [1.0, 0.0, 0.0, 0.0],
        ..Vertex::default()
    };
    let mesh = Mesh {
        vertices: vec![vertex(0.0, 0), vertex(1.0, 1)],
        ..Mesh::default()
    };
    Arc::new(SkinnedModel::new("stick", "test", skeleton, clips, mesh).expect("model"))
}
