//! The shadow map's depths as compute passes keep them: on a GPU whose graphics units are few
//! beside its compute units, what is small in the sun's view (its cards, its coarser mesh
//! levels) costs less splatted texel by texel in compute than rasterized. Those passes keep
//! the nearest depth per texel in one buffer of the shadow map's size (a 32-bit atomic
//! minimum on the float's bits), which `shadow_splat_clear` fills with the far depth first and
//! `shadow_splat_copy` copies into the shadow map after them; the shadow pass then loads the
//! map and draws the rest over it. Every barrier between them is the graph's.

use ash::vk;

use crate::gpu::frame::declaration::FrameDeclaration;
use crate::gpu::frame::resources::buffers::{BufferDesc, BufferSize};
use crate::gpu::graph::{Access, ResourceId};

/// Fills the shadow depths with the far plane.
pub const CLEAR: &str = "shadow_splat_clear";
/// The shadow depths copied into the shadow map.
pub const COPY: &str = "shadow_splat_copy";

/// The far plane's depth as the bits the splats compare (1.0f32).
const FAR_DEPTH_BITS: u32 = 0x3f80_0000;

/// Declares the shadow depths, filled with the far depth, where the frame's shape splats
/// something into the shadow map (the sun's cards or meshes in compute); `None` otherwise.
pub fn depths(f: &mut FrameDeclaration) -> Option<ResourceId> {
    if !f.shape.shadow_cards_in_compute && !f.shape.shadow_meshes_in_compute {
        return None;
    }
    let side = f.key.shadow_size.max(1);
    let depths = f.buffer(BufferDesc {
        name: "shadow depths",
        size: BufferSize {
            fixed: u64::from(side) * u64::from(side) * 4,
            ..BufferSize::ZERO
        },
        usage: vk::BufferUsageFlags::STORAGE_BUFFER
            | vk::BufferUsageFlags::TRANSFER_DST
            | vk::BufferUsageFlags::TRANSFER_SRC,
        host_read: false,
    });
    f.pass(CLEAR, move |r| {
        let (buffer, offset, size) = r.buffer(depths)?;
        // SAFETY: outside rendering; the graph ordered this after the last frame's reads.
        unsafe {
            r.ctx
                .device
                .cmd_fill_buffer(r.cmd, buffer, offset, size, FAR_DEPTH_BITS)
        };
        Ok(())
    })
    .write(depths, Access::TransferDst)
    .finish();
    Some(depths)
}

/// Declares `depths` copied into `shadow_map`, after every splat declared before it; nothing
/// without them.
pub fn declare_copy(f: &mut FrameDeclaration, depths: Option<ResourceId>, shadow_map: ResourceId) {
    let Some(depths) = depths else {
        return;
    };
    f.pass(COPY, move |r| {
        let (buffer, offset, _) = r.buffer(depths)?;
        let (image, _, layout) = r.image(shadow_map)?;
        let side = r.shared.shadow_size;
        let region = vk::BufferImageCopy {
            buffer_offset: offset,
            buffer_row_length: 0,
            buffer_image_height: 0,
            image_subresource: vk::ImageSubresourceLayers {
                aspect_mask: vk::ImageAspectFlags::DEPTH,
                mip_level: 0,
                base_array_layer: 0,
                layer_count: 1,
            },
            image_offset: vk::Offset3D::default(),
            image_extent: vk::Extent3D {
                width: side,
                height: side,
                depth: 1,
            },
        };
        // SAFETY: outside rendering; the buffer holds side x side 32-bit depths and the graph
        // put the shadow map in `layout` (transfer destination) for this pass.
        unsafe {
            r.ctx
                .device
                .cmd_copy_buffer_to_image(r.cmd, buffer, image, layout, &[region])
        };
        Ok(())
    })
    .read(depths, Access::TransferSrc)
    .write(shadow_map, Access::TransferDst)
    .finish();
}
