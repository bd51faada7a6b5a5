// The renderer's structs the GPU reads, each written once, as Rust and GLSL both read it:
// `gpu_layouts!` (src/layouts.rs) makes each entry a `#[repr(C)]` Rust struct in
// `gpu::gpu_layouts`, and build.rs makes it the GLSL the shaders include as
// `renderer_layouts.glsl`. See src/layouts.rs for the notation.
//
// Plain tokens only: no `use`, no inner doc comments, since build.rs includes this file too.

gpu_layouts! {
    /// One look as the shaders read it (128 bytes, std430): a linear RGB factor per material, and 1
    /// where the material is drawn, 0 where the look hides it.
    GpuLook => Look {
        /// Per material index: RGB, and whether it is drawn (1 or 0).
        tints: [[f32; 4]; MAX_LOOK_TINTS],
    }
}
