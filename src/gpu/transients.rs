//! The transient images of the frame graphs: made once at the size the graphs ask for,
//! shared by name by every compiled graph (one shadow map, one depth buffer... whatever the
//! view), and made again when the render size changes.

use std::collections::HashMap;
use std::sync::Arc;

use ash::vk;

use super::device::context::GpuContext;
use super::device::error::GpuError;
use super::device::image::{GpuImage, ImageInfo};
use super::graph::{ImageKind, Plan, ResourceId};
use super::passes::AO_FORMAT;

/// The transient images of every compiled graph, shared by name: one shadow map, one depth
/// buffer... whatever the view. Recreated when the render size changes.
pub struct TransientPool {
    ctx: Arc<GpuContext>,
    images: HashMap<&'static str, GpuImage>,
    extent: vk::Extent2D,
}

impl TransientPool {
    /// An empty pool for `extent`-sized frames.
    pub fn new(ctx: &Arc<GpuContext>, extent: vk::Extent2D) -> Self {
        Self {
            ctx: ctx.clone(),
            images: HashMap::new(),
            extent,
        }
    }

    /// Forgets every image (the caller waited for the device) and takes a new size.
    pub fn reset(&mut self, extent: vk::Extent2D) {
        self.images.clear();
        self.extent = extent;
    }

    /// Creates what `graph` needs and does not exist yet. Every image can be both written
    /// and sampled, so graphs with different readers share it.
    pub fn prepare(&mut self, plan: &Plan) -> Result<(), GpuError> {
        for (id, desc) in plan.transients() {
            if self.images.contains_key(desc.name) {
                continue;
            }
            let multisampled = desc.samples != vk::SampleCountFlags::TYPE_1;
            let (aspect, usage) = match desc.kind {
                // Multisampled images are only rendered to and resolved: the graph's usage
                // is all they need.
                ImageKind::Depth if multisampled => (
                    vk::ImageAspectFlags::DEPTH,
                    vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT,
                ),
                ImageKind::Color if multisampled => (
                    vk::ImageAspectFlags::COLOR,
                    vk::ImageUsageFlags::COLOR_ATTACHMENT,
                ),
                ImageKind::Depth => (
                    vk::ImageAspectFlags::DEPTH,
                    vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT | vk::ImageUsageFlags::SAMPLED,
                ),
                ImageKind::Color if desc.format == AO_FORMAT => (
                    vk::ImageAspectFlags::COLOR,
                    vk::ImageUsageFlags::STORAGE | vk::ImageUsageFlags::SAMPLED,
                ),
                ImageKind::Color => (
                    vk::ImageAspectFlags::COLOR,
                    vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::SAMPLED,
                ),
            };
            let image = GpuImage::new(
                &self.ctx,
                desc.name,
                ImageInfo {
                    format: desc.format,
                    extent: desc.extent.resolve(self.extent),
                    usage: usage | plan.image_usage(id),
                    mip_levels: 1,
                    aspect,
                    samples: desc.samples,
                },
            )?;
            self.images.insert(desc.name, image);
        }
        Ok(())
    }

    /// The image `id` of `plan` stands for, when it is one of the pool's.
    pub fn image(&self, plan: &Plan, id: ResourceId) -> Option<&GpuImage> {
        self.images.get(plan.resource_name(id))
    }
}
