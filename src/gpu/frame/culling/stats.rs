//! What the culling passes drew: instances per mesh level and view, impostor cards, the
//! triangles the meshes cost and which the skin pass skinned, from the counters and the skin
//! table each frame copies for the CPU (read a frame or more later).

use crate::crowd::visibility::LOD_LEVELS;
use crate::gpu::device::buffer::GpuBuffer;
use crate::gpu::frame::culling::data::{
    CARD_LEVEL, VIEW_CAMERA, VIEW_CAMERA_LATE, VIEW_SHADOW, counter_index,
};
use crate::gpu::frame::culling::sizes::CullSizes;
use crate::gpu::frame::model_buffers::GpuModel;
use crate::gpu::frame::shader_interface::SKIN_NONE;
use crate::gpu::frame::skinning::SkinTable;

/// What the culling passes drew in one frame, read back a frame or more later.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DrawStats {
    /// Instances the camera's passes drew at each mesh level.
    pub camera: [u64; LOD_LEVELS],
    /// Instances the shadow pass drew at each level.
    pub shadow: [u64; LOD_LEVELS],
    /// Impostor cards the camera's passes drew.
    pub camera_cards: u64,
    /// Impostor cards the shadow pass drew.
    pub shadow_cards: u64,
    /// Triangles per camera pass (the prepass and the forward pass draw the same).
    pub camera_triangles: u64,
    /// Triangles the shadow pass drew.
    pub shadow_triangles: u64,
    /// The depth/normal prepass drew the camera's instances too (`--prepass on`).
    pub prepass: bool,
    /// Meshes the camera's passes drew as the skin pass skinned them (the others skinned
    /// in the vertex shaders).
    pub camera_skinned: u64,
    /// Meshes the shadow pass drew as the skin pass skinned them.
    pub shadow_skinned: u64,
    /// Bytes the skin pass filled.
    pub skinned_bytes: u64,
    /// Meshes among the camera's the mesh raster drew instead of the lit passes.
    pub camera_rasterized: u64,
    /// Meshes among the sun's the sun's mesh raster drew instead of the shadow pass.
    pub shadow_rasterized: u64,
}

/// Reads the counters; keeps the latest statistics.
#[derive(Debug, Default)]
pub struct DrawStatsReader {
    /// Reused to read the counters.
    scratch: Vec<u32>,
    latest: Option<DrawStats>,
}

impl DrawStatsReader {
    /// Reads the counters copied into `stats` (made for `sizes`) by a frame that has
    /// completed and drew `models`; counts of a frame that drew more models than the buffer
    /// has room for are not there to read, and are skipped.
    pub fn collect(&mut self, stats: &GpuBuffer, sizes: CullSizes, models: &[GpuModel]) {
        if models.len() > sizes.models {
            return;
        }
        // The counters, then the skin table.
        let n = sizes.counters();
        let layout = SkinTable {
            models: models.len(),
        };
        let words = n + layout.words();
        self.scratch.resize(words, 0);
        if stats
            .read(0, bytemuck::cast_slice_mut(&mut self.scratch[..words]))
            .is_err()
        {
            return;
        }
        let (counters, table) = self.scratch.split_at(n);
        // The shaders number counters by the models drawn, not by the models the buffers
        // have room for.
        let stride = models.len();
        let mut stats = DrawStats::default();
        for (m, model) in models.iter().enumerate() {
            let at = |view, level| u64::from(counters[counter_index(stride, view, m, level)]);
            // Instances of the list the skin pass skinned (its entry's first vec4 set): its
            // first ones, as many as the room held.
            let skinned = |view: usize, level: usize| {
                let e = layout.entry(view, m, level);
                match table[e] {
                    SKIN_NONE => 0,
                    _ => u64::from(table[e + 6].min(table[e + 3])),
                }
            };
            // Instances of the list the mesh raster drew (its first workgroup set).
            let rasterized = |view: usize, level: usize| {
                let e = layout.entry(view, m, level);
                match table[e + 4] {
                    SKIN_NONE => 0,
                    _ => u64::from(table[e + 3]),
                }
            };
            stats.camera_cards += at(VIEW_CAMERA, CARD_LEVEL) + at(VIEW_CAMERA_LATE, CARD_LEVEL);
            stats.shadow_cards += at(VIEW_SHADOW, CARD_LEVEL);
            for level in 0..LOD_LEVELS {
                let (camera, shadow) = (
                    at(VIEW_CAMERA, level) + at(VIEW_CAMERA_LATE, level),
                    at(VIEW_SHADOW, level),
                );
                stats.camera[level] += camera;
                stats.shadow[level] += shadow;
                stats.camera_skinned +=
                    skinned(VIEW_CAMERA, level) + skinned(VIEW_CAMERA_LATE, level);
                stats.shadow_skinned += skinned(VIEW_SHADOW, level);
                stats.camera_rasterized +=
                    rasterized(VIEW_CAMERA, level) + rasterized(VIEW_CAMERA_LATE, level);
                stats.shadow_rasterized += rasterized(VIEW_SHADOW, level);
                stats.camera_triangles += camera * model.level_triangles[level];
                stats.shadow_triangles += shadow * model.level_triangles[level];
            }
        }
        stats.skinned_bytes = u64::from(table[SkinTable::USED]) * 16;
        self.latest = Some(stats);
    }

    /// The latest statistics read.
    pub fn latest(&self) -> Option<DrawStats> {
        self.latest
    }
}
