//! `InstanceRecord`: what the GPU needs per instance besides its palette.

use bytemuck::{Pod, Zeroable};

use crate::anim::Mat3x4;

/// Per-instance data written next to the palettes in the same pass (64 bytes, std430-ready).
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
#[repr(C)]
pub struct InstanceRecord {
    /// Model-to-world transform, three rows of a column-vector affine matrix.
    pub world: Mat3x4,
    /// Index of the instance's first palette matrix in the slot's palette array.
    pub palette_base: u32,
    /// Index of the instance's model in its crowd.
    pub model: u32,
    /// Palette matrices of this instance (its model's joint count).
    pub joints: u32,
    /// Padding to 64 bytes.
    pub reserved: u32,
}

const _: () = assert!(std::mem::size_of::<InstanceRecord>() == 64);
