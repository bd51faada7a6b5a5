//! Every shader against the descriptor set layout its pipeline is built with (`Layouts` in
//! `src/gpu/pipeline.rs`), with the validation layer on: a binding a shader declares that the
//! layout lacks, or holds with another descriptor type or stage, is a validation message when
//! the pipeline is created. The shaders take their numbers from `src/gpu/shader_interface.rs`
//! and so do the layouts; this fails when one side stops doing so (a literal, another constant,
//! another descriptor type). `tests/gpu_layouts.rs` checks the SPIR-V's side without a device.
//!
//! One test in this file: its last step provokes a message on purpose (a shader against the
//! wrong layout), proving the layer checks bindings at all; that must not fail another test.

mod gpu_common;

use ash::vk;
use throng::gpu::passes::{DEPTH_FORMAT, NORMAL_FORMAT};
use throng::gpu::pipeline_builder::{
    Culling, DepthState, Layouts, Pipeline, PipelineDesc, VertexInput,
};
use throng::gpu::shaders::{self, ShaderModule};
use throng::gpu::{OFFSCREEN_FORMAT, validation_messages};

#[test]
fn every_shader_matches_the_layout_of_its_pipeline() {
    let Some(ctx) = gpu_common::validated_context() else {
        return;
    };
    let layouts = Layouts::new(&ctx).expect("layouts");
    let module = |name: &str, spirv: &[u8]| ShaderModule::new(&ctx, name, spirv).expect(name);
    let depth = |compare| {
        Some(DepthState {
            format: DEPTH_FORMAT,
            compare,
            write: true,
            bias: None,
        })
    };

    // The vertex and fragment pairs the passes draw with (src/gpu/pipelines.rs).
    let skinned = module("skinned.vert", shaders::SKINNED_VERT);
    let ground = module("ground.vert", shaders::GROUND_VERT);
    let fullscreen = module("fullscreen.vert", shaders::FULLSCREEN_VERT);
    let shadow = module("shadow.vert", shaders::SHADOW_VERT);
    let frag = |name: &str, spirv: &[u8]| Some(module(name, spirv));
    let graphics = [
        (
            "forward",
            &skinned,
            frag("skinned.frag", shaders::SKINNED_FRAG),
        ),
        (
            "depth+normal",
            &skinned,
            frag("depth_normal.frag", shaders::DEPTH_NORMAL_FRAG),
        ),
        ("ground", &ground, frag("ground.frag", shaders::GROUND_FRAG)),
        (
            "ground depth+normal",
            &ground,
            frag("ground_normal.frag", shaders::GROUND_NORMAL_FRAG),
        ),
        (
            "debug view",
            &fullscreen,
            frag("debug_view.frag", shaders::DEBUG_VIEW_FRAG),
        ),
        ("shadow", &shadow, None),
    ];
    let mut pipelines = Vec::new();
    for (name, vert, frag) in &graphics {
        let input = match *name {
            "forward" | "depth+normal" => VertexInput::Skinned,
            "shadow" => VertexInput::SkinnedPosition,
            _ => VertexInput::Generated,
        };
        let color = match *name {
            "shadow" => None,
            "depth+normal" | "ground depth+normal" => Some(NORMAL_FORMAT),
            _ => Some(OFFSCREEN_FORMAT),
        };
        let desc = PipelineDesc {
            name,
            input,
            color,
            depth: if *name == "debug view" {
                None
            } else {
                depth(vk::CompareOp::LESS)
            },
            culling: Culling::Back,
            samples: vk::SampleCountFlags::TYPE_1,
        };
        pipelines.push(Pipeline::new(&ctx, &layouts, &desc, vert, frag.as_ref()).expect(name));
    }
    let compute = [
        ("ssao.comp", shaders::SSAO_COMP, layouts.compute),
        ("ssao_blur.comp", shaders::SSAO_BLUR_COMP, layouts.compute),
        (
            "occlusion_depth.comp",
            shaders::OCCLUSION_DEPTH_COMP,
            layouts.compute,
        ),
        ("cull.comp", shaders::CULL_COMP, layouts.cull),
        ("cull_late.comp", shaders::CULL_LATE_COMP, layouts.cull),
        ("cull_draws.comp", shaders::CULL_DRAWS_COMP, layouts.cull),
    ];
    for (name, spirv, layout) in compute {
        let shader = module(name, spirv);
        pipelines.push(Pipeline::compute_with(&ctx, layout, name, &shader).expect(name));
    }
    assert_eq!(
        validation_messages(),
        0,
        "a shader's bindings differ from its pipeline's layout (see the log above)"
    );

    // The control: the culling shader against the compute layout (storage buffers where that
    // has images, bindings it lacks) must be reported, or the check above proves nothing.
    let cull = module("cull.comp", shaders::CULL_COMP);
    let wrong = Pipeline::compute_with(&ctx, layouts.compute, "cull.comp, wrong layout", &cull);
    drop(wrong);
    assert!(
        validation_messages() > 0,
        "the validation layer let a shader through against a layout without its bindings"
    );
    drop(pipelines);
}
