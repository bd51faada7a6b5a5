//! Ambient occlusion and its blur: two compute dispatches over the half-size screen (see
//! `shaders/ssao.comp` for why compute), into the raw and blurred images they make. Kept when
//! the forward pass or the AO view reads the result.

use ash::vk;

use crate::gpu::features::lit::depth_normal::DepthNormals;
use crate::gpu::frame::declaration::FrameDeclaration;
use crate::gpu::frame::declaration::compute;
use crate::gpu::frame::recording::pass::{Bind, PassRecording};
use crate::gpu::frame::settings::SCALAR_FORMAT;
use crate::gpu::frame::shader_interface::AO_SCALE;
use crate::gpu::graph::{Access, Extent, ImageDesc, ImageKind, ResourceId, Stages};

/// The occlusion pass's name in labels, timings and statistics.
pub const NAME: &str = "ssao";
/// The blur's name.
pub const BLUR: &str = "ssao_blur";

/// The occlusion's size: the render size divided by [`AO_SCALE`].
const EXTENT: Extent = Extent::TargetScaled(AO_SCALE);

/// An occlusion-sized single-channel image.
fn image(f: &mut FrameDeclaration, name: &'static str) -> ResourceId {
    f.image(ImageDesc {
        name,
        format: SCALAR_FORMAT,
        kind: ImageKind::Color,
        extent: EXTENT,
        samples: vk::SampleCountFlags::TYPE_1,
    })
}

/// Declares the blurred occlusion (made when a pass reads it).
pub fn blurred(f: &mut FrameDeclaration) -> ResourceId {
    image(f, "ao")
}

/// Declares the occlusion (depth and normals in, raw AO out) and its blur (raw AO and depth
/// in, blurred AO out, into `ao` from [`blurred`]).
pub fn declare(f: &mut FrameDeclaration, prepass: &DepthNormals, ao: ResourceId) {
    let raw = image(f, "ao raw");
    let (depth, normals) = (prepass.depth, prepass.normals);
    let sampled = Access::Sampled(Stages::Compute);
    let pipeline = f.pipeline(compute("ssao", "ssao.comp"));
    f.pass(NAME, move |r| {
        let screen = r.shared.samplers.screen;
        let normals = r.image_info(normals, screen)?;
        let noise = PassRecording::fixed_image(r.shared.samplers.noise, screen);
        dispatch(
            r,
            r.pipeline(pipeline)?,
            depth,
            &[
                Bind::image("normal_map", &normals),
                Bind::image("noise_map", &noise),
            ],
            raw,
        )
    })
    .read(depth, sampled)
    .read(normals, sampled)
    .write(raw, Access::StorageWrite(Stages::Compute))
    .finish();
    let blur = f.pipeline(compute("ssao blur", "ssao_blur.comp"));
    f.pass(BLUR, move |r| {
        let input = r.image_info(raw, r.shared.samplers.screen)?;
        dispatch(
            r,
            r.pipeline(blur)?,
            depth,
            &[Bind::image("ao_raw", &input)],
            ao,
        )
    })
    .read(raw, sampled)
    .read(depth, sampled)
    .write(ao, Access::StorageWrite(Stages::Compute))
    .finish();
}

/// Dispatches `pipeline` over the occlusion's size with the depth, the frame uniforms,
/// `inputs` and `output`.
fn dispatch(
    r: &PassRecording<'_>,
    pipeline: &crate::gpu::device::pipeline::Pipeline,
    depth: ResourceId,
    inputs: &[Bind<'_>],
    output: ResourceId,
) -> Result<(), crate::gpu::device::error::GpuError> {
    let depth = r.image_info(depth, r.shared.samplers.screen)?;
    let output = r.image_info(output, vk::Sampler::null())?;
    let frame = r.frame_info();
    let mut binds = [Bind::image("depth_map", &depth); 5];
    binds[1] = Bind::buffer("Frame", &frame);
    binds[2] = Bind::image("ao_out", &output);
    let n = 3 + inputs.len().min(2);
    binds[3..n].copy_from_slice(&inputs[..n - 3]);
    let size = EXTENT.resolve(r.extent());
    r.dispatch(pipeline, &binds[..n], [size.width, size.height])
}
