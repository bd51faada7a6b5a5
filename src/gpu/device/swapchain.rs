//! The window's swapchain: creation and re-creation (resize, out of date), image acquisition
//! and presentation. The renderer draws into the acquired image like into any target.

use std::sync::Arc;

use ash::vk;

use super::context::GpuContext;
use super::error::{GpuError, VkContext};
use super::targets::{FrameSync, TargetImage};

/// `--present-mode`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PresentMode {
    /// Vsync, never tears (always available).
    #[default]
    Fifo,
    /// Newest frame wins, no tearing (falls back to FIFO).
    Mailbox,
    /// No vsync, may tear (falls back to FIFO).
    Immediate,
}

impl PresentMode {
    fn vk(self) -> vk::PresentModeKHR {
        match self {
            Self::Fifo => vk::PresentModeKHR::FIFO,
            Self::Mailbox => vk::PresentModeKHR::MAILBOX,
            Self::Immediate => vk::PresentModeKHR::IMMEDIATE,
        }
    }
}

/// How long an acquire waits for an image before the swapchain is made again.
const ACQUIRE_TIMEOUT_NS: u64 = 1_000_000_000;

/// An acquired image, ready to render into and then present.
#[derive(Clone, Copy, Debug)]
pub struct Acquired {
    /// Swapchain image index.
    pub index: u32,
    /// What to render into.
    pub target: TargetImage,
    /// The semaphores the frame waits on and signals.
    pub sync: FrameSync,
}

/// The swapchain; see the module documentation.
pub struct Swapchain {
    ctx: Arc<GpuContext>,
    loader: ash::khr::swapchain::Device,
    swapchain: vk::SwapchainKHR,
    images: Vec<vk::Image>,
    views: Vec<vk::ImageView>,
    /// Per swapchain image: signalled when its frame is rendered (waited on by present).
    rendered: Vec<vk::Semaphore>,
    /// Rotating acquire semaphores (one more than frames in flight).
    acquired: Vec<vk::Semaphore>,
    next_acquire: usize,
    /// Pixel format of the images.
    pub format: vk::Format,
    /// Size of the images.
    pub extent: vk::Extent2D,
    /// Whether the images can be copied out (a screenshot of the window: the renderer's
    /// readback), when the surface allows it.
    pub readable: bool,
    mode: PresentMode,
    /// The surface reported itself lost; the next `recreate` makes a new one first.
    surface_lost: bool,
    /// Images acquired so far (for `THRONG_FAULT=surface-lost:K`).
    acquires: u64,
}

impl Swapchain {
    /// A swapchain for the context's surface, `wanted` pixels if the surface lets us choose.
    pub fn new(
        ctx: &Arc<GpuContext>,
        wanted: vk::Extent2D,
        mode: PresentMode,
        frames_in_flight: usize,
    ) -> Result<Self, GpuError> {
        let loader = ash::khr::swapchain::Device::new(ctx.instance(), &ctx.device);
        let mut this = Self {
            ctx: ctx.clone(),
            loader,
            swapchain: vk::SwapchainKHR::null(),
            images: Vec::new(),
            views: Vec::new(),
            rendered: Vec::new(),
            acquired: Vec::new(),
            next_acquire: 0,
            format: vk::Format::B8G8R8A8_SRGB,
            extent: wanted,
            readable: false,
            mode,
            surface_lost: false,
            acquires: 0,
        };
        for i in 0..=frames_in_flight {
            this.acquired.push(semaphore(ctx, &format!("acquire {i}"))?);
        }
        this.recreate(wanted)?;
        Ok(this)
    }

    /// Re-creates the swapchain for a new size (or after it went out of date, or its surface
    /// was lost: then with a new surface). The caller has waited for frames that use the old
    /// images.
    pub fn recreate(&mut self, wanted: vk::Extent2D) -> Result<(), GpuError> {
        if self.surface_lost {
            self.replace_surface()?;
        }
        match self.create(wanted) {
            Err(GpuError::Vulkan {
                result: vk::Result::ERROR_SURFACE_LOST_KHR,
                ..
            }) => {
                self.replace_surface()?;
                self.create(wanted)
            }
            other => other,
        }
    }

    /// A lost surface cannot be presented to again: the swapchain goes, the context makes a
    /// new surface for the same window, and the caller's `create` makes a swapchain for it.
    fn replace_surface(&mut self) -> Result<(), GpuError> {
        self.ctx.wait_idle();
        self.destroy_images();
        if self.swapchain != vk::SwapchainKHR::null() {
            // SAFETY: the queue is idle; nothing uses the swapchain's images.
            unsafe { self.loader.destroy_swapchain(self.swapchain, None) };
            self.swapchain = vk::SwapchainKHR::null();
        }
        // SAFETY: the surface's only swapchain is gone; the window outlives the context.
        unsafe { self.ctx.replace_surface() }?;
        self.surface_lost = false;
        log::warn!("the window's surface was lost; presenting to a new one");
        Ok(())
    }

    fn create(&mut self, wanted: vk::Extent2D) -> Result<(), GpuError> {
        let (surface, surface_loader) = self
            .ctx
            .surface()
            .ok_or_else(|| GpuError::Window("the context has no surface".into()))?;
        let pd = self.ctx.physical.physical;
        // SAFETY: valid physical device and surface.
        let (caps, formats, modes) = unsafe {
            (
                surface_loader
                    .get_physical_device_surface_capabilities(pd, surface)
                    .context("reading the surface's capabilities")?,
                surface_loader
                    .get_physical_device_surface_formats(pd, surface)
                    .context("reading the surface's formats")?,
                surface_loader
                    .get_physical_device_surface_present_modes(pd, surface)
                    .context("reading the surface's present modes")?,
            )
        };
        let format = formats
            .iter()
            .find(|f| {
                matches!(
                    f.format,
                    vk::Format::B8G8R8A8_SRGB | vk::Format::R8G8B8A8_SRGB
                ) && f.color_space == vk::ColorSpaceKHR::SRGB_NONLINEAR
            })
            .or(formats.first())
            .copied()
            .ok_or_else(|| GpuError::Window("the surface offers no format".into()))?;
        let present_mode = if modes.contains(&self.mode.vk()) {
            self.mode.vk()
        } else {
            log::warn!("present mode {:?} not offered; using FIFO", self.mode);
            vk::PresentModeKHR::FIFO
        };
        let extent = if caps.current_extent.width != u32::MAX {
            caps.current_extent
        } else {
            vk::Extent2D {
                width: wanted
                    .width
                    .clamp(caps.min_image_extent.width, caps.max_image_extent.width),
                height: wanted
                    .height
                    .clamp(caps.min_image_extent.height, caps.max_image_extent.height),
            }
        };
        let mut count = caps.min_image_count + 1;
        if caps.max_image_count > 0 {
            count = count.min(caps.max_image_count);
        }
        let old = self.swapchain;
        // Copied out for a screenshot where the surface lets its images be.
        let readable = caps
            .supported_usage_flags
            .contains(vk::ImageUsageFlags::TRANSFER_SRC);
        let usage = if readable {
            vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC
        } else {
            vk::ImageUsageFlags::COLOR_ATTACHMENT
        };
        let info = vk::SwapchainCreateInfoKHR::default()
            .surface(surface)
            .min_image_count(count)
            .image_format(format.format)
            .image_color_space(format.color_space)
            .image_extent(extent)
            .image_array_layers(1)
            .image_usage(usage)
            .image_sharing_mode(vk::SharingMode::EXCLUSIVE)
            .pre_transform(caps.current_transform)
            .composite_alpha(vk::CompositeAlphaFlagsKHR::OPAQUE)
            .present_mode(present_mode)
            .clipped(true)
            .old_swapchain(old);
        // SAFETY: valid surface and create info; the old swapchain is retired by this call.
        let swapchain = unsafe { self.loader.create_swapchain(&info, None) }
            .context("creating the swapchain")?;
        // The frames' own waits cover their command buffers, not the presentation engine's
        // wait on each image's "rendered" semaphore; only an idle queue covers that, so the
        // semaphores are not destroyed while a present may still wait on one.
        self.ctx.wait_idle();
        self.destroy_images();
        if old != vk::SwapchainKHR::null() {
            // SAFETY: the caller waited for frames using the old swapchain.
            unsafe { self.loader.destroy_swapchain(old, None) };
        }
        self.swapchain = swapchain;
        self.ctx.name(swapchain, "swapchain");
        // SAFETY: the swapchain was just created.
        self.images = unsafe { self.loader.get_swapchain_images(swapchain) }
            .context("listing the swapchain images")?;
        for (i, &image) in self.images.iter().enumerate() {
            self.ctx.name(image, &format!("swapchain image {i}"));
            let view_info = vk::ImageViewCreateInfo::default()
                .image(image)
                .view_type(vk::ImageViewType::TYPE_2D)
                .format(format.format)
                .subresource_range(vk::ImageSubresourceRange {
                    aspect_mask: vk::ImageAspectFlags::COLOR,
                    base_mip_level: 0,
                    level_count: 1,
                    base_array_layer: 0,
                    layer_count: 1,
                });
            // SAFETY: a view of a swapchain image.
            let view = unsafe { self.ctx.device.create_image_view(&view_info, None) }
                .context("creating a swapchain image view")?;
            self.ctx.name(view, &format!("swapchain image {i} view"));
            self.views.push(view);
            self.rendered
                .push(semaphore(&self.ctx, &format!("rendered {i}"))?);
        }
        self.format = format.format;
        self.extent = extent;
        self.readable = readable;
        log::info!(
            "swapchain {}x{} {:?} {:?}, {} images",
            extent.width,
            extent.height,
            format.format,
            present_mode,
            self.images.len()
        );
        Ok(())
    }

    fn destroy_images(&mut self) {
        // SAFETY: the caller waited for every frame that used them.
        unsafe {
            for v in self.views.drain(..) {
                self.ctx.device.destroy_image_view(v, None);
            }
            for s in self.rendered.drain(..) {
                self.ctx.device.destroy_semaphore(s, None);
            }
        }
        self.images.clear();
    }

    /// Acquires the next image; `None` when the swapchain is out of date (recreate it).
    /// The caller has waited for the frame that last used this acquire semaphore (one
    /// more semaphore than frames in flight rotate).
    pub fn acquire(&mut self) -> Result<Option<Acquired>, GpuError> {
        let semaphore = self.acquired[self.next_acquire];
        self.acquires += 1;
        let result = if super::fault::surface_lost_at(self.acquires) {
            // Reported instead of acquiring, so no semaphore is left signalled.
            Err(vk::Result::ERROR_SURFACE_LOST_KHR)
        } else {
            // SAFETY: valid swapchain; the semaphore is unsignalled (its last wait completed).
            unsafe {
                self.loader.acquire_next_image(
                    self.swapchain,
                    ACQUIRE_TIMEOUT_NS,
                    semaphore,
                    vk::Fence::null(),
                )
            }
        };
        let index = match result {
            Ok((index, _suboptimal)) => index,
            // No image within the timeout (a window system holding its images through a storm
            // of resizes): the swapchain is made again rather than waited on for ever. The
            // semaphore was not signalled, so it stays usable.
            Err(
                result @ (vk::Result::ERROR_OUT_OF_DATE_KHR
                | vk::Result::TIMEOUT
                | vk::Result::NOT_READY),
            ) => {
                log::debug!(
                    "acquire {}: {result:?}; the swapchain is made again",
                    self.acquires
                );
                return Ok(None);
            }
            Err(vk::Result::ERROR_SURFACE_LOST_KHR) => {
                self.surface_lost = true;
                return Ok(None);
            }
            Err(result) => {
                return Err(GpuError::vulkan("acquiring a swapchain image", result));
            }
        };
        self.next_acquire = (self.next_acquire + 1) % self.acquired.len();
        let i = index as usize;
        Ok(Some(Acquired {
            index,
            target: TargetImage {
                image: self.images[i],
                view: self.views[i],
            },
            sync: FrameSync {
                wait: Some(semaphore),
                signal: Some(self.rendered[i]),
            },
        }))
    }

    /// Presents an image rendered with `acquired.sync`. Returns false when the swapchain
    /// should be recreated (out of date or suboptimal).
    pub fn present(&mut self, acquired: &Acquired) -> Result<bool, GpuError> {
        let waits = acquired.sync.signal;
        let swapchains = [self.swapchain];
        let indices = [acquired.index];
        let info = vk::PresentInfoKHR::default()
            .wait_semaphores(waits.as_slice())
            .swapchains(&swapchains)
            .image_indices(&indices);
        // SAFETY: the image was acquired and its frame submitted to signal `waits`.
        let result = self
            .ctx
            .with_queue(|queue| unsafe { self.loader.queue_present(queue, &info) });
        match result {
            Ok(false) => Ok(true),
            Ok(true) | Err(vk::Result::ERROR_OUT_OF_DATE_KHR) => Ok(false),
            Err(vk::Result::ERROR_SURFACE_LOST_KHR) => {
                self.surface_lost = true;
                Ok(false)
            }
            Err(result) => Err(GpuError::vulkan("presenting", result)),
        }
    }
}

impl Drop for Swapchain {
    fn drop(&mut self) {
        self.ctx.wait_idle();
        self.destroy_images();
        // SAFETY: the device is idle.
        unsafe {
            for s in self.acquired.drain(..) {
                self.ctx.device.destroy_semaphore(s, None);
            }
            if self.swapchain != vk::SwapchainKHR::null() {
                self.loader.destroy_swapchain(self.swapchain, None);
            }
        }
    }
}

fn semaphore(ctx: &Arc<GpuContext>, name: &str) -> Result<vk::Semaphore, GpuError> {
    // SAFETY: valid device.
    let s = unsafe {
        ctx.device
            .create_semaphore(&vk::SemaphoreCreateInfo::default(), None)
    }
    .context("creating a semaphore")?;
    ctx.name(s, name);
    Ok(s)
}
