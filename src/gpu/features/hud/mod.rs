//! The heads-up display: lines of text drawn over the frame by the `hud` pass
//! (`gpu::features::hud::pass`, `shaders/hud.*`), each character an 8x8 bitmap glyph (the `font8x8`
//! crate's ASCII set) on a half-dark background, in the frame's top-left corner.
//!
//! The caller composes a [`HudText`] (a fixed capacity, so composing it every frame allocates
//! nothing) and hands it to [`Renderer::set_hud`](crate::gpu::Renderer::set_hud). The feature's state is its
//! own ([`HudLayer`], held by the renderer as one field): the text shown, the font on the
//! device, and per frame in flight the glyph buffer the text is copied into before each
//! frame that shows it; its pass is `gpu::features::hud::pass`.

mod layer;
pub mod pass;
mod text;

pub use layer::{FONT, GLYPHS, HudFrame, HudLayer};
pub use text::{HUD_CELL, HudColor, HudGlyph, HudText, MAX_HUD_GLYPHS, font_words};
