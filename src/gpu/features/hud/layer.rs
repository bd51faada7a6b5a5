//! The HUD's state on the device: the text shown, the font, and per frame in flight the glyph
//! buffer the text is copied into before a frame that shows it.

use std::sync::Arc;

use ash::vk;
use gpu_allocator::MemoryLocation;

use crate::gpu::device::buffer::GpuBuffer;
use crate::gpu::device::context::GpuContext;
use crate::gpu::device::error::GpuError;
use crate::gpu::features::hud::text::{HudGlyph, HudText, MAX_HUD_GLYPHS, font_words};
use crate::gpu::frame::recording::features::FeatureFrame;

/// The buffers the HUD pass imports by these names.
pub const GLYPHS: &str = "hud glyphs";
/// See [`GLYPHS`].
pub const FONT: &str = "hud font";

/// What the HUD pass draws this frame, beside its buffers.
#[derive(Clone, Copy, Debug)]
pub struct HudFrame {
    /// Glyphs to draw.
    pub count: u32,
    /// Pixels per font pixel.
    pub scale: u32,
}

/// See the module documentation.
pub struct HudLayer {
    /// What the frames show from the next on (empty: no display).
    text: HudText,
    font: GpuBuffer,
    /// Per frame in flight.
    glyphs: Vec<GpuBuffer>,
}

impl HudLayer {
    /// An empty display, with glyph buffers for `slots` frames in flight.
    pub fn new(ctx: &Arc<GpuContext>, slots: usize) -> Result<Self, GpuError> {
        let glyphs = (0..slots)
            .map(|slot| {
                GpuBuffer::new(
                    ctx,
                    &format!("frame {slot} hud glyphs"),
                    (MAX_HUD_GLYPHS * size_of::<HudGlyph>()) as u64,
                    vk::BufferUsageFlags::STORAGE_BUFFER,
                    MemoryLocation::CpuToGpu,
                    16,
                )
            })
            .collect::<Result<_, _>>()?;
        Ok(Self {
            text: HudText::new(),
            font: GpuBuffer::with_data(
                ctx,
                "hud font",
                vk::BufferUsageFlags::STORAGE_BUFFER,
                bytemuck::cast_slice(&font_words()),
            )?,
            glyphs,
        })
    }

    /// Shows `text` from the next frame on (`None`: nothing); copied without allocating.
    pub fn set(&mut self, text: Option<&HudText>) {
        match text {
            Some(t) => self.text.copy_from(t),
            None => self.text.clear(),
        }
    }

    /// Whether the frames show a display.
    pub fn is_shown(&self) -> bool {
        !self.text.is_empty()
    }

    /// Frame in flight `slot`'s glyphs written (the frame's last use of them is done); what its
    /// HUD pass draws, which [`Self::hand`] gives the frame. `None` when nothing is shown.
    pub fn prepare(&self, slot: usize) -> Result<Option<HudFrame>, GpuError> {
        if !self.is_shown() {
            return Ok(None);
        }
        self.slot_glyphs(slot)?
            .write(0, bytemuck::cast_slice(self.text.glyphs()))?;
        Ok(Some(HudFrame {
            count: self.text.glyphs().len() as u32,
            scale: self.text.scale(),
        }))
    }

    /// Hands frame in flight `slot` the glyphs and font (imported by name) and `frame`.
    pub fn hand<'a>(
        &self,
        slot: usize,
        frame: &'a HudFrame,
        to: &mut FeatureFrame<'a>,
    ) -> Result<(), GpuError> {
        to.import(GLYPHS, self.slot_glyphs(slot)?.buffer)?;
        to.import(FONT, self.font.buffer)?;
        to.provide(frame)
    }

    fn slot_glyphs(&self, slot: usize) -> Result<&GpuBuffer, GpuError> {
        self.glyphs
            .get(slot)
            .ok_or_else(|| GpuError::Other(format!("no HUD glyph buffer for slot {slot}")))
    }
}
