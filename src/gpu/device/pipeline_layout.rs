//! A pipeline's layout, read from its shaders: each stage's bindings ([`super::spirv`])
//! merged by name into one pushed descriptor set, and a push-constant range covering the
//! largest block any stage declares.

use std::sync::Arc;

use ash::vk;

use super::context::GpuContext;
use super::error::{GpuError, VkContext};
use super::spirv::Reflection;

/// One binding of a pipeline's pushed set: the stages' declarations merged.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LayoutBinding {
    /// The shaders' name for it.
    pub name: String,
    /// Its number.
    pub binding: u32,
    /// Its descriptor kind.
    pub kind: vk::DescriptorType,
    /// How many descriptors.
    pub count: u32,
    /// The stages that declare it.
    pub stages: vk::ShaderStageFlags,
}

/// The bindings and push constants of a pipeline, merged from its stages' reflections: a
/// name declared by two stages must have one number and kind, and two names may not share a
/// number.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LayoutDesc {
    /// Set 0's bindings, by number.
    pub bindings: Vec<LayoutBinding>,
    /// The push-constant range: the stages declaring a block, and the largest block's bytes.
    pub push_constants: Option<(vk::ShaderStageFlags, u32)>,
}

impl LayoutDesc {
    /// Merges `stages`; `pipeline` names the pipeline in errors.
    pub fn merge(pipeline: &str, stages: &[Reflection]) -> Result<Self, GpuError> {
        let fail = |why: String| GpuError::Other(format!("pipeline {pipeline}: {why}"));
        let mut bindings: Vec<LayoutBinding> = Vec::new();
        let mut push: Option<(vk::ShaderStageFlags, u32)> = None;
        for r in stages {
            for b in &r.bindings {
                if b.set != 0 {
                    return Err(fail(format!(
                        "{} is in set {}; every pass pushes set 0",
                        b.name, b.set
                    )));
                }
                match bindings.iter_mut().find(|l| l.name == b.name) {
                    Some(l) if l.binding == b.binding && l.kind == b.kind && l.count == b.count => {
                        l.stages |= r.stage;
                    }
                    Some(l) => {
                        return Err(fail(format!(
                            "{} is binding {} ({:?}) in one stage and {} ({:?}) in another",
                            b.name, l.binding, l.kind, b.binding, b.kind
                        )));
                    }
                    None => {
                        if let Some(other) = bindings.iter().find(|l| l.binding == b.binding) {
                            return Err(fail(format!(
                                "{} and {} are both binding {}",
                                other.name, b.name, b.binding
                            )));
                        }
                        bindings.push(LayoutBinding {
                            name: b.name.clone(),
                            binding: b.binding,
                            kind: b.kind,
                            count: b.count,
                            stages: r.stage,
                        });
                    }
                }
            }
            if r.push_constant_bytes > 0 {
                let (stages, bytes) = push.get_or_insert((vk::ShaderStageFlags::empty(), 0));
                *stages |= r.stage;
                *bytes = (*bytes).max(r.push_constant_bytes);
            }
        }
        bindings.sort_by_key(|b| b.binding);
        Ok(Self {
            bindings,
            push_constants: push,
        })
    }
}

/// A pushed descriptor set layout and the pipeline layout around it, destroyed on drop.
pub struct PipelineLayout {
    ctx: Arc<GpuContext>,
    /// What it holds.
    pub desc: LayoutDesc,
    /// Set 0 (push descriptors).
    pub set: vk::DescriptorSetLayout,
    /// The pipeline layout.
    pub layout: vk::PipelineLayout,
}

impl PipelineLayout {
    /// Creates the set layout and the pipeline layout `desc` describes; `name` names them.
    pub fn new(ctx: &Arc<GpuContext>, desc: LayoutDesc, name: &str) -> Result<Self, GpuError> {
        let bindings: Vec<vk::DescriptorSetLayoutBinding<'_>> = desc
            .bindings
            .iter()
            .map(|b| {
                vk::DescriptorSetLayoutBinding::default()
                    .binding(b.binding)
                    .descriptor_type(b.kind)
                    .descriptor_count(b.count)
                    .stage_flags(b.stages)
            })
            .collect();
        let info = vk::DescriptorSetLayoutCreateInfo::default()
            .flags(vk::DescriptorSetLayoutCreateFlags::PUSH_DESCRIPTOR_KHR)
            .bindings(&bindings);
        // SAFETY: valid device and create info.
        let set = unsafe { ctx.device.create_descriptor_set_layout(&info, None) }
            .context(format!("creating the descriptor set layout of {name}"))?;
        ctx.name(set, &format!("{name} descriptors (pushed)"));
        let sets = [set];
        let ranges: Vec<vk::PushConstantRange> = desc
            .push_constants
            .iter()
            .map(|&(stages, bytes)| {
                vk::PushConstantRange::default()
                    .stage_flags(stages)
                    .offset(0)
                    .size(bytes)
            })
            .collect();
        let info = vk::PipelineLayoutCreateInfo::default()
            .set_layouts(&sets)
            .push_constant_ranges(&ranges);
        // SAFETY: as above.
        let layout = match unsafe { ctx.device.create_pipeline_layout(&info, None) } {
            Ok(l) => l,
            Err(result) => {
                // SAFETY: unused set layout.
                unsafe { ctx.device.destroy_descriptor_set_layout(set, None) };
                return Err(GpuError::vulkan(
                    format!("creating the pipeline layout of {name}"),
                    result,
                ));
            }
        };
        ctx.name(layout, &format!("{name} layout"));
        Ok(Self {
            ctx: ctx.clone(),
            desc,
            set,
            layout,
        })
    }
}

impl Drop for PipelineLayout {
    fn drop(&mut self) {
        // SAFETY: the pipelines made with it are gone (they hold it) and the owner waited
        // for the device.
        unsafe {
            self.ctx.device.destroy_pipeline_layout(self.layout, None);
            self.ctx
                .device
                .destroy_descriptor_set_layout(self.set, None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::device::spirv::ReflectedBinding;

    fn stage(stage: vk::ShaderStageFlags, bindings: &[(&str, u32)], push: u32) -> Reflection {
        Reflection {
            stage,
            bindings: bindings
                .iter()
                .map(|&(name, binding)| ReflectedBinding {
                    name: name.into(),
                    set: 0,
                    binding,
                    kind: vk::DescriptorType::STORAGE_BUFFER,
                    count: 1,
                })
                .collect(),
            push_constant_bytes: push,
            local_size: [1; 3],
        }
    }

    #[test]
    fn stages_merge_by_name_and_conflicts_are_errors() {
        let (v, f) = (vk::ShaderStageFlags::VERTEX, vk::ShaderStageFlags::FRAGMENT);
        let merged = LayoutDesc::merge(
            "p",
            &[
                stage(v, &[("A", 1), ("B", 0)], 16),
                stage(f, &[("A", 1), ("C", 2)], 32),
            ],
        )
        .expect("merges");
        let names: Vec<(&str, u32, vk::ShaderStageFlags)> = merged
            .bindings
            .iter()
            .map(|b| (b.name.as_str(), b.binding, b.stages))
            .collect();
        assert_eq!(names, [("B", 0, v), ("A", 1, v | f), ("C", 2, f)]);
        assert_eq!(merged.push_constants, Some((v | f, 32)));
        // One name, two numbers; two names, one number.
        assert!(
            LayoutDesc::merge("p", &[stage(v, &[("A", 1)], 0), stage(f, &[("A", 2)], 0)]).is_err()
        );
        assert!(
            LayoutDesc::merge("p", &[stage(v, &[("A", 1)], 0), stage(f, &[("B", 1)], 0)]).is_err()
        );
    }
}
