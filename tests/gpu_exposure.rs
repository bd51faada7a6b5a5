//! Auto exposure, a feature that keeps state across frames: the exposure the frames adapted
//! to lives on the device and moves towards each frame's average by the frame's time.
//!
//! Read from the pictures (the average brightness is the geometric mean of the luminance,
//! in stops from mid-grey): the first frame takes its own measurement whole, so it is brought
//! to mid-grey at once; when the light drops to a quarter, the next frame (1/60 s later) is
//! still exposed for the bright scene, so it is nearly as much darker as the frame without
//! auto exposure; after ten adaptation times it is back at mid-grey. A state that is not carried from frame to frame, or that
//! ignores the frame's time, fails one of the three.
//!
//! Without a Vulkan device this prints why and skips, except under `CI=true`, where it fails.

mod gpu_common;

use gpu_common::{builtin, crowd_of, framing, hold_pose, inputs, render, renderer};
use throng::gpu::{FrameInputs, Pixels, RenderSettings, ViewMode};

/// The average brightness of `p` in stops from mid-grey: log2 of the geometric mean of its
/// linear luminance over 0.18.
fn stops_from_mid_grey(p: &Pixels) -> f32 {
    let linear = |c: u8| {
        let c = f32::from(c) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    let mut sum = 0.0f64;
    let mut n = 0usize;
    for px in p.rgba8.chunks_exact(4) {
        let l = 0.2126 * linear(px[0]) + 0.7152 * linear(px[1]) + 0.0722 * linear(px[2]);
        sum += f64::from(l.max(1.0 / 1024.0).log2());
        n += 1;
    }
    (sum / n as f64) as f32 - 0.18f32.log2()
}

#[test]
fn the_exposure_adapts_over_time_from_frame_to_frame() {
    let Some(mut r) = renderer(160, 90) else {
        return;
    };
    let model = builtin();
    let (mut crowd, bounds) = crowd_of(&mut r, std::slice::from_ref(&model), 64, 5);
    hold_pose(&mut crowd, 1, 0.3);
    let bright = FrameInputs {
        dt: 1.0 / 60.0,
        ..inputs(&r, &framing(&r, &bounds), &bounds, ViewMode::Final)
    };
    let dim = FrameInputs {
        light_color: bright.light_color * 0.25,
        sky: bright.sky * 0.25,
        ground_ambient: bright.ground_ambient * 0.25,
        ..bright
    };
    let plain = render(&mut r, &mut crowd, &bright);
    let plain_dim = render(&mut r, &mut crowd, &dim);
    r.renderer()
        .set_settings(RenderSettings {
            auto_exposure: true,
            ..RenderSettings::default()
        })
        .expect("settings");
    let first = render(&mut r, &mut crowd, &bright);
    let after_the_drop = render(&mut r, &mut crowd, &dim);
    let mut adapted = after_the_drop.clone();
    let slow = FrameInputs { dt: 0.5, ..dim };
    for _ in 0..10 {
        adapted = render(&mut r, &mut crowd, &slow);
    }
    let stops = [&plain, &first, &after_the_drop, &adapted].map(stops_from_mid_grey);
    // How far the lower light takes the frame down without auto exposure (the sky behind
    // the crowd is the background's, which the light does not scale).
    let drop = stops_from_mid_grey(&plain_dim) - stops[0];
    eprintln!(
        "stops from mid-grey: without {:+.2} (the lower light {drop:+.2} more), first frame \
         {:+.2}, after the drop {:+.2}, adapted {:+.2}",
        stops[0], stops[1], stops[2], stops[3]
    );
    assert!(
        drop < -0.8,
        "the lower light darkens the frame by only {drop:+.2} stops"
    );
    assert!(
        (stops[0]).abs() > 0.3,
        "the plain frame is already at mid-grey: the test shows nothing"
    );
    assert!(
        stops[1].abs() < 0.3,
        "the first frame is {:+.2} stops from mid-grey: it should take its measurement whole",
        stops[1]
    );
    // 1/60 s covers 1 - exp(-1/30), about 3%, of the way: nearly the whole drop shows.
    assert!(
        stops[2] < 0.85 * drop,
        "right after the light dropped the frame is {:+.2} stops from mid-grey, not about \
         {drop:+.2}: the exposure should still be the bright scene's (carried from the last \
         frame, moved by 1/60 s)",
        stops[2]
    );
    assert!(
        stops[3].abs() < 0.4,
        "after ten adaptation times the frame is {:+.2} stops from mid-grey",
        stops[3]
    );
    gpu_common::assert_no_validation_messages();
}
