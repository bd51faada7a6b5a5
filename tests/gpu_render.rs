//! Frames rendered on a Vulkan device (lavapipe in CI), checked on their pixels: one
//! character and a crowd, animation visible, GPU skinning against CPU skinning, mixed
//! models, resizing, a crowd that outgrows its palette ring, and alpha-clipped materials'
//! shadows. Every test also requires that the validation layers stayed silent.

mod common;
mod gpu_common;

use std::sync::Arc;

use glam::Vec3;
use throng::anim::{Mat3x4, PoseScratch, SkinnedModel, Texture, TextureEncoding};
use throng::asset;
use throng::crowd::Look;
use throng::gpu::{Culling, Pixels, Raster, RenderSettings, ViewMode};
use throng::scene::{Camera, MIRROR_Z, footprint, mirrors};

use common::silhouette::{covered, iou, mask_from_rgba8, silhouette};
use gpu_common::*;

const SIZE: u32 = 256;

fn builtin() -> Arc<SkinnedModel> {
    Arc::new(asset::load_model(None).expect("builtin"))
}

fn shared(path: &str) -> Arc<SkinnedModel> {
    let p = common::shared_asset(path);
    Arc::new(asset::load_file(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
}

/// The palette of `model` playing `clip` at `time`.
fn palette(model: &SkinnedModel, clip: usize, time: f32) -> Vec<Mat3x4> {
    let mut out = vec![Mat3x4::IDENTITY; model.joint_count()];
    model.evaluate(clip, time, &mut PoseScratch::default(), &mut out);
    out
}

#[test]
fn one_character_covers_a_plausible_area_and_moves_its_limbs() {
    let Some(mut r) = single_sample_renderer(SIZE, SIZE) else {
        return;
    };
    let model = builtin();
    let (mut crowd, bounds) = crowd_of(&mut r, std::slice::from_ref(&model), 1, 7);
    let walk = model.clip_index("walk").expect("walk");
    let camera = framing(&r, &bounds);
    let frame = inputs(&r, &camera, &bounds, ViewMode::Silhouette);

    hold_pose(&mut crowd, walk, 0.0);
    let a = render(&mut r, &mut crowd, &frame);
    hold_pose(&mut crowd, walk, 0.5);
    let b = render(&mut r, &mut crowd, &frame);

    let total = (SIZE * SIZE) as usize;
    let (ca, cb) = (count_white(&a), count_white(&b));
    // A 1.85 m figure framed with its stride: a few percent of the frame, not a blob.
    for c in [ca, cb] {
        assert!(
            c > total / 50 && c < total / 3,
            "{c} of {total} pixels covered"
        );
    }
    // Half a walk cycle apart the legs have swapped: the masks differ, yet the torso and
    // head stay put, so they still overlap more than they differ.
    let overlap = iou(&mask_from_rgba8(&a.rgba8), &mask_from_rgba8(&b.rgba8));
    assert!(
        (0.4..0.95).contains(&overlap),
        "walk at 0 s and 0.5 s overlap {overlap:.3}"
    );
    assert_no_validation_messages();
}

#[test]
fn a_crowd_of_64_fills_more_of_the_frame_than_one() {
    let Some(mut r) = single_sample_renderer(SIZE, SIZE) else {
        return;
    };
    let model = builtin();
    let (mut crowd, bounds) = crowd_of(&mut r, &[model], 64, 3);
    crowd.update(0.1);
    let camera = framing(&r, &bounds);
    let sil = render_view(&mut r, &mut crowd, &camera, &bounds, ViewMode::Silhouette);
    let lit = render_view(&mut r, &mut crowd, &camera, &bounds, ViewMode::Final);
    let total = (SIZE * SIZE) as usize;
    let covered_px = count_white(&sil);
    assert!(
        covered_px > total / 10,
        "64 characters cover only {covered_px} of {total} pixels"
    );
    // The lit frame is not flat: characters, ground and sky make many distinct colours.
    let mut colours: Vec<[u8; 3]> = lit
        .rgba8
        .chunks_exact(4)
        .map(|p| [p[0], p[1], p[2]])
        .collect();
    colours.sort_unstable();
    colours.dedup();
    assert!(colours.len() > 200, "only {} colours", colours.len());
    assert_no_validation_messages();
}

/// GPU skinning of one instance against CPU skinning projected with the same camera.
fn gpu_matches_cpu(model: Arc<SkinnedModel>, time: f32) {
    let Some(mut r) = single_sample_renderer(SIZE, SIZE) else {
        return;
    };
    let (mut crowd, bounds) = crowd_of(&mut r, std::slice::from_ref(&model), 1, 11);
    let clip = 0;
    hold_pose(&mut crowd, clip, time);
    let camera = framing(&r, &bounds);
    let frame = inputs(&r, &camera, &bounds, ViewMode::Silhouette);
    let gpu = mask_from_rgba8(&render(&mut r, &mut crowd, &frame).rgba8);
    let cpu = silhouette(
        &model,
        &palette(&model, clip, time),
        crowd.world(0),
        frame.view_proj,
        SIZE as usize,
        SIZE as usize,
    );
    let score = iou(&gpu, &cpu);
    assert!(
        covered(&cpu) > 500,
        "{}: the CPU silhouette covers only {} pixels",
        model.name(),
        covered(&cpu)
    );
    assert!(
        score >= 0.95,
        "{}: GPU and CPU silhouettes overlap {score:.3} (GPU {} px, CPU {} px)",
        model.name(),
        covered(&gpu),
        covered(&cpu)
    );
    assert_no_validation_messages();
}

#[test]
fn gpu_skinning_matches_cpu_builtin() {
    gpu_matches_cpu(builtin(), 0.4);
}

#[test]
fn gpu_skinning_matches_cpu_soldier_m3d() {
    gpu_matches_cpu(shared("m3d/soldier.m3d"), 0.6);
}

#[test]
fn gpu_skinning_matches_cpu_cesium_man() {
    gpu_matches_cpu(shared("gltf/CesiumMan.glb"), 0.7);
}

#[test]
fn gpu_skinning_matches_cpu_robot() {
    gpu_matches_cpu(shared("gltf/robot.glb"), 0.3);
}

#[test]
fn the_front_face_is_right_for_every_winding_and_mirror() {
    // Culling back faces must hide (almost) nothing that drawing both sides shows: for a
    // closed mesh nothing at all, for one with openings (the soldier's armour) only what is
    // seen through them. Culling the other side, which is what a wrong front face would do,
    // shows the inside of the far side instead: far more pixels change. The soldier winds
    // its triangles the other way from glTF and the built-in character, and a mirrored
    // placement flips the winding on screen once more.
    let cases = [
        (builtin(), Mat3x4::IDENTITY),
        (builtin(), MIRROR_Z),
        (shared("m3d/soldier.m3d"), Mat3x4::IDENTITY),
        (shared("m3d/soldier.m3d"), MIRROR_Z),
        (shared("gltf/CesiumMan.glb"), Mat3x4::IDENTITY),
    ];
    for (model, basis) in cases {
        let Some(mut r) = single_sample_renderer(SIZE, SIZE) else {
            return;
        };
        r.add_model(&model, &basis).expect("upload");
        let mut crowd = throng::crowd::Crowd::new(1).expect("crowd");
        let id = crowd.add_model(model.clone());
        let (radius, height) = footprint(&model);
        for k in 0..3 {
            let mut world = basis;
            world.rows[0].w = (k as f32 - 1.0) * radius * 2.2;
            crowd.spawn(id, world).expect("spawn");
        }
        hold_pose(&mut crowd, 0, 0.3);
        let bounds = throng::anim::Bounds {
            min: glam::Vec3::new(-radius * 3.3, 0.0, -radius),
            max: glam::Vec3::new(radius * 3.3, height, radius),
        };
        let camera = framing(&r, &bounds);
        let frame = inputs(&r, &camera, &bounds, ViewMode::Final);
        let back = render(&mut r, &mut crowd, &frame);
        r.renderer().set_culling(Culling::None).expect("pipeline");
        let both = render(&mut r, &mut crowd, &frame);
        r.renderer().set_culling(Culling::Front).expect("pipeline");
        let front = render(&mut r, &mut crowd, &frame);
        let right = differing(&back, &both, 2);
        let wrong = differing(&front, &both, 2);
        assert!(
            right * 5 < wrong,
            "{} (mirrored: {}): culling back faces changes {right} pixels, front faces {wrong}",
            model.name(),
            mirrors(&basis)
        );
    }
    assert_no_validation_messages();
}

#[test]
fn a_crowd_mixing_two_models_draws_both() {
    let Some(mut r) = single_sample_renderer(SIZE, SIZE) else {
        return;
    };
    let a = builtin();
    let b = shared("gltf/CesiumMan.glb");
    let (mut crowd, bounds) = crowd_of(&mut r, &[a.clone(), b.clone()], 2, 9);
    hold_pose(&mut crowd, 0, 0.2);
    let camera = framing(&r, &bounds);
    let frame = inputs(&r, &camera, &bounds, ViewMode::Silhouette);
    let gpu = mask_from_rgba8(&render(&mut r, &mut crowd, &frame).rgba8);
    let (n, size) = (SIZE as usize, SIZE as usize);
    let mut union = vec![false; n * size];
    for (i, model) in [a, b].iter().enumerate() {
        let cpu = silhouette(
            model,
            &palette(model, 0, 0.2),
            crowd.world(i),
            frame.view_proj,
            n,
            size,
        );
        // Each model's own silhouette is drawn...
        let inside = cpu.iter().zip(&gpu).filter(|(c, g)| **c && **g).count();
        assert!(
            inside * 100 >= covered(&cpu) * 95,
            "{}: only {inside} of its {} pixels drawn",
            model.name(),
            covered(&cpu)
        );
        for (u, c) in union.iter_mut().zip(&cpu) {
            *u |= *c;
        }
    }
    // ...and nothing else.
    assert!(
        iou(&gpu, &union) >= 0.95,
        "overlap {:.3}",
        iou(&gpu, &union)
    );
    assert_no_validation_messages();
}

#[test]
fn resizing_and_a_growing_crowd_keep_rendering() {
    let Some(mut r) = single_sample_renderer(SIZE, SIZE) else {
        return;
    };
    let model = builtin();
    let (mut crowd, bounds) = crowd_of(&mut r, std::slice::from_ref(&model), 4, 2);
    let camera = framing(&r, &bounds);
    let first = render_view(&mut r, &mut crowd, &camera, &bounds, ViewMode::Silhouette);
    let generation = r.renderer().ring_generation();

    // Many more instances: the ring must be replaced, and the new region bound.
    let id = throng::crowd::ModelId(0);
    for k in 0..400 {
        let mut world = *crowd.world(k % 4);
        world.rows[0].w += 0.5 * ((k / 4) % 10) as f32 - 2.5;
        world.rows[2].w -= 0.8 * (k / 40) as f32;
        crowd.spawn(id, world).expect("spawn");
    }
    crowd.update(0.05);
    let grown = render_view(&mut r, &mut crowd, &camera, &bounds, ViewMode::Silhouette);
    assert!(
        r.renderer().ring_generation() > generation,
        "the ring did not grow"
    );
    assert!(
        count_white(&grown) > count_white(&first),
        "404 instances cover no more than 4"
    );
    // Frames in flight on the old region, then more on the new one.
    for _ in 0..4 {
        crowd.update(1.0 / 60.0);
        render_view(&mut r, &mut crowd, &camera, &bounds, ViewMode::Final);
    }

    r.resize(200, 120).expect("resize");
    let small = render_view(&mut r, &mut crowd, &camera, &bounds, ViewMode::Silhouette);
    assert_eq!((small.width, small.height), (200, 120));
    assert_eq!(small.rgba8.len(), 200 * 120 * 4);
    assert!(count_white(&small) > 200, "nothing drawn after the resize");

    // The shadow map's side follows the frame's: a larger map after a larger frame, into
    // which the sun's casters are drawn again.
    assert_eq!(r.renderer().shadow_size(), 256);
    r.resize(640, 360).expect("resize");
    assert_eq!(r.renderer().shadow_size(), 1024);
    let map = render_view(&mut r, &mut crowd, &camera, &bounds, ViewMode::Shadow);
    let casters = count_not(&map, [255, 255, 255]);
    // Measured: 27,560 of 230,400 (the rest is the map's far depth, white).
    assert!(
        (1000..640 * 360 / 2).contains(&casters),
        "{casters} pixels of casters in the new map"
    );
    assert_no_validation_messages();
}

/// The built-in character with material `m` alpha-clipped through a 2x2 white texture whose
/// every texel has `alpha` (the camera's passes and the shadow pass keep texels of alpha one
/// half and over).
fn clipped(m: usize, alpha: u8) -> Arc<SkinnedModel> {
    let mut model = (*builtin()).clone();
    let lods = model.lods().to_vec();
    let mut mesh = model.mesh().clone();
    let mut png = Vec::new();
    image::RgbaImage::from_pixel(2, 2, image::Rgba([255, 255, 255, alpha]))
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .expect("png");
    mesh.textures.push(Texture {
        name: format!("alpha {alpha}"),
        width: 2,
        height: 2,
        encoding: TextureEncoding::Png,
        source: png.into(),
    });
    let material = &mut mesh.materials[m];
    material.alpha_clip = true;
    material.base_color_texture = Some(mesh.textures.len() - 1);
    model
        .replace_mesh(mesh)
        .expect("same mesh, one texture more");
    // Same vertices and triangles: the coarser levels still fit.
    model.set_lods(lods).expect("levels");
    Arc::new(model)
}

/// Nine of `model` holding `walk` at 0.25 s, framed with room for their shadows, every
/// instance wearing a look that hides the materials of `hidden` (bits); `view` of that frame
/// under `settings`.
fn nine(
    model: Arc<SkinnedModel>,
    hidden: u8,
    view: ViewMode,
    settings: RenderSettings,
) -> Option<Pixels> {
    let mut r = single_sample_renderer(SIZE, SIZE)?;
    r.renderer().set_settings(settings).expect("settings");
    let (mut crowd, bounds) = crowd_of(&mut r, std::slice::from_ref(&model), 9, 5);
    let look = crowd
        .add_look(Look {
            hidden,
            ..Look::PLAIN
        })
        .expect("look");
    for i in 0..crowd.len() {
        crowd.set_look(i, look).expect("set look");
    }
    hold_pose(&mut crowd, model.clip_index("walk").expect("walk"), 0.25);
    let frame = inputs_with_shadows(&r, &bounds, view);
    Some(render(&mut r, &mut crowd, &frame))
}

/// An alpha-clipped material casts the shadow of what it shows: a shirt whose texture is
/// clear everywhere leaves the same shadow map and lit frame as the shirt left out (a look
/// that hides it, the independent path), one whose texture is opaque everywhere the same as
/// the plain model; with the vertex shaders skinning, with the skin pass, and with the depth
/// prepass. Measured: the shirt changes 759 pixels of the shadow view and 3,898 of the lit
/// frame (3,920 with the prepass), and both clipped shirts match their references exactly;
/// before the shadow pass clipped, the clear shirt still cast its shadow (759 pixels off), and
/// a prepass that does not clip leaves its depth behind (2,450 pixels off, planted).
#[test]
fn an_alpha_clipped_material_casts_only_what_it_shows() {
    const SHIRT: usize = 1;
    let plain = builtin();
    assert_eq!(plain.mesh().materials[SHIRT].name, "shirt");
    // The vertex shaders skinning, the skin pass, and the depth prepass (whose fragment stage
    // clips on its own).
    for (skin, prepass) in [
        (Raster::Graphics, false),
        (Raster::Compute, false),
        (Raster::Graphics, true),
    ] {
        let settings = RenderSettings {
            skin,
            prepass,
            ..RenderSettings::default()
        };
        for view in [ViewMode::Shadow, ViewMode::Final] {
            let Some(whole) = nine(plain.clone(), 0, view, settings) else {
                return;
            };
            let without = nine(plain.clone(), 1 << SHIRT, view, settings).expect("frame");
            let clear = nine(clipped(SHIRT, 0), 0, view, settings).expect("frame");
            let opaque = nine(clipped(SHIRT, 255), 0, view, settings).expect("frame");
            let what = format!("{view:?}, skin {skin:?}, prepass {prepass}");
            // The shirt shows: hiding it changes the frame (in the shadow view, its shadow).
            let shirt = differing(&whole, &without, 2);
            let (to_clear, to_opaque) = (
                differing(&clear, &without, 2),
                differing(&opaque, &whole, 2),
            );
            eprintln!(
                "{what}: the shirt changes {shirt} pixels; clear shirt against the shirt left \
                 out {to_clear}, opaque against the plain model {to_opaque}"
            );
            assert!(shirt > 200, "{what}: the shirt changes only {shirt} pixels");
            assert!(
                to_clear <= 2,
                "{what}: {to_clear} pixels differ from the shirt left out"
            );
            assert!(
                to_opaque <= 2,
                "{what}: {to_opaque} pixels differ from the plain model"
            );
        }
    }
    assert_no_validation_messages();
}

/// The street among a crowd that goes on far out of view: one map fitted to a sun's box
/// 400 m wide blurs the near shadows away (40 cm texels); the near cascade gives them back.
/// Its frame is held against the frame whose sun's box is 80 m wide (one square with texels
/// about as fine as the near one's, and no cascade: the independent path), and so is the
/// frame of the wide box without the cascade. Measured (320x180, 1,024-texel squares): 49
/// pixels off by more than 24 levels with the near cascade, 2,701 without (2,515 and 6,268
/// by more than 8: shadows' edges filtered through texels 8 and 10 cm apart); the same with
/// the sun's mesh raster splatting the coarser levels into both squares.
#[test]
fn the_near_cascade_gives_a_wide_crowd_its_near_shadows_back() {
    let (width, height) = (320, 180);
    let model = builtin();
    let render_with = |mesh_raster: Raster, cascade, half_width: f32| -> Option<(Pixels, bool)> {
        let mut r = single_sample_renderer(width, height)?;
        r.renderer()
            .set_settings(RenderSettings {
                shadow_cascade: cascade,
                shadow_size: Some(1024),
                mesh_raster,
                ..RenderSettings::default()
            })
            .expect("settings");
        let (mut crowd, bounds) = crowd_of(&mut r, std::slice::from_ref(&model), 60, 3);
        hold_pose(&mut crowd, model.clip_index("walk").expect("walk"), 0.25);
        let centre = 0.5 * (bounds.min + bounds.max);
        // From just behind the crowd at eye height, along it.
        let camera = Camera {
            eye: Vec3::new(centre.x, 1.7, bounds.max.z + 2.0),
            target: Vec3::new(centre.x, 0.8, bounds.min.z),
            up: Vec3::Y,
            fov_y: 0.8,
            near: 0.1,
            far: 400.0,
        };
        let mut frame = inputs(&r, &camera, &bounds, ViewMode::Final);
        // As the command line fits it, from the ground to the tallest.
        let half = Vec3::new(half_width, 0.0, half_width);
        frame.shadow_box = (
            (centre - half).with_y(bounds.min.y),
            (centre + half).with_y(bounds.max.y),
        );
        let near =
            throng::scene::near_cascade(frame.view, frame.proj, frame.shadow_box, frame.light_dir);
        let pixels = render(&mut r, &mut crowd, &frame);
        // The near square's passes ran exactly where the frame has the near cascade.
        let near = near.filter(|_| cascade);
        r.renderer().gpu_ms_average().expect("wait");
        let ran: Vec<&str> = r.renderer().pass_times().iter().map(|p| p.name).collect();
        let near_passes = match mesh_raster {
            Raster::Compute => &["shadow_near", "mesh_shadow_near"][..],
            _ => &["shadow_near"][..],
        };
        for pass in near_passes {
            assert_eq!(ran.contains(pass), near.is_some(), "{pass} in {ran:?}");
        }
        Some((pixels, near.is_some()))
    };
    // The sun's coarser mesh levels drawn by the shadow passes, and splatted by the sun's
    // mesh raster (into both squares).
    for mesh_raster in [Raster::Graphics, Raster::Compute] {
        let Some((reference, reference_near)) = render_with(mesh_raster, true, 40.0) else {
            return;
        };
        assert!(!reference_near, "an 80 m box needs no near cascade");
        let (with, with_near) = render_with(mesh_raster, true, 200.0).expect("frame");
        assert!(with_near, "a 400 m box has a near cascade");
        let (without, off) = render_with(mesh_raster, false, 200.0).expect("frame");
        assert!(!off, "--shadow-cascade off");
        // Shadows' edges filtered through texels a little apart differ by a few levels; a
        // shadow that is there or not, by more (the sun is 85% of the light on the ground).
        let (near, blurred) = (
            differing(&with, &reference, 24),
            differing(&without, &reference, 24),
        );
        let frame = (width * height) as usize;
        eprintln!(
            "{mesh_raster:?}: against the 80 m box, the near cascade {near} pixels off by \
             more than 24 levels, one map of the 400 m box {blurred} (of {frame})"
        );
        assert!(
            blurred > 20 * near.max(1) && blurred > frame / 50,
            "{mesh_raster:?}: without the cascade the near shadows should blur away: \
             {blurred} against {near}"
        );
        assert!(
            near < frame / 500,
            "{mesh_raster:?}: {near} pixels off with the near cascade"
        );
    }
    assert_no_validation_messages();
}
