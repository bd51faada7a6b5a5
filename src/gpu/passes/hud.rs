//! The heads-up display pass: the text the caller set ([`crate::gpu::Renderer::set_hud`])
//! drawn over the finished frame, one instanced strip per character (`shaders/hud.*`).
//! Declared only when the frame has text to show.

use ash::vk;

use super::FrameDeclaration;
use crate::gpu::device::buffer::whole_buffer;
use crate::gpu::device::pipeline::{
    Culling, GraphicsDesc, PipelineDesc, PipelineKind, VertexInput,
};
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
    let pipeline = f.pipeline(PipelineDesc {
        name: "hud",
        kind: PipelineKind::Graphics(GraphicsDesc {
            vertex: "hud.vert",
            fragment: Some("hud.frag"),
            input: VertexInput::GeneratedStrip,
            color: Some(f.color_format),
            more_colors: &[],
            depth: None,
            culling: Culling::None,
            samples: vk::SampleCountFlags::TYPE_1,
        }),
    });
    let color = f.frame.color;
    f.pass(NAME, move |r| {
        let Some(hud) = r.shared.hud else {
            return Ok(());
        };
        let target = [r.attachment(color, None)?];
        let frame = r.frame_info();
        let glyphs = whole_buffer(hud.glyphs);
        let font = whole_buffer(hud.font);
        let pipeline = r.pipeline(pipeline)?;
        r.begin_rendering(r.extent(), &target, None);
        r.bind(pipeline);
        let pushed = r
            .push(
                pipeline,
                &[
                    Bind::buffer("Frame", &frame),
                    Bind::buffer("HudGlyphs", &glyphs),
                    Bind::buffer("HudFont", &font),
                ],
            )
            .and_then(|()| {
                let constants = [hud.scale, MARGIN_PX, HUD_CELL[0], HUD_CELL[1]];
                r.push_constants(pipeline, bytemuck::bytes_of(&constants))
            });
        // SAFETY: inside the rendering; four generated corners per character, as many
        // characters as the glyph buffer holds for this frame.
        unsafe {
            r.ctx
                .cmd_set_front_face(r.cmd, vk::FrontFace::COUNTER_CLOCKWISE);
            r.ctx.device.cmd_draw(r.cmd, 4, hud.count, 0, 0);
        }
        r.end_rendering();
        pushed
    })
    .write(color, Access::ColorAttachmentWrite)
    .finish();
}
