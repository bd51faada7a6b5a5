//! A crowd of `huesitos.fbx`, read by the native FBX loader, rendered headless on a Vulkan
//! device (lavapipe in CI): GPU skinning against CPU skinning of one instance, and a crowd of
//! sixteen that covers the frame and moves. The validation layers must stay silent.

mod common;
mod gpu_common;

use std::sync::Arc;

use throng::anim::{Mat3x4, PoseScratch, SkinnedModel};
use throng::asset;
use throng::gpu::ViewMode;

use common::silhouette::{covered, iou, mask_from_rgba8, silhouette};
use gpu_common::*;

const SIZE: u32 = 192;

fn huesitos() -> Arc<SkinnedModel> {
    let path = common::shared_asset("assimp/huesitos.fbx");
    Arc::new(asset::load_file(&path).unwrap_or_else(|e| panic!("{e}")))
}

#[test]
fn gpu_skinning_of_huesitos_matches_cpu_skinning() {
    let Some(mut r) = renderer(SIZE, SIZE) else {
        return;
    };
    let model = huesitos();
    assert_eq!(model.format(), "fbx");
    let (mut crowd, bounds) = crowd_of(&mut r, std::slice::from_ref(&model), 1, 11);
    let time = 0.8;
    hold_pose(&mut crowd, 0, time);
    let camera = framing(&r, &bounds);
    let frame = inputs(&r, &camera, &bounds, ViewMode::Silhouette);
    let gpu = mask_from_rgba8(&render(&mut r, &mut crowd, &frame).rgba8);
    let mut palette = vec![Mat3x4::IDENTITY; model.joint_count()];
    model.evaluate(0, time, &mut PoseScratch::default(), &mut palette);
    let cpu = silhouette(
        &model,
        &palette,
        crowd.world(0),
        frame.view_proj,
        SIZE as usize,
        SIZE as usize,
    );
    assert!(covered(&cpu) > 300, "CPU silhouette {} px", covered(&cpu));
    let score = iou(&gpu, &cpu);
    assert!(score >= 0.95, "GPU and CPU silhouettes overlap {score:.3}");
    assert_no_validation_messages();
}

#[test]
fn a_crowd_of_huesitos_renders_headless_and_moves() {
    let Some(mut r) = renderer(SIZE, SIZE) else {
        return;
    };
    let (mut crowd, bounds) = crowd_of(&mut r, &[huesitos()], 16, 3);
    let camera = framing(&r, &bounds);
    let frame = inputs(&r, &camera, &bounds, ViewMode::Silhouette);
    hold_pose(&mut crowd, 0, 0.0);
    let a = render(&mut r, &mut crowd, &frame);
    hold_pose(&mut crowd, 0, 0.8);
    let b = render(&mut r, &mut crowd, &frame);
    let total = (SIZE * SIZE) as usize;
    for c in [count_white(&a), count_white(&b)] {
        assert!(
            c > total / 100 && c < total / 2,
            "{c} of {total} pixels covered"
        );
    }
    // The tubes bend: the silhouettes at two times differ, but stand in the same places.
    let overlap = iou(&mask_from_rgba8(&a.rgba8), &mask_from_rgba8(&b.rgba8));
    assert!((0.2..0.97).contains(&overlap), "overlap {overlap:.3}");
    let lit = render_view(&mut r, &mut crowd, &camera, &bounds, ViewMode::Final);
    assert!(
        count_not(&lit, [0, 0, 0]) > total / 2,
        "the lit frame is drawn"
    );
    assert_no_validation_messages();
}
