// The crowd's numbers that the shaders read too (the instance record's bits, the looks' tints,
// the mesh levels), each written once, here: src/gpu/frame/shader_interface.rs hands them to the
// GLSL under the same names by naming these (`crate::crowd::RECORD_BAKED`), and build.rs
// includes this file as its own `crowd` module so that those paths resolve there too.
//
// Plain constants only: no `use`, no paths into the crate, no inner doc comments, since the
// build script compiles this file on its own (`include!`).

/// Set in [`InstanceRecord::model_flags`](super::InstanceRecord::model_flags) when the palette
/// comes from the baked frames.
pub const RECORD_BAKED: u32 = 1 << 16;
/// The model index's bits in [`InstanceRecord::model_flags`](super::InstanceRecord::model_flags).
pub const RECORD_MODEL_MASK: u32 = 0xffff;
/// Where the instance's look ([`LookId`](super::LookId)) starts in
/// [`InstanceRecord::model_flags`](super::InstanceRecord::model_flags).
pub const RECORD_LOOK_SHIFT: u32 = 17;
/// The look's bits in [`InstanceRecord::model_flags`](super::InstanceRecord::model_flags)
/// (above [`RECORD_BAKED`]): every bit from [`RECORD_LOOK_SHIFT`] up.
pub const RECORD_LOOK_MASK: u32 = 0xfffe_0000;
/// The joint count's bits in [`InstanceRecord::joints`](super::InstanceRecord::joints); the
/// clip's phase is above them.
pub const RECORD_JOINTS_MASK: u32 = 0xffff;
/// Where the clip's phase starts in [`InstanceRecord::joints`](super::InstanceRecord::joints).
pub const RECORD_PHASE_SHIFT: u32 = 16;
/// Materials a look tints, at most: a model's further materials keep their own colours.
pub const MAX_LOOK_TINTS: usize = 8;
/// Mesh levels a model may draw with (level 0 the model's own mesh).
pub const LOD_LEVELS: usize = 5;

const _: () = assert!(RECORD_LOOK_MASK == !0 << RECORD_LOOK_SHIFT);
