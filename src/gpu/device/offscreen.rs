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
        let readback = readback_buffer(ctx, "readback", extent)?;
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

/// A host-readable buffer for one frame of a swapchain (a window's screenshot): the renderer's
/// readback copies the frame into it, in the swapchain's format.
pub struct WindowReadback {
    buffer: GpuBuffer,
    extent: vk::Extent2D,
    format: vk::Format,
}

impl WindowReadback {
    /// Room for one `extent` frame of `format` (a four-byte colour format).
    pub fn new(
        ctx: &Arc<GpuContext>,
        extent: vk::Extent2D,
        format: vk::Format,
    ) -> Result<Self, GpuError> {
        let buffer = readback_buffer(ctx, "window readback", extent)?;
        Ok(Self {
            buffer,
            extent,
            format,
        })
    }

    /// Whether it holds frames of `extent` and `format`.
    pub fn fits(&self, extent: vk::Extent2D, format: vk::Format) -> bool {
        self.extent == extent && self.format == format
    }

    /// The buffer to hand to [`crate::gpu::Renderer::render`].
    pub fn buffer(&self) -> vk::Buffer {
        self.buffer.buffer
    }

    /// The frame it holds as RGBA8 (blue and red swapped back from a BGRA swapchain); the
    /// caller has waited for the frame.
    pub fn pixels(&self) -> Result<Pixels, GpuError> {
        let (w, h) = (self.extent.width, self.extent.height);
        let mut rgba8 = vec![0u8; w as usize * h as usize * 4];
        self.buffer.read(0, &mut rgba8)?;
        let bgra = matches!(
            self.format,
            vk::Format::B8G8R8A8_SRGB | vk::Format::B8G8R8A8_UNORM
        );
        if bgra {
            for p in rgba8.chunks_exact_mut(4) {
                p.swap(0, 2);
            }
        }
        Ok(Pixels {
            width: w,
            height: h,
            rgba8,
        })
    }
}

/// A host-readable buffer for one `extent` frame of four bytes a pixel.
fn readback_buffer(
    ctx: &Arc<GpuContext>,
    name: &str,
    extent: vk::Extent2D,
) -> Result<GpuBuffer, GpuError> {
    GpuBuffer::new(
        ctx,
        name,
        extent.width as u64 * extent.height as u64 * 4,
        vk::BufferUsageFlags::TRANSFER_DST,
        MemoryLocation::GpuToCpu,
        4,
    )
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
