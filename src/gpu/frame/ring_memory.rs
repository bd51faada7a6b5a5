//! The palette ring's GPU side: [`DeviceRingAllocator`] gives the crowd persistently mapped
//! storage buffers to write palettes and instance records into (device-local and host-visible
//! where the device offers it, host-visible otherwise), and [`Timeline`] is the
//! [`ReleaseWait`] that tells the ring when the GPU has finished reading a slot.
//!
//! The GPU reads exactly what the crowd's workers wrote, where they wrote it: no staging
//! copy. Nothing here reads the mapped memory back (on real GPUs it is write-combined).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use ash::vk;
use gpu_allocator::MemoryLocation;

use crate::crowd::{
    MappedRegion, REGION_ALIGN, RegionAllocator, ReleaseWait, RingError, RingLimits,
};
use crate::gpu::device::buffer::GpuBuffer;
use crate::gpu::device::context::GpuContext;
use crate::gpu::device::error::{GpuError, VkContext};

/// Allocates ring regions as mapped storage buffers.
pub struct DeviceRingAllocator {
    ctx: Arc<GpuContext>,
    made: u32,
}

impl DeviceRingAllocator {
    /// An allocator on `ctx`'s device.
    pub fn new(ctx: &Arc<GpuContext>) -> Self {
        Self {
            ctx: ctx.clone(),
            made: 0,
        }
    }
}

/// One region: a mapped storage buffer.
pub struct DeviceRegion {
    buffer: GpuBuffer,
    ptr: *mut u8,
}

// SAFETY: the pointer addresses memory owned by `buffer`; see MappedRegion's contract.
unsafe impl Send for DeviceRegion {}
// SAFETY: as above.
unsafe impl Sync for DeviceRegion {}

impl DeviceRegion {
    /// The storage buffer to bind (at the slot's offset).
    pub fn buffer(&self) -> vk::Buffer {
        self.buffer.buffer
    }
}

// SAFETY: `ptr` is the persistent mapping of `buffer`, `len` bytes long, zeroed at creation,
// aligned to REGION_ALIGN (checked in `allocate`), and lives as long as the region.
unsafe impl MappedRegion for DeviceRegion {
    fn as_mut_ptr(&self) -> *mut u8 {
        self.ptr
    }

    fn len(&self) -> usize {
        self.buffer.size as usize
    }
}

impl RegionAllocator for DeviceRingAllocator {
    type Region = DeviceRegion;

    /// A slot's records and palettes are each bound as one storage buffer range; the region
    /// is one allocation of host-visible memory.
    fn limits(&self) -> RingLimits {
        let physical = &self.ctx.physical;
        let heap = physical.host_visible_heap;
        // A driver that reports no allocation limit has none below its heap.
        let max_allocation = match physical.max_allocation {
            0 => u64::MAX,
            m => m,
        };
        let (region, region_what) = if max_allocation < heap {
            (
                max_allocation,
                "largest allocation (maxMemoryAllocationSize)",
            )
        } else {
            (heap, "host-visible memory heap")
        };
        let clamp = |bytes: u64| usize::try_from(bytes).unwrap_or(usize::MAX);
        RingLimits {
            region: clamp(region),
            region_what,
            range: clamp(u64::from(physical.limits.max_storage_buffer_range)),
            range_what: "storage buffer range (maxStorageBufferRange)",
        }
    }

    fn allocate(&mut self, bytes: usize) -> Result<DeviceRegion, RingError> {
        let buffer = GpuBuffer::new(
            &self.ctx,
            &format!("palette ring {}", self.made),
            bytes as u64,
            // A copy source too: tests and diagnostics read a frame's records back.
            vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::TRANSFER_SRC,
            MemoryLocation::CpuToGpu,
            REGION_ALIGN as u64,
        )
        .map_err(|e| RingError::Allocation(Box::new(e)))?;
        let ptr = buffer.mapped_ptr().ok_or_else(|| {
            RingError::Allocation("the palette ring's memory is not host-visible".into())
        })?;
        if !(ptr as usize).is_multiple_of(REGION_ALIGN) {
            return Err(RingError::Allocation(
                format!(
                    "the palette ring's mapping at {ptr:p} is not aligned to {REGION_ALIGN} bytes"
                )
                .into(),
            ));
        }
        // The slices the ring hands out must start out initialized; write-only, so it is
        // cheap on write-combined memory too.
        // SAFETY: the mapping is `bytes` long and not yet used by the device.
        unsafe { std::ptr::write_bytes(ptr, 0, bytes) };
        self.made += 1;
        log::debug!("palette ring region of {bytes} bytes");
        Ok(DeviceRegion { buffer, ptr })
    }
}

/// A timeline semaphore: each frame's submission signals the next value.
pub struct Timeline {
    ctx: Arc<GpuContext>,
    /// The semaphore.
    pub semaphore: vk::Semaphore,
    /// Nanoseconds spent blocked in [`Timeline::wait`] since [`Timeline::take_waited_ms`]
    /// last read them: a frame's CPU figures leave them out (waiting is not work).
    waited_ns: AtomicU64,
}

/// How long one wait for a frame lasts before the wait says how long it has been and goes on.
/// A slow frame is not an error (a software device draws a large crowd in minutes): the
/// wait has no deadline, and a lost device ends it with its own error.
const WAIT_STEP: Duration = Duration::from_secs(10);

impl Timeline {
    /// A timeline starting at 0.
    pub fn new(ctx: &Arc<GpuContext>, name: &str) -> Result<Self, GpuError> {
        let mut kind = vk::SemaphoreTypeCreateInfo::default()
            .semaphore_type(vk::SemaphoreType::TIMELINE)
            .initial_value(0);
        let info = vk::SemaphoreCreateInfo::default().push_next(&mut kind);
        // SAFETY: valid device and create info.
        let semaphore = unsafe { ctx.device.create_semaphore(&info, None) }
            .context("creating a timeline semaphore")?;
        ctx.name(semaphore, name);
        Ok(Self {
            ctx: ctx.clone(),
            semaphore,
            waited_ns: AtomicU64::new(0),
        })
    }

    /// Blocks until the timeline reaches `value`, however long the GPU takes (saying so in
    /// the log every ten seconds).
    pub fn wait(&self, value: u64) -> Result<(), GpuError> {
        let semaphores = [self.semaphore];
        let values = [value];
        let info = vk::SemaphoreWaitInfo::default()
            .semaphores(&semaphores)
            .values(&values);
        let start = std::time::Instant::now();
        let _count = WaitTime {
            start,
            total: &self.waited_ns,
        };
        loop {
            // SAFETY: a live timeline semaphore of this device.
            let result = unsafe {
                self.ctx
                    .device
                    .wait_semaphores(&info, WAIT_STEP.as_nanos() as u64)
            };
            match result {
                Ok(()) => return Ok(()),
                Err(vk::Result::TIMEOUT) => log::warn!(
                    "the GPU is still drawing frame {value} after {:.0} s; waiting on \
                     (Ctrl-C stops after it, a second Ctrl-C at once)",
                    start.elapsed().as_secs_f64()
                ),
                Err(result) => {
                    return Err(GpuError::vulkan(
                        format!("waiting for frame {value}"),
                        result,
                    ));
                }
            }
        }
    }

    /// The value the GPU has reached.
    pub fn value(&self) -> Result<u64, GpuError> {
        // SAFETY: a live timeline semaphore.
        unsafe { self.ctx.device.get_semaphore_counter_value(self.semaphore) }
            .context("reading the frame timeline")
    }
}

impl Timeline {
    /// Milliseconds spent waiting since the last call (and starts counting again).
    pub fn take_waited_ms(&self) -> f64 {
        self.waited_ns.swap(0, Ordering::Relaxed) as f64 / 1e6
    }
}

/// Adds the time from `start` to `total` when dropped (however the wait ends).
struct WaitTime<'a> {
    start: std::time::Instant,
    total: &'a AtomicU64,
}

impl Drop for WaitTime<'_> {
    fn drop(&mut self) {
        let ns = u64::try_from(self.start.elapsed().as_nanos()).unwrap_or(u64::MAX);
        self.total.fetch_add(ns, Ordering::Relaxed);
    }
}

impl ReleaseWait for Timeline {
    fn wait_released(&mut self, token: u64) -> Result<(), RingError> {
        self.wait(token).map_err(|e| RingError::Wait(Box::new(e)))
    }
}

impl Drop for Timeline {
    fn drop(&mut self) {
        // SAFETY: the owner waited for the device before dropping.
        unsafe { self.ctx.device.destroy_semaphore(self.semaphore, None) };
    }
}
