//! The readback pass (headless only): copies the colour target into a host-readable buffer,
//! tightly packed rows, so frames can be checked and written as PNG.

use ash::vk;

use super::PassContext;

/// Records the copy; the graph has put the image in TRANSFER_SRC_OPTIMAL.
pub fn record(pc: &PassContext<'_>) {
    let region = vk::BufferImageCopy::default()
        .image_subresource(vk::ImageSubresourceLayers {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            mip_level: 0,
            base_array_layer: 0,
            layer_count: 1,
        })
        .image_extent(vk::Extent3D {
            width: pc.extent.width,
            height: pc.extent.height,
            depth: 1,
        });
    // SAFETY: the graph transitioned the image for transfer reads; the buffer holds
    // width * height * 4 bytes (created with the target).
    unsafe {
        pc.ctx.device.cmd_copy_image_to_buffer(
            pc.cmd,
            pc.color.1,
            vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
            pc.readback,
            &[region],
        );
    }
}
