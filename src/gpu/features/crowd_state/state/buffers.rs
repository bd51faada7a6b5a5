//! The crowd state's buffers per frame in flight: its near list, exact instances and list of
//! changes.

use std::sync::Arc;

use ash::vk;
use gpu_allocator::MemoryLocation;

use crate::gpu::device::buffer::GpuBuffer;
use crate::gpu::device::context::GpuContext;
use crate::gpu::device::error::GpuError;
use crate::gpu::features::crowd_state::state::{
    COMMAND_CAPACITY, NEAR_CAPACITY, NEAR_HEADER, SlotBuffers,
};
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
