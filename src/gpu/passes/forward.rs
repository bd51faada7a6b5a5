//! The skinned forward pass: clears colour, draws the ground (final view only) and every
//! model's subsets from the culled lists; lit by the sun through the shadow map, ambient
//! scaled by the occlusion. After the prepass it tests depth with EQUAL and writes none, so
//! each pixel is shaded once; without it, it tests and writes a depth of its own.

use ash::vk;

use super::{FAR_DEPTH, FrameDeclaration, PassRecording, skinned_reads};
use crate::gpu::cull_data::{VIEW_CAMERA, VIEW_CAMERA_LATE};
use crate::gpu::device::error::GpuError;
use crate::gpu::graph::{Access, Stages};
use crate::gpu::uniforms::ViewMode;

/// The pass's name in labels, timings and statistics.
pub const NAME: &str = "forward";

/// Background of the final view: a pale sky, in linear light.
pub const SKY_CLEAR: [f32; 4] = [0.36, 0.48, 0.62, 1.0];

/// Declares the pass for the views that show the frame.
pub fn declare(f: &mut FrameDeclaration) {
    let ids = f.ids;
    let shape = f.shape;
    if !shape.shows_frame {
        return;
    }
    let mut p = f.pass(NAME, record);
    skinned_reads(&mut p, &ids);
    p.write(ids.color_samples, Access::ColorAttachmentWrite);
    if ids.multisampled() {
        // Resolved into the target at the end of the pass.
        p.write(ids.color, Access::ColorAttachmentWrite);
    }
    if shape.prepass {
        p.read(ids.depth_samples, Access::DepthAttachmentRead);
    } else {
        p.write(ids.forward_depth, Access::DepthAttachmentWrite);
    }
    if shape.shadows {
        p.read(ids.shadow_map, Access::Sampled(Stages::Fragment));
    }
    if shape.ao {
        p.read(ids.ao, Access::Sampled(Stages::Fragment));
    }
    p.finish();
}

fn record(r: &PassRecording<'_>) -> Result<(), GpuError> {
    let shape = r.shared.shape;
    let clear = match shape.view {
        ViewMode::Silhouette => [0.0, 0.0, 0.0, 1.0],
        _ => SKY_CLEAR,
    };
    let clear = vk::ClearValue {
        color: vk::ClearColorValue { float32: clear },
    };
    let color = [r.resolved_attachment(r.ids.color_samples, r.ids.color, Some(clear))?];
    let depth_id = if shape.prepass {
        r.ids.depth_samples
    } else {
        r.ids.forward_depth
    };
    let depth = r.attachment(depth_id, Some(FAR_DEPTH))?;
    let p = r.shared.pipelines;
    r.begin_rendering(r.extent(), &color, Some(&depth));
    let result = (|| {
        if shape.view == ViewMode::Final {
            let (shadow, ao) = r.lit_images()?;
            let ground = if shape.prepass {
                &p.ground_equal
            } else {
                &p.ground_less
            };
            r.draw_ground(ground, &PassRecording::lit_writes(&shadow, &ao));
        }
        let characters = if shape.prepass {
            &p.forward_equal
        } else {
            &p.forward_less
        };
        r.draw_characters(characters, true, VIEW_CAMERA)?;
        if shape.occlusion {
            r.draw_characters(characters, true, VIEW_CAMERA_LATE)?;
        }
        Ok(())
    })();
    r.end_rendering();
    result
}
