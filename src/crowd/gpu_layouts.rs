//! The crowd's structs the GPU reads ([`InstanceRecord`]), made by `gpu_layouts!`
//! (`crate::layouts`) from their one definition in `device_layouts.rs`, which `build.rs`
//! reads too to write the GLSL the shaders include (`crowd_layouts.glsl`). Their methods live
//! with the code that fills them (`record.rs`).

use bytemuck::{Pod, Zeroable};

use crate::anim::Mat3x4;

include!("device_layouts.rs");
