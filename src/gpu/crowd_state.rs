//! The crowd's state on the device: the tables of a [`DeviceMotion`] in device-local buffers
//! (uploaded once, when the state moves to the GPU), the clocks the crowd-state pass advances
//! every frame in place (`shaders/crowd_state.comp`, [`super::passes::crowd_state`]), and the
//! step the next frame applies. Read back for tests and diagnostics only.

use std::sync::Arc;

use ash::vk;
use gpu_allocator::MemoryLocation;

use super::device::buffer::GpuBuffer;
use super::device::context::GpuContext;
use super::device::error::GpuError;
use crate::scene::motion::{DeviceClock, DeviceMotion, DeviceStep};

/// What the crowd-state pass binds (plain handles, copied into the frame's shared data).
#[derive(Clone, Copy, Debug)]
pub struct CrowdStateBinding {
    /// Per instance: [`crate::scene::motion::DeviceWalker`].
    pub walkers: vk::Buffer,
    /// Per instance: [`DeviceClock`], read and written by the pass.
    pub clocks: vk::Buffer,
    /// Per model: [`crate::scene::motion::DeviceModel`].
    pub models: vk::Buffer,
    /// Per model clip: [`crate::scene::motion::DeviceClip`].
    pub clips: vk::Buffer,
    /// The frame's step (the pass's push constants).
    pub step: DeviceStep,
}

/// The buffers; see the module documentation.
pub struct DeviceCrowdState {
    ctx: Arc<GpuContext>,
    walkers: GpuBuffer,
    clocks: GpuBuffer,
    models: GpuBuffer,
    clips: GpuBuffer,
    count: usize,
    /// The step the next frame applies (a zero step until the caller gives one: the records
    /// are written, nothing moves).
    step: DeviceStep,
}

impl DeviceCrowdState {
    /// Uploads `motion`'s tables.
    pub fn upload(ctx: &Arc<GpuContext>, motion: &DeviceMotion) -> Result<Self, GpuError> {
        let storage = vk::BufferUsageFlags::STORAGE_BUFFER;
        // A buffer holds at least one element: an empty crowd still binds its tables.
        fn bytes<T: bytemuck::Pod + Default>(items: &[T]) -> Vec<u8> {
            if items.is_empty() {
                bytemuck::bytes_of(&T::default()).to_vec()
            } else {
                bytemuck::cast_slice(items).to_vec()
            }
        }
        let upload = |name: &str, usage: vk::BufferUsageFlags, data: Vec<u8>| {
            GpuBuffer::with_data(ctx, name, usage, &data)
        };
        Ok(Self {
            ctx: ctx.clone(),
            walkers: upload("crowd walkers", storage, bytes(&motion.walkers))?,
            clocks: upload(
                "crowd clocks",
                storage | vk::BufferUsageFlags::TRANSFER_SRC,
                bytes(&motion.clocks),
            )?,
            models: upload("crowd state models", storage, bytes(&motion.models))?,
            clips: upload("crowd state clips", storage, bytes(&motion.clips))?,
            count: motion.walkers.len(),
            step: DeviceStep {
                count: motion.walkers.len() as u32,
                ..DeviceStep::default()
            },
        })
    }

    /// Instances.
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether it holds no instance.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The step the next frame applies.
    pub fn set_step(&mut self, step: DeviceStep) {
        self.step = step;
    }

    /// The next frame's bindings, its step taken: a frame the caller gives no new step moves
    /// nothing (dt 0, no turns).
    pub fn take_binding(&mut self) -> CrowdStateBinding {
        let step = self.step;
        self.step = DeviceStep {
            count: self.count as u32,
            ..step
        };
        self.step.dt = 0.0;
        self.step.changes = 0;
        CrowdStateBinding {
            walkers: self.walkers.buffer,
            clocks: self.clocks.buffer,
            models: self.models.buffer,
            clips: self.clips.buffer,
            step,
        }
    }

    /// The clocks as the device holds them (the caller waited for every frame).
    pub fn read_clocks(&self) -> Result<Vec<DeviceClock>, GpuError> {
        let mut clocks = vec![DeviceClock::default(); self.count];
        let bytes: &mut [u8] = bytemuck::cast_slice_mut(&mut clocks);
        read_buffer(
            &self.ctx,
            "reading the crowd's clocks",
            self.clocks.buffer,
            0,
            bytes,
        )?;
        Ok(clocks)
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

#[cfg(test)]
mod tests {
    use crate::gpu::shader_interface as si;
    use crate::scene::motion as m;

    #[test]
    fn the_shaders_constants_are_the_motions() {
        assert_eq!(si::CROWD_WALKER_CLAMP, m::WALKER_CLAMP);
        assert_eq!(si::CROWD_ROUTE_LANES, m::ROUTE_LANES);
        assert_eq!(si::CROWD_ROUTE_RINGS, m::ROUTE_RINGS);
        assert_eq!(m::ROUTE_IN_PLACE, 0, "the shader walks no one for route 0");
        assert_eq!(size_of::<m::DeviceWalker>(), 64);
        assert_eq!(size_of::<m::DeviceClock>(), 32);
        assert_eq!(size_of::<m::DeviceModel>(), 16);
        assert_eq!(size_of::<m::DeviceClip>(), 32);
        assert_eq!(size_of::<m::DeviceStep>(), 32);
    }
}
