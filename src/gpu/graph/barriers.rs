//! The one device-facing part of the graph: turning a step's [`Barrier`]s into a single
//! `vkCmdPipelineBarrier2` for the handles bound this frame.

use ash::vk;

use super::error::GraphError;
use super::plan::Barrier;
use super::resource::ResourceId;

/// What a [`ResourceId`] stands for this frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// An image; barriers cover all its mip levels and array layers of `aspect`.
    Image {
        /// The image.
        image: vk::Image,
        /// The aspect to synchronize (usually [`super::ImageKind::aspect`]).
        aspect: vk::ImageAspectFlags,
    },
    /// A range of a buffer (a ring slot, or `0..WHOLE_SIZE`).
    Buffer {
        /// The buffer.
        buffer: vk::Buffer,
        /// Start of the range in bytes.
        offset: vk::DeviceSize,
        /// Length in bytes, or `vk::WHOLE_SIZE`.
        size: vk::DeviceSize,
    },
}

/// Reusable barrier arrays. Keep one per recording thread: once they have grown to the
/// largest step, recording allocates nothing.
#[derive(Debug, Default)]
pub struct BarrierScratch {
    // 'static: these structs never point anywhere (no p_next chain).
    images: Vec<vk::ImageMemoryBarrier2<'static>>,
    buffers: Vec<vk::BufferMemoryBarrier2<'static>>,
}

impl BarrierScratch {
    /// Empty scratch arrays.
    pub fn new() -> Self {
        Self::default()
    }

    /// The image barriers last filled in.
    pub fn image_barriers(&self) -> &[vk::ImageMemoryBarrier2<'static>] {
        &self.images
    }

    /// The buffer barriers last filled in.
    pub fn buffer_barriers(&self) -> &[vk::BufferMemoryBarrier2<'static>] {
        &self.buffers
    }

    /// Translates `barriers` into Vulkan structs for the handles `bind` returns. Checks
    /// every binding before keeping any, so a mismatch leaves the arrays empty.
    pub fn fill(
        &mut self,
        barriers: &[Barrier],
        bind: impl Fn(ResourceId) -> Bound,
    ) -> Result<(), GraphError> {
        self.images.clear();
        self.buffers.clear();
        for b in barriers {
            match (bind(b.resource), b.old_layout, b.new_layout) {
                (Bound::Image { image, aspect }, Some(old), Some(new)) => {
                    self.images.push(
                        vk::ImageMemoryBarrier2::default()
                            .src_stage_mask(b.src_stage)
                            .src_access_mask(b.src_access)
                            .dst_stage_mask(b.dst_stage)
                            .dst_access_mask(b.dst_access)
                            .old_layout(old)
                            .new_layout(new)
                            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                            .image(image)
                            .subresource_range(vk::ImageSubresourceRange {
                                aspect_mask: aspect,
                                base_mip_level: 0,
                                level_count: vk::REMAINING_MIP_LEVELS,
                                base_array_layer: 0,
                                layer_count: vk::REMAINING_ARRAY_LAYERS,
                            }),
                    );
                }
                (
                    Bound::Buffer {
                        buffer,
                        offset,
                        size,
                    },
                    None,
                    None,
                ) => {
                    self.buffers.push(
                        vk::BufferMemoryBarrier2::default()
                            .src_stage_mask(b.src_stage)
                            .src_access_mask(b.src_access)
                            .dst_stage_mask(b.dst_stage)
                            .dst_access_mask(b.dst_access)
                            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                            .buffer(buffer)
                            .offset(offset)
                            .size(size),
                    );
                }
                _ => {
                    self.images.clear();
                    self.buffers.clear();
                    return Err(GraphError::BindingMismatch {
                        resource: b.resource,
                    });
                }
            }
        }
        Ok(())
    }
}

/// Turns `barriers` into one `vkCmdPipelineBarrier2` (image and buffer barriers,
/// `QUEUE_FAMILY_IGNORED`, whole images: all mips and layers) and hands it to `emit`, which
/// records it (through core Vulkan 1.3 or the synchronization2 extension, whichever the
/// device has). `bind` resolves ids to this frame's handles; `scratch` holds the arrays, so
/// nothing is allocated once it is warm. Calls nothing when `barriers` is empty. This is the
/// only place barriers are built: every executor records through it.
///
/// # Errors
/// [`GraphError::BindingMismatch`] when an image barrier's id is bound to a buffer or the
/// other way round; nothing is recorded then.
pub fn record_barriers(
    barriers: &[Barrier],
    bind: impl Fn(ResourceId) -> Bound,
    scratch: &mut BarrierScratch,
    emit: impl FnOnce(&vk::DependencyInfo<'_>),
) -> Result<(), GraphError> {
    if barriers.is_empty() {
        return Ok(());
    }
    scratch.fill(barriers, bind)?;
    let dependency = vk::DependencyInfo::default()
        .image_memory_barriers(&scratch.images)
        .buffer_memory_barriers(&scratch.buffers);
    emit(&dependency);
    Ok(())
}
