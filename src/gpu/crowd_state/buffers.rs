//! The crowd state's buffers: per frame in flight its near list, exact instances and list of
//! changes, and the walkers' and clocks' tables grown on the device.

use std::sync::Arc;

use ash::vk;
use gpu_allocator::MemoryLocation;

use super::{COMMAND_CAPACITY, NEAR_CAPACITY, NEAR_HEADER, SlotBuffers};
use crate::gpu::device::buffer::GpuBuffer;
use crate::gpu::device::context::GpuContext;
use crate::gpu::device::error::GpuError;
use crate::motion::{DeviceCommand, NearInstance};

/// Frame in flight `slot`'s buffers, or an error naming it.
pub(super) fn slot_buffers_mut(
    slots: &mut [SlotBuffers],
    slot: usize,
) -> Result<&mut SlotBuffers, GpuError> {
    slots
        .get_mut(slot)
        .ok_or_else(|| GpuError::Other(format!("no crowd-state buffers for slot {slot}")))
}

/// Frame in flight `slot`'s near list (read by the CPU) and exact list (written by it).
pub(super) fn slot_buffers(ctx: &Arc<GpuContext>, slot: usize) -> Result<SlotBuffers, GpuError> {
    let storage = vk::BufferUsageFlags::STORAGE_BUFFER;
    Ok(SlotBuffers {
        near: GpuBuffer::new(
            ctx,
            &format!("near list {slot}"),
            (NEAR_HEADER + NEAR_CAPACITY * size_of::<NearInstance>()) as u64,
            storage | vk::BufferUsageFlags::TRANSFER_DST,
            MemoryLocation::GpuToCpu,
            16,
        )?,
        exact: GpuBuffer::new(
            ctx,
            &format!("exact instances {slot}"),
            (NEAR_CAPACITY * 8) as u64,
            storage,
            MemoryLocation::CpuToGpu,
            16,
        )?,
        exact_count: 0,
        commands: commands_buffer(ctx, slot, COMMAND_CAPACITY)?,
        command_count: 0,
        command_room: COMMAND_CAPACITY,
        listed_by: None,
        listed_capacity: 0,
    })
}

/// Frame in flight `slot`'s list of changes, with room for `room` commands.
pub(super) fn commands_buffer(
    ctx: &Arc<GpuContext>,
    slot: usize,
    room: usize,
) -> Result<GpuBuffer, GpuError> {
    GpuBuffer::new(
        ctx,
        &format!("crowd changes {slot}"),
        (room * size_of::<DeviceCommand>()) as u64,
        vk::BufferUsageFlags::STORAGE_BUFFER,
        MemoryLocation::CpuToGpu,
        16,
    )
}

/// A device-local table of `bytes` named `name`, starting with the first `kept` bytes of
/// `old` (copied on the device, which the caller let go idle); the copy is made visible to
/// every later command.
pub(super) fn grown(
    ctx: &Arc<GpuContext>,
    name: &str,
    old: &GpuBuffer,
    kept: usize,
    bytes: usize,
) -> Result<GpuBuffer, GpuError> {
    let usage = vk::BufferUsageFlags::STORAGE_BUFFER
        | vk::BufferUsageFlags::TRANSFER_SRC
        | vk::BufferUsageFlags::TRANSFER_DST;
    let buffer = GpuBuffer::new(ctx, name, bytes as u64, usage, MemoryLocation::GpuOnly, 16)?;
    ctx.run_once(&format!("growing the {name}"), |cmd| {
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
        let region = vk::BufferCopy::default().size(kept as u64);
        // SAFETY: a one-off command buffer waited on; both buffers are live and hold `kept`
        // bytes.
        unsafe {
            ctx.cmd_pipeline_barrier2(cmd, &vk::DependencyInfo::default().memory_barriers(&before));
            ctx.device
                .cmd_copy_buffer(cmd, old.buffer, buffer.buffer, &[region]);
            ctx.cmd_pipeline_barrier2(cmd, &vk::DependencyInfo::default().memory_barriers(&after));
        }
    })?;
    Ok(buffer)
}
