//! `GpuImage`: a 2D image, its view and its gpu-allocator memory, freed on drop.

use std::sync::Arc;

use ash::vk;
use gpu_allocator::MemoryLocation;
use gpu_allocator::vulkan::{Allocation, AllocationCreateDesc, AllocationScheme};

use super::context::GpuContext;
use super::error::{GpuError, VkContext};

/// What to create.
#[derive(Clone, Copy, Debug)]
pub struct ImageInfo {
    /// Pixel format.
    pub format: vk::Format,
    /// Size in pixels.
    pub extent: vk::Extent2D,
    /// How it will be used.
    pub usage: vk::ImageUsageFlags,
    /// Mip levels (1 for render targets).
    pub mip_levels: u32,
    /// Colour or depth.
    pub aspect: vk::ImageAspectFlags,
    /// Samples per pixel (`TYPE_1` but for multisampled attachments).
    pub samples: vk::SampleCountFlags,
}

/// An image with one view over all its mips; see the module documentation.
pub struct GpuImage {
    ctx: Arc<GpuContext>,
    /// The image.
    pub image: vk::Image,
    /// A view of every mip level.
    pub view: vk::ImageView,
    allocation: Option<Allocation>,
    /// What it was created with.
    pub info: ImageInfo,
}

impl GpuImage {
    /// Creates a device-local image and its view, both named `name`.
    pub fn new(ctx: &Arc<GpuContext>, name: &str, info: ImageInfo) -> Result<Self, GpuError> {
        let device = &ctx.device;
        let create = vk::ImageCreateInfo::default()
            .image_type(vk::ImageType::TYPE_2D)
            .format(info.format)
            .extent(vk::Extent3D {
                width: info.extent.width.max(1),
                height: info.extent.height.max(1),
                depth: 1,
            })
            .mip_levels(info.mip_levels.max(1))
            .array_layers(1)
            .samples(info.samples)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(info.usage)
            .sharing_mode(vk::SharingMode::EXCLUSIVE)
            .initial_layout(vk::ImageLayout::UNDEFINED);
        // SAFETY: valid device and create info.
        let image = unsafe { device.create_image(&create, None) }.context(format!(
            "creating image {name} ({}x{})",
            info.extent.width, info.extent.height
        ))?;
        ctx.name(image, name);
        // SAFETY: `image` was just created on this device.
        let requirements = unsafe { device.get_image_memory_requirements(image) };
        let allocation = match ctx.allocator().allocate(&AllocationCreateDesc {
            name,
            requirements,
            location: MemoryLocation::GpuOnly,
            linear: false,
            allocation_scheme: AllocationScheme::GpuAllocatorManaged,
        }) {
            Ok(a) => a,
            Err(source) => {
                // SAFETY: unused image.
                unsafe { device.destroy_image(image, None) };
                return Err(GpuError::Allocation {
                    what: format!("image {name}"),
                    source,
                });
            }
        };
        let mut this = Self {
            ctx: ctx.clone(),
            image,
            view: vk::ImageView::null(),
            allocation: Some(allocation),
            info,
        };
        if let Some(a) = &this.allocation {
            // SAFETY: memory meeting the image's requirements.
            unsafe { device.bind_image_memory(image, a.memory(), a.offset()) }
                .context(format!("binding memory to image {name}"))?;
        }
        let view_info = vk::ImageViewCreateInfo::default()
            .image(image)
            .view_type(vk::ImageViewType::TYPE_2D)
            .format(info.format)
            .subresource_range(vk::ImageSubresourceRange {
                aspect_mask: info.aspect,
                base_mip_level: 0,
                level_count: info.mip_levels.max(1),
                base_array_layer: 0,
                layer_count: 1,
            });
        // SAFETY: a view of the whole, bound image.
        this.view = unsafe { device.create_image_view(&view_info, None) }
            .context(format!("creating the view of image {name}"))?;
        ctx.name(this.view, &format!("{name} view"));
        Ok(this)
    }

    /// Size in pixels.
    pub fn extent(&self) -> vk::Extent2D {
        self.info.extent
    }
}

impl Drop for GpuImage {
    fn drop(&mut self) {
        // SAFETY: the owner guarantees the device no longer uses the image.
        unsafe {
            if self.view != vk::ImageView::null() {
                self.ctx.device.destroy_image_view(self.view, None);
            }
            self.ctx.device.destroy_image(self.image, None);
        }
        if let Some(a) = self.allocation.take()
            && let Err(e) = self.ctx.allocator().free(a)
        {
            log::warn!("freeing image memory: {e}");
        }
    }
}

/// The copy of a whole single-layer colour image of `extent` into a buffer, rows packed
/// (a readback).
pub fn whole_color_copy(extent: vk::Extent2D) -> vk::BufferImageCopy {
    vk::BufferImageCopy::default()
        .image_subresource(vk::ImageSubresourceLayers {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            mip_level: 0,
            base_array_layer: 0,
            layer_count: 1,
        })
        .image_extent(vk::Extent3D {
            width: extent.width,
            height: extent.height,
            depth: 1,
        })
}
