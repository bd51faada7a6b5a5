//! What the culling passes drew: instances per mesh level and view, impostor cards, and the
//! triangles the meshes cost, from the counters each frame copies for the CPU (read a frame
//! or more later).

use crate::crowd::visibility::LOD_LEVELS;
use crate::gpu::device::buffer::GpuBuffer;
use crate::gpu::frame::culling::data::{
    CARD_LEVEL, VIEW_CAMERA, VIEW_CAMERA_LATE, VIEW_SHADOW, counter_index,
};
use crate::gpu::frame::culling::sizes::CullSizes;
use crate::gpu::frame::model_buffers::GpuModel;

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
        let n = sizes.counters();
        self.scratch.resize(n, 0);
        if stats
            .read(0, bytemuck::cast_slice_mut(&mut self.scratch[..n]))
            .is_err()
        {
            return;
        }
        // The shaders number counters by the models drawn, not by the models the buffers
        // have room for.
        let stride = models.len();
        let mut stats = DrawStats::default();
        for (m, model) in models.iter().enumerate() {
            let at = |view, level| u64::from(self.scratch[counter_index(stride, view, m, level)]);
            stats.camera_cards += at(VIEW_CAMERA, CARD_LEVEL) + at(VIEW_CAMERA_LATE, CARD_LEVEL);
            stats.shadow_cards += at(VIEW_SHADOW, CARD_LEVEL);
            for level in 0..LOD_LEVELS {
                let (camera, shadow) = (
                    at(VIEW_CAMERA, level) + at(VIEW_CAMERA_LATE, level),
                    at(VIEW_SHADOW, level),
                );
                stats.camera[level] += camera;
                stats.shadow[level] += shadow;
                stats.camera_triangles += camera * model.level_triangles[level];
                stats.shadow_triangles += shadow * model.level_triangles[level];
            }
        }
        self.latest = Some(stats);
    }

    /// The latest statistics read.
    pub fn latest(&self) -> Option<DrawStats> {
        self.latest
    }
}
