//! The heads-up display pass: the text the caller set ([`crate::gpu::Renderer::set_hud`])
//! drawn over the finished frame, one instanced strip per character (`shaders/hud.*`).
//! Declared only when the frame has text to show.

use super::{FrameDeclaration, over_target};
use crate::gpu::device::buffer::whole_buffer;
use crate::gpu::device::pipeline::VertexInput;
use crate::gpu::graph::Access;
use crate::gpu::hud::HUD_CELL;
use crate::gpu::recording::pass::Bind;

/// The pass's name in labels, timings and statistics.
pub const NAME: &str = "hud";
/// Pixels between the frame's corner and the first character.
const MARGIN_PX: u32 = 6;

/// Declares the pass when the frame's key asks for the HUD.
pub fn declare(f: &mut FrameDeclaration) {
    if !f.key.hud {
        return;
    }
    let pipeline = over_target::pipeline(
        f,
        "hud",
        ("hud.vert", "hud.frag"),
        VertexInput::GeneratedStrip,
    );
    let color = f.frame.scene;
    f.pass(NAME, move |r| {
        let Some(hud) = r.shared.hud else {
            return Ok(());
        };
        let frame = r.frame_info();
        let glyphs = whole_buffer(hud.glyphs);
        let font = whole_buffer(hud.font);
        let binds = [
            Bind::buffer("Frame", &frame),
            Bind::buffer("HudGlyphs", &glyphs),
            Bind::buffer("HudFont", &font),
        ];
        let constants = [hud.scale, MARGIN_PX, HUD_CELL[0], HUD_CELL[1]];
        // Four generated corners per character, as many characters as the glyph buffer
        // holds for this frame.
        let counts = (4, hud.count);
        over_target::draw(
            r,
            color,
            pipeline,
            &binds,
            bytemuck::bytes_of(&constants),
            counts,
        )
    })
    .write(color, Access::ColorAttachmentWrite)
    .finish();
}
