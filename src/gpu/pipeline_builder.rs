//! The descriptor and pipeline layouts every pass shares, and graphics pipelines built for
//! dynamic rendering.
//!
//! All passes use one push-descriptor set layout (bindings from `shader_interface.rs`) and
//! one push-constant range, so a pass pushes only what its shaders read and pipelines can be
//! switched within a pass without rebinding anything.

use std::ffi::CStr;
use std::mem::offset_of;
use std::sync::Arc;

use ash::vk;

use super::cull_data::DrawViews;
use super::device::context::GpuContext;
use super::device::error::{GpuError, VkContext};
use super::device::shaders::ShaderModule;
use super::uniforms::DrawConstants;
use crate::anim::Vertex;

pub use super::shader_interface::BINDING_AO;
pub use super::shader_interface::BINDING_BAKED;
pub use super::shader_interface::BINDING_BASE_COLOR;
pub use super::shader_interface::BINDING_DEBUG_SOURCE;
pub use super::shader_interface::BINDING_FRAME;
pub use super::shader_interface::BINDING_NORMAL;
pub use super::shader_interface::BINDING_PALETTES;
pub use super::shader_interface::BINDING_RECORDS;
pub use super::shader_interface::BINDING_SHADOW_MAP;
pub use super::shader_interface::BINDING_VISIBLE;

pub use super::shader_interface::CULL_BOUNDS;
pub use super::shader_interface::CULL_CANDIDATES;
pub use super::shader_interface::CULL_COMMANDS;
pub use super::shader_interface::CULL_COUNTERS;
pub use super::shader_interface::CULL_DRAW_RANGES;
pub use super::shader_interface::CULL_FRAME;
pub use super::shader_interface::CULL_MODELS;
pub use super::shader_interface::CULL_OCCLUSION_DEPTH;
pub use super::shader_interface::CULL_OUTPUT;
pub use super::shader_interface::CULL_RECORDS;

pub use super::shader_interface::COMPUTE_DEPTH;
pub use super::shader_interface::COMPUTE_FRAME;
pub use super::shader_interface::COMPUTE_INPUT;
pub use super::shader_interface::COMPUTE_NOISE;
pub use super::shader_interface::COMPUTE_OUTPUT;

/// The shared layouts; see the module documentation.
pub struct Layouts {
    ctx: Arc<GpuContext>,
    /// Set 0 of the graphics passes, pushed per pass.
    pub set: vk::DescriptorSetLayout,
    /// Set 0 plus the `Draw` push constants.
    pub pipeline: vk::PipelineLayout,
    /// Set 0 of the compute passes.
    pub compute_set: vk::DescriptorSetLayout,
    /// The compute passes' pipeline layout.
    pub compute: vk::PipelineLayout,
    /// Set 0 of the culling passes.
    pub cull_set: vk::DescriptorSetLayout,
    /// The culling passes' pipeline layout.
    pub cull: vk::PipelineLayout,
}

impl Layouts {
    /// Creates the set and pipeline layouts.
    pub fn new(ctx: &Arc<GpuContext>) -> Result<Self, GpuError> {
        let vf = vk::ShaderStageFlags::VERTEX | vk::ShaderStageFlags::FRAGMENT;
        let binding = |b: u32, ty: vk::DescriptorType, stages: vk::ShaderStageFlags| {
            vk::DescriptorSetLayoutBinding::default()
                .binding(b)
                .descriptor_type(ty)
                .descriptor_count(1)
                .stage_flags(stages)
        };
        let bindings = [
            binding(
                BINDING_RECORDS,
                vk::DescriptorType::STORAGE_BUFFER,
                vk::ShaderStageFlags::VERTEX,
            ),
            binding(
                BINDING_PALETTES,
                vk::DescriptorType::STORAGE_BUFFER,
                vk::ShaderStageFlags::VERTEX,
            ),
            binding(BINDING_FRAME, vk::DescriptorType::UNIFORM_BUFFER, vf),
            binding(
                BINDING_BASE_COLOR,
                vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
                vk::ShaderStageFlags::FRAGMENT,
            ),
            binding(
                BINDING_NORMAL,
                vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
                vk::ShaderStageFlags::FRAGMENT,
            ),
            binding(
                BINDING_SHADOW_MAP,
                vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
                vk::ShaderStageFlags::FRAGMENT,
            ),
            binding(
                BINDING_AO,
                vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
                vk::ShaderStageFlags::FRAGMENT,
            ),
            binding(
                BINDING_DEBUG_SOURCE,
                vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
                vk::ShaderStageFlags::FRAGMENT,
            ),
            binding(
                BINDING_BAKED,
                vk::DescriptorType::STORAGE_BUFFER,
                vk::ShaderStageFlags::VERTEX,
            ),
            binding(
                BINDING_VISIBLE,
                vk::DescriptorType::STORAGE_BUFFER,
                vk::ShaderStageFlags::VERTEX,
            ),
        ];
        let info = vk::DescriptorSetLayoutCreateInfo::default()
            .flags(vk::DescriptorSetLayoutCreateFlags::PUSH_DESCRIPTOR_KHR)
            .bindings(&bindings);
        // SAFETY: valid device and create info.
        let set = unsafe { ctx.device.create_descriptor_set_layout(&info, None) }
            .context("creating the descriptor set layout")?;
        ctx.name(set, "pass descriptors (pushed)");
        let sets = [set];
        let ranges = [vk::PushConstantRange::default()
            .stage_flags(vf)
            .offset(0)
            .size(size_of::<DrawConstants>() as u32)];
        let info = vk::PipelineLayoutCreateInfo::default()
            .set_layouts(&sets)
            .push_constant_ranges(&ranges);
        // SAFETY: as above.
        let pipeline = match unsafe { ctx.device.create_pipeline_layout(&info, None) } {
            Ok(p) => p,
            Err(result) => {
                // SAFETY: unused layout.
                unsafe { ctx.device.destroy_descriptor_set_layout(set, None) };
                return Err(GpuError::Vulkan {
                    what: "creating the pipeline layout".into(),
                    result,
                });
            }
        };
        ctx.name(pipeline, "pass pipeline layout");
        let cs = vk::ShaderStageFlags::COMPUTE;
        let sampled = vk::DescriptorType::COMBINED_IMAGE_SAMPLER;
        let compute_bindings = [
            binding(COMPUTE_DEPTH, sampled, cs),
            binding(COMPUTE_INPUT, sampled, cs),
            binding(COMPUTE_FRAME, vk::DescriptorType::UNIFORM_BUFFER, cs),
            binding(COMPUTE_NOISE, sampled, cs),
            binding(COMPUTE_OUTPUT, vk::DescriptorType::STORAGE_IMAGE, cs),
        ];
        let info = vk::DescriptorSetLayoutCreateInfo::default()
            .flags(vk::DescriptorSetLayoutCreateFlags::PUSH_DESCRIPTOR_KHR)
            .bindings(&compute_bindings);
        let mut this = Self {
            ctx: ctx.clone(),
            set,
            pipeline,
            compute_set: vk::DescriptorSetLayout::null(),
            compute: vk::PipelineLayout::null(),
            cull_set: vk::DescriptorSetLayout::null(),
            cull: vk::PipelineLayout::null(),
        };
        // SAFETY: valid device and create info; `this` destroys what was made if a later
        // step fails.
        this.compute_set = unsafe { ctx.device.create_descriptor_set_layout(&info, None) }
            .context("creating the compute descriptor set layout")?;
        ctx.name(this.compute_set, "compute descriptors (pushed)");
        let sets = [this.compute_set];
        let info = vk::PipelineLayoutCreateInfo::default().set_layouts(&sets);
        // SAFETY: as above.
        this.compute = unsafe { ctx.device.create_pipeline_layout(&info, None) }
            .context("creating the compute pipeline layout")?;
        ctx.name(this.compute, "compute pipeline layout");
        let storage = vk::DescriptorType::STORAGE_BUFFER;
        let cull_bindings = [
            CULL_RECORDS,
            CULL_FRAME,
            CULL_MODELS,
            CULL_BOUNDS,
            CULL_DRAW_RANGES,
            CULL_COUNTERS,
            CULL_OUTPUT,
            CULL_COMMANDS,
            CULL_OCCLUSION_DEPTH,
            CULL_CANDIDATES,
        ]
        .map(|b| {
            let ty = if b == CULL_OCCLUSION_DEPTH {
                sampled
            } else {
                storage
            };
            binding(b, ty, cs)
        });
        let info = vk::DescriptorSetLayoutCreateInfo::default()
            .flags(vk::DescriptorSetLayoutCreateFlags::PUSH_DESCRIPTOR_KHR)
            .bindings(&cull_bindings);
        // SAFETY: as above.
        this.cull_set = unsafe { ctx.device.create_descriptor_set_layout(&info, None) }
            .context("creating the culling descriptor set layout")?;
        ctx.name(this.cull_set, "culling descriptors (pushed)");
        let sets = [this.cull_set];
        let ranges = [vk::PushConstantRange::default()
            .stage_flags(cs)
            .offset(0)
            .size(size_of::<DrawViews>() as u32)];
        let info = vk::PipelineLayoutCreateInfo::default()
            .set_layouts(&sets)
            .push_constant_ranges(&ranges);
        // SAFETY: as above.
        this.cull = unsafe { ctx.device.create_pipeline_layout(&info, None) }
            .context("creating the culling pipeline layout")?;
        ctx.name(this.cull, "culling pipeline layout");
        Ok(this)
    }
}

impl Drop for Layouts {
    fn drop(&mut self) {
        // SAFETY: pipelines using these layouts are gone or no longer in use.
        unsafe {
            let d = &self.ctx.device;
            d.destroy_pipeline_layout(self.pipeline, None);
            d.destroy_descriptor_set_layout(self.set, None);
            if self.compute != vk::PipelineLayout::null() {
                d.destroy_pipeline_layout(self.compute, None);
            }
            if self.compute_set != vk::DescriptorSetLayout::null() {
                d.destroy_descriptor_set_layout(self.compute_set, None);
            }
            if self.cull != vk::PipelineLayout::null() {
                d.destroy_pipeline_layout(self.cull, None);
            }
            if self.cull_set != vk::DescriptorSetLayout::null() {
                d.destroy_descriptor_set_layout(self.cull_set, None);
            }
        }
    }
}

/// Which vertex input a pipeline takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VertexInput {
    /// [`Vertex`] from binding 0.
    Skinned,
    /// Skinned positions only (the shadow pass).
    SkinnedPosition,
    /// None: positions come from the vertex index.
    Generated,
}

/// How a pipeline uses its depth attachment.
#[derive(Clone, Copy, Debug)]
pub struct DepthState {
    /// Depth target format.
    pub format: vk::Format,
    /// Depth compare (LESS, or EQUAL after a prepass).
    pub compare: vk::CompareOp,
    /// Whether depth is written.
    pub write: bool,
    /// Constant and slope-scaled depth bias (the shadow pass).
    pub bias: Option<(f32, f32)>,
}

/// Which triangles a pipeline discards by facing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Culling {
    /// Back faces (the default for characters).
    #[default]
    Back,
    /// Front faces: shows what wrongly wound triangles would (for tests and debugging).
    Front,
    /// None: both sides drawn (open meshes, the ground).
    None,
}

/// What a graphics pipeline needs besides its shaders.
#[derive(Clone, Copy, Debug)]
pub struct PipelineDesc<'a> {
    /// Debug name.
    pub name: &'a str,
    /// Vertex input.
    pub input: VertexInput,
    /// Colour target format (`None`: depth only).
    pub color: Option<vk::Format>,
    /// The depth test (`None`: no depth attachment).
    pub depth: Option<DepthState>,
    /// Which faces to cull (the front face is dynamic state: it flips with mirrored
    /// transforms).
    pub culling: Culling,
    /// Samples per pixel of the attachments it renders to.
    pub samples: vk::SampleCountFlags,
}

/// A graphics pipeline, destroyed on drop.
pub struct Pipeline {
    ctx: Arc<GpuContext>,
    /// The pipeline.
    pub pipeline: vk::Pipeline,
}

impl Pipeline {
    /// Builds a pipeline for dynamic rendering with viewport, scissor and front face dynamic.
    pub fn new(
        ctx: &Arc<GpuContext>,
        layouts: &Layouts,
        desc: &PipelineDesc<'_>,
        vert: &ShaderModule,
        frag: Option<&ShaderModule>,
    ) -> Result<Self, GpuError> {
        const MAIN: &CStr = c"main";
        let mut stages = vec![
            vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::VERTEX)
                .module(vert.module)
                .name(MAIN),
        ];
        if let Some(frag) = frag {
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
        // Position, joints and weights: what the shadow pass's vertex shader reads.
        let position_attributes = [attributes[0], attributes[4], attributes[5]];
        let vertex_input = match desc.input {
            VertexInput::Skinned => vk::PipelineVertexInputStateCreateInfo::default()
                .vertex_binding_descriptions(&bindings)
                .vertex_attribute_descriptions(&attributes),
            VertexInput::SkinnedPosition => vk::PipelineVertexInputStateCreateInfo::default()
                .vertex_binding_descriptions(&bindings)
                .vertex_attribute_descriptions(&position_attributes),
            VertexInput::Generated => vk::PipelineVertexInputStateCreateInfo::default(),
        };
        let assembly = vk::PipelineInputAssemblyStateCreateInfo::default()
            .topology(vk::PrimitiveTopology::TRIANGLE_LIST);
        let viewport = vk::PipelineViewportStateCreateInfo::default()
            .viewport_count(1)
            .scissor_count(1);
        let raster = vk::PipelineRasterizationStateCreateInfo::default()
            .polygon_mode(vk::PolygonMode::FILL)
            .cull_mode(match desc.culling {
                Culling::Back => vk::CullModeFlags::BACK,
                Culling::Front => vk::CullModeFlags::FRONT,
                Culling::None => vk::CullModeFlags::NONE,
            })
            .front_face(vk::FrontFace::COUNTER_CLOCKWISE)
            .depth_bias_enable(desc.depth.is_some_and(|d| d.bias.is_some()))
            .depth_bias_constant_factor(desc.depth.and_then(|d| d.bias).map_or(0.0, |b| b.0))
            .depth_bias_slope_factor(desc.depth.and_then(|d| d.bias).map_or(0.0, |b| b.1))
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
        let blend_attachments = [vk::PipelineColorBlendAttachmentState::default()
            .color_write_mask(vk::ColorComponentFlags::RGBA)];
        let blend = if desc.color.is_some() {
            vk::PipelineColorBlendStateCreateInfo::default().attachments(&blend_attachments)
        } else {
            vk::PipelineColorBlendStateCreateInfo::default()
        };
        let dynamic_states = [
            vk::DynamicState::VIEWPORT,
            vk::DynamicState::SCISSOR,
            vk::DynamicState::FRONT_FACE,
        ];
        let dynamic = vk::PipelineDynamicStateCreateInfo::default().dynamic_states(&dynamic_states);
        let color_formats: Vec<vk::Format> = desc.color.into_iter().collect();
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
            .layout(layouts.pipeline)
            .push_next(&mut rendering);
        // SAFETY: every referenced structure lives until the call returns.
        let pipeline = unsafe {
            ctx.device
                .create_graphics_pipelines(vk::PipelineCache::null(), &[info], None)
        }
        .map_err(|(_, result)| GpuError::Vulkan {
            what: format!("creating pipeline {}", desc.name),
            result,
        })?
        .into_iter()
        .next()
        .ok_or_else(|| GpuError::Other(format!("pipeline {} was not created", desc.name)))?;
        ctx.name(pipeline, desc.name);
        Ok(Self {
            ctx: ctx.clone(),
            pipeline,
        })
    }
}

impl Pipeline {
    /// A compute pipeline with the compute layout.
    pub fn compute(
        ctx: &Arc<GpuContext>,
        layouts: &Layouts,
        name: &str,
        shader: &ShaderModule,
    ) -> Result<Self, GpuError> {
        Self::compute_with(ctx, layouts.compute, name, shader)
    }

    /// A compute pipeline with `layout`.
    pub fn compute_with(
        ctx: &Arc<GpuContext>,
        layout: vk::PipelineLayout,
        name: &str,
        shader: &ShaderModule,
    ) -> Result<Self, GpuError> {
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(shader.module)
            .name(c"main");
        let info = vk::ComputePipelineCreateInfo::default()
            .stage(stage)
            .layout(layout);
        // SAFETY: valid device, shader and layout.
        let pipeline = unsafe {
            ctx.device
                .create_compute_pipelines(vk::PipelineCache::null(), &[info], None)
        }
        .map_err(|(_, result)| GpuError::Vulkan {
            what: format!("creating pipeline {name}"),
            result,
        })?
        .into_iter()
        .next()
        .ok_or_else(|| GpuError::Other(format!("pipeline {name} was not created")))?;
        ctx.name(pipeline, name);
        Ok(Self {
            ctx: ctx.clone(),
            pipeline,
        })
    }
}

impl Drop for Pipeline {
    fn drop(&mut self) {
        // SAFETY: the owner waited for the device.
        unsafe { self.ctx.device.destroy_pipeline(self.pipeline, None) };
    }
}
