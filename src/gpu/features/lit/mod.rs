//! The lit scene: depth and normals ([`depth_normal`]), the skinned forward pass
//! ([`forward`]), the ground under what it drew ([`ground`]), the depth ambient occlusion reads
//! after the cards in compute ([`camera_depth`]), and the occlusion composited over the lit
//! colour ([`composite`]).

pub mod camera_depth;
pub mod composite;
pub mod depth_normal;
pub mod forward;
pub mod ground;
pub mod mesh_compute;
