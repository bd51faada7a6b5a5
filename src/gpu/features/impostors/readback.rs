//! Reading a baked atlas back to the CPU: for tests that compare its cells with the mesh, and
//! for looking at it (`throng impostors`). Copies each image into a host-visible buffer and
//! waits; the images return to the layout the cards sample them in.

use std::sync::Arc;

use ash::vk;
use gpu_allocator::MemoryLocation;

use crate::gpu::device::buffer::GpuBuffer;
use crate::gpu::device::context::GpuContext;
use crate::gpu::device::error::GpuError;
use crate::gpu::device::image::GpuImage;
use crate::gpu::device::offscreen::Pixels;
use crate::gpu::features::impostors::bake::ModelAtlas;

/// The atlas's two images: colour and coverage, then normal and depth.
pub fn read_atlas(ctx: &Arc<GpuContext>, atlas: &ModelAtlas) -> Result<[Pixels; 2], GpuError> {
    Ok([read(ctx, &atlas.color)?, read(ctx, &atlas.normal_depth)?])
}

fn read(ctx: &Arc<GpuContext>, image: &GpuImage) -> Result<Pixels, GpuError> {
    let extent = image.info.extent;
    let bytes = u64::from(extent.width) * u64::from(extent.height) * 4;
    let buffer = GpuBuffer::new(
        ctx,
        "impostor atlas readback",
        bytes,
        vk::BufferUsageFlags::TRANSFER_DST,
        MemoryLocation::GpuToCpu,
        16,
    )?;
    let range = vk::ImageSubresourceRange {
        aspect_mask: vk::ImageAspectFlags::COLOR,
        base_mip_level: 0,
        level_count: 1,
        base_array_layer: 0,
        layer_count: 1,
    };
    let transition = |from, to, src_access, dst_access, src_stage, dst_stage| {
        vk::ImageMemoryBarrier2::default()
            .src_stage_mask(src_stage)
            .src_access_mask(src_access)
            .dst_stage_mask(dst_stage)
            .dst_access_mask(dst_access)
            .old_layout(from)
            .new_layout(to)
            .image(image.image)
            .subresource_range(range)
    };
    let read_only = vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL;
    let source = vk::ImageLayout::TRANSFER_SRC_OPTIMAL;
    let sampled = vk::AccessFlags2::SHADER_READ;
    let fragment = vk::PipelineStageFlags2::FRAGMENT_SHADER;
    let copy = vk::PipelineStageFlags2::COPY;
    let to_source = [transition(
        read_only,
        source,
        vk::AccessFlags2::NONE,
        vk::AccessFlags2::TRANSFER_READ,
        fragment,
        copy,
    )];
    let back = [transition(
        source,
        read_only,
        vk::AccessFlags2::NONE,
        sampled,
        copy,
        fragment,
    )];
    let region = vk::BufferImageCopy::default()
        .image_subresource(vk::ImageSubresourceLayers {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            mip_level: 0,
            base_array_layer: 0,
            layer_count: 1,
        })
        .image_extent(vk::Extent3D {
            width: extent.width,
            height: extent.height,
            depth: 1,
        });
    ctx.run_once("reading an impostor atlas back", |cmd| {
        // SAFETY: recording a one-off command buffer; the image and buffer outlive the wait
        // run_once does; the image is not in use (the caller waited for every frame).
        unsafe {
            ctx.cmd_pipeline_barrier2(
                cmd,
                &vk::DependencyInfo::default().image_memory_barriers(&to_source),
            );
            ctx.device
                .cmd_copy_image_to_buffer(cmd, image.image, source, buffer.buffer, &[region]);
            let to_host = [vk::BufferMemoryBarrier2::default()
                .src_stage_mask(copy)
                .src_access_mask(vk::AccessFlags2::TRANSFER_WRITE)
                .dst_stage_mask(vk::PipelineStageFlags2::HOST)
                .dst_access_mask(vk::AccessFlags2::HOST_READ)
                .buffer(buffer.buffer)
                .offset(0)
                .size(vk::WHOLE_SIZE)];
            ctx.cmd_pipeline_barrier2(
                cmd,
                &vk::DependencyInfo::default()
                    .image_memory_barriers(&back)
                    .buffer_memory_barriers(&to_host),
            );
        }
    })?;
    let mut rgba8 = vec![0u8; bytes as usize];
    buffer.read(0, &mut rgba8)?;
    Ok(Pixels {
        width: extent.width,
        height: extent.height,
        rgba8,
    })
}
