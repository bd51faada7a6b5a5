//! The heads-up display pass: the text the caller set ([`crate::gpu::Renderer::set_hud`])
//! drawn over the finished frame, one instanced strip per character (`shaders/hud.*`).
//! Declared only when the frame has text to show.

use crate::gpu::device::pipeline::VertexInput;
use crate::gpu::features::hud::{FONT, GLYPHS, HUD_CELL, HudFrame};
use crate::gpu::frame::declaration::FrameDeclaration;
use crate::gpu::frame::over_target;
use crate::gpu::frame::recording::pass::Bind;
use crate::gpu::graph::{Access, Stages};

/// The pass's name in labels, timings and statistics.
pub const NAME: &str = "hud";
/// The host's part: this frame in flight's glyphs written before submission.
pub const HOST: &str = "hud_host";
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
    // The feature's own buffers, imported: the host writes this frame in flight's glyphs
    // before submission.
    let (glyphs, font) = (f.imported_buffer(GLYPHS), f.persistent_buffer(FONT));
    f.host_step(HOST).write(glyphs, Access::HostWrite).finish();
    f.pass(NAME, move |r| {
        let Some(hud) = r.feature::<HudFrame>() else {
            return Ok(());
        };
        let frame = r.frame_info();
        let (glyphs, font) = (r.buffer_info(glyphs)?, r.buffer_info(font)?);
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
    .read(glyphs, Access::StorageRead(Stages::Vertex))
    .read(font, Access::StorageRead(Stages::Fragment))
    .write(color, Access::ColorAttachmentWrite)
    .finish();
}
