//! The GPU tests run with the validation layer's synchronization checks on: a missing barrier
//! is a validation message, and a message fails a test. This proves the checks are really on
//! (a layer that ignored the request would let every hazard through): two fills of one buffer
//! with no barrier between them must be reported as a write-after-write hazard.
//!
//! One test in this file: the message it provokes must not fail another test of the process.

mod gpu_common;

use ash::vk;
use gpu_allocator::MemoryLocation;
use gpu_allocator::vulkan::{AllocationCreateDesc, AllocationScheme};
use throng::gpu::validation_messages;

#[test]
fn a_missing_barrier_is_reported() {
    let Some(ctx) = gpu_common::validated_context() else {
        return;
    };
    let device = &ctx.device;
    let info = vk::BufferCreateInfo::default()
        .size(256)
        .usage(vk::BufferUsageFlags::TRANSFER_DST);
    // SAFETY: valid device and create info; destroyed below.
    let buffer = unsafe { device.create_buffer(&info, None) }.expect("buffer");
    // SAFETY: the buffer was just created on this device.
    let requirements = unsafe { device.get_buffer_memory_requirements(buffer) };
    let allocation = ctx
        .allocator()
        .allocate(&AllocationCreateDesc {
            name: "hazard",
            requirements,
            location: MemoryLocation::GpuOnly,
            linear: true,
            allocation_scheme: AllocationScheme::GpuAllocatorManaged,
        })
        .expect("memory");
    // SAFETY: fresh buffer and memory of this device.
    unsafe { device.bind_buffer_memory(buffer, allocation.memory(), allocation.offset()) }
        .expect("bind");

    let before = validation_messages();
    ctx.run_once("write after write without a barrier", |cmd| {
        // SAFETY: recording; the buffer lives until after the wait.
        unsafe {
            device.cmd_fill_buffer(cmd, buffer, 0, vk::WHOLE_SIZE, 1);
            device.cmd_fill_buffer(cmd, buffer, 0, vk::WHOLE_SIZE, 2);
        }
    })
    .expect("submitted");
    let reported = validation_messages() - before;

    ctx.allocator().free(allocation).expect("free");
    // SAFETY: the work using it has completed (run_once waited).
    unsafe { device.destroy_buffer(buffer, None) };
    assert!(
        reported > 0,
        "two fills of one buffer without a barrier were not reported: synchronization \
         validation is off"
    );
}
