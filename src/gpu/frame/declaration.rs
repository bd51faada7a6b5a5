//! What every pass declares itself into: the frame's graph being built, with the frame-wide
//! resources, shape and settings, and what the passes register (recordings, pipelines,
//! buffers); and the clear value of a depth attachment.

use ash::vk;

use crate::gpu::device::error::GpuError;
use crate::gpu::device::pipeline::{Culling, PipelineDesc, PipelineKind};
use crate::gpu::frame::recording::bindings::FrameResources;
use crate::gpu::frame::recording::compiled::{CompiledFrame, Recorder};
use crate::gpu::frame::recording::pass::{PassRecording, PipelineId};
use crate::gpu::frame::resources::buffers::BufferDesc;
use crate::gpu::frame::settings::{GraphKey, RenderSettings, sample_count};
use crate::gpu::frame::shape::FrameShape;
use crate::gpu::graph::{
    Access, Extent, GraphBuilder, ImageDesc, ImageKind, PassBuilder, ResourceId,
};

/// A frame's graph being declared: the builder, the frame-wide resources, the frame's shape
/// and settings, and what the passes register (recordings, pipelines, buffers).
pub struct FrameDeclaration {
    graph: GraphBuilder,
    /// The frame-wide resources.
    pub frame: FrameResources,
    /// What the passes do.
    pub shape: FrameShape,
    /// The settings it is declared under.
    pub settings: RenderSettings,
    /// What the graph is compiled for.
    pub key: GraphKey,
    /// The colour target's format.
    pub color_format: vk::Format,
    /// Which faces of the characters are culled.
    pub culling: Culling,
    recorders: Vec<Option<Recorder>>,
    pipelines: Vec<PipelineDesc>,
    buffers: Vec<(ResourceId, BufferDesc)>,
}

impl FrameDeclaration {
    /// A frame for `key` under `settings`, with its frame-wide resources declared.
    pub fn new(
        key: GraphKey,
        settings: &RenderSettings,
        color_format: vk::Format,
        culling: Culling,
    ) -> Self {
        let mut graph = GraphBuilder::new();
        let frame = FrameResources {
            color: graph.imported_image(
                "colour target",
                ImageKind::Color,
                vk::ImageLayout::UNDEFINED,
                key.present.then_some(Access::Present),
            ),
            scene: graph.transient_image(ImageDesc {
                name: "scene colour",
                format: color_format,
                kind: ImageKind::Color,
                extent: Extent::Target,
                samples: vk::SampleCountFlags::TYPE_1,
            }),
            ring: graph.imported_buffer("palette ring slot"),
            cull_inputs: graph.imported_buffer("culling inputs"),
            readback: graph.host_read_buffer("readback"),
        };
        Self {
            graph,
            frame,
            shape: FrameShape::for_key(&key, settings),
            settings: *settings,
            key,
            color_format,
            culling,
            recorders: Vec::new(),
            pipelines: Vec::new(),
            buffers: Vec::new(),
        }
    }

    /// Declares a pass recorded by `record`; the builder adds its uses.
    pub fn pass(
        &mut self,
        name: &'static str,
        record: impl Fn(&PassRecording<'_>) -> Result<(), GpuError> + Send + Sync + 'static,
    ) -> PassBuilder<'_> {
        self.recorders.push(Some(Box::new(record)));
        self.graph.pass(name)
    }

    /// Declares a step the CPU does before submission (host writes): it records nothing.
    pub fn host_step(&mut self, name: &'static str) -> PassBuilder<'_> {
        self.recorders.push(None);
        self.graph.pass(name)
    }

    /// An image the graph makes from `desc` (shared with every graph that declares the same
    /// description).
    pub fn image(&mut self, desc: ImageDesc) -> ResourceId {
        self.graph.transient_image(desc)
    }

    /// A buffer made from `desc` for each frame in flight (read by the CPU after the frame
    /// when `desc.host_read`).
    pub fn buffer(&mut self, desc: BufferDesc) -> ResourceId {
        let id = if desc.host_read {
            self.graph.host_read_buffer(desc.name)
        } else {
            self.graph.imported_buffer(desc.name)
        };
        self.buffers.push((id, desc));
        id
    }

    /// A buffer a feature keeps on the device and binds every frame by `name` (the same
    /// buffer each frame, its contents carried over): the graph orders its first use after
    /// the previous frame's last.
    pub fn persistent_buffer(&mut self, name: &'static str) -> ResourceId {
        self.graph.persistent_buffer(name)
    }

    /// A buffer a feature binds by `name` for this frame in flight (written by the host, or
    /// by this frame only).
    pub fn imported_buffer(&mut self, name: &'static str) -> ResourceId {
        self.graph.imported_buffer(name)
    }

    /// A buffer a feature binds by `name` for this frame in flight and the CPU reads once the
    /// frame is done: the graph ends with the barrier making its writes visible to the host.
    pub fn host_read_buffer(&mut self, name: &'static str) -> ResourceId {
        self.graph.host_read_buffer(name)
    }

    /// Registers a pipeline; the recording finds it by the returned id.
    pub fn pipeline(&mut self, desc: PipelineDesc) -> PipelineId {
        let id = PipelineId(self.pipelines.len() as u32);
        self.pipelines.push(desc);
        id
    }

    /// Samples per pixel of the camera's passes.
    pub fn samples(&self) -> vk::SampleCountFlags {
        sample_count(self.settings.msaa)
    }

    /// Whether the camera's lit passes leave their colours multisampled for a compute pass
    /// to resolve (the ground's, which reads every sample anyway) and the camera's depth for
    /// the passes that read it to take sample zero of: multisampled, with the ground drawn
    /// in compute.
    pub fn lit_resolved_in_compute(&self) -> bool {
        self.shape.ground_in_compute && self.samples() != vk::SampleCountFlags::TYPE_1
    }

    /// Marks `res` as read after the graph.
    pub fn mark_output(&mut self, res: ResourceId) {
        self.graph.mark_output(res);
    }

    /// Compiles what was declared.
    pub fn compile(self) -> Result<CompiledFrame, GpuError> {
        let plan = self
            .graph
            .compile()
            .map_err(|e| GpuError::Graph(e.to_string()))?;
        log::debug!("frame graph for {:?}:\n{plan}", self.key);
        Ok(CompiledFrame {
            plan,
            frame: self.frame,
            shape: self.shape,
            recorders: self.recorders,
            pipeline_descs: self.pipelines,
            pipelines: Vec::new(),
            buffers: self.buffers,
        })
    }
}

/// The clear value of a depth attachment: the far plane.
pub const FAR_DEPTH: vk::ClearValue = vk::ClearValue {
    depth_stencil: vk::ClearDepthStencilValue {
        depth: 1.0,
        stencil: 0,
    },
};

/// A compute pipeline's description.
pub fn compute(name: &'static str, shader: &'static str) -> PipelineDesc {
    PipelineDesc {
        name,
        kind: PipelineKind::Compute(shader),
    }
}
