//! The renderer's structs the GPU reads (the looks, [`GpuLook`]; the culling pass's tables,
//! [`CullFrame`], [`CullModel`], [`CullBound`], [`DrawCommand`], [`CardCommand`],
//! [`DrawViews`]; the frame's uniforms and a draw's material, [`FrameData`],
//! [`DrawConstants`]; the HUD's characters, [`HudGlyph`]), made by `gpu_layouts!`
//! (`crate::layouts`) from their one definition in `device_layouts.rs`, which `build.rs`
//! reads too to write the GLSL the shaders include (`renderer_layouts.glsl`). Their methods
//! live with the code that fills them (`looks_table.rs`, `culling/`, `uniforms/`, `hud.rs`).

use bytemuck::{Pod, Zeroable};
use glam::{Mat4, Vec4};

use crate::crowd::MAX_LOOK_TINTS;
use crate::gpu::frame::shader_interface::SSAO_KERNEL;

include!("device_layouts.rs");
