//! What the graph knows about one resource between passes, and the rule that turns "the next
//! use is this" into the smallest barrier that makes it safe.
//!
//! The state is: the layout, the last write (stages and write accesses), the stages that have
//! read since that write, and which (stage, access) pairs the write has already been made
//! visible to. Vulkan's visibility is per stage and access, so a write made visible to
//! fragment-shader sampling is not yet visible to a vertex-shader read: each new pair needs
//! its own barrier, while a repeat of a covered pair needs none.

use ash::vk;

use super::access::AccessInfo;
use super::plan::Barrier;
use super::resource::ResourceId;

/// Synchronization state of one resource.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SyncState {
    /// Current layout; `None` for buffers.
    layout: Option<vk::ImageLayout>,
    /// Stages and write accesses of the last write the graph knows of. `None` when the
    /// contents come from outside the graph (an import, or host writes, which submission
    /// makes visible) or are undefined.
    last_write: Option<(vk::PipelineStageFlags2, vk::AccessFlags2)>,
    /// Stages that read since the last write: a later write (or a layout transition, which
    /// is a write) must wait for them.
    readers: vk::PipelineStageFlags2,
    /// (stages, accesses) the last write has been made visible to.
    visible: Vec<(vk::PipelineStageFlags2, vk::AccessFlags2)>,
}

impl SyncState {
    /// A resource as the graph first finds it, in `layout` (`None` for a buffer).
    pub(crate) fn new(layout: Option<vk::ImageLayout>) -> Self {
        Self {
            layout,
            last_write: None,
            readers: vk::PipelineStageFlags2::NONE,
            visible: Vec::new(),
        }
    }

    /// A transient image at the start of the next frame, given this state at the end of the
    /// frame. The contents are discarded (layout `UNDEFINED`), but the previous frame's last
    /// accesses still stand: with frames in flight on one queue, the first transition must
    /// wait for them (an execution dependency after reads, a memory one after a write).
    pub(crate) fn next_frame(&self) -> Self {
        Self {
            layout: Some(vk::ImageLayout::UNDEFINED),
            last_write: self.last_write,
            readers: self.readers,
            visible: Vec::new(),
        }
    }

    /// A persistent buffer at the start of the next frame, given this state at the end of the
    /// frame: its contents stand, and so do the previous frame's last write and the reads
    /// since, which the first use must wait for; what they were made visible to is not
    /// counted on.
    pub(crate) fn carried(&self) -> Self {
        Self {
            layout: self.layout,
            last_write: self.last_write,
            readers: self.readers,
            visible: Vec::new(),
        }
    }

    /// The CPU wrote the buffer before submission: its contents are new and visible to every
    /// device access, and nothing on the device has read them yet.
    pub(crate) fn host_write(&mut self) {
        self.last_write = None;
        self.readers = vk::PipelineStageFlags2::NONE;
        self.visible.clear();
    }

    /// Whether the last write is already visible to `access` at every stage in `stages`.
    fn covered(&self, stages: vk::PipelineStageFlags2, access: vk::AccessFlags2) -> bool {
        (0..64).map(|bit| 1u64 << bit).all(|bit| {
            let stage = vk::PipelineStageFlags2::from_raw(bit);
            if !stages.contains(stage) {
                return true;
            }
            let seen = self
                .visible
                .iter()
                .filter(|(s, _)| s.contains(stage))
                .fold(vk::AccessFlags2::NONE, |acc, &(_, a)| acc | a);
            seen.contains(access)
        })
    }

    /// The barrier needed before `next` uses the resource (if any), and the state after it.
    pub(crate) fn enter(&mut self, resource: ResourceId, next: &AccessInfo) -> Option<Barrier> {
        let new_layout = self.layout.map(|cur| next.layout.unwrap_or(cur));
        let transition = self.layout != new_layout;
        let barrier = |src_stage, src_access| Barrier {
            resource,
            src_stage,
            src_access,
            dst_stage: next.stages,
            dst_access: next.all(),
            old_layout: self.layout,
            new_layout,
        };

        if next.is_write() || transition {
            // A write, or a layout transition (which writes the whole image), must come after
            // every read since the last write (execution dependency: reads leave nothing to
            // make available) or, with no such reads, after the last write itself.
            let src = if !self.readers.is_empty() {
                Some((self.readers, vk::AccessFlags2::NONE))
            } else if let Some(write) = self.last_write {
                Some(write)
            } else if transition {
                // First use of an import: nothing in the graph came before, but the
                // transition must not run before the semaphore that hands the image over.
                // Waiting on the use's own stages chains it after a semaphore wait at those
                // stages (see `Plan::first_use_stages`).
                let stages = if next.stages.is_empty() {
                    vk::PipelineStageFlags2::ALL_COMMANDS
                } else {
                    next.stages
                };
                Some((stages, vk::AccessFlags2::NONE))
            } else {
                // A write with nothing before it in the graph and no layout to change:
                // whatever came before is ordered by the submission's own synchronization.
                None
            };
            let result = src.map(|(stage, access)| barrier(stage, access));
            self.layout = new_layout;
            self.visible.clear();
            if next.is_write() {
                self.last_write = Some((next.stages, next.writes));
                self.readers = vk::PipelineStageFlags2::NONE;
            } else {
                // A transition for a read: the transition is the last write. Its writes are
                // made available automatically and visible to this use; a later reader at
                // other stages chains after this use's stages.
                self.last_write = Some((next.stages, vk::AccessFlags2::NONE));
                self.readers = next.stages;
                self.visible.push((next.stages, next.reads));
            }
            result
        } else {
            // A read in the current layout: only a write not yet visible here needs a barrier.
            let result = match self.last_write {
                Some((stage, access)) if !self.covered(next.stages, next.reads) => {
                    self.visible.push((next.stages, next.reads));
                    Some(barrier(stage, access))
                }
                _ => None,
            };
            self.readers |= next.stages;
            result
        }
    }
}
