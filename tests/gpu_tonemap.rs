//! A post-process pass between the lit passes and the output: with `tonemap` on, every pixel
//! of the frame is the frame without it mapped through the filmic curve, computed here on the
//! CPU from the shader's constants (sRGB decoded, mapped, encoded), within the rounding of two
//! 8-bit encodings; the lit passes draw the same either way (the plan-level test in
//! `src/gpu/renderer/compose/tests.rs` checks their declarations).
//!
//! Without a Vulkan device this prints why and skips, except under `CI=true`, where it fails.

mod gpu_common;

use gpu_common::{builtin, crowd_of, framing, hold_pose, inputs, render, renderer};
use throng::gpu::{RenderSettings, ViewMode};

fn to_linear(c: u8) -> f32 {
    let c = f32::from(c) / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

fn to_srgb(l: f32) -> f32 {
    let l = l.clamp(0.0, 1.0);
    255.0
        * if l <= 0.003_130_8 {
            l * 12.92
        } else {
            1.055 * l.powf(1.0 / 2.4) - 0.055
        }
}

/// `shaders/tonemap.frag`'s curve.
fn filmic(x: f32) -> f32 {
    let (a, b, c, d, e) = (2.51, 0.03, 2.43, 0.59, 0.14);
    let x = x * 0.72;
    (x * (a * x + b) / (x * (c * x + d) + e)).clamp(0.0, 1.0)
}

#[test]
fn the_tone_curve_maps_every_pixel_of_the_lit_frame() {
    let Some(mut r) = renderer(160, 90) else {
        return;
    };
    let model = builtin();
    let (mut crowd, bounds) = crowd_of(&mut r, std::slice::from_ref(&model), 64, 5);
    hold_pose(&mut crowd, 1, 0.3);
    let frame = inputs(&r, &framing(&r, &bounds), &bounds, ViewMode::Final);
    let mut frame_with = |tonemap| {
        r.renderer()
            .set_settings(RenderSettings {
                tonemap,
                ..RenderSettings::default()
            })
            .expect("settings");
        render(&mut r, &mut crowd, &frame)
    };
    let lit = frame_with(false);
    let mapped = frame_with(true);
    let (mut worst, mut changed) = (0.0f32, 0usize);
    for (a, b) in lit.rgba8.chunks(4).zip(mapped.rgba8.chunks(4)) {
        for c in 0..3 {
            let want = to_srgb(filmic(to_linear(a[c])));
            worst = worst.max((want - f32::from(b[c])).abs());
            changed += usize::from(a[c] != b[c]);
        }
    }
    eprintln!("{changed} channels changed; the worst is {worst:.2} levels from the curve");
    assert!(
        changed > lit.rgba8.len() / 8,
        "the curve changed only {changed} channels: did the pass run?"
    );
    assert!(
        worst <= 2.0,
        "a pixel is {worst:.2} levels from the curve applied to the lit frame"
    );
    gpu_common::assert_no_validation_messages();
}
