//! The tone-mapping pass (`--tonemap`): a post-process pass, and the pattern for any other.
//! It reads the scene colour the lit passes left, writes a new scene colour through a filmic
//! curve (`shaders/tonemap.frag`), and hands that on as the frame's scene colour, so the
//! heads-up display and the output pass after it take the mapped frame. The lit passes are not
//! touched: they draw the same, whether it runs or not.

use crate::gpu::frame::declaration::FrameDeclaration;
use crate::gpu::frame::over_target;
use crate::gpu::graph::{Extent, ImageDesc, ImageKind};

/// The pass's name in labels, timings and statistics.
pub const NAME: &str = "tonemap";

/// Declares the pass when the settings ask for it (and the frame is the lit one).
pub fn declare(f: &mut FrameDeclaration) {
    if !(f.settings.tonemap && f.shape.shows_frame) {
        return;
    }
    let lit = f.frame.scene;
    let mapped = f.image(ImageDesc {
        name: "scene colour (tone mapped)",
        format: f.color_format,
        kind: ImageKind::Color,
        extent: Extent::Target,
        samples: ash::vk::SampleCountFlags::TYPE_1,
    });
    over_target::image_to_image(f, (NAME, "tonemap"), "tonemap.frag", lit, mapped);
    f.frame.scene = mapped;
}
