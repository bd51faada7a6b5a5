//! Headless output: a colour image to render into and a host-readable buffer the readback
//! pass copies it to, so frames can be checked in tests and written as PNG.

use std::path::Path;
use std::sync::Arc;

use ash::vk;
use gpu_allocator::MemoryLocation;

use super::buffer::GpuBuffer;
use super::context::GpuContext;
use super::error::GpuError;
use super::image::{GpuImage, ImageInfo};
use super::targets::TargetImage;

/// sRGB-encoded RGBA8: what a PNG holds, so the readback needs no conversion.
pub const OFFSCREEN_FORMAT: vk::Format = vk::Format::R8G8B8A8_SRGB;

/// A headless render target; see the module documentation.
pub struct Offscreen {
    image: GpuImage,
    readback: GpuBuffer,
}

/// A frame read back: RGBA8, sRGB-encoded, rows top to bottom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pixels {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width * height * 4` bytes.
    pub rgba8: Vec<u8>,
}

impl Offscreen {
    /// A target of `extent` pixels.
    pub fn new(ctx: &Arc<GpuContext>, extent: vk::Extent2D) -> Result<Self, GpuError> {
        let image = GpuImage::new(
            ctx,
            "offscreen colour",
            ImageInfo {
                format: OFFSCREEN_FORMAT,
                extent,
                usage: vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC,
                mip_levels: 1,
                aspect: vk::ImageAspectFlags::COLOR,
                samples: vk::SampleCountFlags::TYPE_1,
            },
        )?;
        let bytes = extent.width as u64 * extent.height as u64 * 4;
        let readback = GpuBuffer::new(
            ctx,
            "readback",
            bytes,
            vk::BufferUsageFlags::TRANSFER_DST,
            MemoryLocation::GpuToCpu,
            4,
        )?;
        Ok(Self { image, readback })
    }

    /// What the renderer draws into.
    pub fn target(&self) -> TargetImage {
        TargetImage {
            image: self.image.image,
            view: self.image.view,
        }
    }

    /// The buffer the readback pass fills.
    pub fn readback_buffer(&self) -> vk::Buffer {
        self.readback.buffer
    }

    /// Size in pixels.
    pub fn extent(&self) -> vk::Extent2D {
        self.image.extent()
    }

    /// The pixels of the last frame rendered with readback; the caller has waited for it
    /// ([`crate::gpu::Renderer::wait_idle`]).
    pub fn pixels(&self) -> Result<Pixels, GpuError> {
        let extent = self.extent();
        let mut rgba8 = vec![0u8; extent.width as usize * extent.height as usize * 4];
        self.readback.read(0, &mut rgba8)?;
        Ok(Pixels {
            width: extent.width,
            height: extent.height,
            rgba8,
        })
    }
}

impl Pixels {
    /// Writes the pixels as an RGBA PNG.
    pub fn save_png(&self, path: &Path) -> Result<(), GpuError> {
        image::save_buffer(
            path,
            &self.rgba8,
            self.width,
            self.height,
            image::ColorType::Rgba8,
        )
        .map_err(|e| GpuError::Other(format!("writing {}: {e}", path.display())))
    }
}
