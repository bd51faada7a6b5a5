//! The features that keep state across frames, as the renderer holds them: each is one field
//! here, made in [`Features::new`], and takes part in a frame in two steps: before recording,
//! [`Features::prepare_frame`] writes its per-frame buffers for the frame in flight and keeps
//! what its passes read; then [`Features::hand`] gives the frame its buffers (imported into
//! the graph by name) and those values (found by type). Everything else of a feature is in
//! its folder under `gpu/features/`, and its passes are one line in `compose.rs`.

use std::sync::Arc;

use crate::gpu::device::context::GpuContext;
use crate::gpu::device::error::GpuError;
use crate::gpu::features::crowd_state::passes::imports as crowd_state_imports;
use crate::gpu::features::crowd_state::state::{CrowdStateBinding, DeviceCrowdState};
use crate::gpu::features::exposure::{ExposureFrame, ExposureState};
use crate::gpu::features::hud::{HudFrame, HudLayer};
use crate::gpu::features::impostors::atlases::ImpostorAtlases;
use crate::gpu::frame::recording::features::FeatureFrame;
use crate::gpu::frame::settings::GraphKey;

/// See the module documentation.
pub(super) struct Features {
    /// The heads-up display (`Renderer::set_hud`).
    pub hud: HudLayer,
    /// Each model's impostor atlas, baked when impostors are first drawn.
    pub atlases: ImpostorAtlases,
    /// The crowd's state, when it lives on the GPU (`Renderer::set_crowd_state`).
    pub crowd_state: Option<DeviceCrowdState>,
    /// The exposure the frames adapted to (`RenderSettings::auto_exposure`).
    pub exposure: ExposureState,
}

/// What the features keep for one frame while it is recorded.
#[derive(Default)]
pub(super) struct FrameValues {
    hud: Option<HudFrame>,
    crowd_state: Option<CrowdStateBinding>,
    exposure: ExposureFrame,
}

impl Features {
    /// Every feature in its initial state, for `slots` frames in flight.
    pub fn new(ctx: &Arc<GpuContext>, slots: usize) -> Result<Self, GpuError> {
        Ok(Self {
            hud: HudLayer::new(ctx, slots)?,
            atlases: ImpostorAtlases::default(),
            crowd_state: None,
            exposure: ExposureState::new(ctx)?,
        })
    }

    /// Frame in flight `fi`'s per-frame state, for a frame compiled for `key` coming `dt`
    /// seconds after the previous one (`near`: the crowd's state lists the instances near
    /// enough for exact palettes).
    pub fn prepare_frame(
        &mut self,
        fi: usize,
        key: GraphKey,
        dt: f32,
        near: bool,
    ) -> Result<FrameValues, GpuError> {
        Ok(FrameValues {
            hud: if key.hud { self.hud.prepare(fi)? } else { None },
            crowd_state: match self.crowd_state.as_mut() {
                Some(state) => Some(state.take_binding(fi, near)?),
                None => None,
            },
            exposure: ExposureState::frame(dt),
        })
    }

    /// Gives frame in flight `fi` what the features hand it: their buffers, by the names
    /// their passes declared, and the values their passes read.
    pub fn hand<'a>(
        &'a self,
        fi: usize,
        values: &'a FrameValues,
        to: &mut FeatureFrame<'a>,
    ) -> Result<(), GpuError> {
        if let Some(hud) = &values.hud {
            self.hud.hand(fi, hud, to)?;
        }
        if let Some(state) = &values.crowd_state {
            for (name, buffer) in crowd_state_imports(state) {
                to.import(name, buffer)?;
            }
            to.provide(state)?;
        }
        self.exposure.hand(&values.exposure, to)?;
        to.provide(&self.atlases)
    }
}
