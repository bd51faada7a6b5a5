//! The CPU's part of the frame, as the graph sees it: before submission the crowd writes its
//! instance records and palettes into the ring slot and the renderer writes the culling
//! inputs. Declared as host writes, so the graph knows every later device read depends on
//! them (submission makes host writes visible: no barrier) and refuses a device use of
//! either buffer declared before them. Records nothing.

use crate::gpu::frame::declaration::FrameDeclaration;
use crate::gpu::graph::Access;

/// The step's name in the graph's log.
pub const NAME: &str = "palettes";

/// Declares the host writes.
pub fn declare(f: &mut FrameDeclaration) {
    let frame = f.frame;
    f.host_step(NAME)
        .write(frame.ring, Access::HostWrite)
        .write(frame.cull_inputs, Access::HostWrite)
        .finish();
}
