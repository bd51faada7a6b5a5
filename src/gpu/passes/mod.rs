//! The frame's passes. Each pass is one file: its `declare` makes what the pass writes
//! (images from descriptions sized relative to the frame, buffers sized by the crowd),
//! registers its pipelines by shader file name and fixed-function state, tells the graph
//! what it reads and writes, and returns typed handles to what it made, which later passes
//! take as inputs; its recording, declared with it, gets exactly those resources. This file
//! holds only the frame's outline ([`compile`]: the passes in the order they run, handing
//! handles from one to the next) and the declaration they share ([`FrameDeclaration`]);
//! [`super::graph`] derives every barrier, layout and load/store operation, and culls the
//! passes nothing reads.
//!
//! Adding a pass: a file here and one line in [`compile`]. Its shaders in `shaders/` are
//! compiled and embedded by file name, and its pipeline layouts are read from them.

pub mod composite;
pub mod crowd_state;
pub mod cull;
pub mod debug_view;
pub mod depth_normal;
pub mod forward;
pub mod hud;
pub mod impostors;
pub mod occlusion;
pub mod over_target;
pub mod palettes;
pub mod readback;
pub mod shadow;
pub mod ssao;
#[cfg(test)]
mod tests;

use ash::vk;

use super::device::error::GpuError;
use super::device::pipeline::{Culling, PipelineDesc};
use super::graph::{Access, GraphBuilder, ImageDesc, ImageKind, PassBuilder, ResourceId};
use super::recording::bindings::FrameResources;
use super::recording::compiled::{CompiledFrame, Recorder};
use super::recording::pass::PassRecording;
use super::recording::pass::PipelineId;
use super::resources::buffers::BufferDesc;
use super::settings::{FrameShape, GraphKey, RenderSettings, sample_count};
use forward::Forward;

/// Pass names, as they appear in labels, timings and `--stats-json` (each defined by its
/// pass's file).
pub mod pass {
    pub use super::composite::NAME as AMBIENT_COMPOSITE;
    pub use super::crowd_state::NAME as CROWD_STATE;
    pub use super::cull::{CLEAR as CULL_CLEAR, CULL, DRAWS as CULL_DRAWS, STATS as CULL_STATS};
    pub use super::debug_view::NAME as DEBUG_VIEW;
    pub use super::depth_normal::{LATE as DEPTH_NORMAL_LATE, NAME as DEPTH_NORMAL};
    pub use super::forward::{LATE as FORWARD_LATE, NAME as FORWARD};
    pub use super::hud::NAME as HUD;
    pub use super::impostors::{
        DEPTH_NORMAL as IMPOSTOR_DEPTH_NORMAL, FORWARD as IMPOSTOR_FORWARD,
        SHADOW as IMPOSTOR_SHADOW,
    };
    pub use super::occlusion::{
        CULL_LATE, DEPTH as OCCLUSION_DEPTH, DRAWS_LATE as CULL_DRAWS_LATE,
    };
    pub use super::palettes::NAME as PALETTES;
    pub use super::readback::NAME as READBACK;
    pub use super::shadow::NAME as SHADOW;
    pub use super::ssao::{BLUR as SSAO_BLUR, NAME as SSAO};
}

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
            ring: graph.imported_buffer("palette ring slot"),
            cull_inputs: graph.imported_buffer("culling inputs"),
            readback: graph.host_read_buffer("readback"),
        };
        Self {
            graph,
            frame,
            shape: FrameShape::new(key.view, settings),
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

    /// Marks `res` as read after the graph.
    pub fn mark_output(&mut self, res: ResourceId) {
        self.graph.mark_output(res);
    }

    /// Compiles what was declared.
    fn compile(self) -> Result<CompiledFrame, GpuError> {
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

/// Declares and compiles the frame graph for `key` under `settings`, for a target of
/// `color_format` with the characters' `culling`: the passes in the order they run, each
/// handing what it made to the next; what the last pass reads decides which ones are kept.
/// Needs no device: pipelines are described here and built by the renderer.
pub fn compile(
    key: GraphKey,
    settings: &RenderSettings,
    color_format: vk::Format,
    culling: Culling,
) -> Result<CompiledFrame, GpuError> {
    let mut f = FrameDeclaration::new(key, settings, color_format, culling);
    palettes::declare(&mut f);
    crowd_state::declare(&mut f);
    let culled = cull::declare(&mut f);
    let shadow_map = shadow::declare(&mut f, &culled);
    impostors::declare_shadow(&mut f, &culled, shadow_map);
    let depth_normals = depth_normal::images(&mut f);
    let ao = ssao::blurred(&mut f);
    if f.shape.prepass {
        // Depth and normals first, tested EQUAL by the lit passes, which read the occlusion.
        let prepass = depth_normal::declare(&mut f, &culled, &depth_normals);
        if occlusion::declare(&mut f, &culled, &depth_normals) {
            depth_normal::declare_late(&mut f, &culled, &prepass);
        }
        impostors::declare_prepass(&mut f, &culled, &depth_normals);
        ssao::declare(&mut f, &depth_normals, ao);
        let forward = forward::declare(&mut f, &culled, &depth_normals, shadow_map, ao);
        let forward = forward.map(|(forward, _)| forward);
        impostors::declare_forward(&mut f, &culled, forward.as_ref());
    } else {
        // The lit passes draw depth and normals themselves; the occlusion is made from them
        // afterwards and added by the composite pass.
        let forward = forward::declare(&mut f, &culled, &depth_normals, shadow_map, ao);
        if let Some((fwd, pipelines)) = forward
            && occlusion::declare(&mut f, &culled, &depth_normals)
        {
            forward::declare_late(&mut f, &culled, &fwd, pipelines);
        }
        let forward = forward.map(|(forward, _)| forward);
        // Cards at their quad's own depth can be rejected before shading: for them a depth
        // prepass lets the lit pass shade each pixel once, where with the picture's depth
        // (written by the shader, tested after it) it would be one more pass of the same
        // work.
        let cards = if f.shape.card_plane_depth {
            impostors::declare_prepass(&mut f, &culled, &depth_normals);
            forward.map(Forward::after_own_prepass)
        } else {
            forward
        };
        impostors::declare_forward(&mut f, &culled, cards.as_ref());
        if let Some(light) = forward.and_then(|fwd| fwd.light_parts()) {
            ssao::declare(&mut f, &depth_normals, ao);
            composite::declare(&mut f, light, ao);
        }
    }
    debug_view::declare(&mut f, &depth_normals, shadow_map, ao);
    hud::declare(&mut f);
    cull::declare_stats(&mut f, &culled);
    readback::declare(&mut f);
    f.compile()
}

/// The clear value of a depth attachment: the far plane.
pub const FAR_DEPTH: vk::ClearValue = vk::ClearValue {
    depth_stencil: vk::ClearDepthStencilValue {
        depth: 1.0,
        stencil: 0,
    },
};
