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
    // Lit, the characters are drawn where their silhouettes are: the pixels one pose covers
    // and the other does not (away from either outline) change between the two lit frames,
    // and they are lit, not black.
    let lit_b = render_view(&mut r, &mut crowd, &camera, &bounds, ViewMode::Final);
    hold_pose(&mut crowd, 0, 0.0);
    let lit_a = render_view(&mut r, &mut crowd, &camera, &bounds, ViewMode::Final);
    let (ma, mb) = (mask_from_rgba8(&a.rgba8), mask_from_rgba8(&b.rgba8));
    let inside = |m: &[bool], i: usize| {
        let (x, y) = (i % SIZE as usize, i / SIZE as usize);
        let n = SIZE as usize;
        (x > 0 && y > 0 && x + 1 < n && y + 1 < n)
            && [i, i - 1, i + 1, i - n, i + n].iter().all(|&j| m[j])
    };
    let outside = |m: &[bool], i: usize| {
        let (x, y) = (i % SIZE as usize, i / SIZE as usize);
        let n = SIZE as usize;
        (x > 0 && y > 0 && x + 1 < n && y + 1 < n)
            && [i, i - 1, i + 1, i - n, i + n].iter().all(|&j| !m[j])
    };
    let moved: Vec<usize> = (0..total)
        .filter(|&i| (inside(&mb, i) && outside(&ma, i)) || (inside(&ma, i) && outside(&mb, i)))
        .collect();
    let differs =
        |i: usize| (0..3).any(|c| lit_a.rgba8[i * 4 + c].abs_diff(lit_b.rgba8[i * 4 + c]) > 8);
    let changed = moved.iter().filter(|&&i| differs(i)).count();
    let luma = |p: &throng::gpu::Pixels, i: usize| {
        let c = &p.rgba8[i * 4..i * 4 + 3];
        0.299 * f64::from(c[0]) + 0.587 * f64::from(c[1]) + 0.114 * f64::from(c[2])
    };
    let character: Vec<usize> = (0..total).filter(|&i| inside(&mb, i)).collect();
    let lit = character
        .iter()
        .filter(|&&i| luma(&lit_b, i) > 20.0)
        .count();
    eprintln!(
        "{changed} of the {} pixels only one pose covers change in the lit frames; {lit} of the \
         {} character pixels are lit",
        moved.len(),
        character.len()
    );
    assert!(moved.len() >= 50, "only {} pixels moved", moved.len());
    assert!(
        changed * 10 >= moved.len() * 9,
        "only {changed} of the {} pixels that one pose covers and the other does not changed \
         in the lit frame",
        moved.len()
    );
    assert!(
        lit * 10 >= character.len() * 9,
        "only {lit} of the {} character pixels are lit",
        character.len()
    );
    assert_no_validation_messages();
}
