//! From declarations to a [`Plan`]: check every use, merge each pass's uses per resource,
//! cull, then walk the kept passes in declaration order deriving barriers.
//!
//! Passes are never reordered: the order they were declared in is the order they run in, and
//! a pass may only read what an earlier pass wrote or what was imported. That keeps the
//! schedule predictable and makes cycles impossible.

use ash::vk;

use super::access::{Access, AccessInfo, Applies};
use super::declaration::{Declarations, DeclaredUse};
use super::error::GraphError;
use super::plan::{Barrier, Plan, Step, StepUse};
use super::resource::{Extent, PassId, Resource, ResourceId};
use super::state::SyncState;

/// Everything one pass does to one resource, merged from its declared uses.
#[derive(Debug, Clone)]
struct PassUse {
    resource: ResourceId,
    /// The first access declared, for error messages.
    first: Access,
    /// The device-side use (stages, accesses and layout unioned); `None` when the pass only
    /// writes the buffer from the host.
    device: Option<AccessInfo>,
    /// The pass declared [`Access::HostWrite`].
    host_write: bool,
    /// Some use was declared with `read`.
    declared_read: bool,
    image_usage: vk::ImageUsageFlags,
    buffer_usage: vk::BufferUsageFlags,
}

impl PassUse {
    fn writes(&self) -> bool {
        self.host_write || self.device.is_some_and(|d| d.is_write())
    }

    /// Whether the use depends on what was there before: then earlier writers stay needed.
    fn reads(&self) -> bool {
        self.declared_read || self.device.is_some_and(|d| !d.reads.is_empty())
    }
}

pub(crate) fn compile(g: &Declarations) -> Result<Plan, GraphError> {
    check_resources(g)?;
    let passes = g
        .passes
        .iter()
        .map(|pass| merge_uses(g, pass.name, &pass.uses))
        .collect::<Result<Vec<_>, _>>()?;
    check_order(g, &passes)?;
    let kept = cull(g, &passes);

    // Usage, first stages and host writes come from the kept passes only: that is what the
    // plan will do with each resource.
    let n = g.resources.len();
    let mut image_usage = vec![vk::ImageUsageFlags::empty(); n];
    let mut buffer_usage = vec![vk::BufferUsageFlags::empty(); n];
    let mut first_stages = vec![vk::PipelineStageFlags2::NONE; n];
    let mut host_written = Vec::new();
    for (uses, _) in passes.iter().zip(&kept).filter(|(_, k)| **k) {
        for u in uses {
            let i = u.resource.0 as usize;
            image_usage[i] |= u.image_usage;
            buffer_usage[i] |= u.buffer_usage;
            if first_stages[i].is_empty() {
                first_stages[i] = u.device.map_or(vk::PipelineStageFlags2::NONE, |d| d.stages);
            }
            if u.host_write && !host_written.contains(&u.resource) {
                host_written.push(u.resource);
            }
        }
    }
    for (i, r) in g.resources.iter().enumerate() {
        if let Some(fin) = r.final_access() {
            image_usage[i] |= fin.image_usage();
        }
    }

    // Two walks: the first finds the state each transient image (and each persistent buffer)
    // is left in at the end of a frame, which is what the next frame's first use of it must
    // wait for.
    let fresh: Vec<SyncState> = g
        .resources
        .iter()
        .map(|r| SyncState::new(r.initial_layout()))
        .collect();
    let (_, end) = schedule(g, &passes, &kept, fresh.clone());
    let start = g
        .resources
        .iter()
        .zip(fresh)
        .zip(&end)
        .map(|((r, fresh), end)| match r {
            Resource::Transient(_) => end.next_frame(),
            Resource::ImportedBuffer {
                persistent: true, ..
            } => end.carried(),
            _ => fresh,
        })
        .collect();
    let (mut sched, _) = schedule(g, &passes, &kept, start);
    let uses = step_uses(g, &passes, &kept, &mut sched.steps);

    Ok(Plan {
        resources: g.resources.clone(),
        steps: sched.steps,
        barriers: sched.barriers,
        uses,
        final_barriers: sched.final_barriers,
        culled: kept
            .iter()
            .enumerate()
            .filter(|(_, k)| !**k)
            .map(|(i, _)| PassId(i as u32))
            .collect(),
        image_usage,
        buffer_usage,
        first_stages,
        host_written,
    })
}

/// Extents and final accesses, which the builder accepted without looking.
fn check_resources(g: &Declarations) -> Result<(), GraphError> {
    for r in &g.resources {
        match r {
            Resource::Transient(desc) => {
                let zero = match desc.extent {
                    Extent::Target => false,
                    Extent::Fixed(w, h) => w == 0 || h == 0,
                    Extent::TargetScaled(d) => d == 0,
                };
                if zero {
                    return Err(GraphError::ZeroExtent {
                        resource: desc.name,
                    });
                }
            }
            Resource::ImportedImage {
                name,
                final_access: Some(access),
                ..
            } if access.applies() == Applies::Buffer => {
                return Err(GraphError::InvalidFinalAccess {
                    resource: name,
                    access: *access,
                });
            }
            Resource::ImportedBuffer {
                name,
                final_access: Some(access),
                ..
            } if access.applies() == Applies::Image => {
                return Err(GraphError::InvalidFinalAccess {
                    resource: name,
                    access: *access,
                });
            }
            _ => {}
        }
    }
    for &res in &g.outputs {
        resource(g, "mark_output", res)?;
    }
    Ok(())
}

fn resource<'g>(
    g: &'g Declarations,
    pass: &'static str,
    res: ResourceId,
) -> Result<&'g Resource, GraphError> {
    g.resources
        .get(res.0 as usize)
        .ok_or(GraphError::UnknownResource {
            pass,
            resource: res,
        })
}

/// Checks each declared use and merges a pass's uses of one resource into one, so each
/// resource gets at most one barrier per step.
fn merge_uses(
    g: &Declarations,
    pass: &'static str,
    declared: &[DeclaredUse],
) -> Result<Vec<PassUse>, GraphError> {
    let mut merged: Vec<PassUse> = Vec::new();
    for d in declared {
        let r = resource(g, pass, d.resource)?;
        let name = r.name();
        if matches!(d.access, Access::Present | Access::HostRead) {
            return Err(GraphError::PresentInPass {
                pass,
                resource: name,
            });
        }
        let fits = match d.access.applies() {
            Applies::Image => r.is_image(),
            Applies::Buffer => !r.is_image(),
            Applies::Both => true,
        };
        if !fits {
            return Err(GraphError::WrongResourceType {
                pass,
                resource: name,
                access: d.access,
            });
        }
        if d.declared_write != d.access.is_write() {
            return Err(GraphError::MisdeclaredAccess {
                pass,
                resource: name,
                access: d.access,
                declared: if d.declared_write { "write" } else { "read" },
            });
        }

        let host_write = d.access == Access::HostWrite;
        let mut info = d.access.info();
        if !r.is_image() {
            // Buffers have no layout, whatever the access's image layout would be.
            info.layout = None;
        }
        let device = (!host_write).then_some(info);
        let (image_usage, buffer_usage) = if r.is_image() {
            (d.access.image_usage(), vk::BufferUsageFlags::empty())
        } else {
            (vk::ImageUsageFlags::empty(), d.access.buffer_usage())
        };

        let Some(u) = merged.iter_mut().find(|u| u.resource == d.resource) else {
            merged.push(PassUse {
                resource: d.resource,
                first: d.access,
                device,
                host_write,
                declared_read: !d.declared_write,
                image_usage,
                buffer_usage,
            });
            continue;
        };
        u.device = match (u.device, device) {
            (Some(a), Some(b)) => {
                if a.layout != b.layout {
                    return Err(GraphError::ConflictingLayouts {
                        pass,
                        resource: name,
                        first: u.first,
                        second: d.access,
                    });
                }
                Some(AccessInfo {
                    stages: a.stages | b.stages,
                    reads: a.reads | b.reads,
                    writes: a.writes | b.writes,
                    layout: a.layout,
                })
            }
            (a, b) => a.or(b),
        };
        u.host_write |= host_write;
        u.declared_read |= !d.declared_write;
        u.image_usage |= image_usage;
        u.buffer_usage |= buffer_usage;
    }
    Ok(merged)
}

/// Declaration-order rules: no read of undefined contents, no host write after device use.
fn check_order(g: &Declarations, passes: &[Vec<PassUse>]) -> Result<(), GraphError> {
    let n = g.resources.len();
    let mut written = vec![false; n];
    let mut device_used = vec![false; n];
    for (decl, uses) in g.passes.iter().zip(passes) {
        for u in uses {
            let i = u.resource.0 as usize;
            let r = &g.resources[i];
            if u.declared_read && r.starts_undefined() && !written[i] {
                return Err(GraphError::ReadBeforeWrite {
                    pass: decl.name,
                    resource: r.name(),
                });
            }
            if u.host_write && device_used[i] {
                return Err(GraphError::HostWriteAfterDeviceUse {
                    pass: decl.name,
                    resource: r.name(),
                });
            }
        }
        // After the whole pass, so a pass cannot satisfy its own read.
        for u in uses {
            let i = u.resource.0 as usize;
            written[i] |= u.writes();
            device_used[i] |= u.device.is_some();
        }
    }
    Ok(())
}

/// Which passes to keep, walking back from the outputs. Once a resource is needed, every
/// earlier pass writing it is kept: a write may cover only part of an image or buffer (a
/// copy region, a storage write, a load op), so no later write is taken to make an earlier
/// one dead. A kept pass's reads make their resources needed.
fn cull(g: &Declarations, passes: &[Vec<PassUse>]) -> Vec<bool> {
    let mut needed: Vec<bool> = g
        .resources
        .iter()
        .map(|r| r.final_access().is_some())
        .collect();
    for &res in &g.outputs {
        // Checked in `check_resources`.
        if let Some(n) = needed.get_mut(res.0 as usize) {
            *n = true;
        }
    }
    let mut kept = vec![false; passes.len()];
    for (i, uses) in passes.iter().enumerate().rev() {
        let keep = g.passes[i].side_effect
            || uses
                .iter()
                .any(|u| u.writes() && needed[u.resource.0 as usize]);
        if keep {
            kept[i] = true;
            for u in uses.iter().filter(|u| u.reads()) {
                needed[u.resource.0 as usize] = true;
            }
        }
    }
    kept
}

struct Schedule {
    steps: Vec<Step>,
    barriers: Vec<Barrier>,
    final_barriers: Vec<Barrier>,
}

/// Walks the kept passes from `states`, collecting each step's barriers and the final ones.
/// Returns the schedule and the state every resource is left in.
fn schedule(
    g: &Declarations,
    passes: &[Vec<PassUse>],
    kept: &[bool],
    mut states: Vec<SyncState>,
) -> (Schedule, Vec<SyncState>) {
    let mut steps = Vec::new();
    let mut barriers = Vec::new();
    for (i, uses) in passes.iter().enumerate().filter(|(i, _)| kept[*i]) {
        let start = barriers.len();
        for u in uses {
            let state = &mut states[u.resource.0 as usize];
            if u.host_write {
                // Before submission, so before any device use in this pass.
                state.host_write();
            }
            if let Some(d) = &u.device {
                barriers.extend(state.enter(u.resource, d));
            }
        }
        steps.push(Step {
            pass: PassId(i as u32),
            name: g.passes[i].name,
            barriers: start..barriers.len(),
            uses: 0..0,
        });
    }
    let mut final_barriers = Vec::new();
    for (i, r) in g.resources.iter().enumerate() {
        if let Some(fin) = r.final_access() {
            final_barriers.extend(states[i].enter(ResourceId(i as u32), &fin.info()));
        }
    }
    (
        Schedule {
            steps,
            barriers,
            final_barriers,
        },
        states,
    )
}

/// Each kept step's uses with what a pass needs to record them: the layout, and whether the
/// contents are loaded (written earlier in the frame, or imported defined) and stored (read
/// later, or an output). Fills in each step's range of the returned list.
fn step_uses(
    g: &Declarations,
    passes: &[Vec<PassUse>],
    kept: &[bool],
    steps: &mut [Step],
) -> Vec<StepUse> {
    let n = g.resources.len();
    // Read after each kept pass: walking back, a resource is needed once an output or a
    // later reader needs it (conservatively never unset: writes may be partial).
    let mut needed: Vec<bool> = g
        .resources
        .iter()
        .enumerate()
        .map(|(i, r)| r.final_access().is_some() || g.outputs.contains(&ResourceId(i as u32)))
        .collect();
    let mut stores: Vec<Vec<bool>> = vec![Vec::new(); passes.len()];
    for (i, uses) in passes.iter().enumerate().rev().filter(|(i, _)| kept[*i]) {
        stores[i] = uses.iter().map(|u| needed[u.resource.0 as usize]).collect();
        for u in uses.iter().filter(|u| u.reads()) {
            needed[u.resource.0 as usize] = true;
        }
    }
    let mut written: Vec<bool> = (0..n).map(|i| !g.resources[i].starts_undefined()).collect();
    let mut list = Vec::new();
    for step in steps.iter_mut() {
        let i = step.pass.0 as usize;
        let start = list.len();
        for (u, &stored) in passes[i].iter().zip(&stores[i]) {
            let r = u.resource.0 as usize;
            list.push(StepUse {
                resource: u.resource,
                layout: u.device.and_then(|d| d.layout),
                loads: written[r],
                stores: stored,
                writes: u.writes(),
            });
        }
        for u in &passes[i] {
            written[u.resource.0 as usize] |= u.writes();
        }
        step.uses = start..list.len();
    }
    list
}
