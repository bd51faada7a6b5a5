//! The buffers passes declare (the culling pass's counters, lists and indirect draws, the
//! occlusion test's candidates, the statistics copy), one set per frame in flight, keyed by
//! their descriptions ([`BufferDesc`]) and sized from the frame's counts ([`CullSizes`]):
//! made when a graph first asks for them, made again (larger, with room to grow) when the
//! crowd outgrows them. A frame in flight's set is free when that frame is, so a frame's
//! passes never wait for an earlier frame's draws to finish reading.

use std::collections::HashMap;
use std::sync::Arc;

use ash::vk;
use gpu_allocator::MemoryLocation;

use crate::gpu::device::buffer::{GpuBuffer, MAX_OFFSET_ALIGNMENT};
use crate::gpu::device::context::GpuContext;
use crate::gpu::device::error::GpuError;
use crate::gpu::frame::culling::sizes::CullSizes;

/// A buffer's size in bytes as a sum over the frame's counts: `fixed + per_instance *
/// instances + per_draw * draws + per_counter * counters + per_card_draw * card draws +
/// per_pixel * pixels + per_skin_vec4 * skin vec4s` ([`CullSizes`]), at most `most`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BufferSize {
    /// Bytes whatever the counts.
    pub fixed: u64,
    /// Bytes per instance record.
    pub per_instance: u64,
    /// Bytes per indirect draw ([`CullSizes::draws`]).
    pub per_draw: u64,
    /// Bytes per culling counter ([`CullSizes::counters`]).
    pub per_counter: u64,
    /// Bytes per impostor card draw ([`CullSizes::card_draws`]).
    pub per_card_draw: u64,
    /// Bytes per pixel of the frame.
    pub per_pixel: u64,
    /// Bytes per vec4 the skin pass could fill ([`CullSizes::skin_vec4s`]).
    pub per_skin_vec4: u64,
    /// Bytes at most, whatever the counts (0: no bound).
    pub most: u64,
}

impl BufferSize {
    /// No bytes for anything: what a description starts from (`..BufferSize::ZERO`).
    pub const ZERO: Self = Self {
        fixed: 0,
        per_instance: 0,
        per_draw: 0,
        per_counter: 0,
        per_card_draw: 0,
        per_pixel: 0,
        per_skin_vec4: 0,
        most: 0,
    };

    /// The bytes for `sizes` (at most [`Self::most`] where set; at least 16: a buffer is
    /// never empty).
    pub fn bytes(&self, sizes: &CullSizes) -> u64 {
        let n = |v: usize| v as u64;
        let sum = self.fixed
            + self.per_instance * n(sizes.instances)
            + self.per_draw * n(sizes.draws())
            + self.per_counter * n(sizes.counters())
            + self.per_card_draw * n(sizes.card_draws())
            + self.per_pixel * n(sizes.pixels)
            + self.per_skin_vec4 * n(sizes.skin_vec4s);
        match self.most {
            0 => sum,
            most => sum.min(most),
        }
        .max(16)
    }
}

/// A buffer a pass declares: its name (the debug name is "frame N" and it), its size, how
/// it is used, and whether the CPU reads it after the frame (host-visible memory then).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BufferDesc {
    /// Name in the graph, logs and debug labels.
    pub name: &'static str,
    /// Its size.
    pub size: BufferSize,
    /// Its usage.
    pub usage: vk::BufferUsageFlags,
    /// Whether the CPU reads it once the frame is done.
    pub host_read: bool,
}

/// One frame in flight's buffers; see the module documentation.
pub struct PassBuffers {
    ctx: Arc<GpuContext>,
    /// Which frame in flight (for debug names).
    index: usize,
    /// The counts the buffers were made for.
    sizes: CullSizes,
    buffers: HashMap<BufferDesc, GpuBuffer>,
}

impl PassBuffers {
    /// None yet, for frame in flight `index`.
    pub fn new(ctx: &Arc<GpuContext>, index: usize) -> Self {
        Self {
            ctx: ctx.clone(),
            index,
            sizes: CullSizes::default(),
            buffers: HashMap::new(),
        }
    }

    /// The counts the buffers hold.
    pub fn sizes(&self) -> CullSizes {
        self.sizes
    }

    /// Makes sure every buffer of `descs` exists and holds `want`. Buffers too small are all
    /// made again with room to grow; the caller has waited for the frame that last used
    /// them.
    pub fn ensure<'d>(
        &mut self,
        descs: impl IntoIterator<Item = &'d BufferDesc>,
        want: CullSizes,
    ) -> Result<(), GpuError> {
        if !self.sizes.holds(&want) {
            // Drop the old ones first: at the largest crowds two sets may not fit together.
            self.buffers.clear();
            self.sizes = if self.sizes == CullSizes::default() {
                want
            } else {
                self.sizes.grown(&want)
            };
        }
        for desc in descs {
            if !self.buffers.contains_key(desc) {
                let buffer = self.make(desc)?;
                self.buffers.insert(*desc, buffer);
            }
        }
        Ok(())
    }

    /// The buffer made for `desc`, if one was.
    pub fn get(&self, desc: &BufferDesc) -> Option<&GpuBuffer> {
        self.buffers.get(desc)
    }

    fn make(&self, desc: &BufferDesc) -> Result<GpuBuffer, GpuError> {
        let bytes = desc.size.bytes(&self.sizes);
        let limit = u64::from(self.ctx.physical.limits.max_storage_buffer_range);
        if desc.usage.contains(vk::BufferUsageFlags::STORAGE_BUFFER) && bytes > limit {
            return Err(GpuError::Other(format!(
                "the {} of {} instances need {:.1} MB, more than the {:.1} MB this device can \
                 bind as one storage buffer",
                desc.name,
                self.sizes.instances,
                bytes as f64 / 1e6,
                limit as f64 / 1e6
            )));
        }
        let location = if desc.host_read {
            MemoryLocation::GpuToCpu
        } else {
            MemoryLocation::GpuOnly
        };
        GpuBuffer::new(
            &self.ctx,
            &format!("frame {} {}", self.index, desc.name),
            bytes,
            desc.usage,
            location,
            MAX_OFFSET_ALIGNMENT,
        )
    }
}
