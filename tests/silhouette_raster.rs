//! The CPU silhouette rasterizer that GPU renders are compared against: coverage of known
//! triangles, the tie rule on shared edges, skipping what is behind the eye, the mask helpers,
//! and a whole character framed by the scene's camera.

mod common;

use common::silhouette::{covered, iou, mask_from_rgba8, rasterize, silhouette};
use glam::{Mat4, Vec4};
use throng::anim::{Mat3x4, PoseScratch};
use throng::asset::builtin;
use throng::scene::{Camera, model_basis, placed_bounds};

/// A clip-space position (w = 1) at framebuffer coordinates `(x, y)` of a `w x h` target.
fn at(x: f32, y: f32, w: usize, h: usize) -> Vec4 {
    Vec4::new(2.0 * x / w as f32 - 1.0, 2.0 * y / h as f32 - 1.0, 0.5, 1.0)
}

#[test]
fn a_right_triangle_covers_half_the_target_within_rounding() {
    let (w, h) = (64, 48);
    let clip = [at(0.0, 0.0, w, h), at(64.0, 0.0, w, h), at(0.0, 48.0, w, h)];
    for indices in [[0u32, 1, 2], [0, 2, 1]] {
        let mask = rasterize(&clip, &indices, w, h);
        let n = covered(&mask);
        // Area 1536; only pixels whose centre is within half a pixel of the hypotenuse can
        // go either way (fewer than one per column).
        assert!(n.abs_diff(w * h / 2) <= w, "{n} pixels");
        assert!(
            mask[0] && !mask[w * h - 1],
            "the corner at the right angle is covered"
        );
    }
}

#[test]
fn a_small_triangle_covers_exactly_the_centres_inside() {
    // Framebuffer (1, 1), (5, 1), (1, 5): centres (x + 0.5, y + 0.5) with x, y >= 1 and
    // x + y + 1 < 6 are strictly inside, six of them; those with x + y = 5 lie on the
    // hypotenuse, four of them, which the tie rule gives to this triangle or its neighbour.
    let (w, h) = (8, 8);
    let clip = [at(1.0, 1.0, w, h), at(5.0, 1.0, w, h), at(1.0, 5.0, w, h)];
    let n = covered(&rasterize(&clip, &[0, 1, 2], w, h));
    assert!(n == 6 || n == 10, "{n}");
}

#[test]
fn shared_edges_count_once_and_a_quad_fills_the_target() {
    let (w, h) = (37, 23);
    let clip = [
        at(0.0, 0.0, w, h),
        at(37.0, 0.0, w, h),
        at(37.0, 23.0, w, h),
        at(0.0, 23.0, w, h),
        // The quad's centre, so diagonals pass through pixel centres exactly.
        at(18.5, 11.5, w, h),
    ];
    // Four triangles fanned around the centre, in both windings.
    for fan in [
        [0u32, 1, 4, 1, 2, 4, 2, 3, 4, 3, 0, 4],
        [1, 0, 4, 2, 1, 4, 3, 2, 4, 0, 3, 4],
    ] {
        let all = rasterize(&clip, &fan, w, h);
        assert_eq!(covered(&all), w * h);
        let parts: usize = fan
            .chunks(3)
            .map(|t| covered(&rasterize(&clip, t, w, h)))
            .sum();
        assert_eq!(parts, w * h, "every pixel in exactly one triangle");
    }
}

#[test]
fn triangles_reaching_behind_the_eye_are_skipped() {
    let (w, h) = (16, 16);
    let mut clip = [at(0.0, 0.0, w, h), at(16.0, 0.0, w, h), at(0.0, 16.0, w, h)];
    clip[2].w = 0.0;
    assert_eq!(covered(&rasterize(&clip, &[0, 1, 2], w, h)), 0);
    clip[2].w = -1.0;
    assert_eq!(covered(&rasterize(&clip, &[0, 1, 2], w, h)), 0);
}

#[test]
fn iou_and_image_masks() {
    let a = [true, true, false, false];
    let b = [true, false, true, false];
    assert_eq!(iou(&a, &a), 1.0);
    assert!((iou(&a, &b) - 1.0 / 3.0).abs() < 1e-12);
    assert_eq!(iou(&[false; 4], &[false; 4]), 1.0);
    assert_eq!(iou(&[true, false], &[false, true]), 0.0);
    let image = [
        255, 255, 255, 255, // white
        0, 0, 0, 255, // black
        100, 100, 100, 255, // dark grey
        200, 200, 200, 0, // light grey, transparent: alpha is ignored
    ];
    assert_eq!(mask_from_rgba8(&image), vec![true, false, false, true]);
}

#[test]
fn the_builtin_character_framed_by_the_scene_camera_fills_the_view() {
    let model = builtin::model().expect("builtin");
    let (w, h) = (96, 128);
    let world = model_basis(&model);
    let bounds = placed_bounds(&model, &world).expect("a mesh");
    let camera = Camera::framing(bounds.min, bounds.max, w as f32 / h as f32);
    let view_proj: Mat4 = camera.view_proj(w as f32 / h as f32);
    let mut palette = vec![Mat3x4::IDENTITY; model.joint_count()];
    let mut scratch = PoseScratch::new(model.joint_count());
    model.bind_palette(&mut scratch, &mut palette);
    let mask = silhouette(&model, &palette, &world, view_proj, w, h);
    let n = covered(&mask);
    // Framed, a character is a sizeable share of the image but leaves its border free.
    assert!(n > w * h / 20 && n < w * h * 3 / 4, "{n} pixels");
    for x in 0..w {
        assert!(!mask[x] && !mask[(h - 1) * w + x], "touches top or bottom");
    }
    for y in 0..h {
        assert!(!mask[y * w] && !mask[y * w + w - 1], "touches a side");
    }
}
