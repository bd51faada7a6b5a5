//! `HeadlessRenderer`: a renderer and an offscreen target on a device of their own, the
//! shortest way from a crowd to pixels (tests, screenshots, `bench frame`).

use std::sync::Arc;

use ash::vk;

use crate::anim::{Mat3x4, SkinnedModel};
use crate::crowd::Crowd;
use crate::gpu::device::context::{ContextOptions, GpuContext};
use crate::gpu::device::error::GpuError;
use crate::gpu::device::offscreen::{OFFSCREEN_FORMAT, Offscreen, Pixels};
use crate::gpu::device::targets::FrameSync;
use crate::gpu::frame::frame_io::{FrameInputs, FrameTimes};
use crate::gpu::renderer::{Presentation, Renderer};

/// A headless renderer; see the module documentation.
pub struct HeadlessRenderer {
    // Declared before the context they were made on: dropped first.
    renderer: Renderer,
    offscreen: Offscreen,
    ctx: Arc<GpuContext>,
}

impl HeadlessRenderer {
    /// A device chosen by `options`, and `width` x `height` frames.
    pub fn new(options: &ContextOptions, width: u32, height: u32) -> Result<Self, GpuError> {
        // SAFETY: no window.
        let ctx = unsafe { GpuContext::new(options, None) }?;
        let extent = vk::Extent2D { width, height };
        let renderer = Renderer::new(&ctx, OFFSCREEN_FORMAT, extent, Presentation::Offscreen)?;
        let offscreen = Offscreen::new(&ctx, extent)?;
        Ok(Self {
            renderer,
            offscreen,
            ctx,
        })
    }

    /// The device.
    pub fn context(&self) -> &Arc<GpuContext> {
        &self.ctx
    }

    /// The renderer, for what this wrapper does not forward.
    pub fn renderer(&mut self) -> &mut Renderer {
        &mut self.renderer
    }

    /// Uploads a model (in the crowd's model order); see [`Renderer::add_model`].
    pub fn add_model(&mut self, model: &SkinnedModel, basis: &Mat3x4) -> Result<(), GpuError> {
        self.renderer.add_model(model, basis)
    }

    /// Renders a frame without reading it back.
    pub fn render(
        &mut self,
        crowd: &mut Crowd,
        inputs: &FrameInputs,
    ) -> Result<FrameTimes, GpuError> {
        self.render_into(crowd, inputs, false)
    }

    /// Renders a frame that is also copied for reading back with [`Self::pixels`].
    pub fn render_for_readback(
        &mut self,
        crowd: &mut Crowd,
        inputs: &FrameInputs,
    ) -> Result<FrameTimes, GpuError> {
        self.render_into(crowd, inputs, true)
    }

    /// Renders a frame into the offscreen target, copied for reading back when `readback`.
    fn render_into(
        &mut self,
        crowd: &mut Crowd,
        inputs: &FrameInputs,
        readback: bool,
    ) -> Result<FrameTimes, GpuError> {
        let copy = readback.then(|| self.offscreen.readback_buffer());
        let target = self.offscreen.target();
        self.renderer
            .render(crowd, inputs, target, FrameSync::default(), copy)
    }

    /// Waits for every frame, then returns the pixels of the last one rendered with
    /// [`Self::render_for_readback`].
    pub fn pixels(&self) -> Result<Pixels, GpuError> {
        self.renderer.wait_idle()?;
        self.offscreen.pixels()
    }

    /// Renders a frame, waits for it and returns its pixels.
    pub fn render_pixels(
        &mut self,
        crowd: &mut Crowd,
        inputs: &FrameInputs,
    ) -> Result<Pixels, GpuError> {
        self.render_for_readback(crowd, inputs)?;
        self.pixels()
    }

    /// Changes the frame size (waits for frames in flight).
    pub fn resize(&mut self, width: u32, height: u32) -> Result<(), GpuError> {
        let extent = vk::Extent2D { width, height };
        self.renderer.resize(extent)?;
        if self.offscreen.extent() != extent {
            self.offscreen = Offscreen::new(&self.ctx, extent)?;
        }
        Ok(())
    }

    /// Frame size.
    pub fn extent(&self) -> vk::Extent2D {
        self.offscreen.extent()
    }

    /// Waits for every frame submitted so far.
    pub fn wait_idle(&self) -> Result<(), GpuError> {
        self.renderer.wait_idle()
    }
}
