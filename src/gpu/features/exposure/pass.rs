//! The exposure passes: `exposure_measure` (one workgroup, `shaders/exposure_measure.comp`)
//! reads the scene colour and moves the adapted exposure towards the frame's average;
//! `exposure` (`shaders/exposure_apply.frag`) writes the scene colour scaled by it into a new
//! image, which it hands on as the frame's scene colour. Declared when the settings ask for it
//! and the frame is the lit one.

use ash::vk;

use super::state::{ExposureFrame, STATE};
use crate::gpu::device::error::GpuError;
use crate::gpu::frame::declaration::{FrameDeclaration, compute};
use crate::gpu::frame::over_target;
use crate::gpu::frame::recording::pass::Bind;
use crate::gpu::graph::{Access, Extent, ImageDesc, ImageKind, Stages};

/// The measuring pass's name in labels, timings and statistics.
pub const MEASURE: &str = "exposure_measure";
/// The applying pass's name.
pub const NAME: &str = "exposure";

/// Declares the passes when the settings ask for auto exposure.
pub fn declare(f: &mut FrameDeclaration) {
    if !(f.settings.auto_exposure && f.shape.shows_frame) {
        return;
    }
    let lit = f.frame.scene;
    let state = f.persistent_buffer(STATE);
    let measure = f.pipeline(compute("exposure measure", "exposure_measure.comp"));
    f.pass(MEASURE, move |r| {
        let frame = this_frame(r.feature::<ExposureFrame>())?;
        let scene = r.image_info(lit, r.shared.samplers.screen)?;
        let state = r.buffer_info(state)?;
        let binds = [
            Bind::image("scene", &scene),
            Bind::buffer("Exposure", &state),
        ];
        // One workgroup: the measurement is one number.
        r.run_compute(measure, bytemuck::bytes_of(frame), &binds, 1)
    })
    .read(lit, Access::Sampled(Stages::Compute))
    .write(state, Access::StorageReadWrite(Stages::Compute))
    .finish();
    let exposed = f.image(ImageDesc {
        name: "scene colour (exposed)",
        format: f.color_format,
        kind: ImageKind::Color,
        extent: Extent::Target,
        samples: vk::SampleCountFlags::TYPE_1,
    });
    let apply = over_target::fullscreen(f, "exposure", "exposure_apply.frag");
    f.pass(NAME, move |r| {
        let frame = this_frame(r.feature::<ExposureFrame>())?;
        let scene = r.image_info(lit, r.shared.samplers.screen)?;
        let state = r.buffer_info(state)?;
        let binds = [
            Bind::image("source", &scene),
            Bind::buffer("Exposure", &state),
        ];
        let constants = bytemuck::bytes_of(frame);
        over_target::draw(r, exposed, apply, &binds, constants, (3, 1))
    })
    .read(lit, Access::Sampled(Stages::Fragment))
    .read(state, Access::StorageRead(Stages::Fragment))
    .write(exposed, Access::ColorAttachmentWrite)
    .finish();
    f.frame.scene = exposed;
}

/// The frame's exposure constants (the renderer hands them whenever the passes run).
fn this_frame(frame: Option<&ExposureFrame>) -> Result<&ExposureFrame, GpuError> {
    frame.ok_or_else(|| GpuError::Graph("the exposure passes run without their state".into()))
}
