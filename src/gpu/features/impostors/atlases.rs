//! The renderer's impostor atlases, one per model, baked the first time impostors are drawn,
//! within one memory budget for all of them (`--impostor-memory`): a model whose atlas does
//! not fit what is left of it keeps its meshes at every distance, and says so once.

use std::sync::Arc;

use crate::anim::SkinnedModel;
use crate::gpu::device::context::GpuContext;
use crate::gpu::device::error::GpuError;
use crate::gpu::device::pipeline::PipelineCache;
use crate::gpu::features::impostors::bake::{ModelAtlas, bake, bake_level, plan};
use crate::gpu::frame::model_buffers::GpuModel;
use crate::gpu::frame::samplers::Samplers;

/// The atlas budget unless asked otherwise: enough for several models of a few clips (the
/// built-in character's three clips take 57 MB).
pub const DEFAULT_IMPOSTOR_MEMORY: u64 = 256 << 20;

/// One model's atlas.
pub enum AtlasState {
    /// Not baked yet.
    Unbaked,
    /// Baked.
    Baked(Box<ModelAtlas>),
    /// Its atlas would not fit the budget (bytes it needed): meshes only.
    Refused(u64),
    /// Scenery (a walkable area's floor and walls): large and still, never a card.
    Scenery,
}

/// Every model's atlas; see the module documentation.
pub struct ImpostorAtlases {
    states: Vec<AtlasState>,
    memory_limit: u64,
}

impl Default for ImpostorAtlases {
    fn default() -> Self {
        Self {
            states: Vec::new(),
            memory_limit: DEFAULT_IMPOSTOR_MEMORY,
        }
    }
}

/// What baking the atlases did, for a start-up line.
#[derive(Clone, Debug, PartialEq)]
pub struct AtlasReport {
    /// The model's name.
    pub model: String,
    /// Bytes of its atlas (what it would have taken, when refused).
    pub bytes: u64,
    /// Baked (`Some` seconds it took) or refused (`None`).
    pub baked_seconds: Option<f64>,
    /// Views, frames per clip and clips, when baked.
    pub cells: Option<(u32, u32, u32)>,
    /// The mesh level drawn into it, when baked (0 is the full mesh).
    pub level: Option<usize>,
}

impl ImpostorAtlases {
    /// The budget for all atlases, bytes. Atlases baked already are kept.
    pub fn set_memory_limit(&mut self, bytes: u64) {
        self.memory_limit = bytes;
    }

    /// The budget, bytes.
    pub fn memory_limit(&self) -> u64 {
        self.memory_limit
    }

    /// Bytes the baked atlases take.
    pub fn used(&self) -> u64 {
        self.states
            .iter()
            .map(|s| match s {
                AtlasState::Baked(a) => a.layout.bytes(),
                _ => 0,
            })
            .sum()
    }

    /// Marks model `i` as scenery: it is never baked nor drawn as a card.
    pub fn mark_scenery(&mut self, i: usize) {
        if self.states.len() <= i {
            self.states.resize_with(i + 1, || AtlasState::Unbaked);
        }
        self.states[i] = AtlasState::Scenery;
    }

    /// Model `i`'s atlas, if it has one.
    pub fn atlas(&self, i: usize) -> Option<&ModelAtlas> {
        match self.states.get(i) {
            Some(AtlasState::Baked(a)) => Some(a),
            _ => None,
        }
    }

    /// Bakes the atlas of every model that has none yet, in model order, within the budget,
    /// each from the mesh level whose error covers at most `max_error_px` of a cell's pixels
    /// (the full mesh when `None`: [`bake_level`]).
    pub fn ensure(
        &mut self,
        ctx: &Arc<GpuContext>,
        pipelines: &mut PipelineCache,
        samplers: &Samplers,
        models: &[Arc<SkinnedModel>],
        gpu: &[GpuModel],
        max_error_px: Option<f32>,
    ) -> Result<(), GpuError> {
        self.states
            .resize_with(gpu.len().max(self.states.len()), || AtlasState::Unbaked);
        for (i, (model, gpu_model)) in models.iter().zip(gpu).enumerate() {
            if !matches!(self.states[i], AtlasState::Unbaked) {
                continue;
            }
            let layout = plan(model);
            let needed = layout.bytes();
            let left = self.memory_limit.saturating_sub(self.used());
            self.states[i] = if needed > left {
                log::warn!(
                    "the impostor atlas of {} needs {:.1} MB, more than the {:.1} MB left of \
                     --impostor-memory ({:.0} MB); its characters stay meshes at every \
                     distance",
                    model.name(),
                    needed as f64 / 1e6,
                    left as f64 / 1e6,
                    self.memory_limit as f64 / 1e6
                );
                AtlasState::Refused(needed)
            } else {
                // Levels the model lacks have infinite errors: never chosen.
                let level = bake_level(&gpu_model.errors, &layout, max_error_px);
                AtlasState::Baked(Box::new(bake(
                    ctx, pipelines, samplers, model, gpu_model, layout, level,
                )?))
            };
        }
        Ok(())
    }

    /// What baking did, per model that was considered.
    pub fn report(&self, models: &[Arc<SkinnedModel>]) -> Vec<AtlasReport> {
        self.states
            .iter()
            .zip(models)
            .filter_map(|(s, m)| match s {
                AtlasState::Unbaked | AtlasState::Scenery => None,
                AtlasState::Baked(a) => Some(AtlasReport {
                    model: m.name().to_string(),
                    bytes: a.layout.bytes(),
                    baked_seconds: Some(a.bake_seconds),
                    cells: Some((a.layout.views(), a.layout.frames, a.layout.clips)),
                    level: Some(a.level),
                }),
                AtlasState::Refused(bytes) => Some(AtlasReport {
                    model: m.name().to_string(),
                    bytes: *bytes,
                    baked_seconds: None,
                    cells: None,
                    level: None,
                }),
            })
            .collect()
    }
}
