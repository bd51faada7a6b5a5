//! The frame's passes. Each pass is one file: its `declare` makes what the pass writes
//! (images from descriptions sized relative to the frame, buffers sized by the crowd),
//! registers its pipelines by shader file name and fixed-function state, tells the graph
//! what it reads and writes, and returns typed handles to what it made, which later passes
//! take as inputs; its recording, declared with it, gets exactly those resources. This file
//! holds only the frame's outline ([`compile`]: the passes in the order they run, handing
//! handles from one to the next); the declaration they share ([`FrameDeclaration`]) is a
//! file of its own (`declaration.rs`), so no pass leans on this one;
//! [`super::graph`] derives every barrier, layout and load/store operation, and culls the
//! passes nothing reads.
//!
//! Adding a pass: a file here and one line in [`compile`]. Its shaders in `shaders/` are
//! compiled and embedded by file name, and its pipeline layouts are read from them.

pub mod camera_depth;
pub mod card_compute;
pub mod composite;
pub mod crowd_state;
pub mod crowd_tracks;
pub mod cull;
pub mod debug_view;
mod declaration;
pub mod depth_normal;
pub mod forward;
pub mod ground;
pub mod hud;
pub mod impostors;
pub mod occlusion;
pub mod output;
pub mod over_target;
pub mod palettes;
pub mod readback;
pub mod shadow;
pub mod ssao;
#[cfg(test)]
mod tests;
pub mod tonemap;

use ash::vk;

use super::device::error::GpuError;
use super::device::pipeline::Culling;
use super::recording::compiled::CompiledFrame;
use super::settings::{GraphKey, RenderSettings};
pub use declaration::{FAR_DEPTH, FrameDeclaration};
use depth_normal::DepthNormals;
use forward::Forward;

/// Pass names, as they appear in labels, timings and `--stats-json` (each defined by its
/// pass's file).
pub mod pass {
    pub use super::camera_depth::NAME as CAMERA_DEPTH;
    pub use super::card_compute::{
        RASTER as CARD_RASTER, SHADE as CARD_SHADE, SHADOW as CARD_SHADOW,
        SHADOW_CLEAR as CARD_SHADOW_CLEAR, SHADOW_COPY as CARD_SHADOW_COPY,
        VISIBILITY_CLEAR as CARD_VISIBILITY_CLEAR,
    };
    pub use super::composite::NAME as AMBIENT_COMPOSITE;
    pub use super::crowd_state::{
        APPLY as CROWD_STATE_APPLY, CLEAR as CROWD_STATE_CLEAR, EXACT as CROWD_STATE_EXACT,
        NAME as CROWD_STATE,
    };
    pub use super::cull::{CLEAR as CULL_CLEAR, CULL, DRAWS as CULL_DRAWS, STATS as CULL_STATS};
    pub use super::debug_view::NAME as DEBUG_VIEW;
    pub use super::depth_normal::{LATE as DEPTH_NORMAL_LATE, NAME as DEPTH_NORMAL};
    pub use super::forward::{LATE as FORWARD_LATE, NAME as FORWARD};
    pub use super::ground::NAME as GROUND;
    pub use super::hud::NAME as HUD;
    pub use super::impostors::{
        DEPTH_NORMAL as IMPOSTOR_DEPTH_NORMAL, FORWARD as IMPOSTOR_FORWARD,
        SHADOW as IMPOSTOR_SHADOW,
    };
    pub use super::occlusion::{
        CULL_LATE, DEPTH as OCCLUSION_DEPTH, DRAWS_LATE as CULL_DRAWS_LATE,
    };
    pub use super::output::NAME as OUTPUT;
    pub use super::palettes::NAME as PALETTES;
    pub use super::readback::NAME as READBACK;
    pub use super::shadow::NAME as SHADOW;
    pub use super::ssao::{BLUR as SSAO_BLUR, NAME as SSAO};
    pub use super::tonemap::NAME as TONEMAP;
}

/// Declares and compiles the frame graph for `key` under `settings`, for a target of
/// `color_format` with the characters' `culling`: the passes in the order they run, each
/// handing what it made to the next; what the last pass reads decides which ones are kept.
/// Needs no device: pipelines are described here and built by the renderer.
pub fn compile(
    key: GraphKey,
    settings: &RenderSettings,
    color_format: vk::Format,
    culling: Culling,
) -> Result<CompiledFrame, GpuError> {
    let mut f = FrameDeclaration::new(key, settings, color_format, culling);
    palettes::declare(&mut f);
    crowd_state::declare(&mut f);
    let culled = cull::declare(&mut f);
    // The cards' shadows go into the shadow map before the meshes' (in compute) or after
    // them (as quads).
    let shadow_map = shadow::map(&mut f);
    card_compute::declare_shadow(&mut f, &culled, shadow_map);
    shadow::declare(&mut f, &culled, shadow_map);
    impostors::declare_shadow(&mut f, &culled, shadow_map);
    let depth_normals = depth_normal::images(&mut f);
    let ao = ssao::blurred(&mut f);
    if f.shape.prepass {
        // Depth and normals first, tested EQUAL by the lit passes, which read the occlusion.
        let prepass = depth_normal::declare(&mut f, &culled, &depth_normals);
        if occlusion::declare(&mut f, &culled, &depth_normals) {
            depth_normal::declare_late(&mut f, &culled, &prepass);
        }
        impostors::declare_prepass(&mut f, &culled, &depth_normals);
        ssao::declare(&mut f, &depth_normals, ao);
        let forward = forward::declare(&mut f, &culled, &depth_normals, shadow_map, ao);
        let forward = forward.map(|(forward, _)| forward);
        impostors::declare_forward(&mut f, &culled, forward.as_ref());
    } else {
        // The lit passes draw depth and normals themselves; the occlusion is made from them
        // afterwards and added by the composite pass.
        let forward = forward::declare(&mut f, &culled, &depth_normals, shadow_map, ao);
        if let Some((fwd, pipelines)) = forward
            && occlusion::declare(&mut f, &culled, &depth_normals)
        {
            forward::declare_late(&mut f, &culled, &fwd, pipelines);
        }
        let forward = forward.map(|(forward, _)| forward);
        if !f.shape.camera_cards_in_compute {
            // Cards at their quad's own depth can be rejected before shading: for them a
            // depth prepass lets the lit pass shade each pixel once, where with the picture's
            // depth (written by the shader, tested after it) it would be one more pass of the
            // same work.
            let cards = if f.shape.card_plane_depth {
                impostors::declare_prepass(&mut f, &culled, &depth_normals);
                forward.map(Forward::after_own_prepass)
            } else {
                forward
            };
            impostors::declare_forward(&mut f, &culled, cards.as_ref());
        }
        if let Some(fwd) = forward {
            // After every lit pass that draws into the targets and resolves them: the ground
            // under what they left, then the cards in compute over both.
            ground::declare(&mut f, &fwd);
        }
        let visibility = forward
            .as_ref()
            .and_then(|fwd| card_compute::declare_camera(&mut f, &culled, fwd, &depth_normals));
        if let Some(light) = forward.and_then(|fwd| fwd.light_parts()) {
            let occluded = DepthNormals {
                depth: camera_depth::declare(&mut f, &depth_normals, visibility),
                ..depth_normals
            };
            ssao::declare(&mut f, &occluded, ao);
            composite::declare(&mut f, light, ao);
        }
    }
    debug_view::declare(&mut f, &depth_normals, shadow_map, ao);
    // Post-processing: each pass reads the scene colour and hands on its own.
    tonemap::declare(&mut f);
    hud::declare(&mut f);
    output::declare(&mut f);
    cull::declare_stats(&mut f, &culled);
    readback::declare(&mut f);
    f.compile()
}
