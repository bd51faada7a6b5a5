//! The SPIR-V that `build.rs` compiled from `shaders/`, embedded in the binary, and shader
//! module creation.

use std::sync::Arc;

use ash::vk;

use super::context::GpuContext;
use super::error::{GpuError, VkContext};

macro_rules! spirv {
    ($file:literal) => {
        include_bytes!(concat!(env!("OUT_DIR"), "/shaders/", $file, ".spv"))
    };
}

/// Every shader `build.rs` compiled, by file name (`"cull.comp"`), in file-name order.
pub static ALL: &[(&str, &[u8])] = include!(concat!(env!("OUT_DIR"), "/shaders/table.rs"));

/// The SPIR-V of the shader compiled from `shaders/NAME`.
pub fn named(name: &str) -> Option<&'static [u8]> {
    ALL.iter()
        .find(|(n, _)| *n == name)
        .map(|(_, spirv)| *spirv)
}

/// Skinned forward pass, vertex stage.
pub const SKINNED_VERT: &[u8] = spirv!("skinned.vert");
/// Skinned forward pass, fragment stage.
pub const SKINNED_FRAG: &[u8] = spirv!("skinned.frag");
/// Ground plane, vertex stage.
pub const GROUND_VERT: &[u8] = spirv!("ground.vert");
/// Ground plane, fragment stage.
pub const GROUND_FRAG: &[u8] = spirv!("ground.frag");
/// Shadow pass: skinned positions seen from the light.
pub const SHADOW_VERT: &[u8] = spirv!("shadow.vert");
/// Depth/normal prepass, characters.
pub const DEPTH_NORMAL_FRAG: &[u8] = spirv!("depth_normal.frag");
/// Depth/normal prepass, the ground.
pub const GROUND_NORMAL_FRAG: &[u8] = spirv!("ground_normal.frag");
/// Ambient occlusion.
pub const SSAO_COMP: &[u8] = spirv!("ssao.comp");
/// Depth-aware blur of the ambient occlusion.
pub const SSAO_BLUR_COMP: &[u8] = spirv!("ssao_blur.comp");
/// Culling and level selection per instance.
pub const CULL_COMP: &[u8] = spirv!("cull.comp");
/// The indirect draws of the culled lists.
pub const CULL_DRAWS_COMP: &[u8] = spirv!("cull_draws.comp");
/// Occlusion culling of the small instances in view.
pub const CULL_LATE_COMP: &[u8] = spirv!("cull_late.comp");
/// The occlusion image: the farthest depth of each block of pixels.
pub const OCCLUSION_DEPTH_COMP: &[u8] = spirv!("occlusion_depth.comp");
/// A triangle covering the screen.
pub const FULLSCREEN_VERT: &[u8] = spirv!("fullscreen.vert");
/// The debug views.
pub const DEBUG_VIEW_FRAG: &[u8] = spirv!("debug_view.frag");

/// A shader module, destroyed on drop (pipelines keep what they need).
pub struct ShaderModule {
    ctx: Arc<GpuContext>,
    /// The module.
    pub module: vk::ShaderModule,
}

impl ShaderModule {
    /// Creates a module from the shader compiled from `shaders/NAME` ([`named`]).
    pub fn named(ctx: &Arc<GpuContext>, name: &str) -> Result<Self, GpuError> {
        let spirv = named(name).ok_or_else(|| {
            GpuError::Other(format!("no shader was compiled from shaders/{name}"))
        })?;
        Self::new(ctx, name, spirv)
    }

    /// Creates a module from SPIR-V bytes.
    pub fn new(ctx: &Arc<GpuContext>, name: &str, spirv: &[u8]) -> Result<Self, GpuError> {
        let words = ash::util::read_spv(&mut std::io::Cursor::new(spirv))
            .map_err(|e| GpuError::Other(format!("shader {name}: not SPIR-V: {e}")))?;
        let info = vk::ShaderModuleCreateInfo::default().code(&words);
        // SAFETY: valid device; `words` is SPIR-V produced by shaderc at build time.
        let module = unsafe { ctx.device.create_shader_module(&info, None) }
            .context(format!("creating shader module {name}"))?;
        ctx.name(module, name);
        Ok(Self {
            ctx: ctx.clone(),
            module,
        })
    }
}

impl Drop for ShaderModule {
    fn drop(&mut self) {
        // SAFETY: modules are only needed while pipelines are created.
        unsafe { self.ctx.device.destroy_shader_module(self.module, None) };
    }
}
