//! `GpuError`: everything the renderer can fail with, as values with context.

use ash::vk;
use thiserror::Error;

/// The packages that give a Debian/Ubuntu machine a Vulkan loader and a software device.
pub const INSTALL_HINT: &str = "install a Vulkan loader and driver (Debian/Ubuntu: apt-get install libvulkan1 mesa-vulkan-drivers)";

/// Why the renderer failed.
#[derive(Debug, Error)]
pub enum GpuError {
    /// `libvulkan.so.1` could not be loaded.
    #[error("no Vulkan loader ({0}); {INSTALL_HINT}")]
    NoLoader(String),
    /// The loader found no usable device.
    #[error("no Vulkan device{0}; {INSTALL_HINT}")]
    NoDevice(String),
    /// `--device` matched no usable device.
    #[error("no usable Vulkan device's name contains '{wanted}' (usable: {found})")]
    NoSuchDevice {
        /// What was asked for.
        wanted: String,
        /// The usable devices' names.
        found: String,
    },
    /// The chosen device lacks something the renderer needs.
    #[error("device {device} cannot run throng: it lacks {missing}")]
    Unsupported {
        /// Device name.
        device: String,
        /// What is missing.
        missing: String,
    },
    /// A Vulkan call failed.
    #[error("{what}: {result}")]
    Vulkan {
        /// What was being done.
        what: String,
        /// The driver's answer.
        result: vk::Result,
    },
    /// The device stopped working (`VK_ERROR_DEVICE_LOST`): a driver reset, a hang the
    /// driver gave up on, a crash. Nothing more can be drawn with it.
    #[error(
        "the GPU was lost while {what} (VK_ERROR_DEVICE_LOST: the driver reset it or it \
         crashed); nothing more can be drawn"
    )]
    DeviceLost {
        /// What was being done.
        what: String,
    },
    /// gpu-allocator failed.
    #[error("allocating {what}: {source}")]
    Allocation {
        /// What the memory was for.
        what: String,
        /// The allocator's error.
        source: gpu_allocator::AllocationError,
    },
    /// The window system failed.
    #[error("window: {0}")]
    Window(String),
    /// Something the renderer drives failed (the palette ring, the crowd writing into it);
    /// converted where the renderer meets it, so this floor names none of them.
    #[error(transparent)]
    Upstream(Box<dyn std::error::Error + Send + Sync>),
    /// The frame graph rejected its passes.
    #[error("frame graph: {0}")]
    Graph(String),
    /// Anything else, described.
    #[error("{0}")]
    Other(String),
}

/// Adds "what was being done" to a raw Vulkan result.
pub trait VkContext<T> {
    /// Wraps an error with `what`.
    fn context(self, what: impl Into<String>) -> Result<T, GpuError>;
}

impl<T> VkContext<T> for Result<T, vk::Result> {
    fn context(self, what: impl Into<String>) -> Result<T, GpuError> {
        self.map_err(|result| GpuError::vulkan(what, result))
    }
}

impl GpuError {
    /// A failed Vulkan call: [`GpuError::DeviceLost`] for a lost device, else
    /// [`GpuError::Vulkan`].
    pub fn vulkan(what: impl Into<String>, result: vk::Result) -> Self {
        if result == vk::Result::ERROR_DEVICE_LOST {
            GpuError::DeviceLost { what: what.into() }
        } else {
            GpuError::Vulkan {
                what: what.into(),
                result,
            }
        }
    }

    /// Whether the device is gone.
    pub fn is_device_lost(&self) -> bool {
        matches!(self, GpuError::DeviceLost { .. })
    }
}
