//! Tiny hand-made models for the scene's unit tests.

use glam::{Quat, Vec3};

use crate::anim::{Joint, Mesh, Skeleton, SkinnedModel, Transform, Vertex};

/// A one-joint, clip-less model of `format` made of one triangle `corners` (index order),
/// every vertex with `normal`.
pub(crate) fn one_triangle(format: &str, corners: [[f32; 3]; 3], normal: [f32; 3]) -> SkinnedModel {
    let skeleton = Skeleton::with_derived_offsets(vec![Joint::new(
        "root",
        None,
        Transform::new(Vec3::ZERO, Quat::IDENTITY, Vec3::ONE),
    )])
    .expect("skeleton");
    let vertex = |p: [f32; 3]| Vertex {
        position: p,
        normal,
        weights: [1.0, 0.0, 0.0, 0.0],
        ..Vertex::default()
    };
    let mesh = Mesh {
        vertices: corners.map(vertex).to_vec(),
        indices: vec![0, 1, 2],
        ..Mesh::default()
    };
    SkinnedModel::new("t", format, skeleton, Vec::new(), mesh).expect("model")
}
