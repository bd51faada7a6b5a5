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

/// The bytes of one square of `side` texels of the shadow depths (32 bits each).
fn square_bytes(side: u32) -> u64 {
    4 * u64::from(side) * u64::from(side)
}

/// Where the near cascade's square starts in the shadow depths, in bytes, after the whole
/// box's square of `side` texels: at a multiple of the largest storage-buffer offset
/// alignment Vulkan allows a device (256), so it can be bound on its own.
pub fn near_square_offset(side: u32) -> u64 {
    square_bytes(side).next_multiple_of(256)
}

/// Declares the shadow depths, filled with the far depth, where the frame's shape splats
/// something into the shadow map (the sun's cards or meshes in compute); `None` otherwise.
pub fn depths(f: &mut FrameDeclaration) -> Option<ResourceId> {
    if !f.shape.shadow_cards_in_compute && !f.shape.shadow_meshes_in_compute {
        return None;
    }
    let side = f.key.shadow_size.max(1);
    // The near cascade's square after the whole box's, where the frame has one: the sun's
    // mesh raster splats into both.
    let near = f.shape.shadow_cascade && f.shape.shadow_meshes_in_compute;
    let bytes = if near { near_square_offset(side) } else { 0 } + square_bytes(side);
    let depths = f.buffer(BufferDesc {
        name: "shadow depths",
        size: BufferSize {
            fixed: bytes,
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

/// Declares `depths` copied into `shadow_map` (both squares where the frame has the near
/// cascade), after every splat declared before it; nothing without them.
pub fn declare_copy(f: &mut FrameDeclaration, depths: Option<ResourceId>, shadow_map: ResourceId) {
    let Some(depths) = depths else {
        return;
    };
    let near = f.shape.shadow_cascade && f.shape.shadow_meshes_in_compute;
    f.pass(COPY, move |r| {
        let (buffer, offset, _) = r.buffer(depths)?;
        let (image, _, layout) = r.image(shadow_map)?;
        let side = r.shared.shadow_size;
        let whole = vk::BufferImageCopy {
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
        // The near square beside it in the map, where the buffer holds one.
        let near_square = vk::BufferImageCopy {
            buffer_offset: offset + near_square_offset(side),
            image_offset: vk::Offset3D {
                x: side as i32,
                y: 0,
                z: 0,
            },
            ..whole
        };
        let regions = [whole, near_square];
        let regions = if near { &regions[..] } else { &regions[..1] };
        // SAFETY: outside rendering; the buffer holds side x side 32-bit depths per square
        // copied, and the map a square for each; the graph put the shadow map in `layout`
        // (transfer destination) for this pass.
        unsafe {
            r.ctx
                .device
                .cmd_copy_buffer_to_image(r.cmd, buffer, image, layout, regions)
        };
        Ok(())
    })
    .read(depths, Access::TransferSrc)
    .write(shadow_map, Access::TransferDst)
    .finish();
}
