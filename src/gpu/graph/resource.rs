//! Names for what the graph schedules: resources (images and buffers) and passes.

use ash::vk;

use super::access::Access;

/// A resource declared on a [`super::GraphBuilder`]: an index into its resource list, valid
/// only with that builder and the plans it compiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ResourceId(pub u32);

/// A pass declared on a [`super::GraphBuilder`], numbered in declaration order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PassId(pub u32);

/// Which aspect of an image the graph synchronizes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ImageKind {
    /// A colour image (aspect `COLOR`).
    Color,
    /// A depth image (aspect `DEPTH`).
    Depth,
}

impl ImageKind {
    /// The image aspect barriers on this kind of image name.
    pub fn aspect(self) -> vk::ImageAspectFlags {
        match self {
            ImageKind::Color => vk::ImageAspectFlags::COLOR,
            ImageKind::Depth => vk::ImageAspectFlags::DEPTH,
        }
    }
}

/// The size of a transient image.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Extent {
    /// The frame's render size.
    Target,
    /// A fixed size in pixels, whatever the render size.
    Fixed(u32, u32),
    /// The render size divided by this (rounded down, at least one pixel).
    TargetScaled(u32),
}

impl Extent {
    /// The size in pixels for a frame rendered at `target`. A zero divisor (rejected by
    /// [`super::GraphBuilder::compile`]) is taken as one.
    pub fn resolve(self, target: vk::Extent2D) -> vk::Extent2D {
        match self {
            Extent::Target => target,
            Extent::Fixed(width, height) => vk::Extent2D { width, height },
            Extent::TargetScaled(divisor) => {
                let d = divisor.max(1);
                vk::Extent2D {
                    width: (target.width / d).max(1),
                    height: (target.height / d).max(1),
                }
            }
        }
    }
}

/// An image the graph creates and owns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ImageDesc {
    /// Name for logs, errors and debug labels.
    pub name: &'static str,
    /// Pixel format.
    pub format: vk::Format,
    /// Colour or depth.
    pub kind: ImageKind,
    /// Size, usually relative to the render size.
    pub extent: Extent,
    /// Samples per pixel (`TYPE_1`, or more for a multisampled attachment, which only
    /// attachment and resolve accesses can use).
    pub samples: vk::SampleCountFlags,
}

/// What a resource is and where it comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Resource {
    /// Created by the executor from `desc`; contents never survive into the next frame.
    Transient(ImageDesc),
    /// An image bound each frame.
    ImportedImage {
        name: &'static str,
        kind: ImageKind,
        initial: vk::ImageLayout,
        final_access: Option<Access>,
    },
    /// A buffer (or a range of one) bound each frame; `final_access` as for images
    /// ([`Access::HostRead`] for a readback buffer). `persistent`: the same buffer every
    /// frame, its contents carried from one frame to the next (a feature's state), so its
    /// first use in a frame waits for the previous frame's last.
    ImportedBuffer {
        name: &'static str,
        final_access: Option<Access>,
        persistent: bool,
    },
}

impl Resource {
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Resource::Transient(desc) => desc.name,
            Resource::ImportedImage { name, .. } | Resource::ImportedBuffer { name, .. } => name,
        }
    }

    pub(crate) fn is_image(&self) -> bool {
        !matches!(self, Resource::ImportedBuffer { .. })
    }

    /// The layout the image is in when the graph starts (`None` for buffers).
    pub(crate) fn initial_layout(&self) -> Option<vk::ImageLayout> {
        match self {
            Resource::Transient(_) => Some(vk::ImageLayout::UNDEFINED),
            Resource::ImportedImage { initial, .. } => Some(*initial),
            Resource::ImportedBuffer { .. } => None,
        }
    }

    /// Whether its contents are garbage until a pass writes it: reading it first is a bug.
    pub(crate) fn starts_undefined(&self) -> bool {
        self.initial_layout() == Some(vk::ImageLayout::UNDEFINED)
    }

    pub(crate) fn final_access(&self) -> Option<Access> {
        match self {
            Resource::ImportedImage { final_access, .. }
            | Resource::ImportedBuffer { final_access, .. } => *final_access,
            Resource::Transient(_) => None,
        }
    }
}
