//! Every pipeline the passes register, built as the renderer builds it (layouts read from its
//! shaders, `src/gpu/device/pipeline.rs`) under the validation layer: over every view, sample
//! count, prepass and face-culling setting, no pipeline may draw a message when it is made.
//! `tests/gpu_layouts.rs` checks the SPIR-V's side without a device.
//!
//! One test in this file: its last step provokes a message on purpose (a descriptor pushed as
//! another kind than the layout's binding), proving the layer checks what is pushed against
//! the layouts at all; that must not fail another test.

mod gpu_common;

use std::collections::HashSet;

use ash::vk;
use gpu_allocator::MemoryLocation;
use throng::gpu::device::buffer::GpuBuffer;
use throng::gpu::device::pipeline::{PipelineCache, PipelineDesc, PipelineKind};
use throng::gpu::frame::settings::GraphKey;
use throng::gpu::renderer::compose::compile;
use throng::gpu::{
    CardDepth, Culling, OFFSCREEN_FORMAT, Raster, RenderSettings, ViewMode, validation_messages,
};

/// Every pipeline description any frame registers, and the impostor atlas's bake (made
/// outside the frame, the first time a model's cards are needed).
fn every_pipeline() -> Vec<PipelineDesc> {
    let mut all = HashSet::new();
    for culling in [Culling::Back, Culling::Front, Culling::None] {
        all.insert(throng::gpu::features::impostors::bake::bake_pipeline(
            culling,
        ));
    }
    for view in [
        ViewMode::Final,
        ViewMode::Silhouette,
        ViewMode::Ao,
        ViewMode::Normals,
        ViewMode::Depth,
        ViewMode::Shadow,
    ] {
        for msaa in [1, 4] {
            for (prepass, ssao) in [(true, true), (false, true), (false, false)] {
                for culling in [Culling::Back, Culling::Front, Culling::None] {
                    // The card passes add pipelines (one set per depth a card may leave,
                    // quads or compute), the ground in compute its own and the camera
                    // depth's, skinning once the skin pass and the vertex shaders that read
                    // it, meshes in compute their raster, shading and the ground that leaves
                    // them room; the rest are the same either way.
                    let (g, c) = (Raster::Graphics, Raster::Compute);
                    for (card_depth, card_raster, ground, skin, mesh_raster) in [
                        (CardDepth::Picture, g, g, g, g),
                        (CardDepth::Plane, g, g, c, g),
                        (CardDepth::Picture, c, g, g, g),
                        (CardDepth::Picture, g, c, c, g),
                        (CardDepth::Picture, c, c, c, g),
                        (CardDepth::Picture, g, c, g, c),
                        (CardDepth::Picture, c, c, c, c),
                    ] {
                        let settings = RenderSettings {
                            msaa,
                            prepass,
                            ssao,
                            impostors: true,
                            card_depth,
                            card_raster,
                            ground,
                            skin,
                            mesh_raster,
                            // A post-process pass adds its pipelines and changes no other.
                            tonemap: true,
                            auto_exposure: true,
                            ..RenderSettings::default()
                        };
                        let key = GraphKey {
                            view,
                            readback: true,
                            present: false,
                            // The crowd-state and track passes (counting neighbours too)
                            // and the heads-up display add their pipelines and change no
                            // other.
                            crowd_state: true,
                            tracks: true,
                            density: true,
                            hud: true,
                            // Atlases there: the card passes are declared.
                            cards: true,
                            shadow_size: 2048,
                            // An alpha-clipped material there: the shadow pass's
                            // clipping pipeline is declared.
                            alpha_clip: true,
                            // The near shadow cascade there: its pass reuses the shadow
                            // pass's pipelines.
                            shadow_cascade: true,
                        };
                        let frame = compile(key, &settings, OFFSCREEN_FORMAT, culling)
                            .unwrap_or_else(|e| panic!("{view:?} {msaa} {prepass}: {e}"));
                        all.extend(frame.pipeline_descs.iter().copied());
                    }
                }
            }
        }
    }
    all.into_iter().collect()
}

#[test]
fn every_pipeline_the_passes_register_builds_without_a_message() {
    let Some(ctx) = gpu_common::validated_context() else {
        return;
    };
    let descs = every_pipeline();
    let shaders: HashSet<&str> = descs.iter().flat_map(PipelineDesc::shaders).collect();
    // Every compiled shader is used by some pipeline (none is left behind).
    for (name, _) in throng::gpu::shaders::ALL {
        assert!(shaders.contains(name), "no pass uses shaders/{name}");
    }
    let mut cache = PipelineCache::new(&ctx);
    for desc in &descs {
        cache
            .get(desc)
            .unwrap_or_else(|e| panic!("{}: {e}", desc.name));
    }
    assert_eq!(cache.len(), descs.len());
    assert_eq!(
        validation_messages(),
        0,
        "a pipeline drew validation messages when it was made (see the log above)"
    );

    // The control: a descriptor pushed as another kind than its binding holds (a uniform
    // buffer where the culling shader reads a storage buffer) must be reported, or the check
    // above proves nothing about what the layouts hold.
    let cull = descs
        .iter()
        .find(|d| d.kind == PipelineKind::Compute("cull.comp"))
        .expect("the culling pipeline");
    let pipeline = cache.get(cull).expect("built");
    let records = pipeline
        .binding("Records")
        .expect("cull.comp reads Records");
    assert_eq!(records.kind, vk::DescriptorType::STORAGE_BUFFER);
    let buffer = GpuBuffer::new(
        &ctx,
        "control buffer",
        256,
        vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::UNIFORM_BUFFER,
        MemoryLocation::GpuOnly,
        256,
    )
    .expect("a buffer");
    let info = [vk::DescriptorBufferInfo {
        buffer: buffer.buffer,
        offset: 0,
        range: vk::WHOLE_SIZE,
    }];
    let wrong = [vk::WriteDescriptorSet::default()
        .dst_binding(records.binding)
        .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER)
        .buffer_info(&info)];
    // Recorded only, never submitted.
    // SAFETY: a pool and a buffer recorded and destroyed here, with a live pipeline.
    unsafe {
        let device = &ctx.device;
        let pool = device
            .create_command_pool(
                &vk::CommandPoolCreateInfo::default().queue_family_index(ctx.physical.queue_family),
                None,
            )
            .expect("a command pool");
        let cmd = device
            .allocate_command_buffers(
                &vk::CommandBufferAllocateInfo::default()
                    .command_pool(pool)
                    .level(vk::CommandBufferLevel::PRIMARY)
                    .command_buffer_count(1),
            )
            .expect("a command buffer")[0];
        device
            .begin_command_buffer(cmd, &vk::CommandBufferBeginInfo::default())
            .expect("begin");
        device.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, pipeline.pipeline);
        ctx.push_descriptor.cmd_push_descriptor_set(
            cmd,
            vk::PipelineBindPoint::COMPUTE,
            pipeline.layout.layout,
            0,
            &wrong,
        );
        device.end_command_buffer(cmd).expect("end");
        device.destroy_command_pool(pool, None);
    }
    assert!(
        validation_messages() > 0,
        "the validation layer let a dispatch through without its descriptors"
    );
}
