//! The feature floor: each feature is a file or a folder holding its passes and, when it
//! keeps state across frames, that state (which it imports into the frame's graph every
//! frame through [`crate::gpu::frame::recording::features`]). The renderer composes them in
//! [`crate::gpu::renderer::compose`]. Features stand on the frame floor; one may hand its
//! typed outputs to another (the lit passes' targets to the cards), never in a circle.

pub mod crowd_state;
pub mod cull;
pub mod debug_view;
pub mod exposure;
pub mod hud;
pub mod impostors;
pub mod lit;
pub mod mesh_shadow;
pub mod occlusion;
pub mod output;
pub mod palettes;
pub mod readback;
pub mod shadow;
pub mod shadow_splat;
pub mod skin;
pub mod ssao;
pub mod tonemap;
