//! The per-frame uniforms and per-draw push constants (`shaders/frame.glsl`,
//! `shaders/materials.glsl`), defined once for Rust and GLSL in `gpu/frame/device_layouts.rs`, and
//! the ambient-occlusion kernel they carry.

pub use crate::gpu::frame::gpu_layouts::{DrawConstants, FrameData};
use glam::Vec4;

pub use crate::gpu::frame::shader_interface::SSAO_KERNEL;

const _: () = assert!(size_of::<FrameData>() == 864);
const _: () = assert!(size_of::<DrawConstants>() == 48);

/// Where in a frame's uniform buffer the near cascade's pass finds its copy of the frame's
/// uniforms (the same but for `light_view_proj`, which is the near cascade's, so the shadow
/// pass's shaders draw either square unchanged): past the frame's own, at a multiple of the
/// largest uniform-offset alignment Vulkan allows a device (256 bytes).
pub const NEAR_FRAME_OFFSET: u64 = 1024;
const _: () = assert!(size_of::<FrameData>() as u64 <= NEAR_FRAME_OFFSET);

/// A frame's uniform buffer: the frame's uniforms, then the near cascade's copy.
pub const FRAME_UNIFORMS_SIZE: u64 = NEAR_FRAME_OFFSET + size_of::<FrameData>() as u64;

/// The ambient-occlusion kernel: points in the unit hemisphere around +Z, from a fixed
/// sequence (the same every run, so frames are reproducible), pulled towards the centre so
/// that near occluders count more than far ones.
pub fn ssao_kernel() -> [Vec4; SSAO_KERNEL] {
    let mut kernel = [Vec4::ZERO; SSAO_KERNEL];
    for (i, k) in kernel.iter_mut().enumerate() {
        // Golden-angle spiral over the hemisphere, with a radical-inverse length.
        let t = (i as f32 + 0.5) / SSAO_KERNEL as f32;
        let z = 1.0 - t * 0.9; // stay off the tangent plane: grazing samples self-occlude
        let r = (1.0 - z * z).sqrt();
        let phi = i as f32 * 2.399_963;
        let len = {
            let mut bits = (i as u32 + 1).reverse_bits();
            bits >>= 8;
            (bits as f32 / (1u32 << 24) as f32).max(0.1)
        };
        let scale = 0.1 + 0.9 * len * len;
        *k = Vec4::new(r * phi.cos(), r * phi.sin(), z, 0.0) * scale;
    }
    kernel
}
