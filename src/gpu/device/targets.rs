//! What a frame renders into and what it waits on and signals: the handles the swapchain and
//! the offscreen target give the renderer, and the submission takes.

use ash::vk;

/// The image a frame is drawn into.
#[derive(Clone, Copy, Debug)]
pub struct TargetImage {
    /// The image.
    pub image: vk::Image,
    /// Its view.
    pub view: vk::ImageView,
}

/// Semaphores a windowed frame waits on and signals (binary; none when headless).
#[derive(Clone, Copy, Debug, Default)]
pub struct FrameSync {
    /// Signalled when the swapchain image is acquired.
    pub wait: Option<vk::Semaphore>,
    /// Signalled when rendering is done, for presentation.
    pub signal: Option<vk::Semaphore>,
}
