//! The crowd's looks on the device: one storage buffer holding every look's tints
//! (`shaders/looks.glsl` reads it), uploaded when the crowd's looks change (at start-up, as a
//! rule). Before a crowd has added a look it holds the plain look alone.

use std::sync::Arc;

use ash::vk;

use crate::crowd::{Crowd, Look, MAX_LOOK_TINTS};
use crate::gpu::device::buffer::GpuBuffer;
use crate::gpu::device::context::GpuContext;
use crate::gpu::device::error::GpuError;
pub use crate::gpu::frame::gpu_layouts::GpuLook;

impl From<&Look> for GpuLook {
    fn from(look: &Look) -> Self {
        let mut tints = [[0.0; 4]; MAX_LOOK_TINTS];
        for (m, (out, [r, g, b])) in tints.iter_mut().zip(look.tints).enumerate() {
            *out = [r, g, b, if look.shows(m) { 1.0 } else { 0.0 }];
        }
        Self { tints }
    }
}

/// The looks' buffer; see the module documentation.
pub struct LooksTable {
    buffer: GpuBuffer,
    /// The crowd's looks generation and count the buffer holds (`None`: the plain look only).
    holds: Option<(u64, usize)>,
    /// Reused for every upload.
    scratch: Vec<GpuLook>,
}

impl LooksTable {
    /// A table holding the plain look.
    pub fn new(ctx: &Arc<GpuContext>) -> Result<Self, GpuError> {
        let plain = [GpuLook::from(&Look::PLAIN)];
        Ok(Self {
            buffer: upload(ctx, &plain)?,
            holds: None,
            scratch: Vec::new(),
        })
    }

    /// Whether `crowd`'s looks differ from the uploaded ones.
    pub fn is_stale(&self, crowd: &Crowd) -> bool {
        let now = (crowd.looks_generation(), crowd.looks().len());
        match self.holds {
            Some(held) => held != now,
            // The plain look alone, as a crowd that never changed its looks has it.
            None => now != (0, 1),
        }
    }

    /// Replaces the table with `crowd`'s looks (the caller waited for the frames that read
    /// the old one).
    pub fn upload(&mut self, ctx: &Arc<GpuContext>, crowd: &Crowd) -> Result<(), GpuError> {
        self.scratch.clear();
        self.scratch.extend(crowd.looks().iter().map(GpuLook::from));
        self.buffer = upload(ctx, &self.scratch)?;
        self.holds = Some((crowd.looks_generation(), crowd.looks().len()));
        Ok(())
    }

    /// The buffer the looks binding holds.
    pub fn buffer(&self) -> vk::Buffer {
        self.buffer.buffer
    }
}

fn upload(ctx: &Arc<GpuContext>, looks: &[GpuLook]) -> Result<GpuBuffer, GpuError> {
    GpuBuffer::with_data(
        ctx,
        "crowd looks",
        vk::BufferUsageFlags::STORAGE_BUFFER,
        bytemuck::cast_slice(looks),
    )
}
