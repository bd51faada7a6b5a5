//! The ground and the sky of the frame without a prepass, in compute
//! ([`crate::gpu::RenderSettings::ground`]): the forward passes draw the meshes into
//! emptied targets (light and normals with alpha 0) and resolve them, and this pass adds, at
//! each pixel, the ground the pixel's centre sees (or the sky) by the share of its samples no
//! mesh covered (`shaders/ground.comp`). The ground was a full-screen quad shaded into three
//! multisampled targets and their depth under everything else: on a GPU whose graphics units
//! are few it was most of the frame's fixed cost.
//!
//! With multisampling the lit passes resolve nothing: this pass reads their samples, averages
//! them as the resolve would have, adds the ground and writes the resolved images
//! (`shaders/ground_resolve.comp`). The resolve at the end of a render pass was paid again by
//! each pass that ended the lit ones, drawn or empty, and its result was read and written
//! here once more.

use crate::gpu::features::lit::depth_normal::DepthNormals;
use crate::gpu::features::lit::forward::{Forward, ResolvedLight, SKY_CLEAR};
use crate::gpu::frame::declaration::FrameDeclaration;
use crate::gpu::frame::declaration::compute;
use crate::gpu::frame::gpu_layouts::GroundConstants;
use crate::gpu::frame::recording::pass::Bind;
use crate::gpu::graph::{Access, ResourceId, Stages};

/// The pass's name in labels, timings and statistics.
pub const NAME: &str = "ground";

/// Declares the pass over what the lit passes of `forward` resolved (its light apart), when
/// the frame's shape draws the ground in compute. With compute passes' surfaces in
/// `visibility`, the samples they claim from the lit passes' depth (`images`) are left out,
/// for the shading passes to add them.
pub fn declare(
    f: &mut FrameDeclaration,
    forward: &Forward,
    visibility: Option<ResourceId>,
    images: &DepthNormals,
) {
    let Some(light) = forward.resolved_light() else {
        return;
    };
    if !f.shape.ground_in_compute {
        return;
    }
    let shadow_map = forward.lit.shadow_map;
    let unresolved = forward.unresolved_light();
    let pipeline = f.pipeline(match (unresolved, visibility) {
        (Some(_), None) => compute("ground (resolving)", "ground_resolve.comp"),
        (None, None) => compute("ground", "ground.comp"),
        (Some(_), Some(_)) => compute(
            "ground (resolving, under compute surfaces)",
            "ground_resolve_visible.comp",
        ),
        (None, Some(_)) => compute("ground (under compute surfaces)", "ground_visible.comp"),
    });
    let mesh_depth = images.depth_samples;
    let mut p = f.pass(NAME, move |r| {
        let targets = light.images(r)?;
        let samples = match unresolved {
            Some(images) => Some(images.sampled(r)?),
            None => None,
        };
        let shadow = r.shadow_image(shadow_map)?;
        let frame = r.frame_info();
        // What the compute surfaces' claims are read from, where there are any.
        let claims = match visibility {
            Some(v) => Some((
                r.buffer_info(v)?,
                r.image_info(mesh_depth, r.shared.samplers.screen)?,
            )),
            None => None,
        };
        let [sun, sky, normals] = ResolvedLight::binds(&targets);
        let mut binds = [Bind::buffer("Frame", &frame); 10];
        binds[1..5].copy_from_slice(&[Bind::image("shadow_map", &shadow), sun, sky, normals]);
        let mut count = 5;
        if let Some(samples) = &samples {
            binds[5..8].copy_from_slice(&ResolvedLight::sample_binds(samples));
            count = 8;
        }
        if let Some((keys, depth)) = &claims {
            binds[count] = Bind::buffer("Visibility", keys);
            binds[count + 1] = Bind::image("mesh_depth", depth);
            count += 2;
        }
        let binds = &binds[..count];
        let pipeline = r.pipeline(pipeline)?;
        let constants = GroundConstants {
            background: SKY_CLEAR,
        };
        r.push_constants(pipeline, bytemuck::bytes_of(&constants))?;
        let extent = r.extent();
        r.dispatch(pipeline, binds, [extent.width, extent.height])
    });
    if let Some(map) = shadow_map {
        p.read(map, Access::Sampled(Stages::Compute));
    }
    if let Some(v) = visibility {
        p.read(v, Access::StorageRead(Stages::Compute))
            .read(mesh_depth, Access::Sampled(Stages::Compute));
    }
    match unresolved {
        Some(samples) => {
            samples.sampled_by(&mut p);
            light.written_by(&mut p);
        }
        None => light.merged_by(&mut p),
    }
    p.finish();
}
