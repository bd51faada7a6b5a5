//! The renderer's state in the parts a frame's steps use together: what frames are drawn into
//! ([`Target`]), the compiled graphs with what they need built ([`Graphs`]), the frames in
//! flight with the palette ring that names them ([`FramesInFlight`]), the crowd's models and
//! tables on the device ([`Assets`]), and what the GPU reports back ([`Readings`]). The
//! features that keep state across frames are a part of their own (`features.rs`).

use std::collections::HashMap;
use std::ops::Range;

use ash::vk;

use super::frame_slot::FrameSlot;
use crate::crowd::PaletteRing;
use crate::gpu::device::pipeline::{Culling, PipelineCache};
use crate::gpu::device::texture::BlockUpload;
use crate::gpu::frame::baked_table::BakedTable;
use crate::gpu::frame::culling::inputs::CullInputWriter;
use crate::gpu::frame::culling::stats::DrawStatsReader;
use crate::gpu::frame::looks_table::LooksTable;
use crate::gpu::frame::model_buffers::GpuModel;
use crate::gpu::frame::recording::compiled::CompiledFrame;
use crate::gpu::frame::resources::images::TransientImages;
use crate::gpu::frame::ring_memory::{DeviceRingAllocator, Timeline};
use crate::gpu::frame::settings::GraphKey;
use crate::gpu::frame::timings::GpuTimings;
use crate::gpu::graph::BarrierScratch;

/// How frames leave the renderer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Presentation {
    /// Into an image the caller reads back (headless).
    Offscreen,
    /// Into swapchain images that are presented afterwards.
    Swapchain,
}

/// What frames are drawn into.
pub(super) struct Target {
    pub extent: vk::Extent2D,
    pub color_format: vk::Format,
    pub presentation: Presentation,
}

/// The compiled graphs, one per key, with the pipelines they built and the transient images
/// they use; cleared when what they were compiled for changes.
pub(super) struct Graphs {
    pub compiled: HashMap<GraphKey, CompiledFrame>,
    /// Every pipeline the passes registered, built once per description.
    pub pipelines: PipelineCache,
    pub transients: TransientImages,
    /// Reused by every frame's recording of its barriers.
    pub scratch: BarrierScratch,
    /// Which faces of the characters are culled.
    pub culling: Culling,
}

/// The frames in flight: the palette ring (its slot index is the frame in flight), the
/// timeline that releases slots, and what each frame in flight owns.
pub(super) struct FramesInFlight {
    pub ring: PaletteRing<DeviceRingAllocator>,
    /// The ring generation the bindings were last told of.
    pub ring_generation: u64,
    pub timeline: Timeline,
    /// The timeline value the last frame submitted signals.
    pub last_value: u64,
    /// Per ring slot: what its frame in flight owns.
    pub slots: Vec<FrameSlot>,
    /// Frames submitted so far.
    pub frame_number: u64,
    /// The ring slot of the last frame submitted.
    pub last_slot: usize,
    /// Packs each frame's culling inputs (its scratch reused).
    pub cull_writer: CullInputWriter,
}

/// The crowd's models and tables on the device.
pub(super) struct Assets {
    pub models: Vec<GpuModel>,
    /// Per model, its range of instance records this frame.
    pub ranges: Vec<Range<usize>>,
    /// How block-compressed textures are uploaded (`Renderer::set_block_upload`).
    pub block_upload: BlockUpload,
    pub baked: BakedTable,
    /// The crowd's looks (tints), uploaded when they change.
    pub looks: LooksTable,
}

/// What the GPU reports back a frame late: pass timestamps and draw counts.
#[derive(Default)]
pub(super) struct Readings {
    pub timings: GpuTimings,
    pub stats: DrawStatsReader,
}
