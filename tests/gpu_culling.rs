//! The culling pass keeps everything that can be seen: frames with culling on and off are the
//! same pixels (silhouettes, so draw order cannot matter), from the overview and from the
//! street, for several crowds; limbs swinging past the bind pose at the screen's edge are
//! still drawn; and the GPU's counts per view and level are exactly what the CPU statement of
//! the rules (`throng::crowd::visibility`) says for a fixed scene.

mod gpu_common;

use std::sync::Arc;

use glam::{Quat, Vec3, Vec3A};
use gpu_common::{
    assert_no_validation_messages, builtin, count_white, crowd_of, differing, framing, hold_pose,
    inputs, render, renderer,
};
use throng::anim::{Bounds, Mat3x4, SkinnedModel};
use throng::crowd::visibility::{
    Frustum, LOD_LEVELS, ViewScale, WorldBox, casts_shadow_into, lod_level, max_scale, mesh_share,
    shadow_allowance, shadow_may_be_card, shadow_texel,
};
use throng::crowd::{Crowd, ModelId};
use throng::gpu::{FrameInputs, HeadlessRenderer, LOD_ERROR_PX, RenderSettings, ViewMode};
use throng::scene::{OrbitCamera, light_view_proj, near_cascade};

const WIDTH: u32 = 320;
const HEIGHT: u32 = 180;

/// One sample per pixel throughout: these checks compare which pixels are covered, and
/// multisampling would leave edges half covered (and cost lavapipe four times the samples).
fn settings(cull: bool, lod: bool) -> RenderSettings {
    RenderSettings {
        cull,
        lod,
        msaa: 1,
        ..RenderSettings::default()
    }
}

/// One silhouette frame under `settings`.
fn silhouette(
    r: &mut HeadlessRenderer,
    crowd: &mut Crowd,
    frame: &FrameInputs,
    settings: RenderSettings,
) -> throng::gpu::Pixels {
    r.renderer().set_settings(settings).expect("settings");
    render(r, crowd, frame)
}

/// The street camera of `crowd` (as `run --camera street` places it).
fn street(crowd: &Crowd, bounds: &Bounds, model: &SkinnedModel) -> throng::scene::Camera {
    let at: Vec<Vec3> = (0..crowd.len())
        .map(|i| crowd.world(i).translation())
        .collect();
    let height = model.mesh().bounds().map_or(1.8, |b| b.max.y - b.min.y);
    let cell =
        throng::scene::CrowdLayout::new(crowd.len(), 1).cell_size(&[Arc::new(model.clone())]);
    OrbitCamera::street(bounds.min, bounds.max, &at, height * 0.94, cell, false).camera()
}

#[test]
fn culling_never_drops_a_visible_instance() {
    let model = builtin();
    for seed in [1, 2, 3] {
        let Some(mut r) = renderer(WIDTH, HEIGHT) else {
            return;
        };
        let (mut crowd, bounds) = crowd_of(&mut r, std::slice::from_ref(&model), 400, seed);
        // Moving limbs, different clips and phases: advance the crowd a little.
        crowd.update(0.37 * seed as f32);
        for (name, camera) in [
            ("overview", framing(&r, &bounds)),
            ("street", street(&crowd, &bounds, &model)),
        ] {
            let frame = inputs(&r, &camera, &bounds, ViewMode::Silhouette);
            // Meshes only, and with the far instances impostor cards (cross-fading too).
            for impostors in [false, true] {
                let with = |cull| RenderSettings {
                    impostors,
                    impostor_px: Some(24.0),
                    ..settings(cull, false)
                };
                let all = silhouette(&mut r, &mut crowd, &frame, with(false));
                let culled = silhouette(&mut r, &mut crowd, &frame, with(true));
                assert!(
                    count_white(&all) > 500,
                    "{name}, seed {seed}: the crowd is in view"
                );
                assert_eq!(
                    differing(&all, &culled, 0),
                    0,
                    "{name}, seed {seed}, impostors {impostors}: culling changed the silhouette"
                );
                if impostors {
                    let drawn = r.renderer().draw_stats();
                    r.renderer().gpu_ms_average().expect("wait");
                    let drawn = r.renderer().draw_stats().or(drawn).expect("counts");
                    assert!(
                        name == "street" || drawn.camera_cards > 0,
                        "{name}, seed {seed}: no instance was a card"
                    );
                }
            }
            // It did cull something from the street: the rows behind the eye.
            if name == "street" {
                let drawn = r.renderer().draw_stats();
                r.renderer().gpu_ms_average().expect("wait");
                let drawn = r.renderer().draw_stats().or(drawn).expect("counts");
                let camera: u64 = drawn.camera.iter().sum();
                assert!(
                    camera < crowd.len() as u64,
                    "seed {seed}: the street camera drew all {camera}"
                );
            }
        }
    }
    assert_no_validation_messages();
}

/// What the CPU statement of the rules says one frame draws.
#[derive(Debug, Default, PartialEq)]
struct Expected {
    /// Instances per level in the camera's view.
    seen: [u64; LOD_LEVELS],
    /// Per level in the shadow's.
    shadows: [u64; LOD_LEVELS],
    /// Impostor cards in the camera's view and in the shadow's.
    cards: (u64, u64),
    /// Instances in the camera's view (each once, whether mesh, card or both).
    in_view: u64,
    /// Shadows that are meshes, not cards, because the near shadow cascade reaches them.
    near_meshes: u64,
}

/// What the CPU statement of the rules says one frame draws, with cards for instances
/// shorter than `card_px` (when given).
fn reference(
    crowd: &Crowd,
    model: &SkinnedModel,
    frame: &FrameInputs,
    height: u32,
    bias: f32,
    card_px: Option<f32>,
) -> Expected {
    let camera = Frustum::from_clip(frame.view_proj);
    let (lo, hi) = frame.shadow_box;
    let light_matrix = light_view_proj(frame.light_dir, lo, hi);
    let light = Frustum::from_clip(light_matrix);
    // The renderer's map at the frame's size, as it chooses it.
    let extent = ash::vk::Extent2D {
        width: WIDTH,
        height,
    };
    let texel = shadow_texel(
        light_matrix,
        RenderSettings::default().shadow_size_at(extent),
    );
    let scale = ViewScale {
        eye: frame.eye,
        pixels_per_unit: 0.5 * height as f32 * frame.proj.y_axis.y.abs(),
    };
    let errors: Vec<f32> = model
        .lods()
        .iter()
        .take(LOD_LEVELS - 1)
        .map(|l| l.error)
        .collect();
    let first = crowd.bounds_range(ModelId(0)).start;
    // The renderer's near cascade for this frame (shadows on, the sun's meshes drawn by
    // the graphics passes on lavapipe): within its reach a shadow is never a card.
    let reach =
        near_cascade(frame.view, frame.proj, frame.shadow_box, frame.light_dir).map(|n| n.reach);
    let mut e = Expected::default();
    for i in 0..crowd.len() {
        let clip = crowd.instance(i).clip();
        let world = crowd.world(i);
        let b = WorldBox::placed(&crowd.bounds()[first + clip], world);
        let pixels_per_unit = scale.pixels_per_unit_at(&b);
        let level = |allowed: f32| lod_level(&errors, max_scale(world), pixels_per_unit, allowed);
        let allowed = LOD_ERROR_PX * bias;
        // The mesh's share: meshes where above 0, cards where under 255 (both between);
        // the shadow one or the other.
        let share = card_px.map_or(255, |px| mesh_share(&b, &scale, px));
        if camera.intersects(&b) {
            e.in_view += 1;
            if share < 255 {
                e.cards.0 += 1;
            }
            if share > 0 {
                e.seen[level(allowed)] += 1;
            }
        }
        let sun = frame.light_dir.normalize();
        if casts_shadow_into(&b, &light, &camera, sun, frame.ground_plane.w) {
            let may_be_card = shadow_may_be_card(scale.nearest_distance(&b), reach);
            if share < 128 && may_be_card {
                e.cards.1 += 1;
            } else {
                if share < 128 {
                    e.near_meshes += 1;
                }
                e.shadows[level(shadow_allowance(allowed, texel, pixels_per_unit))] += 1;
            }
        }
    }
    e
}

#[test]
fn the_gpu_counts_match_the_cpu_rules() {
    let Some(mut r) = renderer(WIDTH, HEIGHT) else {
        return;
    };
    let model = builtin();
    let (mut crowd, bounds) = crowd_of(&mut r, std::slice::from_ref(&model), 900, 7);
    // Held poses: no fades, one clip per instance, so each instance's bound is its clip's.
    hold_pose(&mut crowd, 1, 0.3);
    let overview = framing(&r, &bounds);
    // Closer in and turned: part of the crowd is out of view, distances vary a lot.
    let mut near = OrbitCamera::framing(bounds.min, bounds.max, WIDTH as f32 / HEIGHT as f32);
    near.zoom(0.35);
    near.rotate(0.5, -0.15);
    for (name, camera, bias) in [
        ("overview", overview, 1.0),
        ("near", near.camera(), 1.0),
        ("near, bias 4", near.camera(), 4.0),
    ] {
        let frame = inputs(&r, &camera, &bounds, ViewMode::Final);
        // The rules without the occlusion test, which depends on what was drawn.
        r.renderer()
            .set_settings(RenderSettings {
                lod_bias: bias,
                occlusion: false,
                ..settings(true, true)
            })
            .expect("settings");
        r.render(&mut crowd, &frame).expect("frame");
        r.renderer().gpu_ms_average().expect("wait");
        let got = r.renderer().draw_stats().expect("the frame's counts");
        let Expected { seen, shadows, .. } = reference(&crowd, &model, &frame, HEIGHT, bias, None);
        eprintln!("{name}: camera {:?}, shadow {:?}", got.camera, got.shadow);
        assert_eq!(got.camera, seen, "{name}: instances per level in view");
        assert_eq!(got.shadow, shadows, "{name}: shadow casters per level");
        assert_eq!(
            (got.camera_cards, got.shadow_cards),
            (0, 0),
            "{name}: cards off"
        );
        let in_view: u64 = seen.iter().sum();
        assert!(in_view > 0, "{name}: nothing in view");
        if name != "overview" {
            assert!(
                in_view < crowd.len() as u64,
                "{name}: everything in view, the test proves little"
            );
        }
    }
    assert_no_validation_messages();
}

/// With impostors on, the instances shorter on screen than the threshold are counted as cards
/// (camera and shadow) and the rest keep their levels, those crossing it (cross-faded) in
/// both, exactly as the CPU rules say; at a threshold between the nearest and the farthest
/// characters both kinds are drawn.
#[test]
fn the_gpu_cards_match_the_cpu_rules() {
    let Some(mut r) = renderer(WIDTH, HEIGHT) else {
        return;
    };
    let model = builtin();
    let (mut crowd, bounds) = crowd_of(&mut r, std::slice::from_ref(&model), 900, 7);
    hold_pose(&mut crowd, 1, 0.3);
    let mut near = OrbitCamera::framing(bounds.min, bounds.max, WIDTH as f32 / HEIGHT as f32);
    near.zoom(0.35);
    near.rotate(0.5, -0.15);
    let frame = inputs(&r, &near.camera(), &bounds, ViewMode::Final);
    // The same frame with the sun's box 30 times as wide (as if the crowd went on out of
    // view) and a seventh as tall (so the near cascade's reach, 25 of its heights, ends inside
    // the crowd): the near shadow cascade reaches the nearer instances, whose shadows stay
    // meshes, and not the farther ones.
    let (lo, hi) = frame.shadow_box;
    let (centre, half) = (0.5 * (lo + hi), 0.5 * (hi - lo));
    let wide = FrameInputs {
        shadow_box: (
            (centre - half * 30.0).with_y(lo.y),
            (centre + half * 30.0).with_y(lo.y + (hi.y - lo.y) / 7.0),
        ),
        ..frame
    };
    assert!(
        near_cascade(frame.view, frame.proj, frame.shadow_box, frame.light_dir).is_none(),
        "the crowd's own box needs no near cascade"
    );
    for (px, frame) in [(12.0, frame), (24.0, frame), (1e6, frame), (24.0, wide)] {
        r.renderer()
            .set_settings(RenderSettings {
                occlusion: false,
                impostors: true,
                impostor_px: Some(px),
                ..settings(true, true)
            })
            .expect("settings");
        r.render(&mut crowd, &frame).expect("frame");
        r.renderer().gpu_ms_average().expect("wait");
        let got = r.renderer().draw_stats().expect("the frame's counts");
        let want = reference(&crowd, &model, &frame, HEIGHT, 1.0, Some(px));
        eprintln!(
            "{px} px: cards {} (shadow {}), meshes {:?}",
            got.camera_cards, got.shadow_cards, got.camera
        );
        assert_eq!(
            (got.camera_cards, got.shadow_cards),
            want.cards,
            "{px} px: cards"
        );
        assert_eq!(got.camera, want.seen, "{px} px: meshes per level");
        assert_eq!(got.shadow, want.shadows, "{px} px: shadow meshes per level");
        let meshes: u64 = want.seen.iter().sum();
        if frame.shadow_box != wide.shadow_box {
            assert_eq!(want.near_meshes, 0, "{px} px: no near cascade");
        } else {
            assert!(
                want.near_meshes > 0 && want.cards.1 > 0,
                "the near cascade should keep some shadows meshes, not all: {want:?}"
            );
            continue;
        }
        if px == 24.0 {
            assert!(
                want.cards.0 > 0 && meshes > 0 && want.cards.0 + meshes > want.in_view,
                "24 px should split this view into cards and meshes, some cross-fading: \
                 {want:?}"
            );
        }
        if px == 1e6 {
            assert_eq!(
                meshes, 0,
                "every character is shorter than a million pixels"
            );
        }
    }
    assert_no_validation_messages();
}

#[test]
fn swinging_limbs_at_the_screen_edge_are_drawn() {
    let Some(mut r) = renderer(WIDTH, HEIGHT) else {
        return;
    };
    let model = builtin();
    let run = model.clip_index("run").expect("the builtin runs");
    let mut crowd = Crowd::new(1).expect("crowd");
    let id = crowd.add_model(model.clone());
    r.add_model(&model, &throng::scene::model_basis(&model))
        .expect("upload");
    // A camera at the origin looking down -Z; characters in a column along the right edge
    // of its view, side-on (facing -X, into the view), each placed so that its bind pose is
    // just outside: only a stride or an arm swing brings part of it in.
    let camera = throng::scene::Camera {
        eye: Vec3::new(0.0, 1.0, 0.0),
        target: Vec3::new(0.0, 1.0, -1.0),
        up: Vec3::Y,
        fov_y: throng::scene::DEFAULT_FOV_Y,
        near: 0.1,
        far: 60.0,
    };
    let aspect = WIDTH as f32 / HEIGHT as f32;
    let frustum = Frustum::from_clip(camera.view_proj(aspect));
    let bind = throng::scene::bind_pose_bounds(&model).expect("bounds");
    let facing = Quat::from_rotation_y(-std::f32::consts::FRAC_PI_2);
    let duration = model.clips()[run].duration();
    let mut placed = 0;
    for k in 0..6 {
        let depth = 4.0 + 3.0 * k as f32;
        // Slide right until the bind box leaves the view, then a little more.
        let mut x = 0.0;
        let world = loop {
            let w = Mat3x4::from_trs(Vec3A::new(x, 0.0, -depth), facing, Vec3A::ONE);
            if !frustum.intersects(&WorldBox::placed(&bind, &w)) {
                break Mat3x4::from_trs(Vec3A::new(x + 0.01, 0.0, -depth), facing, Vec3A::ONE);
            }
            x += 0.01;
        };
        let i = crowd.spawn(id, world).expect("spawn");
        crowd.instance_mut(i).play(run, 0.0).expect("run");
        crowd.instance_mut(i).set_speed(0.0);
        placed += 1;
    }
    let bounds = Bounds {
        min: Vec3::new(-5.0, 0.0, -25.0),
        max: Vec3::new(15.0, 2.0, 0.0),
    };
    let frame = inputs(&r, &camera, &bounds, ViewMode::Silhouette);
    let mut frames_with_limbs = 0;
    for step in 0..24 {
        let t = duration * step as f32 / 24.0;
        for i in 0..placed {
            crowd.instance_mut(i).set_time(t);
        }
        crowd.update(0.0);
        let all = silhouette(&mut r, &mut crowd, &frame, settings(false, false));
        let culled = silhouette(&mut r, &mut crowd, &frame, settings(true, false));
        if count_white(&all) > 0 {
            frames_with_limbs += 1;
        }
        assert_eq!(
            differing(&all, &culled, 0),
            0,
            "at {t:.3} s a limb in view was culled"
        );
    }
    assert!(
        frames_with_limbs > 0,
        "no limb ever entered the view: the test proves nothing"
    );
    assert_no_validation_messages();
}

/// Occlusion culling hides only what nothing would show: from the street, where the near
/// characters hide much of the crowd, frames with and without it are the same, lit and as
/// depth, while it draws fewer instances.
#[test]
fn occlusion_culling_changes_nothing_but_the_cost() {
    let Some(mut r) = renderer(WIDTH, HEIGHT) else {
        return;
    };
    let model = builtin();
    let (mut crowd, bounds) = crowd_of(&mut r, std::slice::from_ref(&model), 900, 5);
    crowd.update(0.4);
    let camera = street(&crowd, &bounds, &model);
    let mut drawn = Vec::new();
    for view in [ViewMode::Final, ViewMode::Depth] {
        let frame = inputs(&r, &camera, &bounds, view);
        let mut shot = |occlusion: bool| {
            r.renderer()
                .set_settings(RenderSettings {
                    occlusion,
                    msaa: 1,
                    ..RenderSettings::default()
                })
                .expect("settings");
            let pixels = render(&mut r, &mut crowd, &frame);
            r.renderer().gpu_ms_average().expect("wait");
            let counts = r.renderer().draw_stats().expect("counts");
            (pixels, counts.camera.iter().sum::<u64>())
        };
        let (without, all) = shot(false);
        let (with, fewer) = shot(true);
        drawn.push((all, fewer));
        // Two characters at exactly one depth in one pixel could shade in either order; none
        // does here, but a pixel or two of slack keeps the test about culling.
        let off = differing(&without, &with, 0);
        assert!(off <= 2, "{view:?}: occlusion culling changed {off} pixels");
    }
    let (all, fewer) = drawn[0];
    eprintln!("in view: {all}; drawn with occlusion culling: {fewer}");
    assert!(
        fewer < all,
        "occlusion culling hid nothing from the street ({fewer} of {all} drawn)"
    );
    assert_no_validation_messages();
}

/// A model added after frames were drawn: the counts of the frames still in flight were
/// numbered by the models they drew, and are read as such (reading them by the new count
/// once indexed past the counters and panicked); the frames after it count the new model too.
#[test]
fn a_model_added_between_frames_is_counted_from_then_on() {
    let Some(mut r) = renderer(WIDTH, HEIGHT) else {
        return;
    };
    let model = builtin();
    let (mut crowd, bounds) = crowd_of(&mut r, std::slice::from_ref(&model), 64, 3);
    hold_pose(&mut crowd, 1, 0.3);
    let frame = inputs(&r, &framing(&r, &bounds), &bounds, ViewMode::Final);
    r.renderer()
        .set_settings(settings(true, true))
        .expect("settings");
    for _ in 0..3 {
        r.render(&mut crowd, &frame).expect("frame");
    }
    let before = r.renderer().draw_stats();
    // A second model, with instances of its own among the first's.
    let second = Arc::new((*model).clone());
    let id = crowd.add_model(second.clone());
    r.add_model(&second, &throng::scene::model_basis(&second))
        .expect("upload");
    for k in 0..16 {
        let at = Vec3A::new(k as f32 * 0.3 - 2.4, 0.0, 0.5);
        crowd
            .spawn(id, Mat3x4::from_trs(at, Quat::IDENTITY, Vec3A::ONE))
            .expect("spawn");
    }
    hold_pose(&mut crowd, 1, 0.3);
    for _ in 0..4 {
        r.render(&mut crowd, &frame)
            .expect("frame after the new model");
    }
    r.renderer().gpu_ms_average().expect("wait");
    let after = r.renderer().draw_stats().expect("the last frame's counts");
    let drawn = |s: &throng::gpu::DrawStats| s.camera.iter().sum::<u64>();
    assert!(
        drawn(&after) > before.as_ref().map_or(0, drawn),
        "the new model's instances are counted: {after:?} after {before:?}"
    );
    assert_no_validation_messages();
}
