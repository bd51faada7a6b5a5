//! `gpu_layouts!`: the structs the GPU reads, each defined once for Rust and GLSL. A module's
//! list (`crowd/device_layouts.rs`, `motion/device_layouts.rs`, `gpu/frame/device_layouts.rs`) is
//! pasted into its module with `include!` and made `#[repr(C)]` structs here; `build.rs`
//! reads the same lists and writes each as GLSL (`crowd_layouts.glsl`, `motion_layouts.glsl`,
//! `renderer_layouts.glsl`: a struct and a `NAME_FIELDS` macro of its members per entry), which
//! the shaders include, so no shader repeats a struct the Rust side defines.
//!
//! An entry: its docs, `RustName => GlslName { member: Type [= "glsl spelling"], ... }`. A
//! member's GLSL type follows from its Rust type (`u32` uint, `i32` int, `f32` float, `[f32; 2]`
//! vec2, `[f32; 4]` and `Vec4` vec4, `[u32; 4]` uvec4, `Mat4` mat4, `Mat3x4` three vec4 rows,
//! another entry of the same list its GLSL name, other arrays arrays of their element, with the
//! length as written) unless spelled out. Attributes before an entry's name (a `derive`)
//! reach its Rust struct. The
//! module that includes a list imports what its Rust types name (`Mat3x4`, `Pod`,
//! `Zeroable`, constants). `tests/gpu_layouts.rs` checks the compiled shaders against the
//! Rust structs.

/// Makes each entry of a layout list a `#[repr(C)]` struct of public fields (the GLSL name and
/// any GLSL spelling are `build.rs`'s).
macro_rules! gpu_layouts {
    ($(
        $(#[$doc:meta])*
        $name:ident => $glsl:ident {
            $($(#[$field_doc:meta])* $field:ident: $ty:ty $(= $spelled:literal)?,)*
        }
    )*) => {
        $(
            $(#[$doc])*
            #[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
            #[repr(C)]
            pub struct $name {
                $($(#[$field_doc])* pub $field: $ty,)*
            }
        )*
    };
}
