//! This frame's handles for a compiled graph's resources: the few frame-wide ones the renderer
//! binds itself ([`FrameResources`]: the target, the palette ring slot, the culling inputs, the
//! readback buffer), the buffers passes declared (from the frame in flight's
//! [`PassBuffers`]) and the transient images ([`TransientImages`]).

use ash::vk;

use crate::gpu::frame::resources::buffers::{BufferDesc, PassBuffers};
use crate::gpu::frame::resources::images::TransientImages;
use crate::gpu::graph::{Bound, Plan, ResourceId};

/// The frame-wide resources of every graph, declared before any pass: what the renderer
/// itself provides each frame.
#[derive(Clone, Copy, Debug)]
pub struct FrameResources {
    /// The colour target (imported), written by the output pass alone.
    pub color: ResourceId,
    /// The scene colour: what the passes before the output pass draw the frame into (the
    /// target's format and size, one sample).
    pub scene: ResourceId,
    /// The palette ring slot: instance records and palettes the crowd wrote (written by the
    /// CPU).
    pub ring: ResourceId,
    /// The culling inputs (written by the CPU).
    pub cull_inputs: ResourceId,
    /// The readback buffer.
    pub readback: ResourceId,
}

/// One resource's handle this frame.
#[derive(Clone, Copy, Debug)]
pub enum Handle {
    /// An image and its view.
    Image {
        /// The image.
        image: vk::Image,
        /// Its view (all mips and layers).
        view: vk::ImageView,
        /// Its aspect.
        aspect: vk::ImageAspectFlags,
    },
    /// A range of a buffer.
    Buffer {
        /// The buffer.
        buffer: vk::Buffer,
        /// Start of the range.
        offset: vk::DeviceSize,
        /// Length of the range.
        size: vk::DeviceSize,
    },
}

/// This frame's handles for a graph's resources.
pub struct FrameBindings<'a> {
    /// The frame-wide resources.
    pub frame: FrameResources,
    /// The plan, to find transients by id.
    pub plan: &'a Plan,
    /// The colour target.
    pub target: (vk::Image, vk::ImageView),
    /// The ring's buffer and this frame's slot in it (offset, size).
    pub ring: (vk::Buffer, vk::DeviceSize, vk::DeviceSize),
    /// The readback buffer and its size (null when the frame is not read back).
    pub readback: (vk::Buffer, vk::DeviceSize),
    /// This frame in flight's culling inputs.
    pub cull_inputs: vk::Buffer,
    /// The buffers the passes declared, with their descriptions.
    pub buffer_descs: &'a [(ResourceId, BufferDesc)],
    /// This frame in flight's buffers of those descriptions.
    pub buffers: &'a PassBuffers,
    /// The transient images.
    pub transients: &'a TransientImages,
    /// Buffers features bind by name this frame (their state, their per-frame lists).
    pub imported: &'a [(&'static str, vk::Buffer)],
}

impl FrameBindings<'_> {
    /// What `id` stands for this frame; `None` for a resource nothing was made for (the
    /// plan never uses one).
    pub fn handle(&self, id: ResourceId) -> Option<Handle> {
        let f = &self.frame;
        let buffer = |buffer: vk::Buffer, offset, size| Handle::Buffer {
            buffer,
            offset,
            size,
        };
        if id == f.color {
            return Some(Handle::Image {
                image: self.target.0,
                view: self.target.1,
                aspect: vk::ImageAspectFlags::COLOR,
            });
        }
        if id == f.ring {
            return Some(buffer(self.ring.0, self.ring.1, self.ring.2));
        }
        if id == f.readback {
            return Some(buffer(self.readback.0, 0, self.readback.1));
        }
        if id == f.cull_inputs {
            return Some(buffer(self.cull_inputs, 0, vk::WHOLE_SIZE));
        }
        if let Some((_, desc)) = self.buffer_descs.iter().find(|(r, _)| *r == id) {
            let made = self.buffers.get(desc)?;
            return Some(buffer(made.buffer, 0, made.size));
        }
        if let Some(image) = self.transients.image(self.plan, id) {
            return Some(Handle::Image {
                image: image.image,
                view: image.view,
                aspect: image.info.aspect,
            });
        }
        // Last, so the frame's own resources never pay for the names: a feature's buffer.
        let name = self.plan.resource_name(id);
        let &(_, made) = self.imported.iter().find(|(n, _)| *n == name)?;
        Some(buffer(made, 0, vk::WHOLE_SIZE))
    }

    /// What a barrier on `id` covers (a null buffer for an id nothing stands for: the graph
    /// only puts barriers on resources kept passes use, which all have handles).
    pub fn bound(&self, id: ResourceId) -> Bound {
        match self.handle(id) {
            Some(Handle::Image { image, aspect, .. }) => Bound::Image { image, aspect },
            Some(Handle::Buffer {
                buffer,
                offset,
                size,
            }) => Bound::Buffer {
                buffer,
                offset,
                size,
            },
            None => Bound::Buffer {
                buffer: vk::Buffer::null(),
                offset: 0,
                size: 0,
            },
        }
    }
}
