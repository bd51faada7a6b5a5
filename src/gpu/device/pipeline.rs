//! Pipelines described by what they are made of ([`PipelineDesc`]: shader file names and
//! fixed-function state), with layouts read from their shaders: each pipeline's descriptor
//! set (pushed) holds exactly the bindings its stages declare, and its push-constant range
//! covers the largest block they declare ([`super::spirv`]). The Rust side binds by the
//! shaders' names ([`Pipeline::binding`]), so no binding number is written outside the GLSL.
//!
//! [`PipelineCache`] builds each description once and hands out shared pipelines; layouts
//! with the same bindings are shared too.

use std::collections::HashMap;
use std::ffi::CStr;
use std::mem::offset_of;
use std::sync::Arc;

use ash::vk;

use super::context::GpuContext;
use super::error::GpuError;
use super::shaders::ShaderModule;
use crate::anim::Vertex;

pub use super::pipeline_desc::{
    Culling, DepthBias, DepthState, GraphicsDesc, MAX_COLOR_TARGETS, PipelineDesc, PipelineKind,
    VertexInput,
};
pub use super::pipeline_layout::{LayoutBinding, LayoutDesc, PipelineLayout};

/// A pipeline and its layout, destroyed on drop.
pub struct Pipeline {
    ctx: Arc<GpuContext>,
    /// What it was made from.
    pub desc: PipelineDesc,
    /// The pipeline.
    pub pipeline: vk::Pipeline,
    /// Its layout, from its shaders.
    pub layout: Arc<PipelineLayout>,
    /// Graphics or compute.
    pub bind_point: vk::PipelineBindPoint,
    /// A compute pipeline's workgroup size (`[1, 1, 1]` for graphics).
    pub local_size: [u32; 3],
}

impl Pipeline {
    /// The binding its shaders call `name`, if they declare one.
    pub fn binding(&self, name: &str) -> Option<&LayoutBinding> {
        self.layout.desc.bindings.iter().find(|b| b.name == name)
    }
}

impl Drop for Pipeline {
    fn drop(&mut self) {
        // SAFETY: the owner waited for the device.
        unsafe { self.ctx.device.destroy_pipeline(self.pipeline, None) };
    }
}

/// Builds pipelines from descriptions, once each; see the module documentation.
pub struct PipelineCache {
    ctx: Arc<GpuContext>,
    pipelines: HashMap<PipelineDesc, Arc<Pipeline>>,
    layouts: HashMap<LayoutDesc, Arc<PipelineLayout>>,
}

impl PipelineCache {
    /// An empty cache.
    pub fn new(ctx: &Arc<GpuContext>) -> Self {
        Self {
            ctx: ctx.clone(),
            pipelines: HashMap::new(),
            layouts: HashMap::new(),
        }
    }

    /// The pipeline `desc` describes, built the first time it is asked for.
    pub fn get(&mut self, desc: &PipelineDesc) -> Result<Arc<Pipeline>, GpuError> {
        if let Some(p) = self.pipelines.get(desc) {
            return Ok(p.clone());
        }
        let reflections = desc.reflect()?;
        let layout_desc = LayoutDesc::merge(desc.name, &reflections)?;
        let layout = match self.layouts.get(&layout_desc) {
            Some(l) => l.clone(),
            None => {
                let l = Arc::new(PipelineLayout::new(
                    &self.ctx,
                    layout_desc.clone(),
                    desc.name,
                )?);
                self.layouts.insert(layout_desc, l.clone());
                l
            }
        };
        let local_size = reflections
            .iter()
            .find(|r| r.stage == vk::ShaderStageFlags::COMPUTE)
            .map_or([1; 3], |r| r.local_size);
        let (pipeline, bind_point) = match desc.kind {
            PipelineKind::Graphics(g) => (
                graphics(&self.ctx, desc.name, &g, layout.layout)?,
                vk::PipelineBindPoint::GRAPHICS,
            ),
            PipelineKind::Compute(shader) => (
                compute(&self.ctx, desc.name, shader, layout.layout)?,
                vk::PipelineBindPoint::COMPUTE,
            ),
        };
        let p = Arc::new(Pipeline {
            ctx: self.ctx.clone(),
            desc: *desc,
            pipeline,
            layout,
            bind_point,
            local_size,
        });
        self.pipelines.insert(*desc, p.clone());
        Ok(p)
    }

    /// Forgets every pipeline it made (the caller waited for the device); those still held
    /// elsewhere live on until dropped.
    pub fn clear(&mut self) {
        self.pipelines.clear();
        self.layouts.clear();
    }

    /// How many pipelines it holds.
    pub fn len(&self) -> usize {
        self.pipelines.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.pipelines.is_empty()
    }
}

const MAIN: &CStr = c"main";

/// Creates the one pipeline a create call was asked for.
fn one(
    name: &str,
    result: Result<Vec<vk::Pipeline>, (Vec<vk::Pipeline>, vk::Result)>,
) -> Result<vk::Pipeline, GpuError> {
    result
        .map_err(|(_, result)| GpuError::vulkan(format!("creating pipeline {name}"), result))?
        .into_iter()
        .next()
        .ok_or_else(|| GpuError::Other(format!("pipeline {name} was not created")))
}

/// A graphics pipeline for dynamic rendering with viewport, scissor and front face dynamic.
fn graphics(
    ctx: &Arc<GpuContext>,
    name: &str,
    desc: &GraphicsDesc,
    layout: vk::PipelineLayout,
) -> Result<vk::Pipeline, GpuError> {
    let vert = ShaderModule::named(ctx, desc.vertex)?;
    let frag = desc
        .fragment
        .map(|f| ShaderModule::named(ctx, f))
        .transpose()?;
    let mut stages = vec![
        vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::VERTEX)
            .module(vert.module)
            .name(MAIN),
    ];
    if let Some(frag) = &frag {
        stages.push(
            vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::FRAGMENT)
                .module(frag.module)
                .name(MAIN),
        );
    }
    let bindings = [vk::VertexInputBindingDescription::default()
        .binding(0)
        .stride(size_of::<Vertex>() as u32)
        .input_rate(vk::VertexInputRate::VERTEX)];
    let attr = |location: u32, format: vk::Format, offset: usize| {
        vk::VertexInputAttributeDescription::default()
            .location(location)
            .binding(0)
            .format(format)
            .offset(offset as u32)
    };
    let attributes = [
        attr(
            0,
            vk::Format::R32G32B32_SFLOAT,
            offset_of!(Vertex, position),
        ),
        attr(1, vk::Format::R32G32B32_SFLOAT, offset_of!(Vertex, normal)),
        attr(
            2,
            vk::Format::R32G32B32A32_SFLOAT,
            offset_of!(Vertex, tangent),
        ),
        attr(3, vk::Format::R32G32_SFLOAT, offset_of!(Vertex, uv)),
        attr(4, vk::Format::R16G16B16A16_UINT, offset_of!(Vertex, joints)),
        attr(
            5,
            vk::Format::R32G32B32A32_SFLOAT,
            offset_of!(Vertex, weights),
        ),
    ];
    // Position, joints and weights: what a position-only skinned vertex shader reads.
    let position_attributes = [attributes[0], attributes[4], attributes[5]];
    let position_uv = [attributes[0], attributes[3], attributes[4], attributes[5]];
    let no_tangent = [
        attributes[0],
        attributes[1],
        attributes[3],
        attributes[4],
        attributes[5],
    ];
    let vertex_input = match desc.input {
        VertexInput::Skinned => vk::PipelineVertexInputStateCreateInfo::default()
            .vertex_binding_descriptions(&bindings)
            .vertex_attribute_descriptions(&attributes),
        VertexInput::SkinnedPosition => vk::PipelineVertexInputStateCreateInfo::default()
            .vertex_binding_descriptions(&bindings)
            .vertex_attribute_descriptions(&position_attributes),
        VertexInput::SkinnedPositionUv => vk::PipelineVertexInputStateCreateInfo::default()
            .vertex_binding_descriptions(&bindings)
            .vertex_attribute_descriptions(&position_uv),
        VertexInput::SkinnedNoTangent => vk::PipelineVertexInputStateCreateInfo::default()
            .vertex_binding_descriptions(&bindings)
            .vertex_attribute_descriptions(&no_tangent),
        VertexInput::Generated | VertexInput::GeneratedStrip => {
            vk::PipelineVertexInputStateCreateInfo::default()
        }
    };
    let topology = match desc.input {
        VertexInput::GeneratedStrip => vk::PrimitiveTopology::TRIANGLE_STRIP,
        _ => vk::PrimitiveTopology::TRIANGLE_LIST,
    };
    let assembly = vk::PipelineInputAssemblyStateCreateInfo::default().topology(topology);
    let viewport = vk::PipelineViewportStateCreateInfo::default()
        .viewport_count(1)
        .scissor_count(1);
    let bias = desc.depth.and_then(|d| d.bias);
    let raster = vk::PipelineRasterizationStateCreateInfo::default()
        .polygon_mode(vk::PolygonMode::FILL)
        .cull_mode(match desc.culling {
            Culling::Back => vk::CullModeFlags::BACK,
            Culling::Front => vk::CullModeFlags::FRONT,
            Culling::None => vk::CullModeFlags::NONE,
        })
        .front_face(vk::FrontFace::COUNTER_CLOCKWISE)
        .depth_bias_enable(bias.is_some())
        .depth_bias_constant_factor(bias.map_or(0.0, |b| b.constant))
        .depth_bias_slope_factor(bias.map_or(0.0, |b| b.slope))
        .line_width(1.0);
    let multisample =
        vk::PipelineMultisampleStateCreateInfo::default().rasterization_samples(desc.samples);
    let depth = match desc.depth {
        Some(d) => vk::PipelineDepthStencilStateCreateInfo::default()
            .depth_test_enable(true)
            .depth_write_enable(d.write)
            .depth_compare_op(d.compare),
        None => vk::PipelineDepthStencilStateCreateInfo::default(),
    };
    let color_formats: Vec<vk::Format> = desc
        .color
        .into_iter()
        .chain(desc.more_colors.iter().copied())
        .collect();
    let blend_attachments = [vk::PipelineColorBlendAttachmentState::default()
        .color_write_mask(vk::ColorComponentFlags::RGBA);
        MAX_COLOR_TARGETS];
    let Some(blend_attachments) = blend_attachments.get(..color_formats.len()) else {
        return Err(GpuError::Other(format!(
            "{name}: {} colour targets (at most {MAX_COLOR_TARGETS})",
            color_formats.len()
        )));
    };
    let blend = vk::PipelineColorBlendStateCreateInfo::default().attachments(blend_attachments);
    let dynamic_states = [
        vk::DynamicState::VIEWPORT,
        vk::DynamicState::SCISSOR,
        vk::DynamicState::FRONT_FACE,
    ];
    let dynamic = vk::PipelineDynamicStateCreateInfo::default().dynamic_states(&dynamic_states);
    let mut rendering = vk::PipelineRenderingCreateInfo::default()
        .color_attachment_formats(&color_formats)
        .depth_attachment_format(desc.depth.map_or(vk::Format::UNDEFINED, |d| d.format));
    let info = vk::GraphicsPipelineCreateInfo::default()
        .stages(&stages)
        .vertex_input_state(&vertex_input)
        .input_assembly_state(&assembly)
        .viewport_state(&viewport)
        .rasterization_state(&raster)
        .multisample_state(&multisample)
        .depth_stencil_state(&depth)
        .color_blend_state(&blend)
        .dynamic_state(&dynamic)
        .layout(layout)
        .push_next(&mut rendering);
    // SAFETY: every referenced structure lives until the call returns.
    let pipeline = one(name, unsafe {
        ctx.device
            .create_graphics_pipelines(vk::PipelineCache::null(), &[info], None)
    })?;
    ctx.name(pipeline, name);
    Ok(pipeline)
}

/// A compute pipeline.
fn compute(
    ctx: &Arc<GpuContext>,
    name: &str,
    shader: &str,
    layout: vk::PipelineLayout,
) -> Result<vk::Pipeline, GpuError> {
    let module = ShaderModule::named(ctx, shader)?;
    let stage = vk::PipelineShaderStageCreateInfo::default()
        .stage(vk::ShaderStageFlags::COMPUTE)
        .module(module.module)
        .name(MAIN);
    let info = vk::ComputePipelineCreateInfo::default()
        .stage(stage)
        .layout(layout);
    // SAFETY: valid device, shader and layout.
    let pipeline = one(name, unsafe {
        ctx.device
            .create_compute_pipelines(vk::PipelineCache::null(), &[info], None)
    })?;
    ctx.name(pipeline, name);
    Ok(pipeline)
}
