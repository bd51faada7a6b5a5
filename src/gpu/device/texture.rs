//! Textures: a material's texture, decoded by the loader's [`crate::asset::texture::decode`] once
//! when its model is uploaded, goes to the device either as its blocks (BC1, BC2, BC3 and BC7
//! with the file's mip levels, when the device samples the format) or as RGBA8 (PNG and JPEG,
//! uncompressed DDS, and block formats the device cannot sample or the renderer does not read
//! as stored, decoded on the CPU). An RGBA8 texture with one level gets a full mip chain built
//! on the CPU (so it does not depend on which formats a device can blit). Also here: the 1x1
//! defaults that stand in for a material without a texture, and the sampler they are all read
//! with.
//!
//! Uploads happen once at load time, outside the frame graph: their two layout transitions
//! (before and after the copies), and the one that readies the shadow-map placeholder, are
//! the only barriers written by hand in the renderer.

use std::sync::Arc;

use ash::vk;
use gpu_allocator::MemoryLocation;

use super::buffer::GpuBuffer;
use super::context::GpuContext;
use super::error::{GpuError, VkContext};
use super::image::{GpuImage, ImageInfo};
use crate::asset::texture::{BlockFormat, Decoded, TexelFormat};

/// Setting `THRONG_DECODE_BC_ON_CPU=1` makes every renderer decode block-compressed textures
/// on the CPU, as on a device without BC support (to compare the two paths).
pub const DECODE_BC_ON_CPU_ENV: &str = "THRONG_DECODE_BC_ON_CPU";

/// How block-compressed (BCn) textures reach the device.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BlockUpload {
    /// As their blocks, where the device samples the format; decoded on the CPU otherwise.
    #[default]
    WhenSupported,
    /// Always decoded to RGBA8 on the CPU.
    DecodeOnCpu,
}

impl BlockUpload {
    /// [`Self::DecodeOnCpu`] when [`DECODE_BC_ON_CPU_ENV`] is `1`, the default otherwise.
    pub fn from_env() -> Self {
        match std::env::var(DECODE_BC_ON_CPU_ENV).as_deref() {
            Ok("1") => Self::DecodeOnCpu,
            _ => Self::WhenSupported,
        }
    }
}

/// How a texture's texels are to be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TexelSpace {
    /// Colour, stored sRGB-encoded (base colour maps): decoded to linear when sampled, and
    /// mips averaged in linear light.
    Srgb,
    /// Data (normal maps): averaged as stored.
    Linear,
}

/// One mip level: width, height, bytes.
type Level = (u32, u32, Vec<u8>);

/// Uploads `texture` (see the module documentation for the format chosen and the levels).
pub fn upload(
    ctx: &Arc<GpuContext>,
    name: &str,
    texture: &Decoded,
    space: TexelSpace,
    blocks: BlockUpload,
) -> Result<GpuImage, GpuError> {
    let max = ctx.physical.limits.max_image_dimension2_d;
    if texture.width > max || texture.height > max {
        return Err(GpuError::Other(format!(
            "texture {name} is {}x{}, larger than the device's {max}x{max}",
            texture.width, texture.height
        )));
    }
    let srgb = space == TexelSpace::Srgb;
    let as_blocks = match texture.format {
        TexelFormat::Block(b) if blocks == BlockUpload::WhenSupported && b.sampled_as_stored() => {
            let format = block_format(b, space);
            samples(ctx, format).then_some(format)
        }
        _ => None,
    };
    let (format, chain) = match as_blocks {
        Some(format) => (format, levels_of(texture)),
        None => {
            let rgba = texture.to_rgba8(srgb);
            let chain = match rgba.levels.as_slice() {
                [only] => mip_chain(rgba.width, rgba.height, only, space),
                _ => levels_of(&rgba),
            };
            let format = if srgb {
                vk::Format::R8G8B8A8_SRGB
            } else {
                vk::Format::R8G8B8A8_UNORM
            };
            (format, chain)
        }
    };
    copy_levels(ctx, name, format, &chain)
}

/// The Vulkan format of `block` read as `space`.
pub fn block_format(block: BlockFormat, space: TexelSpace) -> vk::Format {
    let srgb = space == TexelSpace::Srgb;
    match (block, srgb) {
        (BlockFormat::Bc1, true) => vk::Format::BC1_RGBA_SRGB_BLOCK,
        (BlockFormat::Bc1, false) => vk::Format::BC1_RGBA_UNORM_BLOCK,
        (BlockFormat::Bc2, true) => vk::Format::BC2_SRGB_BLOCK,
        (BlockFormat::Bc2, false) => vk::Format::BC2_UNORM_BLOCK,
        (BlockFormat::Bc3, true) => vk::Format::BC3_SRGB_BLOCK,
        (BlockFormat::Bc3, false) => vk::Format::BC3_UNORM_BLOCK,
        (BlockFormat::Bc4, _) => vk::Format::BC4_UNORM_BLOCK,
        (BlockFormat::Bc5, _) => vk::Format::BC5_UNORM_BLOCK,
        (BlockFormat::Bc6hUnsigned, _) => vk::Format::BC6H_UFLOAT_BLOCK,
        (BlockFormat::Bc6hSigned, _) => vk::Format::BC6H_SFLOAT_BLOCK,
        (BlockFormat::Bc7, true) => vk::Format::BC7_SRGB_BLOCK,
        (BlockFormat::Bc7, false) => vk::Format::BC7_UNORM_BLOCK,
    }
}

/// Whether the device was given BC support (`textureCompressionBC`) and samples `format`
/// with linear filtering from an image it can copy into.
pub fn samples(ctx: &GpuContext, format: vk::Format) -> bool {
    if !ctx.block_compression() {
        return false;
    }
    // SAFETY: querying a valid physical device.
    let props = unsafe {
        ctx.instance()
            .get_physical_device_format_properties(ctx.physical.physical, format)
    };
    props.optimal_tiling_features.contains(
        vk::FormatFeatureFlags::SAMPLED_IMAGE
            | vk::FormatFeatureFlags::SAMPLED_IMAGE_FILTER_LINEAR
            | vk::FormatFeatureFlags::TRANSFER_DST,
    )
}

fn levels_of(texture: &Decoded) -> Vec<Level> {
    texture
        .levels
        .iter()
        .enumerate()
        .map(|(i, data)| {
            let (w, h) = texture.level_size(i);
            (w, h, data.clone())
        })
        .collect()
}

/// Creates an image of `format` with `chain`'s levels and copies them in.
fn copy_levels(
    ctx: &Arc<GpuContext>,
    name: &str,
    format: vk::Format,
    chain: &[Level],
) -> Result<GpuImage, GpuError> {
    let Some(&(width, height, _)) = chain.first() else {
        return Err(GpuError::Other(format!("texture {name} has no levels")));
    };
    let bytes: usize = chain.iter().map(|m| m.2.len()).sum();
    let staging = GpuBuffer::new(
        ctx,
        &format!("{name} (staging)"),
        bytes as u64,
        vk::BufferUsageFlags::TRANSFER_SRC,
        MemoryLocation::CpuToGpu,
        4,
    )?;
    let mut regions = Vec::with_capacity(chain.len());
    let mut offset = 0usize;
    for (level, (w, h, data)) in chain.iter().enumerate() {
        staging.write(offset, data)?;
        regions.push(
            vk::BufferImageCopy::default()
                .buffer_offset(offset as u64)
                .image_subresource(vk::ImageSubresourceLayers {
                    aspect_mask: vk::ImageAspectFlags::COLOR,
                    mip_level: level as u32,
                    base_array_layer: 0,
                    layer_count: 1,
                })
                // For block formats the extent is the level's texel size; the copy reads
                // whole blocks (partial ones at the edges), packed.
                .image_extent(vk::Extent3D {
                    width: *w,
                    height: *h,
                    depth: 1,
                }),
        );
        offset += data.len();
    }
    let image = GpuImage::new(
        ctx,
        name,
        ImageInfo {
            format,
            extent: vk::Extent2D {
                width: width.max(1),
                height: height.max(1),
            },
            usage: vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::TRANSFER_DST,
            mip_levels: chain.len() as u32,
            aspect: vk::ImageAspectFlags::COLOR,
            samples: vk::SampleCountFlags::TYPE_1,
        },
    )?;
    ctx.run_once(&format!("upload {name}"), |cmd| {
        let range = vk::ImageSubresourceRange {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            base_mip_level: 0,
            level_count: vk::REMAINING_MIP_LEVELS,
            base_array_layer: 0,
            layer_count: vk::REMAINING_ARRAY_LAYERS,
        };
        let to_copy = [vk::ImageMemoryBarrier2::default()
            .src_stage_mask(vk::PipelineStageFlags2::NONE)
            .dst_stage_mask(vk::PipelineStageFlags2::COPY)
            .dst_access_mask(vk::AccessFlags2::TRANSFER_WRITE)
            .old_layout(vk::ImageLayout::UNDEFINED)
            .new_layout(vk::ImageLayout::TRANSFER_DST_OPTIMAL)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .image(image.image)
            .subresource_range(range)];
        // Frames that sample it are submitted after this submission was waited for, so
        // the second barrier only needs to make the copy visible to fragment shaders.
        let to_read = [vk::ImageMemoryBarrier2::default()
            .src_stage_mask(vk::PipelineStageFlags2::COPY)
            .src_access_mask(vk::AccessFlags2::TRANSFER_WRITE)
            .dst_stage_mask(vk::PipelineStageFlags2::FRAGMENT_SHADER)
            .dst_access_mask(vk::AccessFlags2::SHADER_READ)
            .old_layout(vk::ImageLayout::TRANSFER_DST_OPTIMAL)
            .new_layout(vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .image(image.image)
            .subresource_range(range)];
        // SAFETY: recording into a one-shot command buffer; every handle is live and the
        // submission is waited for before the staging buffer goes.
        unsafe {
            ctx.cmd_pipeline_barrier2(
                cmd,
                &vk::DependencyInfo::default().image_memory_barriers(&to_copy),
            );
            ctx.device.cmd_copy_buffer_to_image(
                cmd,
                staging.buffer,
                image.image,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                &regions,
            );
            ctx.cmd_pipeline_barrier2(
                cmd,
                &vk::DependencyInfo::default().image_memory_barriers(&to_read),
            );
        }
    })?;
    Ok(image)
}

/// A 1x1 texture of one RGBA8 texel (white for "no base colour map", flat blue-ish
/// (0.5, 0.5, 1) for "no normal map").
pub fn solid(
    ctx: &Arc<GpuContext>,
    name: &str,
    rgba: [u8; 4],
    space: TexelSpace,
) -> Result<GpuImage, GpuError> {
    let texture = Decoded::rgba8(1, 1, rgba.to_vec());
    upload(ctx, name, &texture, space, BlockUpload::WhenSupported)
}

/// A 1x1 depth image in SHADER_READ_ONLY_OPTIMAL, cleared to the far plane (nothing in
/// shadow): what a depth-comparison binding holds when its real image is not in the frame
/// (shadows off). Validation checks such bindings statically, and a colour image has no
/// comparison support. Cleared rather than left undefined: a binding is never read from
/// undefined contents.
pub fn depth_placeholder(ctx: &Arc<GpuContext>) -> Result<GpuImage, GpuError> {
    let image = GpuImage::new(
        ctx,
        "no shadow map",
        ImageInfo {
            format: vk::Format::D32_SFLOAT,
            extent: vk::Extent2D {
                width: 1,
                height: 1,
            },
            usage: vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::TRANSFER_DST,
            mip_levels: 1,
            aspect: vk::ImageAspectFlags::DEPTH,
            samples: vk::SampleCountFlags::TYPE_1,
        },
    )?;
    let range = vk::ImageSubresourceRange {
        aspect_mask: vk::ImageAspectFlags::DEPTH,
        base_mip_level: 0,
        level_count: 1,
        base_array_layer: 0,
        layer_count: 1,
    };
    ctx.run_once("prepare the shadow-map placeholder", |cmd| {
        let barrier = |old, new, src_stage, src_access, dst_stage, dst_access| {
            vk::ImageMemoryBarrier2::default()
                .src_stage_mask(src_stage)
                .src_access_mask(src_access)
                .dst_stage_mask(dst_stage)
                .dst_access_mask(dst_access)
                .old_layout(old)
                .new_layout(new)
                .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .image(image.image)
                .subresource_range(range)
        };
        let to_clear = [barrier(
            vk::ImageLayout::UNDEFINED,
            vk::ImageLayout::TRANSFER_DST_OPTIMAL,
            vk::PipelineStageFlags2::NONE,
            vk::AccessFlags2::NONE,
            vk::PipelineStageFlags2::CLEAR,
            vk::AccessFlags2::TRANSFER_WRITE,
        )];
        let to_read = [barrier(
            vk::ImageLayout::TRANSFER_DST_OPTIMAL,
            vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
            vk::PipelineStageFlags2::CLEAR,
            vk::AccessFlags2::TRANSFER_WRITE,
            vk::PipelineStageFlags2::FRAGMENT_SHADER,
            vk::AccessFlags2::SHADER_READ,
        )];
        let far = vk::ClearDepthStencilValue {
            depth: 1.0,
            stencil: 0,
        };
        // SAFETY: a one-shot command buffer; the image is live, unused, and made for
        // transfers and sampling.
        unsafe {
            ctx.cmd_pipeline_barrier2(
                cmd,
                &vk::DependencyInfo::default().image_memory_barriers(&to_clear),
            );
            ctx.device.cmd_clear_depth_stencil_image(
                cmd,
                image.image,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                &far,
                &[range],
            );
            ctx.cmd_pipeline_barrier2(
                cmd,
                &vk::DependencyInfo::default().image_memory_barriers(&to_read),
            );
        };
    })?;
    Ok(image)
}

/// A sampler, destroyed on drop.
pub struct Sampler {
    ctx: Arc<GpuContext>,
    /// The sampler.
    pub sampler: vk::Sampler,
}

impl Drop for Sampler {
    fn drop(&mut self) {
        // SAFETY: the owner waited for the frames that used it.
        unsafe { self.ctx.device.destroy_sampler(self.sampler, None) };
    }
}

/// Creates a sampler named `name`.
pub fn sampler(
    ctx: &Arc<GpuContext>,
    name: &str,
    info: &vk::SamplerCreateInfo<'_>,
) -> Result<Sampler, GpuError> {
    // SAFETY: valid device and create info.
    let sampler = unsafe { ctx.device.create_sampler(info, None) }
        .context(format!("creating the {name} sampler"))?;
    ctx.name(sampler, name);
    Ok(Sampler {
        ctx: ctx.clone(),
        sampler,
    })
}

/// The sampler every material texture is read with: trilinear, repeating, anisotropic
/// where the device allows it and is not a software rasterizer.
pub fn create_sampler(ctx: &Arc<GpuContext>) -> Result<Sampler, GpuError> {
    // SAFETY: querying a valid physical device.
    let features = unsafe {
        ctx.instance()
            .get_physical_device_features(ctx.physical.physical)
    };
    // Not on a software rasterizer: lavapipe's anisotropic sampling (Mesa 22.3) sometimes ran
    // one frame's texture loop for minutes (a window test's frame after a resize storm, under
    // load: 4 stalls in about 44 runs with it, none in 22 without).
    let anisotropy =
        features.sampler_anisotropy == vk::TRUE && ctx.physical.kind != vk::PhysicalDeviceType::CPU;
    let info = vk::SamplerCreateInfo::default()
        .mag_filter(vk::Filter::LINEAR)
        .min_filter(vk::Filter::LINEAR)
        .mipmap_mode(vk::SamplerMipmapMode::LINEAR)
        .address_mode_u(vk::SamplerAddressMode::REPEAT)
        .address_mode_v(vk::SamplerAddressMode::REPEAT)
        .address_mode_w(vk::SamplerAddressMode::REPEAT)
        .anisotropy_enable(anisotropy)
        .max_anisotropy(if anisotropy {
            ctx.physical.limits.max_sampler_anisotropy.min(8.0)
        } else {
            1.0
        })
        .max_lod(vk::LOD_CLAMP_NONE);
    sampler(ctx, "material", &info)
}

/// Every mip level of a `width` x `height` RGBA8 image as (width, height, RGBA8 bytes), level
/// 0 (a copy of `rgba8`) first, down to 1x1. Each texel of a level averages the 2x2 (or 2x1 /
/// 1x2 at odd edges) texels above it.
pub fn mip_chain(
    width: u32,
    height: u32,
    rgba8: &[u8],
    space: TexelSpace,
) -> Vec<(u32, u32, Vec<u8>)> {
    let mut levels = vec![(width.max(1), height.max(1), rgba8.to_vec())];
    while let Some((w, h, data)) = levels.last() {
        if *w == 1 && *h == 1 {
            break;
        }
        let (nw, nh) = ((w / 2).max(1), (h / 2).max(1));
        let mut next = vec![0u8; (nw * nh * 4) as usize];
        for y in 0..nh {
            for x in 0..nw {
                for c in 0..4 {
                    let mut sum = 0.0f32;
                    let mut n = 0.0f32;
                    for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                        let (sx, sy) = ((x * 2 + dx).min(w - 1), (y * 2 + dy).min(h - 1));
                        let v = data
                            .get(((sy * w + sx) * 4 + c) as usize)
                            .copied()
                            .unwrap_or(0);
                        sum += decode(v, space, c);
                        n += 1.0;
                    }
                    next[((y * nw + x) * 4 + c) as usize] = encode(sum / n, space, c);
                }
            }
        }
        levels.push((nw, nh, next));
    }
    levels
}

fn decode(v: u8, space: TexelSpace, channel: u32) -> f32 {
    let x = v as f32 / 255.0;
    if space == TexelSpace::Srgb && channel < 3 {
        if x <= 0.04045 {
            x / 12.92
        } else {
            ((x + 0.055) / 1.055).powf(2.4)
        }
    } else {
        x
    }
}

fn encode(x: f32, space: TexelSpace, channel: u32) -> u8 {
    let x = x.clamp(0.0, 1.0);
    let y = if space == TexelSpace::Srgb && channel < 3 {
        if x <= 0.003_130_8 {
            x * 12.92
        } else {
            1.055 * x.powf(1.0 / 2.4) - 0.055
        }
    } else {
        x
    };
    (y * 255.0 + 0.5) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mip_chain_reaches_one_texel_and_averages_in_linear_light() {
        // 4x2: left half black, right half white.
        let mut rgba8 = Vec::new();
        for _y in 0..2 {
            for x in 0..4 {
                let v = if x < 2 { 0 } else { 255 };
                rgba8.extend_from_slice(&[v, v, v, 255]);
            }
        }
        let chain = mip_chain(4, 2, &rgba8, TexelSpace::Srgb);
        let sizes: Vec<(u32, u32)> = chain.iter().map(|(w, h, _)| (*w, *h)).collect();
        assert_eq!(sizes, [(4, 2), (2, 1), (1, 1)]);
        // Half black, half white is 0.5 linear: sRGB-encoded 188, not 128.
        assert_eq!(chain[2].2, [188, 188, 188, 255]);
        let linear = mip_chain(4, 2, &rgba8, TexelSpace::Linear);
        assert_eq!(linear[2].2, [128, 128, 128, 255]);
    }
}
