//! Declaring resources and passes. Declaration never fails: every check waits for
//! [`GraphBuilder::compile`], so building a graph reads as a plain list of passes.

use ash::vk;

use super::access::Access;
use super::compile;
use super::declaration::{Declarations, DeclaredUse, PassDecl};
use super::error::GraphError;
use super::plan::Plan;
use super::resource::{ImageDesc, ImageKind, PassId, Resource, ResourceId};

/// Collects resources and passes, then compiles them into a [`Plan`].
#[derive(Debug, Clone, Default)]
pub struct GraphBuilder {
    declared: Declarations,
}

impl GraphBuilder {
    /// An empty graph.
    pub fn new() -> Self {
        Self::default()
    }

    fn add(&mut self, resource: Resource) -> ResourceId {
        let id = ResourceId(self.declared.resources.len() as u32);
        self.declared.resources.push(resource);
        id
    }

    /// An image the graph creates and owns (recreated on resize by the executor). Its
    /// contents do not survive from one frame to the next: its first use each frame
    /// transitions it from `UNDEFINED`.
    pub fn transient_image(&mut self, desc: ImageDesc) -> ResourceId {
        self.add(Resource::Transient(desc))
    }

    /// An image provided each frame (swapchain image, headless target). `initial` is the
    /// layout it arrives in (`UNDEFINED` for swapchain images: contents discarded), and
    /// `final_access` what it must be ready for after the graph ([`Access::Present`],
    /// [`Access::TransferSrc`], ...); an image with a final access is an output.
    pub fn imported_image(
        &mut self,
        name: &'static str,
        kind: ImageKind,
        initial: vk::ImageLayout,
        final_access: Option<Access>,
    ) -> ResourceId {
        self.add(Resource::ImportedImage {
            name,
            kind,
            initial,
            final_access,
        })
    }

    /// A buffer provided each frame (a ring slot, a readback buffer, vertex buffers).
    pub fn imported_buffer(&mut self, name: &'static str) -> ResourceId {
        self.add(Resource::ImportedBuffer {
            name,
            final_access: None,
            persistent: false,
        })
    }

    /// A buffer bound every frame whose contents carry from one frame to the next (state a
    /// feature keeps on the device): its first use in a frame waits for the last use of the
    /// frame before (on the same queue), as if this graph had run then too.
    pub fn persistent_buffer(&mut self, name: &'static str) -> ResourceId {
        self.add(Resource::ImportedBuffer {
            name,
            final_access: None,
            persistent: true,
        })
    }

    /// A buffer provided each frame that the CPU reads once the frame is done (a readback
    /// buffer): the graph ends with a barrier making the device's writes visible to the host,
    /// and the buffer counts as an output (passes writing it are kept).
    pub fn host_read_buffer(&mut self, name: &'static str) -> ResourceId {
        self.add(Resource::ImportedBuffer {
            name,
            final_access: Some(Access::HostRead),
            persistent: false,
        })
    }

    /// Starts declaring a pass. The pass exists from this call on; the returned builder adds
    /// its uses.
    pub fn pass(&mut self, name: &'static str) -> PassBuilder<'_> {
        let id = PassId(self.declared.passes.len() as u32);
        self.declared.passes.push(PassDecl {
            name,
            uses: Vec::new(),
            side_effect: false,
        });
        PassBuilder { graph: self, id }
    }

    /// Marks a resource as read after the graph (a readback buffer, a target kept for the
    /// next frame), so the passes that write it are not culled.
    pub fn mark_output(&mut self, res: ResourceId) {
        self.declared.outputs.push(res);
    }

    /// Checks the declarations, culls passes whose writes nothing needs, and derives every
    /// barrier and layout transition. Passes run in declaration order.
    pub fn compile(&self) -> Result<Plan, GraphError> {
        compile::compile(&self.declared)
    }
}

/// Adds uses to one pass; see [`GraphBuilder::pass`].
#[derive(Debug)]
pub struct PassBuilder<'g> {
    graph: &'g mut GraphBuilder,
    id: PassId,
}

impl PassBuilder<'_> {
    fn decl(&mut self) -> &mut PassDecl {
        // `id` was pushed by `GraphBuilder::pass`, and the exclusive borrow of the graph
        // means nothing can have removed it since.
        &mut self.graph.declared.passes[self.id.0 as usize]
    }

    /// The pass reads `res` as `access` (which must not write).
    pub fn read(&mut self, res: ResourceId, access: Access) -> &mut Self {
        self.decl().uses.push(DeclaredUse {
            resource: res,
            access,
            declared_write: false,
        });
        self
    }

    /// The pass writes `res` as `access` (which must write).
    pub fn write(&mut self, res: ResourceId, access: Access) -> &mut Self {
        self.decl().uses.push(DeclaredUse {
            resource: res,
            access,
            declared_write: true,
        });
        self
    }

    /// The pass does something outside the graph (a debug overlay, a timestamp query), so it
    /// is never culled.
    pub fn side_effect(&mut self) -> &mut Self {
        self.decl().side_effect = true;
        self
    }

    /// This pass's id (the pass is already part of the graph; this only names it).
    pub fn id(&self) -> PassId {
        self.id
    }

    /// Ends the declaration and returns the pass's id.
    pub fn finish(&mut self) -> PassId {
        self.id
    }
}
