//! What [`super::GraphBuilder::compile`] and [`super::record_barriers`] reject.

use thiserror::Error;

use super::access::Access;
use super::resource::ResourceId;

/// A graph that cannot be scheduled, or a binding that does not match it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GraphError {
    /// A resource id this builder never handed out (from another builder, or made up).
    #[error("pass {pass}: resource {resource:?} does not belong to this graph")]
    UnknownResource {
        /// The pass using it (`"mark_output"` for an output).
        pass: &'static str,
        /// The id.
        resource: ResourceId,
    },
    /// An access for images on a buffer, or for buffers on an image.
    #[error("pass {pass}: {access:?} does not apply to {resource}")]
    WrongResourceType {
        /// The pass.
        pass: &'static str,
        /// The resource's name.
        resource: &'static str,
        /// The access.
        access: Access,
    },
    /// `read` with an access that writes, or `write` with one that only reads.
    #[error("pass {pass}: {access:?} on {resource} was declared as a {declared}")]
    MisdeclaredAccess {
        /// The pass.
        pass: &'static str,
        /// The resource's name.
        resource: &'static str,
        /// The access.
        access: Access,
        /// `"read"` or `"write"`: how it was declared.
        declared: &'static str,
    },
    /// [`Access::Present`] or [`Access::HostRead`] used by a pass; they only describe a
    /// resource after the graph.
    #[error(
        "pass {pass}: Present and HostRead are only final accesses, not uses by a pass ({resource})"
    )]
    PresentInPass {
        /// The pass.
        pass: &'static str,
        /// The resource's name.
        resource: &'static str,
    },
    /// One pass uses one image in two layouts at once (say, rendering to it while sampling
    /// it); barriers cover whole images, so that cannot be synchronized.
    #[error(
        "pass {pass}: {resource} used as both {first:?} and {second:?}, which need different layouts"
    )]
    ConflictingLayouts {
        /// The pass.
        pass: &'static str,
        /// The image's name.
        resource: &'static str,
        /// The first use declared.
        first: Access,
        /// The use that disagrees with it.
        second: Access,
    },
    /// A pass reads an image whose contents are undefined (a transient image, or an import
    /// arriving in `UNDEFINED`) before any earlier pass wrote it.
    #[error("pass {pass} reads {resource} before any earlier pass writes it")]
    ReadBeforeWrite {
        /// The pass.
        pass: &'static str,
        /// The resource's name.
        resource: &'static str,
    },
    /// [`Access::HostWrite`] after a pass already used the buffer on the device: host writes
    /// happen before submission, so they cannot follow device work in the same frame.
    #[error("pass {pass}: host write to {resource} after earlier passes used it on the device")]
    HostWriteAfterDeviceUse {
        /// The pass.
        pass: &'static str,
        /// The buffer's name.
        resource: &'static str,
    },
    /// An imported image's final access is not something an image can be used for.
    #[error("{resource}: {access:?} is not a final access for an image")]
    InvalidFinalAccess {
        /// The image's name.
        resource: &'static str,
        /// The access.
        access: Access,
    },
    /// A transient image with a zero size or a zero divisor.
    #[error("{resource}: image extent has a zero dimension or divisor")]
    ZeroExtent {
        /// The image's name.
        resource: &'static str,
    },
    /// [`super::record_barriers`] found an image barrier's resource bound to a buffer, or the
    /// other way round.
    #[error("barrier on {resource:?} does not match what it is bound to")]
    BindingMismatch {
        /// The id.
        resource: ResourceId,
    },
}
