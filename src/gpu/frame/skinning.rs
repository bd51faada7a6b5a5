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
//! (`shaders/cull_draws.comp`): all of it, or as many of its first instances as the room left
//! holds; the instances past it are skinned in the vertex shaders as before, so a crowd larger
//! than the room still draws, whole, at the old cost for what did not fit.
//!
//! Left to the device ([`Raster::Auto`]), a GPU skins in compute and a software rasterizer
//! (lavapipe) in the vertex shaders: there the skin pass costs more than the vertex shaders
//! save (docs/crowds-at-scale.md).

use crate::crowd::visibility::LOD_LEVELS;
use crate::gpu::frame::model_buffers::GpuModel;
use crate::gpu::frame::settings::{Raster, RenderSettings};
use crate::gpu::frame::shader_interface::VIEWS;
use crate::gpu::frame::shader_interface::{SKIN_CAMERA_VEC4S, SKIN_MAX_VEC4S, SKIN_SHADOW_VEC4S};
use crate::gpu::frame::shape::FrameShape;

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

/// Where the skin table's parts start, in words, for a frame of `models` models: the Rust
/// statement of `shaders/skin_table.glsl`'s layout (a 4-word header, then 4 words per phase
/// and model for the indirect dispatches: the skin pass's two and the mesh raster's two (the
/// camera's and the sun's), then
/// [`SkinTable::ENTRY_WORDS`] per view, model and mesh level).
#[derive(Clone, Copy, Debug)]
pub struct SkinTable {
    /// The frame's models.
    pub models: usize,
}

impl SkinTable {
    /// The header's word of the vec4s reserved so far.
    pub const USED: usize = 3;
    /// Words per entry: the skin pass's four, then the mesh raster's first workgroup
    /// (`SKIN_NONE`: drawn by the graphics passes), triangles per instance, the instances
    /// skinned (the list's first ones: as many as the room held) and one unused.
    pub const ENTRY_WORDS: usize = 8;
    /// The mesh raster's phase (one dispatch per model after every camera list).
    pub const RASTER_PHASE: usize = 2;
    /// The sun's mesh raster's phase (one dispatch per model).
    pub const SHADOW_RASTER_PHASE: usize = 3;
    /// The phases with an indirect dispatch per model.
    pub const PHASES: usize = 4;

    /// The first word of the indirect dispatch of `phase` (the skin pass's 0: before the
    /// occlusion test, 1: after it; [`Self::RASTER_PHASE`], [`Self::SHADOW_RASTER_PHASE`]) for
    /// `model`.
    pub fn args(&self, phase: usize, model: usize) -> usize {
        4 + (phase * self.models + model) * 4
    }

    /// The first word of the entry of `view`, `model` and mesh `level`: the list's first vec4
    /// (`SKIN_NONE`: not skinned), first slot, first workgroup and instances, then the mesh
    /// raster's words.
    pub fn entry(&self, view: usize, model: usize, level: usize) -> usize {
        self.args(Self::PHASES, 0)
            + ((view * self.models + model) * LOD_LEVELS + level) * Self::ENTRY_WORDS
    }

    /// The words the table takes.
    pub fn words(&self) -> usize {
        self.entry(VIEWS, 0, 0)
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

    /// The shadow pass's vertex shader for alpha-clipped materials: as
    /// [`Self::shadow_vertex_shader`], handing the texture coordinate on.
    pub fn shadow_clip_vertex_shader(&self) -> &'static str {
        if self.skin_pass {
            "shadow_clip_once.vert"
        } else {
            "shadow_clip.vert"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::frame::shader_interface::{LIST_LEVELS, SKIN_GROUP};

    #[test]
    fn the_table_fits_the_buffer_the_skin_feature_declares() {
        // shaders/skin_table.glsl's layout; the buffer (src/gpu/features/skin.rs) takes 16
        // bytes and 32 per culling counter ([view][model][list] and one).
        let table = SkinTable { models: 3 };
        assert_eq!(table.args(0, 0), 4);
        assert_eq!(table.args(1, 2), 4 + 5 * 4);
        assert_eq!(table.args(SkinTable::RASTER_PHASE, 1), 4 + 7 * 4);
        assert_eq!(table.args(SkinTable::SHADOW_RASTER_PHASE, 2), 4 + 11 * 4);
        assert_eq!(table.entry(0, 0, 0), 4 + 12 * 4);
        assert_eq!(table.entry(1, 2, 4), 52 + (5 * LOD_LEVELS + 4) * 8);
        for models in [1, 2, 7, 100] {
            let counters = VIEWS * models * LIST_LEVELS + 1;
            assert!(SkinTable { models }.words() * 4 <= 16 + 32 * counters);
        }
    }

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
