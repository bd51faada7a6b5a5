//! How a pass uses a resource, and what that means to Vulkan: the stages that touch it, the
//! memory accesses they make, and the layout an image must be in. Every barrier the graph
//! derives starts from [`Access::info`], so this table is the one place that knows Vulkan's
//! stage and access names.

use ash::vk;

/// Shader stages that read or write a resource through a descriptor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stages {
    /// The vertex shader.
    Vertex,
    /// The fragment shader.
    Fragment,
    /// Both vertex and fragment shaders (one barrier covers both).
    VertexAndFragment,
    /// A compute shader.
    Compute,
}

impl Stages {
    /// The pipeline stages these shader stages run in.
    pub fn flags(self) -> vk::PipelineStageFlags2 {
        match self {
            Stages::Vertex => vk::PipelineStageFlags2::VERTEX_SHADER,
            Stages::Fragment => vk::PipelineStageFlags2::FRAGMENT_SHADER,
            Stages::VertexAndFragment => {
                vk::PipelineStageFlags2::VERTEX_SHADER | vk::PipelineStageFlags2::FRAGMENT_SHADER
            }
            Stages::Compute => vk::PipelineStageFlags2::COMPUTE_SHADER,
        }
    }
}

/// How a pass uses a resource. Each variant maps to stages, accesses, an image layout and
/// whether it writes (see [`Access::info`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Access {
    /// Rendered to as a colour attachment, without reading it (no blending, or load op
    /// `CLEAR`/`DONT_CARE`).
    ColorAttachmentWrite,
    /// Rendered to as a colour attachment that blending (or load op `LOAD`) also reads.
    ColorAttachmentReadWrite,
    /// Depth attachment with depth test and depth write (a prepass, or a forward pass that
    /// lays depth down itself).
    DepthAttachmentWrite,
    /// Depth attachment tested but not written (an equal test after a prepass), in the
    /// read-only layout.
    DepthAttachmentRead,
    /// The single-sample image a multisampled depth attachment is resolved into at the end of
    /// rendering. Resolves of colour and depth alike run in the colour-attachment-output
    /// stage with colour-attachment writes (the Vulkan specification's rule for resolve
    /// operations); the image is in the generic attachment layout. A colour resolve target is
    /// [`Access::ColorAttachmentWrite`].
    DepthResolveWrite,
    /// Sampled through a combined image sampler or sampled image.
    Sampled(Stages),
    /// Read as a storage image or storage buffer.
    StorageRead(Stages),
    /// Written as a storage image or storage buffer.
    StorageWrite(Stages),
    /// Read and written as a storage buffer or image, e.g. by atomics (counters): the earlier
    /// writes must be visible to it, and later uses must wait for its writes.
    StorageReadWrite(Stages),
    /// Read as a uniform buffer.
    UniformRead(Stages),
    /// Source of a copy or blit.
    TransferSrc,
    /// Destination of a copy, blit or clear.
    TransferDst,
    /// Bound as a vertex buffer.
    VertexBuffer,
    /// Bound as an index buffer.
    IndexBuffer,
    /// Read by an indirect draw or dispatch.
    IndirectRead,
    /// Written by the CPU before the frame is submitted (the palette ring). Queue submission
    /// makes host writes visible to the device, so this needs no barrier; the graph records
    /// it so the plan can say which buffers the CPU must fill ([`super::Plan::host_written`]).
    HostWrite,
    /// Read by the CPU after the frame (a readback buffer). Only valid as an imported
    /// buffer's `final_access`: the final barrier makes the device's writes visible to the
    /// host, which waits for the frame before reading.
    HostRead,
    /// The swapchain image after the graph, handed to the presentation engine. Only valid as
    /// an imported image's `final_access`.
    Present,
}

/// What an [`Access`] means to Vulkan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AccessInfo {
    /// Pipeline stages that touch the resource.
    pub stages: vk::PipelineStageFlags2,
    /// Memory reads those stages make.
    pub reads: vk::AccessFlags2,
    /// Memory writes those stages make (empty for a read-only access).
    pub writes: vk::AccessFlags2,
    /// The layout an image must be in; `None` for accesses only buffers have.
    pub layout: Option<vk::ImageLayout>,
}

impl AccessInfo {
    /// Reads and writes together: the destination access of a barrier before this use.
    pub fn all(&self) -> vk::AccessFlags2 {
        self.reads | self.writes
    }

    /// Whether this use changes the resource's contents.
    pub fn is_write(&self) -> bool {
        !self.writes.is_empty()
    }
}

/// What kinds of resource an access applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Applies {
    Image,
    Buffer,
    Both,
}

impl Access {
    /// Stages, accesses and layout of this use.
    pub fn info(self) -> AccessInfo {
        use vk::AccessFlags2 as A;
        use vk::ImageLayout as L;
        use vk::PipelineStageFlags2 as S;
        // Depth attachments are touched by both fragment-test stages: early tests (and the
        // load op) for most pipelines, late tests when the shader writes depth or discards.
        let depth_stages = S::EARLY_FRAGMENT_TESTS | S::LATE_FRAGMENT_TESTS;
        let (stages, reads, writes, layout) = match self {
            Access::ColorAttachmentWrite => (
                S::COLOR_ATTACHMENT_OUTPUT,
                A::NONE,
                A::COLOR_ATTACHMENT_WRITE,
                Some(L::COLOR_ATTACHMENT_OPTIMAL),
            ),
            Access::ColorAttachmentReadWrite => (
                S::COLOR_ATTACHMENT_OUTPUT,
                A::COLOR_ATTACHMENT_READ,
                A::COLOR_ATTACHMENT_WRITE,
                Some(L::COLOR_ATTACHMENT_OPTIMAL),
            ),
            // The depth test reads what it writes over.
            Access::DepthAttachmentWrite => (
                depth_stages,
                A::DEPTH_STENCIL_ATTACHMENT_READ,
                A::DEPTH_STENCIL_ATTACHMENT_WRITE,
                Some(L::DEPTH_ATTACHMENT_OPTIMAL),
            ),
            Access::DepthAttachmentRead => (
                depth_stages,
                A::DEPTH_STENCIL_ATTACHMENT_READ,
                A::NONE,
                Some(L::DEPTH_READ_ONLY_OPTIMAL),
            ),
            // ATTACHMENT_OPTIMAL (synchronization2) rather than DEPTH_ATTACHMENT_OPTIMAL: the
            // validation layer's best-practice check expects depth accesses in the latter,
            // while the specification puts resolve writes in the colour stage.
            Access::DepthResolveWrite => (
                S::COLOR_ATTACHMENT_OUTPUT,
                A::NONE,
                A::COLOR_ATTACHMENT_WRITE,
                Some(L::ATTACHMENT_OPTIMAL),
            ),
            // SHADER_READ rather than the narrower SHADER_SAMPLED_READ: the same for a sampled
            // image, and what the validation layer's best-practice check expects with
            // SHADER_READ_ONLY_OPTIMAL.
            Access::Sampled(s) => (
                s.flags(),
                A::SHADER_READ,
                A::NONE,
                Some(L::SHADER_READ_ONLY_OPTIMAL),
            ),
            Access::StorageRead(s) => {
                (s.flags(), A::SHADER_STORAGE_READ, A::NONE, Some(L::GENERAL))
            }
            Access::StorageWrite(s) => (
                s.flags(),
                A::NONE,
                A::SHADER_STORAGE_WRITE,
                Some(L::GENERAL),
            ),
            Access::StorageReadWrite(s) => (
                s.flags(),
                A::SHADER_STORAGE_READ,
                A::SHADER_STORAGE_WRITE,
                Some(L::GENERAL),
            ),
            Access::UniformRead(s) => (s.flags(), A::UNIFORM_READ, A::NONE, None),
            // ALL_TRANSFER rather than COPY: the same access covers copies, blits and clears.
            Access::TransferSrc => (
                S::ALL_TRANSFER,
                A::TRANSFER_READ,
                A::NONE,
                Some(L::TRANSFER_SRC_OPTIMAL),
            ),
            Access::TransferDst => (
                S::ALL_TRANSFER,
                A::NONE,
                A::TRANSFER_WRITE,
                Some(L::TRANSFER_DST_OPTIMAL),
            ),
            Access::VertexBuffer => (
                S::VERTEX_ATTRIBUTE_INPUT,
                A::VERTEX_ATTRIBUTE_READ,
                A::NONE,
                None,
            ),
            Access::IndexBuffer => (S::INDEX_INPUT, A::INDEX_READ, A::NONE, None),
            Access::IndirectRead => (S::DRAW_INDIRECT, A::INDIRECT_COMMAND_READ, A::NONE, None),
            Access::HostWrite => (S::HOST, A::NONE, A::HOST_WRITE, None),
            Access::HostRead => (S::HOST, A::HOST_READ, A::NONE, None),
            // Nothing on the queue touches the image after the transition: the semaphore the
            // frame's submit signals orders presentation after it.
            Access::Present => (S::NONE, A::NONE, A::NONE, Some(L::PRESENT_SRC_KHR)),
        };
        AccessInfo {
            stages,
            reads,
            writes,
            layout,
        }
    }

    /// Whether this access changes the resource's contents.
    pub fn is_write(self) -> bool {
        self.info().is_write()
    }

    /// Which resources the access makes sense for.
    pub(crate) fn applies(self) -> Applies {
        match self {
            Access::ColorAttachmentWrite
            | Access::ColorAttachmentReadWrite
            | Access::DepthAttachmentWrite
            | Access::DepthAttachmentRead
            | Access::DepthResolveWrite
            | Access::Sampled(_)
            | Access::Present => Applies::Image,
            Access::UniformRead(_)
            | Access::VertexBuffer
            | Access::IndexBuffer
            | Access::IndirectRead
            | Access::HostWrite
            | Access::HostRead => Applies::Buffer,
            Access::StorageRead(_)
            | Access::StorageWrite(_)
            | Access::StorageReadWrite(_)
            | Access::TransferSrc
            | Access::TransferDst => Applies::Both,
        }
    }

    /// The image usage flag an image needs for this access (empty for `Present`, which needs
    /// none, and for buffer-only accesses).
    pub fn image_usage(self) -> vk::ImageUsageFlags {
        use vk::ImageUsageFlags as U;
        match self {
            Access::ColorAttachmentWrite | Access::ColorAttachmentReadWrite => U::COLOR_ATTACHMENT,
            Access::DepthAttachmentWrite
            | Access::DepthAttachmentRead
            | Access::DepthResolveWrite => U::DEPTH_STENCIL_ATTACHMENT,
            Access::Sampled(_) => U::SAMPLED,
            Access::StorageRead(_) | Access::StorageWrite(_) | Access::StorageReadWrite(_) => {
                U::STORAGE
            }
            Access::TransferSrc => U::TRANSFER_SRC,
            Access::TransferDst => U::TRANSFER_DST,
            _ => U::empty(),
        }
    }

    /// The buffer usage flag a buffer needs for this access (empty for `HostWrite` and for
    /// image-only accesses).
    pub fn buffer_usage(self) -> vk::BufferUsageFlags {
        use vk::BufferUsageFlags as U;
        match self {
            Access::StorageRead(_) | Access::StorageWrite(_) | Access::StorageReadWrite(_) => {
                U::STORAGE_BUFFER
            }
            Access::UniformRead(_) => U::UNIFORM_BUFFER,
            Access::TransferSrc => U::TRANSFER_SRC,
            Access::TransferDst => U::TRANSFER_DST,
            Access::VertexBuffer => U::VERTEX_BUFFER,
            Access::IndexBuffer => U::INDEX_BUFFER,
            Access::IndirectRead => U::INDIRECT_BUFFER,
            _ => U::empty(),
        }
    }
}
