//! The buffers of one frame in flight's culling: the inputs the CPU writes (views, models,
//! bounds, draw ranges), the counters, lists and indirect draws the GPU fills, and a
//! host-readable copy of the counters for statistics, read a frame late without stalling.
//!
//! One set per frame in flight, so a frame's culling never waits for an earlier frame's
//! draws to finish reading: the timeline wait before a frame in flight is reused covers them.

use std::ops::Range;
use std::sync::Arc;

use ash::vk;
use gpu_allocator::MemoryLocation;

use super::cull_data::{CullBound, CullFrame, CullModel, DrawCommand, VIEWS};
use super::device::buffer::GpuBuffer;
use super::device::context::GpuContext;
use super::device::error::GpuError;
use crate::crowd::visibility::LOD_LEVELS;

/// Offsets of descriptor ranges in a buffer: 256 is the largest
/// `minStorageBufferOffsetAlignment` Vulkan allows.
const RANGE_ALIGN: usize = 256;

/// What the buffers must hold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CullSizes {
    /// Instance records.
    pub instances: usize,
    /// Models.
    pub models: usize,
    /// Most subsets of one model.
    pub subsets: usize,
    /// Bounds of every model.
    pub bounds: usize,
}

impl CullSizes {
    /// Whether buffers made for `self` hold `other`.
    fn holds(&self, other: &CullSizes) -> bool {
        self.instances >= other.instances
            && self.models >= other.models
            && self.subsets >= other.subsets
            && self.bounds >= other.bounds
    }

    /// Room for `want` with some to spare, so a crowd that grows a little at a time does not
    /// recreate the buffers every frame.
    fn grown(&self, want: &CullSizes) -> CullSizes {
        let grow = |have: usize, want: usize| {
            if want <= have {
                have
            } else {
                want.max(have + have / 2)
            }
        };
        CullSizes {
            instances: grow(self.instances, want.instances),
            models: grow(self.models, want.models),
            subsets: grow(self.subsets, want.subsets),
            bounds: grow(self.bounds, want.bounds),
        }
    }

    /// Counters: `[view][model][level]`, then the instances waiting for the occlusion test.
    pub fn counters(&self) -> usize {
        VIEWS * self.models * LOD_LEVELS + 1
    }

    /// Indirect draws: one per `[view][model][subset]`, each with up to a command per level.
    pub fn draws(&self) -> usize {
        VIEWS * self.models * self.subsets
    }
}

/// Where each block sits in the inputs buffer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InputsLayout {
    /// The `CullFrame` block.
    pub frame: Range<usize>,
    /// `CullModel`s.
    pub models: Range<usize>,
    /// `Bound`s.
    pub bounds: Range<usize>,
    /// Draw ranges, `[model][subset][level]`.
    pub draw_ranges: Range<usize>,
}

impl InputsLayout {
    fn new(sizes: &CullSizes) -> Self {
        let mut at = 0;
        let mut take = |bytes: usize| {
            let start = at;
            at = (start + bytes.max(16)).next_multiple_of(RANGE_ALIGN);
            start..start + bytes.max(16)
        };
        Self {
            frame: take(size_of::<CullFrame>()),
            models: take(sizes.models * size_of::<CullModel>()),
            bounds: take(sizes.bounds * size_of::<CullBound>()),
            draw_ranges: take(sizes.models * sizes.subsets * LOD_LEVELS * 8),
        }
    }

    fn bytes(&self) -> usize {
        self.draw_ranges.end
    }
}

/// One frame in flight's culling buffers; see the module documentation.
pub struct CullBuffers {
    /// What they hold.
    pub sizes: CullSizes,
    /// Where the inputs' blocks are.
    pub layout: InputsLayout,
    /// Written by the CPU before submission (host-visible).
    pub inputs: GpuBuffer,
    /// Instances per view, model and level.
    pub counters: GpuBuffer,
    /// Record indices per view and level.
    pub lists: GpuBuffer,
    /// Commands per indirect draw.
    pub draw_counts: GpuBuffer,
    /// The indirect commands.
    pub commands: GpuBuffer,
    /// The instances waiting for the occlusion test.
    pub candidates: GpuBuffer,
    /// The counters copied for the CPU.
    pub stats: GpuBuffer,
    /// Whether `stats` holds counts the CPU has not read yet.
    pub stats_pending: bool,
}

impl CullBuffers {
    /// Buffers for frame in flight `index` holding `sizes`.
    pub fn new(ctx: &Arc<GpuContext>, index: usize, sizes: CullSizes) -> Result<Self, GpuError> {
        let layout = InputsLayout::new(&sizes);
        let storage = vk::BufferUsageFlags::STORAGE_BUFFER;
        let indirect = storage | vk::BufferUsageFlags::INDIRECT_BUFFER;
        let limit = u64::from(ctx.physical.limits.max_storage_buffer_range);
        let make = |what: &str, bytes: usize, usage, location| {
            let bytes = bytes.max(16) as u64;
            if usage & storage == storage && bytes > limit {
                return Err(GpuError::Other(format!(
                    "the culling {what} of {} instances need {:.1} MB, more than the {:.1} MB \
                     this device can bind as one storage buffer",
                    sizes.instances,
                    bytes as f64 / 1e6,
                    limit as f64 / 1e6
                )));
            }
            GpuBuffer::new(
                ctx,
                &format!("frame {index} {what}"),
                bytes,
                usage,
                location,
                RANGE_ALIGN as u64,
            )
        };
        Ok(Self {
            inputs: make(
                "culling inputs",
                layout.bytes(),
                storage,
                MemoryLocation::CpuToGpu,
            )?,
            counters: make(
                "culling counters",
                sizes.counters() * 4,
                storage | vk::BufferUsageFlags::TRANSFER_DST | vk::BufferUsageFlags::TRANSFER_SRC,
                MemoryLocation::GpuOnly,
            )?,
            lists: make(
                "visible lists",
                VIEWS * LOD_LEVELS * sizes.instances * 4,
                storage,
                MemoryLocation::GpuOnly,
            )?,
            draw_counts: make(
                "draw counts",
                sizes.draws() * 4,
                indirect,
                MemoryLocation::GpuOnly,
            )?,
            commands: make(
                "draw commands",
                sizes.draws() * LOD_LEVELS * size_of::<DrawCommand>(),
                indirect,
                MemoryLocation::GpuOnly,
            )?,
            candidates: make(
                "occlusion candidates",
                sizes.instances * 4,
                storage,
                MemoryLocation::GpuOnly,
            )?,
            stats: make(
                "draw statistics",
                sizes.counters() * 4,
                vk::BufferUsageFlags::TRANSFER_DST,
                MemoryLocation::GpuToCpu,
            )?,
            layout,
            sizes,
            stats_pending: false,
        })
    }

    /// Makes sure the buffers hold `want`, recreating them (bigger) if not. The caller has
    /// waited for the frame that last used them.
    pub fn ensure<'a>(
        this: &'a mut Option<Self>,
        ctx: &Arc<GpuContext>,
        index: usize,
        want: CullSizes,
    ) -> Result<&'a mut Self, GpuError> {
        let sizes = match this.as_ref() {
            Some(b) if b.sizes.holds(&want) => None,
            Some(b) => Some(b.sizes.grown(&want)),
            None => Some(want),
        };
        if let Some(sizes) = sizes {
            // Drop the old ones first: at the largest crowds two sets may not fit together.
            *this = None;
            *this = Some(Self::new(ctx, index, sizes)?);
        }
        this.as_mut()
            .ok_or_else(|| GpuError::Other("the culling buffers were not made".into()))
    }
}
