//! The readback pass (headless only): copies the colour target into a host-readable buffer,
//! tightly packed rows, so frames can be checked and written as PNG. Without it the target
//! is the graph's output.

use crate::gpu::device::error::GpuError;
use crate::gpu::device::image::whole_color_copy;
use crate::gpu::frame::declaration::FrameDeclaration;
use crate::gpu::frame::recording::pass::PassRecording;
use crate::gpu::graph::{Access, ResourceId};

/// The pass's name in labels, timings and statistics.
pub const NAME: &str = "readback";

/// Declares the copy when the frame is read back; otherwise marks the target as the output.
pub fn declare(f: &mut FrameDeclaration) {
    let frame = f.frame;
    if f.key.readback {
        f.pass(NAME, move |r| record(r, frame.color, frame.readback))
            .read(frame.color, Access::TransferSrc)
            .write(frame.readback, Access::TransferDst)
            .finish();
    } else {
        f.mark_output(frame.color);
    }
}

fn record(r: &PassRecording<'_>, color: ResourceId, readback: ResourceId) -> Result<(), GpuError> {
    let (image, _, layout) = r.image(color)?;
    let (buffer, _, _) = r.buffer(readback)?;
    let region = whole_color_copy(r.extent());
    // SAFETY: the graph put the image in `layout` for transfer reads; the buffer holds
    // width * height * 4 bytes (made with the target).
    unsafe {
        r.ctx
            .device
            .cmd_copy_image_to_buffer(r.cmd, image, layout, buffer, &[region]);
    }
    Ok(())
}
