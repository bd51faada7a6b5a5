//! The crowd's baked animation frames on the device: one storage buffer holding every baked
//! clip's palettes, uploaded when the crowd bakes (at start-up), and a one-matrix
//! placeholder the binding holds when nothing is baked.

use std::sync::Arc;

use ash::vk;

use crate::anim::Mat3x4;
use crate::crowd::Crowd;
use crate::gpu::device::buffer::GpuBuffer;
use crate::gpu::device::context::GpuContext;
use crate::gpu::device::error::GpuError;

/// The baked frames' buffer; see the module documentation.
pub struct BakedTable {
    /// The uploaded table and the crowd's bake generation it holds.
    current: Option<(GpuBuffer, u64)>,
    placeholder: GpuBuffer,
}

impl BakedTable {
    /// An empty table.
    pub fn new(ctx: &Arc<GpuContext>) -> Result<Self, GpuError> {
        Ok(Self {
            current: None,
            placeholder: GpuBuffer::new(
                ctx,
                "no baked frames",
                size_of::<Mat3x4>() as u64,
                vk::BufferUsageFlags::STORAGE_BUFFER,
                gpu_allocator::MemoryLocation::GpuOnly,
                16,
            )?,
        })
    }

    /// Whether `crowd`'s baked frames differ from the uploaded ones.
    pub fn is_stale(&self, crowd: &Crowd) -> bool {
        let generation = crowd.baked_generation();
        !(self.current.as_ref().is_some_and(|b| b.1 == generation)
            || (self.current.is_none() && crowd.baked().matrices() == 0))
    }

    /// Replaces the table with `crowd`'s (the caller waited for frames that read the old).
    pub fn upload(&mut self, ctx: &Arc<GpuContext>, crowd: &Crowd) -> Result<(), GpuError> {
        self.current = None;
        let library = crowd.baked();
        if library.matrices() == 0 {
            return Ok(());
        }
        let mut table = vec![Mat3x4::IDENTITY; library.matrices()];
        for entry in library.entries() {
            let at = entry.base as usize;
            let frames = entry.clip.palettes();
            table
                .get_mut(at..at + frames.len())
                .ok_or_else(|| GpuError::Other("a baked clip lies outside its table".into()))?
                .copy_from_slice(frames);
        }
        let buffer = GpuBuffer::with_data(
            ctx,
            "baked frames",
            vk::BufferUsageFlags::STORAGE_BUFFER,
            bytemuck::cast_slice(&table),
        )?;
        self.current = Some((buffer, crowd.baked_generation()));
        Ok(())
    }

    /// The buffer the baked-frames binding holds.
    pub fn buffer(&self) -> vk::Buffer {
        self.current
            .as_ref()
            .map_or(self.placeholder.buffer, |b| b.0.buffer)
    }
}
