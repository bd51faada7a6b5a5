//! The depth/normal prepass: characters and ground into the depth buffer and a view-space
//! normal image, which the ambient occlusion reads and the forward pass tests against. With
//! occlusion culling it runs twice: first the ground and the instances large enough to hide
//! others, then (the late pass, loading what the first left) the small ones the occlusion
//! test let through.

use ash::vk;

use super::{FAR_DEPTH, FrameDeclaration, PassRecording, skinned_reads};
use crate::gpu::cull_data::{VIEW_CAMERA, VIEW_CAMERA_LATE};
use crate::gpu::device::error::GpuError;
use crate::gpu::graph::Access;

/// The first prepass's name in labels, timings and statistics.
pub const NAME: &str = "depth_normal";
/// The late prepass's name.
pub const LATE: &str = "depth_normal_late";

/// Declares the first prepass (kept when depth or normals are read).
pub fn declare(f: &mut FrameDeclaration) {
    declare_pass(f, NAME, record);
}

/// Declares the late prepass, after the occlusion test, when the frame has one.
pub fn declare_late(f: &mut FrameDeclaration) {
    if f.shape.occlusion {
        declare_pass(f, LATE, record_late);
    }
}

/// Both prepasses render depth and normals; multisampled, each resolves them at its end into
/// the single-sample images later passes read (the late one again, with what it added).
fn declare_pass(f: &mut FrameDeclaration, name: &'static str, record: super::RecordFn) {
    let ids = f.ids;
    let mut p = f.pass(name, record);
    skinned_reads(&mut p, &ids);
    p.write(ids.depth_samples, Access::DepthAttachmentWrite)
        .write(ids.normals_samples, Access::ColorAttachmentWrite);
    if ids.multisampled() {
        p.write(ids.depth, Access::DepthResolveWrite)
            .write(ids.normals, Access::ColorAttachmentWrite);
    }
    p.finish();
}

fn record(r: &PassRecording<'_>) -> Result<(), GpuError> {
    render(r, false)
}

fn record_late(r: &PassRecording<'_>) -> Result<(), GpuError> {
    render(r, true)
}

fn render(r: &PassRecording<'_>, late: bool) -> Result<(), GpuError> {
    // Alpha 0 marks "nothing drawn here" (the debug view shows it black).
    let nothing = vk::ClearValue {
        color: vk::ClearColorValue {
            float32: [0.0, 0.0, 0.0, 0.0],
        },
    };
    let ids = r.ids;
    let color = [r.resolved_attachment(ids.normals_samples, ids.normals, Some(nothing))?];
    let depth = r.resolved_attachment(ids.depth_samples, ids.depth, Some(FAR_DEPTH))?;
    r.begin_rendering(r.extent(), &color, Some(&depth));
    let p = r.shared.pipelines;
    let result = if late {
        r.draw_characters(&p.depth_normal, false, VIEW_CAMERA_LATE)
    } else {
        r.draw_ground(&p.ground_normal, &[]);
        r.draw_characters(&p.depth_normal, false, VIEW_CAMERA)
    };
    r.end_rendering();
    result
}
