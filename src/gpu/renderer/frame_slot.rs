//! Everything one frame in flight owns, indexed by the ring slot that names it: its command
//! buffer, uniforms and queries ([`InFlightFrame`]), its culling inputs, the buffers its passes
//! declared, and the models its statistics count until they are read.

use std::sync::Arc;

use crate::gpu::device::context::GpuContext;
use crate::gpu::device::error::GpuError;
use crate::gpu::frame::culling::inputs::InputBuffer;
use crate::gpu::frame::in_flight::InFlightFrame;
use crate::gpu::frame::resources::buffers::PassBuffers;

/// See the module documentation.
pub(super) struct FrameSlot {
    /// Its command buffer, uniforms and timestamp queries, and when the GPU is done with them.
    pub frame: InFlightFrame,
    /// Its culling inputs (made for the first frame that needs them).
    pub cull_inputs: Option<InputBuffer>,
    /// The buffers the passes of its graph declared.
    pub buffers: PassBuffers,
    /// The models its frame drew, while its statistics buffer holds counts not read yet.
    pub stats_pending: Option<usize>,
}

impl FrameSlot {
    /// Frame in flight `index`'s resources.
    pub fn new(ctx: &Arc<GpuContext>, index: usize) -> Result<Self, GpuError> {
        Ok(Self {
            frame: InFlightFrame::new(ctx, index)?,
            cull_inputs: None,
            buffers: PassBuffers::new(ctx, index),
            stats_pending: None,
        })
    }
}
