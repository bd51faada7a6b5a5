//! The frame graph: passes declare the images and buffers they read and write, and how; the
//! graph culls passes whose outputs nothing needs and derives every barrier and image layout
//! transition (synchronization2 stages, accesses and layouts). Nobody writes a barrier by
//! hand.
//!
//! A [`GraphBuilder`] is compiled once (and again on resize, or when passes are switched on or
//! off) into a [`Plan`]; the plan is executed every frame with that frame's handles bound to
//! its [`ResourceId`]s (a ring slot, the acquired swapchain image). Executing a plan allocates
//! nothing: it is a list of [`Step`]s, each with a slice of [`Barrier`]s that
//! [`record_barriers`] turns into one `vkCmdPipelineBarrier2` using reusable
//! [`BarrierScratch`] arrays.
//!
//! # Example
//!
//! A depth prepass, a forward pass that tests against that depth (equal test, no depth
//! write) while writing colour, and a copy of the colour into a readback buffer:
//!
//! ```
//! use ash::vk;
//! use throng::gpu::graph::{Access, Extent, GraphBuilder, ImageDesc, ImageKind, Stages};
//!
//! let mut g = GraphBuilder::new();
//! let depth = g.transient_image(ImageDesc {
//!     name: "depth",
//!     format: vk::Format::D32_SFLOAT,
//!     kind: ImageKind::Depth,
//!     extent: Extent::Target,
//!     samples: vk::SampleCountFlags::TYPE_1,
//! });
//! // A headless target: arrives with undefined contents, nothing expected of it afterwards.
//! let target = g.imported_image("target", ImageKind::Color, vk::ImageLayout::UNDEFINED, None);
//! let palettes = g.imported_buffer("palette ring slot");
//! let readback = g.imported_buffer("readback");
//!
//! let prepass = g
//!     .pass("depth prepass")
//!     .read(palettes, Access::StorageRead(Stages::Vertex))
//!     .write(depth, Access::DepthAttachmentWrite)
//!     .finish();
//! let forward = g
//!     .pass("forward")
//!     .read(palettes, Access::StorageRead(Stages::Vertex))
//!     .read(depth, Access::DepthAttachmentRead)
//!     .write(target, Access::ColorAttachmentWrite)
//!     .finish();
//! let copy = g
//!     .pass("readback")
//!     .read(target, Access::TransferSrc)
//!     .write(readback, Access::TransferDst)
//!     .finish();
//! // The CPU reads the buffer after the frame: without this the whole graph would be culled.
//! g.mark_output(readback);
//!
//! let plan = g.compile()?;
//! let order: Vec<_> = plan.steps().iter().map(|s| s.pass).collect();
//! assert_eq!(order, [prepass, forward, copy]);
//! // Before the forward pass: depth goes from DEPTH_ATTACHMENT_OPTIMAL to
//! // DEPTH_READ_ONLY_OPTIMAL, and the target from UNDEFINED to COLOR_ATTACHMENT_OPTIMAL.
//! let forward_barriers = plan.barriers(&plan.steps()[1]);
//! assert_eq!(forward_barriers.len(), 2);
//! assert_eq!(
//!     forward_barriers[0].new_layout,
//!     Some(vk::ImageLayout::DEPTH_READ_ONLY_OPTIMAL)
//! );
//! assert!(plan.image_usage(depth).contains(vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT));
//! # Ok::<(), throng::gpu::graph::GraphError>(())
//! ```
//!
//! Each frame the executor records the plan like this:
//!
//! ```no_run
//! use ash::vk;
//! use throng::gpu::graph::{
//!     BarrierScratch, Bound, GraphError, PassId, Plan, ResourceId, record_barriers,
//! };
//!
//! fn record_frame(
//!     device: &ash::Device,
//!     cmd: vk::CommandBuffer,
//!     plan: &Plan,
//!     bind: impl Fn(ResourceId) -> Bound,
//!     scratch: &mut BarrierScratch,
//!     mut run_pass: impl FnMut(PassId),
//! ) -> Result<(), GraphError> {
//!     for step in plan.steps() {
//!         record_barriers(plan.barriers(step), &bind, scratch, |dependency| {
//!             // SAFETY: `cmd` is recording on `device` (Vulkan 1.3), outside rendering, and
//!             // `bind` returns live handles.
//!             unsafe { device.cmd_pipeline_barrier2(cmd, dependency) }
//!         })?;
//!         run_pass(step.pass);
//!     }
//!     record_barriers(plan.final_barriers(), &bind, scratch, |dependency| {
//!         // SAFETY: as above.
//!         unsafe { device.cmd_pipeline_barrier2(cmd, dependency) }
//!     })
//! }
//! ```
//!
//! # Rules
//!
//! - **Order.** Passes run in the order they were declared; the graph never reorders them.
//!   A pass may read only what an earlier pass wrote, or an import; reading an image whose
//!   contents are undefined (a transient, or an import arriving in `UNDEFINED`) before any
//!   write is an error.
//! - **Culling.** Outputs are imported images with a `final_access`, resources passed to
//!   [`GraphBuilder::mark_output`], and passes marked [`PassBuilder::side_effect`]. Walking
//!   back from them, a pass is kept when it writes a needed resource; what a kept pass reads
//!   becomes needed. A later write never makes an earlier one dead (writes may be partial),
//!   so every earlier writer of a needed resource is kept. Culled passes contribute no
//!   barriers and no image usage.
//! - **Barriers**, per resource, from its last write, the stages that have read since, the
//!   (stage, access) pairs the write is already visible to, and its layout:
//!   read after write waits on the write; a read at a stage and access the write is already
//!   visible to needs nothing; a write (or any layout transition) after reads is an
//!   execution dependency on those reads' stages, and after a write with no reads between
//!   waits on that write. Each pass's barriers are merged into one list.
//! - **Transient images** transition from `UNDEFINED` at their first use each frame, waiting
//!   on the previous frame's last use of them (frames in flight share them on one queue).
//! - **Imports** come with their own synchronization (semaphores, fences). The first barrier
//!   on an import that needs a layout change waits on the first use's own stages, so it
//!   chains after a semaphore wait at those stages: the acquire semaphore must be waited on
//!   at [`Plan::first_use_stages`] (or at an earlier stage, `ALL_COMMANDS` being the
//!   simplest).
//! - **Present**: the final barrier to `PRESENT_SRC_KHR` has no destination stage or access;
//!   the semaphore the submit signals (at `ALL_COMMANDS`) orders presentation after it.
//! - **Host writes** ([`Access::HostWrite`]) need no barrier: submission makes them visible.
//!   They must come before any device use of the buffer in the frame.
//! - **Depth layouts** are `DEPTH_ATTACHMENT_OPTIMAL` and `DEPTH_READ_ONLY_OPTIMAL`, so the
//!   device must enable `separateDepthStencilLayouts` (Vulkan 1.2 core), and depth images
//!   should use a depth-only format such as `D32_SFLOAT`.

mod access;
mod barriers;
mod builder;
mod compile;
mod declaration;
mod error;
mod one_off;
mod plan;
mod resource;
mod state;
#[cfg(test)]
mod tests;

pub use access::{Access, AccessInfo, Stages};
pub use barriers::{BarrierScratch, Bound, record_barriers};
pub use builder::{GraphBuilder, PassBuilder};
pub use error::GraphError;
pub use one_off::run_plan_once;
pub use plan::{Barrier, Plan, Step, StepUse};
pub use resource::{Extent, ImageDesc, ImageKind, PassId, ResourceId};
