//! The ground's checkerboard seen at a grazing angle: where a pixel covers many tiles, the
//! tiles blend to their mean instead of aliasing into stripes (moire). Measured as the mean
//! difference between horizontally neighbouring pixels in a band of far ground, against the
//! same in a band of near ground (where the tiles' edges are few and sharp).

mod gpu_common;

use glam::{Vec3, Vec4};
use gpu_common::{assert_no_validation_messages, builtin, crowd_of, render, renderer};
use throng::gpu::{FrameInputs, ViewMode};
use throng::scene::{Camera, Light};

const WIDTH: u32 = 320;
const HEIGHT: u32 = 240;

/// Mean absolute difference between horizontal neighbours, over rows `rows`, green channel.
fn roughness(rgba: &[u8], rows: std::ops::Range<u32>) -> f64 {
    let mut sum = 0u64;
    let mut n = 0u64;
    for y in rows {
        for x in 0..WIDTH - 1 {
            let at = |x: u32| rgba[((y * WIDTH + x) * 4 + 1) as usize];
            sum += u64::from(at(x).abs_diff(at(x + 1)));
            n += 1;
        }
    }
    sum as f64 / n as f64
}

#[test]
fn far_ground_blends_instead_of_aliasing() {
    let Some(mut r) = renderer(WIDTH, HEIGHT) else {
        return;
    };
    let model = builtin();
    // One character far behind the camera: the frame is all ground and sky.
    let (mut crowd, _) = crowd_of(&mut r, std::slice::from_ref(&model), 1, 1);
    crowd.set_world(
        0,
        throng::anim::Mat3x4::from_trs(
            glam::Vec3A::new(0.0, 0.0, 500.0),
            glam::Quat::IDENTITY,
            glam::Vec3A::ONE,
        ),
    );
    crowd.update(1.0 / 60.0);
    // Eye 1.7 m above the ground, looking at a point 40 m ahead: the horizon sits in the
    // upper part of the frame, the ground's far tiles just below it.
    let camera = Camera {
        eye: Vec3::new(0.0, 1.7, 0.0),
        target: Vec3::new(0.0, 0.0, -40.0),
        up: Vec3::Y,
        fov_y: 60f32.to_radians(),
        near: 0.1,
        far: 1000.0,
    };
    let mut frame = FrameInputs::new(
        &camera,
        WIDTH as f32 / HEIGHT as f32,
        &Light::default_sun(),
        // A ground 400 m across around the eye: its edge fade is far beyond the band.
        Vec4::new(0.0, 0.0, 400.0, 0.0),
        0.5,
        ViewMode::Final,
    );
    frame.shadow_box = (Vec3::splat(-1.0), Vec3::splat(1.0));
    let pixels = render(&mut r, &mut crowd, &frame);
    // Where the horizon is: the first row from the top that is not sky.
    let sky = &pixels.rgba8[..4];
    let horizon = (0..HEIGHT)
        .find(|&y| {
            let at = ((y * WIDTH + WIDTH / 2) * 4) as usize;
            pixels.rgba8[at..at + 3] != sky[..3]
        })
        .expect("ground in the frame");
    assert!(horizon < HEIGHT / 2, "horizon at row {horizon}");
    // Far: a band a few rows below the horizon, where a pixel spans several tiles.
    let far = roughness(&pixels.rgba8, horizon + 3..horizon + 13);
    // Near: the bottom rows, tiles a few dozen pixels wide.
    let near = roughness(&pixels.rgba8, HEIGHT - 20..HEIGHT);
    eprintln!("horizon at row {horizon}: neighbour difference far {far:.2}, near {near:.2}");
    assert!(near > 0.0, "the near ground shows its tiles");
    assert!(
        far < 1.5,
        "far ground flickers between tiles: neighbours differ by {far:.2} on average"
    );
    assert_no_validation_messages();
}
