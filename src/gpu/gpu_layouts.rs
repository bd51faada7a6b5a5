//! The renderer's structs the GPU reads ([`GpuLook`]), made by `gpu_layouts!`
//! (`crate::layouts`) from their one definition in `device_layouts.rs`, which `build.rs`
//! reads too to write the GLSL the shaders include (`renderer_layouts.glsl`). Their methods
//! live with the code that fills them (`looks_table.rs`).

use bytemuck::{Pod, Zeroable};

use crate::crowd::MAX_LOOK_TINTS;

include!("device_layouts.rs");
