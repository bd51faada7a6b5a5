//! The order of features: [`compile`] declares the frame's passes in the order they run,
//! each feature handing what it made to the next (the culled lists to every drawing pass, the
//! lit targets to the cards, the scene colour through post-processing to the output); what
//! the last pass reads decides which are kept. Each pass's own declaration (what it makes,
//! its pipelines, what it reads and writes, its recording) is in its feature's folder under
//! [`crate::gpu::features`]; [`crate::gpu::graph`] derives every barrier, layout and
//! load/store operation.
//!
//! Adding a feature: its folder under `features/` and one line here. Its shaders in
//! `shaders/` are compiled and embedded by file name, and its pipeline layouts are read from
//! them.

#[cfg(test)]
mod tests;

use ash::vk;

use crate::gpu::device::error::GpuError;
use crate::gpu::device::pipeline::Culling;
use crate::gpu::features::crowd_state::passes as crowd_state;
use crate::gpu::features::exposure::pass as exposure;
use crate::gpu::features::hud::pass as hud;
use crate::gpu::features::impostors::{card_compute, cards as impostors};
use crate::gpu::features::lit::depth_normal::{self, DepthNormals};
use crate::gpu::features::lit::forward::{self, Forward};
use crate::gpu::features::lit::{camera_depth, composite, ground, mesh_compute};
use crate::gpu::features::{
    cull, debug_view, mesh_shadow, occlusion, output, palettes, readback, shadow, shadow_splat,
    ssao, tonemap,
};
use crate::gpu::frame::declaration::FrameDeclaration;
use crate::gpu::frame::recording::compiled::CompiledFrame;
use crate::gpu::frame::settings::{GraphKey, RenderSettings};

/// Pass names, as they appear in labels, timings and `--stats-json` (each defined by its
/// pass's file).
pub mod pass {
    pub use crate::gpu::features::cull::{
        CLEAR as CULL_CLEAR, CULL, DRAWS as CULL_DRAWS, STATS as CULL_STATS,
    };
    pub use crate::gpu::features::debug_view::NAME as DEBUG_VIEW;
    pub use crate::gpu::features::exposure::pass::{MEASURE as EXPOSURE_MEASURE, NAME as EXPOSURE};
    pub use crate::gpu::features::mesh_shadow::NAME as MESH_SHADOW;
    pub use crate::gpu::features::occlusion::{
        CULL_LATE, DEPTH as OCCLUSION_DEPTH, DRAWS_LATE as CULL_DRAWS_LATE,
    };
    pub use crate::gpu::features::output::NAME as OUTPUT;
    pub use crate::gpu::features::palettes::NAME as PALETTES;
    pub use crate::gpu::features::readback::NAME as READBACK;
    pub use crate::gpu::features::shadow::{NAME as SHADOW, NEAR_NAME as SHADOW_NEAR};
    pub use crate::gpu::features::shadow_splat::{
        CLEAR as SHADOW_SPLAT_CLEAR, COPY as SHADOW_SPLAT_COPY,
    };
    pub use crate::gpu::features::skin::{LATE as SKIN_LATE, NAME as SKIN};
    pub use crate::gpu::features::ssao::{BLUR as SSAO_BLUR, NAME as SSAO};
    pub use crate::gpu::features::tonemap::NAME as TONEMAP;
    use crate::gpu::features::{crowd_state, hud, impostors, lit};
    pub use crowd_state::passes::{
        APPLY as CROWD_STATE_APPLY, CLEAR as CROWD_STATE_CLEAR, EXACT as CROWD_STATE_EXACT,
        NAME as CROWD_STATE,
    };
    pub use hud::pass::NAME as HUD;
    pub use impostors::card_compute::{
        RASTER as CARD_RASTER, SHADE as CARD_SHADE, SHADOW as CARD_SHADOW,
        VISIBILITY_CLEAR as CARD_VISIBILITY_CLEAR,
    };
    pub use impostors::cards::{
        DEPTH_NORMAL as IMPOSTOR_DEPTH_NORMAL, FORWARD as IMPOSTOR_FORWARD,
        SHADOW as IMPOSTOR_SHADOW,
    };
    pub use lit::camera_depth::NAME as CAMERA_DEPTH;
    pub use lit::composite::NAME as AMBIENT_COMPOSITE;
    pub use lit::depth_normal::{LATE as DEPTH_NORMAL_LATE, NAME as DEPTH_NORMAL};
    pub use lit::forward::{LATE as FORWARD_LATE, NAME as FORWARD};
    pub use lit::ground::NAME as GROUND;
    pub use lit::mesh_compute::{RASTER as MESH_RASTER, SHADE as MESH_SHADE};
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
    // them (as quads); the coarser mesh levels' in compute go in before the shadow pass too.
    let shadow_map = shadow::map(&mut f);
    let splat = shadow_splat::depths(&mut f);
    card_compute::declare_shadow(&mut f, &culled, splat);
    mesh_shadow::declare(&mut f, &culled, splat);
    shadow_splat::declare_copy(&mut f, splat, shadow_map);
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
        // After every lit pass that draws into the targets: the surfaces compute passes find
        // per sample (meshes and cards share one visibility buffer: the nearest of either
        // keeps each sample), the ground under what the lit passes left (resolving their
        // samples, less those the compute surfaces claim), then those surfaces lit into them.
        let visibility = forward
            .as_ref()
            .and_then(|fwd| card_compute::visibility(&mut f, fwd));
        if let Some(visibility) = visibility {
            mesh_compute::declare_raster(&mut f, &culled, visibility);
            card_compute::declare_camera_raster(&mut f, &culled, visibility);
        }
        if let Some(fwd) = &forward {
            ground::declare(&mut f, fwd, visibility, &depth_normals);
        }
        if let (Some(fwd), Some(visibility)) = (&forward, visibility) {
            card_compute::declare_camera_shade(&mut f, &culled, fwd, &depth_normals, visibility);
            mesh_compute::declare_shade(&mut f, &culled, fwd, &depth_normals, visibility);
        }
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
    exposure::declare(&mut f);
    tonemap::declare(&mut f);
    hud::declare(&mut f);
    output::declare(&mut f);
    cull::declare_stats(&mut f, &culled);
    readback::declare(&mut f);
    f.compile()
}
