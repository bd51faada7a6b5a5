//! The samplers and small default textures every pass shares, made once per renderer:
//! material, shadow-comparison, screen and ambient-occlusion samplers; 1x1 white and flat
//! normal textures for materials without maps; the ambient occlusion's rotation noise; and
//! the depth placeholder the shadow-map binding holds when there is no shadow pass.

use std::sync::Arc;

use ash::vk;

use crate::asset::texture::Decoded;
use crate::gpu::device::context::GpuContext;
use crate::gpu::device::error::GpuError;
use crate::gpu::device::image::GpuImage;
use crate::gpu::device::texture::{self, Sampler, TexelSpace, sampler};

/// The objects behind [`Samplers`]; see the module documentation.
pub struct SharedSamplers {
    material: Sampler,
    shadow: Sampler,
    screen: Sampler,
    ao: Sampler,
    white: GpuImage,
    flat_normal: GpuImage,
    noise: GpuImage,
    no_shadow: GpuImage,
}

impl SharedSamplers {
    /// Makes every sampler and default texture on `ctx`.
    pub fn new(ctx: &Arc<GpuContext>) -> Result<Self, GpuError> {
        Ok(Self {
            material: texture::create_sampler(ctx)?,
            shadow: shadow_sampler(ctx)?,
            screen: screen_sampler(ctx)?,
            ao: ao_sampler(ctx)?,
            white: texture::solid(ctx, "white", [255; 4], TexelSpace::Srgb)?,
            flat_normal: texture::solid(
                ctx,
                "flat normal",
                [128, 128, 255, 255],
                TexelSpace::Linear,
            )?,
            noise: noise_texture(ctx)?,
            no_shadow: texture::depth_placeholder(ctx)?,
        })
    }

    /// The handles, as passes use them.
    pub fn handles(&self) -> Samplers {
        Samplers {
            material: self.material.sampler,
            shadow: self.shadow.sampler,
            screen: self.screen.sampler,
            ao: self.ao.sampler,
            white: self.white.view,
            flat_normal: self.flat_normal.view,
            noise: self.noise.view,
            no_shadow: self.no_shadow.view,
        }
    }
}

/// The samplers and small textures the passes share.
#[derive(Clone, Copy, Debug)]
pub struct Samplers {
    /// Material textures: trilinear, repeating.
    pub material: vk::Sampler,
    /// The shadow map: depth comparison, bilinear, outside the map counts as lit.
    pub shadow: vk::Sampler,
    /// Screen-sized images: nearest texel, clamped.
    pub screen: vk::Sampler,
    /// The half-size ambient occlusion: bilinear, clamped.
    pub ao: vk::Sampler,
    /// 1x1 white (no base colour map; AO when it is off).
    pub white: vk::ImageView,
    /// 1x1 flat normal (no normal map).
    pub flat_normal: vk::ImageView,
    /// 4x4 rotation noise for the ambient occlusion.
    pub noise: vk::ImageView,
    /// What the shadow-map binding holds when there is no shadow pass: a depth image (the
    /// comparison sampler needs one), never sampled then.
    pub no_shadow: vk::ImageView,
}

/// The shadow map's sampler: hardware depth comparison (less or equal: lit), bilinear so
/// each tap is already a 2x2 filter, and white border so outside the map is lit.
fn shadow_sampler(ctx: &Arc<GpuContext>) -> Result<Sampler, GpuError> {
    let info = vk::SamplerCreateInfo::default()
        .mag_filter(vk::Filter::LINEAR)
        .min_filter(vk::Filter::LINEAR)
        .mipmap_mode(vk::SamplerMipmapMode::NEAREST)
        .address_mode_u(vk::SamplerAddressMode::CLAMP_TO_BORDER)
        .address_mode_v(vk::SamplerAddressMode::CLAMP_TO_BORDER)
        .address_mode_w(vk::SamplerAddressMode::CLAMP_TO_BORDER)
        .border_color(vk::BorderColor::FLOAT_OPAQUE_WHITE)
        .compare_enable(true)
        .compare_op(vk::CompareOp::LESS_OR_EQUAL)
        .max_lod(0.0);
    sampler(ctx, "shadow comparison", &info)
}

/// Screen-sized images (depth, normals, AO): nearest texel, clamped to the edge.
fn screen_sampler(ctx: &Arc<GpuContext>) -> Result<Sampler, GpuError> {
    let info = vk::SamplerCreateInfo::default()
        .mag_filter(vk::Filter::NEAREST)
        .min_filter(vk::Filter::NEAREST)
        .mipmap_mode(vk::SamplerMipmapMode::NEAREST)
        .address_mode_u(vk::SamplerAddressMode::CLAMP_TO_EDGE)
        .address_mode_v(vk::SamplerAddressMode::CLAMP_TO_EDGE)
        .address_mode_w(vk::SamplerAddressMode::CLAMP_TO_EDGE)
        .max_lod(0.0);
    sampler(ctx, "screen", &info)
}

/// The ambient occlusion as the forward pass reads it: bilinear (it is half the render
/// size), clamped to the edge.
fn ao_sampler(ctx: &Arc<GpuContext>) -> Result<Sampler, GpuError> {
    let info = vk::SamplerCreateInfo::default()
        .mag_filter(vk::Filter::LINEAR)
        .min_filter(vk::Filter::LINEAR)
        .mipmap_mode(vk::SamplerMipmapMode::NEAREST)
        .address_mode_u(vk::SamplerAddressMode::CLAMP_TO_EDGE)
        .address_mode_v(vk::SamplerAddressMode::CLAMP_TO_EDGE)
        .address_mode_w(vk::SamplerAddressMode::CLAMP_TO_EDGE)
        .max_lod(0.0);
    sampler(ctx, "ambient occlusion", &info)
}

/// The ambient occlusion's 4x4 rotation noise: unit vectors in the tangent plane (z = 0),
/// from a fixed sequence so frames are reproducible, encoded as `v * 0.5 + 0.5`.
fn noise_texture(ctx: &Arc<GpuContext>) -> Result<GpuImage, GpuError> {
    let mut rgba8 = Vec::with_capacity(64);
    for i in 0..16u32 {
        // Sixteen directions around the circle, visited in a scrambled order so that
        // neighbouring pixels rotate their kernels far apart.
        let k = (i * 7 + 3) % 16;
        let a = k as f32 / 16.0 * std::f32::consts::TAU;
        let enc = |x: f32| ((x * 0.5 + 0.5) * 255.0).round() as u8;
        rgba8.extend_from_slice(&[enc(a.cos()), enc(a.sin()), 128, 255]);
    }
    let texture = Decoded::rgba8(4, 4, rgba8);
    texture::upload(
        ctx,
        "ssao noise",
        &texture,
        TexelSpace::Linear,
        texture::BlockUpload::WhenSupported,
    )
}
