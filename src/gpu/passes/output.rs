//! The output pass: the one pass that writes the colour target. Every pass before it draws
//! into the scene colour (the lit passes, the composite, a debug view, the heads-up display);
//! this one copies it, texel for texel, into the target that is presented or read back
//! (`shaders/output.frag`, one fullscreen triangle). A post-process pass (a tonemap, an
//! outline) reads and writes the scene colour between the lit passes and this one, and
//! touches neither.

use super::{FrameDeclaration, over_target};
use crate::gpu::graph::{Access, Stages};
use crate::gpu::recording::pass::Bind;

/// The pass's name in labels, timings and statistics.
pub const NAME: &str = "output";

/// Declares the pass.
pub fn declare(f: &mut FrameDeclaration) {
    let pipeline = over_target::fullscreen(f, "output", "output.frag");
    let (scene, color) = (f.frame.scene, f.frame.color);
    f.pass(NAME, move |r| {
        let source = r.image_info(scene, r.shared.samplers.screen)?;
        let binds = [Bind::image("source", &source)];
        over_target::draw(r, color, pipeline, &binds, &[], (3, 1))
    })
    .read(scene, Access::Sampled(Stages::Fragment))
    .write(color, Access::ColorAttachmentWrite)
    .finish();
}
