//! Every pipeline the passes draw and dispatch with ([`Pipelines`]), built once (and again
//! when the face culling changes).

use std::sync::Arc;

use ash::vk;

use super::device::context::GpuContext;
use super::device::error::GpuError;
use super::device::shaders::ShaderModule;
use super::passes::{DEPTH_FORMAT, NORMAL_FORMAT};
use super::pipeline_builder::{Culling, DepthState, Layouts, Pipeline, PipelineDesc, VertexInput};

/// Every pipeline the passes draw with.
pub struct Pipelines {
    /// Shared layouts.
    pub layouts: Layouts,
    /// Characters, forward, testing and writing depth (no prepass).
    pub forward_less: Pipeline,
    /// Characters, forward, equal depth test after the prepass.
    pub forward_equal: Pipeline,
    /// The ground, forward, testing and writing depth.
    pub ground_less: Pipeline,
    /// The ground, forward, equal depth test.
    pub ground_equal: Pipeline,
    /// Characters, depth and normals.
    pub depth_normal: Pipeline,
    /// The ground, depth and normals.
    pub ground_normal: Pipeline,
    /// Characters from the light.
    pub shadow: Pipeline,
    /// Ambient occlusion (compute).
    pub ssao: Pipeline,
    /// Its blur (compute).
    pub ssao_blur: Pipeline,
    /// Fullscreen debug views.
    pub debug_view: Pipeline,
    /// Culling and level selection (compute).
    pub cull: Pipeline,
    /// The culled lists' indirect draws (compute).
    pub cull_draws: Pipeline,
    /// Occlusion culling of the small instances (compute).
    pub cull_late: Pipeline,
    /// The occlusion image (compute).
    pub occlusion_depth: Pipeline,
}

/// Depth bias of the shadow pass (constant, slope): enough that lit surfaces do not shadow
/// themselves at grazing angles, little enough that feet keep their contact shadows.
const SHADOW_BIAS: (f32, f32) = (1.5, 2.0);

/// The shader modules, created once.
struct Modules {
    skinned_vert: ShaderModule,
    skinned_frag: ShaderModule,
    depth_normal_frag: ShaderModule,
    ground_vert: ShaderModule,
    ground_frag: ShaderModule,
    ground_normal_frag: ShaderModule,
    shadow_vert: ShaderModule,
    fullscreen_vert: ShaderModule,
    debug_view_frag: ShaderModule,
    ssao: ShaderModule,
    ssao_blur: ShaderModule,
    cull: ShaderModule,
    cull_draws: ShaderModule,
    cull_late: ShaderModule,
    occlusion_depth: ShaderModule,
}

impl Modules {
    fn new(ctx: &Arc<GpuContext>) -> Result<Self, GpuError> {
        let m = |name: &str| ShaderModule::named(ctx, name);
        Ok(Self {
            skinned_vert: m("skinned.vert")?,
            skinned_frag: m("skinned.frag")?,
            depth_normal_frag: m("depth_normal.frag")?,
            ground_vert: m("ground.vert")?,
            ground_frag: m("ground.frag")?,
            ground_normal_frag: m("ground_normal.frag")?,
            shadow_vert: m("shadow.vert")?,
            fullscreen_vert: m("fullscreen.vert")?,
            debug_view_frag: m("debug_view.frag")?,
            ssao: m("ssao.comp")?,
            ssao_blur: m("ssao_blur.comp")?,
            cull: m("cull.comp")?,
            cull_draws: m("cull_draws.comp")?,
            cull_late: m("cull_late.comp")?,
            occlusion_depth: m("occlusion_depth.comp")?,
        })
    }
}

fn depth(compare: vk::CompareOp, write: bool) -> Option<DepthState> {
    Some(DepthState {
        format: DEPTH_FORMAT,
        compare,
        write,
        bias: None,
    })
}

/// Builds every pipeline for a colour target of `color`, culling characters' `culling` faces;
/// the camera's passes (prepass and forward) render `samples` samples per pixel, the shadow
/// map and the debug views one.
pub fn build(
    ctx: &Arc<GpuContext>,
    color: vk::Format,
    culling: Culling,
    samples: vk::SampleCountFlags,
) -> Result<Pipelines, GpuError> {
    let m = Modules::new(ctx)?;
    let layouts = Layouts::new(ctx)?;
    let graphics = |name: &str,
                    samples: vk::SampleCountFlags,
                    input: VertexInput,
                    color: Option<vk::Format>,
                    depth: Option<DepthState>,
                    culling: Culling,
                    vert: &ShaderModule,
                    frag: Option<&ShaderModule>| {
        Pipeline::new(
            ctx,
            &layouts,
            &PipelineDesc {
                name,
                input,
                color,
                depth,
                culling,
                samples,
            },
            vert,
            frag,
        )
    };
    let (less, equal) = (vk::CompareOp::LESS, vk::CompareOp::EQUAL);
    let skinned = VertexInput::Skinned;
    let generated = VertexInput::Generated;
    let c = Some(color);
    let n = Some(NORMAL_FORMAT);
    // Only the camera's passes are multisampled: the shadow map and the debug views (drawn
    // straight into the target) have one sample.
    let one = vk::SampleCountFlags::TYPE_1;
    Ok(Pipelines {
        forward_less: graphics(
            "forward (depth less)",
            samples,
            skinned,
            c,
            depth(less, true),
            culling,
            &m.skinned_vert,
            Some(&m.skinned_frag),
        )?,
        forward_equal: graphics(
            "forward (depth equal)",
            samples,
            skinned,
            c,
            depth(equal, false),
            culling,
            &m.skinned_vert,
            Some(&m.skinned_frag),
        )?,
        ground_less: graphics(
            "ground (depth less)",
            samples,
            generated,
            c,
            depth(less, true),
            Culling::None,
            &m.ground_vert,
            Some(&m.ground_frag),
        )?,
        ground_equal: graphics(
            "ground (depth equal)",
            samples,
            generated,
            c,
            depth(equal, false),
            Culling::None,
            &m.ground_vert,
            Some(&m.ground_frag),
        )?,
        depth_normal: graphics(
            "depth+normal",
            samples,
            skinned,
            n,
            depth(less, true),
            culling,
            &m.skinned_vert,
            Some(&m.depth_normal_frag),
        )?,
        ground_normal: graphics(
            "ground depth+normal",
            samples,
            generated,
            n,
            depth(less, true),
            Culling::None,
            &m.ground_vert,
            Some(&m.ground_normal_frag),
        )?,
        // Back faces cast (front faces culled, with each model's own front face): half the
        // triangles to rasterize, and the surfaces facing the sun are not in the map to
        // shadow themselves.
        shadow: graphics(
            "shadow",
            one,
            VertexInput::SkinnedPosition,
            None,
            Some(DepthState {
                format: DEPTH_FORMAT,
                compare: less,
                write: true,
                bias: Some(SHADOW_BIAS),
            }),
            Culling::Front,
            &m.shadow_vert,
            None,
        )?,
        debug_view: graphics(
            "debug view",
            one,
            generated,
            c,
            None,
            Culling::None,
            &m.fullscreen_vert,
            Some(&m.debug_view_frag),
        )?,
        ssao: Pipeline::compute(ctx, &layouts, "ssao", &m.ssao)?,
        ssao_blur: Pipeline::compute(ctx, &layouts, "ssao blur", &m.ssao_blur)?,
        cull: Pipeline::compute_with(ctx, layouts.cull, "cull", &m.cull)?,
        cull_draws: Pipeline::compute_with(ctx, layouts.cull, "cull draws", &m.cull_draws)?,
        cull_late: Pipeline::compute_with(ctx, layouts.cull, "cull late", &m.cull_late)?,
        occlusion_depth: Pipeline::compute(ctx, &layouts, "occlusion depth", &m.occlusion_depth)?,
        layouts,
    })
}
