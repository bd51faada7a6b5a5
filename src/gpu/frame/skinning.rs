//! Skinning once per frame: how much room the skin pass has ([`RenderSettings::skin_memory_mb`]).
//!
//! After each culling pass, `shaders/skin.comp` skins every vertex of every listed instance
//! (the levels' own vertices only) into one buffer, in the world, and the skinned passes'
//! vertex shaders read it instead of blending four palette matrices per vertex in every pass:
//! the camera's passes and the sun's share what the instance's level has in common, and no
//! vertex is skinned twice within a pass. The culling's draws pass reserves each list's room
//! (`shaders/cull_draws.comp`); a list that finds none is skinned in the vertex shaders as
//! before, so a crowd larger than the room still draws, whole, at the old cost.
//!
//! Left to the device ([`Raster::Auto`]), a GPU skins in compute and a software rasterizer
//! (lavapipe) in the vertex shaders: there the skin pass costs more than the vertex shaders
//! save (docs/crowds-at-scale.md).

use ash::vk;

use crate::gpu::frame::settings::{FrameShape, Raster, RenderSettings};
use crate::gpu::frame::shader_interface::SKIN_MAX_VEC4S;

/// Megabytes per frame in flight unless asked otherwise: the most one dispatch skins
/// ([`SKIN_MAX_VEC4S`], 256 MB less 0.02%). The street of 100,000 built-in characters at
/// 1920x1080 needs about 200 (docs/crowds-at-scale.md); a list that does not fit is skinned
/// by the vertex shaders.
pub const DEFAULT_SKIN_MEMORY_MB: u32 = 256;

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

/// The megabytes of skinned vertices `settings` ask for, at most what the device named
/// `device` binds as one storage buffer (`limits`), saying so once when it had to lower them.
pub fn skin_memory_for(
    settings: &RenderSettings,
    limits: &vk::PhysicalDeviceLimits,
    device: &str,
) -> u32 {
    let most = (limits.max_storage_buffer_range >> 20).max(1);
    let asked = settings.skin_memory_mb;
    if settings.skin == Raster::Compute && asked > most {
        static SAID: std::sync::Once = std::sync::Once::new();
        SAID.call_once(|| {
            log::warn!(
                "{asked} MB of skinned vertices asked for; {device} binds at most {most} MB as \
                 one buffer"
            );
        });
    }
    asked.min(most)
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

    #[test]
    fn the_room_fits_one_storage_buffer_of_the_device() {
        let limits = vk::PhysicalDeviceLimits {
            max_storage_buffer_range: 1 << 27,
            ..Default::default()
        };
        let asked = |skin_memory_mb| RenderSettings {
            skin: Raster::Compute,
            skin_memory_mb,
            ..RenderSettings::default()
        };
        assert_eq!(skin_memory_for(&asked(64), &limits, "test"), 64);
        assert_eq!(skin_memory_for(&asked(4096), &limits, "test"), 128);
    }
}
