//! A compiled frame: the graph's plan, the frame-wide resources, the frame's shape, each
//! pass's recording, the pipelines the passes registered (described when declared, built
//! through the [`PipelineCache`] before the first frame) and the buffers they declared.

use std::sync::Arc;

use crate::gpu::device::error::GpuError;
use crate::gpu::device::pipeline::{Pipeline, PipelineCache, PipelineDesc};
use crate::gpu::frame::recording::bindings::FrameResources;
use crate::gpu::frame::recording::pass::PassRecording;
use crate::gpu::frame::resources::buffers::BufferDesc;
use crate::gpu::frame::shape::FrameShape;
use crate::gpu::graph::{Plan, ResourceId, Step};

/// A pass's recording: called by the frame's executor after the step's barriers, with the
/// resources and pipelines the pass declared (captured when it was declared).
pub type Recorder = Box<dyn Fn(&PassRecording<'_>) -> Result<(), GpuError> + Send + Sync>;

/// See the module documentation.
pub struct CompiledFrame {
    /// Barriers, steps, layouts, load and store operations.
    pub plan: Plan,
    /// The frame-wide resources.
    pub frame: FrameResources,
    /// What the passes do.
    pub shape: FrameShape,
    /// Each declared pass's recording, by pass id (`None`: a host step).
    pub recorders: Vec<Option<Recorder>>,
    /// The pipelines the passes registered, by [`crate::gpu::frame::recording::pass::PipelineId`].
    pub pipeline_descs: Vec<PipelineDesc>,
    /// Those pipelines, once built ([`Self::build_pipelines`]).
    pub pipelines: Vec<Arc<Pipeline>>,
    /// The buffers the passes declared.
    pub buffers: Vec<(ResourceId, BufferDesc)>,
}

impl CompiledFrame {
    /// The recording of the pass `step` runs (`None` for a host step).
    pub fn recorder(&self, step: &Step) -> Option<&Recorder> {
        self.recorders
            .get(step.pass.0 as usize)
            .and_then(Option::as_ref)
    }

    /// Builds (or finds in `cache`) every pipeline the passes registered.
    pub fn build_pipelines(&mut self, cache: &mut PipelineCache) -> Result<(), GpuError> {
        self.pipelines = self
            .pipeline_descs
            .iter()
            .map(|desc| cache.get(desc))
            .collect::<Result<_, _>>()?;
        Ok(())
    }

    /// The descriptions of the buffers the kept passes use (the frame in flight must have
    /// them).
    pub fn used_buffers(&self) -> impl Iterator<Item = &BufferDesc> {
        self.buffers
            .iter()
            .filter(|(id, _)| !self.plan.buffer_usage(*id).is_empty())
            .map(|(_, desc)| desc)
    }

    /// Whether a kept pass writes the buffer described by `desc` this frame.
    pub fn writes_buffer(&self, desc: &BufferDesc) -> bool {
        self.buffers
            .iter()
            .any(|(id, d)| d == desc && !self.plan.buffer_usage(*id).is_empty())
    }
}
