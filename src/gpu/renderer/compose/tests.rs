//! The frame's passes as the graph compiles them, without a device: which passes run for a
//! view, what each may touch, and the attachment operations the plan decides for them.

use ash::vk;

use super::*;
use crate::gpu::device::pipeline_desc::PipelineKind;
use crate::gpu::frame::recording::pass::declared_use;
use crate::gpu::frame::settings::{Raster, ViewMode};
use crate::gpu::graph::Step;

fn frame(view: ViewMode, settings: RenderSettings) -> CompiledFrame {
    frame_with_hud(view, settings, false)
}

/// The key of a headless frame of `view` read back, cards possible, nothing else.
fn key_of(view: ViewMode) -> GraphKey {
    GraphKey {
        view,
        readback: true,
        present: false,
        crowd_state: false,
        tracks: false,
        density: false,
        hud: false,
        cards: true,
        shadow_size: 2048,
        alpha_clip: false,
        shadow_cascade: false,
    }
}

fn frame_with_hud(view: ViewMode, settings: RenderSettings, hud: bool) -> CompiledFrame {
    let key = GraphKey {
        hud,
        ..key_of(view)
    };
    match compile(key, &settings, vk::Format::R8G8B8A8_SRGB, Culling::Back) {
        Ok(f) => f,
        Err(e) => panic!("the frame graph for {view:?} does not compile: {e}"),
    }
}

fn step<'a>(f: &'a CompiledFrame, name: &str) -> &'a Step {
    match f.plan.steps().iter().find(|s| s.name == name) {
        Some(s) => s,
        None => panic!("no step {name} in {:?}", names(f)),
    }
}

/// The resource the passes declared as `name`.
fn id(f: &CompiledFrame, name: &str) -> crate::gpu::graph::ResourceId {
    f.plan
        .find(name)
        .unwrap_or_else(|| panic!("no resource {name}"))
}

fn names(f: &CompiledFrame) -> Vec<&'static str> {
    f.plan.steps().iter().map(|s| s.name).collect()
}

/// Asserts that each pair's first pass runs before its second in `order`.
fn assert_order(order: &[&str], pairs: &[(&str, &str)]) {
    let at = |name| {
        order
            .iter()
            .position(|n| *n == name)
            .unwrap_or_else(|| panic!("no {name} in {order:?}"))
    };
    for &(before, after) in pairs {
        assert!(at(before) < at(after), "{before} before {after}: {order:?}");
    }
}

#[test]
fn a_resource_a_pass_did_not_declare_is_refused() {
    let f = frame(ViewMode::Final, RenderSettings::default());
    let ssao = step(&f, pass::SSAO);
    let depth = declared_use(&f.plan, ssao, id(&f, "depth")).expect("ssao declares depth");
    assert_eq!(
        depth.layout,
        Some(vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL)
    );
    let err = declared_use(&f.plan, ssao, id(&f, "shadow map"))
        .expect_err("ssao never declared the shadow map")
        .to_string();
    assert!(
        err.contains("ssao") && err.contains("shadow map"),
        "the error names the pass and the resource: {err}"
    );
}

#[test]
fn every_recorded_pass_has_a_recording_and_host_steps_have_none() {
    for view in [
        ViewMode::Final,
        ViewMode::Silhouette,
        ViewMode::Ao,
        ViewMode::Normals,
        ViewMode::Depth,
        ViewMode::Shadow,
    ] {
        let f = frame(view, RenderSettings::default());
        for s in f.plan.steps() {
            assert_eq!(
                f.recorder(s).is_none(),
                s.name == pass::PALETTES,
                "{view:?}: {}",
                s.name
            );
        }
        assert_eq!(names(&f).first(), Some(&pass::PALETTES), "{view:?}");
        assert_eq!(names(&f).last(), Some(&pass::READBACK), "{view:?}");
    }
}

/// The heads-up display draws over the finished frame (whatever the view: the lit frame, a
/// debug view), loading what is there, before the frame is read back; without text it is not
/// declared at all.
#[test]
fn the_hud_draws_over_the_finished_frame() {
    for view in [ViewMode::Final, ViewMode::Ao] {
        let f = frame_with_hud(view, RenderSettings::default(), true);
        let order = names(&f);
        let at = |name| order.iter().position(|n| *n == name);
        let hud = at(pass::HUD).expect("a hud step");
        let last_drawing = if view == ViewMode::Final {
            pass::FORWARD
        } else {
            pass::DEBUG_VIEW
        };
        assert!(at(last_drawing) < Some(hud), "{view:?}: {order:?}");
        assert!(Some(hud) < at(pass::READBACK), "{view:?}: {order:?}");
        let color = id(&f, "scene colour");
        let used = *declared_use(&f.plan, step(&f, pass::HUD), color).expect("declared");
        assert!(used.loads && used.stores, "{view:?}: {used:?}");
        let without = names(&frame(view, RenderSettings::default()));
        assert!(!without.contains(&pass::HUD), "{without:?}");
    }
}

#[test]
fn the_plan_decides_loads_and_stores() {
    for msaa in [1, 4] {
        let f = frame(
            ViewMode::Final,
            RenderSettings {
                msaa,
                prepass: true,
                ..RenderSettings::default()
            },
        );
        let multisampled = f.plan.find("depth (multisampled)").is_some();
        assert_eq!(multisampled, msaa > 1);
        let (depth, depth_samples) = if multisampled {
            (id(&f, "depth"), id(&f, "depth (multisampled)"))
        } else {
            (id(&f, "depth"), id(&f, "depth"))
        };
        let color = id(&f, "scene colour");
        let use_of = |name, id| *declared_use(&f.plan, step(&f, name), id).expect("declared");
        // The first prepass starts the depth buffer, the late one adds to it, and the forward
        // pass only tests against it: cleared and stored, loaded and stored, loaded and not
        // written.
        let early = use_of(pass::DEPTH_NORMAL, depth_samples);
        assert!(
            !early.loads && early.stores && early.writes,
            "{msaa}: {early:?}"
        );
        let late = use_of(pass::DEPTH_NORMAL_LATE, depth_samples);
        assert!(late.loads && late.stores, "{msaa}: {late:?}");
        let forward = use_of(pass::FORWARD, depth_samples);
        assert!(forward.loads && !forward.writes, "{msaa}: {forward:?}");
        assert_eq!(
            forward.layout,
            Some(vk::ImageLayout::DEPTH_READ_ONLY_OPTIMAL)
        );
        // The target arrives undefined and is read back afterwards.
        let target = use_of(pass::FORWARD, color);
        assert!(!target.loads && target.stores, "{msaa}: {target:?}");
        if msaa > 1 {
            // Both prepasses resolve into the single-sample depth the ambient occlusion
            // reads; the multisampled colour is resolved, never stored.
            for name in [pass::DEPTH_NORMAL, pass::DEPTH_NORMAL_LATE] {
                let resolved = use_of(name, depth);
                assert!(resolved.writes && resolved.stores, "{name}: {resolved:?}");
                assert_eq!(resolved.layout, Some(vk::ImageLayout::ATTACHMENT_OPTIMAL));
            }
            let samples = use_of(pass::FORWARD, id(&f, "colour (multisampled)"));
            assert!(!samples.loads && !samples.stores, "{samples:?}");
        }
        // The shadow map is cleared, and stored for the forward pass that samples it.
        let shadow = use_of(pass::SHADOW, id(&f, "shadow map"));
        assert!(!shadow.loads && shadow.stores, "{msaa}: {shadow:?}");
    }
    // Without a prepass and without ambient occlusion, the forward pass's depth is cleared
    // and, with no occlusion test to read it either, never stored.
    let bare = frame(
        ViewMode::Final,
        RenderSettings {
            ssao: false,
            occlusion: false,
            ..RenderSettings::default()
        },
    );
    let depth = bare
        .plan
        .find("depth (multisampled)")
        .unwrap_or_else(|| id(&bare, "depth"));
    let own = *declared_use(&bare.plan, step(&bare, pass::FORWARD), depth).expect("declared");
    assert!(!own.loads && !own.stores && own.writes, "{own:?}");
}

/// Without a prepass (the default) the forward pass starts the camera's depth, normals and
/// light, its late pass adds to them after the occlusion test that reads the depth it
/// resolved, the ambient occlusion reads what both left, and the composite pass alone
/// writes the target.
#[test]
fn without_a_prepass_the_lit_passes_draw_depth_and_normals_and_the_composite_the_target() {
    for msaa in [1, 4] {
        let f = frame(
            ViewMode::Final,
            RenderSettings {
                msaa,
                ..RenderSettings::default()
            },
        );
        let order = names(&f);
        assert!(
            !order.contains(&pass::DEPTH_NORMAL) && !order.contains(&pass::DEPTH_NORMAL_LATE),
            "{order:?}"
        );
        assert_order(
            &order,
            &[
                (pass::FORWARD, pass::OCCLUSION_DEPTH),
                (pass::CULL_LATE, pass::FORWARD_LATE),
                (pass::FORWARD_LATE, pass::SSAO),
                (pass::SSAO_BLUR, pass::AMBIENT_COMPOSITE),
            ],
        );
        let use_of = |name, id| *declared_use(&f.plan, step(&f, name), id).expect("declared");
        let multisampled = msaa > 1;
        let rendered = |name: &str| {
            if multisampled {
                id(&f, &format!("{name} (multisampled)"))
            } else {
                id(&f, name)
            }
        };
        for image in ["depth", "normals", "sun light", "sky light"] {
            let early = use_of(pass::FORWARD, rendered(image));
            assert!(!early.loads && early.writes, "{msaa} {image}: {early:?}");
            let late = use_of(pass::FORWARD_LATE, rendered(image));
            assert!(late.loads && late.writes, "{msaa} {image}: {late:?}");
            if multisampled {
                // The depth is resolved by each pass (the occlusion test reads the first's),
                // the colours by the last lit pass only.
                let resolved = use_of(pass::FORWARD_LATE, id(&f, image));
                assert!(resolved.writes && resolved.stores, "{image}: {resolved:?}");
                let early = declared_use(&f.plan, step(&f, pass::FORWARD), id(&f, image));
                assert_eq!(early.is_ok(), image == "depth", "{image}: {early:?}");
            }
        }
        let color = id(&f, "scene colour");
        for name in [pass::FORWARD, pass::FORWARD_LATE] {
            assert!(
                declared_use(&f.plan, step(&f, name), color).is_err(),
                "{name} touches the target"
            );
        }
        let target = use_of(pass::AMBIENT_COMPOSITE, color);
        assert!(!target.loads && target.stores, "{msaa}: {target:?}");
    }
    // With cards the card pass is the last lit pass: it alone resolves the colours.
    let f = frame(
        ViewMode::Final,
        RenderSettings {
            msaa: 4,
            impostors: true,
            ..RenderSettings::default()
        },
    );
    let sun = id(&f, "sun light");
    for name in [pass::FORWARD, pass::FORWARD_LATE] {
        let used = declared_use(&f.plan, step(&f, name), sun);
        assert!(used.is_err(), "{name} resolves the sun's light: {used:?}");
    }
    let cards = *declared_use(&f.plan, step(&f, pass::IMPOSTOR_FORWARD), sun).expect("declared");
    assert!(cards.writes && cards.stores, "{cards:?}");
}

/// The forward pass is kept whenever a later lit pass draws over its colours, though only
/// that one resolves them (multisampled, with cards), with or without the prepass, the
/// ambient occlusion and the occlusion test.
#[test]
fn a_lit_pass_drawn_over_is_kept() {
    for (prepass, ssao, occlusion) in [
        (true, true, true),
        (true, false, false),
        (false, true, true),
        (false, false, false),
    ] {
        let f = frame(
            ViewMode::Final,
            RenderSettings {
                msaa: 4,
                impostors: true,
                prepass,
                ssao,
                occlusion,
                ..RenderSettings::default()
            },
        );
        let order = names(&f);
        assert!(
            order.contains(&pass::FORWARD) && order.contains(&pass::IMPOSTOR_FORWARD),
            "prepass {prepass}, ssao {ssao}, occlusion {occlusion}: {order:?}"
        );
        // The card pass loads the forward pass's multisampled colour.
        let rendered = f
            .plan
            .find("colour (multisampled)")
            .unwrap_or_else(|| id(&f, "sun light (multisampled)"));
        let cards =
            *declared_use(&f.plan, step(&f, pass::IMPOSTOR_FORWARD), rendered).expect("declared");
        assert!(cards.loads, "{order:?}: {cards:?}");
    }
}

#[test]
fn the_palette_ring_is_written_by_the_host_before_any_pass_reads_it() {
    let f = frame(ViewMode::Final, RenderSettings::default());
    assert!(f.plan.host_written().contains(&f.frame.ring));
    assert!(f.plan.host_written().contains(&f.frame.cull_inputs));
}

#[test]
fn the_acquire_wait_stage_is_where_the_graph_first_touches_the_target() {
    for (view, stage) in [
        // The output pass draws it, whatever the view.
        (
            ViewMode::Final,
            vk::PipelineStageFlags2::COLOR_ATTACHMENT_OUTPUT,
        ),
        (
            ViewMode::Depth,
            vk::PipelineStageFlags2::COLOR_ATTACHMENT_OUTPUT,
        ),
    ] {
        let f = frame(view, RenderSettings::default());
        assert_eq!(f.plan.first_use_stages(f.frame.color), stage, "{view:?}");
    }
}

#[test]
fn debug_views_keep_only_what_they_show() {
    let f = frame(ViewMode::Shadow, RenderSettings::default());
    let kept = names(&f);
    assert!(kept.contains(&pass::SHADOW) && kept.contains(&pass::DEBUG_VIEW));
    assert!(
        !kept.contains(&pass::FORWARD) && !kept.contains(&pass::SSAO),
        "{kept:?}"
    );
    assert!(f.shape.shadow_lists);
    let ao = frame(ViewMode::Ao, RenderSettings::default());
    assert!(names(&ao).contains(&pass::SSAO_BLUR));
    assert!(!names(&ao).contains(&pass::SHADOW), "{:?}", names(&ao));
}

/// With the crowd's state on the GPU, its clocks and walkers carry from frame to frame: the
/// first pass to use them waits for the previous frame's last use (a memory dependency on the
/// clocks' writes, an execution one on the walkers' reads), the step waits for the changes
/// applied before it, and the host's read of the near list waits for the step. No barrier is
/// the passes' own: these are the graph's (importing the clocks as an ordinary buffer fails
/// the first check).
#[test]
fn the_crowd_states_buffers_are_ordered_across_frames_by_the_graph() {
    let key = GraphKey {
        view: ViewMode::Final,
        readback: true,
        present: false,
        crowd_state: true,
        tracks: false,
        density: false,
        hud: false,
        cards: true,
        shadow_size: 2048,
        alpha_clip: false,
        shadow_cascade: false,
    };
    let f = compile(
        key,
        &RenderSettings::default(),
        vk::Format::R8G8B8A8_SRGB,
        Culling::Back,
    )
    .expect("the frame compiles");
    let compute = vk::PipelineStageFlags2::COMPUTE_SHADER;
    let write = vk::AccessFlags2::SHADER_STORAGE_WRITE;
    let waits_on_compute_write = |pass: &str, resource: &str| {
        let res = id(&f, resource);
        f.plan
            .barriers(step(&f, pass))
            .iter()
            .any(|b| b.resource == res && b.src_stage == compute && b.src_access.contains(write))
    };
    assert!(
        waits_on_compute_write(pass::CROWD_STATE_APPLY, crowd_state::CLOCKS),
        "the first use of the clocks waits for the last frame's step"
    );
    // The walkers were last read (by the step): their first write waits for that read, an
    // execution dependency.
    let walkers = id(&f, crowd_state::WALKERS);
    assert!(
        f.plan
            .barriers(step(&f, pass::CROWD_STATE_APPLY))
            .iter()
            .any(|b| b.resource == walkers && b.src_stage == compute),
        "the first write of the walkers waits for the last frame's step, which read them"
    );
    assert!(
        waits_on_compute_write(pass::CROWD_STATE, crowd_state::CLOCKS),
        "the step waits for the changes applied to the clocks"
    );
    let near = id(&f, crowd_state::NEAR);
    assert!(
        f.plan
            .final_barriers()
            .iter()
            .any(|b| b.resource == near && b.dst_stage == vk::PipelineStageFlags2::HOST),
        "the host reads the near list after the step's writes"
    );
}

/// Coloured by density, the neighbours are counted after the track step has placed everyone
/// and before the crowd-state pass records the looks: the hash emptied, filled, then read;
/// none of it without the colouring or without tracks.
#[test]
fn neighbours_are_counted_between_the_track_step_and_the_crowd_state() {
    use crate::gpu::features::crowd_state::track_passes as tracks;
    let key = |tracks: bool, density: bool| GraphKey {
        crowd_state: true,
        tracks,
        density,
        ..key_of(ViewMode::Final)
    };
    let compiled = |key| {
        compile(
            key,
            &RenderSettings::default(),
            vk::Format::R8G8B8A8_SRGB,
            Culling::Back,
        )
        .expect("the frame compiles")
    };
    let f = compiled(key(true, true));
    let order = names(&f);
    assert_order(
        &order,
        &[
            (tracks::STEP, tracks::DENSITY_INSERT),
            (tracks::DENSITY_CLEAR, tracks::DENSITY_INSERT),
            (tracks::DENSITY_INSERT, tracks::DENSITY),
            (tracks::DENSITY, pass::CROWD_STATE),
        ],
    );
    // The count reads the lists the insert wrote, and the looks it writes reach the
    // crowd-state pass.
    let compute = vk::PipelineStageFlags2::COMPUTE_SHADER;
    let write = vk::AccessFlags2::SHADER_STORAGE_WRITE;
    for (pass, resource) in [
        (tracks::DENSITY, tracks::DENSITY_NEXT),
        (pass::CROWD_STATE, crowd_state::WALKERS),
    ] {
        let res = id(&f, resource);
        assert!(
            f.plan
                .barriers(step(&f, pass))
                .iter()
                .any(|b| b.resource == res
                    && b.src_stage == compute
                    && b.src_access.contains(write)),
            "{pass} waits for the writes of {resource}"
        );
    }
    for (has_tracks, density) in [(true, false), (false, false)] {
        let order = names(&compiled(key(has_tracks, density)));
        for pass in [
            tracks::DENSITY_CLEAR,
            tracks::DENSITY_INSERT,
            tracks::DENSITY,
        ] {
            assert!(!order.contains(&pass), "{pass} in {order:?}");
        }
    }
}

/// One pass writes the target: the output pass, last before the readback, copying the scene
/// colour every other pass drew into; so a post-process pass fits between the lit passes and
/// it without touching either.
#[test]
fn only_the_output_pass_writes_the_target() {
    let views = [
        ViewMode::Final,
        ViewMode::Ao,
        ViewMode::Normals,
        ViewMode::Depth,
        ViewMode::Shadow,
        ViewMode::Silhouette,
    ];
    for view in views {
        for (prepass, hud) in [(false, false), (true, false), (false, true)] {
            let settings = RenderSettings {
                prepass,
                ..RenderSettings::default()
            };
            let f = frame_with_hud(view, settings, hud);
            let target = f.frame.color;
            let writers: Vec<&str> = f
                .plan
                .steps()
                .iter()
                .filter(|s| declared_use(&f.plan, s, target).is_ok_and(|u| u.writes))
                .map(|s| s.name)
                .collect();
            assert_eq!(
                writers,
                [pass::OUTPUT],
                "{view:?}, prepass {prepass}, hud {hud}"
            );
            let order = names(&f);
            let at = |name| order.iter().position(|n| *n == name);
            assert!(at(pass::OUTPUT) < at(pass::READBACK), "{order:?}");
            if hud {
                assert!(at(pass::HUD) < at(pass::OUTPUT), "{order:?}");
            }
        }
    }
}

/// A post-process pass goes between the lit passes and the output without touching them:
/// with the tone curve on, the same passes run in the same order with the same use of the
/// scene colour, the curve reads the scene colour after the last lit pass, and the HUD and
/// the output take the mapped image.
#[test]
fn a_post_process_pass_fits_between_the_lit_passes_and_the_output() {
    for prepass in [false, true] {
        let plain = RenderSettings {
            prepass,
            ..RenderSettings::default()
        };
        let off = frame_with_hud(ViewMode::Final, plain, true);
        let on = frame_with_hud(
            ViewMode::Final,
            RenderSettings {
                tonemap: true,
                ..plain
            },
            true,
        );
        let mut without: Vec<&str> = names(&on);
        without.retain(|n| *n != pass::TONEMAP);
        assert_eq!(without, names(&off), "prepass {prepass}");
        let scene = id(&on, "scene colour");
        let mapped = id(&on, "scene colour (tone mapped)");
        // The last pass to draw the lit frame (cards are off in the library's defaults).
        let lit = if prepass {
            pass::FORWARD
        } else {
            pass::AMBIENT_COMPOSITE
        };
        let uses_on = declared_use(&on.plan, step(&on, lit), scene)
            .map(|u| (u.layout, u.loads, u.stores, u.writes));
        let uses_off = declared_use(&off.plan, step(&off, lit), id(&off, "scene colour"))
            .map(|u| (u.layout, u.loads, u.stores, u.writes));
        assert_eq!(uses_on.ok(), uses_off.ok(), "{lit} draws the same");
        assert!(declared_use(&on.plan, step(&on, pass::TONEMAP), scene).is_ok());
        for after in [pass::HUD, pass::OUTPUT] {
            assert!(
                declared_use(&on.plan, step(&on, after), mapped).is_ok(),
                "{after} takes the mapped frame"
            );
            assert!(
                declared_use(&on.plan, step(&on, after), scene).is_err(),
                "{after} no longer touches the lit frame"
            );
        }
        let order = names(&on);
        let at = |name| order.iter().position(|n| *n == name);
        assert!(at(lit) < at(pass::TONEMAP) && at(pass::TONEMAP) < at(pass::HUD));
    }
}

/// A stateful post-process feature fits the same way: with auto exposure on (and the tone
/// curve), the passes without it run as before in the same order; the measuring pass reads
/// the lit frame and writes the exposure state the graph imports (kept across frames), the
/// applying pass reads both and hands on a new scene colour, which the tone curve takes.
#[test]
fn auto_exposure_fits_between_the_lit_passes_and_the_tone_curve() {
    for prepass in [false, true] {
        let plain = RenderSettings {
            prepass,
            tonemap: true,
            ..RenderSettings::default()
        };
        let off = frame_with_hud(ViewMode::Final, plain, true);
        let on = frame_with_hud(
            ViewMode::Final,
            RenderSettings {
                auto_exposure: true,
                ..plain
            },
            true,
        );
        let mut without: Vec<&str> = names(&on);
        without.retain(|n| *n != pass::EXPOSURE && *n != pass::EXPOSURE_MEASURE);
        assert_eq!(without, names(&off), "prepass {prepass}");
        let (lit, state) = (id(&on, "scene colour"), id(&on, "exposure state"));
        let exposed = id(&on, "scene colour (exposed)");
        let measure = step(&on, pass::EXPOSURE_MEASURE);
        assert!(declared_use(&on.plan, measure, lit).is_ok());
        assert!(declared_use(&on.plan, measure, state).is_ok_and(|u| u.writes));
        let apply = step(&on, pass::EXPOSURE);
        assert!(declared_use(&on.plan, apply, state).is_ok_and(|u| !u.writes));
        assert!(declared_use(&on.plan, apply, exposed).is_ok_and(|u| u.writes));
        let tonemap = step(&on, pass::TONEMAP);
        assert!(declared_use(&on.plan, tonemap, exposed).is_ok());
        assert!(declared_use(&on.plan, tonemap, lit).is_err());
        let order = names(&on);
        let at = |name| order.iter().position(|n| *n == name);
        assert!(at(pass::EXPOSURE_MEASURE) < at(pass::EXPOSURE));
        assert!(at(pass::EXPOSURE) < at(pass::TONEMAP));
    }
}

/// Cards and the ground in compute: the sun's cards are splatted and copied into the shadow
/// map before the meshes' shadow pass, which then loads it instead of clearing it; the ground
/// is added to what the last lit pass resolved, and the camera's cards are rasterized and
/// shaded over both; the camera depth pass puts the ground and the cards into the depth the
/// ambient occlusion reads; no graphics card pass is left, and the last forward pass
/// resolves the colours itself.
#[test]
fn cards_in_compute_go_around_the_lit_passes() {
    use crate::gpu::frame::settings::Raster;
    for msaa in [1, 4] {
        let settings = RenderSettings {
            msaa,
            impostors: true,
            card_raster: Raster::Compute,
            ground: Raster::Compute,
            ..RenderSettings::default()
        };
        let f = frame(ViewMode::Final, settings);
        let order = names(&f);
        for graphics in [
            pass::IMPOSTOR_SHADOW,
            pass::IMPOSTOR_DEPTH_NORMAL,
            pass::IMPOSTOR_FORWARD,
        ] {
            assert!(
                !order.contains(&graphics),
                "{msaa}: {graphics} in {order:?}"
            );
        }
        assert_order(
            &order,
            &[
                (pass::SHADOW_SPLAT_CLEAR, pass::CARD_SHADOW),
                (pass::CARD_SHADOW, pass::SHADOW_SPLAT_COPY),
                (pass::SHADOW_SPLAT_COPY, pass::SHADOW),
                (pass::CARD_VISIBILITY_CLEAR, pass::CARD_RASTER),
                (pass::CARD_RASTER, pass::CARD_SHADE),
                (pass::FORWARD_LATE, pass::GROUND),
                // The ground leaves out the samples the cards claim.
                (pass::CARD_RASTER, pass::GROUND),
                (pass::GROUND, pass::CARD_SHADE),
                (pass::CARD_RASTER, pass::CAMERA_DEPTH),
                (pass::CAMERA_DEPTH, pass::SSAO),
                (pass::CARD_SHADE, pass::SSAO),
                (pass::CARD_SHADE, pass::AMBIENT_COMPOSITE),
            ],
        );
        let use_of = |name, id| *declared_use(&f.plan, step(&f, name), id).expect("declared");
        let map = id(&f, "shadow map");
        let copied = use_of(pass::SHADOW_SPLAT_COPY, map);
        assert!(copied.writes && copied.stores, "{copied:?}");
        assert_eq!(copied.layout, Some(vk::ImageLayout::TRANSFER_DST_OPTIMAL));
        let meshes = use_of(pass::SHADOW, map);
        assert!(meshes.loads && meshes.writes, "{meshes:?}");
        for image in ["sun light", "sky light", "normals"] {
            let merged = use_of(pass::CARD_SHADE, id(&f, image));
            assert!(merged.loads && merged.writes, "{msaa} {image}: {merged:?}");
            assert_eq!(merged.layout, Some(vk::ImageLayout::GENERAL));
            // With one sample the ground adds to what the lit passes drew; with four it
            // writes the resolved images from their samples (ground_resolves_the_lit_passes).
            let ground = use_of(pass::GROUND, id(&f, image));
            assert_eq!(ground.loads, msaa == 1, "{msaa} {image}: {ground:?}");
            assert!(ground.writes, "{msaa} {image}: {ground:?}");
            assert_eq!(ground.layout, Some(vk::ImageLayout::GENERAL));
            if msaa == 1 {
                let drawn = use_of(pass::FORWARD_LATE, id(&f, image));
                assert!(drawn.writes && drawn.stores, "{image}: {drawn:?}");
            }
        }
        // The ground is lit through the shadow map the cards were splatted into.
        let lit = use_of(pass::GROUND, map);
        assert!(lit.loads && !lit.writes, "{lit:?}");
        // The occlusion reads the depth with the ground and the cards in it, not the meshes'
        // alone.
        let ssao = step(&f, pass::SSAO);
        assert!(declared_use(&f.plan, ssao, id(&f, "camera depth")).is_ok());
        assert!(declared_use(&f.plan, ssao, id(&f, "depth")).is_err());
    }
    // The camera's cards of a frame with a prepass stay quads; the sun's go to compute.
    let f = frame(
        ViewMode::Final,
        RenderSettings {
            prepass: true,
            impostors: true,
            card_raster: Raster::Compute,
            ..RenderSettings::default()
        },
    );
    let order = names(&f);
    assert!(order.contains(&pass::IMPOSTOR_FORWARD) && order.contains(&pass::CARD_SHADOW));
    assert!(!order.contains(&pass::CARD_RASTER) && !order.contains(&pass::IMPOSTOR_SHADOW));
}

/// A frame in which no model has an atlas declares no card pass, whatever the settings ask,
/// and its last forward pass resolves the colours itself.
#[test]
fn a_frame_without_atlases_has_no_card_pass() {
    use crate::gpu::frame::settings::Raster;
    for card_raster in [Raster::Compute, Raster::Graphics] {
        let settings = RenderSettings {
            msaa: 4,
            impostors: true,
            card_raster,
            ..RenderSettings::default()
        };
        let key = GraphKey {
            view: ViewMode::Final,
            readback: true,
            present: false,
            crowd_state: false,
            tracks: false,
            density: false,
            hud: false,
            cards: false,
            shadow_size: 2048,
            alpha_clip: false,
            shadow_cascade: false,
        };
        let f = match compile(key, &settings, vk::Format::R8G8B8A8_SRGB, Culling::Back) {
            Ok(f) => f,
            Err(e) => panic!("{card_raster:?}: {e}"),
        };
        let order = names(&f);
        assert!(
            !order
                .iter()
                .any(|n| n.starts_with("impostor_") || n.starts_with("card_")),
            "{card_raster:?}: {order:?}"
        );
        let resolved = *declared_use(&f.plan, step(&f, pass::FORWARD_LATE), id(&f, "sun light"))
            .expect("the late pass resolves the sun's light");
        assert!(resolved.writes && resolved.stores, "{resolved:?}");
    }
}

/// Multisampled with the ground in compute, no lit pass resolves: the ground pass samples
/// the colours each left and writes the resolved images, the camera depth pass reads the
/// depth's sample zero, and only the first forward pass resolves the depth, for the
/// occlusion test between it and the late pass (which, drawing nothing, then costs no
/// resolve). Whether the cards are quads or in compute, with and without the occlusion test.
#[test]
fn the_ground_resolves_the_lit_passes() {
    use crate::gpu::frame::settings::Raster;
    for (card_raster, occlusion) in [
        (Raster::Compute, true),
        (Raster::Graphics, true),
        (Raster::Compute, false),
        (Raster::Graphics, false),
    ] {
        let settings = RenderSettings {
            msaa: 4,
            impostors: true,
            occlusion,
            card_raster,
            ground: Raster::Compute,
            ..RenderSettings::default()
        };
        let f = frame(ViewMode::Final, settings);
        let order = names(&f);
        let case = format!("{card_raster:?}, occlusion {occlusion}: {order:?}");
        let lit: Vec<&str> = [pass::FORWARD, pass::FORWARD_LATE, pass::IMPOSTOR_FORWARD]
            .into_iter()
            .filter(|name| order.contains(name))
            .collect();
        assert_eq!(
            lit.len(),
            1 + usize::from(occlusion) + usize::from(card_raster == Raster::Graphics),
            "{case}"
        );
        for image in ["sun light", "sky light", "normals", "depth"] {
            let resolved = id(&f, image);
            let samples = id(&f, &format!("{image} (multisampled)"));
            for &name in &lit {
                let used = declared_use(&f.plan, step(&f, name), resolved);
                // The first pass's depth, for the occlusion test.
                let expected = image == "depth" && occlusion && name == pass::FORWARD;
                assert_eq!(used.is_ok(), expected, "{name} {image} {case}: {used:?}");
                let drawn = declared_use(&f.plan, step(&f, name), samples).expect("drawn");
                assert!(
                    drawn.writes && drawn.stores,
                    "{name} {image} {case}: {drawn:?}"
                );
            }
            if image == "depth" {
                let read = declared_use(&f.plan, step(&f, pass::CAMERA_DEPTH), samples);
                let read = read.expect("the camera depth reads the samples");
                assert_eq!(
                    read.layout,
                    Some(vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL),
                    "{case}"
                );
                let resolved = declared_use(&f.plan, step(&f, pass::CAMERA_DEPTH), resolved);
                assert!(resolved.is_err(), "{case}: {resolved:?}");
                continue;
            }
            let read = *declared_use(&f.plan, step(&f, pass::GROUND), samples).expect("sampled");
            assert!(read.loads && !read.writes, "{image} {case}: {read:?}");
            assert_eq!(read.layout, Some(vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL));
            let written =
                *declared_use(&f.plan, step(&f, pass::GROUND), resolved).expect("written");
            assert!(
                !written.loads && written.writes,
                "{image} {case}: {written:?}"
            );
        }
    }
}

#[test]
fn the_skin_pass_runs_between_each_culling_and_what_draws_its_lists() {
    let compute = RenderSettings {
        skin: Raster::Compute,
        ..RenderSettings::default()
    };
    let f = frame(ViewMode::Final, compute);
    let order = names(&f);
    assert_order(
        &order,
        &[
            (pass::CULL_DRAWS, pass::SKIN),
            (pass::SKIN, pass::SHADOW),
            (pass::SKIN, pass::FORWARD),
            (pass::FORWARD, pass::CULL_DRAWS_LATE),
            (pass::CULL_DRAWS_LATE, pass::SKIN_LATE),
            (pass::SKIN_LATE, pass::FORWARD_LATE),
        ],
    );
    let skinned = id(&f, "skinned vertices");
    let table = id(&f, "skin table");
    for name in [pass::SKIN, pass::SKIN_LATE] {
        let s = step(&f, name);
        assert!(declared_use(&f.plan, s, skinned).is_ok(), "{name} writes");
        assert!(declared_use(&f.plan, s, table).is_ok(), "{name} reads");
    }
    for name in [pass::SHADOW, pass::FORWARD, pass::FORWARD_LATE] {
        assert!(
            declared_use(&f.plan, step(&f, name), skinned).is_ok(),
            "{name} reads the skinned vertices"
        );
    }
    // The vertex shaders skin where nothing else does: no skin pass, and pipelines whose
    // vertex shaders read nothing of it.
    for settings in [
        RenderSettings::default(),
        RenderSettings {
            skin: Raster::Graphics,
            ..compute
        },
        RenderSettings {
            skin_memory_mb: 0,
            ..compute
        },
    ] {
        let f = frame(ViewMode::Final, settings);
        let order = names(&f);
        assert!(
            !order.contains(&pass::SKIN) && !order.contains(&pass::SKIN_LATE),
            "{settings:?}: {order:?}"
        );
        let shaders = vertex_shaders(&f);
        assert!(shaders.contains(&"skinned.vert") && shaders.contains(&"shadow.vert"));
        assert!(!shaders.iter().any(|s| s.contains("_once")), "{shaders:?}");
    }
    let shaders = vertex_shaders(&f);
    assert!(
        shaders.contains(&"skinned_once.vert") && shaders.contains(&"shadow_once.vert"),
        "{shaders:?}"
    );
    assert!(!shaders.contains(&"skinned.vert") && !shaders.contains(&"shadow.vert"));
}

#[test]
fn the_shadow_pass_clips_by_alpha_only_where_a_model_needs_it() {
    for skin in [Raster::Graphics, Raster::Compute] {
        let settings = RenderSettings {
            skin,
            ..RenderSettings::default()
        };
        let without = frame(ViewMode::Final, settings);
        let names =
            |f: &CompiledFrame| -> Vec<&str> { f.pipeline_descs.iter().map(|d| d.name).collect() };
        assert!(!names(&without).contains(&"shadow clip"), "{skin:?}");
        let key = GraphKey {
            alpha_clip: true,
            ..key_of(ViewMode::Final)
        };
        let with = match compile(key, &settings, vk::Format::R8G8B8A8_SRGB, Culling::Back) {
            Ok(f) => f,
            Err(e) => panic!("{e}"),
        };
        assert!(names(&with).contains(&"shadow clip"), "{skin:?}");
        let clip = if skin == Raster::Compute {
            "shadow_clip_once.vert"
        } else {
            "shadow_clip.vert"
        };
        assert!(vertex_shaders(&with).contains(&clip), "{skin:?}");
        // Every other pipeline is the same.
        assert_eq!(names(&with).len(), names(&without).len() + 1, "{skin:?}");
    }
}

/// The vertex shaders of the frame's graphics pipelines.
fn vertex_shaders(f: &CompiledFrame) -> Vec<&'static str> {
    f.pipeline_descs
        .iter()
        .filter_map(|d| match &d.kind {
            PipelineKind::Graphics(g) => Some(g.vertex),
            _ => None,
        })
        .collect()
}

#[test]
fn every_pass_of_the_fullest_frame_is_timed() {
    let settings = RenderSettings {
        msaa: 4,
        impostors: true,
        card_raster: Raster::Compute,
        ground: Raster::Compute,
        skin: Raster::Compute,
        mesh_raster: Raster::Compute,
        tonemap: true,
        auto_exposure: true,
        ..RenderSettings::default()
    };
    let key = GraphKey {
        view: ViewMode::Final,
        readback: true,
        present: false,
        crowd_state: true,
        tracks: true,
        density: true,
        hud: true,
        cards: true,
        shadow_size: 2048,
        alpha_clip: true,
        // The near shadow square's two passes.
        shadow_cascade: true,
    };
    let f = match compile(key, &settings, vk::Format::R8G8B8A8_SRGB, Culling::Back) {
        Ok(f) => f,
        Err(e) => panic!("{e}"),
    };
    let recorded: Vec<&str> = f
        .plan
        .steps()
        .iter()
        .filter(|s| f.recorder(s).is_some())
        .map(|s| s.name)
        .collect();
    eprintln!("{} passes recorded: {recorded:?}", recorded.len());
    assert!(
        recorded.len() <= crate::gpu::frame::in_flight::MAX_PASSES,
        "{} passes, {} timed: {recorded:?}",
        recorded.len(),
        crate::gpu::frame::in_flight::MAX_PASSES
    );
}

/// Meshes in compute: the mesh raster after every lit pass and skin pass, into the visibility
/// buffer the cards share, before the ground (which reads it to leave the claimed samples
/// out) and the shading after it; none of it without the ground in compute or with a prepass.
#[test]
fn meshes_in_compute_go_between_the_lit_passes_and_the_ground() {
    for (msaa, skin, impostors) in [
        (1, Raster::Graphics, false),
        (4, Raster::Compute, true),
        (4, Raster::Graphics, true),
    ] {
        let settings = RenderSettings {
            msaa,
            impostors,
            card_raster: Raster::Compute,
            ground: Raster::Compute,
            skin,
            mesh_raster: Raster::Compute,
            ..RenderSettings::default()
        };
        let f = frame(ViewMode::Final, settings);
        let order = names(&f);
        let what = format!("{msaa} samples, skin {skin:?}, cards {impostors}");
        let mut pairs = vec![
            (pass::CULL_DRAWS_LATE, pass::MESH_RASTER),
            (pass::FORWARD_LATE, pass::MESH_RASTER),
            (pass::CARD_VISIBILITY_CLEAR, pass::MESH_RASTER),
            (pass::MESH_RASTER, pass::GROUND),
            (pass::GROUND, pass::MESH_SHADE),
            (pass::MESH_RASTER, pass::CAMERA_DEPTH),
            (pass::MESH_SHADE, pass::SSAO),
            (pass::MESH_SHADE, pass::AMBIENT_COMPOSITE),
        ];
        if skin == Raster::Compute {
            pairs.push((pass::SKIN_LATE, pass::MESH_RASTER));
        }
        if impostors {
            pairs.push((pass::CARD_RASTER, pass::GROUND));
            pairs.push((pass::GROUND, pass::CARD_SHADE));
        }
        assert_order(&order, &pairs);
        let use_of = |name, id| *declared_use(&f.plan, step(&f, name), id).expect("declared");
        let visibility = id(&f, "visibility");
        assert!(use_of(pass::MESH_RASTER, visibility).writes, "{what}");
        let claims = use_of(pass::GROUND, visibility);
        assert!(!claims.writes, "{what}: {claims:?}");
        for image in ["sun light", "sky light", "normals"] {
            let merged = use_of(pass::MESH_SHADE, id(&f, image));
            assert!(merged.loads && merged.writes, "{what} {image}: {merged:?}");
        }
    }
    for (ground, prepass) in [(Raster::Graphics, false), (Raster::Compute, true)] {
        let settings = RenderSettings {
            ground,
            prepass,
            mesh_raster: Raster::Compute,
            ..RenderSettings::default()
        };
        let order = names(&frame(ViewMode::Final, settings));
        for absent in [
            pass::MESH_RASTER,
            pass::MESH_SHADE,
            pass::CARD_VISIBILITY_CLEAR,
        ] {
            assert!(!order.contains(&absent), "{ground:?} {prepass}: {order:?}");
        }
    }
}

/// The sun's meshes in compute: splatted into the shadow depths after the skin pass skinned
/// the sun's lists and beside the sun's cards, copied into the shadow map before the shadow
/// pass, which loads it and draws the rest; with or without the camera's raster, cards or a
/// debug view showing the map; none of it with `--mesh-raster graphics` or without shadows.
#[test]
fn the_suns_meshes_in_compute_go_before_the_shadow_pass() {
    for (view, ground, skin, impostors) in [
        (ViewMode::Final, Raster::Compute, Raster::Compute, true),
        (ViewMode::Final, Raster::Graphics, Raster::Graphics, false),
        (ViewMode::Shadow, Raster::Graphics, Raster::Compute, true),
    ] {
        let settings = RenderSettings {
            impostors,
            card_raster: Raster::Compute,
            ground,
            skin,
            mesh_raster: Raster::Compute,
            ..RenderSettings::default()
        };
        let f = frame(view, settings);
        let order = names(&f);
        let what = format!("{view:?}, ground {ground:?}, skin {skin:?}, cards {impostors}");
        let mut pairs = vec![
            (pass::CULL_DRAWS, pass::MESH_SHADOW),
            (pass::SHADOW_SPLAT_CLEAR, pass::MESH_SHADOW),
            (pass::MESH_SHADOW, pass::SHADOW_SPLAT_COPY),
            (pass::SHADOW_SPLAT_COPY, pass::SHADOW),
        ];
        if skin == Raster::Compute {
            pairs.push((pass::SKIN, pass::MESH_SHADOW));
        }
        if impostors {
            pairs.push((pass::CARD_SHADOW, pass::SHADOW_SPLAT_COPY));
        }
        assert_order(&order, &pairs);
        assert_eq!(
            order.contains(&pass::MESH_RASTER),
            view == ViewMode::Final && ground == Raster::Compute,
            "{what}: {order:?}"
        );
        let use_of = |name, id| *declared_use(&f.plan, step(&f, name), id).expect("declared");
        let depths = id(&f, "shadow depths");
        assert!(use_of(pass::MESH_SHADOW, depths).writes, "{what}");
        let map = id(&f, "shadow map");
        let drawn = use_of(pass::SHADOW, map);
        assert!(drawn.loads && drawn.writes, "{what}: {drawn:?}");
    }
    for (mesh_raster, shadows) in [(Raster::Graphics, true), (Raster::Compute, false)] {
        let settings = RenderSettings {
            shadows,
            mesh_raster,
            ..RenderSettings::default()
        };
        let order = names(&frame(ViewMode::Final, settings));
        for absent in [
            pass::MESH_SHADOW,
            pass::SHADOW_SPLAT_CLEAR,
            pass::SHADOW_SPLAT_COPY,
        ] {
            assert!(
                !order.contains(&absent),
                "{mesh_raster:?} {shadows}: {order:?}"
            );
        }
    }
}

/// A frame whose key has the near shadow cascade declares the map two squares wide and the
/// near square's pass after the whole box's (with the sun's mesh raster, its dispatch into a
/// second square of the shadow depths too); a frame without one, without shadows or showing
/// the shadow map, neither.
#[test]
fn the_near_cascade_declares_its_square_and_pass_only_where_it_is_drawn() {
    let with_key = GraphKey {
        shadow_cascade: true,
        ..key_of(ViewMode::Final)
    };
    let graphics = RenderSettings {
        mesh_raster: Raster::Graphics,
        ..RenderSettings::default()
    };
    let compile_for = |key, settings: &RenderSettings| match compile(
        key,
        settings,
        vk::Format::R8G8B8A8_SRGB,
        Culling::Back,
    ) {
        Ok(f) => f,
        Err(e) => panic!("{e}"),
    };
    let map_width = |f: &CompiledFrame| {
        let desc = f
            .plan
            .transient_desc(id(f, "shadow map"))
            .expect("the shadow map is the graph's");
        match desc.extent {
            crate::gpu::graph::Extent::Fixed(w, h) => {
                assert_eq!(h, 2048);
                w
            }
            other => panic!("{other:?}"),
        }
    };
    let with = compile_for(with_key, &graphics);
    assert_eq!(map_width(&with), 4096);
    assert_order(&names(&with), &[(pass::SHADOW, pass::SHADOW_NEAR)]);
    assert_order(&names(&with), &[(pass::SHADOW_NEAR, "forward")]);
    assert!(!names(&with).contains(&"mesh_shadow_near"));
    // The sun's mesh raster splats into both squares of its depths, copied into both of the
    // map's, before the graphics passes draw the rest over them.
    let compute = RenderSettings {
        mesh_raster: Raster::Compute,
        ..graphics
    };
    let splats = compile_for(with_key, &compute);
    assert_eq!(map_width(&splats), 4096);
    assert_order(
        &names(&splats),
        &[
            ("mesh_shadow", "mesh_shadow_near"),
            ("mesh_shadow_near", pass::SHADOW_SPLAT_COPY),
            (pass::SHADOW_SPLAT_COPY, pass::SHADOW),
            (pass::SHADOW, pass::SHADOW_NEAR),
        ],
    );
    let (_, depths) = splats
        .buffers
        .iter()
        .find(|(_, b)| b.name == "shadow depths")
        .expect("the shadow depths");
    assert_eq!(depths.size.fixed, 2 * 2048 * 2048 * 4);
    for (why, key, settings) in [
        ("no cascade in the key", key_of(ViewMode::Final), graphics),
        (
            "no shadows",
            with_key,
            RenderSettings {
                shadows: false,
                ..graphics
            },
        ),
        (
            "the shadow view",
            GraphKey {
                view: ViewMode::Shadow,
                ..with_key
            },
            graphics,
        ),
    ] {
        let f = compile_for(key, &settings);
        assert!(!names(&f).contains(&pass::SHADOW_NEAR), "{why}");
        if settings.shadows {
            assert_eq!(map_width(&f), 2048, "{why}");
        }
    }
}
