//! Reading a baked atlas back to the CPU: for tests that compare its cells with the mesh, and
//! for looking at it (`throng impostors`). Copies each image into a host-visible buffer and
//! waits, as a one-pass graph: the image goes to the copy's layout and back to the one the
//! cards sample it in, and the copy is made visible to the host, by the graph's barriers.

use std::sync::Arc;

use ash::vk;
use gpu_allocator::MemoryLocation;

use crate::gpu::device::buffer::GpuBuffer;
use crate::gpu::device::context::GpuContext;
use crate::gpu::device::error::GpuError;
use crate::gpu::device::image::{GpuImage, whole_color_copy};
use crate::gpu::device::offscreen::Pixels;
use crate::gpu::features::impostors::bake::ModelAtlas;
use crate::gpu::graph::{
    Access, Bound, GraphBuilder, ImageKind, Plan, ResourceId, Stages, run_plan_once,
};

/// The atlas's two images: colour and coverage, then normal and depth.
pub fn read_atlas(ctx: &Arc<GpuContext>, atlas: &ModelAtlas) -> Result<[Pixels; 2], GpuError> {
    Ok([read(ctx, &atlas.color)?, read(ctx, &atlas.normal_depth)?])
}

/// The readback's graph: one pass copying an atlas image (sampled before and after) into a
/// buffer the host reads; the ids are the image and the buffer.
fn readback_graph() -> Result<(Plan, [ResourceId; 2]), GpuError> {
    let mut g = GraphBuilder::new();
    let read_only = vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL;
    let sampled = Some(Access::Sampled(Stages::Fragment));
    let atlas = g.imported_image("impostor atlas", ImageKind::Color, read_only, sampled);
    let readback = g.host_read_buffer("impostor atlas readback");
    g.pass("impostor_atlas_readback")
        .read(atlas, Access::TransferSrc)
        .write(readback, Access::TransferDst)
        .finish();
    let plan = g.compile().map_err(|e| GpuError::Graph(e.to_string()))?;
    Ok((plan, [atlas, readback]))
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
    let region = whole_color_copy(extent);
    let (plan, [atlas, readback]) = readback_graph()?;
    let bound = [
        (
            atlas,
            Bound::Image {
                image: image.image,
                aspect: vk::ImageAspectFlags::COLOR,
            },
        ),
        (
            readback,
            Bound::Buffer {
                buffer: buffer.buffer,
                offset: 0,
                size: vk::WHOLE_SIZE,
            },
        ),
    ];
    run_plan_once(
        ctx,
        "reading an impostor atlas back",
        &plan,
        &bound,
        |cmd, _| {
            let source = vk::ImageLayout::TRANSFER_SRC_OPTIMAL;
            // SAFETY: recording a one-off command buffer; the image and buffer outlive the wait
            // run_once does; the image is not in use (the caller waited for every frame).
            unsafe {
                ctx.device.cmd_copy_image_to_buffer(
                    cmd,
                    image.image,
                    source,
                    buffer.buffer,
                    &[region],
                )
            };
        },
    )?;
    let mut rgba8 = vec![0u8; bytes as usize];
    buffer.read(0, &mut rgba8)?;
    Ok(Pixels {
        width: extent.width,
        height: extent.height,
        rgba8,
    })
}
