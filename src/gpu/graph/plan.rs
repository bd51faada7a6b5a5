//! The compiled graph: the passes to run, in order, each with the barriers to record before
//! it. A plan holds no Vulkan handles, so one plan serves every frame until the graph changes.

use std::fmt;
use std::ops::Range;

use ash::vk;

use super::resource::{ImageDesc, ImageKind, PassId, Resource, ResourceId};

/// One memory or execution dependency on one resource, in synchronization2 terms. An image
/// barrier has both layouts (equal when the layout stays); a buffer barrier has neither.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Barrier {
    /// The resource it guards.
    pub resource: ResourceId,
    /// Stages that must finish first.
    pub src_stage: vk::PipelineStageFlags2,
    /// Writes to make available (empty for an execution-only dependency).
    pub src_access: vk::AccessFlags2,
    /// Stages that wait.
    pub dst_stage: vk::PipelineStageFlags2,
    /// Accesses the writes are made visible to.
    pub dst_access: vk::AccessFlags2,
    /// Layout before (`None` for buffers).
    pub old_layout: Option<vk::ImageLayout>,
    /// Layout after (`None` for buffers).
    pub new_layout: Option<vk::ImageLayout>,
}

/// A pass to run, after recording its barriers ([`Plan::barriers`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The pass, as returned by [`super::PassBuilder::finish`].
    pub pass: PassId,
    /// Its name.
    pub name: &'static str,
    /// Its barriers' range in the plan's barrier list.
    pub barriers: Range<usize>,
    /// Its uses' range in the plan's use list ([`Plan::uses`]).
    pub uses: Range<usize>,
}

/// How one step uses one resource: what a pass needs to bind it (the layout the graph put an
/// image in) and to begin rendering to it (whether to load what is there and whether to
/// store what it leaves), all decided by the graph rather than by the pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StepUse {
    /// The resource.
    pub resource: ResourceId,
    /// The image's layout during the step (`None` for buffers).
    pub layout: Option<vk::ImageLayout>,
    /// Earlier work this frame left contents worth loading: an earlier kept step wrote it, or
    /// it was imported with defined contents.
    pub loads: bool,
    /// Something after the step reads what it leaves: a later kept step, the final access of
    /// an import, or an output.
    pub stores: bool,
    /// The step writes it.
    pub writes: bool,
}

/// A compiled graph. See the [module documentation](super) for how it is used.
#[derive(Debug, Clone)]
pub struct Plan {
    pub(crate) resources: Vec<Resource>,
    pub(crate) steps: Vec<Step>,
    pub(crate) barriers: Vec<Barrier>,
    pub(crate) uses: Vec<StepUse>,
    pub(crate) final_barriers: Vec<Barrier>,
    pub(crate) culled: Vec<PassId>,
    pub(crate) image_usage: Vec<vk::ImageUsageFlags>,
    pub(crate) buffer_usage: Vec<vk::BufferUsageFlags>,
    pub(crate) first_stages: Vec<vk::PipelineStageFlags2>,
    pub(crate) host_written: Vec<ResourceId>,
}

impl Plan {
    /// The passes to run, in order (culled passes left out).
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// The barriers to record before `step` runs, merged into one list (images and buffers)
    /// for one `vkCmdPipelineBarrier2`. Empty for a step of another plan.
    pub fn barriers(&self, step: &Step) -> &[Barrier] {
        self.barriers.get(step.barriers.clone()).unwrap_or(&[])
    }

    /// How `step` uses each resource it declared (one entry per resource, uses merged).
    /// Empty for a step of another plan.
    pub fn uses(&self, step: &Step) -> &[StepUse] {
        self.uses.get(step.uses.clone()).unwrap_or(&[])
    }

    /// How `step` uses `res`; `None` when the step did not declare it.
    pub fn step_use(&self, step: &Step, res: ResourceId) -> Option<&StepUse> {
        self.uses(step).iter().find(|u| u.resource == res)
    }

    /// Barriers after the last step that bring imported images to their final access.
    pub fn final_barriers(&self) -> &[Barrier] {
        &self.final_barriers
    }

    /// Passes left out because nothing needs what they write.
    pub fn culled(&self) -> &[PassId] {
        &self.culled
    }

    /// How the kept passes (and, for an imported image, its final access) use an image: the
    /// usage to create a transient image with, or to check a swapchain supports. Empty for
    /// buffers, unused images and ids from another graph.
    pub fn image_usage(&self, res: ResourceId) -> vk::ImageUsageFlags {
        self.image_usage
            .get(res.0 as usize)
            .copied()
            .unwrap_or_default()
    }

    /// How the kept passes use a buffer: the usage it must have been created with. Empty for
    /// images, unused buffers and ids from another graph.
    pub fn buffer_usage(&self, res: ResourceId) -> vk::BufferUsageFlags {
        self.buffer_usage
            .get(res.0 as usize)
            .copied()
            .unwrap_or_default()
    }

    /// The resource's name (empty for an id from another graph).
    pub fn resource_name(&self, res: ResourceId) -> &str {
        self.resources
            .get(res.0 as usize)
            .map_or("", Resource::name)
    }

    /// The stages of the first kept use of a resource. A semaphore that guards an imported
    /// resource (the swapchain's acquire semaphore) must wait at these stages or earlier:
    /// the graph's first barrier on an import waits on exactly these stages, which chains it
    /// after the semaphore wait. Empty when no kept pass uses it.
    pub fn first_use_stages(&self, res: ResourceId) -> vk::PipelineStageFlags2 {
        self.first_stages
            .get(res.0 as usize)
            .copied()
            .unwrap_or_default()
    }

    /// Buffers the kept passes declare as [`super::Access::HostWrite`]: the CPU must have
    /// written them before the frame is submitted. No barrier covers them, since submission
    /// makes host writes visible.
    pub fn host_written(&self) -> &[ResourceId] {
        &self.host_written
    }

    /// Transient images the executor creates (and recreates on resize), with their
    /// descriptions; pair with [`Plan::image_usage`]. Images no kept pass uses are skipped.
    pub fn transients(&self) -> impl Iterator<Item = (ResourceId, &ImageDesc)> + '_ {
        self.resources
            .iter()
            .enumerate()
            .filter_map(|(i, r)| match r {
                Resource::Transient(desc) if !self.image_usage(ResourceId(i as u32)).is_empty() => {
                    Some((ResourceId(i as u32), desc))
                }
                _ => None,
            })
    }

    /// The resource declared as `name` (the first, if several were), for logs and tests.
    pub fn find(&self, name: &str) -> Option<ResourceId> {
        self.resources
            .iter()
            .position(|r| r.name() == name)
            .map(|i| ResourceId(i as u32))
    }

    /// The description of a transient image (`None` for anything else).
    pub fn transient_desc(&self, res: ResourceId) -> Option<&ImageDesc> {
        match self.resources.get(res.0 as usize)? {
            Resource::Transient(desc) => Some(desc),
            _ => None,
        }
    }

    /// Whether the resource is an image, and which kind (`None` for buffers and unknown ids).
    pub fn image_kind(&self, res: ResourceId) -> Option<ImageKind> {
        match self.resources.get(res.0 as usize)? {
            Resource::Transient(desc) => Some(desc.kind),
            Resource::ImportedImage { kind, .. } => Some(*kind),
            Resource::ImportedBuffer { .. } => None,
        }
    }
}

impl fmt::Display for Plan {
    /// A readable schedule for logs: each step with its barriers, then the final barriers,
    /// host-written buffers and culled passes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let barrier = |f: &mut fmt::Formatter<'_>, b: &Barrier| {
            write!(
                f,
                "    {}: {:?}/{:?} -> {:?}/{:?}",
                self.resource_name(b.resource),
                b.src_stage,
                b.src_access,
                b.dst_stage,
                b.dst_access
            )?;
            match (b.old_layout, b.new_layout) {
                (Some(old), Some(new)) if old != new => writeln!(f, ", {old:?} -> {new:?}"),
                _ => writeln!(f),
            }
        };
        for step in &self.steps {
            writeln!(f, "{} ({:?})", step.name, step.pass)?;
            for b in self.barriers(step) {
                barrier(f, b)?;
            }
        }
        if !self.final_barriers.is_empty() {
            writeln!(f, "final")?;
            for b in &self.final_barriers {
                barrier(f, b)?;
            }
        }
        for &res in &self.host_written {
            writeln!(f, "host writes {} before submit", self.resource_name(res))?;
        }
        if !self.culled.is_empty() {
            writeln!(f, "culled {:?}", self.culled)?;
        }
        Ok(())
    }
}
