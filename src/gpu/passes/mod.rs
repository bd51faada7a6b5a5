//! The frame's passes. Each pass is one file holding both halves of it: `declare`, which
//! tells the frame graph what it reads and writes, and `record`, which the compiled plan
//! calls with exactly those resources bound (a [`PassRecording`]). This file only lists the
//! passes in the order they run and compiles them; [`super::graph`] derives every barrier,
//! layout and load/store operation, and culls the passes nothing reads (switching shadows
//! off only changes what the forward pass declares).
//!
//! Adding a pass: a file here with its `declare` and `record`, a line in [`compile`], and its
//! pipeline in [`super::pipeline_set`]; its shader in `shaders/` is compiled and embedded by
//! file name with no line of Rust ([`super::shaders::named`]).

mod character_draws;
pub mod cull;
pub mod debug_view;
pub mod depth_normal;
pub mod forward;
pub mod occlusion;
pub mod palettes;
pub mod readback;
mod recording;
mod resources;
pub mod shadow;
pub mod ssao;
#[cfg(test)]
mod tests;

use ash::vk;

use super::device::error::GpuError;
use super::graph::{GraphBuilder, PassBuilder, Plan};
use super::uniforms::ViewMode;
pub use recording::{
    FrameBindings, FrameShared, PassRecording, RecordFn, RingBinding, declared_use,
};
pub use resources::{AO_FORMAT, AO_SCALE, DEPTH_FORMAT, FrameIds, NORMAL_FORMAT, sample_count};

/// Pass names, as they appear in labels, timings and `--stats-json` (each defined by its
/// pass's file).
pub mod pass {
    pub use super::cull::{CLEAR as CULL_CLEAR, CULL, DRAWS as CULL_DRAWS, STATS as CULL_STATS};
    pub use super::debug_view::NAME as DEBUG_VIEW;
    pub use super::depth_normal::{LATE as DEPTH_NORMAL_LATE, NAME as DEPTH_NORMAL};
    pub use super::forward::NAME as FORWARD;
    pub use super::occlusion::{
        CULL_LATE, DEPTH as OCCLUSION_DEPTH, DRAWS_LATE as CULL_DRAWS_LATE,
    };
    pub use super::palettes::NAME as PALETTES;
    pub use super::readback::NAME as READBACK;
    pub use super::shadow::NAME as SHADOW;
    pub use super::ssao::{BLUR as SSAO_BLUR, NAME as SSAO};
}

/// Which passes run and how.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RenderSettings {
    /// The sun casts shadows (`--no-shadows` turns it off).
    pub shadows: bool,
    /// Ambient occlusion darkens the ambient light (`--no-ssao`).
    pub ssao: bool,
    /// Depth and normals are drawn first and the forward pass shades each pixel once (equal
    /// depth test). Off, the forward pass tests and writes depth itself.
    pub prepass: bool,
    /// Shadow map side in texels (`--shadow-size`).
    pub shadow_size: u32,
    /// Instances are tested against each view and only those that may be seen are drawn
    /// (`--cull`).
    pub cull: bool,
    /// Instances draw a coarser mesh level where its error stays under a pixel (`--lod`).
    pub lod: bool,
    /// Scales the projected sizes at which coarser levels and baked animation take over
    /// (`--lod-bias`): 2 switches at twice the size (cheaper), 0.5 at half.
    pub lod_bias: f32,
    /// Small instances are drawn only where the large ones leave them visible (`--cull`
    /// covers it too; needs the depth prepass).
    pub occlusion: bool,
    /// Samples per pixel of the camera's passes (`--msaa`: 1, 2, 4 or 8): the prepass, the
    /// forward pass and their depth render multisampled and resolve into the single-sample
    /// images the ambient occlusion, the occlusion test and the target take. The renderer
    /// lowers it to what the device supports.
    pub msaa: u32,
}

impl Default for RenderSettings {
    fn default() -> Self {
        Self {
            shadows: true,
            ssao: true,
            prepass: true,
            shadow_size: 2048,
            cull: true,
            lod: true,
            lod_bias: 1.0,
            occlusion: true,
            msaa: DEFAULT_MSAA,
        }
    }
}

/// Samples per pixel unless asked otherwise: thin limbs in a crowd shimmer without
/// anti-aliasing.
pub const DEFAULT_MSAA: u32 = 4;

/// Samples per pixel on a software rasterizer (lavapipe) unless asked otherwise: there four
/// samples cost far more than four times one (a 1,280x720 frame of 64 characters took 60 s of
/// GPU time against 0.38 s), which would leave a first run without a GPU at a frame a minute.
pub const SOFTWARE_DEFAULT_MSAA: u32 = 1;

/// The samples per pixel a device of `kind` renders with unless asked otherwise.
pub fn default_msaa(kind: vk::PhysicalDeviceType) -> u32 {
    if kind == vk::PhysicalDeviceType::CPU {
        SOFTWARE_DEFAULT_MSAA
    } else {
        DEFAULT_MSAA
    }
}

/// What a frame's graph depends on besides the settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GraphKey {
    /// The view shown.
    pub view: ViewMode,
    /// Whether the frame is copied to the readback buffer.
    pub readback: bool,
    /// Whether the target is presented afterwards.
    pub present: bool,
}

/// What the frame's passes do, decided once from the view and settings before any pass is
/// declared; each pass declares itself (or nothing) from it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrameShape {
    /// The view shown.
    pub view: ViewMode,
    /// The forward pass draws the frame (final or silhouette view); otherwise a debug view
    /// shows an intermediate image.
    pub shows_frame: bool,
    /// The forward pass reads the shadow map.
    pub shadows: bool,
    /// The forward pass reads the ambient occlusion.
    pub ao: bool,
    /// The depth prepass runs and the forward pass tests against its depth (equal, no
    /// write).
    pub prepass: bool,
    /// Small instances wait for the occlusion test: the camera's passes draw the late list
    /// too.
    pub occlusion: bool,
    /// The shadow view's lists are filled (a pass draws the shadow map).
    pub shadow_lists: bool,
}

impl FrameShape {
    /// The shape of a frame showing `view` under `settings`.
    pub fn new(view: ViewMode, settings: &RenderSettings) -> Self {
        let silhouette = view == ViewMode::Silhouette;
        let shows_frame = view == ViewMode::Final || silhouette;
        // The silhouette view is plain white: no light, so nothing to shadow or occlude, and
        // no prepass to test occlusion against.
        let prepass = !shows_frame || ((settings.prepass || settings.ssao) && !silhouette);
        let shadows = shows_frame && settings.shadows && !silhouette;
        Self {
            view,
            shows_frame,
            shadows,
            ao: shows_frame && settings.ssao && !silhouette,
            prepass,
            occlusion: settings.occlusion && settings.cull && prepass,
            shadow_lists: shadows || view == ViewMode::Shadow,
        }
    }
}

/// A frame's graph being declared: the builder, the frame's resources, its shape, and each
/// pass's recording function by pass id.
pub struct FrameDeclaration {
    graph: GraphBuilder,
    /// The frame's resources.
    pub ids: FrameIds,
    /// What the passes do.
    pub shape: FrameShape,
    /// The settings it is declared under.
    pub settings: RenderSettings,
    /// Whether the target is read back.
    pub readback: bool,
    recorders: Vec<Option<RecordFn>>,
}

impl FrameDeclaration {
    /// Declares a pass recorded by `record`; the builder adds its uses.
    pub fn pass(&mut self, name: &'static str, record: RecordFn) -> PassBuilder<'_> {
        self.recorders.push(Some(record));
        self.graph.pass(name)
    }

    /// Declares a step the CPU does before submission (host writes): it records nothing.
    pub fn host_step(&mut self, name: &'static str) -> PassBuilder<'_> {
        self.recorders.push(None);
        self.graph.pass(name)
    }

    /// Marks `res` as read after the graph.
    pub fn mark_output(&mut self, res: super::graph::ResourceId) {
        self.graph.mark_output(res);
    }
}

/// A compiled frame graph: the plan, its resources, and each step's recording.
pub struct CompiledFrame {
    /// Barriers, steps, layouts, load and store operations.
    pub plan: Plan,
    /// What its ids stand for.
    pub ids: FrameIds,
    /// What the passes do.
    pub shape: FrameShape,
    /// Each declared pass's recording function, by pass id (`None`: a host step).
    recorders: Vec<Option<RecordFn>>,
}

impl CompiledFrame {
    /// The recording function of the pass `step` runs (`None` for a host step).
    pub fn recorder(&self, step: &super::graph::Step) -> Option<RecordFn> {
        self.recorders.get(step.pass.0 as usize).copied().flatten()
    }

    /// Whether the culling counters are copied for the statistics this frame.
    pub fn copies_stats(&self) -> bool {
        !self.plan.buffer_usage(self.ids.stats).is_empty()
    }
}

/// Declares and compiles the frame graph for `key` under `settings`, for a target of
/// `color_format`: the passes in the order they run; what the last pass reads decides which
/// ones are kept.
pub fn compile(
    key: GraphKey,
    settings: &RenderSettings,
    color_format: vk::Format,
) -> Result<CompiledFrame, GpuError> {
    let view = key.view;
    let mut graph = GraphBuilder::new();
    let ids = FrameIds::declare(&mut graph, key, settings, color_format);
    let mut f = FrameDeclaration {
        graph,
        ids,
        shape: FrameShape::new(view, settings),
        settings: *settings,
        readback: key.readback,
        recorders: Vec::new(),
    };
    palettes::declare(&mut f);
    cull::declare(&mut f);
    shadow::declare(&mut f);
    depth_normal::declare(&mut f);
    occlusion::declare(&mut f);
    depth_normal::declare_late(&mut f);
    ssao::declare(&mut f);
    forward::declare(&mut f);
    debug_view::declare(&mut f);
    cull::declare_stats(&mut f);
    readback::declare(&mut f);
    let plan = f
        .graph
        .compile()
        .map_err(|e| GpuError::Graph(e.to_string()))?;
    log::debug!("frame graph for {key:?}:\n{plan}");
    Ok(CompiledFrame {
        plan,
        ids: f.ids,
        shape: f.shape,
        recorders: f.recorders,
    })
}

/// A pass's uses that every skinned draw reads: the ring (records and palettes), the
/// visible lists and the indirect draws.
pub fn skinned_reads(p: &mut PassBuilder<'_>, ids: &FrameIds) {
    use super::graph::{Access, Stages};
    let vertex = Access::StorageRead(Stages::Vertex);
    p.read(ids.ring, vertex)
        .read(ids.lists, vertex)
        .read(ids.draw_counts, Access::IndirectRead)
        .read(ids.commands, Access::IndirectRead);
}

/// The clear value of a depth attachment: the far plane.
pub const FAR_DEPTH: vk::ClearValue = vk::ClearValue {
    depth_stencil: vk::ClearDepthStencilValue {
        depth: 1.0,
        stencil: 0,
    },
};
