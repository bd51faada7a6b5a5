//! A prop stays where its joint is: the built-in staff in the built-in character's right
//! hand, drawn alone (a look hides the character's own materials) in the silhouette view, at
//! eight moments of the walk and of the run, with exact palettes and with baked frames. At
//! each, the point the staff is held at and its top, projected from the hand's own transform
//! (the pose evaluated on the CPU), must each lie within a pixel or two of the staff's
//! pixels. And the staff costs its instance little: see docs/variety.md for the figures.
//!
//! Without a Vulkan device this prints why and skips, except under `CI=true`, where it fails.

mod gpu_common;

use std::sync::Arc;

use glam::{Vec3, Vec4};
use throng::anim::{Mat3x4, PoseScratch};
use throng::asset::builtin::props::prop;
use throng::asset::props::{Attachment, attach};
use throng::crowd::{AnimationMode, BakeSettings, Look};
use throng::gpu::ViewMode;

use gpu_common::{builtin, crowd_of, framing, gait_moments, hold_pose, render_view};

const SIZE: u32 = 192;
/// The most, in pixels, a projected point of the staff may lie from its nearest pixel.
const NEAR_PX: f32 = 2.5;

#[test]
fn a_staff_stays_in_the_hand_exact_and_baked() {
    let Some(mut r) = gpu_common::renderer(SIZE, SIZE) else {
        return;
    };
    let base = builtin();
    let staff = prop("staff").expect("the built-in staff");
    let hand = base.skeleton().find(staff.joint).expect("the right hand");
    let model = Arc::new(
        attach(
            &base,
            &[Attachment {
                name: "staff".into(),
                mesh: staff.mesh.clone(),
                joint: hand,
                offset: staff.offset,
            }],
        )
        .expect("attached"),
    );
    let (mut crowd, bounds) = crowd_of(&mut r, std::slice::from_ref(&model), 1, 1);
    // The staff alone: the character's own four materials hidden.
    let own = base.mesh().materials.len();
    let only_the_staff = crowd
        .add_look(Look {
            hidden: ((1u32 << own) - 1) as u8,
            ..Look::PLAIN
        })
        .expect("room");
    crowd.set_look(0, only_the_staff).expect("its look");
    crowd.bake(BakeSettings::default());
    let camera = framing(&r, &bounds);
    let view_proj = camera.view_proj(1.0);
    let n = model.joint_count();
    let (mut scratch, mut palette) = (PoseScratch::new(n), vec![Mat3x4::IDENTITY; n]);
    // Where the hand holds the staff, and its top, in the staff's own frame.
    let (grip, tip) = (Vec3::ZERO, Vec3::new(0.0, 0.95, 0.0));
    // A point the staff does not reach (a third of a metre past its lower end): far from its
    // pixels, or the check proves nothing.
    let beyond = Vec3::new(0.0, -0.9, 0.0);
    // The whole character in the same view, to know the staff alone is drawn.
    hold_pose(&mut crowd, 0, 0.0);
    crowd
        .set_look(0, throng::crowd::LookId::PLAIN)
        .expect("plain");
    let body = gpu_common::count_white(&render_view(
        &mut r,
        &mut crowd,
        &camera,
        &bounds,
        ViewMode::Silhouette,
    ));
    crowd.set_look(0, only_the_staff).expect("its look");
    let mut checked = 0;
    for mode in [AnimationMode::Exact, AnimationMode::Baked] {
        crowd.set_animation(mode);
        for &(name, clip, t) in &gait_moments(&model) {
            hold_pose(&mut crowd, clip, t);
            let pixels = render_view(&mut r, &mut crowd, &camera, &bounds, ViewMode::Silhouette);
            let white: Vec<(f32, f32)> = pixels
                .rgba8
                .chunks_exact(4)
                .enumerate()
                .filter(|(_, p)| p[0] > 128)
                .map(|(i, _)| {
                    (
                        (i as u32 % SIZE) as f32 + 0.5,
                        (i as u32 / SIZE) as f32 + 0.5,
                    )
                })
                .collect();
            assert!(
                white.len() > 40 && white.len() < body / 3,
                "{mode:?} {name} at {t}: {} pixels of the staff against {body} of the body",
                white.len()
            );
            model.evaluate(clip, t, &mut scratch, &mut palette);
            let to_root = scratch.to_root(n)[hand];
            for (what, local) in [("grip", grip), ("tip", tip), ("beyond", beyond)] {
                let world = crowd
                    .world(0)
                    .transform_point3(to_root.transform_point3(local + staff.offset));
                let clip_pos = view_proj * Vec4::new(world.x, world.y, world.z, 1.0);
                let ndc = clip_pos.truncate() / clip_pos.w;
                let at = (
                    (ndc.x * 0.5 + 0.5) * SIZE as f32,
                    (ndc.y * 0.5 + 0.5) * SIZE as f32,
                );
                let nearest = white
                    .iter()
                    .map(|&(x, y)| ((x - at.0).powi(2) + (y - at.1).powi(2)).sqrt())
                    .fold(f32::INFINITY, f32::min);
                let near = nearest <= NEAR_PX;
                assert_eq!(
                    near,
                    what != "beyond",
                    "{mode:?} {name} at {t:.3} s: the staff's {what} projects to {at:?}, \
                     {nearest:.1} px from the staff's pixels"
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 2 * 2 * 8 * 3);
    gpu_common::assert_no_validation_messages();
}
