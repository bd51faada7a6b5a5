//! Skinning once per frame: how much room the skin pass has ([`RenderSettings::skin_vec4s`];
//! its default and the device's bound are [`crate::gpu::frame::skin_room`]'s) and which vertex
//! shaders read what it skinned.
//!
//! After each culling pass, `shaders/skin.comp` skins every vertex of every listed instance
//! (the levels' own vertices only) into one buffer, in the world, once per list it is in
//! (the sun's list keeps the position alone, the camera's normal and tangent too), and the
//! skinned passes' vertex shaders read it instead of blending four to sixteen palette
//! matrices per vertex: the shadow and lit passes' vertex stages only fetch, no vertex is
//! skinned twice for a vertex cache's misses, and the prepass and the lit pass share the
//! camera's. The culling's draws pass reserves each list's room
//! (`shaders/cull_draws.comp`); a list that finds none is skinned in the vertex shaders as
//! before, so a crowd larger than the room still draws, whole, at the old cost.
//!
//! Left to the device ([`Raster::Auto`]), a GPU skins in compute and a software rasterizer
//! (lavapipe) in the vertex shaders: there the skin pass costs more than the vertex shaders
//! save (docs/crowds-at-scale.md).

use crate::gpu::frame::model_buffers::GpuModel;
use crate::gpu::frame::settings::{FrameShape, Raster, RenderSettings};
use crate::gpu::frame::shader_interface::{SKIN_CAMERA_VEC4S, SKIN_MAX_VEC4S, SKIN_SHADOW_VEC4S};

impl RenderSettings {
    /// The vec4s the skinned buffer holds: the megabytes asked for, at most what one
    /// dispatch can skin ([`SKIN_MAX_VEC4S`]); 0 unless the skin pass skins
    /// ([`Raster::Compute`]; [`Raster::Auto`] is decided per device before a frame is
    /// declared).
    pub fn skin_vec4s(&self) -> u32 {
        if self.skin != Raster::Compute {
            return 0;
        }
        let asked = u64::from(self.skin_memory_mb) * (1 << 20) / 16;
        asked.min(u64::from(SKIN_MAX_VEC4S)) as u32
    }
}

/// The most vec4s the skin pass could fill for `instances` instances of `models`: each drawn
/// whole by the camera and by the sun at the largest full mesh. The skinned buffer is no
/// larger than this, so a small crowd does not keep the whole room.
pub fn skin_vec4s_for(instances: usize, models: &[GpuModel]) -> usize {
    let most = models.iter().map(|m| m.level_vertices[0] as usize).max();
    let per_vertex = (SKIN_CAMERA_VEC4S + SKIN_SHADOW_VEC4S) as usize;
    instances
        .saturating_mul(most.unwrap_or(0))
        .saturating_mul(per_vertex)
}

impl FrameShape {
    /// The vertex shader of the camera's skinned passes: one that reads what the skin pass
    /// skinned where it runs, else one that skins every vertex (and reads nothing more).
    pub fn skinned_vertex_shader(&self) -> &'static str {
        if self.skin_pass {
            "skinned_once.vert"
        } else {
            "skinned.vert"
        }
    }

    /// The shadow pass's vertex shader, chosen likewise.
    pub fn shadow_vertex_shader(&self) -> &'static str {
        if self.skin_pass {
            "shadow_once.vert"
        } else {
            "shadow.vert"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::frame::shader_interface::SKIN_GROUP;

    #[test]
    fn the_room_is_what_was_asked_up_to_one_dispatch() {
        let with = |skin_memory_mb| RenderSettings {
            skin: Raster::Compute,
            skin_memory_mb,
            ..RenderSettings::default()
        };
        assert_eq!(with(0).skin_vec4s(), 0);
        for skin in [Raster::Auto, Raster::Graphics] {
            assert_eq!(RenderSettings { skin, ..with(1) }.skin_vec4s(), 0);
        }
        assert_eq!(with(1).skin_vec4s(), 65_536);
        assert_eq!(with(u32::MAX).skin_vec4s(), SKIN_MAX_VEC4S);
        assert_eq!(SKIN_MAX_VEC4S, (65_535 - 16) * SKIN_GROUP);
    }
}
