//! Per frame in flight: a command pool and buffer, the frame's uniform buffer, a timestamp
//! query pool, and the timeline value that says when the GPU is done with all of them.

use std::sync::Arc;

use ash::vk;
use gpu_allocator::MemoryLocation;

use crate::gpu::device::buffer::GpuBuffer;
use crate::gpu::device::context::GpuContext;
use crate::gpu::device::error::{GpuError, VkContext};
use crate::gpu::frame::uniforms::FRAME_UNIFORMS_SIZE;

/// Passes timed per frame (each adds a pair of timestamps after the frame's own pair); a
/// pass past it is recorded but not timed. The fullest frame (every part in compute, the
/// crowd's state and tracks on the GPU, post-processing and the heads-up display) records
/// 36 (`gpu::renderer::compose`'s tests keep it within this).
pub const MAX_PASSES: usize = 48;
/// Timestamps per frame: the frame's start and end, then a pair per pass.
const FRAME_QUERIES: u32 = 2 + 2 * MAX_PASSES as u32;

/// One frame in flight's resources; see the module documentation.
pub struct InFlightFrame {
    ctx: Arc<GpuContext>,
    pool: vk::CommandPool,
    /// Recorded anew every frame.
    pub cmd: vk::CommandBuffer,
    /// The frame's [`FrameData`](crate::gpu::frame::uniforms::FrameData), and the near
    /// cascade's copy at [`NEAR_FRAME_OFFSET`](crate::gpu::frame::uniforms::NEAR_FRAME_OFFSET),
    /// written by the CPU before submission.
    pub uniforms: GpuBuffer,
    /// Timestamps (none when the queue cannot write them).
    pub queries: Option<vk::QueryPool>,
    /// Queries the pool holds.
    pub query_count: u32,
    /// Timeline value signalled when the GPU finished this frame's last use (0: never used).
    pub done_at: u64,
    /// Whether timestamps were written by the last use and not yet read.
    pub queries_pending: bool,
    /// The passes the last use timed, in order (capacity kept: no allocation per frame).
    pub pass_names: Vec<&'static str>,
}

impl InFlightFrame {
    /// Resources for frame-in-flight `index`.
    pub fn new(ctx: &Arc<GpuContext>, index: usize) -> Result<Self, GpuError> {
        let queries = FRAME_QUERIES;
        let device = &ctx.device;
        let info = vk::CommandPoolCreateInfo::default()
            .flags(vk::CommandPoolCreateFlags::TRANSIENT)
            .queue_family_index(ctx.physical.queue_family);
        // SAFETY: valid device and create info.
        let pool = unsafe { device.create_command_pool(&info, None) }
            .context("creating a frame command pool")?;
        ctx.name(pool, &format!("frame {index} commands"));
        let mut this = Self {
            ctx: ctx.clone(),
            pool,
            cmd: vk::CommandBuffer::null(),
            uniforms: GpuBuffer::new(
                ctx,
                &format!("frame {index} uniforms"),
                FRAME_UNIFORMS_SIZE,
                vk::BufferUsageFlags::UNIFORM_BUFFER,
                MemoryLocation::CpuToGpu,
                256,
            )?,
            queries: None,
            query_count: 0,
            done_at: 0,
            queries_pending: false,
            pass_names: Vec::with_capacity(MAX_PASSES),
        };
        let alloc = vk::CommandBufferAllocateInfo::default()
            .command_pool(pool)
            .level(vk::CommandBufferLevel::PRIMARY)
            .command_buffer_count(1);
        // SAFETY: allocating from the pool just created.
        this.cmd = unsafe { device.allocate_command_buffers(&alloc) }
            .context("allocating a frame command buffer")?[0];
        ctx.name(this.cmd, &format!("frame {index}"));
        if ctx.physical.timestamps && queries > 0 {
            let info = vk::QueryPoolCreateInfo::default()
                .query_type(vk::QueryType::TIMESTAMP)
                .query_count(queries);
            // SAFETY: valid device and create info.
            let pool = unsafe { device.create_query_pool(&info, None) }
                .context("creating a timestamp query pool")?;
            ctx.name(pool, &format!("frame {index} timestamps"));
            this.queries = Some(pool);
            this.query_count = queries;
        }
        Ok(this)
    }

    /// Resets the pool and begins recording the command buffer.
    pub fn begin(&mut self) -> Result<vk::CommandBuffer, GpuError> {
        let device = &self.ctx.device;
        // SAFETY: the caller waited for `done_at`, so nothing from this pool is in use.
        unsafe {
            device
                .reset_command_pool(self.pool, vk::CommandPoolResetFlags::empty())
                .context("resetting a frame command pool")?;
            device
                .begin_command_buffer(
                    self.cmd,
                    &vk::CommandBufferBeginInfo::default()
                        .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT),
                )
                .context("beginning a frame's commands")?;
            if let Some(pool) = self.queries {
                device.cmd_reset_query_pool(self.cmd, pool, 0, self.query_count);
            }
        }
        Ok(self.cmd)
    }

    /// Writes timestamp `query` once all earlier work reached `stage`.
    pub fn timestamp(&self, query: u32, stage: vk::PipelineStageFlags2) {
        if let Some(pool) = self.queries
            && query < self.query_count
        {
            // SAFETY: recording; the query was reset at `begin`.
            unsafe {
                self.ctx
                    .device
                    .cmd_write_timestamp2(self.cmd, stage, pool, query)
            };
        }
    }

    /// The first `count` timestamps of the last finished use, in nanoseconds, into `out`
    /// (without waiting: the caller already waited for `done_at`). False when unavailable.
    pub fn read_timestamps(&mut self, count: u32, out: &mut [u64]) -> bool {
        let Some(pool) = self.queries else {
            return false;
        };
        if !self.queries_pending || count > self.query_count || out.len() < count as usize {
            return false;
        }
        self.queries_pending = false;
        // SAFETY: the frame that wrote them has completed (timeline waited).
        let ok = unsafe {
            self.ctx.device.get_query_pool_results(
                pool,
                0,
                &mut out[..count as usize],
                vk::QueryResultFlags::TYPE_64,
            )
        };
        if ok.is_err() {
            return false;
        }
        let period = self.ctx.physical.timestamp_period as f64;
        for t in &mut out[..count as usize] {
            *t = (*t as f64 * period) as u64;
        }
        true
    }
}

impl Drop for InFlightFrame {
    fn drop(&mut self) {
        // SAFETY: the owner waited for the device.
        unsafe {
            if let Some(pool) = self.queries {
                self.ctx.device.destroy_query_pool(pool, None);
            }
            self.ctx.device.destroy_command_pool(self.pool, None);
        }
    }
}
