//! The transient images of the frame graphs, keyed by their descriptions
//! ([`ImageDesc`]: name, format, kind, size relative to the frame, samples): every compiled
//! graph that declares the same description shares one image (one shadow map, one depth
//! buffer... whatever the view), made with the usage every graph so far needed, and made
//! again when the render size changes.

use std::collections::HashMap;
use std::sync::Arc;

use ash::vk;

use crate::gpu::device::context::GpuContext;
use crate::gpu::device::error::GpuError;
use crate::gpu::device::image::{GpuImage, ImageInfo};
use crate::gpu::graph::{ImageDesc, ImageKind, Plan, ResourceId};

/// See the module documentation.
pub struct TransientImages {
    ctx: Arc<GpuContext>,
    images: HashMap<ImageDesc, GpuImage>,
    extent: vk::Extent2D,
}

impl TransientImages {
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

    /// Makes what `plan` needs: images it declares that do not exist yet, and again (with
    /// both usages) those an earlier graph made without a usage this one needs. The caller
    /// has waited for the device: an image made again may have been in use.
    pub fn prepare(&mut self, plan: &Plan) -> Result<(), GpuError> {
        for (id, desc) in plan.transients() {
            let needed = plan.image_usage(id);
            let usage = match self.images.get(desc) {
                Some(image) if image.info.usage.contains(needed) => continue,
                Some(image) => image.info.usage | needed,
                None => needed,
            };
            let image = GpuImage::new(
                &self.ctx,
                desc.name,
                ImageInfo {
                    format: desc.format,
                    extent: desc.extent.resolve(self.extent),
                    usage,
                    mip_levels: 1,
                    aspect: match desc.kind {
                        ImageKind::Color => vk::ImageAspectFlags::COLOR,
                        ImageKind::Depth => vk::ImageAspectFlags::DEPTH,
                    },
                    samples: desc.samples,
                },
            )?;
            self.images.insert(*desc, image);
        }
        Ok(())
    }

    /// The image `id` of `plan` stands for, when it is one of the pool's.
    pub fn image(&self, plan: &Plan, id: ResourceId) -> Option<&GpuImage> {
        self.images.get(plan.transient_desc(id)?)
    }
}
