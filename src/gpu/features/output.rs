//! The output pass: the one pass that writes the colour target. Every pass before it draws
//! into the scene colour (the lit passes, the composite, a debug view, the heads-up display);
//! this one copies it, texel for texel, into the target that is presented or read back
//! (`shaders/output.frag`, one fullscreen triangle). A post-process pass (a tonemap, an
//! outline) reads and writes the scene colour between the lit passes and this one, and
//! touches neither.

use crate::gpu::frame::declaration::FrameDeclaration;
use crate::gpu::frame::over_target;

/// The pass's name in labels, timings and statistics.
pub const NAME: &str = "output";

/// Declares the pass.
pub fn declare(f: &mut FrameDeclaration) {
    let (scene, color) = (f.frame.scene, f.frame.color);
    over_target::image_to_image(f, (NAME, "output"), "output.frag", scene, color);
}
