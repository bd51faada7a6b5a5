// The crowd's structs the GPU reads, each written once, as Rust and GLSL both read it:
// `gpu_layouts!` (src/layouts.rs) makes each entry a `#[repr(C)]` Rust struct in
// `crowd::gpu_layouts`, and build.rs makes it the GLSL the shaders include as
// `crowd_layouts.glsl`. See src/layouts.rs for the notation.
//
// Plain tokens only: no `use`, no inner doc comments, since build.rs includes this file too.

gpu_layouts! {
    /// Per-instance data written next to the palettes in the same pass (80 bytes, std430).
    InstanceRecord => InstanceRecord {
        /// Model-to-world transform, three rows of a column-vector affine matrix.
        world: Mat3x4,
        /// Exact: index of the instance's first palette matrix in the slot's palette array. Baked:
        /// index, in the baked table, of the first matrix of the frame before its time.
        palette_base: u32,
        /// Low 16 bits ([`RECORD_JOINTS_MASK`](crate::crowd::RECORD_JOINTS_MASK)): palette matrices
        /// per pose (its model's joint count, at most 65,535; a baked frame's length). High 16
        /// bits: how far through the clip playing the instance is, in 65,535ths of its duration
        /// (what an impostor card shows).
        joints: u32,
        /// The model's index in its crowd (low 16 bits),
        /// [`RECORD_BAKED`](crate::crowd::RECORD_BAKED), and the instance's look above them
        /// ([`RECORD_LOOK_SHIFT`](crate::crowd::RECORD_LOOK_SHIFT)).
        model_flags: u32,
        /// The bound the culling pass tests, as indices into the model's bounds (one per clip, then
        /// the bind pose): the clip playing in the low 16 bits, the clip faded from in the high 16
        /// (the same when not fading), so a cross-fading instance is tested against the union of
        /// both.
        bounds: u32,
        /// Baked: the weight of the frame after `palette_base`'s (0 to 1).
        frame_weight: f32,
        /// Baked and fading: the baked-table index of the faded-from clip's frame.
        fade_base: u32,
        /// Baked and fading: the weight of the frame after `fade_base`'s.
        fade_frame_weight: f32,
        /// Baked: the weight of the faded-from pose (0 when not fading).
        fade: f32,
    }
}
