//! `GpuBuffer`: a Vulkan buffer with its gpu-allocator memory, freed on drop. Host-visible
//! buffers stay persistently mapped.

use std::ptr::NonNull;
use std::sync::Arc;

use ash::vk;
use gpu_allocator::MemoryLocation;
use gpu_allocator::vulkan::{Allocation, AllocationCreateDesc, AllocationScheme};

use super::context::GpuContext;
use super::error::{GpuError, VkContext};

/// The largest `minStorageBufferOffsetAlignment` Vulkan allows: ranges bound at multiples
/// of it are aligned on every device.
pub const MAX_OFFSET_ALIGNMENT: u64 = 256;

/// A buffer and its memory; see the module documentation.
pub struct GpuBuffer {
    ctx: Arc<GpuContext>,
    /// The buffer handle.
    pub buffer: vk::Buffer,
    allocation: Option<Allocation>,
    /// Size in bytes.
    pub size: vk::DeviceSize,
    mapped: Option<NonNull<u8>>,
}

// SAFETY: the mapped pointer is only an address into memory this buffer owns; writers go
// through `&self` methods whose callers order their writes against the device (fences).
unsafe impl Send for GpuBuffer {}
// SAFETY: as above.
unsafe impl Sync for GpuBuffer {}

impl GpuBuffer {
    /// A buffer of `size` bytes for `usage`, in memory at `location` (`CpuToGpu` is mapped,
    /// device-local where the device offers host-visible device-local memory).
    pub fn new(
        ctx: &Arc<GpuContext>,
        name: &str,
        size: vk::DeviceSize,
        usage: vk::BufferUsageFlags,
        location: MemoryLocation,
        align: vk::DeviceSize,
    ) -> Result<Self, GpuError> {
        let device = &ctx.device;
        let info = vk::BufferCreateInfo::default()
            .size(size.max(4))
            .usage(usage)
            .sharing_mode(vk::SharingMode::EXCLUSIVE);
        // SAFETY: valid device and create info.
        let buffer = unsafe { device.create_buffer(&info, None) }
            .context(format!("creating buffer {name} ({size} bytes)"))?;
        ctx.name(buffer, name);
        // SAFETY: `buffer` was just created on this device.
        let mut requirements = unsafe { device.get_buffer_memory_requirements(buffer) };
        requirements.alignment = requirements.alignment.max(align);
        let allocation = if super::fault::allocation_fails(name) {
            Err(gpu_allocator::AllocationError::OutOfMemory)
        } else {
            ctx.allocator().allocate(&AllocationCreateDesc {
                name,
                requirements,
                location,
                linear: true,
                allocation_scheme: AllocationScheme::GpuAllocatorManaged,
            })
        };
        let allocation = match allocation {
            Ok(a) => a,
            Err(source) => {
                // SAFETY: the buffer is unused.
                unsafe { device.destroy_buffer(buffer, None) };
                return Err(GpuError::Allocation {
                    what: format!("buffer {name} ({size} bytes)"),
                    source,
                });
            }
        };
        let mapped = allocation.mapped_ptr().map(|p| p.cast::<u8>());
        let this = Self {
            ctx: ctx.clone(),
            buffer,
            allocation: Some(allocation),
            size,
            mapped,
        };
        let alloc = this
            .allocation
            .as_ref()
            .ok_or_else(|| GpuError::Other("lost allocation".into()))?;
        // SAFETY: the memory and offset come from an allocation meeting the requirements.
        unsafe { device.bind_buffer_memory(buffer, alloc.memory(), alloc.offset()) }
            .context(format!("binding memory to buffer {name}"))?;
        Ok(this)
    }

    /// A device-local buffer holding `bytes`, uploaded through a temporary staging buffer
    /// (meshes at load time; palettes never take this path).
    pub fn with_data(
        ctx: &Arc<GpuContext>,
        name: &str,
        usage: vk::BufferUsageFlags,
        bytes: &[u8],
    ) -> Result<Self, GpuError> {
        if bytes.is_empty() {
            return Err(GpuError::Other(format!("buffer {name}: nothing to upload")));
        }
        let size = bytes.len() as vk::DeviceSize;
        let staging = Self::new(
            ctx,
            &format!("{name} (staging)"),
            size,
            vk::BufferUsageFlags::TRANSFER_SRC,
            MemoryLocation::CpuToGpu,
            1,
        )?;
        staging.write(0, bytes)?;
        let buffer = Self::new(
            ctx,
            name,
            size,
            usage | vk::BufferUsageFlags::TRANSFER_DST,
            MemoryLocation::GpuOnly,
            1,
        )?;
        ctx.run_once(&format!("upload {name}"), |cmd| {
            let region = vk::BufferCopy::default().size(size);
            // SAFETY: both buffers are live and large enough; the submission is waited on.
            unsafe {
                ctx.device
                    .cmd_copy_buffer(cmd, staging.buffer, buffer.buffer, &[region])
            };
        })?;
        Ok(buffer)
    }

    /// A device-local buffer of `bytes` named `name`, for `usage` (and copies), starting with
    /// this buffer's first `kept` bytes, copied on the device: a table that outgrew its room.
    /// The caller let the device go idle (nothing may still write this buffer); the copy is
    /// made visible to every later command.
    pub fn grown(
        &self,
        name: &str,
        usage: vk::BufferUsageFlags,
        kept: vk::DeviceSize,
        bytes: vk::DeviceSize,
    ) -> Result<Self, GpuError> {
        let ctx = &self.ctx;
        let usage = usage | vk::BufferUsageFlags::TRANSFER_SRC | vk::BufferUsageFlags::TRANSFER_DST;
        let buffer = Self::new(ctx, name, bytes, usage, MemoryLocation::GpuOnly, 16)?;
        ctx.run_once(&format!("growing {name}"), |cmd| {
            let before = [vk::MemoryBarrier2::default()
                .src_stage_mask(vk::PipelineStageFlags2::ALL_COMMANDS)
                .src_access_mask(vk::AccessFlags2::MEMORY_WRITE)
                .dst_stage_mask(vk::PipelineStageFlags2::COPY)
                .dst_access_mask(vk::AccessFlags2::TRANSFER_READ)];
            let after = [vk::MemoryBarrier2::default()
                .src_stage_mask(vk::PipelineStageFlags2::COPY)
                .src_access_mask(vk::AccessFlags2::TRANSFER_WRITE)
                .dst_stage_mask(vk::PipelineStageFlags2::ALL_COMMANDS)
                .dst_access_mask(vk::AccessFlags2::MEMORY_READ | vk::AccessFlags2::MEMORY_WRITE)];
            let region = vk::BufferCopy::default().size(kept.min(self.size).min(bytes));
            // SAFETY: a one-off command buffer waited on; both buffers are live and hold the
            // region.
            unsafe {
                ctx.cmd_pipeline_barrier2(
                    cmd,
                    &vk::DependencyInfo::default().memory_barriers(&before),
                );
                ctx.device
                    .cmd_copy_buffer(cmd, self.buffer, buffer.buffer, &[region]);
                ctx.cmd_pipeline_barrier2(
                    cmd,
                    &vk::DependencyInfo::default().memory_barriers(&after),
                );
            }
        })?;
        Ok(buffer)
    }

    /// The mapped memory, when host-visible.
    pub fn mapped_ptr(&self) -> Option<*mut u8> {
        self.mapped.map(NonNull::as_ptr)
    }

    /// Copies `bytes` into the mapped memory at `offset` (write only: mapped memory may be
    /// write-combined, where reads crawl).
    pub fn write(&self, offset: usize, bytes: &[u8]) -> Result<(), GpuError> {
        let ptr = self
            .mapped
            .ok_or_else(|| GpuError::Other("writing a buffer that is not host-visible".into()))?;
        offset
            .checked_add(bytes.len())
            .filter(|&e| e as u64 <= self.size)
            .ok_or_else(|| {
                GpuError::Other(format!(
                    "writing {} bytes at {offset} into a {}-byte buffer",
                    bytes.len(),
                    self.size
                ))
            })?;
        // SAFETY: the range is inside the mapped allocation (checked), and the caller orders
        // the write against device reads.
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), ptr.as_ptr().add(offset), bytes.len())
        };
        Ok(())
    }

    /// Reads the mapped memory (for readback buffers in host-cached memory only).
    pub fn read(&self, offset: usize, out: &mut [u8]) -> Result<(), GpuError> {
        let ptr = self
            .mapped
            .ok_or_else(|| GpuError::Other("reading a buffer that is not host-visible".into()))?;
        if offset.saturating_add(out.len()) as u64 > self.size {
            return Err(GpuError::Other(format!(
                "reading {} bytes at {offset} from a {}-byte buffer",
                out.len(),
                self.size
            )));
        }
        // SAFETY: the range is inside the mapped allocation; the caller waited for the
        // device's writes.
        unsafe {
            std::ptr::copy_nonoverlapping(ptr.as_ptr().add(offset), out.as_mut_ptr(), out.len())
        };
        Ok(())
    }
}

/// All of `buffer` as a storage or uniform descriptor (buffers the frame graph does not
/// track: the frame uniforms, the baked frames, the crowd state's tables, an atlas's).
pub fn whole_buffer(buffer: vk::Buffer) -> [vk::DescriptorBufferInfo; 1] {
    [vk::DescriptorBufferInfo {
        buffer,
        offset: 0,
        range: vk::WHOLE_SIZE,
    }]
}

impl Drop for GpuBuffer {
    fn drop(&mut self) {
        // SAFETY: the owner guarantees the device no longer uses the buffer (frames are
        // waited for before their resources go).
        unsafe { self.ctx.device.destroy_buffer(self.buffer, None) };
        if let Some(a) = self.allocation.take()
            && let Err(e) = self.ctx.allocator().free(a)
        {
            log::warn!("freeing buffer memory: {e}");
        }
    }
}

/// Copies `out.len()` bytes of `buffer` from `offset` to the host, waiting for the copy (the
/// caller waited for the device's writes).
pub fn read_buffer(
    ctx: &Arc<GpuContext>,
    what: &str,
    buffer: vk::Buffer,
    offset: u64,
    out: &mut [u8],
) -> Result<(), GpuError> {
    if out.is_empty() {
        return Ok(());
    }
    let size = out.len() as u64;
    let host = GpuBuffer::new(
        ctx,
        what,
        size,
        vk::BufferUsageFlags::TRANSFER_DST,
        MemoryLocation::GpuToCpu,
        16,
    )?;
    ctx.run_once(what, |cmd| {
        let region = vk::BufferCopy::default().src_offset(offset).size(size);
        let to_host = [vk::BufferMemoryBarrier2::default()
            .src_stage_mask(vk::PipelineStageFlags2::COPY)
            .src_access_mask(vk::AccessFlags2::TRANSFER_WRITE)
            .dst_stage_mask(vk::PipelineStageFlags2::HOST)
            .dst_access_mask(vk::AccessFlags2::HOST_READ)
            .buffer(host.buffer)
            .offset(0)
            .size(vk::WHOLE_SIZE)];
        // SAFETY: a one-off command buffer; both buffers outlive the wait run_once does and
        // are large enough for the region.
        unsafe {
            ctx.device
                .cmd_copy_buffer(cmd, buffer, host.buffer, &[region]);
            ctx.cmd_pipeline_barrier2(
                cmd,
                &vk::DependencyInfo::default().buffer_memory_barriers(&to_host),
            );
        }
    })?;
    host.read(0, out)
}
